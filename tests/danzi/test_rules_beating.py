"""What beats what in 宁城打弹子 (N22-N36): the cross-kind rules, the ladder, 取牌 with 4s."""

from __future__ import annotations

from danzi_helpers import beat, combo, verdict

from paiju.games.danzi.combos import LADDER


def test_n22_equal_never_beats() -> None:
    """N22: only a strictly higher combination, or a 取牌, beats the table."""
    assert not beat("RJ", "RJ")
    assert not beat("567", "567")
    assert not beat("KKKKAAAA", "KKKKAAAA")
    assert verdict("567", "567").reason == "equal"


def test_n23_plain_kinds_do_not_cross() -> None:
    """N23 "单牌，对牌，单龙，双龙不可互相比较"."""
    assert not beat("5", "66") and not beat("66", "7") and not beat("345", "334455")
    assert not beat("334455", "678") and not beat("345", "4567")
    for bomb in ("444", "RJ BJ", "KKKKAAAA"):
        assert not beat(bomb, "3") and not beat(bomb, "33")  # a plain kind never beats a bomb


def test_n24_three_card_zhazi_over_plain() -> None:
    """N24 "3个砟子可管单牌，对牌，单龙，不可管单王"."""
    assert beat("3", "444") and beat("33", "444") and beat("45678910JQKA", "444")
    assert not beat("RJ", "444") and not beat("BJ", "333")
    assert not beat("334455", "333")  # 双龙 only from four cards up


def test_n25_four_card_zhazi_over_plain() -> None:
    """N25 "4个及以上砟子可管单牌，对牌，单龙，双龙" - single jokers too (A7)."""
    for n in (4, 5, 6):
        for plain in ("3", "RJ", "BJ", "33", "345", "334455", "4455667788991010JJQQKKAA"):
            assert beat(plain, "5" * n), (n, plain)


def test_n26_higher_bombs_over_plain() -> None:
    """N26: every bomb kind from 双王 up beats every plain play (A8)."""
    for bomb in ("BJ BJ", "5555555", "KKKKAAAA", "RJ RJ BJ", "RJRJBJBJ", "666777888"):
        for plain in ("RJ", "33", "A2345", "JJQQKK"):
            assert beat(plain, bomb), (bomb, plain)


def test_n27_ladder_below_twelve() -> None:
    """N27 "假12>三减>4连蛋>三王>假十>三连蛋>真8>假8>真7>双王>砟子"."""
    low_to_high = [
        "333333",  # the highest 砟子
        "BJ BJ",  # the lowest 双王
        "4444444",  # the lowest 真7
        "AAAA2222",  # the lowest 假8
        "44444444",  # the lowest 真8
        "AAA222333",  # the lowest 三连蛋
        "AAAAA22222",  # the lowest 假10
        "RJ RJ BJ",  # 三王
        "AAA222333444",  # the lowest 4连蛋
        "AAAA22223333",  # the lowest 三减
        "AAAAAA222222",  # the lowest 假12
    ]
    for i, high in enumerate(low_to_high):
        for low in low_to_high[:i]:
            assert beat(low, high) and not beat(high, low), (low, high)
    assert beat("333333", "BJ BJ")  # "双王 beats even a 6-card 砟子 of 3s"
    assert beat("KKKKKAAAAA", "BJ RJ BJ")  # 三王 beats every 假10


def test_n28_twelve_cards_and_more() -> None:
    """N28 "大牌型（张数大于等于12张）的情况下：1.以张数大小比较" and
    "444455556666（三减）>333444555666（4连蛋）"."""
    assert beat("333444555666", "444455556666")
    assert beat("JJJQQQKKKAAA", "AAAA22223333")  # more per rank first, then top
    assert beat("AAAA22223333", "AAAAAA222222")  # 假12 (6 per rank) > 三减
    assert beat("AAAA222233334444", "AAAAAAAA22222222")  # 假16 > 四减 (A10)
    # 六减 (24 cards, 4 per rank) > 8连蛋 (24 cards, 3 per rank) (A10)
    assert beat("444555666777888999101010JJJ", "444455556666777788889999")
    assert beat("QQQQKKKKAAAA", "AAAAAAA2222222")  # 假14 (14 cards) > any 12-card kind


def test_n29_four_jokers() -> None:
    """N29 "四王介于16张和14张的大牌型中间 … 555556666677777>四王>555666777888999（5连蛋）"."""
    assert beat("RJRJBJBJ", "555556666677777") and not beat("555556666677777", "RJRJBJBJ")
    assert beat("555666777888999", "RJRJBJBJ") and not beat("RJRJBJBJ", "555666777888999")
    assert beat("KKKKKKKAAAAAAA", "RJRJBJBJ")  # above every 14-card kind
    assert beat("RJRJBJBJ", "AAAA222233334444")  # below every 16-card kind


def test_n30_whole_ladder() -> None:
    """N30: each row of the ladder beats every row before it."""
    rows = [
        "555",
        "5555",
        "55555",
        "555555",
        "BJ BJ",
        "5555555",
        "AAAA2222",
        "55555555",
        "AAA222333",
        "AAAAA22222",
        "RJ RJ BJ",
        "AAA222333444",
        "AAAA22223333",
        "AAAAAA222222",
        "AAAAAAA2222222",
        "AAA222333444555",
        "RJRJBJBJ",
        "AAAAA2222233333",
        "AAAA222233334444",
        "AAAAAAAA22222222",
        "AAA222333444555666",
        "AAAA2222333344445555",
        "AAA222333444555666777",
        "AAA222333444555666777888",
        "AAAA22223333444455556666",
        "AAA222333444555666777888999",
    ]
    combos = [combo(r) for r in rows]
    assert all(c is not None for c in combos), rows
    assert [c.row for c in combos if c is not None] == list(range(1, 27))
    assert sorted(LADDER.values()) == list(range(1, 27))
    for i, high in enumerate(rows):
        for low in rows[:i]:
            assert beat(low, high) and not beat(high, low), (low, high)


def test_n31_kinds_that_cannot_meet_still_compare() -> None:
    """N31: 三王 against 三王 and 三王 against 四王 answer by the order as given."""
    assert not beat("RJ RJ BJ", "RJ BJ BJ")  # all 三王 are equal (A3)
    assert beat("RJ RJ BJ", "RJRJBJBJ")


def test_n32_take_sizes() -> None:
    """N32 "单张4不可取牌,对4可取3个的砟子,三个4可取4个或者5个的砟子，4个4可取6个的砟子"."""
    assert verdict("555", "44") == (True, True, "take")
    assert verdict("333", "44").take  # the rank of the taken 砟子 does not matter
    assert verdict("5555", "444").take and verdict("55555", "444").take
    assert verdict("555555", "4444").take
    assert not verdict("555", "4").beats
    assert not verdict("5555", "44").beats and not verdict("555555", "444").beats
    assert not verdict("5555555", "4444").beats  # only a 砟子 can be taken
    for other in ("55555555", "KKKKAAAA", "666777888", "RJ BJ", "RJ RJ BJ"):
        for fours in ("44", "444", "4444"):
            assert not verdict(other, fours).take, (other, fours)
    assert verdict("333", "4444").beats and not verdict("333", "4444").take  # a longer 砟子


def test_n33_fours_that_took_can_be_taken() -> None:
    """N33 "当3个4或者4个4用来取牌时，本身就位3个或者4个的砟子，因此也可以被相应个数的4取走"."""
    assert verdict("444", "44").take
    assert verdict("4444", "444").take
    assert verdict("44444", "444").take


def test_n34_after_a_take_the_fours_are_the_table() -> None:
    """N34 "4取牌之后即算打出的牌": 44 is a 对牌, 444 a 3-card 砟子, 4444 a 4-card one."""
    assert combo("44").kind == "对牌" and beat("44", "55")  # type: ignore[union-attr]
    assert beat("444", "555") and beat("444", "3333") and verdict("444", "44").take
    assert beat("4444", "5555") and verdict("4444", "444").take
    assert not beat("44", "5") and beat("44", "555")


def test_n36_fours_are_ordinary_cards() -> None:
    """N36: 4 is the lowest single, 44 the lowest pair; 4s run in sequences (345, A234, 445566)."""
    assert beat("4", "5") and beat("44", "55") and beat("444", "555")
    for text in ("345", "A234", "445566", "33334444"):
        assert combo(text) is not None, text
