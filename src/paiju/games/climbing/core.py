"""The climbing core (出牌 games): beat the play on the table or pass, finish first.

A game of the family is three pieces, each small:

* a :class:`Rules` object (the combinations as data plus hook functions): the single-card
  order, :meth:`Rules.classify` (cards -> :class:`Combo`, or None), :meth:`Rules.beats`
  (does a combination beat the one on the table) and :meth:`Rules.combos` (every
  combination a hand can make); :meth:`Rules.plays` filters those against the table;
* a :class:`ClimbingGame` subclass (deal, options, the first state);
* a :class:`ClimbingState` subclass overriding the hooks of one deal (盘): who leads first,
  teams (固定 fixed, 叫 called, hidden until revealed), 接风 (:meth:`ClimbingState.jiefeng`),
  the end of the deal (:meth:`ClimbingState.deal_over`), the settlement and what carries to
  the next deal (:meth:`ClimbingState.next_context`); phases before play (a call, a tribute)
  through :meth:`ClimbingState.check_other` / :meth:`ClimbingState.apply_other`.

The core runs the shared state machine: turn order in seat order (``s + 1`` is the 下家),
a lead (首出) of any combination, then each seat still in plays a beating combination or
passes (过). A pass is not final: a seat that passed plays again when the turn comes back
after someone else played. When every other seat still in has passed on the table's play,
the trick ends: its player leads again, or, if that player has gone out, the game's 接风
rule names the leader. Seats that have gone out (出完, in the finishing order 头游, 二游 …)
or stopped (a failed 宣战 in 打弹子) are skipped.
"""

from __future__ import annotations

import functools
import itertools
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self, cast

from pydantic import BaseModel

from paiju.cards import BLACK_JOKER, RED_JOKER, Card, CardList, format_cards
from paiju.engine import Action, Deal, Event, Game, State
from paiju.engine import P as _P
from paiju.errors import IllegalAction
from paiju.sampling import Allowed, Script, deal_hidden, replay_sample

if TYPE_CHECKING:
    import random

__all__ = [
    "NOBODY",
    "PLACE_ZH",
    "ClimbingGame",
    "ClimbingState",
    "Combo",
    "Finished",
    "LeadTaken",
    "Pass",
    "Passed",
    "Play",
    "Played",
    "Rules",
    "SameRankRules",
    "TrickEnded",
    "as_cards",
    "brute_force_plays",
    "copy_counter",
    "field",
    "one_seat",
    "only",
    "seat_list",
]

JSON = dict[str, Any]

PLACE_ZH = ("头游", "二游", "三游", "四游", "五游", "六游", "七游", "八游")
"""The finishing places by name (the last of a deal is often called 末游)."""


# ------------------------------------------------------------------------ combinations


@dataclass(frozen=True, slots=True)
class Combo:
    """A combination (牌型): its kind, its rank inside the kind, its length and its cards.

    ``kind`` is a stable id of the game's vocabulary (``single``, ``pair`` …; the game's
    :attr:`Rules.kind_zh` names it in Chinese); ``rank`` orders combinations of one kind
    (higher beats lower); ``length`` is what must match besides the kind (a card count, or a
    run's length); ``cards`` are sorted by the game's order, low to high.
    """

    kind: str
    rank: int
    length: int
    cards: tuple[int, ...]


class Rules(ABC):
    """A climbing game's combinations: data (names, the order) and hook functions.

    Subclasses set :attr:`kind_zh` and :attr:`order` and implement :meth:`classify` and
    :meth:`combos`; :meth:`beats` compares same kind, same length, higher rank by default
    and is where bombs (kinds that beat other kinds) go.
    """

    kind_zh: ClassVar[Mapping[str, str]]
    """Each kind id's Chinese name (``{"single": "单张", …}``)."""
    kind_en: ClassVar[Mapping[str, str]] = {}
    max_cards: ClassVar[int] = 27
    """The most cards one combination may hold (bounds brute-force enumeration)."""
    order: ClassVar[tuple[int, ...]]
    """Single-card strength levels, low to high: ``order[level]`` is a card-rank (2-16, see
    :attr:`paiju.cards.Card.rank`) … set by subclasses through :meth:`level_of`."""

    def __init__(self) -> None:
        levels: dict[int, int] = {}
        for level, rank in enumerate(self.order):
            levels[rank] = level
        self._level = [levels.get(_card_rank(c), -1) for c in range(54)]
        # (level, card) as one int, for sort: a card is below 64
        self._sort_key = [level * 64 + c for c, level in enumerate(self._level)]

    # -- the single-card order -------------------------------------------------------

    def level(self, card: int) -> int:
        """The card's strength level (0 = the lowest rank of the game); suits never count."""
        return self._level[card]

    def sort(self, cards: Iterable[int]) -> list[int]:
        """Cards low to high by the game's order (then by suit, for a stable display)."""
        return sorted(cards, key=self._sort_key.__getitem__)

    def rank_text(self, level: int) -> str:
        """The rank name of a level: ``3`` … ``10`` … ``A``, ``2``, ``BJ`` (小王), ``RJ`` (大王)."""
        rank = self.order[level]
        return {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A", 15: "BJ", 16: "RJ"}.get(
            rank, str(rank)
        )

    def order_text(self) -> str:
        """The order low to high as text, e.g. ``3 4 5 6 7 8 9 10 J Q K A 2 BJ RJ``."""
        return " ".join(self.rank_text(i) for i in range(len(self.order)))

    # -- hooks -------------------------------------------------------------------------

    @abstractmethod
    def classify(self, cards: Sequence[int]) -> Combo | None:
        """The combination these cards make, or None when they make none."""

    def explain(self, cards: Sequence[int]) -> str:
        """Why ``cards`` are no combination (for refusals); override for a finer reason."""
        names = "、".join(self.kind_zh.values())
        return f"{format_cards(cards) or 'nothing'} is not a combination ({names})"

    def beats(self, play: Combo, table: Combo) -> bool:
        """Whether ``play`` beats ``table``: by default same kind and length, higher rank."""
        return play.kind == table.kind and play.length == table.length and play.rank > table.rank

    def why_not(self, play: Combo, table: Combo) -> tuple[str, str]:
        """``(reason, sentence)`` of a play that does not beat the table (for refusals)."""
        if play.kind != table.kind or play.length != table.length:
            return (
                "wrong_kind",
                f"a {self.kind_zh[table.kind]} is beaten only by a higher "
                f"{self.kind_zh[table.kind]}, not by a {self.kind_zh[play.kind]}",
            )
        return (
            "not_higher",
            f"{self.kind_zh[play.kind]} of {self.rank_text(play.rank)} does not beat "
            f"{self.kind_zh[table.kind]} of {self.rank_text(table.rank)}: it must be higher",
        )

    @abstractmethod
    def combos(self, hand: Sequence[int]) -> Iterator[Combo]:
        """Every combination the hand can make, each distinct multiset of cards once."""

    def plays(self, hand: Sequence[int], table: Combo | None) -> list[Combo]:
        """Every legal play of ``hand``: any combination on a lead, else those that beat."""
        if table is None:
            return list(self.combos(hand))
        return [c for c in self.combos(hand) if self.beats(c, table)]

    def beatable(self, hand: Sequence[int], table: Combo) -> bool:
        """Whether ``hand`` holds a play that beats ``table`` (``bool(plays(hand, table))``,
        stopping at the first such play)."""
        return any(self.beats(c, table) for c in self.combos(hand))

    def describe(self, combo: Combo) -> JSON:
        """The JSON of a combination: ``{"kind", "kind_zh", "rank", "length", "cards"}``."""
        return {
            "kind": combo.kind,
            "kind_zh": self.kind_zh[combo.kind],
            "rank": self.rank_text(combo.rank),
            "length": combo.length,
            "cards": format_cards(combo.cards),
        }


def as_cards(cards: Sequence[int]) -> tuple[Card, ...]:
    """Card ints as the card tuple of an action (cards are ints; no copy is made)."""
    return cast("tuple[Card, ...]", tuple(cards))


def _card_rank(card: int) -> int:
    return 15 + (card - 52) if card >= 52 else card // 4 + 2


PLAYS_KEPT = 1 << 16
"""How many (hand, table) answers :meth:`SameRankRules.plays` remembers before it starts over."""


class SameRankRules(Rules):
    """Combinations of cards of one rank only (单张, 对, 三同张, 四同张 …): the two 鞍山 games.

    ``sizes`` maps a card count to its kind id; ``joker_sizes`` the counts jokers may form
    (a joker pair only of the same joker: ``RJ RJ``, never ``RJ BJ``).
    """

    sizes: ClassVar[Mapping[int, str]] = {1: "single", 2: "pair", 3: "triple", 4: "quad"}
    max_cards: ClassVar[int] = 4
    joker_sizes: ClassVar[frozenset[int]] = frozenset({1, 2})
    kind_zh: ClassVar[Mapping[str, str]] = {
        "single": "单张",
        "pair": "对",
        "triple": "三同张",
        "quad": "四同张",
    }
    kind_en: ClassVar[Mapping[str, str]] = {
        "single": "single",
        "pair": "pair",
        "triple": "triple",
        "quad": "quad",
    }

    def __init__(self, bombs: bool = False) -> None:
        super().__init__()
        self.bombs = bombs
        """四同张 beats every other kind (the ``quads_beat_all`` option)."""
        self._plays: dict[tuple[tuple[int, ...], tuple[str, int, int] | None], tuple[Combo, ...]]
        self._plays = {}
        self._made: dict[tuple[int, ...], Combo] = {}
        self._classified: dict[tuple[int, ...], Combo | None] = {}

    def __getstate__(self) -> dict[str, Any]:
        """The rules without what :meth:`plays`, :meth:`combos` and :meth:`classify`
        remember: a state's snapshot pickles its rules, and what was asked before changes
        nothing of them."""
        kept = dict(self.__dict__)
        del kept["_plays"], kept["_made"], kept["_classified"]
        return kept

    def __setstate__(self, kept: dict[str, Any]) -> None:
        self.__dict__.update(kept)
        self._plays = {}
        self._made = {}
        self._classified = {}

    def classify(self, cards: Sequence[int]) -> Combo | None:
        # remembered by the cards as given: every play is classified when it is checked
        key = tuple(cards)
        if key in self._classified:
            return self._classified[key]
        found = self._classify(key)
        if len(self._classified) >= PLAYS_KEPT:
            self._classified.clear()
        self._classified[key] = found
        return found

    def _classify(self, cards: tuple[int, ...]) -> Combo | None:
        if not cards or len(cards) not in self.sizes:
            return None
        first = cards[0]
        if first >= 52:
            # jokers pair only with the same joker: RJ RJ, BJ BJ (大小王不成对)
            if any(c != first for c in cards) or len(cards) not in self.joker_sizes:
                return None
        else:
            level = self._level[first]
            if level < 0 or any(c >= 52 or self._level[c] != level for c in cards):
                return None
        level = self._level[first]
        if level < 0:
            return None
        n = len(cards)
        return Combo(self.sizes[n], level, n, tuple([_CARD[c] for c in self.sort(cards)]))

    def explain(self, cards: Sequence[int]) -> str:
        if not cards:
            return "play at least one card"
        if len(cards) not in self.sizes:
            return (
                f"{len(cards)} cards are no combination: play 1 to {max(self.sizes)} cards"
                " of one rank"
            )
        if any(c >= 52 for c in cards):
            return (
                f"{format_cards(cards)}: a joker pairs only with the same joker"
                " (RJ RJ, BJ BJ), never with another card"
            )
        return f"{format_cards(cards)} mixes ranks: a combination is cards of one rank"

    def beats(self, play: Combo, table: Combo) -> bool:
        if self.bombs and play.kind == "quad" and table.kind != "quad":
            return True
        return play.kind == table.kind and play.rank > table.rank

    def combos(
        self, hand: Sequence[int], size: int | None = None, above: int = -1
    ) -> Iterator[Combo]:
        """Every combination of the hand (only ``size`` cards, only ranks above ``above``
        when given: what can beat a table without bombs)."""
        by_level: dict[int, list[int]] = {}
        level_of = self._level
        for c in hand:
            lv = level_of[c]
            if lv > above:
                by_level.setdefault(lv, []).append(c)
        sizes = self.sizes
        wanted = sorted(sizes) if size is None else [size]
        for level in sorted(by_level):
            cards = by_level[level]
            if level < 0:
                continue
            if cards[0] >= 52:
                groups: dict[int, list[int]] = {}
                for c in cards:
                    groups.setdefault(c, []).append(c)
                for same in groups.values():
                    for n in sorted(self.joker_sizes):
                        if n <= len(same) and n in wanted:
                            yield self._combo(sizes[n], level, n, tuple(same[:n]))
                continue
            copies: dict[int, int] = {}
            for c in cards:  # a dict, not a Counter: this runs for every rank of every decision
                copies[c] = copies.get(c, 0) + 1
            counts = tuple(sorted(copies.items()))
            for n in wanted:
                if n > len(cards):
                    break
                kind = sizes[n]
                made = self._made
                for chosen in _sub_multisets(counts, n):
                    combo = made.get(chosen)
                    if combo is None:
                        cards_of = tuple([_CARD[c] for c in chosen])
                        combo = made[chosen] = Combo(kind, level, n, cards_of)
                    yield combo

    def _combo(self, kind: str, level: int, n: int, cards: tuple[int, ...]) -> Combo:
        """The combination of ``cards``, made once (a combination is a value: the same
        cards make the same one, and :meth:`combos` yields them at every step of a search)."""
        combo = self._made.get(cards)
        if combo is None:
            combo = self._made[cards] = Combo(kind, level, n, tuple([_CARD[c] for c in cards]))
        return combo

    def beatable(self, hand: Sequence[int], table: Combo) -> bool:
        if self.bombs:
            return any(self.beats(c, table) for c in self.combos(hand))
        return next(iter(self.combos(hand, table.length, table.rank)), None) is not None

    def plays(self, hand: Sequence[int], table: Combo | None) -> list[Combo]:
        # remembered by the hand and what of the table decides (its kind, rank and length):
        # a search's rollouts ask for the same hands on the same tables over and over
        held = tuple(hand)
        key = (held, None if table is None else (table.kind, table.rank, table.length))
        known = self._plays.get(key)
        if known is None:
            # a table's answer filters the hand's every play (remembered as the lead's
            # answer): a rollout asks one hand against many tables, and a filter is cheaper
            # than :meth:`combos` again. Without bombs it is what ``combos(hand, length,
            # rank)`` yields, in its order: the plays of the table's size above its rank.
            if table is None:
                return list(self._remember(key, tuple(self.combos(hand))))
            every = self._plays.get((held, None))
            if every is None:
                every = self._remember((held, None), tuple(self.combos(hand)))
            if self.bombs:
                known = tuple(c for c in every if self.beats(c, table))
            else:
                length, rank = table.length, table.rank
                known = tuple(c for c in every if c.length == length and c.rank > rank)
            self._remember(key, known)
        return list(known)

    def _remember(
        self, key: tuple[tuple[int, ...], tuple[str, int, int] | None], plays: tuple[Combo, ...]
    ) -> tuple[Combo, ...]:
        """Keep the answer ``plays`` of ``key`` (hand, table), starting over when full."""
        if len(self._plays) >= PLAYS_KEPT:
            self._plays.clear()
        self._plays[key] = plays
        return plays


_CARD: tuple[Card, ...] = tuple(Card(i) for i in range(RED_JOKER + 1))
"""Each card's one :class:`Card`: what the rules remember (combinations, classifications,
plays) is asked with plain ints as well as cards (a bot's counted hands), and ints equal
cards as keys, so what they keep is made of cards whoever asked first."""


@functools.lru_cache(maxsize=1 << 16)
def _sub_multisets(counts: tuple[tuple[int, int], ...], n: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct multiset of ``n`` cards drawn from ``counts`` (card, copies), cached:
    the same rank groups come back hand after hand."""
    if n == 0:
        return ((),)
    if not counts:
        return ()
    (card, have), rest = counts[0], counts[1:]
    out: list[tuple[int, ...]] = []
    for take in range(min(have, n), -1, -1):
        for tail in _sub_multisets(rest, n - take):
            out.append((card,) * take + tail)
    return tuple(out)


def brute_force_plays(rules: Rules, hand: Sequence[int], table: Combo | None) -> list[Combo]:
    """Every legal play by trying every sub-multiset of the hand of up to
    :attr:`Rules.max_cards` cards (a baseline for benchmarks and tests: slow, obviously
    right)."""
    found: dict[tuple[int, ...], Combo] = {}
    cards = sorted(hand)
    for n in range(1, min(len(cards), rules.max_cards) + 1):
        for chosen in set(itertools.combinations(cards, n)):
            combo = rules.classify(chosen)
            if combo is not None and (table is None or rules.beats(combo, table)):
                found[tuple(sorted(chosen))] = combo
    return list(found.values())


# ---------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Play(Action):
    """出牌: put down ``cards``, a combination that leads or beats the table."""

    type: ClassVar[str] = "play"
    cards: CardList


@dataclass(frozen=True)
class Pass(Action):
    """过 (弃权, Pass): do not beat the table this time round."""

    type: ClassVar[str] = "pass"


# ----------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Played(Event):
    """``seat`` played ``cards``, a ``kind`` (the table's play now); ``left`` cards remain."""

    type: ClassVar[str] = "played"
    seat: int
    cards: CardList
    kind: str
    left: int


@dataclass(frozen=True)
class Passed(Event):
    type: ClassVar[str] = "passed"
    seat: int


_PASSED: Final = tuple(Passed(s) for s in range(8))
"""The :class:`Passed` event of each seat of a table of up to eight, made once (frozen)."""
_new = object.__new__
assert tuple(f.name for f in fields(Played)) == ("seat", "cards", "kind", "left"), (
    "apply_play fills Played's fields in their order, as its __init__ would"
)


@dataclass(frozen=True)
class Finished(Event):
    """``seat`` has gone out (出完) in ``place`` (1 = 头游)."""

    type: ClassVar[str] = "finished"
    seat: int
    place: int


@dataclass(frozen=True)
class TrickEnded(Event):
    """Everyone still in passed on ``winner``'s play: the table is cleared."""

    type: ClassVar[str] = "trick_ended"
    winner: int


@dataclass(frozen=True)
class LeadTaken(Event):
    """``seat`` leads the next trick; ``jiefeng`` when it took the lead over from ``after``
    (接风, 坐车: the winner of the trick had gone out)."""

    type: ClassVar[str] = "lead"
    seat: int
    jiefeng: bool = False
    after: int | None = None


CORE_EVENTS: tuple[type[Event], ...] = (Played, Passed, Finished, TrickEnded, LeadTaken)


# ------------------------------------------------------------------------------- game


class ClimbingGame(Game[_P]):
    """A climbing game: its :attr:`rules` and its room options validated by
    :attr:`options_model` (a pydantic model; room options override the variant's params
    defaults of the same names)."""

    actions: ClassVar[tuple[type[Action], ...]] = (Play, Pass)
    events: ClassVar[tuple[type[Event], ...]] = CORE_EVENTS
    options_model: ClassVar[type[BaseModel]]

    def validate_options(self, options: dict[str, Any]) -> Mapping[str, Any]:
        from pydantic import ValidationError

        defaults = {
            k: v
            for k, v in self.params.model_dump().items()
            if k in self.options_model.model_fields
        }
        try:
            model = self.options_model.model_validate({**defaults, **options})
        except ValidationError as exc:
            err = exc.errors()[0]
            name = ".".join(str(p) for p in err["loc"]) or "options"
            raise IllegalAction(
                f"{self.variant.code} room option {name}: {err['msg']}",
                reason="bad_option",
                option=name,
            ) from None
        result: dict[str, Any] = model.model_dump()
        return result

    @property
    def rules(self) -> Rules:
        """The combinations of this game with its options (built once per game)."""
        rules: Rules | None = self.__dict__.get("_rules")
        if rules is None:
            rules = self.__dict__["_rules"] = self.make_rules()
        return rules

    @abstractmethod
    def make_rules(self) -> Rules:
        """The :class:`Rules` of this game under its options."""

    # -- the questions of the command line (``paiju combo/beats/settle/jiefeng``) --------
    # Each game of the family answers them through these methods; a new game overrides
    # what differs (打弹子: takes in beats, its own settle fields).

    def read_cards(self, text: str, what: str = "cards") -> tuple[int, ...]:
        """Cards from notation, checked against the game's set (no card more often than
        the decks hold); raises NotationError."""
        from paiju.cards import parse_cards
        from paiju.errors import NotationError

        cards = parse_cards(text)
        have = Counter(self.full_set())
        for card, n in Counter(cards).items():
            if n > have[card]:
                copies = have[card]
                raise NotationError(
                    f"{what}: {format_cards([card])} appears {n} times, but the"
                    f" {self.variant.deck}-card set of {self.variant.code} holds"
                    f" {copies} {'copy' if copies == 1 else 'copies'}"
                )
        return cards

    def combo_json(self, text: str) -> JSON:
        """``paiju combo``: the combination of ``text``; IllegalAction when it is none."""
        cards = self.read_cards(text)
        combo = self.rules.classify(cards)
        if combo is None:
            raise IllegalAction(
                f"not a combination: {self.rules.explain(cards)}", reason="not_a_combination"
            )
        return self.rules.describe(combo)

    def beats_json(self, lead: str, play: str) -> JSON:
        """``paiju beats``: whether ``play`` beats ``lead`` (``lead`` must be a combination)."""
        table = self.rules.classify(self.read_cards(lead, "LEAD"))
        if table is None:
            raise IllegalAction(
                f"LEAD is not a combination: {self.rules.explain(self.read_cards(lead))}",
                reason="not_a_combination",
            )
        cards = self.read_cards(play, "PLAY")
        combo = self.rules.classify(cards)
        if combo is None:
            return {"beats": False, "reason": f"not a combination: {self.rules.explain(cards)}"}
        if self.rules.beats(combo, table):
            rz = self.rules
            return {
                "beats": True,
                "reason": f"{rz.kind_zh[combo.kind]} of {rz.rank_text(combo.rank)} beats "
                f"{rz.kind_zh[table.kind]} of {rz.rank_text(table.rank)}",
            }
        return {"beats": False, "reason": self.rules.why_not(combo, table)[1]}

    def settle_json(self, obj: Mapping[str, Any]) -> JSON:
        """``paiju settle``: the payout of a finishing order (fields per game)."""
        raise IllegalAction(f"{self.variant.code} has no settle question", reason="unsupported")

    def jiefeng_json(self, obj: Mapping[str, Any]) -> JSON:
        """``paiju jiefeng``: who leads after a finisher's play stood (fields per game)."""
        raise IllegalAction(f"{self.variant.code} has no jiefeng question", reason="unsupported")

    def call_json(self, card: str, hand: str) -> JSON:
        """``paiju call``: whether the banker may call ``card`` holding ``hand``."""
        raise IllegalAction(
            f"{self.variant.code} has no call (only 鞍山放羊 calls a partner card)",
            reason="unsupported",
        )


def field(
    obj: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...
) -> Any:
    """``obj[name]`` checked to be of ``kind`` (bools are not ints); IllegalAction naming the
    field when it is missing or of the wrong type."""
    if not isinstance(obj, Mapping):
        raise IllegalAction(f"expected a JSON object, got {obj!r}", reason="bad_input")
    if name not in obj:
        if default is not ...:
            return default
        raise IllegalAction(f"missing field {name!r}", reason="missing_field", field=name)
    value = obj[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        raise IllegalAction(
            f"field {name!r} has the wrong type: {value!r}", reason="bad_field", field=name
        )
    return value


def seat_list(obj: Mapping[str, Any], name: str, seats: int) -> list[int]:
    """A list of distinct seats 0..seats-1 in field ``name``."""
    value = field(obj, name, list)
    seen: set[int] = set()
    for s in value:
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < seats:
            raise IllegalAction(
                f"{name}: seat {s!r} is out of range 0-{seats - 1}", reason="bad_seat"
            )
        if s in seen:
            raise IllegalAction(f"{name}: seat {s} appears twice", reason="repeated_seat")
        seen.add(s)
    return list(value)


def one_seat(obj: Mapping[str, Any], name: str, seats: int) -> int:
    value: int = field(obj, name, int)
    if not 0 <= value < seats:
        raise IllegalAction(
            f"{name}: seat {value} is out of range 0-{seats - 1}", reason="bad_seat"
        )
    return value


# ------------------------------------------------------------------------------ state


NOBODY: frozenset[int] = frozenset()
_ONLY: tuple[frozenset[int], ...] = tuple(frozenset({seat}) for seat in range(8))


@functools.cache
def full_counts(cards: tuple[int, ...]) -> tuple[int, ...]:
    """How many copies of each card (0-53) ``cards`` holds: a game's full set, counted once."""
    counts = [0] * 54
    for c in cards:
        counts[c] += 1
    return tuple(counts)


_RANK_KEYS = tuple(
    str(16 if c == RED_JOKER else 15 if c == BLACK_JOKER else c // 4 + 2) for c in range(54)
)


def unplayed(full_set: tuple[int, ...], played_by: Iterable[Iterable[int]]) -> dict[str, int]:
    """:func:`~paiju.cards.unplayed_by_rank` of the cards each seat played (the same dict,
    key for key and in the same order), counted by card instead of by a Counter: every
    view holds it, and a sample's view is compared with the seat's at every decision."""
    left = list(full_counts(full_set))
    named = [n > 0 for n in left]  # the cards the count names: the set's and the played
    for cards in played_by:
        for c in cards:
            left[c] -= 1
            named[c] = True
    counts: dict[str, int] = {}
    for c in range(53, -1, -1):
        if named[c]:
            key = _RANK_KEYS[c]
            counts[key] = counts.get(key, 0) + max(0, left[c])
    return counts


def only(seat: int) -> frozenset[int]:
    """``frozenset({seat})``, made once per seat (``to_act`` is asked several times a step)."""
    return _ONLY[seat] if 0 <= seat < len(_ONLY) else frozenset({seat})


def copy_counter(counts: Counter[int]) -> Counter[int]:
    """A copy of ``counts`` without ``Counter()``'s argument checks (a clone copies one per
    seat at every step of a search)."""
    new: Counter[int] = Counter.__new__(Counter)
    dict.update(new, counts)
    return new


class ClimbingState(State):
    """One deal of a climbing game: the shared state machine and its hooks.

    Public state (what every view shows): :attr:`table` (the combination to beat) and
    :attr:`table_seat`, :attr:`trick` (this trick's plays and passes), :attr:`played_by`
    (each seat's played cards), :attr:`finished` (the finishing order), :attr:`stopped`.
    :attr:`log` keeps every play and pass of the deal in order (for bots and replays; the
    events carry it to clients).
    """

    game: ClimbingGame[Any]
    search_unchecked: ClassVar[bool] = True
    """The family bots play legal combinations only (:meth:`legal_combos`)."""

    def __init__(
        self, game: ClimbingGame[Any], seats: int, deal: Any, context: Mapping[str, Any]
    ) -> None:
        super().__init__(game, seats, deal, context)
        self.rules = game.rules
        self.hands: list[list[int]] = [self.rules.sort(h) for h in deal.hands]
        """Each seat's cards in the game's order (:meth:`Rules.sort`), kept so by every change."""
        self.played: list[int] = []
        self._phase = "playing"
        self.turn = 0
        self.leader = 0
        self.table: Combo | None = None
        self.table_seat: int | None = None
        self.passed: set[int] = set()
        self.trick: list[tuple[int, tuple[int, ...] | None]] = []
        self.last_trick: list[tuple[int, tuple[int, ...] | None]] = []
        self.log: list[tuple[int, tuple[int, ...] | None]] = []
        self.played_by: list[list[int]] = [[] for _ in range(seats)]
        self.finished: list[int] = []
        self.stopped: list[int] = []
        self.exposed: list[Counter[int]] = [Counter() for _ in range(seats)]
        self.jiefeng_from: int | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> ClimbingState:
        """A fast copy for :meth:`clone`: mutable containers are copied, the rest shared.
        A subclass with its own mutable fields copies them in :meth:`copy_extra`."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.context = dict(self.context)
        new.history = list(self.history)
        # each seat's hand and played cards are shared: a change replaces the seat's list
        new.hands = list(self.hands)
        new.played = list(self.played)
        new.passed = set(self.passed)
        new.trick = list(self.trick)
        new.last_trick = list(self.last_trick)
        new.log = list(self.log)
        new.played_by = list(self.played_by)
        new.finished = list(self.finished)
        new.stopped = list(self.stopped)
        # the counters are shared: a change goes through exposed_of, which copies first
        new.exposed = list(self.exposed)
        self.copy_extra(new)
        return new

    def exposed_of(self, seat: int) -> Counter[int]:
        """``exposed[seat]`` to change in place (cards shown): a clone shares its original's
        counters (copy on write), so the counter is replaced by a copy of this state's own
        first."""
        shown = self.exposed[seat] = copy_counter(self.exposed[seat])
        return shown

    def copy_extra(self, new: ClimbingState) -> None:
        """Copy a subclass's own mutable fields into ``new`` (a clone being made)."""

    # -- the hooks of a game ------------------------------------------------------------

    def team_of(self, seat: int) -> int:
        """The true team of ``seat`` (hidden or not); by default everyone alone."""
        return seat

    def teams_known_to(self, viewer: int | None) -> list[int | None]:
        """The team of each seat as ``viewer`` knows it (None = unknown to the viewer)."""
        return [self.team_of(s) for s in range(self.seats)]

    def partners(self, seat: int) -> list[int]:
        """The other seats of ``seat``'s team, in playing order after ``seat``."""
        team = self.team_of(seat)
        return [
            (seat + k) % self.seats
            for k in range(1, self.seats)
            if self.team_of((seat + k) % self.seats) == team
        ]

    def sees_hand(self, viewer: int | None, seat: int) -> bool:
        """Whether ``viewer`` sees ``seat``'s hand (its own; a partner's where the game shows
        partners' hands, 明牌 in 打弹子)."""
        return viewer == seat

    @abstractmethod
    def jiefeng(self, finisher: int) -> int:
        """接风: who leads when ``finisher`` went out with a play nobody beat."""

    @abstractmethod
    def deal_over(self) -> bool:
        """Whether the deal has ended (checked after every finish and stop)."""

    @abstractmethod
    def settlement(self) -> tuple[int, ...]:
        """Per-seat deltas of the finished deal (zeros before the end)."""

    def may_pass(self, seat: int) -> IllegalAction | None:
        """A refusal when ``seat`` may not pass now (the table holds a play); None = may.

        By default passing is free, unless the game's ``must_beat`` option is on and the
        seat holds a beating play (有牌必管)."""
        if self.game.options.get("must_beat") and self.legal_combos(seat):
            return IllegalAction(
                "you hold a play that beats the table and must play it (must_beat)",
                reason="must_beat",
            )
        return None

    def check_other(self, seat: int, action: Action) -> None:
        """Check an action of a phase before (or besides) play: a call, a tribute …"""
        raise IllegalAction(
            f"{type(action).__name__} is not an action of {self.game.variant.code}",
            reason="unknown_action",
        )

    def apply_other(self, seat: int, action: Action) -> list[Event]:
        """Apply a checked :meth:`check_other` action."""
        raise AssertionError(f"unexpected {action!r}")

    def on_play(self, seat: int, combo: Combo) -> list[Event]:
        """Game effects of a play, after the cards left the hand (a called card revealed)."""
        return []

    def view_extra(self, viewer: int | None) -> JSON:
        """The game's own fields of a view (the called card, the special 3 …)."""
        return {}

    # -- protocol -------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self._phase

    def to_act(self) -> frozenset[int]:
        if self._phase == "over":
            return NOBODY
        turn = self.turn
        return _ONLY[turn] if 0 <= turn < 8 else frozenset({turn})

    def in_play(self, seat: int) -> bool:
        """Still playing: holds cards, has not gone out and has not stopped."""
        return bool(self.hands[seat]) and seat not in self.finished and seat not in self.stopped

    def next_in_play(self, seat: int) -> int | None:
        """The first seat after ``seat`` (下家 onwards) still in play, or None."""
        for k in range(1, self.seats + 1):
            s = (seat + k) % self.seats
            if self.in_play(s):
                return s
        return None

    def apply(self, seat: int, action: Action) -> list[Event]:
        """:meth:`State.apply`, a play or a pass checked and applied in one go: the turn is
        checked once, and a play's cards are classified once (the combination
        :meth:`check_play` found is the one played)."""
        if isinstance(action, Play):
            self.check_turn(seat, action)
            events = self.apply_play(seat, self.check_play(seat, action.cards))
        elif isinstance(action, Pass):
            self.check_turn(seat, action)
            self.check_pass(seat)
            events = self.apply_pass(seat)
        else:
            return super().apply(seat, action)
        return self._logged(seat, action, events)

    def check(self, seat: int, action: Action) -> None:
        self.check_turn(seat)
        if isinstance(action, Play):
            self.check_play(seat, action.cards)
        elif isinstance(action, Pass):
            self.check_pass(seat)
        else:
            self.check_other(seat, action)

    def check_play(self, seat: int, cards: Sequence[int]) -> Combo:
        if self._phase != "playing":
            raise IllegalAction(
                f"no card play now (phase {self._phase!r})", reason="wrong_phase", phase=self._phase
            )
        if not cards:
            raise IllegalAction("play at least one card, or pass", reason="empty_play")
        hand = self.hands[seat]
        missing = (  # no Counters on the common path: every play is checked
            None
            if all(hand.count(c) >= cards.count(c) for c in cards)
            else Counter(cards) - Counter(hand)
        )
        if missing:
            text = format_cards(sorted(missing.elements()))
            raise IllegalAction(f"you do not hold {text}", reason="not_held", cards=text)
        combo = self.rules.classify(cards)
        if combo is None:
            raise IllegalAction(
                self.rules.explain(cards), reason="not_a_combination", cards=format_cards(cards)
            )
        if self.table is not None and not self.rules.beats(combo, self.table):
            reason, sentence = self.rules.why_not(combo, self.table)
            raise IllegalAction(
                sentence,
                reason=reason,
                cards=format_cards(combo.cards),
                table=format_cards(self.table.cards),
                kind=self.rules.kind_zh[combo.kind],
                table_kind=self.rules.kind_zh[self.table.kind],
            )
        return combo

    def check_pass(self, seat: int) -> None:
        if self._phase != "playing":
            raise IllegalAction(
                f"no passing now (phase {self._phase!r})", reason="wrong_phase", phase=self._phase
            )
        if self.table is None:
            raise IllegalAction(
                "you lead: play any combination (a lead cannot pass)", reason="must_lead"
            )
        refusal = self.may_pass(seat)
        if refusal is not None:
            raise refusal

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Play):
            combo = self.rules.classify(action.cards)
            assert combo is not None
            return self.apply_play(seat, combo)
        if isinstance(action, Pass):
            return self.apply_pass(seat)
        return self.apply_other(seat, action)

    def start_play(self, leader: int) -> list[Event]:
        """Begin (or resume) card play with ``leader`` to lead."""
        self._phase = "playing"
        self.turn = self.leader = leader
        return [LeadTaken(leader)]

    def apply_play(self, seat: int, combo: Combo) -> list[Event]:
        rest = list(self.hands[seat])
        for c in combo.cards:  # held: check_play made sure
            rest.remove(c)  # the hand stays in the game's order
        self.hands[seat] = rest
        shown = self.exposed[seat]
        if shown and not shown.keys().isdisjoint(combo.cards):
            # shown cards (tribute, a call) leave as they are played (a new counter: a
            # clone may share this one); a play of none of them leaves the counter as it is
            self.exposed[seat] = shown - Counter(combo.cards)
        self.played.extend(combo.cards)
        self.played_by[seat] = [*self.played_by[seat], *combo.cards]  # a clone may share it
        self.table, self.table_seat = combo, seat
        self.passed = set()
        self.trick.append((seat, combo.cards))
        self.log.append((seat, combo.cards))
        self.jiefeng_from = None
        # Played(seat, cards, kind, left), at every play: its fields put in its __dict__
        # in their order, as the frozen dataclass's __init__ does
        played = _new(Played)
        fill = played.__dict__
        fill["seat"] = seat
        fill["cards"] = as_cards(combo.cards)
        fill["kind"] = combo.kind
        fill["left"] = len(rest)
        events: list[Event] = [played]
        events += self.on_play(seat, combo)
        if not self.hands[seat]:
            self.finished.append(seat)
            events.append(Finished(seat, len(self.finished)))
            if self.deal_over():
                return events + self.end_deal()
        return events + self._advance(seat)

    def apply_pass(self, seat: int) -> list[Event]:
        self.passed.add(seat)
        self.trick.append((seat, None))
        self.log.append((seat, None))
        passed = _PASSED[seat] if 0 <= seat < len(_PASSED) else Passed(seat)
        return [passed, *self._advance(seat)]

    def sitting_out(self) -> set[int]:
        """The seats that act no more on the table's play: those that passed on it. A hook:
        a game where a pass is final for the whole trick (打弹子's ``pass_is_final``)
        adds the seats that passed earlier in the trick."""
        return self.passed

    def _advance(self, seat: int) -> list[Event]:
        """Hand the turn on after ``seat`` acted, to the next seat in play that has not sat
        out; end the trick when every other seat in play sits out."""
        assert self.table_seat is not None
        out = self.sitting_out()
        seats = self.seats
        table_seat = self.table_seat
        inline = type(self).in_play is ClimbingState.in_play  # in_play of each seat, inlined
        hands, finished, stopped = self.hands, self.finished, self.stopped
        # one pass from the next seat on: the first seat in play that has not sat out takes
        # the turn, unless no such seat but the table's owner is left (the trick ends)
        first: int | None = None
        for k in range(1, seats + 1):
            s = (seat + k) % seats
            if s in out:
                continue
            if not (
                (hands[s] and s not in finished and s not in stopped) if inline else self.in_play(s)
            ):
                continue
            if first is None:
                first = s
            if s != table_seat:
                self.turn = first
                return []
        return self._end_trick()

    def _end_trick(self) -> list[Event]:
        winner = self.table_seat
        assert winner is not None
        events: list[Event] = [TrickEnded(winner)]
        self.last_trick, self.trick = self.trick, []
        self.table, self.table_seat, self.passed = None, None, set()
        if self.in_play(winner):
            self.turn = self.leader = winner
            return [*events, LeadTaken(winner)]
        if self.next_in_play(winner) is None:
            return events + self.end_deal()
        leader = self.jiefeng(winner)
        self.turn = self.leader = leader
        self.jiefeng_from = winner
        return [*events, LeadTaken(leader, True, winner)]

    def stop(self, seat: int) -> list[Event]:
        """Take ``seat`` out of play without a place (a failed 宣战 in 打弹子). Its cards
        stay in its hand; the deal may end."""
        self.stopped.append(seat)
        if self.deal_over():
            return self.end_deal()
        if self.table_seat is not None:
            out = self.sitting_out()
            waiting = [s for s in range(self.seats) if self.in_play(s) and s != self.table_seat]
            if all(s in out for s in waiting):
                return self._end_trick()
            if self.turn in out or not self.in_play(self.turn):
                return self._advance(self.turn)
            return []
        if self.turn == seat:
            nxt = self.next_in_play(seat)
            if nxt is not None:
                self.turn = nxt
        return []

    def end_deal(self) -> list[Event]:
        """The deal is over: the table is cleared and nobody acts any more."""
        self._phase = "over"
        if self.trick:
            self.last_trick, self.trick = self.trick, []
        self.table, self.table_seat, self.passed = None, None, set()
        return []

    # -- legal plays ------------------------------------------------------------------

    def legal_combos(self, seat: int) -> list[Combo]:
        """Every legal play of ``seat`` as combinations (empty when it is not its turn)."""
        if self._phase != "playing" or seat != self.turn:
            return []
        return self.rules.plays(self.hands[seat], self.table)

    def legal_actions(self, seat: int) -> Sequence[Action] | None:
        if seat not in self.to_act():
            return []
        if self._phase != "playing":
            return self.legal_other(seat)
        acts: list[Action] = [Play(as_cards(c.cards)) for c in self.legal_combos(seat)]
        if self.table is not None and self.may_pass(seat) is None:
            acts.insert(0, Pass())
        return acts

    advised_by_bot = True

    def suggestions(self, seat: int, limit: int = 5, first: Action | None = None) -> list[Action]:
        """推荐: the family bot's choice ``first``, then the other legal plays low to high
        (one per rank and size), from what the seat sees; none when it is not its turn."""
        if seat not in self.to_act():
            return []
        out: list[Action] = [] if first is None else [first]
        seen: set[tuple[str, int, int]] = set()
        if isinstance(first, Play):
            combo = self.rules.classify(first.cards)
            if combo is not None:
                seen.add((combo.kind, combo.rank, combo.length))
        for combo in self.legal_combos(seat):
            key = (combo.kind, combo.rank, combo.length)
            if len(out) >= limit:
                break
            if key not in seen:
                seen.add(key)
                out.append(Play(as_cards(combo.cards)))
        passing = self.table is not None and self.may_pass(seat) is None
        if len(out) < limit and not isinstance(first, Pass) and passing:
            out.append(Pass())
        return out[:limit]

    def legal_other(self, seat: int) -> list[Action]:
        """The legal actions of a phase before play (override with :meth:`check_other`)."""
        return []

    # -- sampling what a seat cannot see ------------------------------------------------

    def resample(self, seat: int, rng: random.Random) -> Self:
        """The hand again with every card hidden from ``seat`` dealt anew: each unseen hand
        keeps its size and its shown cards (a tribute, the special 3, a 亮 card), the cards
        played stay where they were played, and the game's own constraints
        (:meth:`resample_allowed`, :meth:`resample_accept`) hold; the deal is played
        again through the engine (see :mod:`paiju.sampling`)."""
        if self._phase == "over":
            return self.clone()
        pieces = self.hidden_pieces(seat)
        sizes = [sum(cards.values()) for _, cards in pieces]
        pool = sorted(self.hidden_from(seat).elements())
        allowed = self.resample_allowed(seat, [owner for owner, _ in pieces])
        accept = self.resample_accept(seat, [owner for owner, _ in pieces])
        prune = self.resample_prune(seat, [owner for owner, _ in pieces])
        public: dict[int, Counter[int]] = {}
        for owner, cards in pieces:
            base = public.setdefault(owner, Counter(self.deal.hands[owner]))
            base.subtract(cards)

        def propose(rng: random.Random) -> tuple[Deal, Script]:
            parts = deal_hidden(rng, pool, sizes, allowed, accept, prune, exact=True)
            hands = [tuple(h) for h in self.deal.hands]
            dealt = {owner: +Counter(cards) for owner, cards in public.items()}
            for (owner, _), part in zip(pieces, parts, strict=True):
                dealt[owner].update(part)
            for owner, cards in dealt.items():
                hands[owner] = self.dealt_order(owner, sorted(cards.elements()))
            deal = Deal(tuple(hands), self.deal.piles, self.deal.info)
            return deal, self.resample_script(seat, pieces, parts)

        return replay_sample(self, seat, rng, propose)

    def hidden_pieces(self, seat: int) -> list[tuple[int, Counter[int]]]:
        """The places of the cards hidden from ``seat``: ``(owner, cards)``, the owner's
        dealt hand holding them (by default each unseen hand but its shown cards)."""
        return [
            (s, +(Counter(self.hands[s]) - self.exposed[s]))
            for s in range(self.seats)
            if not self.sees_hand(seat, s)
        ]

    def resample_allowed(self, seat: int, owners: Sequence[int]) -> Allowed:
        """Where a hidden card may be dealt (piece indexes of :meth:`hidden_pieces`); by
        default anywhere."""
        return {}

    def resample_accept(
        self, seat: int, owners: Sequence[int]
    ) -> Callable[[list[list[int]]], bool] | None:
        """A check of a whole proposed deal of the pieces (None = every deal fits): under
        ``must_beat`` (有牌必管) a seat that passed held nothing that beat the table then:
        not in its hand now with the cards it has played since."""
        if not self.game.options.get("must_beat"):
            return None
        rules = self.rules
        passes: dict[int, list[tuple[Combo, list[int]]]] = {}  # the table, the cards since
        table: Combo | None = None
        for who, cards in self.log:
            if cards is not None:
                table = rules.classify(cards)
                for _table, since in passes.get(who, []):
                    since.extend(cards)
            elif table is not None and who in owners:
                passes.setdefault(who, []).append((table, []))
        if not passes:
            return None
        exposed = {owner: list(self.exposed[owner].elements()) for owner in passes}

        def fits(parts: list[list[int]]) -> bool:
            """No seat held, when it passed, a play that beat the table: its hand then was
            its hand now and what it has played since."""
            for i, owner in enumerate(owners):
                for t, since in passes.get(owner, ()):
                    if rules.plays(parts[i] + exposed[owner] + since, t):
                        return False
            return True

        return fits

    def resample_prune(
        self, seat: int, owners: Sequence[int]
    ) -> Callable[[list[list[int]]], bool] | None:
        """The monotone part of :meth:`resample_accept`, which also judges a partial deal
        (a hand that beats a table it passed on still beats it with more cards): the
        search of :func:`~paiju.sampling.deal_hidden` cuts its branches with it. By
        default the ``must_beat`` check, which is monotone."""
        return ClimbingState.resample_accept(self, seat, owners)

    def dealt_order(self, seat: int, cards: list[int]) -> tuple[int, ...]:
        """The order a sampled hand is dealt in (by default sorted)."""
        return tuple(cards)

    def resample_script(
        self, seat: int, pieces: Sequence[tuple[int, Counter[int]]], parts: Sequence[list[int]]
    ) -> Script:
        """The actions to play again on a sampled deal (by default the history: every action
        of the family is public)."""
        return list(self.history)

    # -- what each seat sees ---------------------------------------------------------

    def locations(self) -> Mapping[str, Sequence[int]]:
        places: dict[str, Sequence[int]] = {f"hand {s}": self.hands[s] for s in range(self.seats)}
        places["played"] = self.played
        return places

    def hidden_from(self, seat: int | None) -> Counter[int]:
        hidden: Counter[int] = Counter()
        for s in range(self.seats):
            if self._phase == "over" or self.sees_hand(seat, s):
                continue
            hidden.update(self.hands[s])
            hidden.subtract(self.exposed[s])
        return +hidden

    def places(self) -> list[int | None]:
        """Each seat's finishing place (1 = 头游), None while it holds cards."""
        out: list[int | None] = [None] * self.seats
        for i, s in enumerate(self.finished):
            out[s] = i + 1
        return out

    def _trick_json(self, trick: Sequence[tuple[int, tuple[int, ...] | None]]) -> list[JSON]:
        return [
            {"seat": s, "pass": True} if cs is None else {"seat": s, "cards": format_cards(cs)}
            for s, cs in trick
        ]

    def view(self, seat: int | None) -> JSON:
        return self.views([seat])[0]

    def views(self, seats: Sequence[int | None]) -> list[JSON]:
        """Each seat's view; what every seat sees alike (the table, the tricks, the played
        cards, the result) is computed once and shared."""
        common = self._common_view()
        over = self._phase == "over"
        texts: dict[int, str] = {}  # each hand's text, written when a view shows it

        def text(s: int) -> str:
            known = texts.get(s)
            if known is None:
                known = texts[s] = format_cards(self.hands[s])
            return known

        result = self.result_json() if over else None
        out: list[JSON] = []
        for seat, extra in zip(seats, self.views_extra(seats), strict=True):
            view = dict(common)
            view["seat"] = seat
            view["hand"] = None if seat is None else text(seat)
            view["hands"] = [
                text(s) if over or self.sees_hand(seat, s) else None for s in range(self.seats)
            ]
            view["teams"] = self.teams_known_to(seat)
            view.update(extra)
            if over:
                view["result"] = result
            out.append(view)
        return out

    def views_extra(self, viewers: Sequence[int | None]) -> list[JSON]:
        """:meth:`view_extra` of each viewer (a game may compute what all see alike once)."""
        return [self.view_extra(viewer) for viewer in viewers]

    def _common_view(self) -> JSON:
        """The fields of a view every seat sees alike, in the view's order (the seat's own
        fields ``seat``, ``hand``, ``hands`` and ``teams`` held by None)."""
        table: JSON | None = None
        if self.table is not None:
            table = {"seat": self.table_seat, **self.rules.describe(self.table)}
        return {
            "code": self.game.variant.code,
            "family": self.game.variant.family,
            "phase": self._phase,
            "seat": None,
            "to_act": sorted(self.to_act()),
            "turn": None if self._phase == "over" else self.turn,
            "hand": None,
            "hands": None,
            "hand_sizes": [len(h) for h in self.hands],
            "leader": self.leader,
            "table": table,
            "trick": self._trick_json(self.trick),
            "last_trick": self._trick_json(self.last_trick),
            "passed": sorted(self.passed),
            "played_by": [format_cards(cs) for cs in self.played_by],
            "unplayed": unplayed(self.game.full_set(), self.played_by),
            "finished": list(self.finished),
            "places": self.places(),
            "stopped": list(self.stopped),
            "teams": None,
            "jiefeng_from": self.jiefeng_from,
            "options": dict(self.game.options),
        }

    def result_json(self) -> JSON:
        """The ``result`` of a finished deal's view (the settlement and its reading)."""
        return {"settlement": list(self.settlement())}
