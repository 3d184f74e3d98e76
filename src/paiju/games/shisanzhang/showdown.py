"""The showdown (比牌) and settlement (结算) of every 十三张 code.

A seat comes to the showdown with a :class:`Hand`: its three rows (头墩 front, 中墩 middle,
尾墩 back), or a declared special hand (报到, 免摆, or its 绍兴 tier). :func:`settle` compares
the hands pair by pair (every pair of seats, or each player with the banker 庄家 in a banker
game) under one settlement (:data:`~paiju.games.shisanzhang.spec.Scoring`) and returns a
:class:`Showdown`: per-pair row results, 打枪, 全垒打, bonuses, fouls (倒水), specials and the
per-seat scores, which always sum to zero (every stake moves between two seats).

:func:`showdown` is the same from text, for the ``paiju showdown`` command and
:func:`paiju.showdown`::

>>> r = showdown("1301", ["2c 3d 4h / 5s 5h 7c 8d 9s / Ks Kh Qc Qd 2s",
...                       "Ac Ad 4c / 6s 6h 6c 8c 9c / 7s 7h 7d Th Td"], scoring="majority")
>>> r["scores"], r["pairs"][0]["rows"]
([-1, 1], [-1, -1, -1])
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from itertools import chain
from typing import Any, Final

from paiju.cards import Card, format_cards, parse_cards
from paiju.errors import IllegalAction, NotationError
from paiju.games.shisanzhang.rows import (
    CATEGORIES,
    CATEGORY_SHIFT,
    RANK_SHIFT,
    RowRules,
    arrangement_values,
    row_category,
    row_value,
)
from paiju.games.shisanzhang.spec import Scoring, ShisanzhangParams
from paiju.games.shisanzhang.specials import Special, best_special

__all__ = [
    "ROW_NAMES",
    "Hand",
    "PairResult",
    "Showdown",
    "arranged",
    "declared",
    "display_text",
    "forced_special",
    "parse_hand",
    "settle",
    "showdown",
    "shown_texts",
]

ROW_NAMES = ("头墩", "中墩", "尾墩")
"""The rows by position: front (3 cards), middle (5), back (5)."""

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


def _display(row: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(row, key=lambda c: (-(c // 4), c % 4)))


_FLIPPED_TEXT: dict[int, str] = {c ^ 3: format_cards([c]) for c in range(54)}
"""Card text by ``card ^ 3`` (the suit bits flipped): sorting those ints from the highest
down is the display order (rank highest first, then 黑桃 红心 梅花 方块)."""


def _display_text(row: Sequence[Card]) -> str:
    """``format_cards(_display(row))``: the showdown's inner loop, without a key function."""
    text = _FLIPPED_TEXT
    try:
        keys = sorted([c ^ 3 for c in row], reverse=True)
        if len(keys) == 5:  # a middle or back row: the common case, written out
            a, b, c, d, e = keys
            return f"{text[a]} {text[b]} {text[c]} {text[d]} {text[e]}"
        return " ".join([text[k] for k in keys])
    except KeyError:  # not a card: format_cards says which
        return format_cards(_display(row))


def display_text(cards: Sequence[Card]) -> str:
    """The cards as text in the order players hold them (by rank, highest first, then
    黑桃 红心 梅花 方块): ``format_cards(sort_hand(cards))`` in one sort without a key."""
    return _display_text(cards)


_ROW_FLIPS: tuple[int, ...] = (3 | 256,) * 3 + (3 | 128,) * 5 + (3,) * 5
"""What ``card ^ flip`` turns the 13 cards of front, middle and back into: the display key
of :data:`_FLIPPED_TEXT` (for cards below 64) plus 256 in front, 128 in the middle."""
_SLASH_KEYS: tuple[int, ...] = (255, 127)
"""The keys of the slashes between front and middle, and between middle and back."""
_SHOWN_TEXT: dict[int, str] = {
    **{k | row: text for k, text in _FLIPPED_TEXT.items() for row in (0, 128, 256)},
    **dict.fromkeys(_SLASH_KEYS, "/"),
}
"""The text of each key of a shown hand (a card in its row, or a slash)."""
_xor = operator.xor


@dataclass(frozen=True)
class Hand:
    """One seat at the showdown: its 13 cards, as three rows or as a declared special."""

    cards: tuple[Card, ...]
    rows: Rows | None = None
    special: Special | None = None
    values: tuple[int, int, int] = (0, 0, 0)
    """Row values under the code's rules (suit tie-breaks included where it has them)."""
    plain: tuple[int, int, int] = (0, 0, 0)
    """Row values by category and ranks only (倒水, the banker-favoured comparison)."""
    foul: bool = False
    """倒水 (乌龙): the rows decrease somewhere."""

    @property
    def categories(self) -> tuple[str, str, str] | None:
        if self.rows is None:
            return None
        f, m, b = (CATEGORIES[row_category(v)] for v in self.values)
        return (f, m, b)

    def to_json(self) -> dict[str, Any]:
        """Cards as canonical text: ``{"front", "middle", "back", "categories", "foul"}``
        or ``{"declared": name, "cards"}`` (a new dict each call)."""
        return dict(self.json_form())

    def json_form(self) -> dict[str, Any]:
        """The JSON form itself, written once (a hand never changes; views show it often),
        kept in the instance's ``__dict__`` (a frozen dataclass; no cached_property lock).
        The caller must not change it."""
        cached: dict[str, Any] | None = self.__dict__.get("_json")
        if cached is None:
            cached = self.__dict__["_json"] = self._write_json()
        return cached

    def shown_text(self) -> str:
        """The hand as the showdown's event writes it: ``f / m / b``, or ``name: cards``
        for a declared special (each part as :meth:`json_form` writes it)."""
        if self.rows is None:
            shown = self.json_form()
            return f"{shown['declared']}: {shown['cards']}"
        front, middle, back = self.rows
        cards = self.cards
        if (
            len(front) == 3
            and len(middle) == 5
            and len(back) == 5
            and len(cards) == 13
            and min(cards) >= 0
            and max(cards) < 64
        ):
            # one sort for the three rows: each card's display key with its row above it
            # (front highest), the two slashes between the rows as keys of their own
            keys = list(map(_xor, cards, _ROW_FLIPS))
            keys += _SLASH_KEYS
            keys.sort(reverse=True)
            try:
                return " ".join(map(_SHOWN_TEXT.__getitem__, keys))
            except KeyError:  # not a card: format_cards says which, below
                pass
        f, m, b = self._row_texts()
        return f"{f} / {m} / {b}"

    def _row_texts(self) -> tuple[str, str, str]:
        """The rows as text (for :meth:`json_form` and :meth:`shown_text`), written once and
        kept in the instance's ``__dict__`` as :meth:`json_form` is."""
        cached: tuple[str, str, str] | None = self.__dict__.get("_rows_text")
        if cached is None:
            assert self.rows is not None
            front, middle, back = self.rows
            cached = self.__dict__["_rows_text"] = (
                _display_text(front),
                _display_text(middle),
                _display_text(back),
            )
        return cached

    def _write_json(self) -> dict[str, Any]:
        if self.rows is None:
            name = self.special.name_zh if self.special else None
            return {"declared": name, "cards": _display_text(self.cards)}
        front, middle, back = self._row_texts()
        f, m, b = self.values
        return {
            "front": front,
            "middle": middle,
            "back": back,
            "categories": [
                CATEGORIES[row_category(f)],
                CATEGORIES[row_category(m)],
                CATEGORIES[row_category(b)],
            ],
            "foul": self.foul,
        }


_SHOWN_STRIDE: Final = 1024
"""What a hand's place among the shown hands adds to its keys (a card's key is below 320)."""
_SHOWN_MOST: Final = 4
_SHOWN_ALL_TEXT: Final[dict[int, str]] = {
    **{
        key | _SHOWN_STRIDE * k: text
        for k in range(_SHOWN_MOST)
        for key, text in _SHOWN_TEXT.items()
    },
    **{_SHOWN_STRIDE * k - 1: "|" for k in range(1, _SHOWN_MOST)},
}
"""The text of each key of the shown hands together: a hand's keys in its place, and the
bar between two hands."""


@cache
def _shown_all_keys(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For ``n`` hands shown together: what each of their 13n cards (hand by hand) is
    xor'ed with (its row's flip and its hand's place, the first hand highest), and the
    keys of the slashes and of the bars between the hands."""
    flips: list[int] = []
    marks: list[int] = []
    for k in range(n):
        place = _SHOWN_STRIDE * (n - 1 - k)
        flips += [f | place for f in _ROW_FLIPS]
        marks += [s | place for s in _SLASH_KEYS]
        if k:
            marks.append(place + _SHOWN_STRIDE - 1)
    return tuple(flips), tuple(marks)


def shown_texts(hands: Sequence[Hand]) -> tuple[str, ...]:
    """:meth:`Hand.shown_text` of each of ``hands`` (the showdown event's texts); where
    every hand is arranged (front 3, middle 5, back 5), written in one sort and one join
    for all of them, the hands kept apart by a bar."""
    n = len(hands)
    if 2 <= n <= _SHOWN_MOST and all(
        [
            h.rows is not None
            and len(h.cards) == 13
            and len(h.rows[0]) == 3
            and len(h.rows[2]) == 5
            for h in hands
        ]
    ):
        cards = list(chain.from_iterable([h.cards for h in hands]))
        if min(cards) >= 0 and max(cards) < 64:
            flips, marks = _shown_all_keys(n)
            keys = list(map(_xor, cards, flips))
            keys += marks
            keys.sort(reverse=True)
            try:
                texts = " ".join(map(_SHOWN_ALL_TEXT.__getitem__, keys)).split(" | ")
            except KeyError:  # not a card: each hand's own text says which, below
                pass
            else:
                return tuple(texts)
    return tuple([h.shown_text() for h in hands])


_new = object.__new__
_HAND_FIELDS: Final = ("cards", "rows", "special", "values", "plain", "foul")
"""The fields of :class:`Hand` in order, as :func:`arranged` fills them."""
assert tuple(f.name for f in fields(Hand)) == _HAND_FIELDS, "arranged() fills Hand's fields"


def arranged(rows: Rows, rules: RowRules, values: tuple[int, int, int] | None = None) -> Hand:
    """The hand of a seat that arranged ``rows`` (front, middle, back); ``values``, where
    the caller has them, are the rows' values under ``rules`` (not computed again)."""
    front, middle, back = rows
    cards = (*front, *middle, *back)
    if values is not None:
        f, m, b = values
    elif len(front) == 3 and len(middle) == 5 and len(back) == 5:
        f, m, b = arrangement_values(cards, rules)
    else:  # row_value refuses the rows that are not 3 or 5 cards
        f, m, b = row_value(front, rules), row_value(middle, rules), row_value(back, rules)
    if rules.suit_ties:
        plain_rules = RowRules(rules.straight_a2345, suit_ties=False)
        pf, pm, pb = (row_value(r, plain_rules) for r in rows)
    else:  # without suit tie-breaks the values are the plain values
        pf, pm, pb = f, m, b
    # Hand(cards=…, rows=…, values=…, plain=…, foul=…), each seat's at every hand: its
    # fields put in its __dict__ in their order, as the frozen dataclass's __init__ does,
    # without a setattr through object for each (_HAND_FIELDS checks the order)
    hand = _new(Hand)
    fill = hand.__dict__
    fill["cards"] = cards
    fill["rows"] = rows
    fill["special"] = None
    fill["values"] = (f, m, b)
    fill["plain"] = (pf, pm, pb)
    fill["foul"] = pf > pm or pm > pb  # 倒水, as is_foul judges it: plain values, never suits
    return hand


def declared(cards: Sequence[Card], special: Special) -> Hand:
    """The hand of a seat that declares (or must show) its special hand."""
    return Hand(cards=tuple(cards), special=special)


@dataclass
class PairResult:
    """Two seats compared: ``rows`` from ``seats[0]``'s side (+1 won, -1 lost, 0 tied,
    None not compared), what ``seats[1]`` pays ``seats[0]`` (``amount``), 打枪 and bonuses."""

    seats: tuple[int, int]
    rows: tuple[int | None, int | None, int | None] | None = None
    amount: int = 0
    gun: int | None = None
    bonuses: list[dict[str, Any]] = field(default_factory=list)
    decided_by: str = "rows"
    """``rows``, ``special`` (a special hand decided the pair) or ``foul``."""
    row_amounts: tuple[int, int, int] | None = None
    """What each row moved, from ``seats[0]``'s side (its points or multiple, a bonus
    included), where rows are worth more than one each (points, multiplier, payout)."""

    @property
    def winner(self) -> int | None:
        if self.amount > 0:
            return self.seats[0]
        if self.amount < 0:
            return self.seats[1]
        return None

    def to_json(self, stake: int) -> dict[str, Any]:
        a, b = self.seats
        return {
            "seats": [a, b],
            "rows": None if self.rows is None else list(self.rows),
            "decided_by": self.decided_by,
            "winner": self.winner,
            "gun": self.gun,
            "bonuses": [{**x, "points": x["points"] * stake} for x in self.bonuses],
            "scores": [self.amount * stake, -self.amount * stake],
            "row_scores": None
            if self.row_amounts is None
            else [x * stake for x in self.row_amounts],
        }


@dataclass
class Showdown:
    """The result of a showdown: every pair compared, and the settlement."""

    scoring: Scoring
    hands: list[Hand]
    pairs: list[PairResult]
    scores: list[int]
    banker: int | None = None
    stake: int = 1
    homeruns: list[int] = field(default_factory=list)
    bets: list[int] | None = None

    def to_json(self) -> dict[str, Any]:
        """The public result: what every client may show once all seats have acted."""
        return {
            "scoring": self.scoring,
            "banker": self.banker,
            "stake": self.stake,
            "bets": self.bets,
            "hands": [h.to_json() for h in self.hands],
            "pairs": [p.to_json(self.stake) for p in self.pairs],
            "fouls": [h.foul for h in self.hands],
            "specials": [h.special.name_zh if h.special else None for h in self.hands],
            "homeruns": list(self.homeruns),
            "scores": list(self.scores),
        }


# ------------------------------------------------------------------------ comparisons


def _row_results(
    a: Hand, b: Hand, banker: int, favoured: bool, ties_to_banker: bool
) -> tuple[int, int, int]:
    """Row by row from ``a``'s side; ``banker`` is 0 (a), 1 (b) or -1 (no banker)."""
    if a.foul or b.foul:
        if a.foul and b.foul:
            return (0, 0, 0)
        return (-1, -1, -1) if a.foul else (1, 1, 1)
    tie = 0
    if banker >= 0 and (ties_to_banker or favoured):
        tie = 1 if banker == 0 else -1
    if favoured:
        # 只比点数最大的一只牌: category, then the leading rank only
        shift = RANK_SHIFT + 16  # keeps the category and the leading rank nibble
        (x0, x1, x2), (y0, y1, y2) = a.plain, b.plain
        x0, x1, x2, y0, y1, y2 = (
            x0 >> shift,
            x1 >> shift,
            x2 >> shift,
            y0 >> shift,
            y1 >> shift,
            y2 >> shift,
        )
    else:
        (x0, x1, x2), (y0, y1, y2) = a.values, b.values
    return (
        1 if x0 > y0 else -1 if x0 < y0 else tie,
        1 if x1 > y1 else -1 if x1 < y1 else tie,
        1 if x2 > y2 else -1 if x2 < y2 else tie,
    )


def _special_value(params: ShisanzhangParams, scoring: Scoring, special: Special) -> int:
    if scoring == "majority":
        return 1
    return params.special_values.get(special.name_zh, 1)


def _pair_specials(
    a: Hand,
    b: Hand,
    params: ShisanzhangParams,
    scoring: Scoring,
    banker: int,
) -> PairResult:
    """The pair decided by a special hand (it is not compared row by row): one of ``a``
    and ``b`` holds one."""
    sa, sb = a.special, b.special
    pair = PairResult((0, 1), decided_by="special")
    if sa is not None and sb is not None:
        if banker >= 0 and params.both_special_banker_pays:
            # 倘若庄家及闲家同时报到，由庄家赔闲家
            player_special = sb if banker == 0 else sa
            value = _special_value(params, scoring, player_special)
            pair.amount = -value if banker == 0 else value
            return pair
        c = sa.compare(sb)
        if c == 0 and banker >= 0 and params.ties_to_banker:
            c = 1 if banker == 0 else -1
        if c > 0:
            pair.amount = _special_value(params, scoring, sa)
        elif c < 0:
            pair.amount = -_special_value(params, scoring, sb)
        return pair
    if sa is not None:
        pair.amount = _special_value(params, scoring, sa)
    else:
        assert sb is not None
        pair.amount = -_special_value(params, scoring, sb)
    return pair


_BONUS_NAMES = {"三条": "冲三", "炸弹": "四梅", "同花顺": "同花顺"}
"""The name of a row bonus (points settlement) by the row's category, where it differs."""


_BONUS_TABLES: dict[int, tuple[ShisanzhangParams, tuple[tuple[int, ...], ...]]] = {}
"""By the ``id`` of a code's params (kept with them, so the ``id`` stays theirs), each
row's bonus by row category index."""


def _bonus_table(params: ShisanzhangParams) -> tuple[tuple[int, ...], ...]:
    """Each row's bonus (冲三, 四梅, 同花顺 …) by the index of the row's category, 0 where
    the code gives none: ``row_bonuses`` read once a code."""
    found = _BONUS_TABLES.get(id(params))
    if found is None or found[0] is not params:
        bonuses = params.row_bonuses
        table = tuple(
            tuple(bonuses[name][row] if name in bonuses else 0 for name in CATEGORIES)
            for row in range(3)
        )
        found = _BONUS_TABLES[id(params)] = (params, table)
    return found[1]


def _points_pair(
    a: Hand,
    b: Hand,
    params: ShisanzhangParams,
    res: tuple[int, int, int],
    decided_by: str,
    bonus_of: tuple[tuple[int, ...], ...],
) -> PairResult:
    """The points settlement of a pair compared row by row (``res``, from ``a``'s side):
    each won row's points and its bonus (冲三, 四梅, 同花顺; ``bonus_of`` is the code's
    :func:`_bonus_table`), then 打枪. The three rows written out (a showdown settles up
    to six pairs), a bonus looked at only where a row has one."""
    row_points = params.row_points
    won, lost = a.values, b.values
    r0, r1, r2 = res
    bonuses: list[dict[str, Any]] = []
    e0 = e1 = e2 = 0
    if r0:
        cat = (won if r0 > 0 else lost)[0] >> CATEGORY_SHIFT
        bonus = bonus_of[0][cat]
        e0 = r0 * (row_points[0] + bonus)
        if bonus:
            bonuses.append(_bonus_entry(r0, 0, cat, bonus))
    if r1:
        cat = (won if r1 > 0 else lost)[1] >> CATEGORY_SHIFT
        bonus = bonus_of[1][cat]
        e1 = r1 * (row_points[1] + bonus)
        if bonus:
            bonuses.append(_bonus_entry(r1, 1, cat, bonus))
    if r2:
        cat = (won if r2 > 0 else lost)[2] >> CATEGORY_SHIFT
        bonus = bonus_of[2][cat]
        e2 = r2 * (row_points[2] + bonus)
        if bonus:
            bonuses.append(_bonus_entry(r2, 2, cat, bonus))
    amount = e0 + e1 + e2
    gun = None
    if params.gun_bonus and abs(r0 + r1 + r2) == 3:
        # 打枪: three rows won against one opponent (a foul counts as one)
        gun = 0 if r0 > 0 else 1
        amount += params.gun_bonus if r0 > 0 else -params.gun_bonus
    return PairResult((0, 1), res, amount, gun, bonuses, decided_by, (e0, e1, e2))


def _bonus_entry(result: int, row: int, cat: int, bonus: int) -> dict[str, Any]:
    """A row bonus of a pair: the seat of the pair that won the row, the row, its name."""
    return _bonus_of_seat(0 if result > 0 else 1, row, cat, bonus)


def _bonus_of_seat(seat: int, row: int, cat: int, bonus: int) -> dict[str, Any]:
    """A row bonus won by ``seat`` (of the pair, or of the table): the row, its name."""
    category = CATEGORIES[cat]
    return {
        "seat": seat,
        "row": ROW_NAMES[row],
        "name": _BONUS_NAMES.get(category, category),
        "points": bonus,
    }


def _compare_pair(
    a: Hand,
    b: Hand,
    params: ShisanzhangParams,
    scoring: Scoring,
    banker: int,
    favoured: bool,
) -> PairResult:
    """Two hands (``a`` is seat index 0 of the pair), under one settlement."""
    if a.special is not None or b.special is not None:
        return _pair_specials(a, b, params, scoring, banker)
    res = _row_results(a, b, banker, favoured, params.ties_to_banker)
    decided_by = "foul" if (a.foul or b.foul) else "rows"
    if scoring == "back":
        return PairResult((0, 1), (None, None, res[2]), res[2], decided_by=decided_by)
    if scoring == "majority":
        wins, losses = res.count(1), res.count(-1)
        amount = 1 if wins >= 2 else -1 if losses >= 2 else 0
        return PairResult((0, 1), res, amount, None, [], decided_by)
    if scoring == "points":
        return _points_pair(a, b, params, res, decided_by, _bonus_table(params))
    # payout, multiplier: each won row's multiplier by its category, no bonuses, no 打枪
    each = [0, 0, 0]
    for row, result in enumerate(res):
        if result:
            winner = a if result > 0 else b
            category = CATEGORIES[row_category(winner.values[row])]
            each[row] = result * params.row_multipliers.get(category, (1, 1, 1))[row]
    return PairResult((0, 1), res, sum(each), None, [], decided_by, (each[0], each[1], each[2]))


@cache
def _couples(n: int) -> list[tuple[int, int]]:
    """Every pair of ``n`` seats, in order (the caller does not change the list)."""
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def settle(
    params: ShisanzhangParams,
    hands: Sequence[Hand],
    scoring: Scoring | None = None,
    banker: int | None = None,
    stake: int = 1,
    favoured: bool = False,
    bets: Sequence[int] | None = None,
) -> Showdown:
    """Compare and settle the hands of every seat under ``scoring`` (default: the code's).

    ``bets`` (banker games): what each player staked against the banker (下注); every
    amount between the banker and that player is multiplied by it (default 1).

    In a banker game (``params.banker``) each player settles with ``banker`` only; otherwise
    every pair of seats settles. ``favoured`` is the banker-favoured comparison (庄家稍为有利:
    only the category and the leading card count, ties go to the banker).
    """
    chosen: Scoring = params.scoring if scoring is None else scoring
    if (
        chosen == "points"
        and not params.banker
        and banker is None
        and not favoured
        and all([h.special is None and not h.foul for h in hands])
    ):
        return _settle_points(params, hands, stake)
    return _settle_pairs(params, hands, chosen, banker, stake, favoured, bets)


def _settle_pairs(
    params: ShisanzhangParams,
    hands: Sequence[Hand],
    chosen: Scoring,
    banker: int | None,
    stake: int,
    favoured: bool,
    bets: Sequence[int] | None,
) -> Showdown:
    """:func:`settle` of any hands, pair by pair through :func:`_compare_pair`."""
    n = len(hands)
    if params.banker:
        b = 0 if banker is None else banker
        if not 0 <= b < n:
            raise IllegalAction(f"the banker must be a seat 0-{n - 1}, got {b}")
        couples = [(b, p) for p in range(n) if p != b]
    else:
        if banker is not None:
            raise IllegalAction(
                "this code is not a banker game: every pair of seats settles (no --banker)"
            )
        couples = _couples(n)
    scores = [0] * n
    pairs: list[PairResult] = []
    guns: dict[int, set[int]] = {}  # by shooter, once it has shot
    side = 0 if params.banker else -1
    betting = params.banker and bets is not None
    # the common case written out: points, no banker-favoured comparison, neither hand a
    # special nor 倒水 (as _compare_pair and _row_results would judge the pair)
    plain_points = chosen == "points" and not favoured
    tie = 1 if side == 0 and params.ties_to_banker else 0  # a banker is side 0 of a pair
    bonus_of = _bonus_table(params) if plain_points else ()
    for i, j in couples:
        one, two = hands[i], hands[j]
        if (
            plain_points
            and one.special is None
            and two.special is None
            and not one.foul
            and not two.foul
        ):
            (x0, x1, x2), (y0, y1, y2) = one.values, two.values
            res = (
                1 if x0 > y0 else -1 if x0 < y0 else tie,
                1 if x1 > y1 else -1 if x1 < y1 else tie,
                1 if x2 > y2 else -1 if x2 < y2 else tie,
            )
            pair = _points_pair(one, two, params, res, "rows", bonus_of)
        else:
            pair = _compare_pair(one, two, params, chosen, side, favoured)
        pair.seats = (i, j)
        if betting:
            assert bets is not None
            pair.amount *= bets[j]
            if pair.row_amounts is not None:
                r0, r1, r2 = (x * bets[j] for x in pair.row_amounts)
                pair.row_amounts = (r0, r1, r2)
            for bonus in pair.bonuses:
                bonus["points"] *= bets[j]
        if pair.gun is not None:
            shooter, target = (i, j) if pair.gun == 0 else (j, i)
            pair.gun = shooter
            if shooter in guns:
                guns[shooter].add(target)
            else:
                guns[shooter] = {target}
        if pair.bonuses:
            for bonus in pair.bonuses:
                bonus["seat"] = (i, j)[bonus["seat"]]
        scores[i] += pair.amount
        scores[j] -= pair.amount
        pairs.append(pair)
    homeruns: list[int] = []
    if chosen == "points" and params.homerun_bonus and n - 1 >= params.homerun_opponents:
        for seat in range(n):
            if len(guns.get(seat, ())) == n - 1:
                # 全垒打: 打枪 against every other player; each pays the bonus on top
                homeruns.append(seat)
                for other in range(n):
                    if other != seat:
                        scores[seat] += params.homerun_bonus
                        scores[other] -= params.homerun_bonus
    return Showdown(
        scoring=chosen,
        hands=list(hands),
        pairs=pairs,
        scores=[s * stake for s in scores],
        banker=(0 if banker is None else banker) if params.banker else None,
        stake=stake,
        homeruns=homeruns,
        bets=list(bets) if params.banker and bets is not None else None,
    )


def _settle_points(params: ShisanzhangParams, hands: Sequence[Hand], stake: int) -> Showdown:
    """:func:`settle` of the common hand written out: the points settlement of a code
    without a banker, no banker-favoured comparison, every hand arranged without 倒水
    (no special): every pair compared row by row, each won row's points and bonus, 打枪
    and 全垒打, as :func:`_points_pair` and the loop of :func:`settle` reckon them (a
    pair's bonuses and 打枪 named by table seat at once)."""
    n = len(hands)
    p0, p1, p2 = params.row_points
    bonus0, bonus1, bonus2 = _bonus_table(params)
    gun_bonus = params.gun_bonus
    shift = CATEGORY_SHIFT
    scores = [0] * n
    shot = [0] * n  # opponents each seat shot (打枪): every pair is compared once
    pairs: list[PairResult] = []
    for i, j in _couples(n):
        x0, x1, x2 = hands[i].values
        y0, y1, y2 = hands[j].values
        bonuses: list[dict[str, Any]] = []
        if x0 > y0:
            r0, bonus = 1, bonus0[x0 >> shift]
            e0 = p0 + bonus
            if bonus:
                bonuses.append(_bonus_of_seat(i, 0, x0 >> shift, bonus))
        elif x0 < y0:
            r0, bonus = -1, bonus0[y0 >> shift]
            e0 = -(p0 + bonus)
            if bonus:
                bonuses.append(_bonus_of_seat(j, 0, y0 >> shift, bonus))
        else:
            r0 = e0 = 0
        if x1 > y1:
            r1, bonus = 1, bonus1[x1 >> shift]
            e1 = p1 + bonus
            if bonus:
                bonuses.append(_bonus_of_seat(i, 1, x1 >> shift, bonus))
        elif x1 < y1:
            r1, bonus = -1, bonus1[y1 >> shift]
            e1 = -(p1 + bonus)
            if bonus:
                bonuses.append(_bonus_of_seat(j, 1, y1 >> shift, bonus))
        else:
            r1 = e1 = 0
        if x2 > y2:
            r2, bonus = 1, bonus2[x2 >> shift]
            e2 = p2 + bonus
            if bonus:
                bonuses.append(_bonus_of_seat(i, 2, x2 >> shift, bonus))
        elif x2 < y2:
            r2, bonus = -1, bonus2[y2 >> shift]
            e2 = -(p2 + bonus)
            if bonus:
                bonuses.append(_bonus_of_seat(j, 2, y2 >> shift, bonus))
        else:
            r2 = e2 = 0
        amount = e0 + e1 + e2
        gun = None
        if gun_bonus and abs(r0 + r1 + r2) == 3:
            # 打枪: three rows won against one opponent
            if r0 > 0:
                gun = i
                amount += gun_bonus
            else:
                gun = j
                amount -= gun_bonus
            shot[gun] += 1
        pairs.append(PairResult((i, j), (r0, r1, r2), amount, gun, bonuses, "rows", (e0, e1, e2)))
        scores[i] += amount
        scores[j] -= amount
    homeruns: list[int] = []
    if params.homerun_bonus and n - 1 >= params.homerun_opponents:
        for seat in range(n):
            if shot[seat] == n - 1:
                # 全垒打: 打枪 against every other player; each pays the bonus on top
                homeruns.append(seat)
                for other in range(n):
                    if other != seat:
                        scores[seat] += params.homerun_bonus
                        scores[other] -= params.homerun_bonus
    return Showdown(
        scoring="points",
        hands=list(hands),
        pairs=pairs,
        scores=[s * stake for s in scores],
        banker=None,
        stake=stake,
        homeruns=homeruns,
        bets=None,
    )


# ------------------------------------------------------------------------------ text


def forced_special(
    cards: Sequence[Card], params: ShisanzhangParams, scoring: Scoring | None = None
) -> Special | None:
    """The special a seat must show instead of arranging (免摆, or every hand in 绍兴13张1)."""
    if params.specials_forced:
        return best_special(cards, params, scoring)
    return None


def parse_hand(
    text: str, params: ShisanzhangParams, scoring: Scoring | None = None, seat: int = 0
) -> Hand:
    """A seat's hand from text: ``"f / m / b"`` (arranged) or 13 cards (declared special).

    A hand holding a 免摆 special (or any hand of 绍兴13张1) is shown as that special even
    when written as rows: it does not arrange.
    """
    parts = [p.strip() for p in text.split("/")]
    if len(parts) == 1:
        cards = parse_cards(parts[0])
        if len(cards) != 13:
            raise NotationError(
                f"hand {seat}: {text!r} has {len(cards)} cards; write 13 cards (a declared "
                "special hand) or an arrangement 'front / middle / back' of 3, 5 and 5 cards"
            )
        special = best_special(cards, params, scoring)
        if special is None:
            raise IllegalAction(
                f"hand {seat}: {format_cards(cards)} is no special hand this code lets you "
                "declare; arrange it as 'front / middle / back'"
            )
        return declared(cards, special)
    if len(parts) != 3:
        raise NotationError(
            f"hand {seat}: {text!r}: an arrangement is 'front / middle / back' (two slashes)"
        )
    front, middle, back = (parse_cards(p) for p in parts)
    if (len(front), len(middle), len(back)) != (3, 5, 5):
        raise NotationError(
            f"hand {seat}: rows of {len(front)}, {len(middle)} and {len(back)} cards; "
            "the front holds 3 cards, the middle and back 5 each"
        )
    cards = (*front, *middle, *back)
    forced = forced_special(cards, params, scoring)
    if forced is not None:
        return declared(cards, forced)
    return arranged((front, middle, back), params.row_rules())


def showdown(
    code: str,
    hands: Sequence[str],
    banker: int | None = None,
    scoring: str | None = None,
    stake: int = 1,
    favoured: bool = False,
    bets: Sequence[int] | None = None,
) -> dict[str, Any]:
    """Compare and settle hands written as text (see :func:`parse_hand`) under ``code``.

    Returns ``{"scores", "pairs", "fouls", "specials", "hands", "homeruns", …}``; raises
    :class:`~paiju.errors.IllegalAction` or :class:`~paiju.errors.NotationError` naming
    the hand at fault.
    """
    from paiju.catalog import find_variant

    variant = find_variant(code)
    if variant.family != "shisanzhang":
        raise IllegalAction(f"{variant.code} is not a 十三张 code")
    params = variant.params_as(ShisanzhangParams)
    chosen = _check_scoring(params, variant.code, scoring)
    low, high = variant.players
    if not low <= len(hands) <= high:
        raise IllegalAction(f"{variant.code} is played by {low}-{high} hands, got {len(hands)}")
    parsed = [parse_hand(text, params, chosen, seat) for seat, text in enumerate(hands)]
    seen: dict[Card, int] = {}
    for seat, hand in enumerate(parsed):
        for card in hand.cards:
            if card in seen:
                raise IllegalAction(f"{card} is in hand {seen[card]} and in hand {seat}")
            seen[card] = seat
    if bets is not None:
        if not params.banker or len(bets) != len(hands):
            raise IllegalAction(
                "bets go with a banker game, one per hand (the banker's is ignored)"
            )
        the_banker = 0 if banker is None else banker
        if any(b < 1 for s, b in enumerate(bets) if s != the_banker):
            raise IllegalAction(f"every player's bet is at least 1, got {list(bets)}")
    result = settle(params, parsed, chosen, banker, stake, favoured, bets).to_json()
    return {"code": variant.code, **result}


def _check_scoring(params: ShisanzhangParams, code: str, scoring: str | None) -> Scoring:
    if scoring is None:
        return params.scoring
    for offered in params.scorings_offered:
        if offered == scoring:
            return offered
    raise IllegalAction(
        f"{code} is settled by {' or '.join(params.scorings_offered)}, not {scoring!r}"
    )
