"""Matches and liveness for every family: the harness plays several hands with what carries
from one to the next, and no state that is not over leaves a seat to act without an action.

Dead states are searched for on purpose, not only met in random playouts: Hypothesis draws
the carried context (banker, leader, dealer, a 打弹子 deal's previous order and declarer) and
reshapes the deal into extreme ones (one seat holding every top card, another every low one),
then plays on from random legal actions, checking liveness in every state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju.engine import Deal, Game, State
from paiju.games import game
from paiju.harness import check_game, dead_seats, playout

FAMILIES = {
    "shisanzhang": "1301-payout",
    "baozi": "2001",
    "jiajiabao": "2101",
    "sandaha": "sandaha",
    "jiayibing": "anshan-jiayibing",
    "fangyang": "anshan-fangyang",
    "majiang": "anshan-majiang",
    "danzi": "ningcheng-danzi",
}

Ctx = st.SearchStrategy[dict[str, Any]]


def _seat(n: int) -> st.SearchStrategy[int]:
    return st.integers(0, n - 1)


def _danzi_context() -> Ctx:
    """A later 打弹子 deal: the previous finishing order, a declarer (or none) and scores."""
    return st.builds(
        lambda order, declarer, us, them: {
            "totals": [us, them],
            "deal_number": 1,
            "previous": {"finish_order": order, "declarer": declarer},
        },
        st.permutations(range(4)),
        st.none() | _seat(4),
        st.integers(0, 29),
        st.integers(0, 29),
    )


CONTEXTS: dict[str, Callable[[int], Ctx]] = {
    "shisanzhang": lambda n: st.fixed_dictionaries({"banker": _seat(n)}),
    "baozi": lambda n: st.fixed_dictionaries({"banker": _seat(n)}),
    "jiajiabao": lambda n: st.fixed_dictionaries({"banker": _seat(n)}),
    "sandaha": lambda n: st.fixed_dictionaries({"first_bidder": _seat(n)}),
    "jiayibing": lambda n: st.just({}) | st.fixed_dictionaries({"leader": _seat(n)}),
    "fangyang": lambda n: st.just({}) | st.fixed_dictionaries({"banker": _seat(n)}),
    "majiang": lambda n: st.fixed_dictionaries({"dealer": _seat(n), "passes": st.integers(0, 3)}),
    "danzi": lambda n: st.just({}) | _danzi_context(),
}

SHAPES = ("as dealt", "top cards together", "low cards together", "suits together")


def _reshape(g: Game, deal: Deal, shape: str, order: list[int]) -> Deal:
    """The same cards (or tiles) in every hand's size, regrouped: sorted by value so that
    one seat (``order[0]``) gets the highest run of them, or by suit; other piles as dealt."""
    if shape == "as dealt":
        return deal
    pooled = [c for hand in deal.hands for c in hand]
    if shape == "suits together":
        pooled.sort(key=lambda c: (c % 4, c) if g.items == "cards" else c)
    else:
        pooled.sort(reverse=shape == "top cards together")
    hands: list[tuple[int, ...]] = [()] * len(deal.hands)
    at = 0
    for seat in order:
        size = len(deal.hands[seat])
        hands[seat] = tuple(pooled[at : at + size])
        at += size
    return Deal(tuple(hands), deal.piles, deal.info)


def _play_checking_liveness(state: State, rng: random.Random) -> None:
    steps = 0
    while not state.is_over:
        assert dead_seats(state, rng) == [], f"{state!r} leaves a seat without an action"
        seat = rng.choice(sorted(state.to_act()))
        state.apply(seat, state.random_action(seat, rng))
        steps += 1
        assert steps < 5000, "the hand does not end"
    assert sum(state.settlement()) == 0


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_family_plays_multi_hand_matches(family: str) -> None:
    """Three hands each, the context carried: the harness (liveness included) finds nothing,
    and each later hand starts from what the one before carried on."""
    g = game(FAMILIES[family])
    for seed in ("m1", "m2"):
        result = playout(g, seed=seed, deep=False, hands=3)
        assert result.failures == []
        assert len(result.hands) == 3 and sum(result.totals) == 0
    deep = playout(g, seed="deep", deep=True, hands=2)
    assert deep.failures == [] and len(deep.hands) == 2


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_family_deals_a_later_hand_from_the_carried_context(family: str) -> None:
    """A later hand's record holds the context the previous hand handed on, and it is what a
    match carries (banker, leader, dealer, the previous order): not the first deal's."""
    g = game(FAMILIES[family])
    result = playout(g, seed="ctx", deep=False, hands=3)
    contexts = [h.record.context for h in result.hands]
    assert contexts[0] == {}
    assert any(contexts[1:]), contexts


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_games_own_match_ends(family: str) -> None:
    """Without a hand count a match is the game's own: 8 局, 1 圈 of 麻将, 打弹子 to 30."""
    g = game(FAMILIES[family])
    result = playout(g, seed="own", deep=False)
    assert result.failures == []
    if g.match_option == "hands":
        assert len(result.hands) == 8
    else:
        assert 1 <= len(result.hands) < 200


def test_the_match_length_is_a_room_option() -> None:
    from paiju.errors import IllegalAction

    assert len(playout(game("sandaha", hands=3), seed="o", deep=False).hands) == 3
    assert game("anshan-majiang", quan=2).match_length == 2
    for bad in (0, 101, "8", True):
        with pytest.raises(IllegalAction) as err:
            game("1301", hands=bad)
        assert err.value.reason == "option_out_of_range"
    with pytest.raises(IllegalAction):
        game("ningcheng-danzi", hands=3)  # 打弹子's 局 is played to its target


def test_a_dead_state_in_a_later_hand_is_caught(toy_variants: Path) -> None:
    """The toy that freezes from its second hand on: one-hand checks pass it, the match's
    later hand is caught by the liveness invariant."""
    assert check_game(game("toy-stuck"), range(3), hands=1) == []
    failures = check_game(game("toy-stuck"), range(3))
    assert any("has no legal action" in f for f in failures), failures


@pytest.mark.parametrize("family", sorted(FAMILIES))
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_no_dead_state_in_extreme_deals_and_contexts(family: str, data: st.DataObject) -> None:
    g = game(FAMILIES[family])
    n = g.default_seats
    context = data.draw(CONTEXTS[family](n), label="context")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    shape = data.draw(st.sampled_from(SHAPES), label="shape")
    order = data.draw(st.permutations(range(n)), label="seat order")
    dealt = g.new_state(n, seed=seed, context=context).deal
    state = g.new_state(n, deal=_reshape(g, dealt, shape, order), context=context)
    _play_checking_liveness(state, random.Random(seed))
