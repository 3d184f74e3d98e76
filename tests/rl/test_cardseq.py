"""The generic card-choice sequence: every completed sequence is a legal play, and every
legal play is reachable (in any order of its cards), for listed plays and for the
三打哈 predicates alike."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.rl.cardseq import CARD_SLOTS, DONE, CardChoice, EnumeratedPlays, PlayOracle


def completions(hand: list[int], oracle: PlayOracle, limit: int = 200_000) -> set[tuple[int, ...]]:
    """Every play the masks let a seat complete, walked in card order (each multiset once)."""
    found: set[tuple[int, ...]] = set()
    stack = [CardChoice(hand, oracle)]
    visited = 0
    while stack:
        choice = stack.pop()
        visited += 1
        assert visited < limit, "too many prefixes to walk"
        mask = choice.mask()
        assert mask.any(), f"a dead end after {choice.cards}: no card and no done"
        if mask[DONE]:
            found.add(tuple(sorted(choice.cards)))
        low = choice.cards[-1] if choice.cards else 0
        for card in range(low, CARD_SLOTS):
            if mask[card]:
                nxt = CardChoice(hand, oracle)
                for c in (*choice.cards, card):
                    nxt.step(c)
                stack.append(nxt)
    return found


def reachable(hand: list[int], oracle: PlayOracle, play: list[int]) -> bool:
    """Whether the masks allow ``play`` card by card in the given order, then done."""
    choice = CardChoice(hand, oracle)
    for card in play:
        if not choice.mask()[card]:
            return False
        choice.step(card)
    return bool(choice.mask()[DONE]) and choice.step(DONE) == tuple(play)


hands = st.lists(st.integers(0, 53), min_size=1, max_size=12)


@settings(max_examples=80, deadline=None)
@given(hands, st.data())
def test_listed_plays_both_directions(hand: list[int], data: st.DataObject) -> None:
    """EnumeratedPlays (the climbing family's adapter): the completions are exactly the
    listed plays, and each listed play is reachable in a shuffled order."""
    held = Counter(hand)
    subsets = st.lists(st.sampled_from(sorted(held)), max_size=len(hand)).map(
        lambda cs: tuple(sorted((Counter(cs) & held).elements()))
    )
    plays = data.draw(st.sets(subsets, min_size=1, max_size=25))
    oracle = EnumeratedPlays(plays)
    assert completions(hand, oracle) == set(plays)
    for play in plays:
        order = data.draw(st.permutations(list(play)))
        assert reachable(hand, oracle, list(order))


def test_pass_is_done_with_nothing_chosen() -> None:
    """出牌 or 不出: the empty play is "done" before any card."""
    oracle = EnumeratedPlays([(), (4,), (4, 5)])
    choice = CardChoice([4, 5, 9], oracle)
    mask = choice.mask()
    assert mask[DONE] == 1 and mask[4] == 1 and mask[5] == 1 and mask[9] == 0
    assert choice.step(DONE) == ()
