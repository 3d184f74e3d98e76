"""The two-card evaluator of 宝子 and 佳佳宝: one reader of the spec, no per-code branches.

A two-card hand is read once into a :class:`Reading`: a ladder hand (对子 pair, 王+A, 混合
combo) that beats every points hand, or a points hand (点数, sum mod 10, 9 best and 0 worst,
or 1..10 where the code says 10点最大), or, where the code counts no points (2104), a plain
high-card hand (散牌). Each hand gets a dense integer ``rank`` among all two-card hands of
the deck, built once per variant, so comparing two hands is comparing two ints; equal
ranks are a tie that goes to the banker (庄家大) when ``banker_ties`` is set, else a push.

>>> from paiju.catalog import find_variant
>>> ev = evaluator(find_variant("2008"))
>>> ev.read_text("As 8c").name, ev.read_text("Kd 6h").name
('9点', '9点')
>>> ev.compare_text("Kd 6h", "As 8c")  # banker first: A+8 > K+6
'player'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from paiju.cards import Card, deck, format_cards, parse_cards
from paiju.errors import CatalogError, IllegalAction
from paiju.games.baozi.spec import RANK_SYMBOLS, TieBreak, TwoCardRules

if TYPE_CHECKING:
    from paiju.catalog import Variant

__all__ = ["Evaluator", "Outcome", "Reading", "evaluator", "symbol"]

Outcome = Literal["banker", "player", "push"]

_NAMES = {"T": "10", "W": "王"}


def symbol(card: int) -> str:
    """The family's rank symbol of a card: ``2``-``9``, ``T``, ``J``-``A``, ``W`` (王)."""
    return "W" if card >= 52 else "23456789TJQKA"[card // 4]


def _suit(card: int) -> int:
    """0-3 for 黑桃 红心 梅花 方块; 4 (worse than any suit) for a joker."""
    return 4 if card >= 52 else card % 4


def _name(sym: str) -> str:
    return _NAMES.get(sym, sym)


@dataclass(frozen=True)
class Reading:
    """How a two-card hand was read: its kind, name, points and strength rank."""

    cards: tuple[Card, Card]
    kind: Literal["pair", "combo", "points", "high"]
    """``pair`` 对子, ``combo`` another ladder hand (王+A, 混合), ``points`` 点数, ``high`` 散牌."""
    name: str
    """The hand in Chinese: ``对K``, ``王+A``, ``K+Q``, ``7点``, ``散牌``."""
    points: int | None
    rank: int
    """Dense strength among the two-card hands of the deck (higher is better)."""
    banker_ties: bool
    """Whether a tie of this hand goes to the banker (庄家大)."""

    @property
    def is_ladder(self) -> bool:
        """A ladder hand (对子 or another hand that beats every points hand)."""
        return self.kind in ("pair", "combo")

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": format_cards(self.cards),
            "kind": self.kind,
            "name": self.name,
            "points": self.points,
            "rank": self.rank,
        }


class Evaluator:
    """The two-card rules of one variant, with every hand of its deck ranked once."""

    def __init__(self, rules: TwoCardRules, deck_name: str, code: str = "") -> None:
        self.rules = rules
        self.code = code
        self.deck: tuple[Card, ...] = tuple(sorted(set(deck(deck_name))))
        self.card_level = rules.card_levels()
        self.values = rules.point_values
        missing = sorted({symbol(c) for c in self.deck} - set(self.card_level))
        if missing:
            raise CatalogError(
                f"entry {code!r}: field params.card_order: {rules.card_order!r} does not rank "
                f"{', '.join(missing)} of the {deck_name}-card deck"
            )
        levels = rules.ladder_levels()
        self.ladder: dict[tuple[str, str], int] = {
            item: len(levels) - i for i, level in enumerate(levels) for item in level
        }
        keys: dict[tuple[int, int], tuple[int, ...]] = {}
        for i, a in enumerate(self.deck):
            for b in self.deck[i + 1 :]:
                keys[a, b] = self._key(a, b)
        order = {key: n for n, key in enumerate(sorted(set(keys.values())))}
        self._rank = {pair: order[key] for pair, key in keys.items()}
        self.top_rank = len(order) - 1
        self._reads: dict[tuple[int, ...], Reading] = {}
        """:meth:`read` of each two cards in the order given, once (a showdown reads every
        hand several times; readings are frozen)."""

    # -- reading ------------------------------------------------------------------

    def _ladder_class(self, a: Card, b: Card) -> tuple[str, str] | None:
        sa, sb = symbol(a), symbol(b)
        cls = (sa, sb) if RANK_SYMBOLS.index(sa) >= RANK_SYMBOLS.index(sb) else (sb, sa)
        if cls not in self.ladder:
            return None
        same_rank_suited = sa == sb and sa != "W"
        if self.rules.same_colour_pairs and same_rank_suited and a.is_red != b.is_red:
            return None  # 分红对和黑对: 红心K+黑桃K 不算对子
        return cls

    def points(self, a: Card, b: Card) -> int:
        """Points (点数): the sum mod 10; 0 counts 10 where the code says 10点最大."""
        total = (self.values[symbol(a)] + self.values[symbol(b)]) % 10
        return 10 if total == 0 and self.rules.ten_high else total

    def _ties(self, chain: Iterable[TieBreak], a: Card, b: Card) -> tuple[int, ...]:
        lv = self.card_level
        out: list[int] = []
        for step in chain:
            if step == "top_card":
                out.extend(sorted((lv[symbol(a)], lv[symbol(b)]), reverse=True))
            elif step == "red_count":
                out.append(int(a.is_red) + int(b.is_red))
            elif step == "suit_top":
                top = max((a, b), key=lambda c: (lv[symbol(c)], -_suit(c)))
                out.append(4 - _suit(top))
            elif step == "best_suit":
                out.append(4 - min(_suit(a), _suit(b)))
        return tuple(out)

    def _key(self, a: Card, b: Card) -> tuple[int, ...]:
        rules = self.rules
        cls = self._ladder_class(a, b)
        if cls is not None:
            return (1, self.ladder[cls], *self._ties(rules.ladder_ties, a, b))
        pts = self.points(a, b) if rules.count_points else 0
        ties = self._ties(rules.point_ties, a, b)
        if rules.count_points and pts in rules.banker_points:
            ties = (0,) * len(ties)  # 同是0点庄家大: decided before any card is compared
        return (0, pts, *ties)

    def _cards(self, cards: Sequence[int]) -> tuple[Card, Card]:
        if len(cards) != 2:
            raise IllegalAction(
                f"a {self.code} hand is two cards, got {len(cards)}: {format_cards(cards)!r}"
            )
        a, b = Card(cards[0]), Card(cards[1])
        for c in (a, b):
            if c not in self.deck:
                raise IllegalAction(f"{c} is not a card of the {self.code} deck")
        if a == b:
            raise IllegalAction(f"{a} twice: the {self.code} deck has one of each card")
        return a, b

    def rank(self, a: int, b: int) -> int:
        """The strength rank of two distinct cards of the deck (higher is better)."""
        return self._rank[(a, b) if a < b else (b, a)]

    def read(self, cards: Sequence[int]) -> Reading:
        """Read a two-card hand: kind, name, points and rank."""
        key = tuple(cards)
        found = self._reads.get(key)
        if found is None:
            found = self._reads[key] = self._read(cards)
        return found

    def _read(self, cards: Sequence[int]) -> Reading:
        a, b = self._cards(cards)
        rules = self.rules
        cls = self._ladder_class(a, b)
        rank = self.rank(a, b)
        if cls is not None:
            kind: Literal["pair", "combo"] = "pair" if cls[0] == cls[1] else "combo"
            name = f"对{_name(cls[0])}" if kind == "pair" else f"{_name(cls[0])}+{_name(cls[1])}"
            return Reading((a, b), kind, name, None, rank, "banker" in rules.ladder_ties)
        if not rules.count_points:
            return Reading((a, b), "high", "散牌", None, rank, "banker" in rules.point_ties)
        pts = self.points(a, b)
        tie = "banker" in rules.point_ties or pts in rules.banker_points
        return Reading((a, b), "points", f"{pts}点", pts, rank, tie)

    def read_text(self, text: str) -> Reading:
        return self.read(parse_cards(text))

    # -- comparing ---------------------------------------------------------------

    def outcome(self, banker: Reading, player: Reading) -> Outcome:
        """Who wins between the banker's and a player's hand (or ``push``, 和)."""
        if player.rank > banker.rank:
            return "player"
        if player.rank < banker.rank:
            return "banker"
        return "banker" if banker.banker_ties else "push"

    def compare(self, banker: Sequence[int], player: Sequence[int]) -> Outcome:
        return self.outcome(self.read(banker), self.read(player))

    def compare_text(self, banker: str, player: str) -> Outcome:
        return self.compare(parse_cards(banker), parse_cards(player))

    def ladder_tie_to_banker(self) -> bool:
        return "banker" in self.rules.ladder_ties


_EVALUATORS: dict[str, tuple[Variant, Evaluator]] = {}


@cache
def _evaluator(rules_json: str, deck_name: str, code: str) -> Evaluator:
    return Evaluator(TwoCardRules.model_validate_json(rules_json), deck_name, code)


def evaluator(variant: Variant) -> Evaluator:
    """The (cached) evaluator of a 宝子 or 佳佳宝 variant."""
    cached = _EVALUATORS.get(variant.code)
    if cached is not None and cached[0] is variant:
        return cached[1]
    from paiju.games.baozi.spec import params_of

    params = params_of(variant)
    if not isinstance(params, TwoCardRules):
        raise CatalogError(f"entry {variant.code!r} has no two-card rules (params)")
    rules = TwoCardRules.model_validate(params.model_dump(include=set(TwoCardRules.model_fields)))
    ev = _evaluator(rules.model_dump_json(), variant.deck, variant.code)
    _EVALUATORS[variant.code] = (variant, ev)
    return ev
