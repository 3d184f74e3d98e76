"""宁城打弹子 rank orders and combinations (N4-N21), each test quoting the text it checks."""

from __future__ import annotations

import itertools

import pytest
from danzi_helpers import beat, combo, kind, ranks

from paiju.cards import parse_cards
from paiju.errors import IllegalAction
from paiju.games.danzi.combos import KINDS, SINGLE, classify, combo_of, counts_of, rank_name


def test_n4_suits_never_count() -> None:
    """N4 "数值" / "牌点": cards of equal rank are equal, whatever the suit."""
    assert combo_of("5s 5h") == combo_of("5c 5d")
    assert combo_of("5s 5s") == combo_of("5h 5d")  # two identical cards of two decks
    assert not beat("5", "5")
    assert combo_of("3s 4s 5s").key == combo_of("3h 4d 5c").key


def test_n5_single_order() -> None:
    """N5 "大王>小王>3>2>A>K>Q>J>10>9>8>7>6>5>4" and "33>22>AA>KK>…>44"."""
    order = ["RJ", "BJ", "3", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]
    for high, low in itertools.pairwise(order):
        assert beat(low, high) and not beat(high, low), (high, low)
    pairs = ["33", "22", "AA", "KK", "QQ", "JJ", "1010", "99", "88", "77", "66", "55", "44"]
    for high, low in itertools.pairwise(pairs):
        assert beat(low, high) and not beat(high, low), (high, low)
    assert [rank_name(i) for i in sorted(range(15), key=lambda i: -SINGLE[i])] == [
        "RJ", "BJ", "3", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4",
    ]  # fmt: skip


def test_n6_sequence_order() -> None:
    """N6 "345A234" (two examples), "KA2不能相连", "AKQ（冒到顶）>A23", "KQJ109>A2345"."""
    assert kind("345") == "单龙" and kind("A234") == "单龙"
    assert kind("KA2") is None
    assert kind("QKA") == "单龙" and beat("A23", "AKQ")
    assert beat("A2345", "KQJ109") and not beat("KQJ109", "A2345")
    assert combo("234").top_name == "4" and combo("A23").top_name == "3"  # type: ignore[union-attr]
    assert beat("A23", "234")  # 2 and 3 at their natural places
    full = combo("A2345678910JQK")
    assert full is not None and full.top_name == "A"  # 13 ranks count as 2…A
    assert kind("A2345678910JQKA") is None  # one A, not both ends (A5)


def test_n7_same_rank_kinds_order_without_jokers() -> None:
    """N7 "大小同单牌（除去大小王）… 3>2>A>K>Q>J>10>9>8>7>6>5>4"."""
    order = ["3", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]
    for n in (3, 4, 5, 6, 7, 8):
        for high, low in itertools.pairwise(order):
            assert beat(low * n, high * n) and not beat(high * n, low * n), (n, high, low)


def test_n8_sequence_lists_name_the_top() -> None:
    """N8 "A>K>Q>J>10>9>8>7>6>5>4>3>2" under 假8: KKKKAAAA highest, "AAAA2222为假8中最小"."""
    tops = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    pos = {
        r: i
        for i, r in enumerate(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
    }
    fakes = []
    for top in tops:
        below = (
            ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"][pos[top] - 1]
            if top != "A"
            else "K"
        )
        fakes.append(combo(below * 4 + top * 4))
    assert all(f is not None and f.kind == "假8" for f in fakes)
    keys = [f.key for f in fakes if f is not None]
    assert keys == sorted(keys, reverse=True)
    assert min(keys) == combo("AAAA2222").key  # type: ignore[union-attr]
    assert kind("KKKKAAAA2222") is None  # the "2" of 三减's list cannot occur
    assert combo("AAAA22223333").top_name == "3"  # type: ignore[union-attr]


def test_n9_single() -> None:
    """N9 "单张牌。如：红桃 5" - any one card, jokers included."""
    assert combo_of("5h").kind == "单牌"
    assert combo_of("RJ").kind == "单牌" and combo_of("BJ").kind == "单牌"


def test_n10_single_dragon() -> None:
    """N10 "数值相连续的三张及以上单牌" and "在张数相同的前提下"."""
    assert kind("345") == "单龙" and kind("34") is None
    assert kind("5") == "单牌"
    with pytest.raises(IllegalAction, match="no combination"):
        combo_of("5s 6h")  # two cards are not a 单龙
    assert not beat("345", "5678") and not beat("5678", "345")  # same length only
    assert kind("3456789") == "单龙" and kind("345 BJ") is None


def test_n11_pair() -> None:
    """N11 "数值相同的两张牌。如：梅花 4+ 方块 4"; two jokers are 双王, not 对牌."""
    assert combo_of("梅花4 方块4").kind == "对牌"
    assert combo_of("5s 5s").kind == "对牌"
    assert kind("RJ BJ") == "双王" and kind("RJ RJ") == "双王"


def test_n12_double_dragon() -> None:
    """N12 "数值相连续的三对及以上对牌", "KKAA22不能相连", "556677>445566"."""
    assert kind("334455") == "双龙" and kind("7788991010") == "双龙"
    assert kind("3344557788991010") is None  # two examples run together: 66 is missing
    assert kind("KKAA22") is None and kind("5566") is None
    assert beat("445566", "556677")
    assert not beat("445566", "55667788")


def test_n13_zhazi() -> None:
    """N13 "3-6张牌点相同的牌 … 张数多的大于张数小的", "3336666" = 333 and 6666."""
    for n in (3, 4, 5, 6):
        assert kind("7" * n) == "砟子"
    assert kind("333") == "砟子" and kind("6666") == "砟子" and kind("3336666") is None
    assert beat("333", "4444") and beat("333333", "4444444")
    assert beat("4444", "33333") and not beat("33333", "44444")
    assert kind("RJ RJ BJ") == "三王"  # jokers never form a 砟子


def test_n14_true_seven_and_eight() -> None:
    """N14 "7张牌点相同的牌。如：5555555", "8张牌点相同的牌。如：55555555"."""
    assert kind("5555555") == "真7" and kind("55555555") == "真8"
    assert beat("3333333", "4444444" + "4") and beat("4444444", "5555555")
    assert not beat("5555555", "4444444")


def test_n15_fake_eight_family() -> None:
    """N15 "两个连续的4张牌的砟子 如：KKKKAAAA", "由假8可衍生出假10假12假14假16"."""
    assert kind("KKKKAAAA") == "假8"
    assert kind("KKKKKAAAAA") == "假10"
    assert kind("KKKKKKAAAAAA") == "假12"
    assert kind("KKKKKKKAAAAAAA") == "假14"
    assert kind("KKKKKKKKAAAAAAAA") == "假16"
    assert beat("AAAA2222", "KKKKAAAA") and not beat("KKKKAAAA", "AAAA2222")
    assert kind("KKKKAAAA2222") is None  # would wrap
    assert kind("555566667777") == "三减"  # 3 × 4 is 三减, not 假12


def test_n16_lian_dan() -> None:
    """N16 "3个及以上连续的3张牌的砟子 … 3连蛋开始总共可达到9连蛋 … KKKAAA222不能相连"."""
    assert kind("666777888") == "连蛋"
    assert kind("KKKAAA222") is None and kind("555666") is None
    nine = combo("444555666777888999101010JJJQQQ")
    assert nine is not None and nine.kind == "连蛋" and nine.groups == 9 and nine.cards == 27
    assert beat("QQQKKKAAA", "333444555666")  # "张数多的连蛋为大"
    assert beat("666777888", "777888999") and not beat("777888999", "666777888")


def test_n17_jian() -> None:
    """N17 "3个及以上连续的4张牌的砟子 如：666677778888" and
    "其中AAAA22223333为最小的三减 （X减张数多的为大）"."""
    assert kind("666677778888") == "三减"
    assert kind("4444555566667777") == "四减"
    assert kind("44445555666677778888") == "五减"
    assert kind("444455556666777788889999") == "六减"
    assert beat("666677778888", "4444555566667777")
    smallest = combo("AAAA22223333")
    assert smallest is not None
    for top in ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]:
        assert beat("AAAA22223333", _three_jian(top)), top
    assert smallest.kind == "三减"
    assert kind("66667777") == "假8"


def _three_jian(top: str) -> str:
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    i = len(order) - 1 - order[::-1].index(top)
    return "".join(r * 4 for r in order[i - 2 : i + 1])


def test_n18_fake_fifteen() -> None:
    """N18 "3个相连的5张牌的砟子 如555556666677777 （…游戏中暂时没有可连出牌型） 参考假8及连蛋"."""
    c = combo("555556666677777")
    assert c is not None and c.kind == "假15" and c.top_name == "7"
    assert kind("55555666667777788888") is None  # no four fives
    assert kind("555555666666777777") is None  # no three sixes
    assert kind("555555566666667777777") is None
    assert beat("555556666677777", "666667777788888")


def test_n19_jokers() -> None:
    """N19 "双王：一对王  三王：三个王  四王：四个王  四王>三王>双王 其中双大王>双小王"."""
    assert kind("RJ BJ") == "双王" and kind("RJ RJ BJ") == "三王" and kind("RJRJBJBJ") == "四王"
    assert beat("RJ BJ", "RJ RJ BJ") and beat("RJ RJ BJ", "RJ RJ BJ BJ")
    assert beat("BJ BJ", "RJ RJ") and beat("BJ BJ", "RJ BJ") and beat("RJ BJ", "RJ RJ")
    assert kind("RJ 3") is None and kind("BJ BJ 5") is None and kind("RJ 345") is None


def test_n20_nothing_else() -> None:
    """N20: mixed group sizes, gaps, wraps, two-group runs of pairs or triples, jokers mixed."""
    for text in ("5555666", "444455555", "3579", "KA2", "5566", "555666", "44 RJ", "34567 9"):
        assert kind(text) is None, text
    assert set(KINDS) >= {kind("5"), kind("55"), kind("555666777888")}


def test_n21_no_play_over_27_cards() -> None:
    """N21: a hand holds 27 cards, so 七减 (28) and a 10-triple run (30) are no play."""
    assert kind("4444555566667777888899991010101010") is None  # 七减
    assert kind("444555666777888999101010JJJQQQKKK") is None  # 10连蛋
    assert classify(counts_of(parse_cards("5s " * 9))) is None  # a card nine times
    assert len(ranks("444555666777888999101010JJJQQQ")) == 27
