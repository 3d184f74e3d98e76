"""Exact odds of 十三张: special 13-card hands and the categories of every row.

Everything is counted, not sampled, over the C(52,13) = 635,013,559,600 hands of one
deck (and C(52,5), C(52,3) rows):

* rank-only shapes (一条龙, 六对半, 五对三条, 炸弹, 三条, 对子) by generating polynomials
  over the 13 ranks: a rank held ``c`` times can be chosen in C(4, c) ways;
* 三顺子 by the set of rank-count vectors three straights can make, each weighted by its
  suit choices;
* suit-only shapes (三花色, 全黑一张红 …) by suit-count vectors;
* a 5-card 同花顺 inside 13 cards by counting, per suit-count vector, the rank sets of each
  suit that hold no run of 5 (A low or high);
* rows by rank multisets with their suit multiplicities (4 flush suits of 5 distinct ranks).

The figure of file 001 for 一条龙 ("约为12,211,799,223分之一") is wrong: the count is 4^13 =
67,108,864 hands, about 1 in 9,463 (CATALOG.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations_with_replacement, product
from math import comb, prod
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from paiju.games.shisanzhang.rows import CATEGORIES, TABLES, row_category

if TYPE_CHECKING:
    from paiju.catalog import Variant
    from paiju.games.shisanzhang.spec import ShisanzhangParams

__all__ = [
    "TOTAL",
    "family_report",
    "format_odds",
    "odds",
    "row_counts",
    "special_count",
]

TOTAL: Final = comb(52, 13)
"""Hands of 13 cards from one 52-card deck: 635,013,559,600."""

Poly = list[int]


def _mul(a: Poly, b: Poly, limit: int = 13) -> Poly:
    out = [0] * (limit + 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b[: limit + 1 - i]):
                out[i + j] += x * y
    return out


def _power(p: Poly, n: int, limit: int = 13) -> Poly:
    out: Poly = [1]
    for _ in range(n):
        out = _mul(out, p, limit)
    return out + [0] * (limit + 1 - len(out))


def _ranks_poly(allowed: Sequence[int]) -> Poly:
    """One rank's choices: x^c weighted C(4, c) for the allowed counts c."""
    return [comb(4, c) if c in allowed else 0 for c in range(5)]


# ------------------------------------------------------------------ rank shapes


def _dragon() -> int:
    """一条龙 / 十三水: 13 distinct ranks."""
    return 4**13


def _six_pairs_and_a_half() -> int:
    """六对半: 6 pairs + 1 single, a quad counting as 2 pairs, no triple."""
    rest = _power(_ranks_poly((0, 2, 4)), 12)
    return 13 * comb(4, 1) * rest[12]


def _five_pairs_and_trips() -> int:
    """五对三条: 5 pairs + a triple, a quad may be 2 of the pairs."""
    rest = _power(_ranks_poly((0, 2, 4)), 12)
    return 13 * comb(4, 3) * rest[10]


def _no_count_at_least(k: int) -> int:
    """Hands in which no rank is held ``k`` or more times."""
    return _power(_ranks_poly(tuple(range(k))), 13)[13]


def _contains_quads() -> int:
    """炸弹 anywhere in the hand: some rank held 4 times."""
    return TOTAL - _no_count_at_least(4)


def _contains_trips() -> int:
    """三条 anywhere in the hand: some rank held 3 or more times."""
    return TOTAL - _no_count_at_least(3)


def _contains_pair() -> int:
    """对子 anywhere in the hand: some rank held twice or more (all but 一条龙)."""
    return TOTAL - _no_count_at_least(2)


def _straights(length: int) -> list[tuple[int, ...]]:
    """Rank sets (2..14) of the straights of ``length`` cards, A high or low, no wrap."""
    runs = [tuple(range(low, low + length)) for low in range(2, 16 - length)]
    runs.append((14, *range(2, 1 + length)))
    return runs


def _three_straights() -> int:
    """三顺子: the cards split into a 3-card straight and two 5-card straights."""
    vectors = set()
    for s3 in _straights(3):
        for s5a, s5b in combinations_with_replacement(_straights(5), 2):
            counts = [0] * 15
            for r in (*s3, *s5a, *s5b):
                counts[r] += 1
            vectors.add(tuple(counts[2:]))
    return sum(prod(comb(4, c) for c in v) for v in vectors)


def _range_hand(ranks: Sequence[int]) -> int:
    """全大/全小/半大/半小: all 13 cards among the given ranks."""
    return comb(4 * len(set(ranks)), 13)


# ------------------------------------------------------------------ suit shapes


def _suit_vectors() -> list[tuple[int, int, int, int]]:
    return [(a, b, c, d) for a, b, c, d in product(range(14), repeat=4) if a + b + c + d == 13]


def _by_suit_vector(accept: Callable[[tuple[int, int, int, int]], bool]) -> int:
    """Hands whose cards per suit (s h c d) make an accepted vector."""
    return sum(prod(comb(13, n) for n in v) for v in _suit_vectors() if accept(v))


def _three_flushes(distinct: bool = False) -> int:
    """三花色: the cards split 3+5+5 with each row of one suit (rows may share a suit; with
    ``distinct``, as the 绍兴 text reads "3个不同的花色", the three rows are of three suits)."""
    reachable = set()
    for suits in product(range(4), repeat=3):
        if distinct and len(set(suits)) < 3:
            continue
        counts = [0, 0, 0, 0]
        for size, suit in zip((3, 5, 5), suits, strict=True):
            counts[suit] += size
        reachable.add(tuple(counts))
    return _by_suit_vector(lambda v: v in reachable)


def _one_off_colour() -> int:
    """全黑一张红 (and, the same count, 全红一张黑): exactly 12 black and 1 red card."""
    return comb(26, 12) * comb(26, 1)


def _flush_dragon() -> int:
    """同花十三水: 13 distinct ranks of one suit."""
    return 4


@cache
def _rank_sets_without_run() -> tuple[int, ...]:
    """Per size k, the k-rank sets of one suit holding no 5 consecutive ranks (A low too)."""
    runs = [sum(1 << (r - 2) for r in run) for run in _straights(5)]
    counts = [0] * 14
    for mask in range(1 << 13):
        if not any(mask & run == run for run in runs):
            counts[mask.bit_count()] += 1
    return tuple(counts)


def _contains_straight_flush() -> int:
    """A 5-card 同花顺 anywhere in the 13 cards."""
    free = _rank_sets_without_run()
    without = sum(prod(free[n] for n in v) for v in _suit_vectors())
    return TOTAL - without


# ------------------------------------------------------------------ the table of names


def _counters(params: ShisanzhangParams | None) -> dict[str, Callable[[], int]]:
    ranges = params.range_ranks if params is not None else {}
    default_ranges = {
        "全大": (6, 7, 8, 9, 10, 11, 12, 13),
        "全小": (2, 3, 4, 5, 6, 7, 8, 9, 10),
        "半大": (6, 7, 8, 9, 10, 11, 12, 13, 14),
        "半小": (14, 2, 3, 4, 5, 6, 7, 8, 9, 10),
    }
    merged = {**default_ranges, **ranges}
    return {
        "同花十三水": _flush_dragon,
        "一条龙": _dragon,
        "全黑一张红": _one_off_colour,
        "全红一张黑": _one_off_colour,
        "五对三条": _five_pairs_and_trips,
        "六对半": _six_pairs_and_a_half,
        "三顺子": _three_straights,
        "三花色": lambda: _three_flushes(
            params is not None and params.three_flush_suits == "distinct"
        ),
        "全大": lambda: _range_hand(merged["全大"]),
        "全小": lambda: _range_hand(merged["全小"]),
        "半大": lambda: _range_hand(merged["半大"]),
        "半小": lambda: _range_hand(merged["半小"]),
        "同花顺": _contains_straight_flush,
        "炸弹": _contains_quads,
        "三条": _contains_trips,
        "对子": _contains_pair,
    }


def special_count(name: str, params: ShisanzhangParams | None = None) -> int:
    """How many of the C(52,13) hands have the special shape ``name`` (a ladder name).

    ``同花顺``, ``炸弹``, ``三条`` and ``对子`` count hands that contain one.
    """
    counters = _counters(params)
    if name not in counters:
        raise KeyError(f"unknown special hand {name!r}; known: {', '.join(counters)}")
    return counters[name]()


# ------------------------------------------------------------------ rows


@cache
def row_counts(straight_a2345: str = "second") -> tuple[dict[str, int], dict[str, int]]:
    """Category counts of all C(52,5) five-card rows and C(52,3) three-card fronts."""
    tables = TABLES[straight_a2345]
    rows5 = dict.fromkeys(CATEGORIES, 0)
    for ranks in combinations_with_replacement(range(2, 15), 5):
        counts = [ranks.count(r) for r in set(ranks)]
        if max(counts) > 4:
            continue
        key = sum(5 ** (r - 2) for r in ranks)
        plain, flush = tables.lookup5[key]
        ways = prod(comb(4, c) for c in counts)
        if len(counts) == 5:  # 4 of the 4^5 suit choices are one suit
            rows5[CATEGORIES[row_category(flush)]] += 4
            ways -= 4
        rows5[CATEGORIES[row_category(plain)]] += ways
    rows3 = {name: 0 for name in ("散牌", "对子", "三条")}
    for front in combinations_with_replacement(range(2, 15), 3):
        counts = [front.count(r) for r in set(front)]
        value = tables.lookup3[sum(5 ** (r - 2) for r in front)]
        rows3[CATEGORIES[row_category(value)]] += prod(comb(4, c) for c in counts)
    return rows5, rows3


# ------------------------------------------------------------------ the odds command


def _params(variant: Variant) -> ShisanzhangParams:
    from paiju.games.shisanzhang.spec import ShisanzhangParams

    return variant.params_as(ShisanzhangParams)


def odds(variant: Variant) -> dict[str, Any]:
    """``paiju odds CODE --json``: exact counts of the code's specials and of row categories.

    ``{"total": 635013559600, "specials": {name: count}, "rows5": {...}, "rows3": {...}}``;
    the specials are those of the code's ladder, best tier first.
    """
    params = _params(variant)
    rows5, rows3 = row_counts(params.straight_a2345)
    return {
        "total": TOTAL,
        "specials": {name: special_count(name, params) for name in params.special_names},
        "rows5": rows5,
        "rows3": rows3,
    }


def _line(name: str, count: int, total: int) -> str:
    p = count / total
    one_in = f"1 in {total / count:,.1f}" if count else "never"
    return f"  {name:<8}{count:>20,}  {p:>12.8%}  {one_in}"


CONTAINS: Final = frozenset({"同花顺", "炸弹", "三条", "对子"})


def format_odds(variant: Variant, result: dict[str, Any]) -> str:
    """The odds as a readable table (counts, probabilities, 1 in N)."""
    total = int(result["total"])
    lines = [f"{variant.code} {variant.name_zh}: exact odds over C(52,13) = {total:,} hands"]
    if result["specials"]:
        lines.append("special hands (特殊牌型) of the code, per dealt 13-card hand:")
        for name, count in result["specials"].items():
            label = f"{name}*" if name in CONTAINS else name
            lines.append(_line(label, int(count), total))
        if CONTAINS & set(result["specials"]):
            lines.append("  * the hand contains one somewhere among its 13 cards")
    else:
        lines.append("this code knows no special hand")
    for key, what in (("rows5", "five-card rows, all C(52,5)"), ("rows3", "fronts, all C(52,3)")):
        rows = {name: int(count) for name, count in result[key].items()}
        lines.append(f"{what} = {sum(rows.values()):,}:")
        lines.extend(
            _line(name, count, sum(rows.values())) for name, count in reversed(rows.items())
        )
    return "\n".join(lines)


def family_report(
    variants: Sequence[Variant], chart_path: Path | None
) -> tuple[dict[str, Any], str]:
    """``paiju odds --family shisanzhang``: every code's odds, and optionally a chart."""
    report = {v.code: odds(v) for v in variants}
    text = "\n\n".join(format_odds(v, report[v.code]) for v in variants)
    if chart_path is not None:
        specials = {n: c for r in report.values() for n, c in r["specials"].items()}
        names = _chart(specials, chart_path)
        legend = ", ".join(f"{i} {n}" for i, n in enumerate(names))
        text += f"\n\nchart written to {chart_path} (bars: {legend})"
    return report, text


def _chart(specials: dict[str, int], path: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = sorted(specials, key=lambda n: specials[n])
    fig, ax = plt.subplots(figsize=(8, 5))
    ax.barh(range(len(names)), [specials[n] / TOTAL for n in names])
    ax.set_yticks(range(len(names)), [str(i) for i in range(len(names))])
    ax.set_xscale("log")
    ax.set_xlabel("probability in a dealt 13-card hand")
    ax.set_title("shisanzhang: special hands (index = legend in the text report)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return names
