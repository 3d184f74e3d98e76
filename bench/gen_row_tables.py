"""Regenerate the 十三张 solver's per-row win-probability tables (data/row_tables.npz).

A table counts, for each row (front 头墩, middle 中墩, back 尾墩), how often a typical
player's row has each strength (rank-only row value). "Typical" is found by iteration:
round 0 arranges seeded random hands by the lexicographic baseline (strongest back
first); each next round arranges fresh hands with the solver scoring against the
previous round's tables. One table per straight order: ``second`` (1301's rules and its
default settlement) and ``lowest`` (the 积分规则 variant 1301-points).

    .venv/bin/python bench/gen_row_tables.py [--hands 20000] [--rounds 2] [--seed 2026]

Seeded: the same arguments write the same file.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from paiju.cards import Card, deck
from paiju.catalog import find_variant
from paiju.games.shisanzhang import solver
from paiju.games.shisanzhang.rows import RANK_SHIFT, row_value
from paiju.games.shisanzhang.solver import ROW_NAMES, RowTables, solve, strongest_back_first
from paiju.games.shisanzhang.spec import params_of

SOURCES = {"second": "1301", "lowest": "1301-points"}


def hands(count: int, seed: int) -> list[list[Card]]:
    rng = random.Random(seed)
    cards = list(deck("52"))
    out: list[list[Card]] = []
    for _ in range(count // 4 + 1):
        rng.shuffle(cards)
        out.extend(sorted(cards[i * 13 : i * 13 + 13]) for i in range(4))
    return out[:count]


def tally(arrangements: Sequence[Sequence[Sequence[Card]]], code: str) -> RowTables:
    rules = params_of(find_variant(code)).row_rules()
    counters: list[Counter[int]] = [Counter(), Counter(), Counter()]
    for rows in arrangements:
        for counter, row in zip(counters, rows, strict=True):
            counter[row_value(row, rules) >> RANK_SHIFT] += 1
    values = []
    counts = []
    for counter in counters:
        keys = sorted(counter)
        values.append(np.array(keys, dtype=np.int64))
        counts.append(np.array([counter[k] for k in keys], dtype=np.int64))
    return RowTables((values[0], values[1], values[2]), (counts[0], counts[1], counts[2]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=solver.DATA)
    args = parser.parse_args()
    tables: dict[str, RowTables] = {}
    for order, code in SOURCES.items():
        params = params_of(find_variant(code))
        rules = params.row_rules()
        dealt = hands(args.hands, args.seed)
        start = time.perf_counter()
        table = tally([strongest_back_first(h, rules) for h in dealt], code)
        print(f"{order}: round 0 (strongest back first) {time.perf_counter() - start:.1f}s")
        for rnd in range(1, args.rounds + 1):
            solver._TABLES[order] = table
            solver._row_chances.cache_clear()
            dealt = hands(args.hands, args.seed + rnd)
            start = time.perf_counter()
            arranged = []
            for h in dealt:
                best = solve(h, params, alternatives=0)[0]
                arranged.append((best.front, best.middle, best.back))
            table = tally(arranged, code)
            print(f"{order}: round {rnd} (solver) {time.perf_counter() - start:.1f}s")
        tables[order] = table
    arrays = {
        f"{order}_{row}_{kind}": getattr(table, kind)[i]
        for order, table in tables.items()
        for i, row in enumerate(ROW_NAMES)
        for kind in ("values", "counts")
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **arrays)
    sizes = {k: len(v) for k, v in arrays.items() if k.endswith("values")}
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes): {sizes}")


if __name__ == "__main__":
    main()
