"""Bench: exact 宝子 odds (and 佳佳宝 odds with both sides solved).

Prints the seconds for the exact odds of one 52-card code (2001) and one 54-card code
(2006), for all 21 宝子 codes in one run, and for each 佳佳宝 code; every figure includes
building the variant's hand table (caches are cleared first). The baseline is the same
2001 enumeration as a plain Python loop over every (banker, player) deal, run in the same
process, so the ratio does not depend on the machine.

    .venv/bin/python bench/odds.py [--no-jiajiabao]

Targets: <= 1 s for one variant, <= 20 s for all 21.
"""

from __future__ import annotations

import sys
import time
from itertools import combinations

from paiju.catalog import catalog, find_variant
from paiju.games.baozi import rules
from paiju.games.baozi.odds import baozi_counts, odds


def cold() -> None:
    """Forget every built hand table, so each timing includes building it."""
    rules._EVALUATORS.clear()
    rules._evaluator.cache_clear()


def timed(label: str, func: object) -> float:
    cold()
    started = time.perf_counter()
    func()  # type: ignore[operator]
    seconds = time.perf_counter() - started
    print(f"{label:<44} {seconds:8.3f} s", flush=True)
    return seconds


def python_loop_2001() -> dict[str, int]:
    """The baseline: every deal of 2001 compared in a plain Python loop."""
    ev = rules.evaluator(find_variant("2001"))
    hands = list(combinations(ev.deck, 2))
    rank = {h: ev.rank(*h) for h in hands}
    wins = losses = deals = 0
    for b in hands:
        rb = rank[b]
        for p in hands:
            if p[0] in b or p[1] in b:
                continue
            deals += 1
            rp = rank[p]
            if rp > rb:
                wins += 1
            elif rp < rb:
                losses += 1
    return {"deals": deals, "wins": wins, "losses": losses}


def main() -> None:
    baozi = [v for v in catalog() if v.family == "baozi"]
    one52 = timed("宝子 2001 (52 cards), exact", lambda: odds(find_variant("2001")))
    timed("宝子 2006 (54 cards), exact", lambda: odds(find_variant("2006")))
    timed(f"宝子 all {len(baozi)} codes, exact", lambda: [odds(v) for v in baozi])
    base = timed("baseline: 2001 as a plain Python loop", python_loop_2001)
    print(f"ratio baseline / numpy for 2001: {base / one52:.1f}x")
    loop, fast = python_loop_2001(), baozi_counts(find_variant("2001"))
    assert (loop["deals"], loop["wins"], loop["losses"]) == (
        fast["deals"],
        fast["wins"],
        fast["losses"],
    ), "the baseline and the numpy enumeration disagree"
    if "--no-jiajiabao" in sys.argv:
        return
    for v in catalog():
        if v.family == "jiajiabao":
            result: dict[str, object] = {}

            def run(v: object = v, result: dict[str, object] = result) -> None:
                result.update(odds(v))  # type: ignore[arg-type]

            timed(f"佳佳宝 {v.code} ({v.deck} cards)", run)
            print(f"    method {result['method']}, banker edge {result['banker_edge']}")


if __name__ == "__main__":
    main()
