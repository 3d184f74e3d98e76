"""鞍山麻将 as a state machine (R1-R13 of the reading): the deal, the 混, claims, kongs, 流局.

Flip 西 (3z) unless said: 混 = 北 (4z), 明枪 = 南 (2z). Seat 0 deals.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from mj_helpers import stacked

from paiju.engine import PrivateEvent
from paiju.errors import IllegalAction, NotYourTurn
from paiju.games import game
from paiju.games.majiang.game import (
    Chi,
    ClaimMade,
    Discard,
    Gang,
    Kong,
    MajiangState,
    Pass,
    Peng,
    Win,
)
from paiju.games.majiang.rules import MajiangRules, hun_kinds, pred
from paiju.tiles import WALL, Tile, parse_tiles


def T(text: str) -> Tile:
    return Tile.parse(text)


def pass_all(state: MajiangState) -> None:
    """Every seat still undecided in the open window passes (the window then closes)."""
    while state.phase in ("claim", "rob"):
        seat = min(state.to_act())
        state.apply(seat, Pass())


# A: 吃 for the 下家 only, 碰 for anyone, 碰 over 吃
HANDS_A = [
    "3m9m1p5p9p1s5s9s1z2z3z5z6z7z",  # dealer: discards 3m
    "45m2p6p8p2s6s8s1z3z5z6z7z",  # 下家: 345m
    "33m7m3p7p3s7s1z5z6z7z8m8p",  # 碰 3m
    "12m6m4p6p4s6s8s9s1z2z9p9m",  # 12m but not the 下家
]


def test_the_deal_dealer_fourteen_others_thirteen() -> None:
    """「只有庄家可得到十四张牌,其余的人十三张牌。庄家从牌中选出一张最无用的牌丢出。」"""
    g = game("anshan-majiang")
    for seed in range(5):
        state = g.new_state(4, seed=seed)
        assert isinstance(state, MajiangState)
        dealer = state.dealer
        assert [len(h) for h in state.hands] == [14 if s == dealer else 13 for s in range(4)]
        assert state.to_act() == {dealer} and state.phase == "play"
        assert Win() not in (state.legal_actions(dealer) or []) or state._can_win_with(dealer, None)
        # R1: 136 tiles, four of each, no flowers; R5: the flip is out of play, 82 to draw
        assert state.deal.items() == Counter(WALL) and len(WALL) == 136
        assert len(state.wall) == 136 - 14 - 3 * 13 - 1


def test_first_dealer_is_random_then_from_the_context() -> None:
    """R3: the first dealer is drawn at random; later hands read it from the context."""
    g = game("anshan-majiang")
    dealers = {g.new_state(4, seed=s).dealer for s in range(20)}  # type: ignore[attr-defined]
    assert dealers == {0, 1, 2, 3}
    assert g.new_state(4, seed=1, context={"dealer": 2}).dealer == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("flip", "hun"),
    [
        ("8m", "9m"),
        ("9m", "1m"),
        ("9p", "1p"),
        ("4z", "1z"),
        ("1z", "2z"),
        ("7z", "6z"),
        ("5z", "7z"),
    ],
)
def test_the_hun_is_the_next_kind(flip: str, hun: str) -> None:
    """「如果揭的是8万，那么9万是混」: 9 → 1 inside a suit, 东南西北 and 中发白 cycle (R9)."""
    assert hun_kinds(T(flip), MajiangRules()) == {T(hun)}


def test_the_view_names_the_flip_and_the_hun() -> None:
    state = stacked(HANDS_A, flip="8m")
    assert state.view(0)["flip"] == "8m" and state.view(0)["hun"] == [int(T("9m"))]


def test_only_the_next_kind_is_hun_unless_the_option_says() -> None:
    """R9: the flipped kind is ordinary (4 混 in play); option ``hun = "flip+next"`` (本溪)."""
    assert hun_kinds(T("8m"), MajiangRules(hun="flip+next")) == {T("8m"), T("9m")}


def test_ming_qiang_is_the_kind_before_the_flip() -> None:
    """「明枪房间：翻混的时候上滚那张就是枪,在胡牌之前就可以看到。(如果揭的是8万，那么9万是混，7万就是枪)」"""
    assert pred(T("8m")) == T("7m") and pred(T("1m")) == T("9m") and pred(T("5z")) == T("6z")
    state = stacked(HANDS_A, flip="8p")
    assert state.view(2)["qiang"] == [int(T("7p"))]


def test_chi_only_for_the_next_seat_and_peng_for_anyone() -> None:
    """R7: the 下家 may 吃 (from the 上家 only); anyone may 碰; a seat with no claim is asked
    too, with 过 alone (the window hides who could claim); the discarder is not asked."""
    state = stacked(HANDS_A)
    state.apply(0, Discard(T("3m")))
    assert state.phase == "claim"
    assert state.to_act() == {1, 2, 3}
    assert Chi(parse_tiles("345m")) in (state.legal_actions(1) or [])
    assert state.legal_actions(2) == [Peng(), Pass()]
    assert state.legal_actions(3) == [Pass()]  # seat 3 holds 12m but is not the 下家
    with pytest.raises(NotYourTurn):
        state.apply(0, Pass())


def test_peng_beats_chi() -> None:
    """R7: priority 胡 > 杠 = 碰 > 吃."""
    state = stacked(HANDS_A)
    state.apply(0, Discard(T("3m")))
    state.apply(1, Chi(parse_tiles("345m")))
    assert state.phase == "claim"  # seat 2 could still outrank the 吃
    state.apply(2, Peng())
    assert state.phase == "claim"  # seat 3 has not decided: a window waits for everyone
    state.apply(3, Pass())
    assert state.phase == "play" and state.to_act() == {2}
    assert state.melds[2][0].kind == "peng" and state.melds[1] == []
    assert state.river[0] == [(T("3m"), True)]
    # after a 碰 the seat discards: no win, no kong
    with pytest.raises(IllegalAction):
        state.apply(2, Win())
    assert all(isinstance(a, Discard) for a in state.legal_actions(2) or [])


def test_chi_taken_when_nobody_pengs() -> None:
    state = stacked(HANDS_A)
    state.apply(0, Discard(T("3m")))
    state.apply(2, Pass())
    assert state.phase == "claim"
    state.apply(1, Chi(parse_tiles("345m")))
    state.apply(3, Pass())
    assert state.melds[1][0].tiles == parse_tiles("345m") and state.to_act() == {1}
    assert state.is_open(1) and not state.is_open(2)


def test_claim_decisions_are_hidden_until_the_window_closes() -> None:
    """Views and events: a seat's decision is its own until the window closes."""
    state = stacked(HANDS_A)
    state.apply(0, Discard(T("3m")))
    before = [state.view(s) for s in (0, 2, 3, None)]
    events = state.apply(1, Chi(parse_tiles("345m")))
    assert state.phase == "claim"  # seat 2 may still 碰
    after = [state.view(s) for s in (0, 2, 3, None)]
    assert before == after  # not even that seat 1 has decided shows in a view
    assert [v["to_act"] for v in after] == [False, True, True, []]
    private = [e for e in events if isinstance(e, ClaimMade)]
    assert private and all(isinstance(e, PrivateEvent) and e.audience() == {1} for e in private)
    assert state.view(1)["decided"] == "chi 345m"


def test_views_show_own_tiles_discards_melds_flip_and_wall_only() -> None:
    state = stacked(HANDS_A)
    v = state.view(1)
    assert v["hand"] == "45m268p268s13567z"
    assert all("hand" not in p for p in v["players"])
    assert v["flip"] == "3z" and v["wall"] == 82
    assert state.view(None).get("hand") is None


# B: 胡 on a discard, 截胡, 一炮多响, 暗枪
HANDS_B = [
    "5z6z6z7z9m5p7p2s4s6s8s1z2z3z",  # dealer discards 5z
    "234m111m456p789s5z",  # waits on 5z
    "6m8m1p3p6p8p1s3s7s9s7z2p3z",  # nothing
    "123m999p234p567s5z",  # waits on 5z too
]


def test_first_winner_after_the_discarder_takes_it() -> None:
    """R7 截胡: when several can win, the first in turn order after the discarder wins."""
    state = stacked(HANDS_B)
    state.apply(0, Discard(T("5z")))
    assert state.to_act() == {1, 2, 3}
    assert state.legal_actions(2) == [Pass()]
    state.apply(3, Win())
    assert state.phase == "claim"  # seat 1 comes first and has not decided
    state.apply(1, Win())
    state.apply(2, Pass())
    assert state.phase == "over"
    assert [w.seat for w in state.wins] == [1]
    assert state.wins[0].how == "dianpao" and state.wins[0].source == 0
    assert sum(state.settlement()) == 0
    # 穷胡 站立 = 2; dealer 0 discarded and is 闭门: 2 + 庄 + 点炮 + 闭门 = 5 → 32;
    # seats 2, 3: 2 + 闭门 → 8 each
    assert state.settlement() == (-32, 48, -8, -8)


def test_passing_lets_the_next_winner_take_it() -> None:
    state = stacked(HANDS_B)
    state.apply(0, Discard(T("5z")))
    state.apply(1, Pass())
    state.apply(3, Win())
    pass_all(state)
    assert [w.seat for w in state.wins] == [3]


def test_multiple_winners_option() -> None:
    """Option ``multiple_winners`` (一炮多响): each winner settles as if alone."""
    state = stacked(HANDS_B, multiple_winners=True)
    state.apply(0, Discard(T("5z")))
    state.apply(1, Win())
    assert state.phase == "claim"
    state.apply(3, Win())
    pass_all(state)
    assert sorted(w.seat for w in state.wins) == [1, 3]
    assert sum(state.settlement()) == 0


def test_an_qiang_turns_up_the_next_tile_after_the_win() -> None:
    """「暗枪房间：胡牌后的下一张牌是枪」: the next wall tile X, and X's next kind, are 枪."""
    state = stacked(HANDS_B, draws="7s", qiang="an")
    assert state.view(1)["qiang"] == []
    state.apply(0, Discard(T("5z")))
    state.apply(1, Win())
    pass_all(state)
    assert state.reveal == T("7s")
    assert state.view(1)["qiang"] == [int(T("7s")), int(T("8s"))]
    assert state.wins[0].fans.count("枪") == 2  # 789s holds 7s and 8s


def test_dealer_rotation_winner_deals_next() -> None:
    """R3 reading: the winner deals next; option ``dealer_rotation = "next"``."""
    state = stacked(HANDS_B)
    state.apply(0, Discard(T("5z")))
    state.apply(1, Win())
    pass_all(state)
    assert state.next_context()["dealer"] == 1  # a pass of the deal
    assert state.next_context()["passes"] == 1
    state = stacked(HANDS_B, dealer_rotation="next")
    state.apply(0, Discard(T("5z")))
    state.apply(1, Pass())
    state.apply(3, Win())
    pass_all(state)  # seat 3 wins: the deal passes to the dealer's 下家, seat 1
    assert state.next_context()["dealer"] == 1 and state.next_context()["passes"] == 1


def test_passing_a_win_blocks_discard_wins_until_own_draw() -> None:
    """R8 过胡不胡: seat 1 passes 5z and may not win on a discard before its own next draw."""
    state = stacked(HANDS_B, draws="9p")
    state.apply(0, Discard(T("5z")))
    state.apply(1, Pass())
    assert 1 in state.passed_win
    pass_all(state)
    assert state.turn == 1 and state.drawn == T("9p")  # seat 1 drew: the block is lifted
    assert 1 not in state.passed_win


def test_a_discarded_hun_cannot_be_claimed() -> None:
    """R12: no 吃, 碰, 杠 or 胡 on a discarded 混 (北 4z): every seat may only pass."""
    hands = [
        "4z6z6z7z9m5p7p2s4s6s8s1z2z3z",
        "234m111m456p789s4z",
        "44z6m8m1p3p6p8p1s3s7s9s7z",
        "123m999p234p567s5z",
    ]
    state = stacked(hands)
    state.apply(0, Discard(T("4z")))
    assert all(state.legal_actions(s) == [Pass()] for s in (1, 2, 3))
    pass_all(state)
    assert state.phase == "play" and state.to_act() == {1}


# C: 暗杠, replacement from the tail, 杠上开花
def test_concealed_kong_replacement_and_gangshangkaihua() -> None:
    """R6 and 「杠上开花:一番」: 暗杠 1111m, replacement 5z from the tail, 自摸."""
    hands = [
        "1111m234m456p789s5z",
        "6m8m1p3p6p8p1s3s7s9s7z2p3z",
        "5m7m2p4p7p9p2s4s6s8s6z1z3z",
        "9m6m3p5p8p3s5s9s7z6z1z2z7z",
    ]
    state = stacked(hands, tail="5z")
    assert Kong(T("1m")) in (state.legal_actions(0) or [])
    events = state.apply(0, Kong(T("1m")))
    assert state.drawn == T("5z") and state.after_kong
    assert any(e.type == "concealed_kong" for e in events)
    assert state.view(1)["players"][0]["melds"][0]["tiles"] is None  # others see it face down
    state.apply(0, Win())
    win = state.wins[0]
    assert win.how == "zimo" and "杠上开花" in win.fans and "暗杠" in win.fans
    # 穷胡 站立 暗杠 杠上开花 = 4, + 庄 + 点炮 + 闭门 = 7 → 128 from each
    assert state.settlement() == (384, -128, -128, -128)


# D: 补杠 and robbing it
def test_robbing_an_added_kong() -> None:
    """R8: a player may win on the tile added to a 碰 (抢杠); the kong player is the discarder."""
    hands = [
        "5p1m9m1s9s1z2z3z5z6z7z7z6z5z",  # dealer discards 5p
        "55p3m6m9p2s5s8s1z2z3z7m8m",  # 碰 5p
        "2m2m2s3s3s7p8p8p4s6s6s7s8s",  # junk for seat 2
        "123m999p46p567s55z",  # waits on 5p (passes it first)
    ]
    state = stacked(hands, draws="1p1p1p5p")
    state.apply(0, Discard(T("5p")))
    assert state.to_act() == {1, 2, 3}
    state.apply(3, Pass())
    state.apply(2, Pass())
    state.apply(1, Peng())
    state.apply(1, Discard(T("3m")))
    pass_all(state)
    for _ in range(3):  # seats 2, 3, 0 draw 1p and discard it
        seat = state.turn
        state.apply(seat, Discard(T("1p")))
        pass_all(state)
    assert state.turn == 1 and state.drawn == T("5p")
    state.apply(1, Kong(T("5p")))
    assert state.phase == "rob" and state.to_act() == {0, 2, 3}
    assert state.legal_actions(2) == [Pass()] and state.legal_actions(3) == [Win(), Pass()]
    state.apply(3, Win())
    pass_all(state)
    win = state.wins[0]
    assert win.how == "qianggang" and win.source == 1 and win.seat == 3
    assert sum(state.settlement()) == 0
    assert state.melds[1][0].kind == "peng"  # the kong does not count


# E: 流局
def test_exhausted_wall_is_a_drawn_hand() -> None:
    """R13 流局: a draw is needed and the wall is empty: nobody pays, the dealer deals again."""
    state = game("anshan-majiang").new_state(4, seed=7)
    assert isinstance(state, MajiangState)
    while not state.is_over:
        if state.phase in ("claim", "rob"):
            pass_all(state)
            continue
        seat = state.turn
        tile = state.drawn if state.drawn is not None else state.hands[seat][-1]
        state.apply(seat, Discard(tile))
    if not state.wins:
        assert state.wall == [] and state.settlement() == (0, 0, 0, 0)
        nxt = state.next_context()
        assert nxt["dealer"] == state.dealer and nxt["passes"] == 0  # 连庄
    assert sum(state.settlement()) == 0


def test_gang_from_a_discard() -> None:
    """明杠: three in hand take the discard; a replacement is drawn from the tail."""
    hands = [
        "3m9m1p5p9p1s5s9s1z2z3z5z6z7z",
        "45m2p6p8p2s6s8s1z3z5z6z7z",
        "333m7p3p7s3s1z5z6z7z8m8p",
        "12m6m4p6p4s6s8s9s1z2z9p9m",
    ]
    state = stacked(hands, tail="8s")
    state.apply(0, Discard(T("3m")))
    assert Gang() in (state.legal_actions(2) or [])
    state.apply(1, Pass())
    state.apply(2, Gang())
    pass_all(state)
    assert state.melds[2][0].kind == "minggang" and state.drawn == T("8s")
    assert state.to_act() == {2}


def test_bad_actions_are_refused_with_a_reason() -> None:
    state = stacked(HANDS_A)
    with pytest.raises(IllegalAction) as err:
        state.apply(0, Discard(T("4m")))
    assert err.value.reason == "tile_not_held"
    with pytest.raises(IllegalAction) as err:
        state.apply(0, Win())
    assert err.value.reason == "not_a_win"
    with pytest.raises(IllegalAction) as err:
        state.apply(0, Peng())
    assert err.value.reason == "no_claim_window"
    # a claim or 过 of another seat while seat 0 is to play (its window closed before it
    # came) is told as no window, not as seat 0's turn; a discard out of turn is not a turn
    for action in (Pass(), Peng(), Chi(chow=(T("1m"), T("2m"), T("3m"))), Gang()):
        with pytest.raises(IllegalAction) as err:
            state.apply(1, action)
        assert err.value.reason == "no_claim_window", action
    with pytest.raises(NotYourTurn) as late:
        state.apply(1, Discard(T("4m")))
    assert late.value.reason == "not_your_turn"


def test_room_options_are_checked() -> None:
    with pytest.raises(IllegalAction, match="qiang"):
        game("anshan-majiang", qiang="both")
    with pytest.raises(IllegalAction, match="unknown room option"):
        game("anshan-majiang", flowers=True)


def test_four_hun_are_not_a_kong() -> None:
    """R12: a 混 is never part of a 吃/碰/杠: four 北 (混) in hand offer no 暗杠."""
    hands = [
        "4444z9m5p7p2s6s8s1z2z5s6p",
        "234m111m456p789s5z",
        "6m8m1p3p6p8p1s3s7s9s7z2p3z",
        "123m999p234p567s5z",
    ]
    state = stacked(hands)
    assert not any(isinstance(a, Kong) for a in state.legal_actions(0) or [])


def test_r5_draws_from_the_front_replacements_from_the_tail() -> None:
    """R5 reading: draws from the front of the wall, kong replacements from the tail."""
    state = stacked(HANDS_A, draws="8p", tail="1s")
    assert state.wall[0] == T("8p") and state.wall[-1] == T("1s")
    state.apply(0, Discard(T("9m")))
    pass_all(state)
    assert state.turn == 1 and state.drawn == T("8p")


def test_a_quan_ends_when_the_deal_has_gone_round_to_every_seat() -> None:
    """R3 "胡牌的人下一局坐庄，流局庄家连庄" (our reading), and the match counted in 圈 as
    players count them: a 圈 ends when the deal passes on once every seat has dealt in it,
    so every seat deals in every 圈 (with the winner dealing next, the deal need not reach
    every seat in four passes); a 连庄 hand (the dealer wins, or 流局) passes nothing."""
    from paiju.engine import Match
    from paiju.harness import playout

    for quan, rotation in ((1, "winner"), (1, "next"), (2, "winner")):
        g = game("anshan-majiang", quan=quan, dealer_rotation=rotation)
        for seed in range(4):
            match = Match(g, 4, (f"q{quan}{rotation}-{seed}/{h}" for h in range(400)))
            dealt: set[int] = set()
            ended = passes = 0
            while not match.is_over:
                state = match.next_hand()
                assert isinstance(state, MajiangState)
                dealt.add(state.dealer)
                rng = random.Random(seed)
                while not state.is_over:
                    seat = min(state.to_act())
                    state.apply(seat, state.random_action(seat, rng))
                nxt = state.next_context()
                if nxt["dealer"] != state.dealer:
                    passes += 1
                    if len(dealt) == 4 or passes == 16:
                        assert len(dealt) == 4, "a seat never dealt in 16 passes of the deal"
                        ended, dealt, passes = ended + 1, set(), 0
                assert nxt["quan"] == ended
                assert match.is_over == (ended == quan)
            if rotation == "next":
                assert len(match.hands) >= 4
    assert len(playout(game("anshan-majiang"), seed="own", deep=False).hands) >= 4


def test_a_quan_counts_the_seats_that_dealt() -> None:
    """With the winner dealing next: 0 → 1 → 0 → 2 → 3 → 1: the 圈 ends on the pass from
    seat 3, the last seat to deal in it; the next 圈 starts with seat 1."""
    from paiju.games.majiang.game import after_hand

    context: dict[str, object] = {}
    for dealer, following in ((0, 1), (1, 1), (1, 0), (0, 2), (2, 3)):
        context = after_hand(context, dealer, following, 4)
        assert context["quan"] == 0
    context = after_hand(context, 3, 1, 4)
    assert context["quan"] == 1 and context["dealt"] == [1] and context["passes"] == 5


def test_a_quan_ends_after_sixteen_passes_when_a_seat_never_wins() -> None:
    """A seat that wins no hand never deals when the winner deals next: the 圈 still ends,
    after four passes per seat."""
    from paiju.games.majiang.game import after_hand

    context: dict[str, object] = {}
    dealer = 0
    for n in range(1, 17):
        following = 2 if dealer == 0 else 0  # seats 1 and 3 never win
        context = after_hand(context, dealer, following, 4)
        dealer = following
        assert context["quan"] == (1 if n == 16 else 0)


def test_an_older_match_without_the_count_of_quan_ends_on_four_passes() -> None:
    g = game("anshan-majiang")
    assert not g.match_over({"dealer": 1, "passes": 3}, 5)
    assert g.match_over({"dealer": 1, "passes": 4}, 6)
