"""The shared playout harness: random playouts that check the Game protocol's invariants.

Every family registers by merely being in the catalogue: :func:`playout` plays one hand
(or a whole match) with bots in every seat and checks, after every action:

* cards or tiles are conserved (:meth:`State.locations` holds the full set, no more);
* the JSON forms of actions and events round-trip;
* a rejected action (a seat out of turn, a stale action) leaves the state unchanged;
* no view of a seat (or a spectator) names a card that seat may not see;
* liveness: while the hand is not over, every seat in ``to_act()`` has a legal action
  (one of :meth:`State.legal_actions`, or, where the set is not listed, a random action
  the state itself accepts);
* every :data:`RESAMPLE_EVERY`-th state, :meth:`State.resample` for one seat (in turn) gives
  a state with the same view for that seat, the same cards, a deal and history that replay
  to it through the engine (the public play is legal under the new deal), and the same
  sample again when resampled from the sample (it depends on the seat's knowledge only);

and at the end of each hand: the settlement has one delta per seat and sums to zero, and
replaying (variant, seed, actions) reproduces every intermediate view of every seat.

``paiju simulate`` runs these checks on every game it plays; tests call
:func:`check_game` for every variant.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from paiju.bots import Bot
from paiju.cards import Card, parse_cards
from paiju.engine import Action, Game, Match, Record, State
from paiju.errors import IllegalAction, NotationError, ProtocolError
from paiju.fairness import Seed
from paiju.games import make_bot
from paiju.sampling import ResampleFailed
from paiju.tiles import parse_tiles

RESAMPLE_EVERY = 5
"""How often (in decisions) a deep playout checks :meth:`State.resample`."""

__all__ = ["HandResult", "PlayoutResult", "check_game", "dead_seats", "playout", "view_items"]


@dataclass
class HandResult:
    """One checked hand."""

    record: Record
    settlement: tuple[int, ...]
    decisions: int


@dataclass
class PlayoutResult:
    """A checked match: its hands, per-seat totals and every invariant failure found."""

    hands: list[HandResult] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def decisions(self) -> int:
        return sum(h.decisions for h in self.hands)


def _strings(obj: Any) -> Iterator[str]:
    """Every text of a view, dict keys included, in document order (the plain reading)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, Mapping):
        for key, value in obj.items():
            yield str(key)
            yield from _strings(value)
    elif isinstance(obj, list | tuple):
        for value in obj:
            yield from _strings(value)


def _collect(obj: Any, out: list[str]) -> None:
    """Append the texts :func:`_strings` yields for ``obj`` to ``out``, in the same order.

    The hot path of the hidden-card check: exact ``str``/``dict``/``list``/``tuple`` take a
    fast branch (no ABC ``isinstance``, no nested generators); anything else goes through
    :func:`_strings` itself, so the texts found are the same.
    """
    kind = type(obj)
    if kind is str:
        out.append(obj)
    elif kind is dict:
        for key, value in obj.items():
            out.append(key if type(key) is str else str(key))
            _collect(value, out)
    elif kind is list or kind is tuple:
        for value in obj:
            _collect(value, out)
    elif kind is int or kind is bool or kind is float or obj is None:
        pass  # no text in a number, a flag or null
    else:
        for text in _strings(obj):
            out.append(text)


@functools.lru_cache(maxsize=1 << 17)
def _text_items(text: str, kind: str) -> tuple[int, ...]:
    """The cards (or tiles) one view text names, in order; parsed once per distinct text."""
    if kind == "tiles":
        try:
            return tuple(parse_tiles(text))
        except NotationError:
            return ()
    return tuple(c for token in text.replace("/", " ").split() for c in _token_cards(token))


def view_items(view: Any, kind: str = "cards") -> Counter[int]:
    """Every card (or tile) named in a view's texts, counted once per mention."""
    texts: list[str] = []
    _collect(view, texts)
    found: Counter[int] = Counter()
    for text in texts:
        found.update(_text_items(text, kind))
    return found


def _named(view: Any, kind: str) -> dict[int, None]:
    """The distinct cards (or tiles) a view names, in order of first mention."""
    texts: list[str] = []
    _collect(view, texts)
    return dict.fromkeys(chain.from_iterable([_text_items(text, kind) for text in texts]))


@dataclass
class _Shared:
    """What :func:`_named_shared` read of the views of one state: the cards named by each
    part of a view, by the part's identity (the views live while it is used, so no id is
    reused), for the parts the views share."""

    kind: str
    parts: dict[int, tuple[int, ...]] = field(default_factory=dict)


def _named_shared(view: Any, shared: _Shared) -> dict[int, None]:
    """:func:`_named` of ``view``, each list or dict under its top level read once for
    all the views of a state (:meth:`State.views` shares what every seat sees alike);
    the same cards in the same order of first mention."""
    if type(view) is not dict:
        return _named(view, shared.kind)
    found: list[tuple[int, ...]] = []
    for key, value in view.items():
        found.append(_text_items(key if type(key) is str else str(key), shared.kind))
        kind = type(value)
        if kind is list or kind is dict:
            items = shared.parts.get(id(value))
            if items is None:
                items = tuple(_named(value, shared.kind))
                shared.parts[id(value)] = items
            found.append(items)
        else:
            found.append(tuple(_named(value, shared.kind)))
    return dict.fromkeys(chain.from_iterable(found))


@functools.lru_cache(maxsize=65536)
def _token_cards(token: str) -> tuple[int, ...]:
    """The cards one whitespace-free token names (none when it is not card notation)."""
    try:
        return tuple(parse_cards(token))
    except NotationError:
        return ()


def _leaks(
    state: State,
    seat: int | None,
    view: Any,
    copies: Mapping[int, int] | None = None,
    shared: _Shared | None = None,
) -> list[str]:
    """Cards a view names although every copy of them is hidden from the seat.

    ``copies`` is ``Counter(state.game.full_set())``, passed in by a caller that checks
    many views of one game; ``shared``, by a caller that checks the views of one state
    (:meth:`State.views`, whose views may share the parts every seat sees alike).
    """
    if copies is None:
        copies = Counter(state.game.full_set())
    hidden = state.hidden_from(seat)
    named = _named(view, state.game.items) if shared is None else _named_shared(view, shared)
    leaked = [c for c in named if hidden.get(c, 0) >= copies.get(c, 0)]
    if not leaked:
        return []
    names = ", ".join(str(Card(c)) if state.game.items == "cards" else str(c) for c in leaked)
    who = "the spectator" if seat is None else f"seat {seat}"
    return [f"view of {who} shows hidden {names} (phase {state.phase})"]


_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False)
"""``json.dumps(view, sort_keys=True, ensure_ascii=False)`` without a new encoder per call."""

_SEATS: dict[int, tuple[int | None, ...]] = {}


def _observers(seats: int) -> tuple[int | None, ...]:
    """Every seat, then the spectator (``None``)."""
    if seats not in _SEATS:
        _SEATS[seats] = (*range(seats), None)
    return _SEATS[seats]


def _views(state: State) -> list[str]:
    return [_ENCODER.encode(v) for v in state.views(_observers(state.seats))]


def dead_seats(state: State, rng: random.Random | None = None) -> list[int]:
    """The seats in ``to_act()`` that have no legal action (liveness: always none).

    Where a family lists its actions, the list must not be empty; where it does not (a
    13-card arrangement), its random draw must give an action the state accepts.
    """
    dead = []
    for seat in sorted(state.to_act()):
        legal = state.legal_actions(seat)
        if legal is not None:
            if not legal:
                dead.append(seat)
            continue
        try:
            action = state.random_action(seat, rng or random.Random(seat))
            state.check(seat, action)
        except IllegalAction:
            dead.append(seat)
    return dead


class _Checker:
    def __init__(self, game: Game, failures: list[str], label: str) -> None:
        self.game = game
        self.failures = failures
        self.label = label
        self.full = Counter(game.full_set())

    def fail(self, message: str) -> None:
        self.failures.append(f"{self.label}: {message}")

    def alive(self, state: State, rng: random.Random) -> None:
        for seat in dead_seats(state, rng):
            self.fail(
                f"seat {seat} is to act in phase {state.phase!r} after"
                f" {len(state.history)} actions but has no legal action"
            )

    def conserved(self, state: State) -> None:
        total: Counter[int] = Counter()
        for pile in state.locations().values():
            total.update(pile)
        if total != self.full:
            self.fail(
                f"cards not conserved after {len(state.history)} actions: "
                f"missing {sorted((self.full - total).elements())}, "
                f"extra {sorted((total - self.full).elements())}"
            )

    def round_trips(self, action: Action, events: Iterable[Any]) -> None:
        again = self.game.parse_action(json.loads(json.dumps(action.to_json())))
        if again != action:
            self.fail(f"action JSON does not round-trip: {action!r} -> {again!r}")
        for event in events:
            back = self.game.parse_event(json.loads(json.dumps(event.to_json())))
            if back != event:
                self.fail(f"event JSON does not round-trip: {event!r} -> {back!r}")

    def rejection_is_clean(self, state: State, seat: int, action: Action) -> None:
        """Out-of-turn and stale actions must raise and leave no trace."""
        attempts: list[tuple[int, Action]] = []
        idle = [s for s in range(state.seats) if s not in state.to_act()]
        if idle:
            attempts.append((idle[0], action))
        if state.history:
            attempts.append(state.history[len(state.history) // 2])
        trial: State | None = None
        before = b""
        for who, attempt in attempts:
            if trial is None:
                trial = state.clone()
                before = trial.snapshot()
            try:
                trial.apply(who, attempt)
            except IllegalAction:
                if trial.snapshot() != before:
                    self.fail(f"rejected {attempt!r} of seat {who} changed the state")
                    trial = None
                # else the clone is, pickled byte for byte, what it was: the next attempt
                # may try it again instead of a fresh clone (and its snapshot) of the state
            else:
                if who in idle:
                    self.fail(f"seat {who} acted out of turn with {attempt!r}")
                trial = None

    def resamples(self, state: State, seat: int, salt: int) -> None:
        """:meth:`State.resample` keeps the seat's view, conserves the cards, replays from its
        deal, and depends only on what the seat knows."""
        if type(state).resample is State.resample:
            return  # a family (the toy) without a sampler
        try:
            sample = state.resample(seat, random.Random(salt))
            again = sample.resample(seat, random.Random(salt + 1))
            direct = state.resample(seat, random.Random(salt + 1))
        except ResampleFailed as exc:
            self.fail(f"resample for seat {seat} failed: {exc}")
            return
        if sample.view(seat) != state.view(seat):
            self.fail(f"resample changed seat {seat}'s view (phase {state.phase})")
        self.conserved(sample)
        if again.record().to_json() != direct.record().to_json():
            self.fail(f"resample for seat {seat} depends on cards the seat cannot see")
        if sample.seed is not None or sample.deal is state.deal:
            self.fail("a resample must carry its own deal and no seed")
        try:
            replayed = self.game.new_state(sample.seats, deal=sample.deal, context=sample.context)
            for who, action in sample.history:
                replayed.apply(who, action)
        except (IllegalAction, ProtocolError) as exc:
            self.fail(f"a resample's deal and history do not replay: {exc}")
            return
        if _views(replayed) != _views(sample):
            self.fail(f"a resample for seat {seat} is not what its deal and history replay to")

    def views_hide(self, state: State, turn: int = 0) -> list[str]:
        """Check every seat's (and the spectator's) view for hidden cards; their JSON texts.

        The views are built together (:meth:`State.views`, as the server sends them), once,
        and serve both the hidden-card check and the replay check; one observer's, in turn
        by ``turn``, is built alone too and must be the same (:meth:`State.view`, as a
        seat's own request and the samplers read it).
        """
        copies = self.full if state.game is self.game else Counter(state.game.full_set())
        observers = _observers(state.seats)
        views = state.views(observers)
        alone = observers[turn % len(observers)]
        if state.view(alone) != views[turn % len(observers)]:
            who = "the spectator" if alone is None else f"seat {alone}"
            self.fail(
                f"the view of {who} alone differs from its view among all (phase {state.phase})"
            )
        shared = _Shared(state.game.items)
        texts: list[str] = []
        for seat, view in zip(observers, views, strict=True):
            for leak in _leaks(state, seat, view, copies, shared):
                self.fail(leak)
            texts.append(_ENCODER.encode(view))
        return texts

    def settles(self, state: State) -> tuple[int, ...]:
        scores = tuple(state.settlement())
        if len(scores) != state.seats:
            self.fail(f"settlement has {len(scores)} entries for {state.seats} seats")
        if sum(scores) != 0:
            self.fail(f"settlement {scores} does not sum to zero")
        return scores

    def replays(self, record: Record, views: list[list[str]]) -> None:
        state = self.game.new_state(
            record.seats, seed=record.seed, deal=record.deal, context=record.context
        )
        if _views(state) != views[0]:
            self.fail("replay: the dealt views differ")
            return
        for step, (seat, action) in enumerate(record.actions, 1):
            state.apply(seat, action)
            if _views(state) != views[step]:
                self.fail(f"replay: views differ after action {step} ({action!r})")
                return


def _play_hand(
    state: State, bots: list[Bot], rng: random.Random, check: _Checker, deep: bool
) -> HandResult:
    views: list[list[str]] = []
    check.conserved(state)
    if deep:
        views.append(check.views_hide(state))
    decisions = 0
    while not state.is_over:
        check.alive(state, rng)
        seat = rng.choice(sorted(state.to_act()))
        action = bots[seat].act(state, seat)
        if deep:
            check.rejection_is_clean(state, seat, action)
        if deep and decisions % RESAMPLE_EVERY == 0:
            check.resamples(state, (decisions // RESAMPLE_EVERY) % state.seats, decisions)
        events = state.apply(seat, action)
        decisions += 1
        check.conserved(state)
        if deep:
            check.round_trips(action, events)
            views.append(check.views_hide(state, decisions))
    scores = check.settles(state)
    record = state.record()
    if deep:
        check.replays(record, views)
    return HandResult(record, scores, decisions)


def playout(
    game: Game,
    seats: int | None = None,
    seed: Seed = 0,
    *,
    bots: list[Bot] | None = None,
    deep: bool = True,
    max_hands: int = 200,
    hands: int | None = None,
) -> PlayoutResult:
    """Play one match with bots in every seat, checking every invariant on the way.

    The match is the game's own (:meth:`Game.match_over`: 8 局, 麻将's 圈, 打弹子 to 30),
    or exactly ``hands`` hands with the context carried from each to the next. ``deep=False``
    keeps only the cheap checks (conservation, liveness, settlement).
    """
    seats = game.seat_count(seats)
    rng = random.Random(f"{seed}")
    if bots is None:
        bots = [make_bot(game, rng.randrange(2**32)) for _ in range(seats)]
    result = PlayoutResult()
    if hands is not None:
        max_hands = hands
    seeds = (f"{seed}/{h}" for h in range(max_hands + 1))
    match = Match(game, seats, seeds, hands=hands)
    while not match.is_over and len(match.hands) < max_hands:
        state = match.next_hand()
        check = _Checker(game, result.failures, f"{game.variant.code} seed {state.seed}")
        try:
            result.hands.append(_play_hand(state, bots, rng, check, deep))
        except IllegalAction as exc:
            check.fail(f"a bot's action was rejected: {exc}")
            break
    result.totals = match.totals
    return result


def check_game(
    game: Game,
    seeds: Iterable[Seed],
    seats: int | None = None,
    deep: bool = True,
    hands: int | None = 2,
) -> list[str]:
    """Every invariant failure over playouts from the given seeds (empty when all is well).

    Each playout is ``hands`` hands (2: a first deal and a later one, with what carries
    between them), or the game's whole match with ``hands=None``.
    """
    failures: list[str] = []
    for seed in seeds:
        failures.extend(playout(game, seats, seed, deep=deep, hands=hands).failures)
    return failures
