"""鞍山甲乙丙: one test (at least) per rule J1-J13 of the reading, each quoting the text.

The reading is ``rules/readings/anshan-shedding.md`` §1; the text is file 004 (the catalogue
entry's ``rules_zh``). :data:`SENTENCES` maps every sentence of the text to its tests.
"""

from __future__ import annotations

from collections import Counter

import pytest
from climbing_helpers import PASS, P, jiayibing, jyb_position, play, run

from paiju.cards import Card, deck
from paiju.errors import IllegalAction
from paiju.games.climbing.jiayibing import JiayibingState, completed, settle

SENTENCES = {
    ("鞍山甲乙丙游戏规则:【使用牌数】两副牌游戏,共108张牌,6位玩家,每位游戏者18张牌。"): [
        "test_j1_two_decks_six_players_eighteen_each"
    ],
    (
        "【对家】6位玩家游戏,3位玩家一伙,其他3位玩家一伙,分伙条件为甲 A乙"
        " C丙 B那么这时甲、乙、丙三位玩家为一伙,另三位玩家为一伙 。"
    ): ["test_j2_teams_alternate_seats"],
    "【牌型】单张,对,三同张,四同张。": ["test_j3_the_four_kinds_and_nothing_else"],
    (
        "【牌的大小】本游戏的牌点由大到小排列为:大王、小王、2、A、K、Q、J、"
        "10、9、8、7、6、5、4、3;没有花色分别 注:只能大王和大王一对出"
        ",小王和小王一对出,不可搭配出牌,? 当一家出去的时候接风(坐车)要给下"
        "家。"
    ): [
        "test_j4_rank_order_and_no_suits",
        "test_j5_jokers_pair_only_with_the_same_joker",
        "test_j10_jiefeng_goes_to_the_next_seat_holding_cards",
    ],
    (
        "【出牌规则】牌中有一张特殊的3,第一局由抓到特殊3的玩家先出牌,他可以出"
        "一张牌,也可以出几张牌,只要是正确的牌型就可以。"
    ): [
        "test_j8_the_special_3_holder_leads_the_first_deal",
        "test_j8_the_first_lead_is_any_combination",
    ],
    ("第2局则按照规则判定谁先出牌,此特殊3只对判定第一局谁先出牌有效!"): [
        "test_j9_later_deals_the_first_finisher_leads"
    ],
    (
        "游戏者依次轮流出牌,后一家打出的牌必须比前一家打出的牌大,如没有可以弃权"
        "(Pass);如果其他游戏者都Pass,则最后出牌的一方可以出新的牌型;"
        "重复以上,直到其中一伙三个玩家的牌全部出完,那么此局结束。"
    ): [
        "test_j6_same_kind_higher_rank_beats",
        "test_j7_passing_is_free_and_not_final",
        "test_j7_all_others_pass_the_last_player_leads_anew",
        "test_j11_the_deal_ends_when_a_team_is_out",
    ],
}


def test_j1_two_decks_six_players_eighteen_each() -> None:
    """ "两副牌游戏,共108张牌,6位玩家,每位游戏者18张牌": every card twice, 18 each."""
    state = jiayibing().new_state(seed=1)
    assert state.seats == 6
    assert [len(h) for h in state.hands] == [18] * 6
    everything = Counter(c for h in state.hands for c in h)
    assert everything == Counter(deck("108"))
    assert max(everything.values()) == 2


def test_j2_teams_alternate_seats() -> None:
    """ "分伙条件为甲 A乙 C丙 B … 甲、乙、丙三位玩家为一伙": seats 0 2 4 against 1 3 5."""
    state = jiayibing().new_state(seed=2)
    assert [state.team_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert state.partners(0) == [2, 4]
    assert state.view(3)["teams"] == [0, 1, 0, 1, 0, 1]  # fixed, known to all


@pytest.mark.parametrize(
    ("cards", "kind"),
    [
        ("7h", "单张"),
        ("7h 7s", "对"),
        ("7h 7h", "对"),
        ("9c 9c 9d", "三同张"),
        ("9c 9c 9d 9d", "四同张"),
        ("RJ RJ", "对"),
        ("BJ", "单张"),
    ],
)
def test_j3_the_four_kinds_and_nothing_else(cards: str, kind: str) -> None:
    """ "【牌型】单张,对,三同张,四同张": four kinds; no runs, no five of a kind."""
    combo = jiayibing().rules.classify(P(cards))
    assert combo is not None and jiayibing().rules.kind_zh[combo.kind] == kind
    for nothing in ("7h 8h 9h", "7h 7s 8h 8s", "9c 9c 9d 9d 9s", "5s 6s 7s 8s 9s", ""):
        assert jiayibing().rules.classify(P(nothing)) is None


def test_j4_rank_order_and_no_suits() -> None:
    """ "由大到小排列为:大王、小王、2、A、K … 4、3;没有花色分别"."""
    rules = jiayibing().rules
    high_to_low = P("RJ BJ 2s As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s")
    levels = [rules.level(c) for c in high_to_low]
    assert levels == sorted(levels, reverse=True) and len(set(levels)) == 15
    assert rules.level(Card.parse("7h")) == rules.level(Card.parse("7s"))
    a, b = rules.classify(P("7h")), rules.classify(P("7s"))
    assert a is not None and b is not None and not rules.beats(a, b) and not rules.beats(b, a)


def test_j5_jokers_pair_only_with_the_same_joker() -> None:
    """ "只能大王和大王一对出,小王和小王一对出,不可搭配出牌"."""
    rules = jiayibing().rules
    rj, bj, twos = (
        rules.classify(P("RJ RJ")),
        rules.classify(P("BJ BJ")),
        rules.classify(P("2s 2h")),
    )
    assert rj is not None and bj is not None and twos is not None
    assert rules.beats(rj, bj) and rules.beats(bj, twos)
    assert rules.classify(P("RJ BJ")) is None
    assert rules.classify(P("BJ 2s")) is None
    state = jyb_position(["RJ BJ 3s", "4s", "4h", "4c", "4d", "5s"], leader=0)
    with pytest.raises(IllegalAction) as err:
        state.apply(0, play("RJ BJ"))
    assert err.value.reason == "not_a_combination"


def test_j6_same_kind_higher_rank_beats() -> None:
    """ "后一家打出的牌必须比前一家打出的牌大": same kind, strictly higher; quads no bomb."""
    rules = jiayibing().rules
    c = {t: rules.classify(P(t)) for t in ("7h", "8s", "7s 7d", "3s 3s", "6s 6s 6h 6h", "2s")}
    assert all(v is not None for v in c.values())
    assert rules.beats(c["8s"], c["7h"])  # type: ignore[arg-type]
    assert not rules.beats(c["7s 7d"], c["7h"])  # type: ignore[arg-type]
    assert not rules.beats(c["6s 6s 6h 6h"], c["2s"])  # type: ignore[arg-type]
    bombs = jiayibing(quads_beat_all=True).rules
    assert bombs.beats(c["6s 6s 6h 6h"], c["2s"])  # type: ignore[arg-type]
    state = jyb_position(["7h 9s", "7s 8s", "4c", "4d", "4h", "5s"], leader=0)
    state.apply(0, play("7h"))
    with pytest.raises(IllegalAction) as err:
        state.apply(1, play("7s"))
    assert err.value.reason == "not_higher"
    state.apply(1, play("8s"))
    assert state.table is not None and state.table_seat == 1


def test_j7_passing_is_free_and_not_final() -> None:
    """ "如没有可以弃权(Pass)": a seat may pass holding a beating play, and plays again later."""
    state = jyb_position(["5s 9s", "6s Ks", "7s 8c", "4c 4d", "4h 3h", "5d 3d"], leader=0)
    run(state, [(0, "5s"), (1, "pass"), (2, "7s"), (3, "pass"), (4, "pass"), (5, "pass")])
    # seat 1 passed on 5s but may beat seat 2's 7s now the turn is back
    assert state.turn == 0
    run(state, [(0, "9s")])
    assert state.turn == 1
    run(state, [(1, "Ks")])
    assert state.table_seat == 1
    must = jyb_position(["5s 9s", "6s Ks", "7s", "4c", "4h", "5d"], leader=0, must_beat=True)
    run(must, [(0, "5s")])
    with pytest.raises(IllegalAction) as err:
        must.apply(1, PASS)
    assert err.value.reason == "must_beat"


def test_j7_all_others_pass_the_last_player_leads_anew() -> None:
    """ "如果其他游戏者都Pass,则最后出牌的一方可以出新的牌型"."""
    state = jyb_position(["5s 9s 9d", "6s", "7s", "4c", "4h", "5d"], leader=0)
    run(state, [(0, "5s")] + [(s, "pass") for s in range(1, 6)])
    assert state.table is None and state.turn == 0
    run(state, [(0, "9s 9d")])  # a new kind: a pair
    assert state.table is not None and state.table.kind == "pair"
    fresh = jyb_position(["5s 9s 9d", "6s", "7s", "4c", "4h", "5d"], leader=0)
    with pytest.raises(IllegalAction) as err:
        fresh.apply(0, PASS)
    assert err.value.reason == "must_lead"


def test_j8_the_special_3_holder_leads_the_first_deal() -> None:
    """ "第一局由抓到特殊3的玩家先出牌": one of the eight 3s, drawn and shown to all."""
    leaders = set()
    for seed in range(12):
        state = jiayibing().new_state(seed=seed)
        assert isinstance(state, JiayibingState)
        special = state.view(None)["special3"]
        assert special["rank"] == "3" and special["copy"] in (1, 2)
        holder = special["holder"]
        card = Card.of(3, "shcd".index(special["suit"]))
        assert card in state.hands[holder]
        assert state.turn == holder == state.leader
        assert state.hidden_from(None)[card] <= 1  # the marked copy is shown
        leaders.add(holder)
    assert len(leaders) > 2  # drawn at random, not a fixed seat
    first = jiayibing(special3="first-dealt").new_state(seed=3)
    assert first.view(None)["special3"]["holder"] == first.turn


def test_j8_the_first_lead_is_any_combination() -> None:
    """ "他可以出一张牌,也可以出几张牌,只要是正确的牌型就可以": the lead need not hold the 3."""
    state = jiayibing().new_state(seed=4)
    leader = state.turn
    options = state.legal_actions(leader)
    assert options
    kinds = {len(a.cards) for a in options if hasattr(a, "cards")}
    assert 1 in kinds and max(kinds) >= 2
    no_three = [a for a in options if all(Card(c).rank != 3 for c in a.cards)]  # type: ignore[attr-defined]
    state.apply(leader, no_three[0])
    assert state.table_seat == leader


def test_j9_later_deals_the_first_finisher_leads() -> None:
    """ "第2局则按照规则判定谁先出牌,此特殊3只对判定第一局谁先出牌有效": the 头游 leads."""
    g = jiayibing()
    state = jyb_position(["5s", "6s 6d", "7s 7d", "8s 8d", "9s 9d", "Ts Td"], leader=0)
    run(state, [(0, "5s")])
    assert state.finished == [0]
    nxt = g.new_state(seed=9, context=state.next_context())
    assert nxt.turn == 0 and nxt.view(None)["special3"] is None
    every = jiayibing(next_lead="special3").new_state(seed=9, context={"leader": 0})
    assert every.view(None)["special3"] is not None


def test_j10_jiefeng_goes_to_the_next_seat_holding_cards() -> None:
    """ "当一家出去的时候接风(坐车)要给下家": the next seat still holding cards leads."""
    state = jyb_position(["9s", "6s 6d", "7s 7d", "8s 8d", "4s 4d", "Ts Td"], leader=0)
    run(state, [(0, "9s")] + [(s, "pass") for s in range(1, 6)])
    assert state.finished == [0] and state.turn == 1 and state.jiefeng_from == 0
    assert state.table is None  # seat 1 (an opponent) leads any kind
    # seats that went out are skipped: 1 is out too, so after 0 the lead goes to 2
    skip = jyb_position(["9s", "", "7s 7d", "8s 8d", "4s 4d", "Ts Td"], leader=0)
    skip.finished = [1]
    run(skip, [(0, "9s")] + [(s, "pass") for s in (2, 3, 4, 5)])
    assert skip.turn == 2


def test_j10_a_beaten_finishing_play_goes_on() -> None:
    """ "接风" applies only when the finishing play stands: if beaten, play goes on."""
    state = jyb_position(["9s", "Ts 6d", "7s 7d", "8s 8d", "4s 4d", "3s 3d"], leader=0)
    run(state, [(0, "9s"), (1, "Ts")] + [(s, "pass") for s in (2, 3, 4, 5)])
    assert state.turn == 1 and state.jiefeng_from is None


def test_j11_the_deal_ends_when_a_team_is_out() -> None:
    """ "直到其中一伙三个玩家的牌全部出完,那么此局结束"."""
    assert completed([0, 2]) is None and completed([0, 1, 2, 4]) == 0
    state = jyb_position(["9s", "6s 6d", "Ts", "8s 8d", "Js", "3s 3d"], leader=0)
    run(state, [(0, "9s"), (1, "pass"), (2, "Ts"), (3, "pass"), (4, "Js")])
    assert state.is_over and state.finished == [0, 2, 4]
    assert state.view(1)["result"]["caught"] == 3
    assert list(state.settlement()) == [3, -3, 3, -3, 3, -3]


@pytest.mark.parametrize(
    ("order", "each_f"),
    [
        ([0, 2, 4], 3),
        ([0, 2, 1, 4], 2),
        ([0, 1, 2, 4], 2),
        ([0, 2, 1, 3, 4], 1),
        ([0, 1, 2, 3, 4], 1),
        ([0, 1, 3, 2, 4], 1),
        ([0, 1, 3, 5], 0),
        ([0, 2, 1, 3, 5], 0),
        ([0, 1, 2, 3, 5], 0),
        ([0, 1, 3, 2, 5], 0),
    ],
)
def test_j12_payout_table(order: list[int], each_f: int) -> None:
    """J12 (reading: the text gives no payout): the first finisher's team must complete;
    it wins ``caught`` from each opponent, else 和."""
    out = settle(order)
    assert out["deltas"][0] == each_f and out["deltas"][1] == -each_f
    assert sum(out["deltas"]) == 0
    assert out["result"] == ("win" if each_f else "draw")
    # the result says how it was counted: units (opponents caught) × the base, each
    assert out["breakdown"] == {"units": each_f, "base": 1, "each": each_f}
    if not each_f:  # 和: the first player out's team (F) did not complete first (C)
        assert out["first_team"] != out["completed"] and out["winner"] is None
    assert settle(order, base=2)["breakdown"]["each"] == 2 * each_f


def test_j12_payout_options() -> None:
    """J12 options: ``team-out`` (no draws) and ``catalog-v1`` (1, or 2 if none out)."""
    assert settle([0, 1, 3, 5], payout="team-out")["deltas"][1] == 2  # 2 of 甲乙丙 caught
    assert settle([0, 1, 3, 5], payout="catalog-v1")["deltas"][1] == 1
    assert settle([0, 2, 4], payout="catalog-v1")["deltas"][0] == 2
    assert settle([0, 2, 4], base=5)["deltas"][0] == 15


def test_j13_deals_chain_in_a_match() -> None:
    """J13: deals follow one another (the context carries the leader) and scores add up."""
    from paiju.engine import Match

    g = jiayibing()
    match = Match(g, 6, iter(["m0", "m1", "m2"]))
    from paiju.games import make_bot

    bots = [make_bot(g, s) for s in range(6)]
    for _ in range(2):
        state = match.next_hand()
        while not state.is_over:
            (s,) = state.to_act()
            state.apply(s, bots[s].act(state, s))
    first, second = match.hands
    assert isinstance(first, JiayibingState) and isinstance(second, JiayibingState)
    assert second.log[0][0] == first.finished[0]  # the 头游 led the second deal
    assert sum(match.totals) == 0


def test_bad_room_options_are_refused() -> None:
    """Options are validated with bounds: a clear refusal, not a traceback."""
    for bad in ({"payout": "nobody"}, {"base": 0}, {"colour": 1}, {"special3": "any"}):
        with pytest.raises(IllegalAction) as err:
            jiayibing(**bad)
        assert err.value.reason == "bad_option"
