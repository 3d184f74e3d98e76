"""Exact odds (odds.py), two figures re-derived here by independent methods."""

from __future__ import annotations

import json
from itertools import combinations
from math import comb

import numpy as np
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


def _brute_force_categories() -> dict[str, int]:
    """Independent method: classify every one of the 2,598,960 five-card rows with numpy."""
    hands = np.array(list(combinations(range(52), 5)), dtype=np.int64)
    ranks, suits = hands // 4, hands % 4
    counts = np.zeros((len(hands), 13), dtype=np.int64)
    for i in range(5):
        counts[np.arange(len(hands)), ranks[:, i]] += 1
    shape = -np.sort(-counts, axis=1)
    flush = (suits == suits[:, :1]).all(axis=1)
    present = counts > 0
    wheel = present[:, [12, 0, 1, 2, 3]].all(axis=1)
    window = np.stack([present[:, lo : lo + 5].all(axis=1) for lo in range(9)]).any(axis=0)
    straight = (wheel | window) & (shape[:, 0] == 1)
    a, b = shape[:, 0], shape[:, 1]
    return {
        "同花顺": int((straight & flush).sum()),
        "炸弹": int((a == 4).sum()),
        "葫芦": int(((a == 3) & (b == 2)).sum()),
        "同花": int((flush & ~straight).sum()),
        "顺子": int((straight & ~flush).sum()),
        "三条": int(((a == 3) & (b == 1)).sum()),
        "两对": int(((a == 2) & (b == 2)).sum()),
        "对子": int(((a == 2) & (b == 1)).sum()),
        "散牌": int(((a == 1) & ~flush & ~straight).sum()),
    }


def test_row_categories_agree_with_brute_force() -> None:
    rows5, rows3 = row_counts("second")
    assert rows5 == _brute_force_categories()
    assert row_counts("lowest")[0] == rows5  # A2345 moves in the order, not out of it
    assert rows3 == {"散牌": 18304, "对子": 3744, "三条": 52}


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
