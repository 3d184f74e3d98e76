"""Showdown and settlement of every 十三张 code, on real hands (CATALOG.md §1, file 001)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.cards import Card, deck, format_cards, parse_cards
from paiju.catalog import catalog, find_variant
from paiju.errors import IllegalAction, NotationError
from paiju.games.shisanzhang.game import greedy_arrangement
from paiju.games.shisanzhang.rows import RowRules
from paiju.games.shisanzhang.showdown import (
    _display,
    _display_text,
    _settle_pairs,
    _settle_points,
    arranged,
    declared,
    settle,
    showdown,
    shown_texts,
)
from paiju.games.shisanzhang.spec import params_of
from paiju.games.shisanzhang.specials import Special

# Three fixed hands that never share a card (P0 < P1 on every row; P2 is strong).
P0 = "2c 3d 4h / 5s 5h 7c 8d 9s / Ks Kh Qc Qd 2s"  # 散牌 / 对子 / 两对
P1 = "Ac Ad 4c / 6s 6h 6c 8c 9c / 7s 7h 7d Th Td"  # 对子 / 三条 / 葫芦
P2 = "As Kd Qs / 2h 3h 4d 5d 6d / Jc Jd Js Jh 3s"  # 散牌 / 顺子 / 炸弹


def _cards(text: str) -> list[Card]:
    return list(parse_cards(text.replace("/", " ")))


def rest(*hands: str, code: str = "1301") -> str:
    """The 13 cards nobody else holds (for 4 seats), arranged strongest back first."""
    used = {c for h in hands for c in _cards(h)}
    left = [c for c in deck("52") if c not in used][:13]
    rows = greedy_arrangement(left, params_of(find_variant(code)).row_rules())
    return " / ".join(format_cards(r) for r in rows)


def test_fixture_hands_are_disjoint() -> None:
    cards = [c for h in (P0, P1, P2) for c in _cards(h)]
    assert len(cards) == len(set(cards)) == 39


def test_majority_two_rows_win_the_pair() -> None:
    """1301: "头和头比，中和中比，尾和尾比，赢两墩以上者为赢"."""
    r = showdown("1301", [P0, P1], scoring="majority")
    assert r["pairs"][0]["rows"] == [-1, -1, -1]
    assert r["scores"] == [-1, 1]
    # P2 v P1: front 散牌 A K Q < 对子 A; middle 顺子 > 三条; back 炸弹 > 葫芦 -> P2 wins 2 rows
    r = showdown("1301", [P1, P2], scoring="majority")
    assert r["pairs"][0]["rows"] == [1, -1, -1]
    assert r["scores"] == [-1, 1]


def test_majority_one_win_and_ties_is_nothing() -> None:
    """CATALOG.md: a pair where neither wins 2 rows (one win, two ties) scores 0."""
    a = "Ah Kh 3h / 4s 4h 5c 6d 8s / Ts Th Js Jh 9c"
    b = "Ac Kc 2c / 4d 4c 5d 6c 8h / Tc Td Jc Jd 9d"
    # front A K 3 beats A K 2; middle and back identical ranks
    r = showdown("1301", [a, b], scoring="majority")
    assert r["pairs"][0]["rows"] == [1, 0, 0]
    assert r["scores"] == [0, 0]


def test_points_rows_and_gun() -> None:
    """积分规则 3-6: 头墩 1注, 中墩 2注, 底墩 3注; 打枪 = 3墩赢6注 + 打枪6注 = 12注."""
    r = showdown("1301", [P0, P1], scoring="points")
    pair = r["pairs"][0]
    assert pair["gun"] == 1
    assert r["scores"] == [-12, 12]
    # P1 v P2: P1 wins the front (1), loses middle (2) and back (3) with P2's 四梅 +8
    r = showdown("1301", [P1, P2], scoring="points")
    assert r["scores"] == [1 - 2 - 3 - 8, -1 + 2 + 3 + 8]
    assert r["pairs"][0]["bonuses"] == [{"seat": 1, "row": "尾墩", "name": "四梅", "points": 8}]


def test_points_bonuses_chong_san_and_straight_flush() -> None:
    """冲三: 头墩出3条且赢 +6; 同花顺: 中墩/底墩同花顺赢 +10."""
    a = "9s 9h 9c / 2h 3h 4h 5h 6h / As Ks Qs Js Ts"  # 三条 / 同花顺 / 同花顺
    b = "2s 3s 4s / 7c 7d 8c 8d Kc / Ac Ad Ah Kd Kh"  # 散牌 / 两对 / 葫芦
    r = showdown("1301", [a, b], scoring="points")
    assert r["scores"] == [(1 + 6) + (2 + 10) + (3 + 10) + 6, -38]
    names = sorted(x["name"] for x in r["pairs"][0]["bonuses"])
    assert names == ["冲三", "同花顺", "同花顺"]


def test_homerun_four_players() -> None:
    """全垒打: 三墩与其他所有玩家相比三墩全赢, 共赢72注, 每家24注 (no bonuses here)."""
    strong = "Ks Kh 2d / Qs Qh Qc 3d 3c / As Ah Ac 4d 4c"  # 对子 / 葫芦 / 葫芦
    w1 = "2s 3s 5h / 6c 7c 8h 9d Jd / Ts Th 6s 7d 9s"
    w2 = "2h 3h 5c / 6d 7h 8c 9h Jh / Tc Td 6h 8d 9c"
    w3 = "Ad Qd 2c / 4s 4h 5s 5d 7s / Js Jc Kc Kd 8s"
    r = showdown("1301-points", [strong, w1, w2, w3])
    assert r["homeruns"] == [0]
    assert r["scores"][0] == 72
    assert r["scores"][1] + r["scores"][2] + r["scores"][3] == -72
    assert sum(r["scores"]) == 0


def test_foul_loses_every_row_and_counts_as_gun() -> None:
    """ "头必须小于二道，二道必须小于尾 … 凡摆乌龙者全赔"; a foul counts as 打枪 against it."""
    foul = "As Ah Kc / 2s 3s 5c 7c 9h / Ts Js 4d 6d 8s"  # 对子A front > 散牌 middle: 倒水
    r = showdown("1301", [foul, P1], scoring="points")
    assert r["fouls"] == [True, False]
    assert r["pairs"][0]["decided_by"] == "foul"
    assert r["scores"] == [-12, 12]
    r = showdown("1301", [foul, P1], scoring="majority")
    assert r["scores"] == [-1, 1]


def test_two_fouls_tie() -> None:
    a = "As Ah Kc / 2s 3s 5c 7d 9h / Ts Th 4c 6d 8s"
    b = "Ad Ac Kd / 2h 3h 5d 7c 9c / Td Tc 4d 6c 8h"
    assert showdown("1301", [a, b], scoring="points")["scores"] == [0, 0]


def test_dragon_takes_36_from_each() -> None:
    """积分规则 9: 一条龙: 不参与比牌，自己加108注，其他三家各扣36注."""
    dragon = "2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Ac"
    others = ["2c 3d 4h / 5s 5h 7c 8d 9s / Ks Kh Qs Qd 2h"]
    # build two more hands from the rest of the deck
    used = {c for h in (dragon, *others) for c in _cards(h)}
    left = [c for c in deck("52") if c not in used]
    rules = params_of(find_variant("1301-points")).row_rules()
    for i in range(2):
        rows = greedy_arrangement(left[13 * i : 13 * i + 13], rules)
        others.append(" / ".join(format_cards(r) for r in rows))
    r = showdown("1301-points", [dragon, *others])
    assert r["specials"][0] == "一条龙"
    assert r["scores"][0] == 108
    assert all(p["decided_by"] == "special" for p in r["pairs"] if 0 in p["seats"])


def test_special_without_special_is_an_error() -> None:
    with pytest.raises(IllegalAction, match="no special hand"):
        showdown("1303", ["2c 3d 4h 5s 5h 7c 8d 9s Ks Kh Qc Qd 2h", P1])


def test_1303_specials_ladder_and_values() -> None:
    """1303: 同花十三水 > 十三水 > 报到; points: 108 / 36 / 3; 十三水 vs 十三水 ties."""
    six_pairs = "2s 2h 5c 5d 7s 7h 9c 9d Js Jh Kc Kd Ac"
    dragon = "2c 3c 4c 5s 6s 7c 8s 9s Ts Jc Qs Ks As"
    r = showdown("1303", [six_pairs, dragon])
    assert r["specials"] == ["六对半", "一条龙"]
    assert r["scores"] == [-36, 36]  # the higher special takes its own value
    r = showdown("1303", [six_pairs, dragon], scoring="majority")
    assert r["scores"] == [-1, 1]
    r = showdown("1303", [six_pairs, "3c 4c 6s / 2c 3s 4s 5s 6c / 8d 9s Ts Jc Qs"])
    assert r["scores"] == [3, -3]


def test_1303_suit_tie_breaks() -> None:
    """1303 12) 对子: 如牌型全部相同以对子的花色大小轮输赢，黑桃>红心>梅花>方块 (front rows too)."""
    a = "3s 3h 2c / As Ac 5c 6d 8s / Ts Th Js Jh 9c"
    b = "3c 3d 2d / Ah Ad 5d 6c 8h / Tc Td Jc Jd 9d"
    r = showdown("1303", [a, b], scoring="majority")
    assert r["pairs"][0]["rows"] == [1, 1, 1]
    r = showdown("1301", [a, b], scoring="majority")
    assert r["pairs"][0]["rows"] == [0, 0, 0]


def test_1302_exempt_hands() -> None:
    """1302: 只要某一家有同花顺或者炸弹的，此家不用再摆牌，此家最大 … 同花顺要比炸弹大."""
    sf = "5h 6h 7h 8h 9h 2s 3c Jd Qs Kh Ac 4s 4d"
    quads = "Ts Th Tc Td 9s 2h 3d Jc Qc Kd Ad 4h 4c"
    plain = "2c 3h 5c / 5s 6s 7c 8d 9c / Ks Kc Qh Qd As"
    r = showdown("1302", [sf, quads, plain])
    assert r["specials"] == ["同花顺", "炸弹", None]
    assert r["scores"] == [2, 0, -2]
    # a 免摆 hand written as rows is still shown as its special: it does not arrange
    r = showdown("1302", ["Ts Th Tc / Td 9s 2h 3d Jc / Qc Kd Ad 4h 4c", plain])
    assert r["specials"] == ["炸弹", None]


def test_1304_ladder_compares_tiers() -> None:
    """1304: 不摆拍，直接比最大牌型; 三个头，3个A最大，3个2最小; tiers 1-3 tie inside."""
    trips_a = "As Ah Ac 2d 3d 4s 6c 8h 9h Jd Qc Kd 5d"
    trips_k = "Ks Kh Kc 2s 3s 4d 6d 8s 9s Js Qs Ad 7h"
    r = showdown("1304", [trips_a, trips_k])
    assert r["specials"] == ["三条", "三条"]
    assert r["scores"] == [1, -1]
    full_big = "6s 7h 8c 9d Ts Jh Qc Kd 6h 7c 8d 9s Th"  # 全大 (tier 2)
    six_pairs = "2s 2h 5c 5d 7s 7d 9c 9h Js Jc Kc Kh Ac"  # 六对半 (tier 2)
    assert showdown("1304", [full_big, six_pairs])["scores"] == [0, 0]


def test_payout_banker_table() -> None:
    """赔率: 三条摆头 3注; 四条摆尾 4注; a row pays its winner's multiplier, banker vs players."""
    banker = "9s 9h 9c / 2h 3h 4d 5d 6s / Ks Kh Kc Kd 2s"  # 三条 front, 顺子, 四条 back
    player = "2c 3s 4c / 6c 7c 8c Tc Jc / Ah Ad Ac 5h 5s"  # 散牌, 同花 middle, 葫芦 back
    r = showdown("1301-payout", [banker, player], banker=0)
    # banker wins front (3), loses middle (1), wins back (4)
    assert r["scores"] == [3 - 1 + 4, -6]
    r = showdown("1301-payout", [player, banker], banker=1)
    assert r["scores"] == [-6, 6]


def test_payout_both_special_banker_pays() -> None:
    """ "倘若庄家及闲家同时报到，由庄家赔闲家"."""
    six_pairs = "2s 2h 5c 5d 7s 7h 9c 9d Js Jh Kc Kd Ac"
    dragon = "2c 3c 4c 5s 6s 7c 8s 9s Ts Jc Qs Ks As"
    r = showdown("1301-payout", [dragon, six_pairs], banker=0)
    assert r["scores"] == [-3, 3]


def test_multiplier_ties_go_to_banker() -> None:
    """报到13张2: 同样的牌，庄家比闲家大."""
    a = "Ah Kh 2h / 3s 3h 5c 6d 8s / Ts Th Js Jh 9c"
    b = "Ac Kc 2c / 3d 3c 5d 6c 8h / Tc Td Jc Jd 9d"
    assert showdown("1303-2", [a, b], banker=0)["scores"] == [3, -3]
    assert showdown("1303-2", [a, b], banker=1)["scores"] == [-3, 3]


def test_multiplier_specials() -> None:
    """报到13张2: 13张 赔七倍; 报到 (6对加一 …) 赔四倍."""
    dragon = "2h 3c 4c 5d 6s 7s 8s 9h Ts Jc Qs Kd As"
    assert showdown("1303-2", [P0, dragon], banker=0)["scores"] == [-7, 7]


def test_back_row_only() -> None:
    """宝马会: 比大小时只比最后一墩."""
    r = showdown("1301-2", [P1, P2])
    assert r["pairs"][0]["rows"] == [None, None, -1]
    assert r["scores"] == [-1, 1]


def test_banker_favoured_compares_only_the_top_card() -> None:
    """ "部分玩法的规则订成对庄家稍为有利：只比点数最大的一只牌。倘若相同，一律由庄家胜"."""
    banker = "Ah 4h 2h / 3s 3d 5c 6d 8s / Ts Th Js Jh 9c"
    player = "Ac Kc 2c / 3h 3c 5d 6c 9h / Tc Td Jc Jd Qd"
    plain = showdown("1301-payout", [banker, player], banker=0)
    assert plain["pairs"][0]["rows"] == [-1, -1, -1]
    favoured = showdown("1301-payout", [banker, player], banker=0, favoured=True)
    assert favoured["pairs"][0]["rows"] == [1, 1, 1]


def test_errors_name_the_fault() -> None:
    with pytest.raises(NotationError, match="front holds 3"):
        showdown("1301", ["2c 3d 4h 5s / 5h 7c 8d 9s / Ks Kh Qc Qd", P1])
    with pytest.raises(IllegalAction, match="in hand 0 and in hand 1"):
        showdown("1301", [P0, P0])
    with pytest.raises(IllegalAction, match="not a banker game"):
        showdown("1301", [P0, P1], banker=0)
    with pytest.raises(IllegalAction, match="settled by"):
        showdown("1302", [P0, P1], scoring="points")


CODES = [v.code for v in catalog() if v.family == "shisanzhang"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(CODES), st.integers(2, 4), st.integers(0, 2**32))
def test_settlement_always_balances(code: str, seats: int, seed: int) -> None:
    """Settlement always sums to zero, for random (often fouled) arrangements."""
    rng = random.Random(seed)
    cards = list(deck("52"))
    rng.shuffle(cards)
    params = params_of(find_variant(code))
    hands = []
    for s in range(seats):
        hand = cards[13 * s : 13 * s + 13]
        hands.append(" / ".join(format_cards(r) for r in (hand[:3], hand[3:8], hand[8:])))
    for scoring in params.scorings_offered:
        banker = rng.randrange(seats) if params.banker else None
        r = showdown(code, hands, banker=banker, scoring=scoring)
        assert sum(r["scores"]) == 0
        assert len(r["scores"]) == seats


@pytest.mark.parametrize(
    "code",
    [
        c
        for c in CODES
        if "points" in params_of(find_variant(c)).scorings_offered
        and not params_of(find_variant(c)).banker
    ],
)
def test_points_settlement_written_out_is_the_pairs_settlement(code: str) -> None:
    """The common showdown (points, no banker, every hand arranged without 倒水) is settled
    by a loop of its own: the very result of settling pair by pair, bonuses (冲三, 四梅,
    同花顺), 打枪 and 全垒打 ("打枪: …全垒打") included."""
    params = params_of(find_variant(code))
    rules = params.row_rules()
    rng = random.Random(code)
    seen = {"bonus": 0, "gun": 0, "homerun": 0, "tie": 0}
    for _ in range(1500):
        seats = rng.choice([2, 3, 4, 4])
        cards = list(deck("52"))
        rng.shuffle(cards)
        hands = []
        for s in range(seats):
            hand = cards[13 * s : 13 * s + 13]
            quads = [c for c in hand if sum(c // 4 == x // 4 for x in hand) == 4]
            back = quads + [c for c in hand if c not in quads][:1]  # 四梅 at the back
            while True:  # a random arrangement without 倒水, as the random arranger's
                rng.shuffle(hand)
                if quads:
                    hand = [c for c in hand if c not in back] + back
                rows = (tuple(hand[:3]), tuple(hand[3:8]), tuple(hand[8:]))
                h = arranged(rows, rules)
                if not h.foul:
                    break
                if h.plain[0] <= min(h.plain[1:]):
                    h = arranged((rows[0], rows[2], rows[1]), rules)
                    break
            hands.append(h)
        stake = rng.choice([1, 1, 3])
        written = _settle_points(params, hands, stake)
        assert written == _settle_pairs(params, hands, "points", None, stake, False, None)
        assert settle(params, hands, "points", None, stake) == written
        pairs = written.pairs
        seen["bonus"] += any(p.bonuses for p in pairs)
        seen["gun"] += any(p.gun is not None for p in pairs)
        seen["homerun"] += bool(written.homeruns)
        seen["tie"] += any(0 in (p.rows or ()) for p in pairs)
    assert min(seen.values()) > 0, seen


def test_bets_multiply_each_players_settlement() -> None:
    """Banker games: each player's result against the banker is multiplied by its bet (下注)."""
    banker = "9s 9h 9c / 2h 3h 4d 5d 6s / Ks Kh Kc Kd 2s"
    player = "2c 3s 4c / 6c 7c 8c Tc Jc / Ah Ad Ac 5h 5s"
    one = showdown("1301-payout", [banker, player], banker=0)
    three = showdown("1301-payout", [banker, player], banker=0, bets=[1, 3])
    assert three["scores"] == [3 * x for x in one["scores"]]
    assert three["bets"] == [1, 3]
    with pytest.raises(IllegalAction, match="bets"):
        showdown("1301", [P0, P1], bets=[1, 2])


def test_display_text_is_the_display_order_formatted() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        row = [Card(c) for c in rng.sample(range(54), rng.choice([3, 5, 13]))]
        assert _display_text(row) == format_cards(_display(row))
    with pytest.raises(NotationError):
        _display_text([60, 1, 2])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.integers(-1, 3))
def test_shown_texts_together_as_each_alone(seed: int, seats: int, declares: int) -> None:
    """The showdown event writes every hand at once; each text is the hand's own
    ``shown_text`` (front / middle / back, or ``name: cards`` for a declared hand)."""
    rng = random.Random(seed)
    cards = [Card(c) for c in rng.sample(range(52), 13 * seats)]
    rules = RowRules()
    hands = []
    for s in range(seats):
        h = cards[13 * s : 13 * s + 13]
        if s == declares:
            hands.append(declared(h, Special("一条龙", 0, (0,))))
        else:
            hands.append(arranged((tuple(h[:3]), tuple(h[3:8]), tuple(h[8:])), rules))
    assert shown_texts(hands) == tuple(h.shown_text() for h in hands)
