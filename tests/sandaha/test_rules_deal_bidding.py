"""三打哈 rule text 003: players, deck, deal, bidding (叫分) and the 7-常主 duty."""

from __future__ import annotations

from collections import Counter

import pytest
from sandaha_helpers import P, bidding_state, deal_of, playing_state, sandaha

from paiju.cards import deck
from paiju.errors import IllegalAction
from paiju.games.sandaha.game import Bid, Bury, NameTrump, Pass, SandahaState, is_changzhu
from paiju.games.sandaha.rules import TRUMP, order

SEVEN_CHANGZHU = "RJ BJ 2s 2h 7c 7d 2c"


def test_four_players_three_against_one() -> None:
    """游戏人数：4人，三打一，庄家为一人，其余三人为闲家。"""
    g = sandaha()
    assert (g.min_seats, g.max_seats) == (4, 4)
    state = playing_state(["", "", "", ""], "s", declarer=2)
    assert state.declarer == 2
    assert state.defenders() == [0, 1, 3]


def test_two_decks_without_3_and_4_with_a_kitty_of_8() -> None:
    """两幅扑克牌，去掉3、4，始终打7，王、2是常主，8张底牌。"""
    full = sandaha().full_set()
    assert len(full) == 92
    assert not any(c.rank in (3, 4) for c in full)
    assert Counter(full) == Counter(c for c in deck("54") if c.rank not in (3, 4) for _ in (0, 1))
    for trump in range(5):
        o = order(trump)
        for card in P("RJ BJ 7s 7h 7c 7d 2s 2h 2c 2d"):
            assert o.suit[card] == TRUMP, f"{card} is 常主 whatever the trump ({trump})"


def test_the_deal_is_21_each_and_8_in_the_kitty() -> None:
    """游戏开始时将两副牌（92张牌），4个玩家各发21牌，剩余8张为底牌。"""
    state = sandaha().new_state(4, seed="deal")
    assert [len(h) for h in state.hands] == [21] * 4
    assert len(state.kitty) == 8
    assert Counter(c for pile in state.locations().values() for c in pile) == Counter(deck("92"))


def test_bidding_starts_at_80_and_goes_down_by_at_least_5() -> None:
    """所有牌发完之后开始叫分（打到多少分下庄，亦称庄分），最高从80分起叫，按顺序叫分每次最少降5分"""
    state = bidding_state(["", "", "", ""], first_bidder=1)
    assert state.to_act() == {1}
    with pytest.raises(IllegalAction, match="bid 80 or lower"):
        state.check(1, Bid(85))
    state.apply(1, Bid(80))
    assert state.to_act() == {2}, "按顺序: the next seat bids"
    with pytest.raises(IllegalAction, match="bid 75 or lower"):
        state.check(2, Bid(80))
    with pytest.raises(IllegalAction):
        state.check(2, Bid(77))
    state.apply(2, Bid(60))
    assert state.bid == 60


def test_the_lowest_bidder_is_declarer_and_takes_the_kitty() -> None:
    """叫分最低者为庄家，庄家得到底牌。"""
    state = bidding_state(["", "", "", ""], first_bidder=0)
    kitty = list(state.kitty)
    state.apply(0, Bid(80))
    state.apply(1, Bid(65))
    state.apply(2, Pass())
    state.apply(3, Pass())
    assert state.phase == "bidding"
    state.apply(0, Pass())
    assert state.declarer == 1 and state.bid == 65
    assert len(state.hands[1]) == 29
    assert not (Counter(kitty) - Counter(state.hands[1]))
    assert state.phase == "burying"
    assert state.view(1)["kitty"] is not None, "the declarer sees the kitty"
    assert state.view(0)["kitty"] is None and state.view(None)["kitty"] is None


def test_a_pass_loses_the_right_to_bid_this_hand() -> None:
    """轮到自己叫分时可以不叫，若不叫将失去当局叫分权。"""
    state = bidding_state(["", "", "", ""], first_bidder=0)
    state.apply(0, Pass())
    state.apply(1, Bid(80))
    state.apply(2, Bid(75))
    state.apply(3, Bid(70))
    assert state.to_act() == {1}, "seat 0 passed and is skipped"
    state.apply(1, Pass())
    state.apply(2, Pass())
    assert state.declarer == 3 and state.bid == 70


def test_if_all_pass_the_first_bidder_is_declarer_at_80() -> None:
    """若所有玩家都不叫分，由第一个叫庄者做庄，庄分为80。"""
    state = bidding_state(["", "", "", ""], first_bidder=2)
    for seat in (2, 3, 0, 1):
        state.apply(seat, Pass())
    assert state.declarer == 2 and state.bid == 80
    assert state.phase == "burying"


def test_first_hand_random_bidder_then_declarer_or_the_next_seat() -> None:
    """第一盘随机一个玩家开始叫分，以后庄家没有下庄者，庄家开始叫分；庄家下庄了，由庄家的下家开始"""
    firsts = {sandaha().new_state(4, seed=f"first/{i}").first_bidder for i in range(40)}
    assert firsts == {0, 1, 2, 3}, "the first bidder of a first hand is random"
    state = playing_state(["", "", "", ""], "s", declarer=1)
    state.card_points, state.bid = 40, 45
    assert not state.lost_by_declarer()
    assert state.next_context() == {"first_bidder": 1}
    state.card_points = 45
    assert state.lost_by_declarer(), "下庄: the defenders reached the 庄分"
    assert state.next_context() == {"first_bidder": 2}
    nxt = sandaha().new_state(4, seed="next", context=state.next_context())
    assert nxt.first_bidder == 2 and nxt.deal.info["first_bidder"] == 2


def _changzhu_state(first_bidder: int, holder: int) -> SandahaState:
    hands = ["", "", "", ""]
    hands[holder] = SEVEN_CHANGZHU
    state = bidding_state(hands, first_bidder=first_bidder)
    assert sum(is_changzhu(c) for c in state.hands[holder]) >= 7
    for seat in range(4):
        if seat != holder:
            assert sum(is_changzhu(c) for c in state.hands[seat]) < 7
    return state


def test_seven_changzhu_oblige_a_bid_of_80_when_nobody_bid() -> None:
    """有7张常主（王、2和7）必须叫到70分或者以下（如果本人有7张常主，叫80分，没人应的话可以不用降分"""
    state = _changzhu_state(first_bidder=0, holder=0)
    with pytest.raises(IllegalAction, match="may not pass"):
        state.check(0, Pass())
    state.apply(0, Bid(80))
    for seat in (1, 2, 3):
        state.apply(seat, Pass())
    assert state.declarer == 0 and state.bid == 80, "没人应: 80 stands"


def test_seven_changzhu_after_someone_bids_80_must_bid_75() -> None:
    """若有人先叫80分，自己必须叫75或以下（不能不叫）"""
    state = _changzhu_state(first_bidder=3, holder=0)
    state.apply(3, Bid(80))
    with pytest.raises(IllegalAction, match="bid 75 or lower"):
        state.check(0, Pass())
    state.apply(0, Bid(75))


def test_seven_changzhu_answer_75_with_70_but_not_70() -> None:
    """如有人应到75，自己必须继续叫70或以下；如有人应70，自己可以不用再叫"""
    state = _changzhu_state(first_bidder=0, holder=0)
    state.apply(0, Bid(80))
    state.apply(1, Bid(75))
    state.apply(2, Pass())
    state.apply(3, Pass())
    with pytest.raises(IllegalAction, match="bid 70 or lower"):
        state.check(0, Pass())
    state.apply(0, Bid(70))
    state.apply(1, Bid(65))
    state.check(0, Pass())
    state = _changzhu_state(first_bidder=1, holder=0)
    state.apply(1, Bid(70))
    state.apply(2, Pass())
    state.apply(3, Pass())
    state.check(0, Pass())
    state.apply(0, Pass())
    assert state.declarer == 1 and state.bid == 70


def test_the_declarer_names_trump_after_the_kitty() -> None:
    """本局游戏的主牌由庄家抓底之后宣布，可以打四种花色或者无主(全常主)"""
    state = bidding_state(["", "", "", ""], first_bidder=0)
    state.apply(0, Bid(5))
    assert state.phase == "burying"
    with pytest.raises(IllegalAction, match="no trump to name now"):
        state.check(0, NameTrump("h"))
    state.apply(0, Bury(tuple(state.hands[0][:8])))
    legal = state.legal_actions(0)
    assert legal is not None
    assert [a.trump for a in legal if isinstance(a, NameTrump)] == ["s", "h", "c", "d", "none"]
    with pytest.raises(IllegalAction, match="none"):
        state.check(0, NameTrump("x"))
    state.apply(0, NameTrump("none"))
    o = order(state.trump_index)
    assert {o.suit[c] for c in P("As Kh Qc Jd")} == {0, 1, 2, 3}, "无主: every suit is 副牌"


def test_deal_respects_given_cards() -> None:
    d = deal_of(["RJ RJ", "", "", ""], kitty="BJ")
    assert d.hands[0][:2] == P("RJ RJ") and P("BJ")[0] in d.piles["kitty"]
