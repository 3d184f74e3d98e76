"""Rule clauses of file 001 (the 十三张 page), one test per clause, the text quoted.

Hands are settled with :func:`settle` directly, so two hands may show the same card (the
rule under test is about shapes, not about one deck).
"""

from __future__ import annotations

from paiju.cards import parse_cards
from paiju.catalog import find_variant
from paiju.games import game
from paiju.games.shisanzhang.rows import CATEGORIES, row_category, row_value
from paiju.games.shisanzhang.showdown import Hand, arranged, declared, settle
from paiju.games.shisanzhang.spec import Scoring, params_of
from paiju.games.shisanzhang.specials import best_special


def H(text: str, code: str) -> Hand:
    """An arranged hand ``front / middle / back``, or 13 cards declared as a special."""
    params = params_of(find_variant(code))
    parts = text.split("/")
    if len(parts) == 1:
        cards = parse_cards(text)
        special = best_special(cards, params)
        assert special is not None, text
        return declared(cards, special)
    f, m, b = (parse_cards(p) for p in parts)
    return arranged((f, m, b), params.row_rules())


def scores(
    code: str,
    *hands: str,
    scoring: Scoring | None = None,
    banker: int | None = None,
    favoured: bool = False,
) -> list[int]:
    params = params_of(find_variant(code))
    hands_ = [H(h, code) for h in hands]
    return settle(params, hands_, scoring, banker, favoured=favoured).scores


def rv(text: str, code: str) -> int:
    return row_value(parse_cards(text), params_of(find_variant(code)).row_rules())


LOW = "2c 3d 4h / 5s 6h 7s 8d Tc / Kd Qc 9c 8c 3c"  # 散牌 / 散牌 / 散牌
MID = "Ac Ad 4c / 6s 6h 6c 8c 9c / 7s 7h 7d Th Td"  # 对子 / 三条 / 葫芦
FOUL = "As Ah Kh / 2s 3s 5c 7c 9h / Ts Js 4d 6d 8s"  # 对子 front > 散牌 middle
DRAGON = "2c 3c 4c 5s 6s 7c 8s 9s Ts Jc Qs Kc As"
SIX_PAIRS = "2s 2h 5c 5d 7s 7h 9c 9d Js Jh Ks Kh Ac"


# ------------------------------------------------------------------ 简介 / 玩法


def test_two_to_four_players() -> None:
    """简介: "该游戏适于 2、3 或 4 名玩家"."""
    from paiju.catalog import catalog

    assert all(v.players == (2, 4) for v in catalog() if v.family == "shisanzhang")
    assert game("1301").new_state(3, seed="3").seats == 3


def test_rows_must_rise_or_lose_every_row() -> None:
    """简介: "一、二、三道要求由小到大，否则称为‘倒道’犯规，各道都判为最小"."""
    r = settle(params_of(find_variant("1301")), [H(FOUL, "1301"), H(LOW, "1301")], "majority")
    assert r.pairs[0].rows == (-1, -1, -1)


def test_banker_or_all_compare() -> None:
    """玩法: "四人中一人为庄家，（也可以四人对比，）"."""
    assert params_of(find_variant("1301-payout")).banker
    r = settle(params_of(find_variant("1301-payout")), [H(LOW, "1301-payout")] * 4, banker=2)
    assert sorted(p.seats for p in r.pairs) == [(2, 0), (2, 1), (2, 3)]
    r = settle(params_of(find_variant("1301")), [H(LOW, "1301")] * 4)
    assert len(r.pairs) == 6


def test_bets_before_showing() -> None:
    """玩法: "开牌前，各闲家向庄家下注" (the room's stake multiplies every score)."""
    params = params_of(find_variant("1301-payout"))
    one = settle(params, [H(MID, "1301-payout"), H(LOW, "1301-payout")], banker=0).scores
    five = settle(params, [H(MID, "1301-payout"), H(LOW, "1301-payout")], banker=0, stake=5)
    assert five.scores == [5 * x for x in one]


def test_foul_pays_all() -> None:
    """玩法: "头必须小于二道，二道必须小于尾，否则称为“摆乌龙”。凡“摆乌龙”者全赔"."""
    assert scores("1301-payout", MID, FOUL, banker=0) == [3, -3]
    assert scores("1301-payout", FOUL, MID, banker=0) == [-3, 3]


def test_front_knows_no_straight_or_flush() -> None:
    """玩法: "头段因为只有三张牌，因此不算顺、花。只可能是不成花式（称无头），一对或三条"."""
    assert CATEGORIES[row_category(rv("Qh Kh Ah", "1301"))] == "散牌"
    assert CATEGORIES[row_category(rv("Qh Qs Ah", "1301"))] == "对子"
    assert CATEGORIES[row_category(rv("Qh Qs Qd", "1301"))] == "三条"


def test_row_against_row() -> None:
    """玩法: "头跟头比，二道跟二道比，尾跟尾比"."""
    r = settle(params_of(find_variant("1301")), [H(LOW, "1301"), H(MID, "1301")], "majority")
    assert r.pairs[0].rows == (-1, -1, -1)


def test_shape_then_points() -> None:
    """玩法: "比较时，先比牌型。牌型相同时，比点数"."""
    assert rv("2s 2h 3c 4d 5s", "1301") > rv("As Kh Qc Jd 9s", "1301")
    assert rv("3s 3h 2c 4d 5s", "1301") > rv("2s 2h Ac Kd Qs", "1301")


def test_points_card_by_card() -> None:
    """玩法: "部分玩法的规则，比点数时由最大点数的牌比起，相同时比第二大的牌，如此类推"."""
    assert rv("As Qh 9c 7d 3s", "1301") > rv("Ah Jc Td 8s 6s", "1301")
    assert rv("As Qh 9c 7d 3s", "1301") > rv("Ah Qc 9d 7s 2s", "1301")


def test_banker_favoured() -> None:
    """玩法: "部分玩法的规则订成对庄家稍为有利：只比点数最大的一只牌。倘若相同，一律由庄家胜"."""
    banker = "Ah 4h 2h / 3s 3d 5c 6d 8s / Ts Th Js Jh 9c"
    player = "Ac Kc 2c / 3h 3c 5d 6c 9h / Tc Td Jc Jd Qd"
    assert scores("1301-payout", banker, player, banker=0) == [-3, 3]
    assert scores("1301-payout", banker, player, banker=0, favoured=True) == [3, -3]


def test_baodao_takes_all() -> None:
    """玩法: "任何一方得遇上以下的组合通吃，称为“报到”"."""
    r = scores("1303", SIX_PAIRS, MID, LOW, MID, scoring="majority")
    assert r[0] == 3


# ------------------------------------------------------------ 规则一 … 规则五


def test_rule_1() -> None:
    """规则一: "52张牌，每家13张，头墩三张牌，接著中墩、底墩各为五张牌，头和头比，中和中比，
    尾和尾比，赢两墩以上者为赢。大小顺序：同花顺>；炸弹>；葫芦>；同花>；顺子>；三条>；两对>；
    一对>5单张"."""
    assert scores("1301", LOW, MID, scoring="majority") == [-1, 1]
    order = ["5h 6h 7h 8h 9h", "2s 2h 2c 2d 3s", "3s 3h 3c 4d 4s", "2d 5d 7d 9d Jd",
             "9s Th Jc Qd Ks", "4s 4h 4c 6d 8s", "5s 5h 6c 6d 8h", "7s 7h 9c Td Qs",
             "As Kh Qc Jd 9s"]  # fmt: skip
    values = [rv(r, "1301") for r in order]
    assert values == sorted(values, reverse=True)


def test_rule_2() -> None:
    """规则二: "只要某一家有同花顺或者炸弹的，此家不用再摆牌，此家最大。如果同时出现多家都有同花顺
    或炸弹的，不用摆牌，直接比哪家的同花顺或者炸弹大。同花顺要比炸弹大"."""
    sf = "5d 6d 7d 8d 9d 2c 3c Jh Qh Kh Kc 4c 4d"
    quads = "As Ah Ad Ac 9s 2h 3h Jc Qs Ks Th 4s 5c"
    assert scores("1302", sf, quads, MID) == [2, 0, -2]


def test_rule_3() -> None:
    """规则三: "同花十三水>；十三水>；报到>；同花顺>；…>5单张>；倒水"."""
    hearts = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    r = scores("1303", hearts, DRAGON, SIX_PAIRS, MID, FOUL, scoring="majority")
    assert r == [4, 2, 0, -2, -4]


def test_rule_4_is_1304() -> None:
    """规则四: "百变13张 … 1）全黑一张红；全红一张黑；一条龙A到K；5对子3个头；这些是一样大的，
    也是最大的 …" (the same game as 1304)."""
    assert find_variant("百变13张").code == "1304"


def test_rule_5_one() -> None:
    """规则五 一: "全黑一张红：（即是13张有12张是黑的1张是红的）；.全红一张黑（即是13张有12张是红的
    1张是黑的）；一条龙A到K；5对3个头。这些是一样大的；也是最大的。（只要四手牌里其中的一手出现了
    这种牌形就是最大的）"."""
    black = "2s 2c 3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8h"
    red = "2h 2d 3h 3d 4h 4d 5h 5d 6h 6d 7h 7d 8s"
    five_pairs = "9s 9h 9c Ts Th Js Jh Qs Qh Ks Kh As Ah"
    big = "6s 6h 6c 8d Ts Jh Qc Kd 7h 7c 8c 9s Th"
    assert scores("1304", black, red, five_pairs, big) == [1, 1, 1, -3]


def test_rule_5_two() -> None:
    """规则五 二: "全大6到K（即是13张牌是从6到K，不用管哪个牌是几张，只要是从6到K就可以了）；
    .全小2到10
    …；6对半；这几种都是 一样大。也是第2大"."""
    big = "6s 6h 6c 8d Ts Jh Qc Kd 7h 7c 8c 9s Th"
    small = "2s 3h 4c 5d 6s 7h 8c 9d Ts 2h 3c 4d 5s"
    half_big = "6s 7h 8c 9d Ts Jh Qc Kd As 6h 7c 8d 9h"
    assert scores("1304", big, small, SIX_PAIRS, half_big) == [1, 1, 1, -3]


def test_rule_5_three() -> None:
    """规则五 三: "半大6到A … 半小A到10 … 三顺子（只要是3个顺子就可以，
    ）.三花色（只要是3个不同的花色，
    不用管牌数字是不是连接的）.这几种一样大.第三大"."""
    half_big = "6s 7h 8c 9d Ts Jh Qc Kd As 6h 7c 8d 9h"
    three_straights = "As 2h 3c 4d 5s 6h 7c 8d 4s 5c 6d 7h 8s"
    three_flushes = "2s 5s 9s 3h 6h 8h Th Kh 4c 7c Jc Qc 2c"
    sf = "5h 6h 7h 8h 9h 2s 3c Jd Qs Kh Kc 4s 4d"
    assert scores("1304", half_big, three_straights, three_flushes, sf) == [1, 1, 1, -3]


def test_rule_5_three_flushes_of_three_suits() -> None:
    """规则五 三: "三花色（只要是3个不同的花色，不用管牌数字是不是连接的）" — in 绍兴 the three
    rows are of three different suits (1303 follows CATALOG.md: rows may share a suit)."""
    shared = "2s 5s 9s 3h 6h 8h Th Kh 4s 7s Js Qs Ks"  # 8 spades + 5 hearts
    distinct = "2s 5s 9s 3h 6h 8h Th Kh 4c 7c Jc Qc 2c"  # 3 + 5 + 5 in three suits
    assert best_special(parse_cards(distinct), params_of(find_variant("1304"))).name_zh == "三花色"  # type: ignore[union-attr]
    special = best_special(parse_cards(shared), params_of(find_variant("1304")))
    assert special is not None and special.name_zh != "三花色"
    assert best_special(parse_cards(shared), params_of(find_variant("1303"))).name_zh == "三花色"  # type: ignore[union-attr]


def test_rule_5_four() -> None:
    """规则五 四: "同花顺5张（…只要13张牌里有1个同花顺就大）.但同花顺分大小，只要报大的就可以了，
    也是第4大"."""
    sf_9 = "5h 6h 7h 8h 9h 2s 3c Jd Qs Kh Kc 4s 4d"
    two_sf = "2d 3d 4d 5d 6d 3s 4s 5s 6s 7s Ac Kd 9c"  # 7-high and 6-high: reports the 7
    assert scores("1304", sf_9, two_sf) == [1, -1]


def test_rule_5_five() -> None:
    """规则五 五: "4个炸弹（… 如第1手的牌13张里有1个炸弹是4个10，第2手的牌是2个炸弹，
    一个是炸弹是4个3，
    1个炸弹是4个9，那就是第1手牌大）.也是第5大"."""
    tens = "Ts Th Tc Td 2s 4h 5c 7d 8s Jh Qc Kd Ac"
    threes_nines = "3s 3h 3c 3d 9s 9h 9c 9d 2h 4c 6d 8h Jd"
    assert scores("1304", tens, threes_nines) == [1, -1]


def test_rule_5_six() -> None:
    """规则五 六: "三个..3个A最大..3个2最小（… 如第1手的牌13张里有1个三个是3个10，
    第2手的牌是2个三个，
    一个是三个是3个3，1个三个是3个9，那就是第1手牌大）三个也是第6大"."""
    tens = "Ts Th Tc 2d 4s 5h 6c 7d 8s Jh Qc Kd Ac"
    threes_nines = "3s 3h 3c 9s 9h 9c 2h 4c 6d 8h Jd Qs Kc"
    assert scores("1304", tens, threes_nines) == [1, -1]


def test_rule_5_seven() -> None:
    """规则五 七: "后面就是对子了"."""
    kings = "Ks Kh 2c 3s 4d 6d 8s 9s Js Qs Ad 7h 5h"
    queens = "Qh Qd 2d 3d 4s 6c 8h 9h Jd Kd Ac 7d 5d"
    trips = "2s 2h 2c 3s 4d 6d 8s 9s Js Qs Ad 7h 5h"
    assert scores("1304", trips, kings, queens) == [2, 0, -2]


# --------------------------------------------------------------- 规则六 宝马会


def test_rule_6_back_row_only() -> None:
    """规则六: "规则基本上与比大小13张相同，只是尽量让尾墩最大。比大小时只比最后一墩"."""
    front_middle = "Qs Qh Qd / Js Jh Jd 2c 2d / Ks Kh Kd 3c 3d"  # 三条 / 葫芦 / 葫芦
    back_only = "2c 3d 4h / 5s 6h 7s 8d Tc / As Ah Ad Ac 5c"  # 散牌 / 散牌 / 炸弹
    assert scores("1301-2", front_middle, back_only) == [-1, 1]
    params = params_of(find_variant("1301-2"))
    pair = settle(params, [H(front_middle, "1301-2"), H(back_only, "1301-2")]).pairs[0]
    assert pair.rows == (None, None, -1)


def test_rule_6_a2345_lowest() -> None:
    """规则六: "顺子和同花顺，A2345最小（在比大小13张中A2345 比 910JQK大）"."""
    assert rv("As 2h 3c 4d 5s", "1301-2") < rv("2s 3h 4c 5d 6s", "1301-2")
    assert rv("As 2h 3c 4d 5s", "1301") > rv("9s Th Jc Qd Ks", "1301")
    assert rv("Ah 2h 3h 4h 5h", "1301-2") < rv("2s 3s 4s 5s 6s", "1301-2")


# ----------------------------------------------------------- 规则七 报到13张2


def test_rule_7_thirteen() -> None:
    """规则七 1: "13张，1连顺至13张同花或任意花色。同是13张一样大 赔七倍"."""
    hearts = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    assert scores("1303-2", LOW, DRAGON, banker=0) == [-7, 7]
    assert scores("1303-2", hearts, DRAGON, banker=1) == [-7, 7]  # equal: the banker's


def test_rule_7_baodao() -> None:
    """规则七 2: "报到，6对加一，三杂顺，三花色，全小2~10 同是报到一样大赔四倍"."""
    small = "2s 3h 4c 5d 6s 7h 8c 9d Ts 2h 3c 4d 5s"
    assert best_special(parse_cards(small), params_of(find_variant("1303-2"))).name_zh == "全小"  # type: ignore[union-attr]
    assert scores("1303-2", LOW, SIX_PAIRS, small, banker=0) == [-8, 4, 4]


def test_rule_7_add_up_rows() -> None:
    """规则七 3: "普通牌型，头墩和头墩比 中墩和中墩比 底墩和底墩比。比完后把赔率相加减 定输赢"."""
    assert scores("1303-2", LOW, MID, banker=0) == [-3, 3]
    player = "Ac Kd 3d / 6s 6h 6c 8c 9c / 7s 7h 7d Th Td"  # loses the front, wins the others
    banker = "2h 2s 4c / 3h 3s 7h 8d Tc / 5h 5s 9c Jc Kd"
    assert scores("1303-2", banker, player, banker=0) == [1 - 1 - 1, 1]


def test_rule_7_straight_flush_pays_10_and_5() -> None:
    """规则七: "顺金：既同花顺，5张花色一样的顺子。中墩赔十倍，底墩赔五倍"."""
    sf_both = "2c 3d 5h / 5s 6s 7s 8s 9s / 9h Th Jh Qh Kh"
    assert scores("1303-2", LOW, sf_both, banker=0) == [-16, 16]


def test_rule_7_bomb_pays_8_and_4() -> None:
    """规则七: "炸弹：4个数字相同的牌。中墩赔八倍，底墩赔四倍"."""
    bombs = "2c 3d 5h / 5s 5h 5c 5d 9s / Ks Kh Kc Kd Qs"
    assert scores("1303-2", LOW, bombs, banker=0) == [-13, 13]


def test_rule_7_front_trips_pay_3() -> None:
    """规则七: "三冲头：头墩为3张数字一样的牌。赔三倍"."""
    trips = "9s 9h 9c / Ts Jh Qc Kd Ah / 2s 2h 2c 3s 3h"
    assert scores("1303-2", LOW, trips, banker=0) == [-(3 + 1 + 1), 5]


def test_rule_7_full_house_pays_2_and_1() -> None:
    """规则七: "葫芦：3个带一对。中墩赔二倍，底墩赔一倍"."""
    houses = "2c 3d 5h / 5s 5h 5c 9d 9s / Ks Kh Kc Qd Qs"
    assert scores("1303-2", LOW, houses, banker=0) == [-4, 4]


def test_rule_7_other_rows_pay_1() -> None:
    """规则七: "同花 … 杂顺 … 三张 … 二对 … 一对 … 单张 … 中墩赔一倍，底墩赔一倍"."""
    flushes = "2c 3d 5h / 2s 5s 7s 9s Js / 3h 5h 8h Th Qh"
    straights = "2c 3d 5h / 5s 6h 7c 8d 9s / Ts Jh Qc Kd Ah"
    pairs = "2c 3d 5h / 5s 5h 7c 8d 9s / 6s 6h 8c Td Qs"
    for hand in (flushes, straights, pairs):
        assert scores("1303-2", LOW, hand, banker=0) == [-3, 3]


def test_rule_7_straight_order() -> None:
    """规则七: "杂顺：A至10最大，A至5第二大，2至6最小"."""
    order = ["Ts Jh Qc Kd Ah", "As 2h 3c 4d 5s", "9s Th Jc Qd Ks", "2s 3h 4c 5d 6s"]
    values = [rv(s, "1303-2") for s in order]
    assert values == sorted(values, reverse=True)


def test_rule_7_high_cards() -> None:
    """规则七: "单张：A>K>；…>2"."""
    assert rv("As Kh 9c 7d 3s", "1303-2") > rv("Kc Qh Jd 9s 8h", "1303-2")


def test_rule_7_same_cards_banker_wins() -> None:
    """规则七: "同样的牌，庄家比闲家大"."""
    assert scores("1303-2", LOW, LOW, banker=0) == [3, -3]
    assert scores("1303-2", LOW, LOW, banker=1) == [-3, 3]


# ---------------------------------------------------------------- 积分规则


def test_points_1_card_order() -> None:
    """积分规则 1: "牌面大小顺序：A>K>Q>J>10>9>8>7>6>5>4>3>2"."""
    ranks = "AKQJT98765432"
    # a pair of each rank in front (the kicker 2, or 3 beside the pair of 2s): A high … 2 low
    values = [rv(f"{r}s {r}h {'3' if r == '2' else '2'}c", "1301-points") for r in ranks]
    assert values == sorted(values, reverse=True) and len(set(values)) == 13


def test_points_2_shape_order() -> None:
    """积分规则 2: "牌型大小顺序：一条龙>同花顺>四条>葫芦>同花>顺子>三条>两对>对子>散牌（乌龙）"."""
    order = ["5h 6h 7h 8h 9h", "2s 2h 2c 2d 3s", "3s 3h 3c 4d 4s", "2d 5d 7d 9d Jd",
             "9s Th Jc Qd Ks", "4s 4h 4c 6d 8s", "5s 5h 6c 6d 8h", "7s 7h 9c Td Qs",
             "As Kh Qc Jd 9s"]  # fmt: skip
    values = [rv(r, "1301-points") for r in order]
    assert values == sorted(values, reverse=True)
    assert scores("1301-points", DRAGON, "2h 3h 4h / 5h 6h 7h 8h 9h / Th Jh Qh Kh Ah")[0] == 36


def test_points_3_win_a_row() -> None:
    """积分规则 3: "赢一墩：同一墩，大于其他某个玩家，自己加1注(头墩加1注，中墩加2注，
    底墩加3注)"."""
    front_only = "Ah Kh 3h / 4s 4h 5c 6d 8s / Ts Th Js Jh 9c"
    back_only = "Ac Kc 2c / 4d 4c 5d 6c 8h / Tc Td Jc Jd Qd"
    assert scores("1301-points", front_only, back_only) == [1 - 3, 3 - 1]


def test_points_4_lose_a_row() -> None:
    """积分规则 4: "输一墩：同一墩，小于其他某个玩家，自己减1注(头墩减1注，中墩减2注，
    底墩减3注)"."""
    middle_loser = "Ah Kh 3h / 4s 4h 5c 6d 8s / Ts Th Js Jh 9c"
    middle_winner = "Ac Kc 3c / 4d 4c 5d 6c 9h / Tc Td Jc Jd 9d"
    assert scores("1301-points", middle_loser, middle_winner) == [-2, 2]


def test_points_5_tie() -> None:
    """积分规则 5: "强碰（打和）：同一墩，与其他玩家大小一样，自己加0注"."""
    a = "Ah Kh 3h / 4s 4h 5c 6d 8s / Ts Th Js Jh 9c"
    b = "Ac Kc 3c / 4d 4c 5d 6c 8h / Tc Td Jc Jd 9d"
    assert scores("1301-points", a, b) == [0, 0]


def test_points_6_gun() -> None:
    """积分规则 6: "打枪：与其中一位玩家头墩、中墩、底墩相比较，三墩皆赢，此时对手扣6注，自己加6注。
    打一枪自己共赢12注"."""
    assert scores("1301-points", LOW, MID) == [-12, 12]


def test_points_7_homerun() -> None:
    """积分规则 7: "全垒打：三墩与其他所有玩家相比三墩全赢。
    共赢72注 … 每家24注 … 另其他3家相互比牌，
    输赢另算"."""
    strong = "Ks Kh 2d / Qs Qh Qc 3d 3c / As Ah Ac 4d 4c"
    r = scores("1301-points", strong, LOW, LOW, LOW)
    assert r == [72, -24, -24, -24]
    middling = "3h 2h 5d / 6s 6d 8h 9d Jd / Tc Ts 7c 7h 2s"  # beats LOW, loses to strong
    r = scores("1301-points", strong, LOW, LOW, middling)
    assert r[0] == 72 and r[3] == -24 + 12 + 12 and sum(r) == 0
    # three players: no 全垒打 (打枪 only)
    assert scores("1301-points", strong, LOW, LOW)[0] == 24


def test_points_8_chong_san() -> None:
    """积分规则 8: "冲三：头墩出3条，且与其他某位玩家相比后为赢，自己另加6注，对手另扣6注"."""
    trips = "9s 9h 9c / Ts Jh Qc Kd Ah / 2s 2h 2c 3s 3h"
    assert scores("1301-points", LOW, trips) == [-(1 + 6 + 2 + 3 + 6), 18]


def test_points_8_four_of_a_kind() -> None:
    """积分规则 8: "四梅：不论哪一墩只要与其他玩家相比后为胜，自己另加8注，对手另扣8注"."""
    bombs = "2c 3d 5h / 5s 5h 5c 5d 9s / Ks Kh Kc Kd Qs"
    assert scores("1301-points", LOW, bombs) == [-(1 + 2 + 8 + 3 + 8 + 6), 28]


def test_points_8_straight_flush() -> None:
    """积分规则 8: "同花顺：不论哪一墩出同花顺（头墩没有同花顺），只要与其他玩家相比后为胜，
    自己另加10注，
    对手另扣10注"."""
    sf_both = "2c 3d 5h / 5s 6s 7s 8s 9s / 9h Th Jh Qh Kh"
    assert scores("1301-points", LOW, sf_both) == [-(1 + 12 + 13 + 6), 32]
    assert CATEGORIES[row_category(rv("Qh Kh Ah", "1301-points"))] == "散牌"


def test_points_9_dragon() -> None:
    """积分规则 9: "一条龙：不参与比牌，只要出一条龙，自己加108注，
    其他三家各扣36注（其他玩家的输赢另算）"."""
    r = scores("1301-points", DRAGON, LOW, MID, MID)
    assert r[0] == 108
    assert r[1] == -36 - 12 - 12 and r[2] == r[3] == -36 + 12


# ------------------------------------------------------------------- 牌型


def test_shape_high_cards() -> None:
    """牌型 乌龙: "当无法组出任何牌型时，可用单张牌组，只比大小不比花色"."""
    assert rv("As Kh 9c 7d 3s", "1301-points") == rv("Ah Kc 9d 7s 3h", "1301-points")


def test_shape_pair() -> None:
    """牌型 对子: "两张相同点数的牌。… 如果放在中、底墩，则需要加入三个单张。不比花色"."""
    assert rv("9s 9h Ac 3d 2s", "1301-points") == rv("9c 9d As 3c 2d", "1301-points")


def test_shape_two_pairs() -> None:
    """牌型 两对: "比较最大对子的大小，平手则比较小对子的大小，再平手则比较单张的大小。不比花色"."""
    assert rv("Ks Kh 3c 3d 2s", "1301-points") > rv("Qs Qh Jc Jd As", "1301-points")
    assert rv("Ks Kh 4c 4d 2s", "1301-points") > rv("Kc Kd 3c 3d As", "1301-points")
    assert rv("Ks Kh 4c 4d 3s", "1301-points") > rv("Kc Kd 4s 4h 2s", "1301-points")
    assert rv("Ks Kd 4c 4d 3s", "1301-points") == rv("Kc Kh 4s 4h 3c", "1301-points")


def test_shape_trips() -> None:
    """牌型 三条: "三张相同点数的牌 … 若为中、底墩，则需要外加两张单张"."""
    assert CATEGORIES[row_category(rv("4s 4h 4c 6d 8s", "1301-points"))] == "三条"
    assert rv("5s 5h 5c 2d 3s", "1301-points") > rv("4s 4h 4c Ad Ks", "1301-points")


def test_shape_straight() -> None:
    """牌型 顺子: "一最大的数字作为比较的依据，最大为10、J、Q、K、A，最小为：A、2、3、4、5。
    不比花色"."""
    assert rv("As 2h 3c 4d 5s", "1301-points") < rv("2s 3h 4c 5d 6s", "1301-points")
    assert rv("Ts Jh Qc Kd As", "1301-points") == rv("Td Jh Qc Kd Ah", "1301-points")


def test_shape_flush() -> None:
    """牌型 同花: "大小则从最大点数的牌先比起，平手则比第二张。不比花色"."""
    assert rv("Ks Ts 7s 5s 3s", "1301-points") > rv("Kh 9h 7h 5h 3h", "1301-points")
    assert rv("Ks 9s 7s 5s 3s", "1301-points") == rv("Kh 9h 7h 5h 3h", "1301-points")


def test_shape_full_house() -> None:
    """牌型 葫芦: "比三条牌面的大小，如：QQQ33>JJJ99"."""
    assert rv("Qs Qh Qc 3d 3s", "1301-points") > rv("Js Jh Jc 9d 9s", "1301-points")


def test_shape_four_of_a_kind() -> None:
    """牌型 四梅: "比四条牌面的大小，如：8888>6666"."""
    assert rv("8s 8h 8c 8d 2s", "1301-points") > rv("6s 6h 6c 6d As", "1301-points")


def test_shape_straight_flush() -> None:
    """牌型 同花顺: "比最大点数牌的大小。最大为10、J、Q、K、A，最小为：A、2、3、4、5。不比花色"."""
    assert rv("Ah 2h 3h 4h 5h", "1301-points") < rv("2s 3s 4s 5s 6s", "1301-points")
    assert rv("Ts Js Qs Ks As", "1301-points") == rv("Th Jh Qh Kh Ah", "1301-points")


def test_shape_dragon() -> None:
    """牌型 一条龙: "13张点数不重复的牌（2-A）"."""
    assert best_special(parse_cards(DRAGON), params_of(find_variant("1301-points"))) is not None
    assert best_special(parse_cards(SIX_PAIRS), params_of(find_variant("1301-points"))) is None


# ---------------------------------------------------------------- 赔率 报到


def test_payout_three_straights() -> None:
    """赔率: "“三顺（亦称三蛇）”：二道及尾为顺子，头亦为三张连续的顺子。胜三注"."""
    hand = "As 2h 3c 4d 5s 6h 7c 8d 4s 5c 6d 7h 8s"
    assert scores("1301-payout", LOW, hand, banker=0) == [-3, 3]


def test_payout_three_flushes() -> None:
    """赔率: "“三花”：二道及尾为同花，头亦为三张相同的同花。胜三注"."""
    hand = "2s 5s 9s 3h 6h 8h Th Kh 4c 7c Jc Qc 2c"
    assert scores("1301-payout", LOW, hand, banker=0) == [-3, 3]


def test_payout_six_pairs() -> None:
    """赔率: "“六对半”：牌中有六对。胜三注"."""
    assert scores("1301-payout", LOW, SIX_PAIRS, banker=0) == [-3, 3]


def test_payout_all_big_all_small() -> None:
    """赔率: "“全大”；“全小”：A 到十； 5到J,Q,K,A 亦“报到”胜三注" (read as CATALOG.md's ranges)."""
    big = "6s 6h 6c 8d Ts Jh Qc Kd 7h 7c 8c 9s Th"
    small = "2s 3h 4c 5d 6s 7h 8c 9d Ts 2h 3c 4d 5s"
    assert scores("1301-payout", LOW, big, small, banker=0) == [-6, 3, 3]


def test_payout_dragon() -> None:
    """赔率: "“一条龙”：A.K.Q.J.10.9.8.7.6.5.4.3.2　各一张。胜十三注"."""
    assert scores("1301-payout", LOW, DRAGON, banker=0) == [-13, 13]


def test_payout_one_suit_dragon() -> None:
    """赔率: "“一条青龙”：全同花的一条龙" (pays as 一条龙)."""
    hearts = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    assert scores("1301-payout", LOW, hearts, banker=0) == [-13, 13]


def test_payout_both_declare() -> None:
    """赔率: "倘若庄家及闲家同时报到，由庄家赔闲家"."""
    assert scores("1301-payout", DRAGON, SIX_PAIRS, banker=0) == [-3, 3]


def test_payout_at_least_one() -> None:
    """赔率: "头、二度或尾，每段胜出得最少一注"."""
    assert scores("1301-payout", LOW, "2c 3d 5h / 5s 6h 7s 8d Tc / Kd Qc 9c 8c 3c", banker=0) == [
        -1,
        1,
    ]


def test_payout_front_trips() -> None:
    """赔率: "三条摆“头”：胜出得三注"."""
    trips = "9s 9h 9c / Ts Jh Qc Kd Ah / 2s 2h 2c 3s 3h"
    assert scores("1301-payout", LOW, trips, banker=0) == [-5, 5]


def test_payout_full_house_middle() -> None:
    """赔率: "夫佬（满堂红）摆“二道”：胜出得两注"."""
    houses = "2c 3d 5h / 5s 5h 5c 9d 9s / Ks Kh Kc Qd Qs"
    assert scores("1301-payout", LOW, houses, banker=0) == [-4, 4]


def test_payout_four_of_a_kind() -> None:
    """赔率: "四条摆“尾”：胜出得四注。作“二道”：得八注"."""
    bombs = "2c 3d 5h / 5s 5h 5c 5d 9s / Ks Kh Kc Kd Qs"
    assert scores("1301-payout", LOW, bombs, banker=0) == [-13, 13]


def test_payout_straight_flush() -> None:
    """赔率: "同花顺摆“尾”：胜出得五注。作“二道”：得十注"."""
    sf_both = "2c 3d 5h / 5s 6s 7s 8s 9s / 9h Th Jh Qh Kh"
    assert scores("1301-payout", LOW, sf_both, banker=0) == [-16, 16]
