"""鞍山放羊: one test (at least) per rule F1-F16 of the reading, each quoting the text.

The reading is ``rules/readings/anshan-shedding.md`` §2; the text is file 004 (the catalogue
entry's ``rules_zh``). :data:`SENTENCES` maps every sentence of the text to its tests.
"""

from __future__ import annotations

from collections import Counter

import pytest
from climbing_helpers import PASS, P, fangyang, fy_position, play, run

from paiju.cards import Card, deck
from paiju.errors import IllegalAction, NotationError, ProtocolError
from paiju.games.climbing.fangyang import Call, FangyangState, jiefeng, settle

SENTENCES = {
    (
        "【使用牌数】一副牌游戏,共54张,4位玩家,两个人是13张,两个人是14"
        "张【本方与对方】发完牌后,由庄家选择一张A以下的牌,庄家与手中有庄家要的"
        "牌的玩家一伙(如果要自己手里没有的牌,那就是2对2,如果要自己手里的牌,"
        "那就是1对3,可以选择亮出来,也可以不亮,具体积分规则见下)。"
    ): [
        "test_f1_one_deck_two_hands_of_14",
        "test_f4_the_call_a_or_lower",
        "test_f5_two_against_two_or_one_against_three",
        "test_f6_shown_or_not",
    ],
    "第一局由手中有红桃4的为庄家先出牌。": ["test_f2_the_heart_4_holder_is_the_first_banker"],
    (
        "【出牌过程】由庄家先出,游戏依次轮流出牌,后一家打出的牌必须比以前一家打"
        "出的牌大,如没有可以弃权;如果其它游戏者都弃权,则最后出牌的一方可以出新"
        "的牌型。"
    ): [
        "test_f10_the_banker_leads",
        "test_f9_beating_and_passing",
    ],
    "重复以上的过程,直到一方的玩家的牌全部出光。": ["test_f13_the_deal_ends_when_a_side_is_out"],
    (
        "【接风(坐车)】一、当有抓到庄家要的牌的玩家把那张牌没打出来的时候,也就"
        "是还没分出来谁和谁一伙的时候,如果一位玩家出完牌时,所出的最后一张牌,其"
        "他三位玩家都管不上,那么就由先出完牌的玩家的下家继续出牌,可以出任何的牌"
        "型。"
    ): ["test_f11_jiefeng_to_the_next_seat_while_sides_are_unknown"],
    (
        "二、当有抓到庄家要的牌的玩家把那张牌打出来的时候,也就是大家都已经互相知"
        "道谁和谁是一伙的时候,如果一位玩家出完牌时,所出的最后一张牌,其他三位玩"
        "家都管不上,那么就由先出完牌的玩家的对家继续出牌,可以出任何的牌型。"
    ): [
        "test_f12_jiefeng_to_the_partner_once_sides_are_known",
        "test_f12_the_called_card_in_the_finishing_play",
    ],
    (
        "【牌型】单张、对(大小王不成对)、三同张、四同张【牌的大小】大王、小王、"
        "3、2、A、K、Q、J、10、9、8、7、6、5、4(大小王不成对)【积"
        "分规则】一、在不亮的情况下:1)庄家要完牌后,如果要自己手中没有的牌,那"
        "就是2对2那如果是ABAB的出完牌顺序,那B伙每人输正常的基础分。"
    ): [
        "test_f7_the_four_kinds_jokers_never_pair",
        "test_f8_rank_order",
        "test_f15_payout_table",
    ],
    "那如果是AABB的出完牌顺序,那B伙每人输2倍的基础分。": ["test_f15_payout_table"],
    "那如果是ABBA的出完牌顺序,那此局算和。": ["test_f15_payout_table"],
    (
        "2)庄要要完牌后,如果要的牌是自己手中有的牌,那就是庄家1对3那如果是A"
        "BBB的出完牌顺序,那B伙每人输给A正常的基础分那如果是BABB或BBA"
        "B的出完牌顺序,那此局算和。"
    ): ["test_f15_payout_table"],
    "那如果是BBBA的出完牌顺序,那A输给每人正常的基础分。": ["test_f15_payout_table"],
    (
        "二、在亮的情况下:1)庄家要完牌后,如果要自己手中没有的牌,那就是2对2"
        "那如果是ABAB的出完牌顺序,那B伙每人输2倍的基础分。"
    ): ["test_f15_payout_table"],
    "那如果是AABB的出完牌顺序,那B伙每人输4倍的基础分。": ["test_f15_payout_table"],
    (
        "2)庄要要完牌后,如果要的牌是自己手中有的牌,那就是庄家1对3那如果是A"
        "BBB的出完牌顺序,那B伙每人输给A2倍的基础分那只要是B伙当中的一个玩"
        "家先出完牌,那此局就直接结束,那A输给每人2倍的基础分"
    ): [
        "test_f15_payout_table",
        "test_f13_shown_one_against_three_ends_at_once",
    ],
}

# the four hands of a small position: banker 0 calls As, held by seat 2
HANDS = ["4s 9s Kd", "5h 6h 7h", "As 8c 8d", "5c Tc Jc"]


def test_f1_one_deck_two_hands_of_14() -> None:
    """ "一副牌游戏,共54张,4位玩家,两个人是13张,两个人是14张": the dealer and its 下家 get 14."""
    state = fangyang().new_state(seed=1)
    assert Counter(c for h in state.hands for c in h) == Counter(deck("54"))
    assert [len(h) for h in state.hands] == [14, 14, 13, 13]  # the first deal: from seat 0
    later = fangyang().new_state(seed=1, context={"banker": 2})
    assert [len(h) for h in later.hands] == [13, 13, 14, 14]  # from the banker
    with pytest.raises(NotationError):
        fangyang().read_cards("7h 7h")  # no card exists twice


def test_f2_the_heart_4_holder_is_the_first_banker() -> None:
    """ "第一局由手中有红桃4的为庄家先出牌": the ♥4 holder is banker and leads; the first lead
    need not contain the ♥4."""
    for seed in range(6):
        state = fangyang().new_state(seed=seed)
        assert isinstance(state, FangyangState)
        assert Card.parse("4h") in state.hands[state.banker]
        assert state.phase == "calling" and state.to_act() == {state.banker}
    state = fy_position(["4h 9s", "5h", "As 8c", "5c"], banker=0)
    run(state, [(0, "9s")])
    assert state.table_seat == 0


def test_f3_later_bankers() -> None:
    """F3 (reading): the previous 头游 is banker; options ``heart4`` and ``rotate``."""
    done = fy_position(["4s", "5h 6h", "As 8c", "5c Tc"], banker=0)
    run(done, [(0, "4s")])
    assert done.finished == [0] and done.next_context() == {"banker": 0}
    rot = fy_position(["4s", "5h 6h", "As 8c", "5c Tc"], banker=0, next_banker="rotate")
    run(rot, [(0, "4s")])
    assert rot.next_context() == {"banker": 1}
    h4 = fy_position(["4s", "5h 6h", "As 8c", "5c Tc"], banker=0, next_banker="heart4")
    run(h4, [(0, "4s")])
    assert h4.next_context() == {}


def test_f4_the_call_a_or_lower() -> None:
    """ "由庄家选择一张A以下的牌": one card of rank A down to 4, own cards too; never 3, 2
    or a joker."""
    state = fy_position(HANDS, banker=0, call=None)
    calls = state.legal_actions(0)
    assert calls is not None and len(calls) == 44 * 2  # 11 ranks x 4 suits, 亮 or not
    for bad in ("3s", "2h"):
        card = P(bad)[0]
        with pytest.raises(IllegalAction) as err:
            state.apply(0, Call.of(card))
        assert err.value.reason == "not_callable"
    with pytest.raises(ProtocolError):
        Call("RJ", "s")  # not a rank and suit at all
    with pytest.raises(ProtocolError):
        fangyang().parse_action({"type": "call", "rank": "K", "suit": "x"})
    assert state.phase == "calling"
    state.apply(0, Call.of(P("Kd")[0]))  # its own card: allowed (1 对 3)
    assert state.mode == "1v3"
    k_max = fy_position(HANDS, banker=0, call=None, call_max="K")
    with pytest.raises(IllegalAction):
        k_max.apply(0, Call.of(P("As")[0]))


def test_f5_two_against_two_or_one_against_three() -> None:
    """ "如果要自己手里没有的牌,那就是2对2,如果要自己手里的牌,那就是1对3"."""
    two = fy_position(HANDS, banker=0, call="As")
    assert two.mode == "2v2" and two.partner == 2
    assert [two.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    one = fy_position(HANDS, banker=0, call="Kd")
    assert one.mode == "1v3" and one.partner == 0
    assert [one.team_of(s) for s in range(4)] == [0, 1, 1, 1]


def test_f6_shown_or_not() -> None:
    """ "可以选择亮出来,也可以不亮": under 亮 the sides are known at once; under 不亮 when the
    called card is played."""
    shown = fy_position(HANDS, banker=0, call="As", shown=True)
    assert shown.teams_known and shown.view(1)["partner"] == 2
    assert shown.view(3)["teams"] == [0, 1, 0, 1]
    assert shown.hidden_from(1)[P("As")[0]] == 0  # the holder showed it
    hidden = fy_position(HANDS, banker=0, call="As", shown=False)
    assert not hidden.teams_known
    assert hidden.view(1)["partner"] is None and hidden.view(0)["partner"] is None
    assert hidden.view(2)["partner"] == 2  # the holder knows
    run(hidden, [(0, "4s"), (1, "5h"), (2, "As")])
    assert hidden.teams_known and hidden.view(1)["partner"] == 2


def test_f7_the_four_kinds_jokers_never_pair() -> None:
    """ "【牌型】单张、对(大小王不成对)、三同张、四同张"."""
    rules = fangyang().rules
    for cards, kind in (
        ("7h", "单张"),
        ("7h 7s", "对"),
        ("9c 9h 9d", "三同张"),
        ("9c 9h 9d 9s", "四同张"),
    ):
        combo = rules.classify(P(cards))
        assert combo is not None and rules.kind_zh[combo.kind] == kind
    assert rules.classify(P("RJ BJ")) is None
    assert rules.classify(P("RJ")) is not None and rules.classify(P("BJ")) is not None
    assert rules.classify(P("7h 8h 9h")) is None


def test_f8_rank_order() -> None:
    """ "大王、小王、3、2、A、K、Q、J、10、9、8、7、6、5、4": 3 and 2 above A, 4 the lowest."""
    rules = fangyang().rules
    levels = [rules.level(c) for c in P("RJ BJ 3s 2s As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s")]
    assert levels == sorted(levels, reverse=True) and len(set(levels)) == 15
    three, two = rules.classify(P("3d")), rules.classify(P("2d"))
    assert three is not None and two is not None and rules.beats(three, two)


def test_f9_beating_and_passing() -> None:
    """ "后一家打出的牌必须比以前一家打出的牌大,如没有可以弃权;如果其它游戏者都弃权,则最后出牌的一方
    可以出新的牌型"."""
    state = fy_position(["4s 9s Kd", "5h 6h 7h", "As 8c 8d", "5c Tc Jc"], banker=0)
    run(state, [(0, "9s")])
    with pytest.raises(IllegalAction):
        state.apply(1, play("6h"))
    run(state, [(1, "pass"), (2, "pass"), (3, "Tc"), (0, "Kd"), (1, "pass"), (2, "pass")])
    assert state.turn == 3
    run(state, [(3, "pass")])
    assert state.table is None and state.turn == 0  # the last player leads anew


def test_f10_the_banker_leads() -> None:
    """ "由庄家先出": after the call the banker leads."""
    state = fy_position(HANDS, banker=1)
    assert state.phase == "playing" and state.turn == 1 and state.table is None
    with pytest.raises(IllegalAction) as err:
        state.apply(1, PASS)
    assert err.value.reason == "must_lead"


def test_f11_jiefeng_to_the_next_seat_while_sides_are_unknown() -> None:
    """ "还没分出来谁和谁一伙的时候 … 其他三位玩家都管不上,那么就由先出完牌的玩家的下家继续出牌"."""
    state = fy_position(["4s 9s", "Ks", "As 8c", "5c 6c"], banker=0, call="As")
    run(state, [(0, "4s"), (1, "Ks"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert state.finished == [1] and not state.teams_known
    assert state.turn == 2  # the 下家 of seat 1, whoever its partner is
    assert jiefeng(1, [0, 2, 3], banker=0, partner=2, teams_known=False) == 2
    assert jiefeng(3, [0, 1, 2], banker=2, partner=1, teams_known=False) == 0  # the banker too


def test_f12_jiefeng_to_the_partner_once_sides_are_known() -> None:
    """ "大家都已经互相知道谁和谁是一伙的时候 … 由先出完牌的玩家的对家继续出牌": the partner."""
    state = fy_position(["4s 9s", "Ks", "As 8c", "5c 6c"], banker=0, call="As", shown=True)
    run(state, [(0, "4s"), (1, "Ks"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert state.turn == 3  # seat 1's partner (the other non-banker in 2 对 2)
    assert jiefeng(1, [0, 2, 3], banker=0, partner=2, teams_known=True) == 3
    # 1 对 3: the first of the finisher's two partners after him still holding cards
    assert jiefeng(1, [0, 2, 3], banker=0, partner=0, teams_known=True) == 2
    assert jiefeng(1, [0, 3], banker=0, partner=0, teams_known=True) == 3
    with pytest.raises(IllegalAction):
        jiefeng(0, [1, 3], banker=0, partner=2, teams_known=True)  # side out: over


def test_f12_the_called_card_in_the_finishing_play() -> None:
    """The called card may be the finishing play itself: by the hand-over it is known."""
    state = fy_position(["4s 9s", "5h 6h", "As", "5c 6c"], banker=0, call="As")
    run(state, [(0, "4s"), (1, "5h"), (2, "As"), (3, "pass"), (0, "pass"), (1, "pass")])
    assert state.finished == [2] and state.teams_known
    assert state.turn == 0  # seat 2's partner, the banker, not the 下家 seat 3


def test_f13_the_deal_ends_when_a_side_is_out() -> None:
    """ "直到一方的玩家的牌全部出光": 2 对 2 both partners; 1 对 3 the banker or all three."""
    state = fy_position(["4s", "5h 6h", "As", "5c 6c"], banker=0, call="As")
    run(state, [(0, "4s"), (1, "pass"), (2, "As")])
    assert state.is_over and state.finished == [0, 2]
    assert list(state.settlement()) == [2, -2, 2, -2]  # AABB
    solo = fy_position(["4s Kd", "5h 6h", "As 7s", "5c 6c"], banker=0, call="Kd")
    run(solo, [(0, "4s"), (1, "5h"), (2, "7s"), (3, "pass"), (0, "Kd")])
    assert solo.is_over and solo.finished == [0]
    assert list(solo.settlement()) == [3, -1, -1, -1]  # ABBB, 不亮


def test_f13_shown_one_against_three_ends_at_once() -> None:
    """ "只要是B伙当中的一个玩家先出完牌,那此局就直接结束,那A输给每人2倍的基础分"."""
    state = fy_position(["4s Kd", "Ah", "9s 7s", "5c 6c"], banker=0, call="Kd", shown=True)
    run(state, [(0, "4s"), (1, "Ah")])
    assert state.is_over and state.finished == [1]
    assert list(state.settlement()) == [-6, 2, 2, 2]


@pytest.mark.parametrize(
    ("order", "banker", "partner", "shown", "deltas", "pattern"),
    [
        ([2, 1, 0], 0, 2, False, [1, -1, 1, -1], "ABAB"),
        ([2, 0], 0, 2, False, [2, -2, 2, -2], "AABB"),
        ([2, 1, 3], 0, 2, False, [0, 0, 0, 0], "ABBA"),
        ([1, 0, 3], 0, 2, False, [-1, 1, -1, 1], "ABAB"),  # the other side first: A = it
        ([1, 3], 0, 2, False, [-2, 2, -2, 2], "AABB"),
        ([0], 0, 0, False, [3, -1, -1, -1], "ABBB"),
        ([1, 0], 0, 0, False, [0, 0, 0, 0], "BABB"),
        ([1, 2, 0], 0, 0, False, [0, 0, 0, 0], "BBAB"),
        ([1, 2, 3], 0, 0, False, [-3, 1, 1, 1], "BBBA"),
        ([2, 1, 0], 0, 2, True, [2, -2, 2, -2], "ABAB"),
        ([2, 0], 0, 2, True, [4, -4, 4, -4], "AABB"),
        ([2, 1, 3], 0, 2, True, [0, 0, 0, 0], "ABBA"),
        ([0], 0, 0, True, [6, -2, -2, -2], "ABBB"),
        ([3], 1, 1, True, [2, -6, 2, 2], "B"),
    ],
)
def test_f15_payout_table(
    order: list[int], banker: int, partner: int, shown: bool, deltas: list[int], pattern: str
) -> None:
    """Every line of "【积分规则】": 不亮 2 对 2 ABAB 1, AABB 2, ABBA 和; 不亮 1 对 3 ABBB 1 each,
    BABB/BBAB 和, BBBA the banker pays 1 each; 亮 doubles, and in 亮 1 对 3 a B first ends it."""
    out = settle(order, banker, partner, shown)
    assert out["deltas"] == deltas and out["pattern"] == pattern
    assert sum(out["deltas"]) == 0
    assert out["result"] == ("draw" if not any(deltas) else "win")
    assert settle(order, banker, partner, shown, base=3)["deltas"] == [3 * d for d in deltas]


@pytest.mark.parametrize(
    ("sides", "unshown", "shown"),
    [
        ("XXYY", 2, 4),
        ("XYXY", 1, 2),
        ("XYYX", 0, 0),
        ("YYXX", -2, -4),
        ("YXYX", -1, -2),
        ("YXXY", 0, 0),
    ],
)
def test_f14_the_letters_from_the_bankers_side(sides: str, unshown: int, shown: int) -> None:
    """F14: A is the side of the first player out; seen from the banker's side X the 2 对 2
    table is XXYY +2/+4, XYXY +1/+2, XYYX 0, YYXX -2/-4, YXYX -1/-2, YXXY 0."""
    x, y = [0, 2], [1, 3]  # banker 0 with partner 2
    order = [x.pop(0) if letter == "X" else y.pop(0) for letter in sides]
    for is_shown, expected in ((False, unshown), (True, shown)):
        out = settle(order, banker=0, partner=2, shown=is_shown)
        assert out["deltas"][0] == out["deltas"][2] == expected
        assert out["deltas"][1] == out["deltas"][3] == -expected


def test_f15_the_worked_examples() -> None:
    """F15's examples: 2, 0 under 不亮 with ♠K at seat 2 is AABB; 亮 1 对 3 with seat 3 out
    first costs the banker 6; 不亮 1 对 3, order 3, 1 is BABB, a draw."""
    assert settle([2, 0], banker=0, partner=2, shown=False)["deltas"] == [2, -2, 2, -2]
    assert settle([3], banker=1, partner=1, shown=True)["deltas"] == [2, -6, 2, 2]
    assert settle([3, 1], banker=1, partner=1, shown=False)["deltas"] == [0, 0, 0, 0]


def test_f15_entries_after_the_end_are_ignored_and_unfinished_is_refused() -> None:
    """F15/§6: a finishing order may run on past the end; one that stops early is refused."""
    assert settle([2, 0, 1, 3], 0, 2, False)["pattern"] == "AABB"
    with pytest.raises(IllegalAction):
        settle([2], 0, 2, False)
    with pytest.raises(IllegalAction):
        settle([2, 2], 0, 2, False)


def test_f16_who_sees_what() -> None:
    """F16: the called card, 亮 and hand sizes are public; under 不亮 only the holder knows."""
    state = fy_position(HANDS, banker=0, call="As")
    for seat in (None, 0, 1, 3):
        view = state.view(seat)
        assert view["called"] == {"rank": "A", "suit": "s"} and view["shown"] is False
        assert view["partner"] is None and view["mode"] is None
        assert view["hand_sizes"] == [3, 3, 3, 3]
    assert state.view(1)["teams"] == [0, 1, None, None]
    assert state.view(2)["mode"] == "2v2" and state.view(2)["teams"] == [0, 1, 0, 1]
    solo = fy_position(HANDS, banker=0, call="Kd")
    assert solo.view(0)["mode"] == "1v3" and solo.view(1)["mode"] is None


@pytest.mark.parametrize(
    ("order", "banker", "partner", "shown", "winner", "units", "multiplier", "each"),
    [
        ([2, 0], 0, 2, True, 0, 2, 2, 4),  # 亮 AABB: "B伙每人输4倍的基础分"
        ([2, 0], 0, 2, False, 0, 2, 1, 2),  # 不亮 AABB: "B伙每人输2倍的基础分"
        ([1, 0, 3], 0, 2, False, 1, 1, 1, 1),  # the others out first: A is their side
        ([2, 1, 3], 0, 2, True, None, 0, 2, 0),  # ABBA: "此局算和"
        ([0], 0, 0, True, 0, 1, 2, 2),  # 亮 1 对 3 ABBB: "B伙每人输给A2倍的基础分"
        ([1, 2, 3], 0, 0, False, 1, 1, 1, 1),  # BBBA: "A输给每人正常的基础分"
        ([3], 1, 1, True, 1, 1, 2, 2),  # 亮 1 对 3, a B first: "A输给每人2倍的基础分"
    ],
)
def test_f15_the_result_says_who_won_and_how_it_was_counted(
    order: list[int],
    banker: int,
    partner: int,
    shown: bool,
    winner: int | None,
    units: int,
    multiplier: int,
    each: int,
) -> None:
    """F15 "B伙每人输…倍的基础分": the side that won (0 the banker's) and each payment as the
    pattern's units × 亮's 2 × the base, the same amount every losing player pays."""
    out = settle(order, banker, partner, shown, base=1)
    assert out["winner"] == winner
    assert out["breakdown"] == {"units": units, "multiplier": multiplier, "base": 1, "each": each}
    others = [abs(d) for s, d in enumerate(out["deltas"]) if s != banker]
    assert others == [each] * 3  # every other player pays or gets ``each``
    assert abs(out["deltas"][banker]) == (3 * each if banker == partner else each)
    three = settle(order, banker, partner, shown, base=3)["breakdown"]
    assert three["each"] == 3 * each and three["base"] == 3


def test_f16_the_end_shows_every_side() -> None:
    """F16 "不亮 … only the holder knows, until the card is played": a 不亮 deal that ends
    with the called card still in hand shows the sides to every seat once it is over (the
    hands are turned up), so each seat's result is tagged 庄方 or 闲方."""
    from paiju.engine import replay as replay_states
    from paiju.games import game
    from paiju.harness import playout

    fy = game("anshan-fangyang")
    hidden_to_the_end = 0
    for seed in range(40):
        record = playout(fy, None, seed, deep=False, max_hands=1).hands[0].record
        states = list(replay_states(record, fy))
        last = states[-1]
        assert isinstance(last, FangyangState)
        for viewer in (None, 0, 1, 2, 3):
            teams = last.view(viewer)["teams"]
            assert None not in teams and teams[last.banker] == 0
            assert teams[last.partner] == 0 and teams.count(0) == (1 if last.mode == "1v3" else 2)
        hidden_to_the_end += not last.revealed
    assert hidden_to_the_end  # the case the test is about did occur
