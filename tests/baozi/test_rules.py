"""Rule-clause tests of the two-card evaluator: one test per row of CATALOG.md §2 and §3,
each quoting the rule text (file 000) it checks, plus the worked examples of the texts."""

from __future__ import annotations

import pytest

from paiju.catalog import find_variant
from paiju.games.baozi.compare import compare_text
from paiju.games.baozi.rules import Evaluator, evaluator
from paiju.games.baozi.spec import params_of


def ev(code: str) -> Evaluator:
    return evaluator(find_variant(code))


def winner(code: str, banker: str, player: str) -> str:
    """Who wins, the banker's hand given first."""
    return ev(code).compare_text(banker, player)


def name(code: str, cards: str) -> str:
    return ev(code).read_text(cards).name


def beats(code: str, high: str, low: str) -> bool:
    """``high`` beats ``low`` from either seat (no tie rule involved)."""
    return winner(code, low, high) == "player" and winner(code, high, low) == "banker"


# --------------------------------------------------------------------------- 宝子 rows


def test_2001_pairs_a_high_points_then_top_card() -> None:
    rule = "J 算1点、Q 算2点、K 算3点1）对子最大对 A 最大，到对 K，对2最小2）不成对子，比点数，9点最大，0点最小3）同点比最大的牌"  # noqa: E501
    assert rule in find_variant("2001").rules_zh
    assert beats("2001", "As Ah", "Ks Kh") and beats("2001", "3s 3h", "2s 2h")
    assert beats("2001", "2s 2h", "4c 5d")  # any pair beats 9 points
    assert name("2001", "Jc 8d") == "9点" and name("2001", "Kc 7d") == "0点"
    assert name("2001", "Qc Td") == "2点"
    assert beats("2001", "9c Td", "8c Kd")  # 9 points against 8 + 3 = 1 point
    assert beats("2001", "Ac 8d", "Kc 6d")  # 9 = 9: A+8 > K+6 by the top card
    assert beats("2001", "Kc 6d", "Qc 7d")  # 9 = 9: K+6 > Q+7
    assert winner("2001", "Ac 8d", "Ah 8s") == "push"  # same ranks: push
    assert beats("2001", "9c 5d", "8c 6d")  # 4 = 4, top card 9 > 8


def test_2002_jqk_zero_top_card_a_high() -> None:
    rule = "J,Q,K 算0点，其他规则和52张宝子相同比最大牌时 A>K>…>2"
    assert rule in find_variant("2002").rules_zh
    assert name("2002", "Kc Qd") == "0点" and name("2002", "Jc 9d") == "9点"
    assert beats("2002", "Ac 8d", "Kc 9d")  # 9 = 9: A > K
    assert beats("2002", "As Ah", "Ks Kh")


def test_2003_same_colour_pairs_k_high_banker_ties() -> None:
    rule = "对 K，到对 Q对 A，要分红对和黑对的，红心 K+黑桃 K 不算对子"
    assert rule in find_variant("2003").rules_zh
    assert name("2003", "Kh Ks") == "6点"  # 红心K+黑桃K 不算对子
    assert name("2003", "Kh Kd") == "对K" and name("2003", "Ks Kc") == "对K"
    assert beats("2003", "Ks Kc", "Qh Qd") and beats("2003", "2s 2c", "As Ac")
    assert beats("2003", "As Ac", "4c 5d")
    # 3）同点庄家大: equal points and equal pairs go to the banker
    assert winner("2003", "4c 5d", "3h 6s") == "banker"
    assert winner("2003", "Kh Kd", "Ks Kc") == "banker"


def test_2004_pairs_by_card_points_banker_ties() -> None:
    rule = "对子最大对 K 和对3一样大，对10最大，对 A 最小"
    assert rule in find_variant("2004").rules_zh
    assert winner("2004", "Kd Kh", "3c 3s") == "banker"  # 对K = 对3, 同点庄家大
    assert winner("2004", "3c 3s", "Kd Kh") == "banker"
    assert beats("2004", "Ts Th", "9s 9h") and beats("2004", "4s 4h", "Kd Kh")
    assert beats("2004", "Kd Kh", "Qs Qh") and beats("2004", "2s 2h", "As Ah")
    assert winner("2004", "Js Jh", "As Ah") == "banker"  # JJ = AA
    assert beats("2004", "As Ah", "Jc 8d")
    assert winner("2004", "Jc 8d", "4h 5s") == "banker"  # 不成对子，比点数，同点庄家大


def test_2005_k_high_pairs_top_card_a_lowest() -> None:
    rule = (
        "对子最大对 K 最大，到对 Q，对 A 最小2）不成对子，比点数，9点最大，0点最小3）同点比最大牌"
    )
    assert rule in find_variant("2005").rules_zh
    assert beats("2005", "Ks Kh", "Qs Qh") and beats("2005", "2s 2h", "As Ah")
    assert beats("2005", "Kc 6d", "Ac 8d")  # top card K > … > 2 > A
    assert beats("2005", "Kc Jd", "Kh Ad")  # 4 = 4, top K = K, then J > A
    assert beats("2001", "Kh Ad", "Kc Jd")  # where A is the highest single card
    assert winner("2005", "Kc 6d", "Kh 6s") == "push"


def test_2006_jokers_three_points_joker_pair_top() -> None:
    rule = "大小王算3点，J 算1点、Q 算1点、K 算1点1）对子最大对王>对 A>对 K>对 Q>…>对2"
    assert rule in find_variant("2006").rules_zh
    assert name("2006", "RJ BJ") == "对王" and name("2006", "RJ 6c") == "9点"
    assert name("2006", "Qc Kd") == "2点"
    assert beats("2006", "RJ BJ", "As Ah") and beats("2006", "As Ah", "Ks Kh")
    assert beats("2006", "RJ 6c", "Ac 8d")  # 3）同点比最大牌, 王>A>K>Q>……>2
    assert winner("2006", "RJ 6c", "BJ 6d") == "push"  # 大王 and 小王 are one rank


def test_2007_mixed_face_cards_beat_points() -> None:
    rule = "混合J、Q、K 中的两张混合，同是混合看最大牌，如黑 K+Q>红 K+J"
    assert rule in find_variant("2007").rules_zh
    assert name("2007", "Ks Qc") == "K+Q"
    assert beats("2007", "Ks Qc", "Kh Jd")  # 黑 K+Q > 红 K+J
    assert beats("2007", "Kh Jd", "Qs Jc")
    assert beats("2007", "Qs Jc", "9c Td")  # 混合 beats every points hand
    assert beats("2007", "2s 2h", "Ks Qc")  # pairs beat 混合
    assert winner("2007", "Ks Qc", "Kh Qd") == "push"
    assert name("2007", "Ks 9c") == "9点"


def test_2008_joker_pair_equals_aa_then_joker_ace() -> None:
    rule = "对子最大对王 = 对 A > 王+A > 对 K > 对 Q >…> 对2"
    assert rule in find_variant("2008").rules_zh
    assert winner("2008", "RJ BJ", "As Ah") == "push"  # 对王 = 对A
    assert name("2008", "RJ As") == "王+A"
    assert beats("2008", "As Ah", "RJ Ac") and beats("2008", "BJ Ad", "Ks Kh")
    assert beats("2008", "Ac 8d", "Kc 6d")  # 同点不同牌比最大牌：A+8 > K+6
    assert winner("2008", "Ac 8d", "As 8h") == "push"  # 梅 A+方8 = 黑 A+红8
    assert winner("2008", "RJ 8d", "As 8h") == "push"  # a joker ranks as A


def test_2009_forty_cards_ten_high_points_no_tie_break() -> None:
    rule = "40张牌，A-10，每家2张1）对子最大对10 >…> 对 A，对 A 最小 2）不成对子，比点数，10点最大，1点最小3）不分花色，不分牌大小"  # noqa: E501
    assert rule in find_variant("2009").rules_zh
    assert name("2009", "Tc Ts") == "对10" and name("2009", "4c 6d") == "10点"
    assert beats("2009", "4c 6d", "Ac 8d")  # 10 > 9 points
    assert beats("2009", "Tc Td", "4c 6d")  # 对10 is a pair, above 10 points
    assert beats("2009", "2c 2d", "Ac Ad") and beats("2009", "Ac Ad", "4c 6d")
    assert winner("2009", "Ac 8d", "2c 7d") == "push"  # 不分牌大小
    with pytest.raises(ValueError, match="not a card of the 2009 deck"):
        ev("2009").read_text("Kc 2d")


def test_2010_red_cards_break_ties_then_banker() -> None:
    rule = "对子最大对10 >…> 对 A；两红 > 一红一黑 > 两黑 2）不成对子，比点数，9点最大，0点最小；同点时 两红 > 一红一黑 > 两黑3）同点，黑红个数一样，庄家大"  # noqa: E501
    assert rule in find_variant("2010").rules_zh
    assert beats("2010", "Th Td", "Ts Tc")  # same pair: two red > two black
    assert beats("2010", "9s 9c", "Ah Ad")  # 对9 > 对A, whatever the colours
    assert beats("2010", "Ah 8d", "As 8c")  # 9 = 9: two red > two black
    assert beats("2010", "Ah 8c", "2s 7c")  # one red > two black
    assert winner("2010", "Ah 8c", "2h 7c") == "banker"  # same red count: 庄家大
    assert name("2010", "Tc 4d") == "4点"


def test_2011_joker_six_same_colour_red_k_equals_black_k() -> None:
    rule = "大小王算6点，J=1点,Q=2点,K=3点，1)、对王>对 K>对 Q>对 A，分红对和黑对，红心 K+黑桃 K 不算对子,但红 K 对=黑K 对"  # noqa: E501
    assert rule in find_variant("2011").rules_zh
    assert name("2011", "RJ 3c") == "9点" and name("2011", "RJ BJ") == "对王"
    assert name("2011", "Kh Ks") == "6点" and name("2011", "9h 9d") == "8点"
    assert beats("2011", "RJ BJ", "Kh Kd") and beats("2011", "Kh Kd", "Qs Qc")
    assert beats("2011", "As Ac", "RJ 3c")
    assert winner("2011", "Ks Kc", "Kh Kd") == "banker"  # 红K对 = 黑K对: 同点庄家大


def test_2012_and_2013_only_four_pairs_banker_ties() -> None:
    assert "对王>对 K>对 Q>对 A" in find_variant("2012").rules_zh
    assert "大小王、J、Q、K=1点" in find_variant("2013").rules_zh
    assert name("2012", "9s 9h") == "8点" and name("2012", "Js Jh") == "2点"
    assert name("2012", "RJ 8c") == "9点" and name("2013", "Kc 8d") == "9点"
    assert beats("2012", "RJ BJ", "Ks Kh") and beats("2013", "As Ah", "RJ 8c")
    assert name("2013", "Qs Qh") == "对Q" and name("2013", "Kh Ks") == "对K"
    assert winner("2012", "4c 5d", "Ac 8d") == "banker"


def test_2014_ace_counts_four() -> None:
    rule = "J=1点、Q=2点、K=3点，A=4点1）对子最大对 A > 对 K > 对 Q >...> 对3 > 对2"
    assert rule in find_variant("2014").rules_zh
    assert name("2014", "Ac 5d") == "9点" and name("2014", "Ac Kd") == "7点"
    assert beats("2014", "Ac 5d", "Kc 6d")  # 9 = 9: 4）单牌 A > K
    assert beats("2014", "As Ah", "Ks Kh")


def test_2015_threes_and_twos_top_then_suit() -> None:
    rule = "1）对子最大对3 > 对2 > 对 A > 对 K > 对 Q >...> 对5 > 对42）不成对子，比点数，9点最大，0点最小3）同点同对比花色，同点比最大牌4）单牌 3 > 2 > A > K > Q > ... > 5 > 4"  # noqa: E501
    assert rule in find_variant("2015").rules_zh
    assert beats("2015", "3s 3h", "2s 2h") and beats("2015", "2c 2d", "As Ah")
    assert beats("2015", "5s 5h", "4s 4h")
    assert beats("2015", "Ks Kd", "Kh Kc")  # same pair: 黑桃 is the better card
    assert beats("2015", "3c 6d", "Ac 8d")  # 9 = 9: 3 > A
    assert beats("2015", "As 8d", "Ah 8c")  # same ranks: suit of the top card


def test_2016_two_red_or_two_black_pairs_then_colours_then_banker() -> None:
    rule = "1)对子最大对王>对 A>对 K>....>对3>对2,分红对和黑对，两红或两黑才算对子2)没有对子比点数9点>8点>...>1点>0点3)同点比最大的牌（如 K+8>Q+8，此时不比花色）4)同点同牌比花色（两红>一红一黑>两黑）5)单牌：王>A>K>....>3>26)同点同牌同花庄大"  # noqa: E501
    assert rule in find_variant("2016").rules_zh
    assert name("2016", "Ah As") == "2点"  # red + black aces: no pair
    assert name("2016", "Ah Ad") == "对A" and name("2016", "RJ BJ") == "对王"
    assert beats("2016", "Kc 8d", "Qc 8h")  # K+8 > Q+8, 此时不比花色
    assert beats("2016", "Kh 8d", "Kc 8s")  # 同点同牌: 两红 > 两黑
    assert beats("2016", "Kh 8s", "Kc 8c")  # 一红一黑 > 两黑
    assert winner("2016", "Kh 8s", "Kd 8c") == "banker"  # 同点同牌同花庄大
    assert beats("2016", "Kh Kd", "Ks Kc")  # equal pairs: two red > two black
    assert beats("2016", "RJ 8c", "Ac 8d")  # 单牌 王 > A


def test_2017_is_2016_dealt_two_at_a_time() -> None:
    assert "规则同54张宝子1" in find_variant("2017").rules_zh
    p16, p17 = params_of(find_variant("2016")), params_of(find_variant("2017"))
    assert p16.dealing == "one_at_a_time" and p17.dealing == "two_at_once"
    assert p16.model_dump(exclude={"dealing"}) == p17.model_dump(exclude={"dealing"})


def test_2018_best_suit_then_top_card() -> None:
    rule = "1）对子最大对 A>对10>>…>对2 2）没对子比点数9点> 8点>…>0点3）同对，同点比花色（黑>红>梅>方） ，同花比最大牌（A>10>9>…>2）"  # noqa: E501
    assert rule in find_variant("2018").rules_zh
    assert beats("2018", "As Ad", "Ts Th") and beats("2018", "Ts Th", "9s 9h")
    assert beats("2018", "2c 7s", "Ah 8h")  # 9 = 9: 黑桃 beats 红心
    assert beats("2018", "Ah 8c", "3h 6d")  # both best 红心: top card A > 6
    assert beats("2018", "Ts Tc", "Th Td")  # same pair by suit
    assert name("2018", "Tc 9d") == "9点"


def test_2019_joker_ace_is_two_points() -> None:
    rule = "对王 = 对 A > 对 K > 对 Q >…> 对2，对2最小 2）不成对子，比点数，9点最大，0点最小 ,王+A ＝ 2点"  # noqa: E501
    assert rule in find_variant("2019").rules_zh
    assert name("2019", "RJ As") == "2点"
    assert winner("2019", "RJ BJ", "As Ah") == "push"
    assert beats("2019", "2s 2h", "RJ Ac")
    assert beats("2019", "RJ Ac", "Kc 9d")  # 2 = 2: the joker ranks as A
    assert beats("2019", "Ac 8d", "Kc 6d")  # A+8 > K+6


def test_2020_zero_points_banker_before_cards() -> None:
    rule = "1)、对王>对 K>对 Q>对 A，分红对和黑对，红心 K+黑桃 K 不算对子, 红对 > 黑对2)、不成对子，比点数，9点最大,0点最小3)、同点比最大牌4)、特殊的是：同是0点庄家大"  # noqa: E501
    assert rule in find_variant("2020").rules_zh
    assert name("2020", "Kh Ks") == "6点"
    assert beats("2020", "Kh Kd", "Ks Kc")  # 红对 > 黑对
    assert winner("2020", "5c 5d", "Kc 7d") == "banker"  # both 0 points: banker
    assert winner("2020", "Kc 7d", "5c 5d") == "banker"
    assert beats("2020", "Kc 6d", "Qc 7d")  # 9 = 9: top card
    assert winner("2020", "Kc 6d", "Kh 6s") == "push"
    assert name("2020", "RJ 3c") == "9点"


def test_2021_only_tens_and_fives_pair_ten_high_banker() -> None:
    rule = "大小王,J,Q,K 都算1点1)、对子最大，只有对10和对5是算对子（对10>对5） ，其他都不算对子2)、无对子算点数，10点最大，1点最小，同点庄家大"  # noqa: E501
    assert rule in find_variant("2021").rules_zh
    assert beats("2021", "Ts Th", "5s 5h") and beats("2021", "5s 5h", "4c 6d")
    assert name("2021", "4c 6d") == "10点" and name("2021", "9s 9h") == "8点"
    assert name("2021", "Kc 9d") == "10点"
    assert winner("2021", "4c 6d", "Kc 9d") == "banker"


# --------------------------------------------------------------------------- 佳佳宝 rows


def test_2101_as_2001_on_forty_cards() -> None:
    assert (
        "40张牌，A 到10，每家4张牌，分成2组，大小规则和2001宝子相同"
        in find_variant("2101").rules_zh
    )
    assert beats("2101", "As Ah", "Ts Th") and beats("2101", "Ac 8d", "Tc 9d")
    assert name("2101", "Tc 9d") == "9点"


def test_2103_top_card_ace_lowest() -> None:
    assert "同点比最大牌 K>Q>……>2>A" in find_variant("2103").rules_zh
    assert beats("2103", "Kc 6d", "Ac 8d") and beats("2103", "As Ah", "Ks Kh")


def test_2104_no_points_high_card() -> None:
    assert "1）不算点数，不分花色" in find_variant("2104").rules_zh
    assert name("2104", "Ac 2d") == "散牌"
    assert beats("2104", "Ac 2d", "Kc Qd") and beats("2104", "Ac 3d", "Ah 2s")
    assert beats("2104", "2c 2d", "Ac Kd")
    assert winner("2104", "Ac 2d", "Ah 2s") == "push"


def test_2105_and_2106_joker_ace() -> None:
    assert "对子最大对王 = 对 A > 王+A > 对 K" in find_variant("2105").rules_zh
    assert "大小王、J、Q、K 全部算0点" in find_variant("2106").rules_zh
    for code in ("2105", "2106"):
        assert name(code, "RJ Ac") == "王+A"
        assert winner(code, "RJ BJ", "As Ah") == "push"
        assert beats(code, "As Ah", "RJ Ac") and beats(code, "RJ Ac", "Ks Kh")
        assert beats(code, "Ac 8d", "2c 7h")  # 9 = 9: top card 8 > 7
    assert name("2105", "RJ 8c") == "9点" and name("2106", "RJ 9c") == "9点"


def test_2107_suit_of_the_top_card() -> None:
    assert "6） 、同点同牌比花色" in find_variant("2107").rules_zh
    assert beats("2107", "As 8d", "Ah 8c") and beats("2107", "Ks Kd", "Kh Kc")
    assert beats("2107", "Ac 8d", "Kc 9d")


def test_2108_ace_counts_one_joker_pair_top() -> None:
    rule = "J、Q、K、A、大小王 = 1点"
    assert rule in find_variant("2108").rules_zh
    assert name("2108", "Kc 8d") == "9点" and name("2108", "RJ 8c") == "9点"
    assert beats("2108", "RJ BJ", "As Ah") and beats("2108", "As Ah", "Ks Kh")
    assert name("2108", "As Ah") == "对A"  # 对子不分花色，如黑 A+红 A 算对子
    assert beats("2108", "RJ 8c", "Ac 8d")


# ----------------------------------------------------------------------- the contract


def test_compare_contract_baozi() -> None:
    out = compare_text("2008", "Kd 6h", "As 8c")
    assert out["winner"] == "player"
    assert out["banker"]["kind"] == "points" and out["banker"]["points"] == 9
    assert out["player"]["cards"] == "As 8c"


def test_compare_contract_jiajiabao() -> None:
    out = compare_text("2105", "Kc 2h / As Ad", "9c 9d / RJ Ah")
    assert out["winner"] == "push"
    assert out["groups"] == {"front": "player", "back": "banker"}
    assert out["player"]["groups"] == "9c 9d / Ah RJ"
    assert out["player"]["back"]["name"] == "王+A"


def test_compare_rejects_shared_cards_and_bad_groups() -> None:
    with pytest.raises(ValueError, match="cannot be in both hands"):
        compare_text("2001", "As Kd", "As 2c")
    with pytest.raises(ValueError, match="two groups"):
        compare_text("2105", "As Ad Kc 2h", "9c 9d RJ Ah")
    with pytest.raises(ValueError, match="fixed grouping rule"):
        compare_text("2104", "As Kd / Qc Jh", "9c 9d / 8h 7h")
