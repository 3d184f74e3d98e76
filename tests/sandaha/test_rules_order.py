"""三打哈 rule text 003: 【牌型】 and 【牌型的比较】 — card order, pairs, tractors."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from sandaha_helpers import P

from paiju.cards import deck
from paiju.games.sandaha.rules import NO_TRUMP, TRUMP, decompose, order, trick_winner

HEARTS, NT = 1, NO_TRUMP


def shapes(cards: str, trump: int) -> list[tuple[int, str]]:
    return [(c.pairs, str(c)) for c in decompose(P(cards), trump)]


def is_tractor(cards: str, trump: int) -> bool:
    comps = decompose(P(cards), trump)
    return len(comps) == 1 and comps[0].pairs == len(P(cards)) // 2 >= 2


def test_single_and_pair_types() -> None:
    """单牌类型：一张单牌；对牌类型：两张相同花色的牌，比如红桃44，黑桃66"""
    assert shapes("6s 6s", HEARTS) == [(1, "6s 6s")]
    assert shapes("Ks", HEARTS) == [(0, "Ks")]
    # CATALOG reading: a pair is two identical cards, so 7h 7c (both 7s) is two singles.
    assert shapes("7s 7c", HEARTS) == [(0, "7s"), (0, "7c")]


def test_side_suit_tractors() -> None:
    """拉机型：副牌中同花色相邻两对或更多的对构成拖拉机 … 副牌：5566，JJQQ，6688"""
    assert is_tractor("5s 5s 6s 6s", HEARTS)
    assert is_tractor("Js Js Qs Qs", HEARTS)
    assert is_tractor("6s 6s 8s 8s", HEARTS), "7 is always trump, so 6 and 8 are neighbours"
    assert is_tractor("Js Js Qs Qs Ks Ks", HEARTS)
    assert not is_tractor("Js Js Ks Ks", HEARTS)


def test_trump_tractors_across_the_trump_ranks() -> None:
    """主牌相邻的2对或更多也可以构成拖拉机 …
    主拖拉机：大王小王，小王主7，主7副7，副7主2，副2AA，AAKK"""
    assert is_tractor("RJ RJ BJ BJ", HEARTS)
    assert is_tractor("BJ BJ 7h 7h", HEARTS)
    assert is_tractor("7h 7h 7s 7s", HEARTS)
    assert is_tractor("7c 7c 2h 2h", HEARTS)
    assert is_tractor("2h 2h 2d 2d", HEARTS), "主2副2 (from the comparison list)"
    assert is_tractor("2d 2d Ah Ah", HEARTS)
    assert is_tractor("Ah Ah Kh Kh", HEARTS)
    assert is_tractor("RJ RJ BJ BJ 7h 7h 7s 7s 2h 2h 2c 2c Ah Ah", HEARTS)


def test_what_is_not_a_tractor() -> None:
    """下列情况不为拖拉机： 6677，7788；打无主时：7777、2222不为拖拉机。"""
    assert not is_tractor("6s 6s 7s 7s", HEARTS)
    assert not is_tractor("7s 7s 8s 8s", HEARTS)
    assert not is_tractor("6h 6h 7h 7h", HEARTS), "主6 and 主7 are not neighbours"
    assert not is_tractor("7s 7s 7c 7c", NT)
    assert not is_tractor("2s 2s 2c 2c", NT)
    assert not is_tractor("7s 7s 7c 7c", HEARTS), "two 副7 pairs are equal, not neighbours"
    # At no-trump the missing 主7/主2 levels are skipped (CATALOG reading).
    assert is_tractor("BJ BJ 7s 7s", NT)
    assert is_tractor("7s 7s 2c 2c", NT)


def test_trump_order() -> None:
    """点数大小，从大到小依次为：大王、小王、主7、副7、主2、副2、主A、K、Q、J、10、9、8、6、5。"""
    o = order(HEARTS)
    ladder = P("RJ BJ 7h 7s 2h 2c Ah Kh Qh Jh Th 9h 8h 6h 5h")
    levels = [o.level[c] for c in ladder]
    assert levels == sorted(levels, reverse=True) and len(set(levels)) == len(levels)
    assert o.level[P("7s")[0]] == o.level[P("7d")[0]], "副7s are equal"
    assert all(o.suit[c] == TRUMP for c in ladder)


def test_side_suit_order() -> None:
    """副牌：A、K、Q、J、10、9、8、6、5 。"""
    o = order(HEARTS)
    ladder = P("As Ks Qs Js Ts 9s 8s 6s 5s")
    levels = [o.level[c] for c in ladder]
    assert levels == sorted(levels, reverse=True) and len(set(levels)) == 9
    assert {o.suit[c] for c in ladder} == {0}


def _winner(plays: list[tuple[int, str]], trump: int) -> int:
    return trick_winner([(s, P(cards)) for s, cards in plays], trump)


def test_pair_order() -> None:
    """对牌类型：对大王，对小王、对主7，对副7，对主2，对副2，对主A副牌：AA、KK、QQ、JJ、1010、99、88、66、55。"""
    ladder = ["RJ RJ", "BJ BJ", "7h 7h", "7s 7s", "2h 2h", "2c 2c", "Ah Ah", "Kh Kh"]
    for low, high in zip(ladder[1:], ladder, strict=False):
        assert _winner([(0, low), (1, high)], HEARTS) == 1, f"{high} beats {low}"
        assert _winner([(0, high), (1, low)], HEARTS) == 0
    side = ["As As", "Ks Ks", "Qs Qs", "Js Js", "Ts Ts", "9s 9s", "8s 8s", "6s 6s", "5s 5s"]
    for low, high in zip(side[1:], side, strict=False):
        assert _winner([(0, low), (1, high)], HEARTS) == 1


def test_tractor_order() -> None:
    """拖拉机型：大王小王，小王主7 … 副牌：AAKK最大，KKQQ,QQJJ,JJ1010以此到6655。
    拖拉机在牌张数相同的情况下，按点数大小比较最大的一张。"""
    assert _winner([(0, "Ks Ks Qs Qs"), (1, "As As Ks Ks")], HEARTS) == 1
    assert _winner([(0, "6s 6s 5s 5s"), (1, "8s 8s 6s 6s")], HEARTS) == 1
    assert _winner([(0, "BJ BJ 7h 7h"), (1, "RJ RJ BJ BJ")], HEARTS) == 1
    assert _winner([(0, "Ah Ah Kh Kh"), (1, "2d 2d Ah Ah")], HEARTS) == 1
    assert _winner([(0, "As As Ks Ks"), (1, "Qs Qs Js Js")], HEARTS) == 0


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], int]:
    cards = draw(st.lists(st.sampled_from(deck("92")), min_size=1, max_size=21))
    trump = draw(st.integers(0, 4))
    o = order(trump)
    suit = o.suit[cards[0]]
    return [c for c in cards if o.suit[c] == suit], trump


@settings(max_examples=200, deadline=None)
@given(hands())
def test_decompose_keeps_every_card_once(case: tuple[list[int], int]) -> None:
    cards, trump = case
    comps = decompose(cards, trump)
    assert Counter(c for comp in comps for c in comp.cards) == Counter(cards)
    o = order(trump)
    for comp in comps:
        if comp.pairs >= 2:
            tops = sorted({o.level[c] for c in comp.cards})
            assert tops == list(range(tops[0], tops[0] + comp.pairs)), "consecutive levels"
    kinds = [min(comp.pairs, 2) for comp in comps]
    assert kinds == sorted(kinds, reverse=True), "tractors, then pairs, then singles"


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 4), st.sampled_from(deck("92")), st.sampled_from(deck("92")))
def test_a_trump_single_beats_any_side_single(trump: int, a: int, b: int) -> None:
    o = order(trump)
    if o.suit[a] != TRUMP and o.suit[b] == TRUMP:
        assert trick_winner([(0, (a,)), (1, (b,))], trump) == 1
