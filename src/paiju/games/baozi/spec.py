"""The rule parameters of a 宝子 / 佳佳宝 code: the ``[variant.params]`` table of its entry.

Every two-card rule of the family is data here, never a branch on the code:

* ``points`` - the point value (点数) of A, 10, J, Q, K and the jokers (王); 2-9 count their face;
* ``ten_high`` - "10点最大": points run 1..10 (a sum ending in 0 counts 10) instead of
  0..9 with 0 worst; ``count_points = false`` where hands have no points at all (2104);
* ``ladder`` - the two-card hands that beat every points hand (对子, 王+A, 混合), high to
  low, written like the rule text: ``"WW=AA>WA>KK>QQ"`` (``W`` = 王, either joker;
  ``=`` joins equal hands); ``same_colour_pairs`` - 分红对和黑对: two suited cards of one
  rank make a pair only when both are red or both black (王王 always counts);
* ``card_order`` - the single-card order (单牌) of the top-card tie-break, high to low,
  ``=`` for equal ranks (``"A=W>K>Q>…>2"``: a joker ranks as A);
* ``ladder_ties`` / ``point_ties`` - the tie-break chain (同点 / 同对) for ladder hands and for
  points hands, tried in order: ``top_card`` (the higher card, then the other, by
  ``card_order``), ``red_count`` (more red cards: 两红 > 一红一黑 > 两黑), ``suit_top``
  (the suit of the top card, 黑桃 > 红心 > 梅花 > 方块), ``best_suit`` (the best suit among
  the two cards), and last ``banker`` (庄家大: the banker wins what is still tied); without
  ``banker`` a tie is a push (和);
* ``banker_points`` - points totals whose ties go to the banker before any card is
  compared (2020: "特殊的是：同是0点庄家大").

>>> r = TwoCardRules(points={"J": 1, "Q": 2, "K": 3}, ladder="AA>KK>QQ")
>>> r.ladder_levels()
((('A', 'A'),), (('K', 'K'),), (('Q', 'Q'),))
>>> r.card_levels()["A"], r.card_levels()["2"]
(12, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

if TYPE_CHECKING:
    from paiju.catalog import Variant

__all__ = [
    "RANK_SYMBOLS",
    "BaoziParams",
    "Dealing",
    "JiajiabaoParams",
    "TieBreak",
    "TwoCardRules",
    "params_of",
]

RANK_SYMBOLS = "23456789TJQKAW"
"""Rank symbols of the family: 2-9, T (10), J, Q, K, A and W (王, either joker)."""

POINT_KEYS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "W")
DEFAULT_POINTS = {
    "A": 1,
    **{str(n): n for n in range(2, 10)},
    "T": 0,
    "J": 0,
    "Q": 0,
    "K": 0,
    "W": 0,
}
"""Point values unless the entry says otherwise: A 1, 2-9 face value, 10 J Q K 王 0."""

TieBreak = Literal["top_card", "red_count", "suit_top", "best_suit", "banker"]
Dealing = Literal["one_at_a_time", "two_at_once", "four_at_once"]
"""How clients animate the deal (单张发 / 2张发 / 4连发); it never changes the odds."""

DEFAULT_ORDER = "A>K>Q>J>T>9>8>7>6>5>4>3>2"


def parse_order(text: str, width: int, what: str) -> tuple[tuple[str, ...], ...]:
    """``"WW=AA>WA>KK"`` -> levels high to low, each a tuple of equal items of ``width`` symbols."""
    levels: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for part in text.replace(" ", "").split(">"):
        if not part:
            raise ValueError(f"{what} {text!r}: empty level between '>' signs")
        items: list[str] = []
        for item in part.split("="):
            if len(item) != width or any(ch not in RANK_SYMBOLS for ch in item):
                raise ValueError(
                    f"{what} {text!r}: {item!r} is not {width} rank symbol(s) of "
                    f"{RANK_SYMBOLS} (W = 王)"
                )
            canon = "".join(sorted(item, key=RANK_SYMBOLS.index, reverse=True))
            if canon in seen:
                raise ValueError(f"{what} {text!r}: {item!r} is listed twice")
            seen.add(canon)
            items.append(canon)
        levels.append(tuple(items))
    return tuple(levels)


class TwoCardRules(BaseModel):
    """How two cards are read and compared (the shared core of 宝子 and 佳佳宝)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    points: dict[str, int] = Field(default_factory=dict)
    count_points: bool = True
    ten_high: bool = False
    ladder: str
    same_colour_pairs: bool = False
    card_order: str = DEFAULT_ORDER
    ladder_ties: tuple[TieBreak, ...] = ()
    point_ties: tuple[TieBreak, ...] = ()
    banker_points: tuple[int, ...] = ()

    @field_validator("points")
    @classmethod
    def _known_points(cls, value: dict[str, int]) -> dict[str, int]:
        for key, pts in value.items():
            if key not in POINT_KEYS:
                raise ValueError(
                    f"unknown card {key!r} in points; keys are {' '.join(POINT_KEYS)} (W = 王)"
                )
            if not 0 <= pts <= 10:
                raise ValueError(f"points of {key} must be 0-10, got {pts}")
        return value

    @field_validator("ladder_ties", "point_ties")
    @classmethod
    def _banker_last(cls, value: tuple[TieBreak, ...]) -> tuple[TieBreak, ...]:
        if "banker" in value[:-1]:
            raise ValueError("'banker' (庄家大) ends a tie-break chain; nothing can follow it")
        if len(set(value)) != len(value):
            raise ValueError(f"a tie-break is repeated in {list(value)}")
        return value

    @field_validator("ladder")
    @classmethod
    def _ladder_parses(cls, value: str) -> str:
        if value.strip():
            parse_order(value, 2, "ladder")
        return value

    @field_validator("card_order")
    @classmethod
    def _card_order_parses(cls, value: str) -> str:
        parse_order(value, 1, "card_order")
        return value

    @field_validator("banker_points")
    @classmethod
    def _points_totals(cls, value: tuple[int, ...], info: ValidationInfo) -> tuple[int, ...]:
        top = 10 if info.data.get("ten_high") else 9
        for pts in value:
            if not 0 <= pts <= top:
                raise ValueError(f"{pts} is not a points total of this code (0-{top})")
        return value

    def ladder_levels(self) -> tuple[tuple[tuple[str, str], ...], ...]:
        """The ladder high to low; each level holds its equal two-card classes (rank symbols)."""
        if not self.ladder.strip():
            return ()
        levels = parse_order(self.ladder, 2, "ladder")
        return tuple(tuple((item[0], item[1]) for item in level) for level in levels)

    def card_levels(self) -> dict[str, int]:
        """Single-card order: rank symbol -> level (higher is better; equal ranks share it)."""
        levels = parse_order(self.card_order, 1, "card_order")
        return {sym: len(levels) - 1 - i for i, level in enumerate(levels) for sym in level}

    @property
    def point_values(self) -> dict[str, int]:
        """Point value of every rank symbol (defaults filled in)."""
        return {**DEFAULT_POINTS, **self.points}


class BaoziParams(TwoCardRules):
    """宝子: a banker against each player, two cards each."""

    dealing: Dealing = "one_at_a_time"


class JiajiabaoParams(TwoCardRules):
    """佳佳宝: four cards split into a front (前) and a back (后) group of two."""

    dealing: Dealing = "one_at_a_time"
    grouping: Literal["free", "fixed"] = "free"
    """``free`` - 自由组牌; ``fixed`` - 2104's rule: a pair stays together, otherwise the
    highest card goes with the lowest and the second with the third."""


def params_of(variant: Variant) -> BaoziParams | JiajiabaoParams:
    """The validated params of a 宝子 or 佳佳宝 variant (CatalogError when they do not fit)."""
    if variant.family == "jiajiabao":
        return variant.params_as(JiajiabaoParams)
    return variant.params_as(BaoziParams)
