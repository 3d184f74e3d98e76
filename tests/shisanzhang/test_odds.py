"""Exact odds (odds.py), two figures re-derived here by independent methods."""

from __future__ import annotations

import json
from itertools import combinations
from math import comb

from click.testing import CliRunner

from paiju.catalog import find_variant
from paiju.cli import cli
from paiju.games.shisanzhang.odds import TOTAL, format_odds, odds, row_counts, special_count


def test_total_and_dragon() -> None:
    """CATALOG.md: the file-001 figure for 一条龙 is wrong; the real one is about 1 in 9,462."""
    assert TOTAL == 635_013_559_600 == comb(52, 13)
    dragon = special_count("一条龙")
    assert dragon == 4**13
    assert round(TOTAL / dragon) == 9462
    assert round(TOTAL / dragon) != 12_211_799_223
    # "一条青龙：全同花的一条龙，出现机会只为158,753,389,900分之一" - this one is right
    assert TOTAL // special_count("同花十三水") == 158_753_389_900


def test_straight_flush_inside_13_cards_by_inclusion_exclusion() -> None:
    """Independent method: inclusion-exclusion over the 40 straight-flush events.

    A set of events holds the union U of their cards: C(52-|U|, 13-|U|) hands. Events of
    three suits need 15 cards, so only one- and two-suit sets count.
    """
    runs = [frozenset(range(lo, lo + 5)) for lo in range(9)] + [frozenset({12, 0, 1, 2, 3})]
    by_union: dict[int, int] = {}  # union size -> sum of (-1)^(|S|+1) over one suit's sets
    for k in range(1, len(runs) + 1):
        for chosen in combinations(runs, k):
            size = len(frozenset().union(*chosen))
            by_union[size] = by_union.get(size, 0) + (-1) ** (k + 1)
    one_suit = sum(s * comb(52 - u, 13 - u) for u, s in by_union.items())
    two_suits = sum(
        su * sv * comb(52 - u - v, 13 - u - v)
        for u, su in by_union.items()
        for v, sv in by_union.items()
        if u + v <= 13
    )
    union = 4 * one_suit - comb(4, 2) * two_suits
    assert special_count("同花顺") == union


def _textbook_categories() -> dict[str, int]:
    """Independent method: the closed forms of the five-card categories, one by one."""
    straights = 10  # A2345 … TJQKA: ten rank sets, whichever way A2345 is ordered
    return {
        "同花顺": straights * 4,
        "炸弹": 13 * 48,
        "葫芦": 13 * comb(4, 3) * 12 * comb(4, 2),
        "同花": 4 * (comb(13, 5) - straights),
        "顺子": straights * (4**5 - 4),
        "三条": 13 * comb(4, 3) * comb(12, 2) * 4**2,
        "两对": comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,
        "对子": 13 * comb(4, 2) * comb(12, 3) * 4**3,
        "散牌": (comb(13, 5) - straights) * (4**5 - 4),
    }


def test_row_categories_agree_with_closed_forms() -> None:
    rows5, rows3 = row_counts("second")
    assert rows5 == _textbook_categories()
    assert sum(rows5.values()) == comb(52, 5)
    assert row_counts("lowest")[0] == rows5  # A2345 moves in the order, not out of it
    assert rows3 == {"散牌": comb(13, 3) * 4**3, "对子": 13 * comb(4, 2) * 48, "三条": 13 * 4}


def test_three_flushes_by_suit_distribution() -> None:
    """三花色: suit patterns 5-5-3, 8-5, 10-3 and 13 (rows may share a suit)."""

    def pattern(counts: tuple[int, ...]) -> int:
        ways = 1
        for n in counts:
            ways *= comb(13, n)
        return ways

    expected = (
        12 * pattern((5, 5, 3))  # choose which suit gets 3 (4) and which is void (3)
        + 12 * pattern((8, 5))
        + 12 * pattern((10, 3))
        + 4 * pattern((13,))
    )
    assert special_count("三花色") == expected


def test_odds_contract_and_text() -> None:
    result = odds(find_variant("1303"))
    assert set(result) == {"total", "specials", "rows5", "rows3"}
    assert list(result["specials"]) == [
        "同花十三水",
        "一条龙",
        "六对半",
        "三顺子",
        "三花色",
        "全大",
        "全小",
    ]
    assert sum(result["rows5"].values()) == comb(52, 5)
    text = format_odds(find_variant("1303"), result)
    assert "1 in 9,462.4" in text and "12,211,799,223" not in text
    out = CliRunner().invoke(cli, ["odds", "1304", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["specials"]["全黑一张红"] == comb(26, 12) * 26


def test_shaoxing_three_flushes_need_three_different_suits() -> None:
    """File 001 rule 五 (绍兴): "三花色（只要是3个不同的花色，不用管牌数字是不是连接的）" —
    1304 and 1305 count only the 5-5-3 suit pattern, as the game does."""
    five_five_three = 12 * comb(13, 5) ** 2 * comb(13, 3)
    for code in ("1304", "1305"):
        assert odds(find_variant(code))["specials"]["三花色"] == five_five_three
    assert odds(find_variant("1303"))["specials"]["三花色"] > five_five_three
