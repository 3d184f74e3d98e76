"""Bench the 十三张 solver's strength against the "strongest back first" baseline.

20,000 seeded deals of 4-player 1301 with points scoring (积分规则), played through the
Game protocol: the solver arranges one seat, the baseline (the strongest back, then the
strongest middle of the rest) the other three; then the same deals with the seats
rotated, so that the solver plays every hand of every deal once. Every player arranges
(nobody declares a special), so the figure measures arranging alone.

Prints the solver's mean score per hand with a 95% confidence interval (over deals: a
deal's four rotations are one sample).

    .venv/bin/python bench/strength.py [--deals 20000] [--seed 2026]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from paiju.games import game
from paiju.games.shisanzhang.game import Arrange
from paiju.games.shisanzhang.solver import best_arrangement, strongest_back_first
from paiju.games.shisanzhang.spec import params_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--code", default="1301")
    parser.add_argument("--scoring", default="points", help="the room's settlement")
    args = parser.parse_args()
    table = game(args.code, scoring=args.scoring)
    variant = table.variant
    rules = params_of(variant).row_rules()
    per_deal: list[float] = []
    start = time.perf_counter()
    for i in range(args.deals):
        first = table.new_state(4, seed=f"{args.seed}-{i}")
        deal: Any = first.deal
        solver_rows = [best_arrangement(variant, hand, scoring=args.scoring) for hand in deal.hands]
        baseline_rows = [strongest_back_first(hand, rules) for hand in deal.hands]
        total = 0
        for seat in range(4):
            state = table.new_state(4, deal=deal)
            for s in range(4):
                rows = solver_rows[s] if s == seat else baseline_rows[s]
                state.apply(s, Arrange(*rows))
            total += state.settlement()[seat]
        per_deal.append(total / 4)
        if (i + 1) % 1000 == 0:
            print(f"  {i + 1} deals, running mean {statistics.mean(per_deal):+.3f}", flush=True)
    mean = statistics.mean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / len(per_deal) ** 0.5
    print(
        f"{args.code} {args.scoring}, 4 players, {len(per_deal)} deals x 4 seats: solver vs "
        f"3 baseline (strongest back first): mean {mean:+.3f} per hand, "
        f"95% CI [{mean - half:+.3f}, {mean + half:+.3f}] ({time.perf_counter() - start:.0f}s)"
    )


if __name__ == "__main__":
    main()
