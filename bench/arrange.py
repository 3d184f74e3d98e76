"""Bench the 十三张 arrangement solver (自动摆牌) against a naive brute force.

Arranges 1,000 seeded random 13-card hands with the solver (``solve``: subset values
once, index scan of the 72,072 splits, dominated suggestions dropped) and prints p50/p99
milliseconds per hand; then runs the naive brute force (every split's rows re-evaluated
from their cards) on the first 50 hands in the same process and prints the ratio of the
mean times, checking both find the same best expected score.

    .venv/bin/python bench/arrange.py [--code 1301] [--hands 1000] [--naive 50] [--seed 7]

Target on the 2-core machine: p50 <= 5 ms, p99 <= 25 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from paiju.cards import Card, deck
from paiju.catalog import find_variant
from paiju.games.shisanzhang.solver import brute_force_arrangement, solve
from paiju.games.shisanzhang.spec import params_of


def percentiles(seconds: list[float]) -> tuple[float, float]:
    """p50 and p99 in milliseconds."""
    ordered = sorted(seconds)
    return (
        ordered[len(ordered) // 2] * 1000,
        ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", default="1301")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--naive", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    params = params_of(find_variant(args.code))
    rng = random.Random(args.seed)
    cards = list(deck("52"))
    hands: list[list[Card]] = [rng.sample(cards, 13) for _ in range(args.hands)]
    solve(hands[0], params)  # warm the tables
    times: list[float] = []
    cpu: list[float] = []
    scores: list[float] = []
    load = os.getloadavg()[0]
    for hand in hands:
        start, start_cpu = time.perf_counter(), time.process_time()
        best = solve(hand, params)[0]
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        scores.append(best.score)
    p50, p99 = percentiles(times)
    cpu50, cpu99 = percentiles(cpu)
    print(
        f"solver, {args.code} ({params.scoring}), {len(hands)} hands: "
        f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, mean {statistics.mean(times) * 1000:.2f} ms "
        f"(CPU time p50 {cpu50:.2f} ms, p99 {cpu99:.2f} ms; load average {load:.1f} -> "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    naive_times: list[float] = []
    agree = 0
    for hand, score in zip(hands[: args.naive], scores, strict=False):
        start = time.perf_counter()
        _, naive_score = brute_force_arrangement(hand, params)
        naive_times.append(time.perf_counter() - start)
        agree += abs(naive_score - score) < 1e-6
    n = len(naive_times)
    naive_mean = statistics.mean(naive_times) * 1000
    solver_mean = statistics.mean(times[:n]) * 1000
    print(
        f"naive brute force, first {n} hands: mean {naive_mean:.1f} ms per hand; "
        f"solver on the same hands {solver_mean:.2f} ms; ratio {naive_mean / solver_mean:.0f}x; "
        f"same best score on {agree}/{n}"
    )


if __name__ == "__main__":
    main()
