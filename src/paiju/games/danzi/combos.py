"""宁城打弹子 cards, orders and combinations (牌型): the classifier and the comparator.

Pure functions over *count vectors*: a hand or a play is a tuple of 15 counts, one per
rank index (:data:`RANK_INDEX`): 0-12 for the plain ranks 2…A in their natural order,
13 for 小王 (BJ) and 14 for 大王 (RJ). Suits never count (牌点, N4), so two plays with the
same count vector are the same play.

Two orders:

* the single order (N5) 大王 > 小王 > 3 > 2 > A > K > … > 4, as :data:`SINGLE` values
  (4 = 0 … 3 = 12, BJ 13, RJ 14); pairs and same-rank kinds (砟子, 真7, 真8) use it;
* the sequence order (N6) A 2 3 … K A, as positions A(low) = 1, 2 = 2, …, K = 13,
  A(high) = 14; a sequence is named by its top position and never wraps K-A-2.

Every combination is a :class:`Combo`; bomb kinds carry their row on the ladder
(:data:`LADDER`, N27-N30) so that one tuple comparison orders every two bombs.

>>> from paiju.cards import parse_cards
>>> classify_cards(parse_cards("Ks Kh Kc Kd As Ah Ac Ad")).kind
'假8'
>>> beats(classify_cards(parse_cards("5s 5h 5c")), classify_cards(parse_cards("4s 4h")))
Verdict(beats=True, take=True, reason='take')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from paiju.cards import Card
from paiju.errors import IllegalAction

__all__ = [
    "BJ",
    "FOUR",
    "KINDS",
    "LADDER",
    "PLAIN_KINDS",
    "RJ",
    "SINGLE",
    "Combo",
    "Counts",
    "Verdict",
    "beats",
    "classify",
    "classify_cards",
    "combo_of",
    "counts_of",
    "is_take",
    "rank_name",
    "take_size",
]

Counts = tuple[int, ...]
"""Copies per rank index: 0-12 = 2…A, 13 = 小王, 14 = 大王."""

NRANKS: Final = 15
BJ: Final = 13
RJ: Final = 14
FOUR: Final = 2
"""Rank index of the 4s, the cards that take (取牌, N32)."""
ACE: Final = 12

RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "BJ", "RJ")
RANK_NAMES_ZH: Final = (*RANK_NAMES[:13], "小王", "大王")

SINGLE: Final = (11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14)
"""The single order (N5) by rank index: 4 = 0 … K = 9, A = 10, 2 = 11, 3 = 12, BJ 13, RJ 14."""

BY_SINGLE: Final = tuple(sorted(range(NRANKS), key=lambda i: -SINGLE[i]))
"""Rank indexes from the biggest single (大王) down to the smallest (4)."""

PLAIN_KINDS: Final = frozenset({"单牌", "对牌", "单龙", "双龙"})
"""The kinds that are not bombs: they beat only their own kind (N23)."""

KINDS: Final = (
    "单牌",
    "对牌",
    "单龙",
    "双龙",
    "砟子",
    "真7",
    "真8",
    "假8",
    "假10",
    "假12",
    "假14",
    "假16",
    "假15",
    "连蛋",
    "三减",
    "四减",
    "五减",
    "六减",
    "双王",
    "三王",
    "四王",
)
"""Every ``kind_zh`` of the contract (§15)."""

# The ladder of bomb kinds (N30), low to high: (kind, groups) -> row, where groups is the
# number of ranks (2 for the 假8 family, 3 for 假15, 3-9 for 连蛋, 3-6 for 减, 1 for 真7/真8
# and the jokers); 砟子 rows 1-4 are keyed by their card count instead.
LADDER: Final[dict[tuple[str, int], int]] = {
    ("砟子", 3): 1,
    ("砟子", 4): 2,
    ("砟子", 5): 3,
    ("砟子", 6): 4,
    ("双王", 1): 5,
    ("真7", 1): 6,
    ("假8", 2): 7,
    ("真8", 1): 8,
    ("连蛋", 3): 9,
    ("假10", 2): 10,
    ("三王", 1): 11,
    ("连蛋", 4): 12,
    ("三减", 3): 13,
    ("假12", 2): 14,
    ("假14", 2): 15,
    ("连蛋", 5): 16,
    ("四王", 1): 17,
    ("假15", 3): 18,
    ("四减", 4): 19,
    ("假16", 2): 20,
    ("连蛋", 6): 21,
    ("五减", 5): 22,
    ("连蛋", 7): 23,
    ("连蛋", 8): 24,
    ("六减", 6): 25,
    ("连蛋", 9): 26,
}

# Sequence kinds by (copies per rank, number of ranks) (N10, N12, N15-N18).
_SEQUENCE_KIND: Final[dict[tuple[int, int], str]] = {
    **{(1, g): "单龙" for g in range(3, 14)},
    **{(2, g): "双龙" for g in range(3, 14)},
    **{(3, g): "连蛋" for g in range(3, 10)},
    (4, 2): "假8",
    (4, 3): "三减",
    (4, 4): "四减",
    (4, 5): "五减",
    (4, 6): "六减",
    (5, 2): "假10",
    (5, 3): "假15",
    (6, 2): "假12",
    (7, 2): "假14",
    (8, 2): "假16",
}
SEQUENCE_SHAPES: Final = tuple(sorted(_SEQUENCE_KIND))
"""Every (copies per rank, ranks) a sequence kind may have."""

_SAME_RANK_KIND: Final = {1: "单牌", 2: "对牌", 3: "砟子", 4: "砟子", 5: "砟子", 6: "砟子"}
_SAME_RANK_KIND.update({7: "真7", 8: "真8"})


def position_index(pos: int) -> int:
    """The rank index at sequence position ``pos`` (1 = A low, 2-13, 14 = A high)."""
    return ACE if pos in (1, 14) else pos - 2


def rank_name(index: int) -> str:
    """The rank's name as players write it: ``2``…``10``, ``J``…``A``, ``BJ``, ``RJ``."""
    return RANK_NAMES[index]


@dataclass(frozen=True, slots=True)
class Combo:
    """One combination (牌型) as played: its kind and what orders it.

    ``top`` is the sequence position of the top rank for sequence kinds (N6), the
    :data:`SINGLE` value for same-rank kinds, and for 双王 0 (BJ BJ), 1 (RJ BJ) or 2
    (RJ RJ). ``row`` is the ladder row of a bomb kind (N30), 0 for plain kinds.
    """

    kind: str
    counts: Counts
    cards: int
    groups: int
    per_rank: int
    top: int
    row: int

    @property
    def plain(self) -> bool:
        """单牌, 对牌, 单龙 and 双龙 are plain; every other kind is a bomb."""
        return self.row == 0

    @property
    def key(self) -> tuple[int, int]:
        """Orders bombs: row on the ladder, then inside the row."""
        return (self.row, self.top)

    @property
    def top_name(self) -> str:
        """The top rank's name (``A``, ``10``, ``RJ``…)."""
        if self.kind in ("双王", "三王", "四王"):
            return "RJ" if self.counts[RJ] else "BJ"
        if self.groups > 1 or self.kind in ("单龙", "双龙"):
            return RANK_NAMES[position_index(self.top)]
        return RANK_NAMES[_BY_VALUE[self.top]]

    @property
    def name_zh(self) -> str:
        """The kind as players say it: ``三连蛋``, ``5张砟子``, ``假8``…"""
        if self.kind == "连蛋":
            return f"{_ZH_DIGITS[self.groups]}连蛋"
        if self.kind == "砟子":
            return f"{self.cards}张砟子"
        return self.kind

    def to_json(self) -> dict[str, object]:
        """The §15 ``combo`` answer: ``kind_zh`` and the informative fields."""
        return {
            "kind_zh": self.kind,
            "name_zh": self.name_zh,
            "cards": self.cards,
            "groups": self.groups,
            "per_rank": self.per_rank,
            "top": self.top_name,
            "bomb": not self.plain,
        }


_BY_VALUE: Final = tuple(SINGLE.index(v) for v in range(NRANKS))
_ZH_DIGITS: Final = ("零", "一", "二", "三", "4", "5", "6", "7", "8", "9")


def counts_of(cards: Iterable[int]) -> Counts:
    """The count vector of cards (card indexes as in :mod:`paiju.cards`)."""
    counts = [0] * NRANKS
    for c in cards:
        counts[_CARD_INDEX[c]] += 1
    return tuple(counts)


_CARD_INDEX: Final = tuple([c // 4 for c in range(52)] + [BJ, RJ])
"""Card index (0-53) -> rank index."""


def card_rank_index(card: int) -> int:
    """The rank index (0-14) of one card."""
    return _CARD_INDEX[card]


def _make(kind: str, counts: Counts, n: int, groups: int, per: int, top: int) -> Combo:
    row = 0 if kind in PLAIN_KINDS else LADDER[kind, n if kind == "砟子" else groups]
    return Combo(kind, counts, n, groups, per, top, row)


def classify(counts: Sequence[int]) -> Combo | None:
    """The combination a count vector forms, or None (N9-N21).

    >>> from paiju.cards import parse_cards
    >>> c = classify(counts_of(parse_cards("As 2h 3c")))
    >>> c.kind, c.top_name
    ('单龙', '3')
    """
    counts = tuple(counts)
    n = sum(counts)
    if n == 0 or n > 27 or max(counts) > 8 or counts[BJ] > 2 or counts[RJ] > 2:
        return None
    jokers = counts[BJ] + counts[RJ]
    if jokers:
        if jokers != n:
            return None  # a joker combines with nothing but jokers (N19)
        if n == 1:
            return _make("单牌", counts, 1, 1, 1, SINGLE[RJ if counts[RJ] else BJ])
        if n == 2:
            return _make("双王", counts, 2, 1, 2, counts[RJ])
        return _make("三王" if n == 3 else "四王", counts, n, 1, n, 0)
    present = [i for i in range(13) if counts[i]]
    if len(present) == 1:
        i = present[0]
        return _make(_SAME_RANK_KIND[n], counts, n, 1, n, SINGLE[i])
    per = counts[present[0]]
    if any(counts[i] != per for i in present):
        return None
    groups = len(present)
    kind = _SEQUENCE_KIND.get((per, groups))
    if kind is None:
        return None
    top = _sequence_top(present)
    if top is None:
        return None
    return _make(kind, counts, n, groups, per, top)


def _sequence_top(present: list[int]) -> int | None:
    """The top position of consecutive ranks (N6), A high if it fits, else A low."""
    positions = [i + 2 for i in present]  # 2 -> 2 … K -> 13, A -> 14
    if positions[-1] - positions[0] == len(positions) - 1:
        return positions[-1]
    if present[-1] == ACE:
        low = [1, *positions[:-1]]
        if low[-1] - low[0] == len(low) - 1:
            return low[-1]
    return None


def classify_cards(cards: Sequence[int]) -> Combo:
    """The combination of cards; raises IllegalAction when they form none (N20)."""
    if not cards:
        raise IllegalAction("a play needs at least one card", reason="empty_play")
    combo = classify(counts_of(cards))
    if combo is None:
        raise IllegalAction(
            f"{' '.join(str(Card(c)) for c in cards)} is no combination of 打弹子",
            reason="not_a_combination",
            cards=" ".join(str(Card(c)) for c in cards),
        )
    return combo


def combo_of(text_or_cards: str | Sequence[int]) -> Combo:
    """:func:`classify_cards` of a card text or card indexes (for tests and the CLI)."""
    from paiju.cards import parse_cards

    cards = parse_cards(text_or_cards) if isinstance(text_or_cards, str) else text_or_cards
    return classify_cards(cards)


# ------------------------------------------------------------------------------ 取牌

_TAKES: Final = {2: (3,), 3: (4, 5), 4: (6,)}
"""Played 4s -> the sizes of 砟子 they take (N32)."""
_TAKE_SIZE: Final = {3: 2, 4: 3, 5: 3, 6: 4}
"""A 砟子's size -> how many 4s take it (N32)."""


def take_size(table: Combo) -> int | None:
    """How many 4s take ``table``: 2 for a 3-card 砟子, 3 for 4 or 5, 4 for 6; else None."""
    if table.kind != "砟子":
        return None
    return _TAKE_SIZE[table.cards]


def is_take(table: Combo, play: Combo) -> bool:
    """Whether ``play`` is a 取牌 of ``table``: only 4s, as many as N32 asks."""
    if table.kind != "砟子":
        return False
    m = play.counts[FOUR]
    return m == play.cards and _TAKE_SIZE[table.cards] == m


# --------------------------------------------------------------------------- beating


class Verdict(NamedTuple):
    """Whether a play may be put on the table, whether it is a take, and why."""

    beats: bool
    take: bool
    reason: str


def beats(table: Combo, play: Combo) -> Verdict:
    """Whether ``play`` beats ``table`` (N22-N34), with a snake_case reason.

    >>> beats(combo_of("RJ"), combo_of("5s 5h 5c")).reason
    'zhazi3_not_over_joker'
    """
    if is_take(table, play):
        return Verdict(True, True, "take")
    if table.plain:
        if play.plain:
            return _plain_over_plain(table, play)
        if play.kind == "砟子" and play.cards == 3:
            if table.kind == "双龙":
                return Verdict(False, False, "zhazi3_not_over_shuanglong")
            if table.kind == "单牌" and table.counts[BJ] + table.counts[RJ]:
                return Verdict(False, False, "zhazi3_not_over_joker")
        return Verdict(True, False, "bomb_over_plain")
    if play.plain:
        return Verdict(False, False, "plain_not_over_bomb")
    if play.key > table.key:
        return Verdict(True, False, "higher_bomb" if play.row > table.row else "higher")
    if play.key == table.key:
        return Verdict(False, False, "equal")
    return Verdict(False, False, "lower_bomb" if play.row < table.row else "lower")


def _plain_over_plain(table: Combo, play: Combo) -> Verdict:
    if play.kind != table.kind:
        return Verdict(False, False, "different_kind")
    if play.cards != table.cards:
        return Verdict(False, False, "different_length")
    if play.top > table.top:
        return Verdict(True, False, "higher")
    if play.top == table.top:
        return Verdict(False, False, "equal")
    return Verdict(False, False, "lower")
