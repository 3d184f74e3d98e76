"""Rule clauses of file 000 (codes 1301-1306), one test per clause, the text quoted.

Rows are written as card text; whole arranged hands as ``front / middle / back``.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

from paiju.cards import Card, deck, format_cards, parse_cards
from paiju.catalog import find_variant
from paiju.games import game
from paiju.games.shisanzhang.game import Arrange, Declare, ShisanzhangState, greedy_arrangement
from paiju.games.shisanzhang.rows import CATEGORIES, row_category, row_value
from paiju.games.shisanzhang.showdown import showdown
from paiju.games.shisanzhang.spec import params_of
from paiju.games.shisanzhang.specials import Special, best_special


def rv(text: str, code: str = "1301") -> int:
    return row_value(parse_cards(text), params_of(find_variant(code)).row_rules())


def cat(text: str, code: str = "1301") -> str:
    return CATEGORIES[row_category(rv(text, code))]


def sp(text: str, code: str) -> Special:
    special = best_special(parse_cards(text), params_of(find_variant(code)))
    assert special is not None, text
    return special


def opponent(code: str, *hands: str, below: int | None = None, seed: int = 0) -> str:
    """A hand of cards none of ``hands`` hold: no special of the code (or one of a tier
    below ``below``); as 13 cards where the code does not arrange it, else arranged."""
    used = {c for h in hands for c in parse_cards(h.replace("/", " "))}
    left = [c for c in deck("52") if c not in used]
    params = params_of(find_variant(code))
    rng = random.Random(seed)
    while True:
        pick = rng.sample(left, 13)
        special = best_special(pick, params)
        if special is None or (below is not None and special.tier > below):
            break
    if special is not None:
        return format_cards(pick)
    return " / ".join(format_cards(r) for r in greedy_arrangement(pick, params.row_rules()))


# two plain hands that never share a card; A loses every row to B
A = "2c 3d 4h / 5s 5h 7c 8d 9s / Ks Kh Qc Qd 2s"
B = "Ac Ad 4c / 6s 6h 6c 8c 9c / 7s 7h 7d Th Td"


# ---------------------------------------------------------------- 1301 比大小13张


def test_1301_deal() -> None:
    """1301: "52张牌，每家13张"."""
    st = game("1301").new_state(4, seed="deal")
    assert isinstance(st, ShisanzhangState)
    assert [len(h) for h in st.hands] == [13] * 4
    assert Counter(c for h in st.hands for c in h) == Counter(Card(i) for i in range(52))


def test_1301_rows() -> None:
    """1301: "头墩三张牌，接著中墩、底墩各为五张牌"."""
    st = game("1301").new_state(2, seed="rows")
    assert isinstance(st, ShisanzhangState)
    h = st.hands[0]
    assert not st.is_legal(0, Arrange(h[:5], h[5:8], h[8:]))
    assert not st.is_legal(0, Arrange(h[:4], h[4:8], h[8:]))
    assert st.is_legal(0, Arrange(h[:3], h[3:8], h[8:]))


def test_1301_row_against_row_two_wins() -> None:
    """1301: "头和头比，中和中比，尾和尾比，赢两墩以上者为赢"."""
    front_only = "Ah Kh 3h / 4s 4h 5c 6d 8s / Ts Th Js Jh 9c"
    other = "Ac Kc 2c / 4d 4c 5d 6c 8h / Tc Td Jc Jd 9d"
    assert showdown("1301", [front_only, other], scoring="majority")["scores"] == [0, 0]
    r = showdown("1301", [A, B], scoring="majority")
    assert r["pairs"][0]["rows"] == [-1, -1, -1] and r["scores"] == [-1, 1]


def test_1301_category_order() -> None:
    """1301: "大小顺序：同花顺>炸弹>葫芦>同花>顺子>三条>两对>一对>5单张"."""
    rows = [
        "5h 6h 7h 8h 9h",
        "2s 2h 2c 2d 3s",
        "3s 3h 3c 4d 4s",
        "2d 5d 7d 9d Jd",
        "9s Th Jc Qd Ks",
        "4s 4h 4c 6d 8s",
        "5s 5h 6c 6d 8h",
        "7s 7h 9c Td Qs",
        "As Kh Qc Jd 9s",
    ]
    values = [rv(r) for r in rows]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert [cat(r) for r in rows] == list(reversed(CATEGORIES))


# ---------------------------------------------------------------- 1302 免摆13张


def test_1302_otherwise_as_1301() -> None:
    """1302: "规则上和比大小的13张相同"."""
    assert showdown("1302", [A, B])["scores"] == [-1, 1]


def test_1302_exempt_hand_is_highest() -> None:
    """1302: "只要某一家有同花顺或者炸弹的，此家不用再摆牌，此家最大"."""
    quads = "Ts Th Tc Td 9s 2h 3h Jc Qs Ks Ah 4s 5c"
    other = opponent("1302", quads)
    held = set(parse_cards(quads + " " + other.replace("/", " ")))
    rest = [c for c in deck("52") if c not in held]
    deal = {"hands": [quads, other.replace("/", " ")], "undealt": format_cards(rest)}
    st = game("1302").new_state(2, deal=deal)
    assert isinstance(st, ShisanzhangState)
    assert st.legal_actions(0) == [Declare()] and st.legal_actions(1) is None
    assert showdown("1302", [quads, other])["scores"] == [1, -1]


def test_1302_several_exempt_hands_compare() -> None:
    """1302: "如果同时出现多家都有同花顺或炸弹的，不用摆牌，直接比哪家的同花顺或者炸弹大"."""
    quads_t = "Ts Th Tc Td 9s 2h 3h Jc Qs Ks Ah 4s 5c"
    quads_7 = "7s 7h 7c 7d 9h 2s 3s Jd Qd Kd Ad 4h 5h"
    assert showdown("1302", [quads_t, quads_7])["scores"] == [1, -1]
    sf_9 = "5d 6d 7d 8d 9d 2c 3c Jh Qh Kh Ac 4c 4d"
    sf_j = "7s 8s 9s Ts Js 2h 3h Jc Qc Kc As 4s 4h"
    assert showdown("1302", [sf_9, sf_j])["scores"] == [-1, 1]


def test_1302_straight_flush_beats_bomb() -> None:
    """1302: "同花顺要比炸弹大"."""
    sf = "5d 6d 7d 8d 9d 2c 3c Jh Qh Kh Kc 4c 4d"
    quads = "As Ah Ad Ac 9s 2h 3h Jc Qs Ks Th 4s 5c"
    assert sp(sf, "1302").compare(sp(quads, "1302")) == 1
    assert showdown("1302", [sf, quads])["scores"] == [1, -1]


# ---------------------------------------------------------------- 1303 报到13张

DRAGON = "2c 3c 4c 5s 6s 7c 8s 9s Ts Jc Qs Kc As"
SIX_PAIRS = "2s 2h 5c 5d 7s 7h 9c 9d Js Jh Ks Kh Ac"


def test_1303_ladder() -> None:
    """1303: "同花十三水>十三水>报到>同花顺>炸弹>葫芦>同花>顺子>三条>两对>一对>5单张>倒水"."""
    hearts = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    assert sp(hearts, "1303").compare(sp(DRAGON, "1303")) == 1
    assert sp(DRAGON, "1303").compare(sp(SIX_PAIRS, "1303")) == 1
    # 报到 beats any arranged hand, even one with a 同花顺 back
    sf_hand = "3c 4c 6s / 2d 3s 4s 5s 6c / Td Jd Qd Kd Ad"
    assert showdown("1303", [SIX_PAIRS, sf_hand], scoring="majority")["scores"] == [1, -1]
    # the lowest: 倒水 loses to 5单张
    foul = "As Ah Kh / 2s 3s 5c 7c 9h / Ts Js 4d 6d 8s"
    low = "2c 3d 4h / 5s 6h 7s 8d Tc / Kd Qc 9c 8c 3c"
    assert showdown("1303", [foul, low], scoring="majority")["scores"] == [-1, 1]


def test_1303_one_suit_dragons_by_suit() -> None:
    """1303 1): "同花 A~K 的牌型,此为最大牌型,若巧遇别家也有同花十三水时，以花色大小轮输赢，
    黑桃>红心>梅花>方块"."""
    spades = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"
    hearts = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    assert showdown("1303", [hearts, spades], scoring="majority")["scores"] == [-1, 1]


def test_1303_dragons_tie() -> None:
    """1303 2): "数字为 A~K 的牌型, 基本上天下无敌, 若巧遇别家也有一条龙时，则以和局论"."""
    other = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ad"
    assert showdown("1303", [DRAGON, other], scoring="majority")["scores"] == [0, 0]
    assert (
        showdown("1303", [DRAGON, opponent("1303", DRAGON)], scoring="majority")["scores"][0] == 1
    )


def test_1303_baodao_hands() -> None:
    """1303 3): "报到: 6对加一，3顺子，3花色"."""
    three_straights = "As 2h 3c 4d 5s 6h 7c 8d 4s 5c 6d 7h 8s"
    three_flushes = "2s 5s 9s 3h 6h 8h Th Kh 4c 7c Jc Qc 2c"
    names = [sp(h, "1303").name_zh for h in (SIX_PAIRS, three_straights, three_flushes)]
    assert names == ["六对半", "三顺子", "三花色"]
    tiers = {sp(h, "1303").tier for h in (SIX_PAIRS, three_straights, three_flushes)}
    assert len(tiers) == 1


def test_1303_straight_flush_ties_by_suit() -> None:
    """1303 4): "同花顺: 同门花色中之五张连续牌若别家也有同花顺时，比顺子大小如牌型全部相同，
    以花色大小轮输赢黑桃>红心>梅花>方块"."""
    assert rv("9s Ts Js Qs Ks", "1303") > rv("8h 9h Th Jh Qh", "1303")
    assert rv("9s Ts Js Qs Ks", "1303") > rv("9h Th Jh Qh Kh", "1303")
    assert rv("9s Ts Js Qs Ks", "1301") == rv("9h Th Jh Qh Kh", "1301")


def test_1303_bombs_by_number() -> None:
    """1303 5): "炸弹: 五张中里有四张同等级的牌若别家也有，则比数字大小"."""
    assert rv("9s 9h 9c 9d 2s", "1303") > rv("8s 8h 8c 8d As", "1303")


def test_1303_three_in_front() -> None:
    """1303 6): "三尖刀: 头墩为三张相同数字的牌"."""
    assert cat("Qs Qh Qc", "1303") == "三条"
    assert rv("Qs Qh Qc", "1303") > rv("As Ah Kc", "1303")


def test_1303_full_house_by_trips() -> None:
    """1303 7): "葫芦: … 若别家也有此牌型，则比三张数字大小"."""
    assert rv("9s 9h 9c 2d 2s", "1303") > rv("8s 8h 8c Ad As", "1303")


def test_1303_flush_rank_by_rank_then_suit() -> None:
    """1303 8): "同花：… 若遇相同则先比这副牌中最大的一支，如又相同再比第二支、依此类推
    如牌型全部相同则以花色大小轮输赢"."""
    assert rv("Ks 9s 7s 5s 3s", "1303") < rv("Kh Th 7h 5h 3h", "1303")
    assert rv("Ks 9s 7s 5s 3s", "1303") > rv("Kh 9h 7h 5h 3h", "1303")


def test_1303_straight_order_and_suit_of_top_card() -> None:
    """1303 9): "杂顺: 五张牌数字连续的组合，2、3、4、5、6为最小牌10、J、Q、K、A 为最大牌，
    若巧遇别家也有则以最大那张牌的花色大小轮输赢"."""
    straights = ["Ts Jh Qc Kd Ah", "9s Th Jc Qd Kh", "2s 3h 4c 5d 6h"]
    values = [rv(s, "1303") for s in straights]
    assert values == sorted(values, reverse=True)
    assert all(rv(s, "1303") > rv("2s 3h 4c 5d 6h", "1303") for s in straights[:2])
    assert rv("Td Jh Qc Kd As", "1303") > rv("Ts Jh Qc Kd Ah", "1303")


def test_1303_trips_by_number() -> None:
    """1303 10): "三张:由三张同一数字的牌和另外两张不同的牌组成若遇相同牌行，则比三张的数字大小"."""
    assert rv("9s 9h 9c 2d 3s", "1303") > rv("8s 8h 8c Ad Ks", "1303")


def test_1303_two_pairs() -> None:
    """1303 11): "二对: … 先比这副牌中最大的一对，如又相同再比第二对、如又相同再比单张牌大小
    如牌型全部相同以较大的对子的花色大小轮输赢"."""
    assert rv("Ks Kh 3c 3d 2s", "1303") > rv("Qs Qh Jc Jd As", "1303")
    assert rv("Ks Kh 4c 4d 2s", "1303") > rv("Kc Kd 3c 3d As", "1303")
    assert rv("Ks Kh 4c 4d 3s", "1303") > rv("Kc Kd 4s 4h 2s", "1303")
    assert rv("Ks Kd 4c 4d 3s", "1303") > rv("Kc Kh 4s 4h 3c", "1303")


def test_1303_pairs() -> None:
    """1303 12): "对子:牌型由两张相同数字的牌组成若别家也相同则比剩下牌的数字大小，
    如牌型全部相同以对子的花色大小轮输赢"."""
    assert rv("9s 9h Ac 3d 2s", "1303") > rv("9c 9d Kc Qd Js", "1303")
    assert rv("9s 9d Ac 3d 2s", "1303") > rv("9c 9h As 3c 2d", "1303")
    assert rv("9s 9d Ac", "1303") > rv("9c 9h As", "1303")  # the front row too


def test_1303_high_cards_by_number_only() -> None:
    """1303 13): "单张组不出任何牌型只比数字大小"."""
    assert rv("As Kh 9c 7d 3s", "1303") > rv("Ah Kc 9d 7s 2s", "1303")
    assert rv("As Kh 9c 7d 3s", "1303") == rv("Ah Kc 9d 7s 3h", "1303")


# ---------------------------------------------------------------- 1304 绍兴13张1


def test_1304_nobody_arranges() -> None:
    """1304: "52张牌，每人13张，不摆拍，直接比最大牌型"."""
    st = game("1304").new_state(3, seed="x")
    assert all(st.legal_actions(s) == [Declare()] for s in range(3))


def test_1304_tier_1() -> None:
    """1304 1): "全黑一张红；全红一张黑；一条龙 A 到 K；5对子3个头；这些是一样大的，也是最大的"."""
    black = "2s 2c 3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8h"
    red = "2h 2d 3h 3d 4h 4d 5h 5d 6h 6d 7h 7d 8s"
    five_pairs = "9s 9h 9c Ts Th Js Jh Qs Qh Ks Kh As Ah"
    hands = [black, red, five_pairs]
    assert [sp(h, "1304").tier for h in hands] == [0, 0, 0]
    assert showdown("1304", hands)["scores"] == [0, 0, 0]
    assert sp(DRAGON, "1304").tier == 0


def test_1304_tier_2() -> None:
    """1304 2): "全大6到 K；全小2到10（不能缺） ；6对半；这几种是一样大的，第二大"."""
    big = "6s 6h 6c 8d Ts Jh Qc Kd 7h 7c 8c 9s Th"
    small = "2s 3h 4c 5d 6s 7h 8c 9d Ts 2h 3c 4d 5s"
    assert sp(big, "1304").name_zh == "全大" and sp(small, "1304").name_zh == "全小"
    assert sp(SIX_PAIRS, "1304").tier == sp(big, "1304").tier == sp(small, "1304").tier == 1
    assert showdown("1304", [big, opponent("1304", big, below=1)])["scores"][0] == 1


def test_1304_tier_3() -> None:
    """1304 3): "半大6到 A；半小 A 到10（不能缺） ；三顺子；三花色；这几种一样大，第三大"."""
    half_big = "6s 7h 8c 9d Ts Jh Qc Kd As 6h 7c 8d 9h"
    half_small = "As 2h 3c 4d 5s 6h 7c 8d Ts 2c 3d Ad Ah"
    three_flushes = "2s 5s 9s 3h 6h 8h Th Kh 4c 7c Jc Qc 2c"
    tiers = [sp(h, "1304") for h in (half_big, half_small, three_flushes)]
    assert [t.name_zh for t in tiers] == ["半大", "半小", "三花色"]
    assert {t.tier for t in tiers} == {2}


def test_1304_tier_4_straight_flush() -> None:
    """1304 4): "同花顺5张，第4大"."""
    sf = "5h 6h 7h 8h 9h 2s 3c Jd Qs Kh Kc 4s 4d"
    quads = "As Ah Ad Ac 9s 2h 3h Jc Qc Ks Th 4h 5c"
    assert sp(sf, "1304").tier == 3
    assert showdown("1304", [sf, quads])["scores"] == [1, -1]


def test_1304_tier_5_bomb() -> None:
    """1304 5): "4个炸弹，第5大"."""
    quads = "As Ah Ad Ac 9s 2h 3h Jc Qc Ks Th 4h 5c"
    trips = "Kh Kd Kc 2s 3s 4d 6d 8s 9h Js Qs Qh 7h"
    assert sp(quads, "1304").tier == 4
    assert showdown("1304", [quads, trips])["scores"] == [1, -1]


def test_1304_tier_6_trips() -> None:
    """1304 6): "三个头，3个 A 最大，3个2最小，三个头第6大"."""
    aces = "As Ah Ac 2d 3d 4s 6c 8h 9h Jd Qc Kd 5d"
    twos = "2s 2h 2c 3s 4d 6d 8s 9s Js Qs Ks Ad 7h"
    assert sp(aces, "1304").tier == sp(twos, "1304").tier == 5
    assert showdown("1304", [aces, twos])["scores"] == [1, -1]


def test_1304_tier_7_pairs() -> None:
    """1304 7): "后面就是对子了"."""
    kings = "Ks Kh 2c 3s 4d 6d 8s 9s Js Qs Ad 7h 5h"
    queens = "Qh Qd 2d 3d 4s 6c 8h 9h Jd Kd Ac 7d 5d"
    assert sp(kings, "1304").name_zh == "对子"
    assert showdown("1304", [kings, queens])["scores"] == [1, -1]


# ---------------------------------------------------------------- 1305 绍兴13张2


def test_1305_tiers() -> None:
    """1305 1)-4): the same four tiers as 1304: "…4)同花顺5张，第4大"."""
    assert params_of(find_variant("1305")).ladder == params_of(find_variant("1304")).ladder[:4]
    sf = "5h 6h 7h 8h 9h 2s 3c Jd Qs Kh Ac 4s 4d"
    assert sp(sf, "1305").name_zh == "同花顺"


def test_1305_special_hand_does_not_arrange() -> None:
    """1305 5): "如果某家出现以上的牌型，该家不用摆牌。"."""
    sf = "5h 6h 7h 8h 9h 2s 3c Jd Qs Kh Ac 4s 4d"
    assert showdown("1305", [sf, opponent("1305", sf)])["scores"] == [1, -1]
    quads = "As Ah Ad Ac 9s 2h 3h Jc Qc Ks Th 4h 5c"
    # a 炸弹 is no 1305 special: that hand must arrange
    assert best_special(parse_cards(quads), params_of(find_variant("1305"))) is None


def test_1305_several_compare_by_ladder() -> None:
    """1305: "如果多家同时出现以上牌型，这几家直接比最大牌型"."""
    sf = "5h 6h 7h 8h 9h 2s 3c Jd Qs Kh Kc 4s 4d"
    six_pairs = "2c 2d 3s 3d 6s 6c 7s 7c 9s 9c Ts Tc Ad"
    assert showdown("1305", [sf, six_pairs])["scores"] == [-1, 1]


def test_1305_others_play_1301() -> None:
    """1305 6): "其他按“比大小13张”规则比"."""
    assert showdown("1305", [A, B])["scores"] == [-1, 1]


# ---------------------------------------------------------------- 1306 13张定制1


def test_1306_order() -> None:
    """1306: "1)、一条龙 A 到 K2)、三顺子3)、三花色4)、6对半5)、5张同花顺6)、炸弹4带1"."""
    hands = [
        DRAGON,
        "As 2h 3c 4d 5s 6h 7c 8d 4s 5c 6d 7h 8s",
        "2s 5s 9s 3h 6h 8h Th Kh 4c 7c Jc Qc 2c",
        SIX_PAIRS,
        "5h 6h 7h 8h 9h 2s 3c Jd Qs Kh Ac 4s 4d",
        "As Ah Ad Ac 9s 2h 3h Jc Qc Ks Th 4h 5c",
    ]
    specials = [sp(h, "1306") for h in hands]
    assert [s.name_zh for s in specials] == [
        "一条龙",
        "三顺子",
        "三花色",
        "六对半",
        "同花顺",
        "炸弹",
    ]
    assert all(a.compare(b) == 1 for a, b in pairwise(specials))


def test_1306_exempt_others_as_1301() -> None:
    """1306: "出现以上情况免摆，其他和比大小13张一样"."""
    quads = "Ts Th Tc Td 9s 2h 3h Jc Qs Ks Ah 4s 5c"
    assert showdown("1306", [quads, opponent("1306", quads)])["scores"] == [1, -1]
    assert showdown("1306", [A, B])["scores"] == [-1, 1]
