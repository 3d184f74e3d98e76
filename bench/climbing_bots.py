"""鞍山甲乙丙 / 鞍山放羊 bot strength: the rule-based bot against two baselines.

Each seeded deal is played twice (:func:`paiju.games.climbing.bot.duel`): the bots in the
even seats against the baseline in the odd ones, then the seats swapped on the same deal.
In 甲乙丙 the even and odd seats are the two teams; in 放羊 the sides follow the call, so
"the bot's seats" are two seats that may end on either side. Prints the bot seats' mean
score per deal pair with a 95% interval, against random-legal players and against the
"smallest beating play" baseline (:class:`~paiju.games.climbing.bot.SmallestBot`).

    .venv/bin/python bench/climbing_bots.py               # 300 deal pairs per line
    .venv/bin/python bench/climbing_bots.py --deals 50 --code anshan-fangyang
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from paiju.bots import RandomBot
from paiju.games import game
from paiju.games.climbing.bot import ClimbingBot, SmallestBot, duel


def interval(values: list[int]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--code", action="append", help="anshan-jiayibing / anshan-fangyang")
    args = parser.parse_args()
    codes = args.code or ["anshan-jiayibing", "anshan-fangyang"]
    print("(the machine is shared and loaded: timings are indicative only)")
    for code in codes:
        for name, other in (("random-legal", RandomBot), ("smallest-beating", SmallestBot)):
            started = time.perf_counter()
            g = game(code)
            scores = [duel(g, f"bench/{i}", ClimbingBot, other) for i in range(args.deals)]
            mean, half = interval(scores)
            wins = sum(1 for s in scores if s > 0) / len(scores)
            took = time.perf_counter() - started
            print(
                f"{code:17} bot vs {name:16}: mean {mean:+.3f} ± {half:.3f} base per deal pair"
                f" (95% CI), bot ahead in {wins:.0%} of {len(scores)} pairs [{took:.0f}s]"
            )


if __name__ == "__main__":
    main()
