"""The 宁城打弹子 deal as a state machine (N1-N3, N37-N49, N56-N58, N61, N62)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from danzi_helpers import later, make_deal, new_deal, set_hands

from paiju.bots import RandomBot
from paiju.cards import Card, deck, format_cards, parse_cards
from paiju.errors import IllegalAction
from paiju.games import game
from paiju.games.danzi.game import (
    DanziState,
    Declare,
    Decline,
    Pass,
    Pick,
    Play,
    Return,
    Tribute,
    first_red_joker,
)
from paiju.harness import check_game, playout, view_items


def play(state: DanziState, seat: int, cards: str) -> None:
    state.apply(seat, Play(parse_cards(cards)))


def passes(state: DanziState, *seats: int) -> None:
    for seat in seats:
        state.apply(seat, Pass())


def first_deal(declarer_seat: int = 2) -> DanziState:
    """A match's first deal whose first 大王 goes to ``declarer_seat``."""
    state = new_deal({declarer_seat: "RJ"})
    assert state.declarer == declarer_seat
    return state


def test_n1_two_decks_27_each_dealt_one_at_a_time() -> None:
    """N1: 108 cards, 27 to each player, no kitty; at most two copies of a card."""
    state = game("ningcheng-danzi").new_state(4, seed="n1")
    assert [len(h) for h in state.deal.hands] == [27, 27, 27, 27]
    assert Counter(c for h in state.deal.hands for c in h) == Counter(deck("108"))
    assert max(Counter(deck("108")).values()) == 2
    assert not state.deal.piles


def test_n2_partners_opposite() -> None:
    """N2 "互为一伙的玩家": seats 0 and 2 against 1 and 3, fixed for the match."""
    state = first_deal()
    assert state.view(0)["teams"] == [0, 1, 0, 1] and state.team_of(2) == state.team_of(0)
    assert state.view(1)["partner"] == 3 and state.view(2)["partner"] == 0


def test_n3_counterclockwise_is_the_next_seat() -> None:
    """N3 "按照逆时针旋转": after seat s comes seat s+1."""
    state = first_deal(2)
    set_hands(state, {2: "5s 9s", 3: "6s Ts", 0: "7s Js", 1: "8s Qs"})
    play(state, 2, "5s")
    assert state.to_act() == {3}
    play(state, 3, "6s")
    assert state.to_act() == {0}


def test_n37_trick_pass_is_not_final() -> None:
    """N37: a pass does not bar a later play; the trick ends when all others passed."""
    state = first_deal(2)
    set_hands(state, {2: "5s 9s 9h", 3: "6s Ts Th", 0: "7s Js Jh", 1: "8s Qs Qh"})
    play(state, 2, "5s")
    passes(state, 3)
    play(state, 0, "7s")
    passes(state, 1, 2)
    play(state, 3, "Ts")  # passed before, plays now
    passes(state, 0, 1, 2)
    assert state.table is None and state.turn == 3  # the trick's winner leads
    with pytest.raises(IllegalAction) as err:
        state.apply(3, Pass())
    assert err.value.reason == "must_lead"


def test_n37_pass_is_final_option() -> None:
    """Option ``pass_is_final``: a seat that passed is skipped for the rest of the trick."""
    state = new_deal({2: "RJ"}, pass_is_final=True)
    set_hands(state, {2: "5s 9s", 3: "6s Ts", 0: "7s Js", 1: "8s Qs"})
    play(state, 2, "5s")
    passes(state, 3)
    play(state, 0, "7s")
    assert state.to_act() == {1}
    play(state, 1, "8s")
    assert state.to_act() == {2}
    passes(state, 2)
    assert state.to_act() == {0}  # seat 3 passed earlier and is skipped


def test_n38_jie_feng_to_the_partner() -> None:
    """N38 "当互为一伙的一家走完，并且获得出牌权的时候。该出牌权直接下放给另一家"."""
    state = first_deal(2)
    set_hands(state, {2: "3s", 3: "5h 9h", 0: "7s Js", 1: "8s Qs"})
    play(state, 2, "3s")
    assert state.finished == [2] and state.success is True
    passes(state, 3, 0, 1)
    assert state.turn == 0  # the partner leads, not seat 3
    # the partner out too: the next seat in turn leads
    play(state, 0, "7s")
    passes(state, 1)
    play(state, 3, "9h")
    play(state, 0, "Js")
    assert state.finished == [2, 0]
    passes(state, 1, 3)
    assert state.turn == 1


def test_n39_finishing_order_and_the_end() -> None:
    """N39 "第一个走完牌的玩家叫头游，第二个走完的叫二游，
    第三个走完的叫三游，第四个走完的叫末游"."""
    state = first_deal(2)
    set_hands(state, {2: "3s", 3: "5h 6h", 0: "7s", 1: "8s 9s"})
    play(state, 2, "3s")
    passes(state, 3, 0, 1)
    play(state, 0, "7s")  # 1-2 for team 0: seats 1 and 3 play on (A20)
    assert state.phase == "playing" and state.finished == [2, 0]
    passes(state, 1, 3)
    play(state, 1, "8s")
    passes(state, 3)
    play(state, 1, "9s")
    assert state.finished == [2, 0, 1, 3] and state.phase == "over"
    assert state.view(None)["result"]["places_zh"] == {"头游": 2, "二游": 0, "三游": 1, "末游": 3}


def test_n39_end_after_one_two_option() -> None:
    """Option ``end_after_one_two``: after a 1-2 the other two are ranked by cards left."""
    state = new_deal({2: "RJ"}, end_after_one_two=True)
    set_hands(state, {2: "3s", 3: "5h 6h", 0: "7s", 1: "8s 9s Ts"})
    play(state, 2, "3s")
    passes(state, 3, 0, 1)
    play(state, 0, "7s")
    assert state.phase == "over" and state.finished == [2, 0, 3, 1]


def test_n40_who_leads() -> None:
    """N40: the automatic declarer leads the first deal; later the declarer, else the 头游."""
    assert first_deal(1).turn == 1
    state = through_tribute(new_deal(context=later([3, 0, 1, 2])))
    for seat in (1, 2, 3, 0):
        state.apply(seat, Decline())
    assert state.phase == "playing" and state.turn == 3
    state = through_tribute(new_deal(context=later([3, 0, 1, 2]), lead_rule="declarer_else_last"))
    for seat in (1, 2, 3, 0):
        state.apply(seat, Decline())
    assert state.turn == 2
    state = through_tribute(new_deal(context=later([3, 0, 1, 2])))
    state.apply(1, Decline())
    state.apply(2, Declare())
    assert state.declarer == 2 and state.turn == 2


def test_n41_first_red_joker_declares() -> None:
    """N41 "每局开始的时候，首先抓到大王的玩家自动宣战"."""
    # seat 3 holds a 大王 as its 2nd card, seat 1 as its 5th: with dealing from seat 0,
    # seat 3's comes at draw 1*4+3 = 7, seat 1's at 4*4+1 = 17
    state = new_deal({3: "5s RJ", 1: "5h 5c 5d 6s RJ"})
    assert state.declarer == 3 and state.automatic and state.phase == "playing"
    assert state.view(0)["automatic_declaration"] is True
    hands = make_deal({3: "5s RJ", 1: "5h 5c 5d 6s RJ"}).hands
    assert first_red_joker(hands, 0) == 3
    assert first_red_joker(hands, 2) == 3  # seat 3 at draw 4+1 = 5, seat 1 at 16+3 = 19
    assert first_red_joker(new_deal({1: "RJ", 3: "RJ"}).deal.hands, 2) == 3


def test_n42_declaration_right_from_the_third() -> None:
    """N42 "接下来每盘的三游首先拥有宣战权，按照逆时针旋转，
    当有一个玩家宣战的时候，则其他玩家无法宣战"."""
    state = through_tribute(new_deal(context=later([0, 1, 2, 3])))
    assert state.phase == "declaring" and state.to_act() == {2}
    state.apply(2, Decline())
    assert state.to_act() == {3}
    state.apply(3, Declare())
    assert state.declarer == 3 and state.phase == "playing"  # nobody else may declare
    with pytest.raises(IllegalAction):
        state.apply(0, Declare())


def test_n43_tribute_before_the_declaration() -> None:
    """N43: deal, tribute and return, then the declaration round, then the lead."""
    state = new_deal(context=later([0, 1, 2, 3]))
    assert state.phase in ("tribute", "picking")
    assert through_tribute(state).phase == "declaring"


def test_n44_success_first_out() -> None:
    """N44 "宣战的玩家必须走第一成为头游": success doubles the points."""
    state = first_deal(2)
    set_hands(state, {2: "3s", 3: "5h", 0: "7s", 1: "8h 9h"})
    play(state, 2, "3s")
    assert state.success is True
    passes(state, 3, 0, 1)
    play(state, 0, "7s")
    play(state, 1, "8h")
    passes(state, 3)
    play(state, 1, "9h")
    assert state.finished == [2, 0, 1, 3] and state.points == (6, 0)


def test_n45_failure_last_and_silent() -> None:
    """N45 "其他三家任意成为头游则宣战失败，宣战方自动成为末游。禁止出任何牌"."""
    state = first_deal(2)
    set_hands(state, {2: "5s 6s 7s", 3: "3h", 0: "9s Ts", 1: "8h Jh"})
    play(state, 2, "5s")
    play(state, 3, "3h")  # seat 3 goes out first: the declaration fails
    assert state.stopped == [2] and state.success is False
    passes(state, 0, 1)
    assert state.turn == 1  # 接风 to seat 1; seat 2 is skipped
    play(state, 1, "8h")
    play(state, 0, "9s")  # seat 2 never acts again
    assert 2 not in state.to_act()
    play(state, 1, "Jh")
    assert state.finished == [3, 1, 0, 2] and state.phase == "over"
    assert state.points == (0, 3)


def test_n45_a_partner_first_still_fails() -> None:
    """N45: "其他三家任意" includes the declarer's own partner."""
    state = first_deal(2)
    set_hands(state, {2: "5s 6s", 3: "9h Th", 0: "3s", 1: "8h Jh"})
    play(state, 2, "5s")
    passes(state, 3)
    play(state, 0, "3s")
    assert state.stopped == [2] and state.finished == [0]


def test_n46_n47_tribute_form_follows_the_previous_declaration() -> None:
    """N46 "宣战胜败与否，末游都必须向头游进贡4张最大的牌，还贡同样还4张"; N47 "每盘游戏开始时"."""
    assert first_deal().form is None  # a match's first deal: no tribute
    assert new_deal(context=later([0, 1, 2, 3])).form == "2/2"
    assert new_deal(context=later([0, 1, 2, 3], declarer=0)).form == "4/2"
    assert new_deal(context=later([1, 0, 2, 3], declarer=3)).form == "4/2"  # failed too


THIRD = "RJ BJ 5s 5h 5c 5d 6s 6h 6c 6d 7s 7h 7c 7d 8s 8h 8c 8d 9s 9h 9c 9d Ts Th Tc Td Js"
LAST_FREE = "As Ah Ac Ad Ks Kh Kc Kd Qs Qh Qc Qd Jh Jc Jd 5s 5h 5c 5d 6s 6h 6c 6d 7s 7h 7c 7d"


def test_n48_two_two_form() -> None:
    """N48 "三游和末游自动各拿出两张最大的牌给头游和二游挑选，头游有优先选择权 …
    三游优先选择还贡牌 …
    第一个还贡的牌先暗着，第二个还贡的牌打出后，贡牌全部明牌给人选"."""
    state = new_deal({2: THIRD, 3: LAST_FREE}, context=later([0, 1, 2, 3]))
    assert state.phase == "tribute" and state.to_act() == {3}  # 三游 gave RJ BJ at once
    assert state.view(1)["tribute"]["pool"] == "RJ BJ"
    with pytest.raises(IllegalAction) as err:
        state.apply(3, Tribute(parse_cards("4s 5s")))
    assert err.value.reason in ("four_in_tribute", "cards_not_in_hand")
    state.apply(3, Tribute(parse_cards("5s 6s")))  # 骚贡: 末游 holds no 王, 3 or 2
    assert state.phase == "picking" and state.to_act() == {0}
    state.apply(0, Pick(parse_cards("RJ BJ")))
    assert Counter(parse_cards("5s 6s")) <= Counter(state.hands[1])
    assert state.to_act() == {0}  # 头游 returns first
    with pytest.raises(IllegalAction) as err:
        state.apply(0, Return(parse_cards("RJ 9s")))
    hand0 = [c for c in state.hands[0] if Card(c).rank not in (4, 15, 16)]
    first = parse_cards(format_cards(hand0[-2:]))
    state.apply(0, Return(first))
    view1 = state.view(1)["tribute"]["hidden_return"]
    assert view1["count"] == 2 and view1["cards"] is None  # face down for the opponents
    assert state.view(2)["tribute"]["hidden_return"]["cards"] == format_cards(first)
    hand1 = [c for c in state.hands[1] if Card(c).rank not in (4, 5, 6)]
    second = tuple(Card(c) for c in hand1[-2:])
    state.apply(1, Return(second))
    assert state.phase == "picking_returns" and state.to_act() == {2}  # 三游 picks first
    shown = Counter(parse_cards(state.view(3)["tribute"]["return_pool"]))
    assert shown == Counter(first) + Counter(second)
    state.apply(2, Pick(second))
    assert state.phase == "declaring"
    assert all(len(h) == 27 for h in state.hands)


def test_n48_tribute_pick_lots_option() -> None:
    """Option ``tribute_pick = lots``: 头游 takes one giver's two cards, not any two."""
    state = new_deal({2: THIRD, 3: LAST_FREE}, context=later([0, 1, 2, 3]), tribute_pick="lots")
    state.apply(3, Tribute(parse_cards("5s 6s")))
    with pytest.raises(IllegalAction) as err:
        state.apply(0, Pick(parse_cards("RJ 5s")))
    assert err.value.reason == "pick_one_lot"
    assert {a.to_json()["cards"] for a in state.legal_actions(0) or []} == {"BJ RJ", "5s 6s"}
    state.apply(0, Pick(parse_cards("RJ BJ")))
    assert state.phase == "returning"


def test_n49_four_two_form() -> None:
    """N49 "末游给头游自动进贡4张最大的牌，三游给二游进贡的牌还是两张不变 … 还贡同样还4张"."""
    last = "RJ BJ 3s 3h " + " ".join(THIRD.split()[2:25])
    state = new_deal({2: last}, context=later([1, 0, 3, 2], declarer=1))
    assert state.tribute_log[0]["cards"] == "RJ BJ 3s 3h" and state.tribute_log[0]["to"] == 1
    assert state.phase == "returning" and state.to_act() == {0, 1}
    rng = random.Random(1)
    state.apply(1, state.random_action(1, rng))
    state.apply(0, state.random_action(0, rng))
    assert [e["type"] for e in state.tribute_log].count("return_given") == 2
    assert len(state.tribute_log[2]["cards"].split()) == 4
    assert state.phase == "declaring" and state.to_act() == {3}


def test_n56_tribute_shown_to_all() -> None:
    """N56 "进贡牌为明牌": every seat's view shows the tribute; the harness accepts it."""
    state = new_deal({2: THIRD}, context=later([0, 1, 2, 3], declarer=0))
    for seat in (None, 0, 1, 2, 3):
        assert state.view(seat)["tribute"]["log"][-1]["cards"] == "RJ BJ"
    hidden = state.hidden_from(3)  # the 大王 now in seat 1's hand is not hidden from seat 3
    assert hidden[Card.parse("RJ")] < 2 or Card.parse("RJ") not in state.hands[1]
    assert Counter(state.exposed[1]) == Counter(parse_cards("RJ BJ"))


def test_n57_tribute_between_partners() -> None:
    """N57: tribute follows places; ``tribute_between_partners = false`` skips it."""
    ctx = later([2, 1, 3, 0], declarer=0)  # the failed declarer 0 owes its partner 2
    literal = new_deal(context=ctx)
    assert any(e["seat"] == 0 and e["to"] == 2 for e in literal.tribute_log)
    skipped = new_deal(context=ctx, tribute_between_partners=False)
    assert not any(e["seat"] == 0 for e in skipped.tribute_log)


def test_n57_no_tribute_between_partners_in_the_2_2_pools() -> None:
    """N57 "进贡牌全部明牌给人选": in the 2/2 form 三游 may feed their own partner (头游); with
    ``tribute_between_partners = false`` the only picks offered keep every card away from
    its giver's partner, for the tribute and for the returns alike."""
    ctx = later([0, 1, 2, 3])  # 头游 0 and 三游 2 are partners, 二游 1 and 末游 3
    free = new_deal(context=ctx)
    while free.phase == "tribute":
        seat = min(free.to_act())
        free.apply(seat, free.random_action(seat, random.Random(seat)))
    assert free.phase == "picking" and len(free.legal_actions(0) or []) > 1
    strict = new_deal(context=ctx, tribute_between_partners=False)
    while strict.phase == "tribute":
        seat = min(strict.to_act())
        strict.apply(seat, strict.random_action(seat, random.Random(seat)))
    assert strict.phase == "picking"
    given = {g: sorted(c for gg, c in strict.pool if gg == g) for g in (2, 3)}
    (only,) = strict.legal_actions(0) or []
    assert isinstance(only, Pick) and sorted(only.cards) == given[3]  # 末游's cards only
    if given[2] != given[3]:
        with pytest.raises(IllegalAction) as refused:
            strict.apply(0, Pick(tuple(given[2])))
        assert refused.value.reason == "pick_from_partner"
    strict.apply(0, only)
    while strict.phase == "returning":
        seat = min(strict.to_act())
        strict.apply(seat, strict.random_action(seat, random.Random(seat)))
    assert strict.phase == "picking_returns"
    returned = {g: sorted(c for gg, c in strict.return_pool if gg == g) for g in (0, 1)}
    (back,) = strict.legal_actions(2) or []
    assert isinstance(back, Pick) and sorted(back.cards) == returned[1]  # not 头游's


def test_n58_partners_see_each_other() -> None:
    """N58 "互为一伙的玩家可以互相看到对方的牌"."""
    state = first_deal()
    assert state.view(0)["hands"][2] == format_cards(state.hands[2])
    assert state.view(0)["hands"][1] is None and state.view(0)["partner"] == 2
    assert state.view(1)["hands"][3] == format_cards(state.hands[3])
    assert state.view(None)["hands"] == [None] * 4 and state.view(None)["hand"] is None
    assert state.hidden_from(0) == Counter(state.hands[1]) + Counter(state.hands[3])
    shown = view_items(state.view(1))
    assert set(shown) == set(state.hands[1]) | set(state.hands[3])  # own and partner's only


def test_n61_match_end_settles_the_stake() -> None:
    """N61 "一方总分达到30分及以上就可结束一局游戏，并且获得积分"."""
    state = through_tribute(new_deal(context=later([0, 1, 2, 3], totals=(28, 5))))
    for seat in (2, 3, 0, 1):
        state.apply(seat, Decline())
    set_hands(state, {0: "3s", 1: "5h 6h", 2: "7s", 3: "8h 9h"})
    play(state, 0, "3s")
    passes(state, 1, 2, 3)
    play(state, 2, "7s")
    assert state.phase == "playing"  # 1-2: seats 1 and 3 play on
    passes(state, 3, 1)
    play(state, 3, "8h")
    passes(state, 1)
    play(state, 3, "9h")
    assert state.points == (3, 0) and state.totals == [31, 5] and state.match_over
    assert state.settlement() == (1, -1, 1, -1)
    assert game("ningcheng-danzi").match_over(state.next_context(), 5)


def test_n62_new_match_restarts() -> None:
    """N62: after the match, totals start at 0 and the first deal declares automatically."""
    ctx = {**later([0, 1, 2, 3], totals=(31, 5)), "match_over": True}
    state = new_deal({1: "RJ"}, context=ctx)
    assert state.totals == [0, 0] and state.form is None and state.declarer == 1


def test_refusals_name_a_reason() -> None:
    """Bad plays are refused with a reason, and the state is untouched."""
    state = first_deal(2)
    set_hands(state, {2: "5s 6h 9s", 3: "6s Ts"})
    before = state.snapshot()
    for cards, reason in (("5s 6h", "not_a_combination"), ("Ah", "not_held")):
        with pytest.raises(IllegalAction) as err:
            play(state, 2, cards)
        assert err.value.reason == reason
    play(state, 2, "9s")
    with pytest.raises(IllegalAction) as err:
        play(state, 3, "6s")
    assert err.value.reason == "not_higher"
    assert state.snapshot() != before


def through_tribute(state: DanziState) -> DanziState:
    """Play the tribute phases with random legal choices."""
    rng = random.Random(0)
    while state.phase in ("tribute", "picking", "returning", "picking_returns"):
        seat = min(state.to_act())
        state.apply(seat, state.random_action(seat, rng))
    return state


def test_harness_invariants() -> None:
    """Through the harness: conservation, views hide (明牌 and shown tribute allowed),
    replay, zero sums; three deep-checked deals with random players (tribute, 骚贡 and odd
    plays included), and a whole match of bots with the cheap checks."""
    g = game("ningcheng-danzi")
    bots = [RandomBot(g, s) for s in range(4)]
    deep = playout(g, seed="h1", bots=bots, deep=True, max_hands=3)
    assert deep.failures == [] and len(deep.hands) == 3
    assert check_game(g, ["h2"], deep=False) == []


def test_n35_take_in_turn_even_a_partners_zhazi() -> None:
    """N35 "玩家可以用一定张数的4牌取别的玩家打出的相应张数的砟子": in turn, any other player's."""
    state = first_deal(2)
    set_hands(state, {2: "5s 5h 5c 9s", 3: "6h Th", 0: "4s 4h 9h", 1: "8s Jh"})
    play(state, 2, "5s 5h 5c")
    passes(state, 3)
    play(state, 0, "4s 4h")  # seat 0 takes its partner's 砟子
    assert state.table_take and state.danzi_table is not None
    assert state.danzi_table.kind == "对牌"
    assert state.view(1)["table_take"] is True and state.view(1)["table"]["kind_zh"] == "对牌"
    assert state.view(1)["trick_takes"][-1] is True
    with pytest.raises(IllegalAction):
        state.apply(3, Play(parse_cards("6h")))  # out of turn


def test_n56_the_harness_allows_exactly_the_shown_tribute() -> None:
    """Both 大王 given as shown tribute: the opponents' views name them and the harness's
    hidden-card check accepts it; were they not shown, the same views would leak."""
    from paiju.harness import _leaks

    last = "RJ RJ BJ BJ " + " ".join(THIRD.split()[2:25])
    state = new_deal({2: last}, context=later([1, 0, 3, 2], declarer=1))
    assert Counter(state.exposed[1])[Card.parse("RJ")] == 2
    for seat in (0, 2, None):  # seat 1's opponents and the spectator
        view = state.view(seat)
        assert "RJ RJ" in view["tribute"]["log"][0]["cards"]
        assert _leaks(state, seat, view) == []
    state.exposed[1].clear()
    assert _leaks(state, 0, state.view(0))  # the check would catch an unshown card


FROZEN_HEAD = "4s 4h 4c 4d 4s 4h 4c 4d 3s 3h 3c 3d 3s 3h 3c 2s 2h 2c 2d 2s 2h As Ah Ac Ad As Ah"
FROZEN_LAST = "3d 2c Ac Ad " + " ".join(
    [f"K{s}" for s in "shcdshcd"] + [f"Q{s}" for s in "shcdshcd"] + [f"J{s}" for s in "shcdshc"]
)


def test_a_four_two_deal_never_freezes_on_the_return() -> None:
    """N49 "末游给头游自动进贡4张最大的牌 … 还贡同样还4张": 头游 holds only 4s, 3s, 2s and As and
    receives 3 2 A A. N54/N55 leave no card to return; our fallback (the rule page's) lets the
    return be made of a tribute card's value, never a 4: every seat to act has an action,
    the random bot and the family bot return four, and the deal plays to its end."""
    from paiju.games import make_bot
    from paiju.harness import dead_seats

    context = later([0, 1, 2, 3], declarer=0)
    for bot in ("random", "family"):
        state = new_deal({0: FROZEN_HEAD, 3: FROZEN_LAST}, context=context)
        assert state.form == "4/2" and state.tribute_log[0]["cards"] == "3d 2c Ac Ad"
        assert state.phase == "returning" and 0 in state.to_act()
        assert dead_seats(state) == []
        player = RandomBot(5) if bot == "random" else make_bot(state.game, 5)
        action = player.act(state, 0)
        back = parse_cards(action.to_json()["cards"])
        assert len(back) == 4 and {format_cards([c])[0] for c in back} <= {"3", "2", "A"}
        state.apply(0, action)
        rng = random.Random(3)
        while not state.is_over:
            assert dead_seats(state) == [], state
            seat = min(state.to_act())
            state.apply(seat, state.random_action(seat, rng))
        assert sum(state.settlement()) == 0


def test_legal_play_cards_are_the_listed_plays_cards() -> None:
    # legal_play_cards lists, without making the actions, the cards of what legal_actions
    # lists in the playing phase (the pass as no cards), in its order; None elsewhere.
    rng = random.Random(11)
    for hand in range(6):
        state = game("ningcheng-danzi").new_state(4, seed=f"cards-{hand}")
        while not state.is_over:
            for seat in range(4):
                listed = state.legal_play_cards(seat)
                if state.phase != "playing":
                    assert listed is None
                    continue
                acts = state.legal_actions(seat) or []
                assert listed == [a.cards if isinstance(a, Play) else () for a in acts]
                assert all(isinstance(a, Play | Pass) for a in acts)
            seat = min(state.to_act())
            state.apply(seat, state.random_action(seat, rng))
