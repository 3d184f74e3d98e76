"""鞍山麻将 bot strength: the bot against three random-legal players, and against three
"shanten-only" players (lowest 向听数, no 进张, no claims but 胡, no defence).

Every seeded wall is played four times, the bot in each seat in turn (seats rotated on the
same walls). Prints the bot's mean settlement per hand and its win rate (share of hands it
wins), each with a 95% interval, and how often hands end in 流局.

    .venv/bin/python bench/majiang_bots.py                 # 100 walls (400 hands) per field
    .venv/bin/python bench/majiang_bots.py --walls 25
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable

from paiju.bots import Bot, RandomBot
from paiju.engine import Game
from paiju.games import game
from paiju.games.majiang.bot import MajiangBot, ShantenOnlyBot
from paiju.games.majiang.game import MajiangState


def _ci(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def field(
    g: Game, walls: int, seed: str, other: Callable[[Game, int], Bot]
) -> tuple[list[float], list[float], int]:
    deltas: list[float] = []
    wins: list[float] = []
    drawn = 0
    for w in range(walls):
        for bot_seat in range(4):
            state = g.new_state(4, seed=f"{seed}:{w}")
            assert isinstance(state, MajiangState)
            bots: list[Bot] = [
                MajiangBot(g, 1000 * w + s) if s == bot_seat else other(g, 1000 * w + s)
                for s in range(4)
            ]
            while not state.is_over:
                seat = min(state.to_act())
                state.apply(seat, bots[seat].act(state, seat))
            deltas.append(state.settlement()[bot_seat])
            wins.append(1.0 if any(x.seat == bot_seat for x in state.wins) else 0.0)
            drawn += not state.wins
    return deltas, wins, drawn


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--walls", type=int, default=100)
    ap.add_argument("--seed", default="bots")
    args = ap.parse_args()
    g = game("anshan-majiang")
    print("(the machine is shared and loaded; figures are per hand, the bot's seat)")
    for name, other in (("random-legal", RandomBot), ("shanten-only", ShantenOnlyBot)):
        start = time.perf_counter()
        deltas, wins, drawn = field(g, args.walls, args.seed, other)
        mean, half = _ci(deltas)
        rate, rhalf = _ci(wins)
        hands = len(deltas)
        secs = time.perf_counter() - start
        print(
            f"bot vs 3 {name:<13} {hands} hands: mean settlement {mean:+.2f} ± {half:.2f}, "
            f"win rate {100 * rate:.1f}% ± {100 * rhalf:.1f}% (fair share 25%), "
            f"流局 {100 * drawn / hands:.0f}%, {secs:.0f}s"
        )


if __name__ == "__main__":
    main()
