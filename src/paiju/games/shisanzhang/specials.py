"""Special 13-card hands (特殊牌型) of 十三张, the 绍兴 ladder and the 免摆 hands.

A code's ladder (:attr:`ShisanzhangParams.ladder`) lists the special hands it knows, best
tier first; names in one tier are equal. :func:`best_special` places a dealt hand in the
best tier it reaches and gives it a tie-break key for the tiers that compare inside:

* 同花顺 (a five-card straight flush anywhere in the hand) by its top card, in the code's
  straight order (A2345 second in 1301's order);
* 炸弹 (four of a kind anywhere) by its rank; 三条 (trips anywhere) by its rank, A high;
* 对子 (the 绍兴 bottom tier, every hand): the pairs from the highest down, then the single
  cards from the highest down (13 cards of 13 ranks always hold a pair or are 一条龙);
* 同花十三水 by its suit where the code breaks ties by suit (1303: 黑桃>红心>梅花>方块).

Every other tier is a tie. The shapes, precisely (CATALOG.md §1):

* 一条龙 (十三水): 13 distinct ranks; 同花十三水 (一条青龙): the same in one suit;
* 六对半: ranks make 6 pairs and one single (a quad is two pairs; no trips);
* 五对三条: 5 pairs and one triple (a quad may be two of the pairs);
* 三顺子: the cards split into a 3-card and two 5-card straights (A high or low, no wrap);
* 三花色: the cards split 3 + 5 + 5 with each part of one suit (parts may share a suit,
  or must not where the code says :attr:`three_flush_suits` = ``distinct``);
* 全黑一张红 / 全红一张黑: exactly 12 black and 1 red / 12 red and 1 black;
* 全大, 全小, 半大, 半小: every card's rank lies in the code's range (:attr:`range_ranks`).

>>> from paiju.cards import parse_cards
>>> from paiju.catalog import find_variant
>>> from paiju.games.shisanzhang.spec import params_of
>>> hand = parse_cards("2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Ac")
>>> best_special(hand, params_of(find_variant("1303"))).name_zh
'一条龙'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from paiju.cards import Card
from paiju.games.shisanzhang.spec import Scoring, ShisanzhangParams

__all__ = [
    "STRAIGHTS3",
    "STRAIGHTS5",
    "Special",
    "best_special",
    "best_specials",
    "is_dragon",
    "is_five_pairs_trips",
    "is_same_suit_dragon",
    "is_six_pairs",
    "is_three_flushes",
    "is_three_straights",
    "matches",
]


@dataclass(frozen=True, order=True)
class Special:
    """A special hand as the code's ladder places it: ``tier`` 0 is the best tier.

    ``strength`` orders specials of one code: a lower tier wins, then a higher ``key``;
    equal strengths tie (和局).
    """

    name_zh: str
    tier: int
    key: tuple[int, ...] = ()

    @property
    def strength(self) -> tuple[int, tuple[int, ...]]:
        return (-self.tier, self.key)

    def compare(self, other: Special) -> int:
        """+1 if this special beats ``other``, -1 if it loses, 0 for a tie."""
        a, b = self.strength, other.strength
        return (a > b) - (a < b)


def _ranks(cards: Sequence[Card]) -> list[int]:
    return [c // 4 + 2 for c in cards]


def _straights(length: int) -> tuple[frozenset[int], ...]:
    """Every straight of ``length`` distinct ranks, A high (…QKA) or low (A23…), no wrap."""
    low = [frozenset({14, *range(2, 1 + length)})]
    return tuple(low + [frozenset(range(s, s + length)) for s in range(2, 16 - length)])


STRAIGHTS3: Final = _straights(3)
"""A23, 234, …, QKA (12 three-card straights)."""
STRAIGHTS5: Final = _straights(5)
"""A2345, 23456, …, TJQKA (10 five-card straights)."""


def is_dragon(cards: Sequence[Card]) -> bool:
    """一条龙 / 十三水: thirteen distinct ranks, A to K."""
    return len(set(_ranks(cards))) == 13


def is_same_suit_dragon(cards: Sequence[Card]) -> bool:
    """同花十三水 / 一条青龙: 一条龙 in one suit."""
    return is_dragon(cards) and len({c % 4 for c in cards}) == 1


def is_six_pairs(cards: Sequence[Card]) -> bool:
    """六对半: six pairs and a single; a quad counts as two pairs, trips spoil it."""
    counts = Counter(_ranks(cards)).values()
    return all(n in (1, 2, 4) for n in counts) and sum(n == 1 for n in counts) == 1


def is_five_pairs_trips(cards: Sequence[Card]) -> bool:
    """五对三条 (5对子3个头): five pairs and a triple; a quad may be two of the pairs."""
    counts = Counter(_ranks(cards)).values()
    return sum(n == 3 for n in counts) == 1 and all(n in (2, 3, 4) for n in counts)


def is_three_straights(cards: Sequence[Card]) -> bool:
    """三顺子: the ranks split into a 3-card straight and two 5-card straights."""
    counts = Counter(_ranks(cards))
    for i, first in enumerate(STRAIGHTS5):
        rest = counts - Counter(first)
        if sum(rest.values()) != 8:
            continue
        for second in STRAIGHTS5[i:]:
            last = rest - Counter(second)
            if sum(last.values()) == 3 and frozenset(last) in STRAIGHTS3 and len(last) == 3:
                return True
    return False


def is_three_flushes(cards: Sequence[Card], distinct: bool = False) -> bool:
    """三花色 (三同花): the cards split 3 + 5 + 5, each part of one suit; with ``distinct``
    the three parts are of three different suits."""
    counts = sorted((n for n in Counter(c % 4 for c in cards).values()), reverse=True)
    if distinct:
        return counts == [5, 5, 3]
    return counts in ([13], [10, 3], [8, 5], [5, 5, 3])


def _colour_count(cards: Sequence[Card]) -> int:
    return sum(1 for c in cards if c % 4 in (1, 3))


def _best_straight_flush(cards: Sequence[Card], params: ShisanzhangParams) -> tuple[int, ...]:
    """The key (top card in the straight order) of the best 5-card 同花顺, () if none."""
    best: tuple[int, ...] = ()
    by_suit: dict[int, set[int]] = {}
    for c in cards:
        by_suit.setdefault(c % 4, set()).add(c // 4 + 2)
    for ranks in by_suit.values():
        for straight in STRAIGHTS5:
            if straight <= ranks:
                key = (_straight_place(straight, params),)
                best = max(best, key)
    return best


def _straight_place(straight: frozenset[int], params: ShisanzhangParams) -> int:
    """The place of a straight in the code's order: twice its top rank (23456 = 12 …
    TJQKA = 28), with A2345 at 5 (lowest) or 27 (second: between 9TJQK and TJQKA)."""
    top = max(straight)
    if straight == STRAIGHTS5[0]:
        # A2345: the lowest straight, or second only to TJQKA (between 9TJQK and TJQKA)
        return 5 if params.straight_a2345 == "lowest" else 27
    return top * 2  # leave room for A2345 = 27 between 9TJQK (26) and TJQKA (28)


def _best_count(cards: Sequence[Card], at_least: int) -> tuple[int, ...]:
    ranks = [r for r, n in Counter(_ranks(cards)).items() if n >= at_least]
    return (max(ranks),) if ranks else ()


def _pairs_then_singles(cards: Sequence[Card]) -> tuple[int, ...]:
    """The 对子 tier's key: the best pair, then the next best pair, …, then the singles.

    The pairs are compared one by one from the highest down (not their number first): a
    hand whose pairs run out while the other's go on is lower at that place (a missing
    pair is -1), and only hands with the very same pairs go on to the single cards.
    """
    counts = Counter(_ranks(cards))
    pairs = sorted((r for r, n in counts.items() for _ in range(n // 2)), reverse=True)
    singles = sorted((r for r, n in counts.items() if n % 2), reverse=True)
    padded = pairs + [-1] * (6 - len(pairs))  # 13 cards hold at most 6 pairs
    return (*padded, *singles)


def _in_range(name: str) -> Callable[[Sequence[Card], ShisanzhangParams], bool]:
    def test(cards: Sequence[Card], params: ShisanzhangParams) -> bool:
        allowed = set(params.range_ranks.get(name, ()))
        return bool(allowed) and all(r in allowed for r in _ranks(cards))

    return test


_TESTS: Final[dict[str, Callable[[Sequence[Card], ShisanzhangParams], bool]]] = {
    "同花十三水": lambda c, p: is_same_suit_dragon(c),
    "一条龙": lambda c, p: is_dragon(c),
    "全黑一张红": lambda c, p: _colour_count(c) == 1,
    "全红一张黑": lambda c, p: _colour_count(c) == len(c) - 1,
    "五对三条": lambda c, p: is_five_pairs_trips(c),
    "六对半": lambda c, p: is_six_pairs(c),
    "三顺子": lambda c, p: is_three_straights(c),
    "三花色": lambda c, p: is_three_flushes(c, p.three_flush_suits == "distinct"),
    "全大": _in_range("全大"),
    "全小": _in_range("全小"),
    "半大": _in_range("半大"),
    "半小": _in_range("半小"),
    "同花顺": lambda c, p: bool(_best_straight_flush(c, p)),
    "炸弹": lambda c, p: bool(_best_count(c, 4)),
    "三条": lambda c, p: bool(_best_count(c, 3)),
    "对子": lambda c, p: True,
}


_DRAGONS: Final = frozenset({"同花十三水", "一条龙"})
"""The specials that need thirteen distinct ranks (:func:`is_dragon` first)."""


@cache
def _only_dragons(ladder: tuple[tuple[str, ...], ...]) -> bool:
    """Whether every special of ``ladder`` is a dragon (:data:`_DRAGONS`)."""
    return all(name in _DRAGONS for names in ladder for name in names)


def matches(name: str, cards: Sequence[Card], params: ShisanzhangParams) -> bool:
    """Whether the 13 ``cards`` have the shape of the special hand ``name``."""
    return _TESTS[name](cards, params)


def _key(name: str, cards: Sequence[Card], params: ShisanzhangParams) -> tuple[int, ...]:
    if name == "同花顺":
        return _best_straight_flush(cards, params)
    if name == "炸弹":
        return _best_count(cards, 4)
    if name == "三条":
        return _best_count(cards, 3)
    if name == "对子":
        return _pairs_then_singles(cards)
    if name == "同花十三水" and params.suit_ties:
        return (3 - cards[0] % 4,)
    return ()


def best_special(
    cards: Sequence[Card], params: ShisanzhangParams, scoring: Scoring | None = None
) -> Special | None:
    """The best special hand the code lets these 13 cards declare (None if none).

    ``scoring`` is the room's settlement (default: the code's own); 1301 knows its specials
    only under the points settlement.
    """
    if len(cards) != 13 or not params.specials_apply(scoring):
        return None
    if _only_dragons(params.ladder) and len({c >> 2 for c in cards}) != 13:
        return None  # every special of the ladder needs thirteen distinct ranks
    distinct = 0  # the number of distinct ranks, counted when a dragon is asked about
    for tier, names in enumerate(params.ladder):
        for name in names:
            if name in _DRAGONS:
                if not distinct:
                    distinct = len({c >> 2 for c in cards})
                if distinct != 13:  # no dragon of either kind: skip its test
                    continue
            if matches(name, cards, params):
                return Special(name, tier, _key(name, cards, params))
    return None


_RANK_OF: Final[tuple[int, ...]] = tuple(c >> 2 for c in range(54))
"""``card >> 2`` (the rank, 0 for a two) of every card index, for a hand's distinct ranks
counted without a Python loop (a dealt card is a :class:`~paiju.cards.Card`, 0-53)."""


def best_specials(
    hands: Sequence[Sequence[Card]], params: ShisanzhangParams, scoring: Scoring | None = None
) -> tuple[Special | None, ...]:
    """:func:`best_special` of each of ``hands`` (a deal's), what depends on the code and
    the settlement alone asked once for them all: where every special of the ladder is a
    dragon, a hand without thirteen distinct ranks (most hands) is passed over at once."""
    if not params.specials_apply(scoring):
        return (None,) * len(hands)
    if _only_dragons(params.ladder):
        return tuple(
            [
                best_special(h, params, scoring)
                if len(set(map(_RANK_OF.__getitem__, h))) == 13
                else None
                for h in hands
            ]
        )
    return tuple([best_special(h, params, scoring) for h in hands])
