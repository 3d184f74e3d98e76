"""三打哈 rule text 003: 【胜负判断规则】, 积分计算, 抠底倍数, 规则一 and 规则二 (双进单出)."""

from __future__ import annotations

import pytest
from sandaha_helpers import P, endgame, play, playing_state

from paiju.cards import deck
from paiju.games.sandaha.game import KittyRevealed, SandahaState, settle
from paiju.games.sandaha.rules import points_of
from paiju.games.sandaha.spec import SandahaParams

PARAMS = SandahaParams()


def test_point_cards() -> None:
    """Points 5 = 5, 10 = 10, K = 10 (200 in the 92 cards)."""
    assert points_of(P("5s Td Kh As 7c RJ")) == 25
    assert points_of(deck("92")) == 200


def test_defenders_reaching_the_bid_beat_the_declarer() -> None:
    """一局结束之后，计算闲家得（牌）分。如果闲家得分大于或等于庄分，庄家输，否则庄家赢。"""
    assert settle(60, 60, 10, "rule1", PARAMS).per_defender > 0
    assert settle(55, 60, 10, "rule1", PARAMS).per_defender < 0


def test_base_stake_defaults_to_10_and_tiers_are_2x_and_3x() -> None:
    """房间底注在服务器动态配置，默认为10积分。小光：底注的2倍；大光：底注的3倍。如果底注为10积分，
    则小光为20积分， 大光为30积分。"""
    state = playing_state(["", "", "", ""], "s")
    assert state.game.options == {"stake": 10, "rule": "rule1"}
    assert settle(45, 5, 10, "rule1", PARAMS).per_defender == 20
    assert settle(75, 5, 10, "rule1", PARAMS).per_defender == 30
    assert settle(75, 5, 7, "rule1", PARAMS).per_defender == 21


@pytest.mark.parametrize(
    ("points", "bid", "per_defender", "tier"),
    [
        (130, 60, 30, "defenders_big"),  # 闲家得分-庄分>=70
        (100, 60, 20, "defenders_small"),  # 闲家得分-庄分>=40
        (60, 60, 10, "defenders_win"),  # 闲家得分-庄分>=0
        (0, 60, -30, "declarer_big"),  # 闲家得分<庄分 且 闲家得分< 5
        (5, 60, -20, "declarer_small"),  # 5 <= 闲家得分< = 30
        (30, 60, -20, "declarer_small"),
        (35, 60, -10, "declarer_win"),  # 闲家得分> 30
    ],
)
def test_the_formula(points: int, bid: int, per_defender: int, tier: str) -> None:
    """3、积分计算公式：闲家得分-庄分>=70，（大光）每个闲家得底注3倍积分，庄家赔底注9倍积分。
    闲家得分-庄分>=40，（小光）每个闲家得底注2倍积分，庄家赔底注6倍积分。闲家得分-庄分>=0，
    每个闲家得底注1倍积分，庄家赔底注3倍积分。闲家得分<庄分 且 闲家得分< 5，（大光）
    每个闲家赔3倍底注积分，庄家得底注9倍积分。闲家得分<庄分 且 5 <= 闲家得分< = 30，（小光）
    每个闲家赔2倍底注积分，庄家得底注6倍积分。闲家得分<庄分 且 闲家得分> 30，
    每个闲家赔1倍底注积分，庄家得底注3倍积分。"""
    outcome = settle(points, bid, 10, "rule1", PARAMS)
    assert (outcome.per_defender, outcome.tier) == (per_defender, tier)
    scores = outcome.scores(declarer=2, seats=4)
    assert scores[2] == -3 * per_defender and sum(scores) == 0


def test_rule_one() -> None:
    """1、正常（规则一）（1）庄家下庄，扣3倍积分，闲家每人得1倍积分；闲家得分（牌分）超过庄分40分为小光，
    超过庄分70分为大光；（2）庄家不下庄，得3倍积分，闲家每人扣1倍积分；闲家得分（牌分）为30分算小光，
    得0分算大光。"""
    assert settle(50, 45, 10, "rule1", PARAMS).scores(0, 4) == (-30, 10, 10, 10)
    assert settle(85, 45, 10, "rule1", PARAMS).tier == "defenders_small"
    assert settle(115, 45, 10, "rule1", PARAMS).tier == "defenders_big"
    assert settle(40, 45, 10, "rule1", PARAMS).scores(0, 4) == (30, -10, -10, -10)
    assert settle(30, 45, 10, "rule1", PARAMS).tier == "declarer_small"
    assert settle(0, 45, 10, "rule1", PARAMS).tier == "declarer_big"


def test_rule_two_doubles_the_declarers_wins_only() -> None:
    """2、双进单出场（规则二）双进单出是鼓励抢庄的一种打法，庄家赢了可得双倍积分，输分不变(输分不是双倍)，即：
    （1）庄家下庄，扣3倍积分，闲家每人得1倍积分 …（2）庄家不下庄，得6倍积分，闲家每人扣2倍积分"""
    for points in (0, 5, 30, 35, 40):
        one = settle(points, 45, 10, "rule1", PARAMS).per_defender
        two = settle(points, 45, 10, "rule2", PARAMS).per_defender
        assert two == 2 * one < 0
    for points in (45, 85, 115):
        assert settle(points, 45, 10, "rule2", PARAMS) == settle(points, 45, 10, "rule1", PARAMS)
    assert settle(40, 45, 10, "rule2", PARAMS).scores(0, 4) == (60, -20, -20, -20)


KITTY = "Kd Kd Td 5d 6c 8c 9c 9c"


def _last_trick(lead: str, follows: list[str]) -> tuple[SandahaState, KittyRevealed]:
    """The declarer (seat 0) leads the last trick; the kitty holds 35 points."""
    hands = [lead, *follows]
    state = playing_state(hands, "s", kitty=KITTY, keep_out={1: "d", 2: "d", 3: "d"})
    endgame(state, hands, leader=0)
    events: list[object] = []
    events += play(state, 0, lead)
    for seat, cards in enumerate(follows, 1):
        events += play(state, seat, cards)
    assert state.phase == "over"
    revealed = next(e for e in events if isinstance(e, KittyRevealed))
    return state, revealed


@pytest.mark.parametrize(
    ("lead", "follow", "multiplier"),
    [
        ("6d", "5s", 1),  # 单牌 x1 (a ruff counts: 毙)
        ("6d 6d", "5s 5s", 2),  # 1、双扣扣底底分*2：双扣就是最后出的一对对子扣底
        ("6d 6d 8d 8d", "5s 5s 6s 6s", 4),  # 2、拖拉机扣底底分*4：两连对扣底
        ("6d 6d 8d 8d 9d 9d", "5s 5s 6s 6s 8s 8s", 6),  # 拖拉机扣底底分*6：三连对扣底
    ],
)
def test_kitty_multipliers(lead: str, follow: str, multiplier: int) -> None:
    """抠底倍数:1、双扣扣底底分*2：双扣就是最后出的一对对子扣底；2、拖拉机扣底底分*4：两连对扣底；
    拖拉机扣底底分*6：三连对扣底；依次类推。"""
    n = len(P(lead))
    clubs = ["Ac", "Ac", "Qc", "Qc", "Jc", "Jc"][:n]
    hearts = ["Ah", "Ah", "Qh", "Qh", "Jh", "Jh"][:n]
    state, revealed = _last_trick(lead, [follow, " ".join(clubs), " ".join(hearts)])
    assert state.last_winner == 1
    assert revealed.points == points_of(P(KITTY)) == 35
    assert revealed.multiplier == multiplier
    assert state.kitty_bonus == 35 * multiplier
    assert state.defenders_points == state.card_points + 35 * multiplier


def test_kitty_counts_only_for_defenders_winning_with_trumps() -> None:
    """副牌不能抠底。"""
    state, revealed = _last_trick("6d", ["Ad", "5d", "8d"])
    assert state.last_winner == 1
    assert revealed.multiplier == 0 and state.kitty_bonus == 0, "won with a side suit"
    state, revealed = _last_trick("5s", ["6s", "8s", "As"])
    assert state.last_winner == 3 and revealed.multiplier == 1, "a trump single x1"
    assert state.view(None)["kitty"] is not None, "the kitty is shown to all at the end"


def test_a_throw_on_the_last_trick_multiplies_by_its_cards() -> None:
    """3、甩牌扣底计算：扣底底分*甩牌张数（例：甩5张牌，则扣底底分*5）。"""
    hands = ["6d 8d 9d", "RJ RJ BJ", "Ac Qc Jc", "Ah Qh Jh"]
    state = playing_state(hands, "s", kitty=KITTY, keep_out={1: "d", 2: "d*", 3: "d*"})
    endgame(state, hands, leader=1)
    events: list[object] = []
    for seat in (1, 2, 3, 0):
        events += play(state, seat, hands[seat])
    assert state.phase == "over" and state.last_winner == 1
    revealed = next(e for e in events if isinstance(e, KittyRevealed))
    assert revealed.multiplier == 3 and state.kitty_bonus == 35 * 3


def test_a_finished_hand_settles_to_zero() -> None:
    state, _ = _last_trick("6d 6d", ["5s 5s", "Ac Ac", "Ah Ah"])
    scores = state.settlement()
    assert sum(scores) == 0 and len(scores) == 4
    assert scores == state.outcome().scores(0, 4)
