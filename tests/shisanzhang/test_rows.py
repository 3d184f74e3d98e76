"""Row evaluation (rows.py) against the rule texts of files 000/001 and an independent evaluator."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.cards import Card, deck, parse_cards
from paiju.games.shisanzhang.rows import (
    CATEGORIES,
    RowRules,
    is_foul,
    row_category,
    row_value,
)

PLAIN = RowRules()
SUITS = RowRules(suit_ties=True)
LOW = RowRules(straight_a2345="lowest")


def v(text: str, rules: RowRules = PLAIN) -> int:
    return row_value(parse_cards(text), rules)


def cat(text: str, rules: RowRules = PLAIN) -> str:
    return CATEGORIES[row_category(v(text, rules))]


def test_category_order_of_file_000() -> None:
    """rule = "大小顺序：同花顺>炸弹>葫芦>同花>顺子>三条>两对>一对>5单张" (1301)."""
    ladder = [
        "2s 5h 7c 9d Js",
        "2s 2h 7c 9d Js",
        "2s 2h 7c 7d Js",
        "2s 2h 2c 9d Js",
        "2s 3h 4c 5d 6s",
        "2s 5s 7s 9s Js",
        "2s 2h 2c 9d 9s",
        "2s 2h 2c 2d 3s",
        "2s 3s 4s 5s 6s",
    ]
    values = [v(h) for h in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert [cat(h) for h in ladder] == list(CATEGORIES)


def test_straight_order_1301() -> None:
    """rule = "杂顺：A至10最大，A至5第二大，2至6最小" (file 001 rule 7; 1301 per rule 6 note)."""
    assert v("Ts Jh Qc Kd As") > v("As 2h 3c 4d 5s") > v("9s Th Jc Qd Ks") > v("2s 3h 4c 5d 6s")
    assert v("Ts Js Qs Ks As") > v("As 2s 3s 4s 5s") > v("9s Ts Js Qs Ks")


def test_straight_order_points_and_baomahui() -> None:
    """rule = "顺子和同花顺，A2345最小（在比大小13张中A2345 比 910JQK大）" (file 001 rule 6)."""
    assert v("As 2h 3c 4d 5s", LOW) < v("2s 3h 4c 5d 6s", LOW)
    assert v("As 2s 3s 4s 5s", LOW) < v("2h 3h 4h 5h 6h", LOW)
    assert cat("As 2h 3c 4d 5s", LOW) == "顺子"


def test_no_wrap() -> None:
    """CATALOG.md §1: "Straights never wrap (QKA2 is not one)"."""
    assert cat("Qs Kh Ac 2d 3s") == "散牌"


def test_front_row_knows_only_three_categories() -> None:
    """rule = "头段因为只有三张牌，因此不算顺、花。只可能是不成花式（称无头），一对或三条。"."""
    assert cat("2s 3s 4s") == "散牌"
    assert cat("Qs Qh 4s") == "对子"
    assert cat("Qs Qh Qd") == "三条"


def test_front_compares_with_middle_by_category_then_ranks() -> None:
    """CATALOG.md §1: "a 3-card front compares with a 5-card middle by category, then by ranks"."""
    assert v("As Ad Kc") > v("Ks Kd Ac Qc Jd")
    assert v("As Ad Kc") < v("Ah Ac Kd Qc Jd")
    assert v("As Ad Ac") > v("Ks Kd Kh Qc Jd")
    assert v("As Kd Qc") < v("2s 2d 3c 4c 5d")


def test_kickers_and_pairs() -> None:
    """rule = "二对…先比这副牌中最大的一对，如又相同再比第二对、如又相同再比单张牌大小"."""
    assert v("Ks Kh 3c 3d 2s") > v("Qs Qh Jc Jd As")
    assert v("Ks Kh 4c 4d 2s") > v("Kc Kd 3s 3h As")
    assert v("Ks Kh 4c 4d 3s") > v("Kc Kd 4s 4h 2c")
    assert v("Ks Kh 9c 4d 3s") > v("Kc Kd 8s 7h 6c")


def test_full_house_by_triple() -> None:
    """rule = "葫芦…若别家也有此牌型，则比三张数字大小" (QQQ33 > JJJ99)."""
    assert v("Qs Qh Qc 3s 3d") > v("Js Jh Jc 9s 9d")


def test_suit_ties_1303() -> None:
    """1303 rule 12: "对子…如牌型全部相同以对子的花色大小轮输赢，黑桃>红心>梅花>方块"."""
    assert v("As Ac 3c 4d 5s", SUITS) > v("Ah Ad 3d 4c 5h", SUITS)
    assert v("As Ac 3c 4d 5s") == v("Ah Ad 3d 4c 5h")
    # front pairs too (CATALOG.md: "the 对子 suit tie-break applies to front rows too")
    assert v("Ah Ad 3c", SUITS) < v("As Ac 3d", SUITS)
    # 杂顺: "以最大那张牌的花色大小轮输赢"; the A of A2345 is its top card
    assert v("Ts Jh Qc Kd Ad", SUITS) < v("Td Jd Qh Kc As", SUITS)
    assert v("Ad 2s 3s 4s 5s", SUITS) < v("As 2d 3d 4d 5d", SUITS)
    # 同花: after all ranks, the suit
    assert v("2s 5s 7s 9s Js", SUITS) > v("2h 5h 7h 9h Jh", SUITS)
    assert v("2s 5s 7s 9s Js", SUITS) < v("2h 5h 7h 9h Qh", SUITS)
    # 两对: suit of the higher pair's best card
    assert v("Kh Kc 3s 3h 2d", SUITS) < v("Ks Kd 3c 3d 2h", SUITS)
    # 散牌 and trips never by suit
    assert v("As Kd 9c 4d 3s", SUITS) == v("Ad Ks 9d 4c 3d", SUITS)


def test_foul_judged_without_suits() -> None:
    """CATALOG.md §1: "Fouls are judged by category and ranks only, never by suits"."""
    front, middle = parse_cards("As Ac 3d"), parse_cards("Ah Ad 3c 2h 2d")
    back = parse_cards("Ks Kh Kc 9s 9h")
    assert not is_foul(front, middle, back, SUITS)
    assert is_foul(parse_cards("As Ac 4d"), parse_cards("Ah Ad 3c 2h 2d"), back, SUITS) is False
    assert is_foul(parse_cards("Ks Kc 4d"), parse_cards("Qh Qd 3c 2h 5d"), back, PLAIN)
    assert is_foul(
        parse_cards("2s 3c 4d"), parse_cards("Ks Kh Kc 9s 9h"), parse_cards("Ah Ad 3c 2h 5d"), PLAIN
    )


# ---- an independent evaluator: tuples compared the textbook way ------------------


def reference_key(cards: Sequence[Card], rules: RowRules) -> tuple[int, ...]:
    ranks = sorted((c.rank for c in cards), reverse=True)
    counts = Counter(ranks)
    by_group = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    grouped: list[int] = []
    for r in by_group:
        if r not in grouped:
            grouped.append(r)
    grouped += [0] * (5 - len(grouped))
    if len(cards) == 3:
        kind = {1: 0, 2: 1, 3: 3}[max(counts.values())]
        return (kind, *grouped)
    flush = len({c.suit for c in cards}) == 1
    distinct = sorted(set(ranks))
    top: int | None = None
    if len(distinct) == 5 and distinct[4] - distinct[0] == 4:
        top = distinct[4] + (1 if rules.straight_a2345 == "second" and distinct[4] == 14 else 0)
    elif distinct == [2, 3, 4, 5, 14]:
        top = 14 if rules.straight_a2345 == "second" else 5
    shape = sorted(counts.values(), reverse=True)
    if top is not None:
        return (8 if flush else 4, top, 0, 0, 0, 0)
    if flush:
        return (5, *grouped)
    kind = {
        (4, 1): 7,
        (3, 2): 6,
        (3, 1, 1): 3,
        (2, 2, 1): 2,
        (2, 1, 1, 1): 1,
        (1, 1, 1, 1, 1): 0,
    }[tuple(shape)]
    return (kind, *grouped)


rows5 = st.lists(st.sampled_from(deck("52")), min_size=5, max_size=5, unique=True)
rows35 = st.lists(st.sampled_from(deck("52")), min_size=3, max_size=5, unique=True).filter(
    lambda cs: len(cs) != 4
)


@settings(max_examples=300)
@given(rows35, rows35, st.sampled_from(["second", "lowest"]))
def test_order_agrees_with_reference(a: list[Card], b: list[Card], order: str) -> None:
    rules = RowRules(straight_a2345=order)  # type: ignore[arg-type]
    ka, kb = reference_key(a, rules), reference_key(b, rules)
    va, vb = row_value(a, rules), row_value(b, rules)
    assert (va < vb) == (ka < kb)
    assert (va == vb) == (ka == kb)
    assert CATEGORIES[row_category(va)] == CATEGORIES[ka[0]]


@settings(max_examples=200)
@given(rows5)
def test_suit_ties_only_refine(cards: list[Card]) -> None:
    """Suit tie-breaks never change the order of rows that differ in category or ranks."""
    plain, suited = row_value(cards, PLAIN), row_value(cards, SUITS)
    assert suited >> 2 == plain >> 2
    assert (suited & 3 != 0) <= (row_category(plain) in (1, 2, 4, 5, 8))


def test_category_counts_over_all_five_card_rows_sampled() -> None:
    """Every category is reachable and a random row's category matches the reference."""
    rng = random.Random(7)
    cards52 = list(deck("52"))
    seen = set()
    for _ in range(3000):
        hand = rng.sample(cards52, 5)
        seen.add(row_category(row_value(hand, PLAIN)))
    assert seen >= {0, 1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("n", [1, 2, 4, 6])
def test_bad_row_length(n: int) -> None:
    with pytest.raises(ValueError, match="3 or 5"):
        row_value(deck("52")[:n], PLAIN)


@pytest.mark.parametrize(
    ("order", "digest"),
    [
        ("second", "39f3e3bec7fb17500db4ccf85dd16a0e"),
        ("lowest", "bca43c62ccdc24085a9a100e0b681e01"),
    ],
)
def test_rank_tables_are_pinned(order: str, digest: str) -> None:
    """Golden md5 of the import-time rank tables: any change to the encoding is caught."""
    import hashlib

    from paiju.games.shisanzhang.rows import TABLES

    t = TABLES[order]
    h = hashlib.md5()
    for array in (t.keys5, t.plain5, t.flush5, t.keys3, t.plain3):
        h.update(array.tobytes())
    assert h.hexdigest() == digest
    assert len(t.keys5) == 6175 and len(t.keys3) == 455
