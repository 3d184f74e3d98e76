"""进贡, 还贡 and 骚贡 of 宁城打弹子 (N50-N55) as pure rules, each test quoting the text."""

from __future__ import annotations

import pytest
from danzi_helpers import ranks

from paiju.cards import format_cards, parse_cards
from paiju.errors import IllegalAction
from paiju.games.danzi.tribute import (
    auto_tribute,
    check_return,
    check_tribute,
    is_free,
    returnable,
)

HAND = ranks("RJ BJ 3 3 2 A K Q J 10 9 8 7 6 5 4 4 4")


def _ranks_of(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [format_cards([c])[:-1] if format_cards([c]) not in ("RJ", "BJ") else format_cards([c])
            for c in cards]  # fmt: skip


def test_n50_automatic_biggest_cards() -> None:
    """N50 "三游和末游自动各拿出两张最大的牌", "末游给头游自动进贡4张最大的牌"."""
    assert format_cards(auto_tribute(HAND, 4)) == "RJ BJ 3s 3h"
    assert _ranks_of(auto_tribute(ranks("3 3 3 2 2 A K"), 4)) == ["3", "3", "3", "2"]
    assert _ranks_of(auto_tribute(ranks("3 3 3 2 2 A K"), 2)) == ["3", "3"]
    check_tribute(HAND, 2, parse_cards("RJ BJ"))
    with pytest.raises(IllegalAction) as err:
        check_tribute(HAND, 2, parse_cards("RJ 3s"))
    assert err.value.reason == "tribute_not_biggest"
    # equal ranks may be swapped (N4): any two of the three 3s
    check_tribute(ranks("3 3 3 2 A"), 2, parse_cards("3h 3c"))


def test_n51_free_tribute_sao_gong() -> None:
    """N51 "在手中没有王，3，2的时候，进贡方可以自主选择需要进贡的牌"."""
    plain = ranks("A K Q J 10 9 8 7 6 5 4")
    assert is_free(plain)
    check_tribute(plain, 2, parse_cards("5s 6s"))
    for blocker in ("2", "3", "RJ", "BJ"):
        hand = (*plain, *ranks(blocker))
        assert not is_free(hand)
        with pytest.raises(IllegalAction):
            check_tribute(hand, 2, parse_cards("5s 6s"))


def test_n52_fours_never_tribute() -> None:
    """N52 "4不能成为进贡的牌" - under 骚贡 too."""
    plain = ranks("A K 4 4 4 4 4 4 4 4")
    assert _ranks_of(auto_tribute(ranks("4 4 4 5 6"), 2)) == ["6", "5"]
    with pytest.raises(IllegalAction) as err:
        check_tribute(plain, 2, parse_cards("4s Ks"))
    assert err.value.reason == "four_in_tribute"


def test_n53_return_card_for_card() -> None:
    """N53 "进贡方得到贡牌之后，须拿出同样张数的牌作为还贡"."""
    hand = (*HAND, *parse_cards("2h 2c"))
    check_return(hand, parse_cards("2h 2c"), parse_cards("5s 6s"))
    with pytest.raises(IllegalAction) as err:
        check_return(hand, parse_cards("2h 2c"), parse_cards("5s"))
    assert err.value.reason == "return_wrong_count"
    with pytest.raises(IllegalAction) as err:
        check_return(hand, parse_cards("2h 2c"), parse_cards("5s 5d"))
    assert err.value.reason == "cards_not_in_hand"


def test_n54_no_return_of_the_same_value() -> None:
    """N54 "作为还贡的牌不能与进贡的牌数值相同 …（进贡了大王的话，小王就不能作为还贡牌）"."""
    hand = ranks("RJ RJ BJ 3 3 2 A K 5 5")
    with pytest.raises(IllegalAction) as err:
        check_return(hand, parse_cards("RJ 3s"), parse_cards("BJ 5s"))
    assert err.value.reason == "return_same_value"
    with pytest.raises(IllegalAction):
        check_return(hand, parse_cards("BJ 2s"), parse_cards("RJ 5s"))  # symmetric (A12)
    with pytest.raises(IllegalAction):
        check_return(hand, parse_cards("RJ 3s"), parse_cards("3h 5s"))
    check_return(hand, parse_cards("RJ 3s"), parse_cards("2s As"))  # higher is fine (A13)


def test_n55_no_fours_back() -> None:
    """N55 "4同样不能作为还贡的牌"."""
    with pytest.raises(IllegalAction) as err:
        check_return(ranks("RJ 3 4 5"), parse_cards("RJ 3s"), parse_cards("4s 5s"))
    assert err.value.reason == "four_in_return"


def test_return_fallback_when_n54_leaves_too_few_cards() -> None:
    """N53 "须拿出同样张数的牌作为还贡", N54 "不能与进贡的牌数值相同", N55 "4同样不能作为还贡的牌":
    the text has no rule for a hand that cannot meet all three. Ours: every card of another
    value goes back first, the rest are made up of a tribute card's value, never a 4."""
    received = parse_cards("3d 2c Ac Ad")
    only = ranks("4 4 4 4 4 4 4 4 3 3 3 3 3 3 3 2 2 2 2 2 2 A A A A A A")
    hand = (*only, *received)
    free, fill = returnable(hand, received)
    assert free == [] and len(fill) == 4 + 7 + 6 + 6  # no 4 among them
    check_return(hand, received, parse_cards("3s 2s As Ah"))
    with pytest.raises(IllegalAction) as err:
        check_return(hand, received, parse_cards("3s 2s As 4s"))
    assert err.value.reason == "four_in_return"  # N55 stands
    # two cards of other values (K K): both go back, then two of a tribute card's value
    two = (*only[:-2], *ranks("K K"), *received)
    check_return(two, received, parse_cards("Ks Kh 3s As"))
    with pytest.raises(IllegalAction) as err:
        check_return(two, received, parse_cards("Ks 3s 3h As"))
    assert err.value.reason == "return_others_first"
    # a hand that can meet N54 still must (the fallback is no way around it)
    assert returnable(HAND, parse_cards("RJ 3s"))[1] == []
