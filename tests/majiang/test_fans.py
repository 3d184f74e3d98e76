"""鞍山麻将 fans and payment (R27-R40), quoting the text 004.

「数翻规则胡牌后,三家都付给胡牌家应付的分,点炮方会多付一番。自摸为三家点炮。付多少依据番数情况而定,
1番付2的1次方,2番付2的2次方,n番付2的n次方。」

Flip 西 (3z) unless said: 混 = 北 (4z), 明枪 = 南 (2z).
"""

from __future__ import annotations

from mj_helpers import verdict

from paiju.games.majiang.score import payments

BASE = "234m111m456p789s5z"  # 234m 111m 456p 789s + 白白: 穷胡 站立 only


def test_base_hand_has_qionghu_and_zhanli() -> None:
    """「3、穷胡:1番」「4、站立:1番(没有开门)」: no 混 held, never opened."""
    r = verdict(BASE, "5z")
    assert r["fans"] == ["穷胡", "站立"] and r["fan"] == 2


def test_qionghu_lost_by_holding_a_hun_even_as_itself() -> None:
    """R27: 穷胡 = no 混 tile at all, even one standing for itself (flip 3m: 混 4m)."""
    r = verdict(BASE, "5z", flip="3m")
    assert r["win"] and "穷胡" not in r["fans"]
    r = verdict(BASE, "5z", flip="3m", options={"qionghu": "no-wild-use"})
    assert "穷胡" in r["fans"]


def test_zhanli_lost_by_opening() -> None:
    """「站立:1番(没有开门)」: a 碰 opens the hand; a 暗杠 does not (R20)."""
    assert "站立" not in verdict("234m456p789s5z", "5z", melds="p:111m")["fans"]
    assert "站立" in verdict("234m456p789s5z", "5z", melds="a:1111m")["fans"]


def test_kong_one_fan_each() -> None:
    """「5、明(暗)杠:1番」: one fan per kong, 明杠 and 暗杠 alike (R29)."""
    r = verdict("234m456p5z", "5z", melds="k:1111m a:7777s")
    assert r["win"], r
    assert r["fans"].count("明杠") == 1 and r["fans"].count("暗杠") == 1


def test_dageda_three_natural_dragons_in_hand_or_meld() -> None:
    """「6、大哥大(中发白碰牌,手中3个也算):1番」; 中中 + 混 is no 大哥大 (R32)."""
    assert "大哥大" in verdict("234m777z456p789s1m", "1m")["fans"]
    assert "大哥大" in verdict("234m456p789s1m", "1m", melds="p:777z")["fans"]
    r = verdict("234m77z4z456p789s1m", "1m")
    assert r["win"] and "大哥大" not in r["fans"]


def test_siguiyi_four_natural_not_a_kong() -> None:
    """「7、四归一:1番」: 碰 5m + the fourth 5m in 456m; a declared kong is no 四归一 (R33)."""
    r = verdict("456m111p789s5z", "5z", melds="p:555m")
    assert "四归一" in r["fans"]
    r = verdict("456m111p789s5z", "5z", melds="k:9999m")
    assert r["win"] and "四归一" not in r["fans"]


def test_qiang_ming_one_fan_per_tile() -> None:
    """「8、枪(有几杆算几番)」「明枪房间：翻混的时候上滚那张就是枪…(如果揭的是8万，那么9万是混，
    7万就是枪)」: flip 8m, 枪 7m; two 7m are two fans."""
    r = verdict("777m111p456p789s5z", "5z", flip="8m")
    assert r["fans"].count("枪") == 3
    r = verdict("567m111p456p789s5z", "5z", flip="8m")
    assert r["fans"].count("枪") == 1


def test_qiang_an_the_tile_after_the_win_and_the_next_kind() -> None:
    """「暗枪房间：胡牌后的下一张牌是枪。最多有七个枪。(如：揭的是8万，那么8万和9万都是枪)」:
    the revealed 8m makes 8m and 9m 枪."""
    r = verdict("789m111p456p789s5z", "5z", flip="1z", qiang="an", reveal="8m")
    assert r["fans"].count("枪") == 2
    r = verdict("789m111p456p789s5z", "5z", flip="1z", qiang="an")
    assert "枪" not in r["fans"]  # wall empty: no 枪


def test_erbajiang_pair_of_natural_2s_or_8s() -> None:
    """「9、二、八可以做将,做将加1番」; 「混不能,二八」: 2m + 混 is no 二八将."""
    assert "二八将" in verdict("123m111m456p789s8p", "8p")["fans"]
    r = verdict("123m111m456p789s8p", "4z", self_drawn=True)
    assert r["win"] and "二八将" not in r["fans"]


def test_qidui_with_erba() -> None:
    """「11、七对:一番」「注：1、七对内有二八,加一番」: once, however many such pairs."""
    r = verdict("2288m1199p3355s7z", "7z")
    assert r["reason"] == "七对"
    assert r["fans"].count("七对") == 1 and r["fans"].count("二八将") == 1
    assert "站立" in r["fans"]  # R28: 七对 is always 站立


def test_shisanyao_holds_other_fans() -> None:
    """「注：2、十三幺内有大哥大,四归一,三叉,闭门,七对,都加番」: 111m 999p 777z held, 1111s."""
    r = verdict("111m999p777z1111s", "1z")
    assert r["reason"] == "十三幺"
    for fan in ("十三幺", "大哥大", "四归一", "三叉"):
        assert fan in r["fans"], (fan, r["fans"])


def test_sancha_three_natural_pungs() -> None:
    """R31: 三叉 = three natural pungs (a 混 pung does not count: 「混不能…三叉」)."""
    assert "三叉" in verdict("111m999p777s123s5z", "5z")["fans"]
    r = verdict("111m999p77s4z123s5z", "5z")
    assert r["win"] and "三叉" not in r["fans"]


def test_gangshangkaihua() -> None:
    """「12、杠上开花:一番」: a win on one's own kong replacement."""
    r = verdict("234m456p5z", "5z", melds="k:1111m a:7777s", self_drawn=True, after_kong=True)
    assert "杠上开花" in r["fans"]


def test_zimo_is_dianpao_for_all_three() -> None:
    """「2、点炮:1番(自摸为三家点炮)」: a self-drawn win lists 点炮; every loser pays it."""
    r = verdict(BASE, "5z", self_drawn=True, seat=1, dealer_seat=3)
    assert "点炮" in r["fans"]
    # 穷胡 站立 = 2; dealer 3 adds 庄; everyone adds 点炮
    assert r["pay"] == [-8, 32, -8, -16]


def test_discarder_pays_one_fan_more() -> None:
    """「点炮方会多付一番」: the discarder pays 2^(n+1), the others 2^n."""
    r = verdict(BASE, "5z", seat=0, dealer_seat=0, from_seat=2)
    # winner is dealer: 庄 on all three; 2 + 庄 = 3; discarder 4
    assert r["fans"] == ["庄", "穷胡", "站立"]
    assert r["pay"] == [8 + 16 + 8, -8, -16, -8]


def test_bimen_loser_pays_one_more() -> None:
    """R39 闭门: a loser who never opened adds a fan to his own payment; R40's example."""
    r = verdict("234m111m456p789s5z", "5z", seat=1, dealer_seat=0, from_seat=2, closed="3")
    assert r["pay"] == [-8, 24, -8, -8]


def test_payment_is_two_to_the_fan_and_sums_to_zero() -> None:
    """「1番付2的1次方,2番付2的2次方,n番付2的n次方」; 0 fan pays 2^0 = 1 (R40)."""
    assert payments(0, winner=2, dealer=2, discarder=1) == [-2, -4, 8, -2]
    for fan in range(6):
        deltas = payments(fan, winner=1, dealer=0, discarder=3, closed={2})
        assert sum(deltas) == 0
        assert deltas[3] == -(2 ** (fan + 1))


def test_zhuang_winner_only_option() -> None:
    """Option ``zhuang = "winner-only"``: a losing dealer pays no 庄 fan."""
    from paiju.games.majiang.rules import MajiangRules

    both = payments(1, winner=1, dealer=0, discarder=2)
    only = payments(1, winner=1, dealer=0, discarder=2, rules=MajiangRules(zhuang="winner-only"))
    assert both[0] == -4 and only[0] == -2
