"""Row evaluation of 十三张: the 3-card front (头墩) and 5-card middle/back (中墩/尾墩) rows.

Every row, front or five-card, gets one integer on ONE scale (higher is stronger, equal
values tie), so a front compares with a middle "by category, then ranks" (CATALOG.md §1)
and 倒水 (foul) detection is two integer comparisons.

The integer is ``category << 22 | ranks << 2 | suit``:

* ``category`` indexes :data:`CATEGORIES` (散牌 0 … 同花顺 8);
* ``ranks`` is five 4-bit rank nibbles in comparison order (the pair before its kickers,
  the higher pair before the lower …), padded with zeros, so a 3-card front is weaker than
  a middle with the same leading ranks; a straight has one nibble, its place in the
  straight order (:class:`RowRules`.straight_a2345);
* ``suit`` is 0 unless the rules break ties by suit (1303, :attr:`RowRules.suit_ties`):
  then 3 - suit (黑桃 3 … 方块 0) of the card the rule text names.

The rank part of every multiset of ranks is tabulated once at import (6,175 five-card
and 455 three-card rank multisets), keyed by ``sum(5 ** (rank - 2))``; the solver indexes
the same tables with numpy for the 1,287 + 286 subsets of a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from paiju.cards import Card
from paiju.games.shisanzhang.categories import CATEGORY_NAMES

__all__ = [
    "CATEGORIES",
    "RowRules",
    "arrangement_values",
    "is_foul",
    "rank_key",
    "row_category",
    "row_value",
]

CATEGORIES: Final[tuple[str, ...]] = CATEGORY_NAMES
"""Row categories from weakest to strongest; a front row is only 散牌, 对子 or 三条."""

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

CATEGORY_SHIFT: Final = 22
RANK_SHIFT: Final = 2
SUIT_MASK: Final = 3


@dataclass(frozen=True)
class RowRules:
    """How a variant orders rows: the straight order and the suit tie-breaks (比花色)."""

    straight_a2345: Literal["second", "lowest"] = "second"
    """1301/1303: TJQKA > A2345 > 9TJQK; points scoring and 宝马会: A2345 is the lowest."""
    suit_ties: bool = False
    """1303: suit tie-breaks of 同花顺, 同花, 顺子, 两对, 对子 (CATALOG.md §1)."""


def _pack(category: int, ranks: Sequence[int]) -> int:
    nibbles = 0
    for i in range(5):
        nibbles = nibbles << 4 | (ranks[i] if i < len(ranks) else 0)
    return (category << CATEGORY_SHIFT) | (nibbles << RANK_SHIFT)


def _straight_place(ranks: Sequence[int], straight_a2345: str) -> int | None:
    """The straight's place in the order (6 = 23456 … 14 = TJQKA, A2345 5 or 15); None."""
    r = sorted(set(ranks))
    if len(r) != 5:
        return None
    if r == [2, 3, 4, 5, 14]:
        return 5 if straight_a2345 == "lowest" else 14
    if r[4] - r[0] != 4:
        return None
    if straight_a2345 == "second":
        return r[4] if r[4] < 14 else 15
    return r[4]


def _rank_value(ranks: Sequence[int], flush: bool, straight_a2345: str) -> int:
    """The value of a row from its ranks (and whether all its cards share a suit)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # groups by (count, rank) descending: the comparison order of every category
    groups = sorted(((c, r) for r, c in counts.items()), reverse=True)
    order = [r for _, r in groups]
    shape = [c for c, _ in groups]
    if len(ranks) == 3:
        category = {1: HIGH_CARD, 2: PAIR, 3: TRIPS}[shape[0]]
        return _pack(category, order)
    place = _straight_place(ranks, straight_a2345)
    if place is not None:
        return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, [place])
    if flush:
        return _pack(FLUSH, order)
    category = {
        (4, 1): QUADS,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): TRIPS,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
        (1, 1, 1, 1, 1): HIGH_CARD,
    }[tuple(shape)]
    return _pack(category, order)


def rank_key(ranks: Sequence[int]) -> int:
    """The table key of a multiset of ranks: ``sum(5 ** (rank - 2))``."""
    return sum(5 ** (r - 2) for r in ranks)


_KEY_OF: Final[tuple[int, ...]] = tuple(5 ** (c // 4) for c in range(54))
"""Each card's share of :func:`rank_key` (``5 ** (rank - 2)``), by card index; a joker's
share is a key no table holds."""


def _build_tables(
    size: int, straight_a2345: str
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Sorted keys, plain values and flush values of every rank multiset of ``size`` cards."""
    rows: list[tuple[int, int, int]] = []
    for ranks in combinations_with_replacement(range(2, 15), size):
        if size == 5 and ranks[0] == ranks[4]:  # five of a rank: not in one deck
            continue
        plain = _rank_value(ranks, False, straight_a2345)
        distinct = size == 5 and len(set(ranks)) == 5
        flush = _rank_value(ranks, True, straight_a2345) if distinct else plain
        rows.append((rank_key(ranks), plain, flush))
    rows.sort()
    keys = np.array([r[0] for r in rows], dtype=np.int64)
    plain_values = np.array([r[1] for r in rows], dtype=np.int64)
    flush_values = np.array([r[2] for r in rows], dtype=np.int64)
    return keys, plain_values, flush_values


@dataclass(frozen=True)
class RankTables:
    """Rank-only values of every 3- and 5-card rank multiset under one straight order."""

    keys5: npt.NDArray[np.int64]
    plain5: npt.NDArray[np.int64]
    flush5: npt.NDArray[np.int64]
    keys3: npt.NDArray[np.int64]
    plain3: npt.NDArray[np.int64]
    lookup5: dict[int, tuple[int, int]]
    lookup3: dict[int, int]


def _tables(straight_a2345: str) -> RankTables:
    k5, p5, f5 = _build_tables(5, straight_a2345)
    k3, p3, _ = _build_tables(3, straight_a2345)
    return RankTables(
        k5,
        p5,
        f5,
        k3,
        p3,
        {int(k): (int(p), int(f)) for k, p, f in zip(k5, p5, f5, strict=True)},
        {int(k): int(p) for k, p in zip(k3, p3, strict=True)},
    )


class _TablesByOrder(dict[str, RankTables]):
    """Rank tables per straight order, each built once, on first use (about 0.1 s)."""

    def __missing__(self, order: str) -> RankTables:
        if order not in ("second", "lowest"):
            raise KeyError(f"unknown straight order {order!r}; orders are 'second', 'lowest'")
        tables = self[order] = _tables(order)
        return tables


TABLES: Final[dict[str, RankTables]] = _TablesByOrder()
"""The rank tables of both straight orders (``TABLES["second"]``, ``TABLES["lowest"]``)."""
TABLES["second"]  # built at import: 1301, 1303 and most codes use it

SUIT_TIE_CATEGORIES: Final = frozenset({PAIR, TWO_PAIR, STRAIGHT, FLUSH, STRAIGHT_FLUSH})
"""Categories whose ties 1303 breaks by suit (黑桃 > 红心 > 梅花 > 方块)."""


def suit_tie_rank(value: int, ranks: Sequence[int]) -> int:
    """The rank whose best suit breaks a tie: the pair (higher pair), or the top card.

    For a straight the top card is the highest card, so the A of A2345 (CATALOG.md §1).
    """
    category = value >> CATEGORY_SHIFT
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        return max(ranks)
    return (value >> (RANK_SHIFT + 16)) & 0xF


def row_value(cards: Sequence[Card], rules: RowRules) -> int:
    """The strength of a 3-card front or 5-card row on the one scale of all rows.

    >>> from paiju.cards import parse_cards
    >>> r = RowRules()
    >>> row_value(parse_cards("As Ad Kc"), r) < row_value(parse_cards("As Ad Kc Qc Jd"), r)
    True
    >>> CATEGORIES[row_category(row_value(parse_cards("Ah 2h 3h 4h 5h"), r))]
    '同花顺'
    """
    n = len(cards)
    tables = TABLES[rules.straight_a2345]
    key_of = _KEY_OF  # rank_key one card at a time: this is the random bot's inner loop
    if n == 3:
        a, b, c = cards
        value = tables.lookup3[key_of[a] + key_of[b] + key_of[c]]
    elif n == 5:
        a, b, c, d, e = cards
        plain, flush = tables.lookup5[key_of[a] + key_of[b] + key_of[c] + key_of[d] + key_of[e]]
        suit = a & 3
        value = (
            flush if b & 3 == suit and c & 3 == suit and d & 3 == suit and e & 3 == suit else plain
        )
    else:
        raise ValueError(f"a row has 3 or 5 cards, got {n}")
    if rules.suit_ties and value >> CATEGORY_SHIFT in SUIT_TIE_CATEGORIES:
        ranks = [c // 4 + 2 for c in cards]
        tie_rank = suit_tie_rank(value, ranks)
        best = min(c % 4 for c in cards if c // 4 + 2 == tie_rank)
        value |= 3 - best
    return value


def row_category(value: int) -> int:
    """The category of a row value, an index into :data:`CATEGORIES`."""
    return value >> CATEGORY_SHIFT


def is_foul(
    front: Sequence[Card], middle: Sequence[Card], back: Sequence[Card], rules: RowRules
) -> bool:
    """倒水 (乌龙): the rows decrease somewhere, judged by category and ranks, never suits."""
    plain = RowRules(rules.straight_a2345, suit_ties=False)
    f, m, b = (row_value(row, plain) for row in (front, middle, back))
    return f > m or m > b


def arrangement_values(cards: Sequence[Card], rules: RowRules) -> tuple[int, int, int]:
    """The values of ``cards[:3]``, ``cards[3:8]`` and ``cards[8:13]`` (an arrangement laid
    out front, middle, back), each as :func:`row_value` gives it; the random arranger's
    inner loop, so without the rule tie-breaks it reads the tables directly.

    >>> from paiju.cards import parse_cards
    >>> cards = parse_cards("As Ad Kc 2c 3c 4c 5c 7d Ts Js Qs Ks 9s")
    >>> arrangement_values(cards, RowRules()) == tuple(
    ...     row_value(r, RowRules()) for r in (cards[:3], cards[3:8], cards[8:])
    ... )
    True
    """
    if rules.suit_ties or len(cards) != 13:
        return (
            row_value(cards[:3], rules),
            row_value(cards[3:8], rules),
            row_value(cards[8:13], rules),
        )
    tables = TABLES[rules.straight_a2345]
    k = _KEY_OF
    c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12 = cards
    front = tables.lookup3[k[c0] + k[c1] + k[c2]]
    plain, flush = tables.lookup5[k[c3] + k[c4] + k[c5] + k[c6] + k[c7]]
    s = c3 & 3
    middle = flush if c4 & 3 == s and c5 & 3 == s and c6 & 3 == s and c7 & 3 == s else plain
    plain, flush = tables.lookup5[k[c8] + k[c9] + k[c10] + k[c11] + k[c12]]
    s = c8 & 3
    back = flush if c9 & 3 == s and c10 & 3 == s and c11 & 3 == s and c12 & 3 == s else plain
    return front, middle, back
