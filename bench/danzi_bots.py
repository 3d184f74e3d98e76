"""宁城打弹子 bot strength: the bot team against two baselines over whole matches.

Each seeded match (deals to 30 points) is played twice on the same deal seeds: the bot
team in seats 0 and 2, then in seats 1 and 3. Opponents: random-legal players
(:class:`~paiju.bots.RandomBot`) and the "smallest beating play" team
(:class:`~paiju.games.danzi.bot.SmallestBot`). Prints the bot team's match win rate and
its mean point margin per deal, each with a 95% interval, and how its 宣战 fared. The
machine is shared and loaded: the times are indicative.

    .venv/bin/python bench/danzi_bots.py               # 60 matches per opponent (120 played)
    .venv/bin/python bench/danzi_bots.py --matches 10
    .venv/bin/python bench/danzi_bots.py --family     # also against the family's ClimbingBot
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable

from paiju.bots import Bot, RandomBot
from paiju.engine import Action, Game, Match, State
from paiju.games import game
from paiju.games.climbing.bot import ClimbingBot
from paiju.games.danzi.bot import DanziBot, SmallestBot
from paiju.games.danzi.game import DanziState

Maker = Callable[[Game, int], Bot]


class FamilyPlayer:
    """The climbing family's :class:`ClimbingBot` at the card play; tribute and 宣战 like the
    danzi bot (the family bot has no such phases)."""

    def __init__(self, game: Game, seed: int) -> None:
        self.play = ClimbingBot(game, seed)
        self.rest = DanziBot(game, seed)

    def act(self, state: State, seat: int) -> Action:
        if state.phase == "playing":
            return self.play.act(state, seat)
        return self.rest.act(state, seat)


def play_match(
    g: Game, seed: str, makers: tuple[Maker, Maker]
) -> tuple[int, list[int], list[tuple[int, bool]]]:
    """One match: the winning team, each deal's point margin for team 0, the declarations."""
    bots = [makers[s % 2](g, s) for s in range(4)]
    match = Match(g, 4, (f"{seed}/{h}" for h in range(10_000)))
    margins: list[int] = []
    declared: list[tuple[int, bool]] = []
    state: DanziState | None = None
    while not match.is_over:
        new = match.next_hand()
        assert isinstance(new, DanziState)
        state = new
        while not state.is_over:
            seat = min(state.to_act())
            state.apply(seat, bots[seat].act(state, seat))
        assert state.points is not None
        margins.append(state.points[0] - state.points[1])
        if state.declarer is not None and not state.automatic:
            declared.append((state.declarer % 2, bool(state.success)))
    assert state is not None and state.winner is not None
    return state.winner, margins, declared


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion (sound at 0 and 1, unlike mean ± 1.96 se)."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def versus(g: Game, matches: int, other: Maker, label: str) -> None:
    wins: list[float] = []
    margins: list[float] = []
    made = tried = 0
    started = time.perf_counter()
    for i in range(matches):
        for bot_team in (0, 1):
            makers: tuple[Maker, Maker] = (DanziBot, other) if bot_team == 0 else (other, DanziBot)
            winner, deal_margins, declared = play_match(g, f"bench/{i}", makers)
            wins.append(float(winner == bot_team))
            sign = 1 if bot_team == 0 else -1
            margins += [sign * m for m in deal_margins]
            for team, success in declared:
                if team == bot_team:
                    tried += 1
                    made += success
    elapsed = time.perf_counter() - started
    low, high = wilson(sum(wins), len(wins))
    m, mh = interval(margins)
    print(f"bot team vs {label}: {len(wins)} matches ({len(margins)} deals, {elapsed:.0f} s)")
    print(
        f"  match win rate {statistics.fmean(wins):.3f} (95% Wilson interval {low:.3f}-{high:.3f})"
    )
    print(f"  point margin per deal {m:+.2f} ± {mh:.2f} (95%)")
    rate = f"{made / tried:.2f}" if tried else "-"
    print(f"  bot 宣战 (after the first deal): {tried} declared, {made} made ({rate})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=60, help="seeds per opponent")
    parser.add_argument(
        "--family", action="store_true", help="also against the family's ClimbingBot"
    )
    args = parser.parse_args()
    g = game("ningcheng-danzi")
    versus(g, args.matches, RandomBot, "random-legal")
    versus(g, args.matches, SmallestBot, "smallest-beating-play")
    if args.family:
        versus(g, args.matches, FamilyPlayer, "the climbing family's ClimbingBot at play")


if __name__ == "__main__":
    main()
