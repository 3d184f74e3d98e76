"""Legal-play generation of the climbing core: plays/s on 18-card (甲乙丙, two decks) and
14-card (放羊, one deck) hands, against a brute-force enumeration in the same run.

Positions are seeded real hands: a lead (every combination) and a follow against a table
play drawn from another hand. ``Rules.plays`` groups by rank; the baseline tries every
sub-multiset of up to 4 cards (the largest combination) and classifies it.

    .venv/bin/python bench/climbing_moves.py            # 300 positions per hand size
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from paiju.games import game
from paiju.games.climbing.core import Combo, brute_force_plays


def positions(code: str, n: int) -> list[tuple[list[int], Combo | None]]:
    g = game(code)
    rng = random.Random(code)
    out: list[tuple[list[int], Combo | None]] = []
    for i in range(n):
        hands = g.new_state(seed=f"moves/{i}").hands  # type: ignore[attr-defined]
        hand = list(hands[0])
        table = None
        if i % 2:
            table = rng.choice(g.rules.plays(hands[1], None))
        out.append((hand, table))
    return out


def bench(code: str, n: int) -> None:
    g = game(code)
    pos = positions(code, n)
    size = len(pos[0][0])
    counts: list[int] = []
    started = time.perf_counter()
    for hand, table in pos:
        counts.append(len(g.rules.plays(hand, table)))
    fast = time.perf_counter() - started
    started = time.perf_counter()
    for (hand, table), count in zip(pos, counts, strict=True):
        assert len(brute_force_plays(g.rules, hand, table)) == count
    slow = time.perf_counter() - started
    print(
        f"{code:17} {size}-card hands: {n / fast:,.0f} generations/s "
        f"({statistics.fmean(counts):.1f} legal plays each, {sum(counts) / fast:,.0f} plays/s); "
        f"brute force {n / slow:,.0f} generations/s; ratio {slow / fast:.0f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    args = parser.parse_args()
    print("(the machine is shared and loaded: figures vary between runs)")
    for code in ("anshan-jiayibing", "anshan-fangyang"):
        bench(code, args.positions)


if __name__ == "__main__":
    main()
