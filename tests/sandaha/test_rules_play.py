"""三打哈 rule text 003: 出牌, 毙牌, 盖毙, 垫牌 and 甩牌, on real hands (trump ♠ unless said)."""

from __future__ import annotations

import pytest
from sandaha_helpers import P, play, playing_state

from paiju.errors import IllegalAction
from paiju.games.sandaha.game import Play, ThrowFailed
from paiju.games.sandaha.rules import build_follow, order

NO_HEARTS = {1: "h", 2: "h"}


def test_the_declarer_leads_the_first_trick() -> None:
    """出牌：1、由庄家开始第一轮出牌。"""
    state = playing_state(["", "", "", ""], "s", declarer=2)
    assert state.to_act() == {2}
    with pytest.raises(IllegalAction, match="waiting for seat 2"):
        state.apply(0, Play(P("5c")))


def test_the_winner_of_a_trick_leads_the_next() -> None:
    """2、以后每轮牌都由上一轮牌最大的玩家首先出牌。"""
    state = playing_state(["5h", "Kh 6h", "Ah 8h", ""], "s", keep_out={1: "h", 2: "h"})
    play(state, 0, "5h")
    play(state, 1, "6h")
    play(state, 2, "Ah")
    hearts = [c for c in state.hands[3] if order(state.trump_index).suit[c] == 1]
    state.apply(3, Play((min(hearts, key=order(state.trump_index).strength),)))
    assert state.last_winner == 2
    assert state.to_act() == {2}


def test_follow_with_the_same_number_of_cards_and_suit() -> None:
    """3、每轮各玩家必须出牌且与第一个出牌玩家所出牌张数、花色相同，在没有第一个出牌玩家所出牌的花色时，
    可以用主牌毙或垫其他花色的牌。"""
    state = playing_state(["Ah", "Kh 6h", "", ""], "s", keep_out={1: "h", 2: "h"})
    play(state, 0, "Ah")
    with pytest.raises(IllegalAction, match="must play 1 card"):
        state.check(1, Play(P("Kh 6h")))
    with pytest.raises(IllegalAction, match="must follow ♥"):
        state.check(1, Play((next(c for c in state.hands[1] if c.suit == 2 and c.rank != 7),)))
    state.check(1, Play(P("6h")))
    play(state, 1, "Kh")
    no_hearts = state.hands[2]
    assert not any(c.suit == 1 and c.rank not in (2, 7) for c in no_hearts)
    trump = next(c for c in no_hearts if order(state.trump_index).suit[c] == 4)
    side = next(c for c in no_hearts if order(state.trump_index).suit[c] in (2, 3))
    state.check(2, Play((trump,)))  # 毙
    state.check(2, Play((side,)))  # 垫


def test_the_leader_may_lead_any_combination() -> None:
    """4、第一个出牌玩家可以任意牌型。"""
    state = playing_state(["Ah Ah Kh Kh 9c 5d", "", "", ""], "s")
    for lead in ("9c", "Ah Ah", "Ah Ah Kh Kh", "5d"):
        state.check(0, Play(P(lead)))
    with pytest.raises(IllegalAction, match="one suit"):
        state.check(0, Play(P("9c 5d")))


def test_a_pair_lead_obliges_a_pair_even_from_a_tractor() -> None:
    """5、首家出对牌时，其余家有对牌必须出对牌（包括拖拉机中的对牌）"""
    state = playing_state(["Ah Ah", "Qh Qh Jh Jh 6h", "Kh Kh 9h", ""], "s", keep_out=NO_HEARTS)
    play(state, 0, "Ah Ah")
    with pytest.raises(IllegalAction, match="must follow ♥ with a pair: you hold Qh Qh Jh Jh"):
        state.check(1, Play(P("Qh 6h")))
    state.check(1, Play(P("Jh Jh")))
    play(state, 1, "Qh Qh")
    with pytest.raises(IllegalAction, match="with a pair: you hold Kh Kh"):
        state.check(2, Play(P("Kh 9h")))


def test_a_tractor_lead_obliges_a_tractor_then_pairs() -> None:
    """首家出拖拉机时，其余家有拖拉机必须出拖拉机，若无拖拉机，则必须出对牌，无对牌时才能出其它牌。"""
    hands = ["Ah Ah Kh Kh", "Qh Qh Jh Jh 9h 9h", "Th Th 8h 8h 6h", ""]
    state = playing_state(hands, "s", keep_out=NO_HEARTS)
    play(state, 0, "Ah Ah Kh Kh")
    with pytest.raises(IllegalAction, match="with a tractor"):
        state.check(1, Play(P("Qh Qh 9h 9h")))
    play(state, 1, "Qh Qh Jh Jh")
    with pytest.raises(IllegalAction, match="with 2 pairs: you hold Th Th 8h 8h"):
        state.check(2, Play(P("Th Th 8h 6h")))
    state.check(2, Play(P("Th Th 8h 8h")))


def test_single_cards_only_without_pairs() -> None:
    """无对牌时才能出其它牌。"""
    state = playing_state(["Ah Ah", "Qh Jh 9h", "", ""], "s", keep_out=NO_HEARTS)
    play(state, 0, "Ah Ah")
    state.check(1, Play(P("Qh 9h")))


def test_a_lead_with_pairs_obliges_same_suit_pairs() -> None:
    """6、如果第一个出牌玩家所出牌中包含对，则其它方如果有同花色的对，必须出对。"""
    # A trump throw (a pair and a single) obliges the followers' trump pairs too.
    state = playing_state(["RJ RJ BJ", "5s 5s 6s 8s", "", ""], "s", keep_out={1: "s*"})
    events = play(state, 0, "RJ RJ BJ")
    assert not any(isinstance(e, ThrowFailed) for e in events)
    with pytest.raises(IllegalAction, match="with a pair: you hold 5s 5s"):
        state.check(1, Play(P("5s 6s 8s")))
    state.check(1, Play(P("5s 5s 8s")))


def test_follow_the_led_suit_first() -> None:
    """8、如果不是第一个出牌玩家，则在出牌时必须先出第一个出牌玩家所出的花色。如：第一个出牌玩家出了红桃，
    其他玩家有红桃必须先出红桃。"""
    state = playing_state(["Ah Ah", "Qh", "", ""], "s", keep_out=NO_HEARTS)
    play(state, 0, "Ah Ah")
    with pytest.raises(IllegalAction, match=r"play all your ♥ \(Qh\)"):
        state.check(1, Play(tuple(c for c in state.hands[1] if c.suit == 2)[:2]))
    other = next(c for c in state.hands[1] if c.suit == 2)
    state.check(1, Play((P("Qh")[0], other)))


def test_ruff_needs_the_lead_structure_in_trumps() -> None:
    """7、如果第一个出牌玩家所出牌中包含了拖拉机或对时，其它玩家试图用主牌毙时必须也要出相应数量的拖拉机和对；
    毙牌：首家出某花色副牌时，其余家无此门花色时，也可出主牌，称为“毙”。
    若首家出的牌中有拖拉机或对牌，
    毙牌时所出的牌必须全是主牌，且其拖拉机的数目不得少于首家出的牌中的拖拉机的数目，对牌的数目也不得少于
    首家出的牌中的对牌的数目，否则被视为垫牌。"""
    hands = ["Ah Ah Kh Kh", "5s 5s 6s 6s", "As As 9s 9s", ""]
    state = playing_state(hands, "s", keep_out={1: "h", 2: "h"})
    play(state, 0, "Ah Ah Kh Kh")
    play(state, 1, "5s 5s 6s 6s")  # a tractor of trumps: 毙
    play(state, 2, "As As 9s 9s")  # higher trumps but no tractor: 垫
    follow = build_follow(state.hands[3], state.lead, state.trump_index, lambda c: c)
    state.apply(3, Play(tuple(follow)))
    assert state.last_winner == 1


def test_over_ruff_must_be_higher() -> None:
    """出现多家毙牌时，毙牌的大小以毙牌中的拖拉机和对牌大小或单牌大小为准，大的称为 “盖毙”。"""
    keep = {1: "h", 2: "h", 3: "h"}
    state = playing_state(["Ah Ah", "5s 5s", "Ks Ks", "7c 7c"], "s", keep_out=keep)
    play(state, 0, "Ah Ah")
    play(state, 1, "5s 5s")
    play(state, 2, "Ks Ks")
    play(state, 3, "7c 7c")
    assert state.last_winner == 3, "the 副7 pair 盖毙 the K pair, which 盖毙 the 5 pair"
    state = playing_state(["Ah Ah", "5s 5s", "7d 7d", "7c 7c"], "s", keep_out=keep)
    play(state, 0, "Ah Ah")
    play(state, 1, "5s 5s")
    play(state, 2, "7d 7d")
    play(state, 3, "7c 7c")
    assert state.last_winner == 2, "an equal ruff does not over-ruff: the first stays"


def test_a_discard_is_lowest() -> None:
    """垫牌：首家出某花色牌时，其他玩家无此门花色时，可出副牌，称为“垫牌”，比出牌大小时为最小。
    （如首家出方片5，跟出副牌梅花A，则首家大）。"""
    state = playing_state(["5d", "Ac", "Ac", "Kc"], "s", keep_out={1: "d", 2: "d", 3: "d"})
    play(state, 0, "5d")
    play(state, 1, "Ac")
    play(state, 2, "Ac")
    play(state, 3, "Kc")
    assert state.last_winner == 0
    assert state.to_act() == {0}


def test_side_suits_cannot_be_thrown() -> None:
    """7、甩牌： 首家可以出同花色中的托拉机、对和单牌任意组合，但必须保证最大性；副牌不能甩牌，
    如AAK、AKKQQ、AKQ等。"""
    state = playing_state(["Ah Ah Kh Qh Qh Ac Kc Qc", "", "", ""], "s")
    for throw in ("Ah Ah Kh", "Ah Kh Qh Qh", "Ac Kc Qc"):
        with pytest.raises(IllegalAction, match="only trumps may be thrown"):
            state.check(0, Play(P(throw)))


THROW_HAND = "RJ RJ 7s 2s 2s"
THROW_KITTY = "BJ 7s 7h 7h 7d 7d"


def test_a_throw_that_holds_wins_the_trick() -> None:
    """甩牌：同门花色的大牌可以联出，称作 “甩牌” …
    如果首家甩牌成功，则不存在毙牌的情况（因为首家最大）。"""
    state = playing_state(["RJ RJ BJ", "", "", ""], "s")
    events = play(state, 0, "RJ RJ BJ")
    assert not any(isinstance(e, ThrowFailed) for e in events)
    assert [str(c) for c in state.lead] == ["RJ RJ", "BJ"]
    for seat in (1, 2, 3):
        follow = build_follow(state.hands[seat], state.lead, state.trump_index, lambda c: -c)
        state.apply(seat, Play(tuple(follow)))
    assert state.last_winner == 0


def test_a_failed_throw_plays_the_beaten_single() -> None:
    """若首家试图联出的牌并非都是大牌时，则其必须出欲联出的牌中的最小牌（并提示甩牌失败）。
    如：首家试图联出 98844 时，若其余某家有此花色的 J ，则首家必须出 9"""
    hands = [THROW_HAND, "BJ", "7c", "7c"]
    state = playing_state(hands, "s", kitty=THROW_KITTY, keep_out={1: "*", 2: "*", 3: "*"})
    events = play(state, 0, THROW_HAND)
    failed = [e for e in events if isinstance(e, ThrowFailed)]
    assert len(failed) == 1 and failed[0].audience() is None, "shown to all"
    assert str(failed[0].forced[0]) == "7s" and failed[0].blocked_by == 1
    assert [str(c) for c in state.lead] == ["7s"]
    assert state.trick == [(0, P("7s"))]
    for seat in (None, 1, 2, 3):
        assert state.view(seat)["throw_failed"]["forced"] == "7s"
    assert sorted(state.hidden_from(1).elements()).count(P("RJ")[0]) == 0, (
        "the cards shown by a failed throw are no longer hidden"
    )


def test_a_failed_throw_plays_the_smallest_beaten_part() -> None:
    """若其余某家有此花色的 QQ 或 55 ，则首家必须出 44 。"""
    hands = [THROW_HAND, "BJ", "7c 7c", ""]
    state = playing_state(hands, "s", kitty=THROW_KITTY, keep_out={1: "*", 2: "*", 3: "*"})
    events = play(state, 0, THROW_HAND)
    failed = next(e for e in events if isinstance(e, ThrowFailed))
    assert [str(c) for c in failed.forced] == ["2s", "2s"], "the pair 2s 2s is the smallest"
    assert failed.blocked_by == 2


HIGH_TRUMPS = "RJ RJ BJ BJ 7s 7s 7h 7h 7c 7c 7d 7d 2s 2s 2h 2h 2c 2c 2d 2d Ah Kh Kh"


def test_a_throw_of_a_tractor_and_a_single_that_nobody_beats() -> None:
    """甩牌：同门花色的大牌可以联出，称作 “甩牌” 如：牌中： AAK ， AKK ， AQQJJ ， 98844
    （若其他家中无人有能大过一张 9 ，和一对 8 ，和一对 4 的牌）。"""
    # Trump ♥: every trump above the thrown A and the QQJJ tractor is in the declarer's hand
    # or buried, so nobody can beat a part of A QQJJ.
    high = HIGH_TRUMPS.split()
    hand = "Ah Qh Qh Jh Jh " + " ".join(high[:16])
    state = playing_state([hand, "", "", ""], "h", kitty=" ".join(high[16:]))
    events = play(state, 0, "Ah Qh Qh Jh Jh")
    assert not any(isinstance(e, ThrowFailed) for e in events)
    assert [c.kind for c in state.lead] == ["tractor", "single"]
    for seat in (1, 2, 3):
        follow = build_follow(state.hands[seat], state.lead, state.trump_index, lambda c: c)
        state.apply(seat, Play(tuple(follow)))
    assert state.last_winner == 0
