"""向听数 (shanten): how many tiles a hand is from 听 (ready), with the 混 counted.

Standard form: ``8 - 2 × 面子 - 搭子 - 雀头`` over the best split into complete groups
(面子: 刻子, 顺子, melds), partial groups (搭子: a pair, two in a row, a gap) and at most one
pair kept as the 将, with 面子 + 搭子 at most 4; each 混 takes one more step off (it fills
any gap). 七对: ``6 - pairs``, less the 混. 0 = 听牌, -1 = complete.

Per-block splits are cached by block (a dict that fills as hands are seen).

>>> from paiju.tiles import parse_tiles
>>> shanten(counts_of(parse_tiles("123m456p789s11z55z")), 0)
0
>>> shanten(counts_of(parse_tiles("123m456p789s11z55z")), 1)
-1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

__all__ = ["counts_of", "qidui_shanten", "shanten"]


def counts_of(tiles: Iterable[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


@cache
def _block(key: tuple[int, ...], honor: bool) -> tuple[tuple[int, int, int], ...]:
    """Pareto-best (面子, 搭子, 雀头) splits of one block."""
    found: set[tuple[int, int, int]] = set()

    def go(c: list[int], i: int, m: int, t: int, p: int) -> None:
        while i < len(c) and c[i] == 0:
            i += 1
        if i >= len(c):
            found.add((m, t, p))
            return
        if c[i] >= 3:
            c[i] -= 3
            go(c, i, m + 1, t, p)
            c[i] += 3
        if not honor and i + 2 < len(c) and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            go(c, i, m + 1, t, p)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if c[i] >= 2:
            c[i] -= 2
            if not p:
                go(c, i, m, t, 1)
            go(c, i, m, t + 1, p)
            c[i] += 2
        if not honor:
            for d in (1, 2):
                if i + d < len(c) and c[i + d]:
                    c[i] -= 1
                    c[i + d] -= 1
                    go(c, i, m, t + 1, p)
                    c[i] += 1
                    c[i + d] += 1
        c[i] -= 1
        go(c, i, m, t, p)
        c[i] += 1

    go(list(key), 0, 0, 0, 0)
    keep = [
        a
        for a in found
        if not any(b != a and b[0] >= a[0] and b[1] >= a[1] and b[2] >= a[2] for b in found)
    ]
    return tuple(keep)


def shanten(counts: Sequence[int], wilds: int, melds: int = 0, qidui: bool = True) -> int:
    """The 向听数 of natural ``counts`` with ``wilds`` 混 and ``melds`` declared groups."""
    blocks = (
        _block(tuple(counts[0:9]), False),
        _block(tuple(counts[9:18]), False),
        _block(tuple(counts[18:27]), False),
        _block(tuple(counts[27:34]), True),
    )
    best = 8
    for a in blocks[0]:
        for b in blocks[1]:
            for c in blocks[2]:
                for d in blocks[3]:
                    m = a[0] + b[0] + c[0] + d[0] + melds
                    t = a[1] + b[1] + c[1] + d[1]
                    p = min(1, a[2] + b[2] + c[2] + d[2])
                    if m + t > 4:
                        t = 4 - m if m <= 4 else 0
                    s = 8 - 2 * m - t - p
                    if s < best:
                        best = s
    best -= wilds
    if qidui and melds == 0:
        best = min(best, qidui_shanten(counts, wilds))
    return max(best, -1)


def qidui_shanten(counts: Sequence[int], wilds: int) -> int:
    """七对's 向听数: ``6 - pairs``; a 混 pairs a single, two 混 are a pair."""
    pairs = sum(c // 2 for c in counts)
    singles = sum(c % 2 for c in counts)
    return max(-1, 6 - pairs - min(wilds, singles) - max(0, wilds - singles) // 2)
