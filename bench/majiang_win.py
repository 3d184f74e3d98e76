"""鞍山麻将 win-check speed against PyPI ``mahjong`` (riichi, no wilds) in the same run.

Seeded hands of 14 concealed tiles: ``--hands`` winning hands without 混, as many winning
hands with one or two 混, and as many random (nearly always non-winning) hands. Each set is
checked with :func:`paiju.games.majiang.win.can_win` (every form and condition of the text);
the non-wild sets also with ``mahjong``'s ``Agari().is_agari`` (shape only, riichi). A first
pass over the 混 set fills the per-block cache of blocks with 混 (the natural-block tables
are built at import); then every set is timed ``--rounds`` times, interleaved, and the best
rate of each is printed (the shared machine's load varies from second to second).

``mahjong`` is pinned in the dev dependencies; where it is missing it is installed into a
throwaway directory (``--target``, default under /tmp) with pip the first time.

    .venv/bin/python bench/majiang_win.py               # 100,000 hands per set
    .venv/bin/python bench/majiang_win.py --hands 20000
"""

from __future__ import annotations

import argparse
import importlib
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from paiju.games.majiang.rules import MajiangRules, succ
from paiju.games.majiang.win import can_win

Hand = tuple[list[int], int]  # natural counts, 混 count


def _load_mahjong(target: Path) -> Any:
    sys.path.insert(0, str(target))
    try:
        return importlib.import_module("mahjong.agari")
    except ImportError:
        print(f"installing mahjong==2.1.0 into {target} ...", file=sys.stderr)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "-q",
                "--target",
                str(target),
                "mahjong==2.1.0",
            ],
            check=True,
        )
        importlib.invalidate_caches()
        return importlib.import_module("mahjong.agari")


def _winning(rng: random.Random, rules: MajiangRules, wild: bool) -> tuple[list[int], int]:
    """A winning hand: four groups and a pair meeting every condition (retry until it does)."""
    while True:
        tiles: list[int] = []
        for _ in range(4):
            if rng.random() < 0.6:
                s = rng.randrange(3) * 9 + rng.randrange(7)
                tiles += [s, s + 1, s + 2]
            else:
                tiles += [rng.randrange(34)] * 3
        p = rng.randrange(34)
        tiles += [p, p]
        hun = -1
        if wild:
            flip = rng.randrange(34)
            hun = succ(flip)
            tiles = [t for t in tiles if t != hun]
            while len(tiles) < 14:
                tiles.append(hun)
            for _ in range(rng.randrange(2)):
                tiles[rng.randrange(14)] = hun
        counts = [0] * 34
        wilds = 0
        for t in tiles:
            if t == hun:
                wilds += 1
            else:
                counts[t] += 1
        if max(counts) > 4 or wilds > 4 or (wild and wilds == 0):
            continue
        if can_win(counts, wilds, (), rules):
            return counts, wilds


def _random(rng: random.Random) -> tuple[list[int], int]:
    counts = [0] * 34
    for t in rng.sample(range(136), 14):
        counts[t // 4] += 1
    return counts, 0


def _rate(hands: Sequence[Hand], check: Callable[[Hand], bool]) -> tuple[float, int]:
    start = time.perf_counter()
    wins = 0
    for h in hands:
        if check(h):
            wins += 1
    return len(hands) / (time.perf_counter() - start), wins


def _best(
    rounds: int, runs: dict[str, tuple[Sequence[Hand], Callable[[Hand], bool]]]
) -> dict[str, tuple[float, int]]:
    """Every run ``rounds`` times, interleaved (the machine's load varies): the best rate."""
    best: dict[str, tuple[float, int]] = {}
    for _ in range(rounds):
        for label, (hands, check) in runs.items():
            rate, wins = _rate(hands, check)
            if label not in best or rate > best[label][0]:
                best[label] = (rate, wins)
    return best


def _show(label: str, result: tuple[float, int], n: int) -> None:
    rate, wins = result
    print(f"  {label:<46} {rate:>12,.0f} hands/s   ({wins:,} of {n:,} win)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--target", type=Path, default=Path("/tmp/paiju-bench-mahjong"))
    args = ap.parse_args()
    agari_mod = _load_mahjong(args.target)
    agari = agari_mod.Agari()
    rules = MajiangRules()
    rng = random.Random(args.seed)
    n = args.hands
    print(f"building {n:,} hands per set (seed {args.seed}) ...")
    natural = [_winning(rng, rules, False) for _ in range(n)]
    wild = [_winning(rng, rules, True) for _ in range(n)]
    rand = [_random(rng) for _ in range(n)]

    def ours(h: Hand) -> bool:
        return can_win(h[0], h[1], (), rules)

    def riichi(h: Hand) -> bool:
        return bool(agari.is_agari(h[0]))

    cold, _ = _rate(wild, ours)  # fills the cache of blocks with 混
    runs = {
        "ours natural": (natural, ours),
        "ours wild": (wild, ours),
        "ours random": (rand, ours),
        "theirs natural": (natural, riichi),
        "theirs random": (rand, riichi),
    }
    best = _best(args.rounds, runs)
    print(f"best of {args.rounds} interleaved rounds (the machine is shared and loaded):")
    print("paiju can_win (鞍山麻将: every form and condition of the text):")
    _show("winning, no 混", best["ours natural"], n)
    print(f"  {'winning with 混, first pass (cache filling)':<46} {cold:>12,.0f} hands/s")
    _show("winning with 混, warm", best["ours wild"], n)
    _show("random 14 tiles", best["ours random"], n)
    print("PyPI mahjong 2.1.0 Agari.is_agari (riichi shape only, no wilds):")
    _show("winning, no 混", best["theirs natural"], n)
    _show("random 14 tiles", best["theirs random"], n)
    nat = best["theirs natural"][0]
    print("ratios (paiju / mahjong, same hands, same run):")
    print(
        f"  winning, no 混:                                  {best['ours natural'][0] / nat:.2f}x"
    )
    print(
        f"  random 14 tiles:                                 "
        f"{best['ours random'][0] / best['theirs random'][0]:.2f}x"
    )
    print(f"  winning with 混 (warm) against mahjong without:  {best['ours wild'][0] / nat:.2f}x")


if __name__ == "__main__":
    main()
