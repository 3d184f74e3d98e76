"""The 困难 bot's decision cost: p50/p99 CPU seconds per decision with its budget in samples.

For each searched family, seat 0 is the hard bot (its default budget: the family's
``search_samples`` worlds, time only as a safety cap) against normal bots on seeded deals;
prints the hard bot's CPU time per decision (one core's, ``time.thread_time``), p50, p90,
p99 and the largest, the share of decisions the safety cap cut short, and the ratio of its
p99 to the normal bot's in the same run (the baseline). The budget is sized so that the
p99 stays under one second here.

    .venv/bin/python bench/hard_budget.py                  # 3 deals per family
    .venv/bin/python bench/hard_budget.py --deals 10 --code anshan-fangyang
"""

from __future__ import annotations

import argparse
import time

from paiju.games import game, make_bot
from paiju.search import SearchBot

CODES = ["sandaha", "anshan-jiayibing", "anshan-fangyang", "ningcheng-danzi", "anshan-majiang"]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def measure(code: str, deals: int) -> None:
    g = game(code)
    hard: list[float] = []
    normal: list[float] = []
    capped = 0
    for d in range(deals):
        state = g.new_state(seed=f"hard-budget/{d}")
        bots = [make_bot(g, s, "hard" if s == 0 else "normal") for s in range(state.seats)]
        searcher = bots[0]
        assert isinstance(searcher, SearchBot)
        while not state.is_over:
            seat = min(state.to_act())
            started = time.thread_time()
            action = bots[seat].act(state, seat)
            spent = time.thread_time() - started
            if seat == 0:
                hard.append(spent)
                cap = searcher.budget.samples or state.search_samples or 48
                if spent * 1000 >= searcher.budget.ms and searcher.last_samples < cap:
                    capped += 1
            else:
                normal.append(spent)
            state.apply(seat, action)
    p99 = quantile(hard, 0.99)
    base = max(quantile(normal, 0.99), 1e-9)
    print(
        f"{code}: {len(hard)} hard decisions, CPU s p50 {quantile(hard, 0.5):.3f}"
        f" p90 {quantile(hard, 0.9):.3f} p99 {p99:.3f} max {max(hard, default=0):.3f};"
        f" cut by the safety cap {capped}; p99 {p99 / base:.0f}x the normal bot's"
        f" ({base * 1000:.1f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--code", action="append", help="a family's code (repeat); all five")
    args = parser.parse_args()
    for code in args.code or CODES:
        measure(code, args.deals)


if __name__ == "__main__":
    main()
