"""The 宝子 / 佳佳宝 state machines: bets, the deal, grouping, showdown, settlement, views."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given as for_all
from hypothesis import settings
from hypothesis import strategies as st

from paiju.cards import deck, format_cards, parse_cards
from paiju.engine import Deal, HandEnded
from paiju.errors import IllegalAction, ProtocolError
from paiju.fairness import DealRng
from paiju.games import game
from paiju.games.baozi.compare import compare_text
from paiju.games.baozi.game import (
    BaoziState,
    Bet,
    Compared,
    Dealt,
    Group,
    JiajiabaoState,
    fixed_grouping,
)
from paiju.games.baozi.rules import evaluator
from paiju.harness import check_game, view_items


def given(code: str, *hands: str) -> Deal:
    """A deal with these hands (seat 0 first) and the rest of the deck as the stock."""
    g = game(code)
    cards = [parse_cards(h) for h in hands]
    used = Counter(c for h in cards for c in h)
    stock = tuple((Counter(g.full_set()) - used).elements())
    return Deal(tuple(cards), {"stock": stock})


def test_baozi_hand_bets_then_showdown_and_settles_at_the_bet() -> None:
    rule = "同点比最大的牌"  # 2001: A+8 > K+6 at 9 points
    g = game("2001")
    state = g.new_state(3, deal=given("2001", "Kd 6h", "As 8c", "2c 3d"))
    assert isinstance(state, BaoziState)
    assert state.phase == "betting" and state.to_act() == {1, 2}
    assert state.view(1)["seats"][1]["cards"] is None  # nobody sees a card before betting
    state.apply(1, Bet(5))
    events = state.apply(2, Bet(3))
    assert state.is_over and rule
    assert [type(e).__name__ for e in events[:2]] == ["BetPlaced", "Dealt"]
    compared = {e.seat: e for e in events if isinstance(e, Compared)}
    assert compared[1].winner == "player" and compared[1].amount == 5
    assert compared[2].winner == "banker" and compared[2].amount == -3  # 5 points < 9
    assert isinstance(events[-1], HandEnded)
    assert state.settlement() == (-2, 5, -3)
    assert state.view(None)["seats"][0]["cards"] == "Kd 6h"


def test_bets_outside_the_table_limits_are_rejected_without_change() -> None:
    g = game("2001", min_bet=2, max_bet=4)
    state = g.new_state(2, seed=1)
    before = state.snapshot()
    for amount in (1, 5, 0):
        with pytest.raises(IllegalAction, match="outside the table limits 2-4"):
            state.apply(1, Bet(amount))
    with pytest.raises(IllegalAction, match="may not act"):
        state.apply(0, Bet(3))  # the banker does not bet
    assert state.snapshot() == before
    assert state.legal_actions(1) == [Bet(2), Bet(3), Bet(4)]


def test_pair_payout_pays_the_winning_pair_both_ways() -> None:
    g = game("2001", pair_payout=3)
    state = g.new_state(3, deal=given("2001", "5c 5d", "As Ah", "Kc 6d"))
    state.apply(1, Bet(2))
    state.apply(2, Bet(4))
    # seat 1's 对A beats the banker's 对5: 2 x 3; the banker's 对5 beats 9 points: 4 x 3
    assert state.settlement() == (-6 + 12, 6, -12)


def test_room_options_are_checked() -> None:
    with pytest.raises(IllegalAction, match="min_bet 5 is above max_bet 2"):
        game("2001", min_bet=5, max_bet=2)
    with pytest.raises(IllegalAction, match="unknown room option colour"):
        game("2001", colour="red")
    with pytest.raises(IllegalAction, match="banker_rotation must be"):
        game("2001", banker_rotation="sometimes")
    with pytest.raises(IllegalAction, match="unknown room option pair_payout"):
        game("2105", pair_payout=2)  # 佳佳宝 pays 1:1


def test_banker_comes_from_the_context_and_rotates_or_stays() -> None:
    rotate = game("2001").new_state(4, seed=3, context={"banker": 2})
    assert rotate.to_act() == {0, 1, 3}
    for seat in (0, 1, 3):
        rotate.apply(seat, Bet(1))
    assert rotate.next_context() == {"banker": 3}
    stay = game("2001", banker_rotation="stay").new_state(4, seed=3, context={"banker": 3})
    for seat in (0, 1, 2):
        stay.apply(seat, Bet(1))
    assert stay.next_context() == {"banker": 3}
    with pytest.raises(IllegalAction, match="context banker must be a seat 0-3"):
        game("2001").new_state(4, seed=3, context={"banker": 7})


def test_dealing_modes_one_card_at_a_time_and_two_at_once() -> None:
    """2016 (单张发) and 2017 (2张发, "规则同54张宝子1") deal the same shuffle differently."""
    shuffled = DealRng("deal").shuffled(game("2016").full_set())
    one = game("2016").new_state(3, seed="deal")
    two = game("2017").new_state(3, seed="deal")
    # seats in dealing order: left of the banker (seat 0) first, the banker last
    assert one.deal.hands[1] == (shuffled[0], shuffled[3])
    assert one.deal.hands[2] == (shuffled[1], shuffled[4])
    assert one.deal.hands[0] == (shuffled[2], shuffled[5])
    assert two.deal.hands[1] == (shuffled[0], shuffled[1])
    assert two.deal.hands[0] == (shuffled[4], shuffled[5])
    events = []
    for state in (one, two):
        for seat in (1, 2):
            events += state.apply(seat, Bet(1))
    modes = [(e.mode, e.order) for e in events if isinstance(e, Dealt)]
    assert modes == [("one_at_a_time", (1, 2, 0)), ("two_at_once", (1, 2, 0))]
    assert two.view(None)["dealing"] == "two_at_once"


def test_jiajiabao_grouping_is_simultaneous_and_ordered_by_the_engine() -> None:
    rule = "自由组牌，分两轮比大小，累计赢牌次数"
    g = game("2105")
    state = g.new_state(3, deal=given("2105", "Kc 2h As Ad", "9c 9d RJ Ah", "3c 4d 5s 6h"))
    assert isinstance(state, JiajiabaoState) and rule in g.variant.rules_zh
    state.apply(1, Bet(2))
    events = state.apply(2, Bet(3))
    assert any(isinstance(e, Dealt) and e.cards_each == 4 for e in events)
    assert state.phase == "grouping" and state.to_act() == {0, 1, 2}
    view = state.view(1)
    assert view["seats"][1]["cards"] == "9c 9d RJ Ah" and view["seats"][0]["cards"] is None
    with pytest.raises(IllegalAction, match="are not your four cards"):
        state.apply(1, Group(parse_cards("9c 9d"), parse_cards("RJ As")))
    with pytest.raises(IllegalAction, match="each group is two cards"):
        state.apply(1, Group(parse_cards("9c 9d RJ"), parse_cards("Ah")))
    state.apply(1, Group(parse_cards("RJ Ah"), parse_cards("9c 9d")))  # back first: reordered
    assert state.view(1)["seats"][1]["groups"] == "9c 9d / Ah RJ"
    assert "groups" not in state.view(0)["seats"][1]  # not seen by others
    state.apply(0, Group(parse_cards("As Ad"), parse_cards("Kc 2h")))
    state.apply(2, Group(parse_cards("3c 6h"), parse_cards("4d 5s")))
    assert state.is_over
    results = {r["seat"]: r for r in state.view(None)["results"]}
    assert results[1]["groups"] == ["player", "banker"] and results[1]["winner"] == "push"
    # seat 2: front 4d 5s (9点) beats Kc 2h (5点); back 3c 6h (9点) loses to 对A
    assert state.view(None)["seats"][2]["groups"] == "5s 4d / 6h 3c"
    assert results[2]["groups"] == ["player", "banker"] and results[2]["winner"] == "push"
    assert sum(state.settlement()) == 0


def test_a_listed_grouping_is_applied_as_listed_and_only_to_its_own_cards() -> None:
    """A grouping legal_actions listed goes in as listed (front the weaker group); the same
    grouping sent for another seat is still refused, and one written back first is still
    put in order by the engine."""
    g = game("2105")
    state = g.new_state(3, deal=given("2105", "Kc 2h As Ad", "9c 9d RJ Ah", "3c 4d 5s 6h"))
    state.apply(1, Bet(2))
    state.apply(2, Bet(3))
    listed = state.legal_actions(0)
    assert listed is not None and len(listed) == 3
    with pytest.raises(IllegalAction, match="are not your four cards"):
        state.apply(1, listed[0])
    others = state.legal_actions(1)
    assert others is not None
    swapped = Group(others[0].second, others[0].first)  # back first: not a listed action
    state.apply(1, swapped)
    assert isinstance(state, JiajiabaoState)
    assert state.groups[1] == (others[0].first, others[0].second)
    state.apply(0, listed[2])
    assert state.groups[0] == (listed[2].first, listed[2].second)


def test_two_wins_win_two_losses_lose() -> None:
    g = game("2103")
    state = g.new_state(3, deal=given("2103", "2c 3d 4s 5h", "As Ah Ks Kh", "6c 6d 7s 7h"))
    state.apply(1, Bet(4))
    state.apply(2, Bet(1))
    state.apply(0, Group(parse_cards("2c 3d"), parse_cards("4s 5h")))
    state.apply(1, Group(parse_cards("As Ah"), parse_cards("Ks Kh")))
    state.apply(2, Group(parse_cards("6c 7s"), parse_cards("6d 7h")))
    # seat 1: 对K / 对A beat 5点 / 9点; seat 2: 3点 / 3点 lose to 5点 / 9点
    assert state.settlement() == (-4 + 1, 4, -1)


def test_2104_groups_by_its_fixed_rule_without_asking() -> None:
    rule = "有对则组队，没对子，每组有大牌领头"
    g = game("2104")
    assert rule in g.variant.rules_zh
    state = g.new_state(3, deal=given("2104", "As Kd 7c 2h", "9c 9d Ah 3s", "Qs Js Ts 8s"))
    state.apply(1, Bet(1))
    state.apply(2, Bet(1))
    assert state.is_over  # no grouping phase
    seats = state.view(None)["seats"]
    assert seats[0]["groups"] == "Kd 7c / As 2h"  # highest+lowest, second+third
    assert seats[1]["groups"] == "Ah 3s / 9c 9d"  # the pair stays together
    ev = evaluator(g.variant)
    assert format_cards(sum(fixed_grouping(ev, parse_cards("Qs Js Ts 8s")), ())) == "Js Ts Qs 8s"


def test_views_never_show_a_hidden_card() -> None:
    state = game("2105").new_state(4, seed=9)
    for seat in (1, 2, 3):
        state.apply(seat, Bet(1))
    for seat in (None, 0, 1):
        shown = view_items(state.view(seat))
        hidden = state.hidden_from(seat)
        assert not set(shown) & set(hidden)
    assert set(view_items(state.view(2))) == set(state.hands[2])


@pytest.mark.parametrize(
    ("code", "options"),
    [
        ("2001", {"pair_payout": 2, "banker_rotation": "stay"}),
        ("2017", {"min_bet": 5, "max_bet": 7}),
        ("2104", {}),
        ("2108", {"banker_rotation": "stay"}),
    ],
)
def test_playouts_with_room_options(code: str, options: dict[str, object]) -> None:
    assert check_game(game(code, **options), range(4)) == []


def test_full_deck_is_conserved_in_locations() -> None:
    state = game("2009").new_state(9, seed=4)
    total = Counter(c for pile in state.locations().values() for c in pile)
    assert total == Counter(deck("40"))


def test_a_given_deal_must_give_each_seat_its_cards() -> None:
    with pytest.raises(ProtocolError, match="seat 0 has 3 cards; 2001 deals 2 each"):
        game("2001").new_state(2, deal=given("2001", "As Kd Qc", "2c"))


@settings(max_examples=25, deadline=None)
@for_all(code=st.sampled_from(["2001", "2016", "2105", "2107"]), seed=st.integers(0, 10**6))
def test_the_showdown_agrees_with_compare(code: str, seed: int) -> None:
    """Every player's result at the table is what ``paiju compare`` says of the two hands."""
    g = game(code)
    state = g.new_state(5, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        seat = min(state.to_act())
        state.apply(seat, state.random_action(seat, rng))
    seats = state.view(None)["seats"]
    hand = [s.get("groups") or s["cards"] for s in seats]
    for result in state.view(None)["results"]:
        verdict = compare_text(code, hand[0], hand[result["seat"]])
        assert verdict["winner"] == result["winner"]
        sign = {"player": 1, "banker": -1, "push": 0}[verdict["winner"]]
        assert result["amount"] == sign * seats[result["seat"]]["bet"]
