"""The fast paths of :func:`decompose` (拆牌: 拖拉机、对、单牌) give exactly what the general
algorithm gives: the one- and two-card tables, built once per trump choice, are pinned
against it for every card and pair of cards, and random plays of one suit agree."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.cards import Card
from paiju.games.sandaha.rules import (
    Component,
    _decompose,
    _runs,
    decompose,
    order,
    pairs_in,
    small_tables,
)

DECK = sorted({c for c in range(54) if order(0).suit[c] >= 0})  # 46 cards, no 3s and 4s
DIGEST = "aa7acb8a62a6794c9951ba4cc56b2106"
"""md5 of every table entry's text: a change of any entry is caught."""


def reference(cards: Sequence[int], trump: int) -> list[Component]:
    """The algorithm as first written (Counters throughout), kept as the specification."""
    o = order(trump)
    by_level: dict[int, list[int]] = {}
    for c in sorted(c for c, n in Counter(cards).items() if n >= 2):
        by_level.setdefault(o.level[c], []).append(c)
    tractors: list[Component] = []
    while True:
        counts = Counter({lv: len(cs) for lv, cs in by_level.items()})
        runs = sorted(_runs(counts), key=lambda r: (r[1], r[0]), reverse=True)
        if not runs or runs[0][1] < 2:
            break
        low, length = runs[0]
        chain = [by_level[lv].pop() for lv in range(low + length - 1, low - 1, -1)]
        doubled = tuple(Card(c) for c in chain for _ in (0, 1))
        tractors.append(Component(doubled, length, low + length - 1))
    pairs = sorted((c for cs in by_level.values() for c in cs), key=o.strength, reverse=True)
    used: Counter[int] = Counter(c for comp in tractors for c in comp.cards)
    used.update(c for c in pairs for _ in (0, 1))
    singles = sorted((Counter(cards) - used).elements(), key=o.strength, reverse=True)
    return [
        *tractors,
        *(Component((Card(c), Card(c)), 1, o.level[c]) for c in pairs),
        *(Component((Card(c),), 0, o.level[c]) for c in singles),
    ]


def test_small_tables_are_pinned() -> None:
    text = []
    for trump in range(5):
        tables = small_tables(trump)
        assert small_tables(trump) is tables  # built once
        for c in DECK:
            assert [tables.single[c]] == reference([c], trump) == decompose([c], trump)
            assert [tables.pair[c]] == reference([c, c], trump) == decompose([c, c], trump)
            for d in DECK:
                if d != c:
                    assert decompose([c, d], trump) == reference([c, d], trump)
            text.append(f"{trump}:{tables.single[c]}:{tables.pair[c]}:{tables.strength[c]}")
        assert tables.single[4] is None and tables.pair[8] is None  # 3s and 4s are not dealt
    digest = hashlib.md5("|".join(text).encode()).hexdigest()
    assert digest == DIGEST


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 4), st.lists(st.sampled_from(DECK), min_size=1, max_size=14), st.data())
def test_decompose_agrees_with_the_reference(
    trump: int, cards: list[int], data: st.DataObject
) -> None:
    held = Counter(cards)
    two_decks = [c for c in cards if held[c] <= 2]  # at most two copies of a card
    suit = order(trump).suit
    target = data.draw(st.sampled_from(sorted({suit[c] for c in two_decks}) or [0]))
    one_suit = [c for c in two_decks if suit[c] == target] or [DECK[0]]
    assert decompose(one_suit, trump) == reference(one_suit, trump) == _decompose(one_suit, trump)
    assert pairs_in(one_suit) == sorted(c for c, n in Counter(one_suit).items() if n >= 2)
