"""向听数 (shanten): how many tiles a hand is from 听 (ready), with the 混 counted.

Standard form: ``8 - 2 × 面子 - 搭子 - 雀头`` over the best split into complete groups
(面子: 刻子, 顺子, melds), partial groups (搭子: a pair, two in a row, a gap) and at most one
pair kept as the 将, with 面子 + 搭子 at most 4; each 混 takes one more step off (it fills
any gap). 七对: ``6 - pairs``, less the 混. 0 = 听牌, -1 = complete.

:func:`shanten_to_win` counts the text's conditions 1-2 as well (「有碰牌(或有中发白一对)」,
「有顺子」): a hand of 顺子 alone with a 东 pair is complete in shape but wins on nothing.
A condition no group or pair of the split meets is met by a 搭子 of the split that
grows into the group it lacks (a pair into a 刻子, two in a row into a 顺子), or else by a
group still to be built from nothing (one of the ``4 - 面子 - 搭子`` free places); when
there are too few of those, a 搭子 is given up for one (a step further).

Per-block splits are cached by block (a dict that fills as hands are seen).

>>> from paiju.tiles import parse_tiles
>>> shanten(counts_of(parse_tiles("123m456p789s11z55z")), 0)
0
>>> shanten(counts_of(parse_tiles("123m456p789s11z55z")), 1)
-1
>>> shanten_to_win(counts_of(parse_tiles("123m456p789s11z55z")), 0)
0
>>> shanten_to_win(counts_of(parse_tiles("123m456p789s123z1z")), 0)  # no 刻子, no 中发白 pair
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import TypeVar

__all__ = ["counts_of", "qidui_shanten", "shanten", "shanten_to_win"]

Split = tuple[int, int, int, int, int, int, int, int]
"""A split of a block: 面子, 搭子, 雀头 (0 or 1), then 0/1 for whether it holds a 刻子, a
顺子, a pair among its 搭子 (a 刻子 to be), two in a row among its 搭子 (a 顺子 to be), and
a 中发白 pair as its 雀头."""

_DRAGONS_FROM = 4
"""In the honour block (东南西北白发中), the index of the first dragon."""


def counts_of(tiles: Iterable[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


T = TypeVar("T", bound=tuple[int, ...])


def _best(found: Iterable[T]) -> tuple[T, ...]:
    """The items of ``found`` no other item is at least as large as in every place."""
    items = set(found)
    return tuple(
        a
        for a in items
        if not any(b != a and all(x >= y for x, y in zip(b, a, strict=True)) for b in items)
    )


@cache
def _splits(key: tuple[int, ...], honor: bool) -> tuple[Split, ...]:
    """The Pareto-best :data:`Split` of one block."""
    found: set[Split] = set()

    def go(c: list[int], i: int, s: Split) -> None:
        m, t, p, pung, chow, pair_t, run_t, dragons = s
        while i < len(c) and c[i] == 0:
            i += 1
        if i >= len(c):
            found.add(s)
            return
        if c[i] >= 3:
            c[i] -= 3
            go(c, i, (m + 1, t, p, 1, chow, pair_t, run_t, dragons))
            c[i] += 3
        if not honor and i + 2 < len(c) and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            go(c, i, (m + 1, t, p, pung, 1, pair_t, run_t, dragons))
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if c[i] >= 2:
            c[i] -= 2
            if not p:
                dragon = 1 if honor and i >= _DRAGONS_FROM else dragons
                go(c, i, (m, t, 1, pung, chow, pair_t, run_t, dragon))
            go(c, i, (m, t + 1, p, pung, chow, 1, run_t, dragons))
            c[i] += 2
        if not honor:
            for d in (1, 2):
                if i + d < len(c) and c[i + d]:
                    c[i] -= 1
                    c[i + d] -= 1
                    go(c, i, (m, t + 1, p, pung, chow, pair_t, 1, dragons))
                    c[i] += 1
                    c[i + d] += 1
        c[i] -= 1
        go(c, i, s)
        c[i] += 1

    go(list(key), 0, (0, 0, 0, 0, 0, 0, 0, 0))
    return _best(found)


@cache
def _block(key: tuple[int, ...], honor: bool) -> tuple[tuple[int, ...], ...]:
    """Pareto-best (面子, 搭子, 雀头) splits of one block."""
    return _best(s[:3] for s in _splits(key, honor))


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


@lru_cache(maxsize=1 << 16)
def _pair_of_blocks(a: tuple[int, ...], b: tuple[int, ...], honor: bool) -> tuple[Split, ...]:
    """The Pareto-best splits of two blocks together (one 雀头 at most), ``b`` the honours
    when ``honor``."""
    joined: list[Split] = []
    for x in _splits(a, False):
        for y in _splits(b, honor):
            if x[2] + y[2] <= 1:
                m, t, p = x[0] + y[0], x[1] + y[1], x[2] + y[2]
                pung, chow, pair_t, run_t = x[3] | y[3], x[4] | y[4], x[5] | y[5], x[6] | y[6]
                joined.append((m, t, p, pung, chow, pair_t, run_t, x[7] | y[7]))
    return _best(joined)


def shanten_to_win(
    counts: Sequence[int], wilds: int, melds: int = 0, pung: bool = False, chow: bool = False
) -> int:
    """The standard form's 向听数 with conditions 1-2 counted (see the module docs):
    natural ``counts``, ``wilds`` 混, ``melds`` declared groups, ``pung`` / ``chow`` whether
    one of them is a 碰 or 杠 / a 吃 (so meets condition 1 / 2)."""
    left = _pair_of_blocks(tuple(counts[0:9]), tuple(counts[9:18]), False)
    right = _pair_of_blocks(tuple(counts[18:27]), tuple(counts[27:34]), True)
    best = 8
    for x in left:
        for y in right:
            if x[2] + y[2] > 1:
                continue
            m = x[0] + y[0] + melds
            t = x[1] + y[1]
            places = 4 - m if m < 4 else 0
            t = min(t, places)
            need = 0
            used = 0
            if not (pung or x[3] or y[3] or x[7] or y[7]):
                if (x[5] or y[5]) and t > used:
                    used += 1
                else:
                    need += 1
            if not (chow or x[4] or y[4]):
                if (x[6] or y[6]) and t > used:
                    used += 1
                else:
                    need += 1
            s = 8 - 2 * m - t - x[2] - y[2] + max(0, need - (places - t))
            if s < best:
                best = s
    return max(best - wilds, -1)


def qidui_shanten(counts: Sequence[int], wilds: int) -> int:
    """七对's 向听数: ``6 - pairs``; a 混 pairs a single, two 混 are a pair."""
    pairs = sum(c // 2 for c in counts)
    singles = sum(c % 2 for c in counts)
    return max(-1, 6 - pairs - min(wilds, singles) - max(0, wilds - singles) // 2)
