"""Properties of following (跟牌): a legal follow always exists, and it answers the lead's
structure as far as the hand allows."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.cards import deck
from paiju.games.sandaha.rules import (
    TRUMP,
    build_follow,
    decompose,
    follow_error,
    follow_value,
    order,
)

FULL = deck("92")


@st.composite
def positions(draw: st.DrawFn) -> tuple[list[int], list[int], int]:
    """A lead (one single, pair or tractor of a side suit, or any trump combination) and a
    following hand dealt from the rest of the 92 cards."""
    seed = draw(st.integers(0, 2**32 - 1))
    trump = draw(st.integers(0, 4))
    rng = random.Random(seed)
    cards = list(FULL)
    rng.shuffle(cards)
    leader, follower = cards[:21], cards[21:42]
    o = order(trump)
    suit = o.suit[leader[0]]
    comps = decompose([c for c in leader if o.suit[c] == suit], trump)
    if suit == TRUMP:
        take = draw(st.integers(1, len(comps)))
        lead = [c for comp in comps[:take] for c in comp.cards]
    else:
        lead = list(comps[0].cards)
    return lead, follower, trump


@settings(max_examples=300, deadline=None)
@given(positions(), st.integers(0, 2**32 - 1))
def test_build_follow_is_always_legal(case: tuple[list[int], list[int], int], seed: int) -> None:
    lead_cards, hand, trump = case
    lead = decompose(lead_cards, trump)
    rng = random.Random(seed)
    keys = {c: rng.random() for c in set(hand)}
    play = build_follow(hand, lead, trump, keys.__getitem__)
    assert len(play) == len(lead_cards)
    assert not Counter(play) - Counter(hand)
    assert follow_error(hand, play, lead, trump) is None


@settings(max_examples=300, deadline=None)
@given(positions())
def test_a_legal_follow_answers_as_much_structure_as_the_hand_holds(
    case: tuple[list[int], list[int], int],
) -> None:
    lead_cards, hand, trump = case
    lead = decompose(lead_cards, trump)
    o = order(trump)
    suit = o.suit[lead_cards[0]]
    in_suit = [c for c in hand if o.suit[c] == suit]
    play = build_follow(hand, lead, trump, lambda c: o.strength(c))
    if len(in_suit) > len(lead_cards):
        assert follow_value(play, lead, trump) == follow_value(in_suit, lead, trump)
        # Breaking one answered pair (when a single of the suit is left to swap in) is refused.
        pairs = [c for c, n in Counter(play).items() if n == 2]
        spare = Counter(in_suit) - Counter(play)
        singles = [c for c in spare if c not in pairs]
        if pairs and singles and follow_value(play, lead, trump)[1] > 0:
            broken = list(play)
            broken.remove(pairs[0])
            broken.append(singles[0])
            if follow_value(broken, lead, trump) < follow_value(play, lead, trump):
                assert follow_error(hand, broken, lead, trump) is not None
