"""Grouping four cards (佳佳宝): the three splits, the front/back order, 2104's fixed rule.

Both the engine (:mod:`paiju.games.baozi.game`) and the solver
(:mod:`paiju.games.baozi.solver`) group cards with these; they depend on the evaluator of
the code's rules alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from paiju.cards import Card, format_cards
from paiju.games.baozi.rules import Evaluator, symbol

__all__ = ["Groups", "fixed_grouping", "groupings", "groups_text", "order_groups"]

Groups = tuple[tuple[Card, Card], tuple[Card, Card]]


def order_groups(ev: Evaluator, first: Sequence[Card], second: Sequence[Card]) -> Groups:
    """(front 前, back 后): the back is the stronger group (equal groups keep their order)."""
    a = _card_pair(first)
    b = _card_pair(second)
    if ev.rank(*a) > ev.rank(*b):
        a, b = b, a
    return (_sorted(ev, a), _sorted(ev, b))


def _card_pair(items: Sequence[Card]) -> tuple[Card, Card]:
    """The first two items as cards (cards already, as every legal action holds, are kept)."""
    x, y = items[0], items[1]
    return (x if type(x) is Card else Card(x), y if type(y) is Card else Card(y))


@lru_cache(maxsize=1 << 14)
def _sorted(ev: Evaluator, cards: tuple[Card, Card]) -> tuple[Card, Card]:
    """A group written top card first (by the single-card order, then suit); once per
    evaluator and two cards (every grouping decision lists three splits of four cards)."""
    lv = ev.card_level
    x, y = sorted(cards, key=lambda c: (lv[symbol(c)], -(c % 4 if c < 52 else 4), c), reverse=True)
    return (x, y)


def groupings(cards: Sequence[Card]) -> list[tuple[tuple[Card, Card], tuple[Card, Card]]]:
    """The three ways to split four cards into two groups of two."""
    a, b, c, d = cards
    return [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]


def fixed_grouping(ev: Evaluator, cards: Sequence[Card]) -> Groups:
    """2104's grouping rule (有对则组队, 每组有大牌领头): a pair stays together; otherwise
    the highest card goes with the lowest and the second with the third."""
    lv = ev.card_level
    hand = sorted(cards, key=lambda c: (lv[symbol(c)], c), reverse=True)
    for i in range(4):
        for j in range(i + 1, 4):
            if symbol(hand[i]) == symbol(hand[j]):
                rest = [c for k, c in enumerate(hand) if k not in (i, j)]
                return order_groups(ev, (hand[i], hand[j]), rest)
    return order_groups(ev, (hand[0], hand[3]), (hand[1], hand[2]))


def groups_text(groups: Groups) -> str:
    """``"As Kd / 5c 5h"`` (front / back)."""
    return f"{format_cards(groups[0])} / {format_cards(groups[1])}"
