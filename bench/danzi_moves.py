"""宁城打弹子 play generation: time per position and the number of legal plays.

Positions are real: seeded deals of 108 cards (27 each) played out trick by trick by
players who beat the table with a random legal play or pass, recording (hand, table) at
every decision. For every position the generator's time is measured (best of a few
repeats), and on a sample of the positions the brute force (every sub-multiset of the
hand, classified and compared) runs in the same process: the counts must agree, and the
ratio of the two times is printed. The machine is shared and loaded: figures are indicative.

    .venv/bin/python bench/danzi_moves.py      # 40 deals; brute force on 40 positions + 3 leads
    .venv/bin/python bench/danzi_moves.py --deals 5 --brute 10 --brute-full 1
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from paiju.cards import deck
from paiju.games.danzi.combos import Combo, Counts, counts_of
from paiju.games.danzi.game import DanziRules, cards_for
from paiju.games.danzi.moves import brute_force_plays, legal_plays

Position = tuple[Counts, Combo | None]


def positions(deals: int, seed: int) -> list[Position]:
    """Every decision of seeded deals played by random-legal players."""
    rng = random.Random(seed)
    found: list[Position] = []
    for _ in range(deals):
        cards = list(deck("108"))
        rng.shuffle(cards)
        hands = [list(counts_of(cards[i * 27 : (i + 1) * 27])) for i in range(4)]
        out: list[int] = []
        seat, table, owner, passes = 0, None, 0, 0
        while len(out) < 3:
            hand = tuple(hands[seat])
            found.append((hand, table))
            plays = legal_plays(hand, table)
            if plays and (table is None or rng.random() < 0.7):
                play = rng.choice(plays)
                for i, n in enumerate(play.counts):
                    hands[seat][i] -= n
                table, owner, passes = play, seat, 0
                if sum(hands[seat]) == 0:
                    out.append(seat)
            else:
                passes += 1
            live = [s for s in range(4) if s not in out]
            if table is not None and passes >= len(live) - (owner in live):
                table, passes = None, 0  # the trick is over: its winner (or 接风) leads
                seat = owner if owner in live else (owner + 2) % 4
                while seat not in live:
                    seat = (seat + 1) % 4
                continue
            seat = (seat + 1) % 4
            while seat not in live:
                seat = (seat + 1) % 4
    return found


def timed(hand: Counts, table: Combo | None, repeat: int = 3) -> tuple[float, int]:
    best = float("inf")
    count = 0
    for _ in range(repeat):
        t = time.perf_counter()
        count = len(legal_plays(hand, table))
        best = min(best, time.perf_counter() - t)
    return best, count


def as_cards(counts: Counts) -> list[int]:
    """Concrete cards (lowest indexes of the two decks) of a count vector."""
    return list(cards_for(sorted(deck("108")), counts))


def timed_core(rules: DanziRules, hand: Counts, table: Combo | None, repeat: int = 3) -> float:
    """The game's path: the core's ``rules.plays`` on cards (count vectors to cards and back)."""
    cards = as_cards(hand)
    core_table = None if table is None else rules.wrap(table, as_cards(table.counts))
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        rules.plays(cards, core_table)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--brute", type=int, default=40, help="positions for the brute force")
    parser.add_argument(
        "--brute-full", type=int, default=3, help="27-card leads added to the brute force"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    pos = positions(args.deals, args.seed)
    times: list[float] = []
    counts: list[int] = []
    full: list[float] = []
    lead_counts: list[int] = []
    for hand, table in pos:
        dt, n = timed(hand, table)
        times.append(dt)
        counts.append(n)
        if sum(hand) == 27:
            full.append(dt)
            if table is None:
                lead_counts.append(n)
    rules = DanziRules()
    core = [timed_core(rules, hand, table) for hand, table in pos]
    q = statistics.quantiles(times, n=100)
    qc = statistics.quantiles(core, n=100)
    print(f"positions: {len(pos)} from {args.deals} seeded deals (machine shared: indicative)")
    print(
        f"generator: p50 {q[49] * 1e3:.3f} ms, p99 {q[98] * 1e3:.3f} ms, "
        f"max {max(times) * 1e3:.3f} ms per position (targets: p50 <= 2 ms, p99 <= 20 ms)"
    )
    print(
        f"through the game (DanziRules.plays, cards in and out): p50 {qc[49] * 1e3:.3f} ms,"
        f" p99 {qc[98] * 1e3:.3f} ms, max {max(core) * 1e3:.3f} ms"
    )
    if full:
        print(
            f"27-card hands: {len(full)} positions, p50 {statistics.median(full) * 1e3:.3f} ms;"
            f" plays on the lead: mean {statistics.fmean(lead_counts or [0]):.0f},"
            f" max {max(lead_counts or [0])}"
        )
    print(
        f"legal plays per position: mean {statistics.fmean(counts):.1f}, "
        f"median {statistics.median(counts):.0f}, max {max(counts)}"
    )

    rng = random.Random(args.seed)
    sample = rng.sample(range(len(pos)), min(args.brute, len(pos)))
    leads27 = [i for i, (hand, table) in enumerate(pos) if sum(hand) == 27 and table is None]
    sample += leads27[: args.brute_full]
    fast_t = slow_t = 0.0
    mismatches = 0
    for i in sample:
        hand, table = pos[i]
        t = time.perf_counter()
        fast = sorted(p.counts for p in legal_plays(hand, table))
        fast_t += time.perf_counter() - t
        t = time.perf_counter()
        slow = sorted(p.counts for p in brute_force_plays(hand, table))
        slow_t += time.perf_counter() - t
        mismatches += fast != slow
    print(
        f"brute force on {len(sample)} positions ({min(args.brute_full, len(leads27))}"
        f" of them 27-card leads): {slow_t / len(sample) * 1e3:.1f} ms mean"
        f" against {fast_t / len(sample) * 1e3:.3f} ms for the generator"
        f" (x{slow_t / max(fast_t, 1e-9):.0f}); count mismatches: {mismatches}"
    )


if __name__ == "__main__":
    main()
