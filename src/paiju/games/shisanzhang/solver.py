"""The 十三张 arrangement solver (自动摆牌 / 推荐摆法).

For a 13-card hand the solver values each of its 1,287 five-card and 286 three-card
subsets once (numpy over the rank tables of :mod:`.rows`), then scans the 72,072 splits
(front 3 / middle 5 / back 5) by index without re-evaluating a row: splits that foul
(倒水) are dropped, and every other split is scored by its expected score against one
typical opponent under the variant's own settlement (``scoring`` of its params):

* ``majority`` - P(win 2+ rows) - P(lose 2+ rows);
* ``points`` - 1/2/3 per row (``row_points``), 冲三/四梅/同花顺 bonuses to the row's
  winner (``row_bonuses``), 打枪 (``gun_bonus``) and 全垒打 (``homerun_bonus``);
* ``payout`` / ``multiplier`` - a won row pays its multiplier (``row_multipliers``);
  ties go to the banker where ``ties_to_banker``;
* ``back`` - 宝马会: only the back row counts.

A row's chances come from the shipped per-row tables (``data/row_tables.npz``): how often
a typical opponent's front, middle and back have each strength, counted by simulation
(``bench/gen_row_tables.py`` regenerates them). The three rows are treated as
independent contests (an approximation: one opponent's rows are correlated), and the
opponents never foul.

The suggestions (``alternatives``) are the next best splits that are neither suit copies
of a better one (the same ranks in every row) nor dominated by a better one (no row
stronger).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from paiju.cards import Card, format_cards, parse_cards
from paiju.errors import NotationError
from paiju.games.shisanzhang.rows import (
    CATEGORIES,
    CATEGORY_SHIFT,
    RANK_SHIFT,
    SUIT_TIE_CATEGORIES,
    TABLES,
    RowRules,
    row_value,
)

if TYPE_CHECKING:
    from paiju.catalog import Variant
    from paiju.games.shisanzhang.spec import ShisanzhangParams

SCORINGS: Final = ("majority", "points", "payout", "multiplier", "back")

__all__ = [
    "Arrangement",
    "RowTables",
    "Scorer",
    "arrange",
    "best_arrangement",
    "brute_force_arrangement",
    "expected_score",
    "load_row_tables",
    "solve",
    "strongest_back_first",
]

Row = tuple[Card, ...]
Doubles = npt.NDArray[np.float64]
Floats = npt.NDArray[np.float32]
"""Per-subset and per-split odds and scores: float32 halves the scan's memory traffic."""
Ints = npt.NDArray[np.int64]

DATA: Final = Path(__file__).resolve().parent / "data" / "row_tables.npz"
ROW_NAMES: Final = ("front", "middle", "back")

# ------------------------------------------------------------------ split tables at import

C5: Final = np.array(list(combinations(range(13), 5)), dtype=np.int64)
"""The 1,287 five-card subsets of a 13-card hand, as positions 0-12."""
C3: Final = np.array(list(combinations(range(13), 3)), dtype=np.int64)
"""The 286 three-card subsets."""
POW5: Final = 5 ** np.arange(13, dtype=np.int64)


def _split_tables() -> tuple[Ints, Ints, Ints]:
    """(front, middle, back) subset indices of the 72,072 splits of 13 cards into 3/5/5."""
    masks5 = (1 << C5).sum(axis=1)
    masks3 = (1 << C3).sum(axis=1)
    index3 = np.full(1 << 13, -1, dtype=np.int64)
    index3[masks3] = np.arange(len(C3))
    back, middle = np.nonzero((masks5[:, None] & masks5[None, :]) == 0)
    front = index3[((1 << 13) - 1) ^ masks5[back] ^ masks5[middle]]
    return front.astype(np.int64), middle.astype(np.int64), back.astype(np.int64)


SPLIT_FRONT, SPLIT_MIDDLE, SPLIT_BACK = _split_tables()
SPLITS_BY_BACK: Final = SPLIT_MIDDLE.reshape(len(C5), -1)
"""The splits come back-major: row b holds the 56 middles that go with back b."""
_ZERO: Final = np.zeros(1, dtype=np.int64)
ONE: Final = (_ZERO, _ZERO, _ZERO)
"""The index triple of a single split whose odds arrays hold one entry each."""


# ------------------------------------------------------------------ per-row tables


@dataclass(frozen=True)
class RowTables:
    """How often a typical opponent's row has each strength, per row (front/middle/back).

    ``values[row]`` are sorted rank-only row values (``row_value >> 2``: suits stripped),
    ``counts[row]`` how many simulated hands put that value in that row.
    """

    values: tuple[Ints, Ints, Ints]
    counts: tuple[Ints, Ints, Ints]


def load_row_tables(path: Path = DATA) -> dict[str, RowTables]:
    """The shipped tables, one per straight order (``second``, ``lowest``)."""
    tables: dict[str, RowTables] = {}
    with np.load(path, allow_pickle=False) as data:
        for order in ("second", "lowest"):
            v = [data[f"{order}_{row}_values"].astype(np.int64) for row in ROW_NAMES]
            c = [data[f"{order}_{row}_counts"].astype(np.int64) for row in ROW_NAMES]
            tables[order] = RowTables((v[0], v[1], v[2]), (c[0], c[1], c[2]))
    return tables


_TABLES: dict[str, RowTables] = {}


def row_tables(order: str) -> RowTables:
    """The shipped table of one straight order (loaded once)."""
    if not _TABLES:
        _TABLES.update(load_row_tables())
    return _TABLES[order]


# ------------------------------------------------------------------ settlement weights


@dataclass(frozen=True)
class Scorer:
    """The parts of a variant's settlement the solver needs (from its params)."""

    scoring: str
    row_pay: tuple[tuple[float, ...], ...]
    """``row_pay[row][category]``: stakes a row won with that category pays its winner."""
    gun_bonus: float = 0.0
    homerun_bonus: float = 0.0
    homerun_opponents: int = 3
    ties_lose: bool = False

    @classmethod
    def of(
        cls, params: ShisanzhangParams, scoring: str | None = None, banker: bool = False
    ) -> Scorer:
        chosen = scoring or params.scoring
        pay: list[tuple[float, ...]] = []
        for row in range(3):
            base = params.row_points[row] if chosen == "points" else 1
            stakes = []
            for name in CATEGORIES:
                mult = params.row_multipliers.get(name, (1, 1, 1))[row]
                bonus = params.row_bonuses.get(name, (0, 0, 0))[row]
                if chosen == "points":
                    stakes.append(float(base + bonus))
                elif chosen in ("payout", "multiplier"):
                    stakes.append(float(mult))
                else:
                    stakes.append(1.0)
            pay.append(tuple(stakes))
        return cls(
            scoring=chosen,
            row_pay=tuple(pay),
            gun_bonus=float(params.gun_bonus) if chosen == "points" else 0.0,
            homerun_bonus=float(params.homerun_bonus) if chosen == "points" else 0.0,
            homerun_opponents=params.homerun_opponents,
            ties_lose=params.ties_to_banker and params.banker and not banker,
        )


@dataclass(frozen=True)
class RowChances:
    """One row's table as prefix sums: share of opponents, and stakes they win, below index i."""

    values: Ints
    cum_share: Doubles
    """``cum_share[i]``: the share of opponents whose row is weaker than ``values[i]``."""
    cum_pay: Doubles
    """``cum_pay[i]``: the same opponents' expected stakes were they to win the row."""


@cache
def _row_chances(order: str, row: int, scorer: Scorer) -> RowChances:
    table = row_tables(order)
    values, counts = table.values[row], table.counts[row].astype(np.float64)
    share = counts / counts.sum()
    cats = values >> (CATEGORY_SHIFT - RANK_SHIFT)
    pay = np.asarray(scorer.row_pay[row], dtype=np.float64)[cats]
    zero = np.zeros(1)
    return RowChances(
        values,
        np.concatenate([zero, share.cumsum()]),
        np.concatenate([zero, (share * pay).cumsum()]),
    )


# ------------------------------------------------------------------ per-hand evaluation


_SUIT_TIE: Final = np.isin(np.arange(9), sorted(SUIT_TIE_CATEGORIES))
_STRAIGHTS: Final = np.isin(np.arange(9), [4, 8])


def _suit_bits(values: Ints, ranks: Ints, suits: Ints) -> Ints:
    """1303 suit tie-break bits (3 - best suit of the named card), as rows.row_value."""
    cats = values >> CATEGORY_SHIFT
    tie_rank = np.where(_STRAIGHTS[cats], ranks.max(axis=1), (values >> (RANK_SHIFT + 16)) & 0xF)
    best = np.where(ranks == tie_rank[:, None], suits, 4).min(axis=1)
    return np.where(_SUIT_TIE[cats], 3 - best, 0)


def subset_values(cards: Sequence[int], rules: RowRules) -> tuple[Ints, Ints]:
    """The row values of all 1,287 five-card and 286 three-card subsets of 13 cards."""
    arr = np.asarray(cards, dtype=np.int64)
    ranks, suits = arr // 4 + 2, arr % 4
    tables = TABLES[rules.straight_a2345]
    r5, s5 = ranks[C5], suits[C5]
    i5 = np.searchsorted(tables.keys5, POW5[r5 - 2].sum(axis=1))
    flush = (s5 == s5[:, :1]).all(axis=1)
    v5 = np.where(flush, tables.flush5[i5], tables.plain5[i5])
    r3, s3 = ranks[C3], suits[C3]
    v3 = tables.plain3[np.searchsorted(tables.keys3, POW5[r3 - 2].sum(axis=1))]
    if rules.suit_ties:
        v5 = v5 | _suit_bits(v5, r5, s5)
        v3 = v3 | _suit_bits(v3, r3, s3)
    return v5, v3


@dataclass(frozen=True)
class RowOdds:
    """Per subset in one row role: P(win), P(tie), P(loss), stakes won and lost."""

    win: Floats
    tie: Floats
    loss: Floats
    gain: Floats
    lost: Floats


def _row_odds(values: Ints, order: str, row: int, scorer: Scorer, suit_ties: bool) -> RowOdds:
    """The odds of rows of these values in one row role against a typical opponent."""
    chances = _row_chances(order, row, scorer)
    plain = values >> RANK_SHIFT
    lo = np.searchsorted(chances.values, plain, side="left")
    hi = np.searchsorted(chances.values, plain, side="right")
    win = chances.cum_share[lo]
    tie = chances.cum_share[hi] - win
    lost = chances.cum_pay[-1] - chances.cum_pay[hi]  # stakes paid to stronger opponents
    pay = np.asarray(scorer.row_pay[row], dtype=np.float64)[values >> CATEGORY_SHIFT]
    if suit_ties:  # identical ranks: the suits decide, either way about as often
        win, lost, tie = win + tie / 2, lost + tie * pay / 2, np.zeros_like(tie)
    elif scorer.ties_lose:  # 同样的牌，庄家比闲家大
        lost, tie = lost + tie * pay, np.zeros_like(tie)
    loss = np.clip(1.0 - win - tie, 0.0, 1.0)
    f32 = np.float32
    return RowOdds(
        win.astype(f32),
        tie.astype(f32),
        loss.astype(f32),
        (win * pay).astype(f32),
        lost.astype(f32),
    )


def _two_of_three(a: Floats, b: Floats, c: Floats) -> Floats:
    """P(at least 2 of 3 independent events)."""
    result: Floats = a * b + a * c + b * c - 2 * a * b * c
    return result


def _split_scores(
    rows: tuple[RowOdds, RowOdds, RowOdds], scorer: Scorer, idx: tuple[Ints, Ints, Ints]
) -> Floats:
    """Expected score per opponent of the splits ``idx`` (front, middle, back subsets).

    ``rows`` hold the odds of every subset in each row role; only what the settlement
    needs is gathered per split.
    """
    f, m, b = rows
    fi, mi, bi = idx
    if scorer.scoring == "back":
        back: Floats = (b.win - b.loss)[bi]
        return back
    if scorer.scoring == "majority":
        wins = _two_of_three(f.win[fi], m.win[mi], b.win[bi])
        return wins - _two_of_three(f.loss[fi], m.loss[mi], b.loss[bi])
    score: Floats = (f.gain - f.lost)[fi] + (m.gain - m.lost)[mi] + (b.gain - b.lost)[bi]
    if scorer.gun_bonus or scorer.homerun_bonus:
        sweep = f.win[fi] * m.win[mi] * b.win[bi]
        swept = f.loss[fi] * m.loss[mi] * b.loss[bi]
        score += scorer.gun_bonus * (sweep - swept)
        if scorer.homerun_bonus:
            score += scorer.homerun_bonus * sweep**scorer.homerun_opponents
    return score


# ------------------------------------------------------------------ the solver


@dataclass(frozen=True)
class Arrangement:
    """One arrangement (摆法) of 13 cards with its expected score per opponent."""

    front: Row
    middle: Row
    back: Row
    score: float

    def to_json(self) -> dict[str, Any]:
        return {
            "front": format_cards(self.front),
            "middle": format_cards(self.middle),
            "back": format_cards(self.back),
            "expected_score": round(self.score, 4),
        }


def _sorted_row(cards: Sequence[int]) -> Row:
    return tuple(Card(c) for c in sorted(cards, key=lambda c: (-(c // 4), c % 4)))


def _check_hand(cards: Sequence[int]) -> tuple[Card, ...]:
    hand = tuple(Card(c) for c in cards)
    if len(hand) != 13 or len(set(hand)) != 13 or any(c.is_joker for c in hand):
        raise NotationError(
            f"a 十三张 hand is 13 different cards of one 52-card deck, got {format_cards(hand)!r}"
        )
    return hand


def _params(variant: Variant) -> ShisanzhangParams:
    from paiju.games.shisanzhang.spec import ShisanzhangParams

    return variant.params_as(ShisanzhangParams)


def solve(
    cards: Sequence[int],
    params: ShisanzhangParams,
    *,
    scoring: str | None = None,
    banker: bool = False,
    alternatives: int = 4,
) -> list[Arrangement]:
    """The best arrangement of 13 cards and up to ``alternatives`` next best, best first."""
    hand = _check_hand(cards)
    rules = params.row_rules()
    scorer = Scorer.of(params, scoring, banker)
    v5, v3 = subset_values(hand, rules)
    plain5, plain3 = v5 >> RANK_SHIFT, v3 >> RANK_SHIFT
    # 倒水 by category and ranks only: keep middle <= back, then front <= middle
    keep = np.flatnonzero(plain5[SPLITS_BY_BACK] <= plain5[:, None])
    middle_i = SPLIT_MIDDLE[keep]
    keep = keep[plain3[SPLIT_FRONT[keep]] <= plain5[middle_i]]
    idx = (SPLIT_FRONT[keep], SPLIT_MIDDLE[keep], SPLIT_BACK[keep])
    order = rules.straight_a2345
    odds = (
        _row_odds(v3, order, 0, scorer, rules.suit_ties),
        _row_odds(v5, order, 1, scorer, rules.suit_ties),
        _row_odds(v5, order, 2, scorer, rules.suit_ties),
    )
    scores = _split_scores(odds, scorer, idx)
    # equal scores: the stronger back, then the stronger middle (尽量让尾墩最大)
    strength = np.empty(len(plain5), dtype=np.int64)
    strength[np.argsort(plain5, kind="stable")] = np.arange(len(plain5))
    front_i, middle_i, back_i = idx
    if scorer.scoring == "back":  # W - L grows with the back: maximise it exactly
        key = (strength[back_i] * 2048 + strength[middle_i]).astype(np.float64)
    else:
        key = scores.astype(np.float64)
    pool = min(len(key), 256)
    top = np.argpartition(-key, pool - 1)[:pool]
    top = top[np.lexsort((-strength[middle_i[top]], -strength[back_i[top]], -key[top]))]
    chosen: list[tuple[int, int, int]] = []
    result: list[Arrangement] = []
    for k in top:
        f, m, b = int(front_i[k]), int(middle_i[k]), int(back_i[k])
        triple = (int(plain3[f]), int(plain5[m]), int(plain5[b]))
        if any(all(x >= y for x, y in zip(c, triple, strict=True)) for c in chosen):
            continue  # a suit copy of, or dominated by, a better suggestion
        chosen.append(triple)
        result.append(
            Arrangement(
                _sorted_row([hand[i] for i in C3[f]]),
                _sorted_row([hand[i] for i in C5[m]]),
                _sorted_row([hand[i] for i in C5[b]]),
                float(scores[k]),
            )
        )
        if len(result) > alternatives:
            break
    return result


def best_arrangement(
    variant: Variant,
    cards: Sequence[Card],
    *,
    scoring: str | None = None,
    banker: bool = False,
) -> tuple[Row, Row, Row]:
    """The arrangement (front, middle, back) with the highest expected score (自动摆牌).

    ``scoring`` is the room's settlement where it is not the code's default; ``banker``
    says the seat is the banker (ties are its wins where ``ties_to_banker``).
    """
    best = solve(cards, _params(variant), scoring=scoring, banker=banker, alternatives=0)[0]
    return best.front, best.middle, best.back


def expected_score(
    variant: Variant,
    front: Sequence[Card],
    middle: Sequence[Card],
    back: Sequence[Card],
    *,
    scoring: str | None = None,
    banker: bool = False,
) -> float:
    """Expected score per opponent of an arrangement under the variant's settlement.

    A fouled (倒水) arrangement loses every row: its score is minus what three lost rows cost.
    """
    params = _params(variant)
    rules = params.row_rules()
    scorer = Scorer.of(params, scoring, banker)
    values = [np.array([row_value(row, rules)], dtype=np.int64) for row in (front, middle, back)]
    order = rules.straight_a2345
    odds = (
        _row_odds(values[0], order, 0, scorer, rules.suit_ties),
        _row_odds(values[1], order, 1, scorer, rules.suit_ties),
        _row_odds(values[2], order, 2, scorer, rules.suit_ties),
    )
    plain = [int(v[0]) >> RANK_SHIFT for v in values]
    if plain[0] > plain[1] or plain[1] > plain[2]:
        one, zero = np.ones(1, dtype=np.float32), np.zeros(1, dtype=np.float32)
        lost = [
            RowOdds(zero, zero, one, zero, np.array([np.mean(scorer.row_pay[i])], dtype=np.float32))
            for i in range(3)
        ]
        return float(_split_scores((lost[0], lost[1], lost[2]), scorer, ONE)[0])
    return float(_split_scores(odds, scorer, ONE)[0])


def _special_name(
    hand: Sequence[Card], params: ShisanzhangParams, scoring: str | None
) -> str | None:
    """The best special the code lets this hand declare under the chosen settlement."""
    from paiju.games.shisanzhang.specials import best_special

    if not params.specials_apply(scoring):  # type: ignore[arg-type]
        return None
    special = best_special(hand, params)
    return None if special is None else special.name_zh


def arrange(
    code: str, cards: str | Sequence[Card], *, scoring: str | None = None
) -> dict[str, Any]:
    """The recommended arrangement of a 13-card hand under a code (``paiju arrange``).

    Returns ``{"front", "middle", "back", "special", "alternatives"}``: the rows as card
    text, the Chinese name of the best special hand the code lets it declare (or None),
    and the next best suggestions (each with its expected score per opponent).
    """
    from paiju.catalog import find_variant

    variant = find_variant(code)
    if variant.family != "shisanzhang":
        raise NotationError(f"{code} ({variant.name_zh}) is not a 十三张 code")
    hand = _check_hand(parse_cards(cards) if isinstance(cards, str) else cards)
    params = _params(variant)
    if scoring is not None and scoring not in SCORINGS:
        raise NotationError(f"unknown scoring {scoring!r}; scorings are {', '.join(SCORINGS)}")
    found = solve(hand, params, scoring=scoring)
    best = found[0].to_json()
    return {
        "front": best["front"],
        "middle": best["middle"],
        "back": best["back"],
        "special": _special_name(hand, params, scoring),
        "alternatives": [a.to_json() for a in found[1:]],
    }


# ------------------------------------------------------------------ baselines


def strongest_back_first(cards: Sequence[Card], rules: RowRules) -> tuple[Row, Row, Row]:
    """The lexicographic baseline: the strongest back, then the strongest middle of the rest.

    The baseline the solver must beat (bench/strength.py); never fouls.
    """
    hand = _check_hand(cards)
    v5, v3 = subset_values(hand, rules)
    plain5, plain3 = v5 >> RANK_SHIFT, v3 >> RANK_SHIFT
    key = plain5[SPLIT_BACK] * (1 << 26) + plain5[SPLIT_MIDDLE]
    fine = plain3[SPLIT_FRONT] <= plain5[SPLIT_MIDDLE]
    k = int(np.argmax(np.where(fine, key, -1)))
    return (
        _sorted_row([hand[i] for i in C3[SPLIT_FRONT[k]]]),
        _sorted_row([hand[i] for i in C5[SPLIT_MIDDLE[k]]]),
        _sorted_row([hand[i] for i in C5[SPLIT_BACK[k]]]),
    )


def brute_force_arrangement(
    cards: Sequence[Card], params: ShisanzhangParams
) -> tuple[tuple[Row, Row, Row], float]:
    """The naive solver: every split of the 13 cards, every row re-evaluated from its cards.

    The baseline of ``bench/arrange.py`` and the tests: no subset table, no index scan.
    The valid splits' rows are then scored by the same tables and settlement as
    :func:`solve`.
    """
    hand = _check_hand(cards)
    rules = params.row_rules()
    scorer = Scorer.of(params)
    splits: list[tuple[Row, Row, Row]] = []
    values: list[tuple[int, int, int]] = []
    for back in combinations(hand, 5):
        rest = [c for c in hand if c not in back]
        for middle in combinations(rest, 5):
            front = tuple(c for c in rest if c not in middle)
            vf, vm, vb = (row_value(r, rules) for r in (front, middle, back))
            if vf >> RANK_SHIFT <= vm >> RANK_SHIFT <= vb >> RANK_SHIFT:
                splits.append((front, middle, back))
                values.append((vf, vm, vb))
    columns = np.array(values, dtype=np.int64).T
    order = rules.straight_a2345
    odds = (
        _row_odds(columns[0], order, 0, scorer, rules.suit_ties),
        _row_odds(columns[1], order, 1, scorer, rules.suit_ties),
        _row_odds(columns[2], order, 2, scorer, rules.suit_ties),
    )
    everyone = np.arange(len(splits), dtype=np.int64)
    scores = _split_scores(odds, scorer, (everyone, everyone, everyone))
    best = int(np.argmax(scores))
    return splits[best], float(scores[best])
