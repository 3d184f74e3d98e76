"""Bot levels against each other: 困难 vs 普通 and 普通 vs 简单 in the five searched games.

For 三打哈, 甲乙丙, 放羊, 打弹子 and 麻将, :func:`paiju.duel.duel` plays the first level
against the second on the same seeded deals with the seats rotated, and prints the first
level's mean result per deal with its 95% interval (what ``paiju duel CODE --levels A,B
--json`` answers), the 三打哈 declarer's success rate for each level, and the first level's
decision times (CPU time of one core, p50/p99). 打弹子 is valued per hand (its deal points;
a whole match to 30 points per deal would take far longer): ``--per-match`` plays matches.

The baseline of the same run is the second level: a figure above 0 with its interval
above 0 means the first level is ahead.

    .venv/bin/python bench/bot_levels.py                        # the default sizes
    .venv/bin/python bench/bot_levels.py --deals 10 --code sandaha --budget-ms 300
"""

from __future__ import annotations

import argparse
import json
import time

from paiju.duel import duel
from paiju.games import game

CODES = ["sandaha", "anshan-jiayibing", "anshan-fangyang", "ningcheng-danzi", "anshan-majiang"]
PAIRS = [("hard", "normal"), ("normal", "easy")]
HARD_DEALS = {"anshan-majiang": 400}
"""Deals per 困难 line where 30 cannot separate the levels: a 麻将 deal's result spreads
widely (a standard deviation of about 22 points per deal, over the four seats rotated)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals", type=int, help="Deals per 困难 line (default 30; 麻将 400: HARD_DEALS)."
    )
    parser.add_argument("--easy-deals", type=int, default=200, help="Deals per 简单 line.")
    parser.add_argument("--code", action="append", help="Only these codes (repeatable).")
    parser.add_argument("--pair", action="append", help="Only these pairs, e.g. hard,normal.")
    parser.add_argument("--budget-ms", type=float, help="The 困难 bot's CPU time per decision.")
    parser.add_argument("--seed", default="levels")
    parser.add_argument("--per-match", action="store_true", help="打弹子 by whole matches.")
    args = parser.parse_args()
    pairs = [tuple(p.split(",")) for p in args.pair] if args.pair else PAIRS
    print("(the machine is shared: decision times are CPU time of one core)")
    for code in args.code or CODES:
        for first, second in pairs:
            if "hard" not in (first, second):
                deals = args.easy_deals
            else:
                deals = args.deals or HARD_DEALS.get(code, 30)
            started = time.perf_counter()
            answer = duel(
                game(code),
                (first, second),
                deals,
                args.seed,
                per_hand=not args.per_match,
                budget_ms=args.budget_ms,
            )
            answer["seconds"] = round(time.perf_counter() - started, 1)
            lo, hi = answer["ci95"]
            ms = answer["decision_ms"]
            verdict = "ahead" if lo > 0 else ("behind" if hi < 0 else "not separated")
            line = (
                f"{code:18} {first:>6} vs {second:<6} {deals:4} deals: mean {answer['mean']:+8.3f}"
                f" per {answer['per']}, 95% [{lo:+.3f}, {hi:+.3f}] ({verdict});"
                f" decision p50 {ms['p50']} ms p99 {ms['p99']} ms"
            )
            if "declarer" in answer:
                rates = {k: v["rate"] for k, v in answer["declarer"].items()}
                line += f"; declarer made: {first} {rates['first']}, {second} {rates['second']}"
            print(line, flush=True)
            print("  " + json.dumps(answer, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
