"""The Game protocol every family implements.

A :class:`Game` is a frozen variant with its room options; calling
:meth:`Game.new_state` deals one hand (from a seed, or from a given :class:`Deal`) and
returns its :class:`State`. A state is a state machine driven by seats:

* :meth:`State.to_act` - the seats that may act now (several at once for simultaneous
  decisions: arranging in 十三张, bets in 宝子, claim windows in mahjong);
* :meth:`State.legal_actions` - the legal actions of a seat where the set is small
  (``None`` where it is too large to list, as for a 13-card arrangement);
* :meth:`State.check` - raise :class:`~paiju.errors.IllegalAction` saying what is wrong;
* :meth:`State.apply` - check, then change the state and return the :class:`Event` s;
  a rejected action leaves the state untouched;
* :meth:`State.view` - a JSON-ready dict with exactly what a seat (or a spectator) may see;
* :meth:`State.settlement` - per-seat score deltas once :attr:`State.is_over`;
* :meth:`State.resample` - a state the seat cannot tell from this one, with everything
  hidden from it dealt again (what search bots play on).

Chance is drawn only when dealing, from the seeded :class:`~paiju.fairness.DealRng`: the
deal holds every random choice of the hand (the shuffled stock, a random first bidder, a
marked card), so a hand is fully given by (variant, options, seats, seed or deal,
context, actions) - a :class:`Record` - and :func:`replay` rebuilds every intermediate state.

Hands follow one another in a :class:`Match`: what carries from one hand to the next (the
banker seat, who bids first, tribute owed, running scores) is the JSON ``context`` that
:meth:`State.next_context` returns and the next :meth:`Game.new_state` receives.

Actions and events are frozen dataclasses with a ``type`` name and a JSON form made by
pydantic from their annotations (cards as canonical text, see
:data:`paiju.cards.CardList`).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import pickle
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Self, cast

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError
from typing_extensions import TypeVar

from paiju.cards import deck as card_deck
from paiju.cards import format_cards, parse_cards
from paiju.errors import IllegalAction, NotYourTurn, PaijuError, ProtocolError
from paiju.fairness import DealRng, Seed, seed_text
from paiju.tiles import WALL, format_tiles, parse_tiles

if TYPE_CHECKING:
    from paiju.catalog import Variant

__all__ = [
    "Action",
    "Deal",
    "Event",
    "Game",
    "HandEnded",
    "Match",
    "MatchSummary",
    "NoParams",
    "PrivateEvent",
    "Record",
    "State",
    "apply_log",
    "record_format",
    "replay",
]

JSON = dict[str, Any]
ItemKind = Literal["cards", "tiles"]


# --------------------------------------------------------------------------- messages


_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def _adapter(cls: type[Any]) -> TypeAdapter[Any]:
    """The pydantic adapter of a message class, built once."""
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter


@functools.cache
def _field_names(cls: type[Any]) -> frozenset[str]:
    """The fields of a message class, read once."""
    return frozenset(f.name for f in dataclasses.fields(cls))


@functools.cache
def _by_type(classes: tuple[type[Any], ...]) -> dict[str, type[Any]]:
    """Message classes by their ``type`` name, gathered once per tuple of classes."""
    return {c.type: c for c in classes}


class _Message:
    """Shared JSON machinery of actions and events (frozen dataclasses with a ``type``)."""

    type: ClassVar[str]

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self  # frozen: clones of states share their logged actions and events

    def to_json(self) -> JSON:
        """The JSON form: ``{"type": ..., field: value, ...}`` with cards as text."""
        body = _adapter(type(self)).dump_python(self, mode="json")
        return {"type": self.type, **body}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Self:
        """Parse the JSON form of this very class; raises ProtocolError."""
        if not isinstance(obj, Mapping):
            raise ProtocolError(f"expected a JSON object for {cls.type!r}, got {obj!r}")
        body = {k: v for k, v in obj.items() if k != "type"}
        names = _field_names(cls)  # type: ignore[arg-type]
        if not names.issuperset(body):
            known = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
            unknown = sorted(str(k) for k in body if k not in names)
            raise ProtocolError(
                f"a {cls.type!r} message has no field {unknown[0]!r}; its fields: "
                f"{', '.join(['type', *known])}",
                reason="unknown_field",
                field=unknown[0],
                kind=cls.type,
                allowed=["type", *known],
            )
        try:
            result: Self = _adapter(cls).validate_python(body)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or cls.type}: "
                f"{err['msg'].removeprefix('Value error, ')}"
                for err in exc.errors()
            )
            raise ProtocolError(f"bad {cls.type!r} message: {problems}") from None
        except PaijuError as exc:
            raise ProtocolError(f"bad {cls.type!r} message: {exc}") from None
        return result


@dataclass(frozen=True)
class Action(_Message):
    """A decision of one seat. Subclasses are frozen dataclasses with a ``type`` name."""


@dataclass(frozen=True)
class Event(_Message):
    """Something that happened. :meth:`audience` says who may see it (None = everyone)."""

    def audience(self) -> frozenset[int] | None:
        return None


@dataclass(frozen=True)
class PrivateEvent(Event):
    """An event only ``seat`` may see (its own cards, its kitty, its grouping)."""

    seat: int

    def audience(self) -> frozenset[int]:
        return frozenset({self.seat})


@dataclass(frozen=True)
class HandEnded(Event):
    """The hand is over; ``scores`` is the settlement, one delta per seat."""

    type: ClassVar[str] = "hand_ended"
    scores: tuple[int, ...]


def parse_message(types: Mapping[str, type[Any]], obj: object, what: str) -> Any:
    """Pick the class by ``obj["type"]`` among ``types`` and parse the JSON form."""
    if not isinstance(obj, Mapping):
        raise ProtocolError(f"expected a JSON object for an {what}, got {obj!r}")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in types:
        raise ProtocolError(
            f"unknown {what} type {kind!r}; this game knows {', '.join(sorted(types))}"
        )
    return types[kind].from_json(obj)


# ------------------------------------------------------------------------------ deals


def _format_items(kind: ItemKind, items: Sequence[int]) -> str:
    return format_cards(items) if kind == "cards" else format_tiles(items)


def _parse_items(kind: ItemKind, text: object, where: str) -> tuple[int, ...]:
    if not isinstance(text, str):
        raise ProtocolError(f"deal: {where} must be text in the notation, got {text!r}")
    try:
        return parse_cards(text) if kind == "cards" else parse_tiles(text)
    except PaijuError as exc:
        raise ProtocolError(f"deal: {where}: {exc}") from None


@dataclass(frozen=True)
class Deal:
    """Everything chance decided for one hand.

    ``hands`` holds each seat's cards (or tiles) in dealing order; ``piles`` the other
    stacks by name (``kitty``, ``wall``, ``stock`` …); ``info`` the other random choices
    (``first_bidder``, a marked card's holder …), JSON scalars.
    """

    hands: tuple[tuple[int, ...], ...]
    piles: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    info: Mapping[str, int | str] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, object]) -> Deal:
        return self  # frozen, and its piles are tuples

    def items(self) -> Counter[int]:
        """Every card or tile of the deal, as a multiset."""
        total: Counter[int] = Counter()
        for hand in self.hands:
            total.update(hand)
        for pile in self.piles.values():
            total.update(pile)
        return total

    def to_json(self, kind: ItemKind = "cards") -> JSON:
        """``{"hands": ["As Kd …", …], "<pile>": "…", "info": {…}}``."""
        out: JSON = {"hands": [_format_items(kind, h) for h in self.hands]}
        for name, pile in self.piles.items():
            out[name] = _format_items(kind, pile)
        if self.info:
            out["info"] = dict(self.info)
        return out

    @classmethod
    def from_json(cls, obj: object, kind: ItemKind = "cards") -> Deal:
        if not isinstance(obj, Mapping) or not isinstance(obj.get("hands"), list):
            raise ProtocolError(
                'a deal is a JSON object {"hands": ["As Kd …", …], "kitty": "…", "info": {…}}'
                f", got {obj!r}"
            )
        hands = tuple(_parse_items(kind, h, f"hand {i}") for i, h in enumerate(obj["hands"]))
        piles = {
            name: _parse_items(kind, text, name)
            for name, text in obj.items()
            if name not in ("hands", "info")
        }
        info = obj.get("info", {})
        if not isinstance(info, Mapping) or not all(
            isinstance(v, int | str) and not isinstance(v, bool) for v in info.values()
        ):
            raise ProtocolError(f"deal: info must map names to ints or texts, got {info!r}")
        return cls(hands, piles, dict(info))


# ------------------------------------------------------------------------------- game


class NoParams(BaseModel):
    """The params of a family without a model of its own: any keys, kept as written."""

    model_config = ConfigDict(extra="allow", frozen=True)


P = TypeVar("P", bound=BaseModel, default=BaseModel, covariant=True)
"""The params model of a game; a bare ``Game`` is any game (``Game[BaseModel]``)."""


class Game(ABC, Generic[P]):
    """A variant with its room options: the factory of hands (states).

    Subclasses set :attr:`family`, :attr:`actions` and :attr:`events`, and implement
    :meth:`deal` (chance) and :meth:`start` (the first state of a hand). A family with rule
    parameters subclasses ``Game[ItsParams]`` and sets :attr:`params_model` to the same
    model; :attr:`params` is then the variant's ``[variant.params]`` validated by it.
    """

    family: ClassVar[str]
    params_model: ClassVar[type[BaseModel]] = NoParams
    """The pydantic model of the family's ``[variant.params]`` (the ``P`` of ``Game[P]``)."""
    items: ClassVar[ItemKind] = "cards"
    actions: ClassVar[tuple[type[Action], ...]] = ()
    events: ClassVar[tuple[type[Event], ...]] = ()
    match_option: ClassVar[str | None] = "hands"
    """The room option that sets a match's length (``hands``: 局; 麻将's ``quan``: 圈);
    None where the family's own rules end the match (打弹子 plays to a score)."""
    match_default: ClassVar[int] = 8
    """The length of a match when the room does not say (8 局, as the usual apps offer)."""
    match_most: ClassVar[int] = 100
    hand_words: ClassVar[tuple[str, str]] = ("局", "hand")
    """What a player calls one hand, in Chinese and English (打弹子: a 盘, a deal)."""
    match_words: ClassVar[tuple[str, str]] = ("场", "match")
    """What a player calls the match (打弹子: a 局, played to 30)."""
    record_format: ClassVar[int] = 1
    """The format of the records this engine writes (:attr:`Record.format`). A family
    raises it when a change of its rules changes which actions a hand's log holds (麻将:
    2 since every window asks every other seat), and replays a log of an older format as
    the engine of that format played it (:meth:`State.implied`)."""

    def __init__(self, variant: Variant, options: Mapping[str, Any] | None = None) -> None:
        self.variant = variant
        self._params = variant.params_as(self.params_model)  # a bad one: CatalogError now
        rest = dict(options or {})
        self.match_length: int | None = None
        """How long a match is, in :attr:`match_option` units (None: the family says)."""
        if self.match_option is not None:
            self.match_length = self._match_length(rest.pop(self.match_option, None))
        self.options: Mapping[str, Any] = self.validate_options(rest)

    @property
    def params(self) -> P:
        """The variant's params validated by :attr:`params_model` (built once, kept here:
        the engines read them at every step)."""
        return cast(P, self._params)

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in sorted(self.options.items()))
        if self.match_option is not None and self.match_length != self.match_default:
            opts += f", {self.match_option}={self.match_length!r}"
        return f"paiju.game({self.variant.code!r}{opts})"

    @property
    def room_options(self) -> dict[str, Any]:
        """The options as a room keeps them: :attr:`options` and the match's length (which
        no hand depends on, so a hand's record holds only :attr:`options`)."""
        out = dict(self.options)
        if self.match_option is not None:
            out[self.match_option] = self.match_length
        return out

    def _match_length(self, value: object) -> int:
        """The room's match length (:attr:`match_option`), checked; the default for None."""
        if value is None:
            return self.match_default
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or not 1 <= value <= self.match_most
        ):
            raise IllegalAction(
                f"{self.variant.code} room option {self.match_option} must be a whole number"
                f" 1-{self.match_most}, got {value!r}",
                reason="option_out_of_range",
                option=self.match_option,
                min=1,
                max=self.match_most,
            )
        return value

    # -- configuration hooks ------------------------------------------------------

    def validate_options(self, options: dict[str, Any]) -> Mapping[str, Any]:
        """Check room options and fill defaults; raise IllegalAction naming a bad one."""
        if options:
            raise IllegalAction(
                f"{self.variant.code} takes no room options, got {', '.join(options)}",
                reason="unknown_option",
                options=sorted(options),
            )
        return options

    @property
    def min_seats(self) -> int:
        return self.variant.players[0]

    @property
    def max_seats(self) -> int:
        return self.variant.players[1]

    @property
    def default_seats(self) -> int:
        return self.variant.players[1]

    def seat_count(self, seats: int | None = None) -> int:
        """``seats``, checked against the variant (the default seat count for None)."""
        if seats is None:
            return self.default_seats
        if not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction(
                f"{self.variant.code} is played by {self.min_seats}-{self.max_seats} seats,"
                f" not {seats}",
                reason="bad_seat_count",
                code=self.variant.code,
                low=self.min_seats,
                high=self.max_seats,
                n=seats,
            )
        return seats

    def full_set(self) -> tuple[int, ...]:
        """Every card or tile the game is played with (two-deck games hold copies)."""
        return WALL if self.items == "tiles" else card_deck(self.variant.deck)

    # -- chance and states --------------------------------------------------------------

    @abstractmethod
    def deal(self, seats: int, rng: DealRng, context: Mapping[str, Any]) -> Deal:
        """Shuffle and deal one hand; every random choice comes from ``rng``."""

    @abstractmethod
    def start(self, seats: int, deal: Deal, context: Mapping[str, Any]) -> State:
        """The first state of a hand dealt as ``deal``."""

    def check_deal(self, seats: int, deal: Deal) -> None:
        """Reject a given deal that is not a possible deal of this game."""
        if len(deal.hands) != seats:
            raise ProtocolError(f"deal has {len(deal.hands)} hands for {seats} seats")
        if deal.items() != Counter(self.full_set()):
            missing = Counter(self.full_set()) - deal.items()
            extra = deal.items() - Counter(self.full_set())
            raise ProtocolError(
                f"deal does not use the {self.variant.deck} set exactly: "
                f"missing {_format_items(self.items, sorted(missing.elements())) or 'nothing'}, "
                f"extra {_format_items(self.items, sorted(extra.elements())) or 'nothing'}"
            )

    def new_state(
        self,
        seats: int | None = None,
        *,
        seed: Seed | None = None,
        deal: Deal | Mapping[str, Any] | None = None,
        context: Mapping[str, Any] | None = None,
    ) -> State:
        """Deal a hand from ``seed`` (or start from the given ``deal``)."""
        seats = self.seat_count(seats)
        context = dict(context or {})
        if deal is None:
            if seed is None:
                raise ProtocolError("new_state needs a seed or a deal")
            seed_text(seed)
            dealt = self.deal(seats, DealRng(seed), context)
        else:
            dealt = deal if isinstance(deal, Deal) else Deal.from_json(deal, self.items)
            self.check_deal(seats, dealt)
        state = self.start(seats, dealt, context)
        state.seed = seed
        return state

    def parse_action(self, obj: object) -> Action:
        """An action of this game from its JSON form; raises ProtocolError."""
        result: Action = parse_message(_by_type(self.actions), obj, "action")
        return result

    def parse_event(self, obj: object) -> Event:
        result: Event = parse_message(_by_type((*self.events, HandEnded)), obj, "event")
        return result

    def match_over(self, context: Mapping[str, Any], hands_played: int) -> bool:
        """Whether a match (整局) ends after ``hands_played`` hands, ``context`` being what
        the last of them carries on; by default after :attr:`match_length` hands (局)."""
        return hands_played >= (self.match_length or self.match_default)

    def hand_won(
        self,
        settlement: Sequence[int],
        context: Mapping[str, Any],
        next_context: Mapping[str, Any],
    ) -> tuple[bool, ...]:
        """Which seats won a finished hand, for the 总结算's hands won: by default the
        seats settled above 0. ``context`` is what the hand started from and
        ``next_context`` what it carried on (打弹子 counts a deal by its points)."""
        return tuple(delta > 0 for delta in settlement)


class State(ABC):
    """One hand in progress. See the module docs for the protocol."""

    search_horizon: ClassVar[int | None] = None
    """How many decisions a search's rollout plays before it values the hand by
    :meth:`estimate` (None: to the end of the hand)."""
    search_margin: ClassVar[float | None] = None
    """How many standard errors a search's candidate must beat the rule bot's action by
    (None: the search's own margin); higher where the rollouts are noisy."""
    search_samples: ClassVar[int | None] = None
    """How many worlds a search samples for one decision at most (None: the search's own
    cap, 48): the search's budget, sized per family so that a decision's p99 stays under a
    second of one core's time (``bench/hard_budget.py``)."""
    search_unchecked: ClassVar[bool] = False
    """Whether a search's rollouts apply the rule bot's actions with
    :meth:`apply_unchecked`: True where the family's rule bot only ever picks legal
    actions and its checks change nothing (the families whose RL encoder applies
    unchecked too), so a rollout step skips the engine's checks."""

    def __init__(self, game: Game, seats: int, deal: Deal, context: Mapping[str, Any]) -> None:
        self.game = game
        self.seats = seats
        self.deal = deal
        self.context: Mapping[str, Any] = dict(context)
        self.seed: Seed | None = None
        self.history: list[tuple[int, Action]] = []

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game.variant.code} phase={self.phase!r} "
            f"to_act={sorted(self.to_act())} actions={len(self.history)}>"
        )

    # -- what a family implements ------------------------------------------------------

    @property
    @abstractmethod
    def phase(self) -> str:
        """The name of the current phase (``bidding``, ``arranging``, ``over`` …)."""

    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """The seats that may act now (empty when the hand is over)."""

    @abstractmethod
    def check(self, seat: int, action: Action) -> None:
        """Raise IllegalAction (or NotYourTurn) unless ``seat`` may take ``action`` now."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Change the state for a checked action and return its events."""

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may see (``None`` = a spectator), JSON-ready."""

    def views(self, seats: Sequence[int | None]) -> list[JSON]:
        """``view(seat)`` of each of ``seats``, in order: what a server sends every
        listener of a table after an action. A family may compute what all seats see alike
        once here; the views may then share those parts, so they are read-only."""
        return [self.view(seat) for seat in seats]

    @abstractmethod
    def settlement(self) -> tuple[int, ...]:
        """Per-seat score deltas of the finished hand; they sum to zero."""

    @abstractmethod
    def locations(self) -> Mapping[str, Sequence[int]]:
        """Where every card or tile is now (hands, kitty, played, wall …), by name."""

    @abstractmethod
    def hidden_from(self, seat: int | None) -> Counter[int]:
        """The cards or tiles ``seat`` may not see now (a multiset)."""

    def resample(self, seat: int, rng: random.Random) -> Self:
        """A state ``seat`` cannot tell from this one, with everything hidden from it dealt
        again (OpenSpiel's ``resample_from_infostate``): a fresh guess of the other hands,
        the kitty, the wall.

        The sample's :meth:`view` for ``seat`` is this state's; it holds the same cards
        (:meth:`locations` conserve the set); its :attr:`deal` and :attr:`history` replay
        to it through :meth:`apply`, so all public play is legal under the new deal (voids
        shown by not following suit, cards known to be out, a called card not yet played,
        shown tribute, 明牌 partners, a 麻将 wall and its 混). What stayed hidden in the
        history (a buried kitty, another seat's arrangement or claim decision) is chosen
        again on the new deal. The sample depends only on what ``seat`` knows (its view and
        its own past actions) and on ``rng``: two states the seat cannot tell apart give
        the same sample for the same ``rng``, so a bot that searches on samples sees only
        its seat. Its :attr:`seed` is None (the deal is given). Over, nothing is hidden
        that matters: a finished hand may return a clone. Raises
        :class:`~paiju.sampling.ResampleFailed` when the family's sampler finds no deal.
        See :mod:`paiju.sampling`.
        """
        raise NotImplementedError(f"{type(self).__name__} has no resample")

    def legal_actions(self, seat: int) -> Sequence[Action] | None:
        """Every legal action of ``seat`` now, or None where the set is too large to list."""
        return None

    def random_action(self, seat: int, rng: random.Random) -> Action:
        """A random legal action, drawn from ``rng`` (uniform over :meth:`legal_actions`;
        families whose legal_actions is None override this with their own draw)."""
        legal = self.legal_actions(seat)
        if not legal:
            raise IllegalAction(
                f"seat {seat} has no legal action in phase {self.phase!r}", reason="no_action_left"
            )
        return rng.choice(list(legal))

    def payoff(self, seat: int) -> float:
        """How well the finished hand went for ``seat`` (what a search bot maximises): its
        settlement by default; a family whose hands settle only at a match's end (打弹子)
        counts the hand's own points."""
        return float(self.settlement()[seat])

    def estimate(self, seat: int) -> float:
        """A guess of :meth:`payoff` for ``seat`` from a hand still in play (a search cut
        short values its rollouts so); by default the outcome so far."""
        return self.payoff(seat)

    def next_context(self) -> JSON:
        """What carries to the next hand of a match (banker, first bidder, scores …)."""
        return {}

    def hidden_window(self) -> bool:
        """Whether the seats to act now decide in a hidden window (a mahjong claim window:
        every other seat is asked, and each knows only its own options). A server collects
        such decisions and plays them together when the window's time is up, so that
        neither what a seat sees nor when it sees it tells who else could act. Default:
        False (decisions are played as they come)."""
        return False

    def implied(
        self, record_format: int, upcoming: tuple[int, Action] | None
    ) -> list[tuple[int, Action]]:
        """The actions a log of an older ``record_format`` (:attr:`Game.record_format`)
        leaves out here, before its next action ``upcoming`` (None: after its last): what
        the engine of that format did without asking a seat, which this engine asks for
        (麻将: the 过 of a window its old engine closed early). :func:`apply_log` applies
        them first; they then stand in :attr:`history`, so :meth:`record` is of the current
        format. Raises :class:`~paiju.errors.IllegalAction` when the log cannot be of that
        format (a decision its engine waited for is missing). Default: nothing."""
        return []

    advised_by_bot: ClassVar[bool] = False
    """Whether this family's advice starts with its rule bot's choice: the registry's
    :func:`paiju.games.suggestions` and :func:`paiju.games.advice` then ask the bot and
    pass its action as ``first`` (a state never makes a bot itself: bots sit above it)."""

    def suggestions(self, seat: int, limit: int = 5, first: Action | None = None) -> list[Action]:
        """Advice for ``seat`` (推荐): up to ``limit`` good legal actions, best first.

        ``first`` is the rule bot's choice where the caller has one (see
        :attr:`advised_by_bot`); a family that leads with it puts it first. Families with a
        solver give its choices (十三张 arrangements, 佳佳宝 groupings); the default is
        ``first`` alone, or none. It uses only what ``view(seat)`` shows that seat.
        """
        if first is None or seat not in self.to_act():
            return []
        return [first][:limit]

    def advice(self, seat: int, limit: int = 5, first: Action | None = None) -> list[JSON]:
        """:meth:`suggestions` as JSON for a player to read: each action's JSON form,
        with what a family can say about it beside the action's fields (a 十三张
        arrangement's row ``categories`` and expected ``score`` per opponent, a 佳佳宝
        grouping's ``readings``). A client sends back only the action's own fields."""
        return [a.to_json() for a in self.suggestions(seat, limit, first)]

    def preview(self, seat: int, action: Action) -> JSON | None:
        """What ``action`` of ``seat`` would show once applied, without applying it (a
        十三张 arrangement's row categories and its 倒水 verdict, say), so that a player can
        see the exact verdict before committing; ``None`` when the game has nothing to
        show. Raises like :meth:`apply` when the action is not legal now.
        """
        self.check_turn(seat, action)
        self.check(seat, action)
        return self._preview(seat, action)

    def _preview(self, seat: int, action: Action) -> JSON | None:
        """The family's part of :meth:`preview`, for a checked action (default: none)."""
        return None

    # -- shared behaviour ------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return not self.to_act()

    def check_turn(self, seat: int, action: Action | None = None) -> None:
        """Raise :class:`NotYourTurn` unless ``seat`` acts now; ``action`` (when given) lets
        the family refuse an action out of turn with its own reason first."""
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise NotYourTurn(
                f"there is no seat {seat!r}; seats are 0-{self.seats - 1}", reason="no_such_seat"
            )
        acting = self.to_act()
        if seat not in acting:
            if not acting:
                raise NotYourTurn(
                    "the hand is over", reason="hand_over", hand_word=list(self.game.hand_words)
                )
            if action is not None:
                self._check_out_of_turn(seat, action)
            raise NotYourTurn(
                f"seat {seat} may not act now (phase {self.phase!r}); "
                f"waiting for seat {', '.join(map(str, sorted(acting)))}",
                reason="not_your_turn",
                seats=sorted(acting),
            )

    def _check_out_of_turn(self, seat: int, action: Action) -> None:
        """The family's part of :meth:`check_turn` for ``action`` of a ``seat`` that does
        not act now: raise a refusal more telling than "not your turn" (a 麻将 claim sent
        when no claim window is open, its window just closed); default: nothing."""
        return

    def is_legal(self, seat: int, action: Action) -> bool:
        try:
            self.check_turn(seat)
            self.check(seat, action)
        except IllegalAction:
            return False
        return True

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Check ``action`` for ``seat``, apply it, log it and return its events."""
        self.check_turn(seat, action)
        if not isinstance(action, self.game.actions):
            raise IllegalAction(
                f"{type(action).__name__} is not an action of {self.game.variant.code}",
                reason="not_an_action",
            )
        self.check(seat, action)
        return self._logged(seat, action, self._apply(seat, action))  # (no call between: hot)

    def apply_unchecked(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` and log it as :meth:`apply` does, without its
        checks: for a caller that has already found the action among the seat's legal ones
        (an RL environment's exact action mask). An illegal action here is the caller's
        bug, not a refusal."""
        return self._logged(seat, action, self._apply(seat, action))

    def _logged(self, seat: int, action: Action, events: list[Event]) -> list[Event]:
        """Log an applied action; the hand's end (``hand_ended``) joins its events."""
        self.history.append((seat, action))
        if self.is_over:
            events.append(HandEnded(self.settlement()))
        return events

    def clone(self) -> Self:
        """An independent copy (bots search on clones).

        The game, the deal, cards, and logged actions are immutable and shared; everything
        else is deep-copied. A family with a hot search loop may override ``__deepcopy__``.
        """
        game = self.game
        memo: dict[int, Any] = {id(game): game}
        fast = getattr(type(self), "__deepcopy__", None)
        if fast is not None:  # the family's own copy, without deepcopy's bookkeeping
            return cast(Self, fast(self, memo))
        return copy.deepcopy(self, memo)

    def snapshot(self) -> bytes:
        """A byte string that changes whenever the state changes."""
        state = {k: v for k, v in vars(self).items() if k != "game"}
        return pickle.dumps(state)

    def record(self) -> Record:
        """The replayable record of this hand so far."""
        return Record(
            code=self.game.variant.code,
            options=dict(self.game.options),
            seats=self.seats,
            seed=self.seed,
            deal=None if self.seed is not None else self.deal,
            context=dict(self.context),
            actions=tuple(self.history),
            format=self.game.record_format,
        )


# ----------------------------------------------------------------------------- replay


@dataclass(frozen=True)
class Record:
    """A hand as data: enough to rebuild every state of it."""

    code: str
    options: Mapping[str, Any]
    seats: int
    seed: Seed | None
    deal: Deal | None
    context: Mapping[str, Any]
    actions: tuple[tuple[int, Action], ...]
    format: int = 1
    """The :attr:`Game.record_format` of the engine that wrote the log (1 where a record
    does not say: records written before formats were numbered)."""

    def to_json(self) -> JSON:
        from paiju.catalog import find_variant

        kind = find_variant(self.code).items_kind
        return {
            "code": self.code,
            "options": dict(self.options),
            "seats": self.seats,
            "seed": self.seed,
            "deal": None if self.deal is None else self.deal.to_json(kind),
            "context": dict(self.context),
            "actions": [{"seat": s, "action": a.to_json()} for s, a in self.actions],
            "format": self.format,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], game: Game) -> Record:
        """The record of ``obj`` played under ``game`` (which parses its actions);
        :func:`paiju.games.read_record` makes the game from the record's code."""
        try:
            deal = obj.get("deal")
            actions = tuple(
                (int(item["seat"]), game.parse_action(item["action"])) for item in obj["actions"]
            )
            return cls(
                code=obj["code"],
                options=dict(obj.get("options", {})),
                seats=int(obj["seats"]),
                seed=obj.get("seed"),
                deal=None if deal is None else Deal.from_json(deal, game.items),
                context=dict(obj.get("context", {})),
                actions=actions,
                format=record_format(obj.get("format")),
            )
        except (KeyError, TypeError) as exc:
            raise ProtocolError(f"bad game record: missing or wrong field {exc}") from None


def record_format(value: object) -> int:
    """The format a stored record or log says it has (:attr:`Record.format`): 1 when it
    says nothing; a ProtocolError when it is not a whole number from 1."""
    if value is None:
        return 1
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ProtocolError(f"bad game record: format must be a whole number from 1, not {value!r}")
    return value


def apply_log(
    state: State, actions: Sequence[tuple[int, Action]], log_format: int
) -> Iterator[tuple[int, Action]]:
    """Apply a hand's logged ``actions`` to ``state`` in order, yielding each once applied.

    A log of an older format than the game's (``log_format``, :attr:`Record.format`) has
    the actions its engine did not ask for filled in (:meth:`State.implied`) as soon as
    the next logged action shows the old engine went on without them, so that ``state``
    after each logged action is the one that engine was in. Raises what :meth:`State.apply`
    (or :meth:`State.implied`) raises for the first action that does not replay."""
    older = log_format < state.game.record_format

    def fill(upcoming: tuple[int, Action] | None) -> None:
        for seat, action in state.implied(log_format, upcoming):
            state.apply(seat, action)

    for i, (seat, action) in enumerate(actions):
        if older:
            fill((seat, action))  # a decision missing before this action is refused here
        state.apply(seat, action)
        if older:
            with contextlib.suppress(IllegalAction):  # refused at the next action, if at all
                fill(actions[i + 1] if i + 1 < len(actions) else None)
        yield seat, action


def replay(record: Record, game: Game) -> Iterator[State]:
    """Yield the state before the first action, then after each action (independent copies;
    a record of an older format as :func:`apply_log` plays it).

    ``game`` is the record's game (:func:`paiju.games.replay` makes it from the code)."""
    state = game.new_state(record.seats, seed=record.seed, deal=record.deal, context=record.context)
    yield state.clone()
    for _ in apply_log(state, record.actions, record.format):
        yield state.clone()


@dataclass(frozen=True)
class MatchSummary:
    """总结算: the whole match per seat - its total, the hands it won (settled above 0) -
    and the 大赢家 (the seats of the highest total, none when nobody is ahead)."""

    hands: int
    totals: tuple[int, ...]
    won: tuple[int, ...]
    winners: tuple[int, ...]

    @classmethod
    def of(
        cls,
        seats: int,
        settlements: Iterable[Sequence[int]],
        wins: Iterable[Sequence[bool]] | None = None,
    ) -> MatchSummary:
        """From each hand's settlement; ``wins`` says per hand which seats won it (the
        game's :meth:`Game.hand_won`), by default those settled above 0."""
        totals, won, hands = [0] * seats, [0] * seats, 0
        settled = list(settlements)
        flags = [tuple(d > 0 for d in s) for s in settled] if wins is None else list(wins)
        for scores, seats_won in zip(settled, flags, strict=True):
            hands += 1
            for seat, delta in enumerate(scores):
                totals[seat] += delta
                won[seat] += bool(seats_won[seat])
        top = max(totals, default=0)
        winners = tuple(s for s, t in enumerate(totals) if t == top and t > 0)
        return cls(hands, tuple(totals), tuple(won), winners)

    def to_json(self) -> JSON:
        return {
            "hands": self.hands,
            "totals": list(self.totals),
            "won": list(self.won),
            "winners": list(self.winners),
        }


class Match:
    """Hands in a row, each dealt from its own seed, with the context carried between them.

    A match (整局) ends where the family's :meth:`Game.match_over` says (8 局 by default, 麻将
    by 圈, 打弹子 at 30 or 60 points); ``hands`` plays exactly that many hands instead, the
    context carried all along (a 打弹子 match won on the way starts the next from 0).
    """

    def __init__(
        self,
        game: Game,
        seats: int,
        seeds: Iterator[Seed],
        context: Mapping[str, Any] | None = None,
        hands: int | None = None,
    ) -> None:
        self.game = game
        self.seats = seats
        self.seeds = seeds
        self.start_context: Mapping[str, Any] = dict(context or {})
        self.length = hands
        self.hands: list[State] = []

    @property
    def context(self) -> Mapping[str, Any]:
        """The context the next hand starts from."""
        return self.hands[-1].next_context() if self.hands else self.start_context

    @property
    def totals(self) -> list[int]:
        """Per-seat sums of the settlements of the finished hands."""
        totals = [0] * self.seats
        for hand in self.hands:
            if hand.is_over:
                for seat, delta in enumerate(hand.settlement()):
                    totals[seat] += delta
        return totals

    def summary(self) -> MatchSummary:
        """总结算 of the finished hands."""
        over = [h for h in self.hands if h.is_over]
        wins = [self.game.hand_won(h.settlement(), h.context, h.next_context()) for h in over]
        return MatchSummary.of(self.seats, [h.settlement() for h in over], wins)

    @property
    def is_over(self) -> bool:
        if self.hands and not self.hands[-1].is_over:
            return False
        if self.length is not None:
            return len(self.hands) >= self.length
        return bool(self.hands) and self.game.match_over(self.context, len(self.hands))

    def next_hand(self) -> State:
        """Deal the next hand (the previous one must be over)."""
        if self.hands and not self.hands[-1].is_over:
            raise IllegalAction("the current hand is not over")
        state = self.game.new_state(self.seats, seed=next(self.seeds), context=self.context)
        self.hands.append(state)
        return state
