"""Dealing again what a seat cannot see: the shared machinery of :meth:`State.resample`.

A family's ``resample(seat, rng)`` says, from what ``seat`` may see, which cards (or tiles)
are unknown to it, which places hold them (another seat's hand, the kitty, the wall) and
how many each holds, and which places a card may not be in (a seat that did not follow a
suit holds none of it). :func:`deal_hidden` deals the unknown cards into those places at
random under the constraints; the family writes the deal of the hand those places make and
the actions of the hand with what stayed hidden re-chosen (a buried kitty, an arrangement
nobody has seen yet), and :func:`replay_sample` plays the hand again from that deal: every
action is checked by the engine, and the sample is kept only when ``seat``'s view of it is
the view it has now. So a sample is always a possible hand behind what the seat sees.

A resample depends on the seat's knowledge only (its view and its own past actions): what
the sampler reads of the true hidden cards is their number, never where they are, and it
draws everything from ``rng`` in an order fixed by public information. Two states a seat
cannot tell apart give the same sample for the same ``rng``; the harness checks this.

Dealing is by constraint, never by guessing the whole hand until one fits: a shuffle of the
unknown cards is kept when every card is where it may be and the family's checks pass
(rejection, exactly uniform over the deals that fit); when shuffles rarely fit, a search
places the cards one at a time, each only where it may go and where the rest can still be
placed (Hall's condition, and the family's monotone checks of a partial deal), going back
on a dead end, so it finds a deal whenever one exists; random swaps of two cards that keep
the deal fitting then take it back towards a uniform draw. A sampler that finds none
raises :class:`ResampleFailed`; nothing ever answers with the true deal instead.

Where the deal is the whole of what is hidden (a family passes ``exact=True``: no order
inside a place matters and nothing else hidden is chosen again that changes the hand to
come) and few deals fit, :func:`all_samples` gives every one of them, each once, with its
probability, instead of drawing with repeats: a search over the worlds then averages over
exactly the worlds that can be, weighted as a uniform deal of the cards told apart would
weigh them (two copies of a card in one hand are one way of dealing them, split between
two hands two ways).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any, TypeVar

from paiju.errors import IllegalAction, PaijuError

if TYPE_CHECKING:
    from paiju.engine import Action, Deal, State

__all__ = ["ResampleFailed", "Script", "all_deals", "all_samples", "deal_hidden", "replay_sample"]

Allowed = Mapping[int, frozenset[int]]
"""Card -> the places it may be dealt to (a card missing from the mapping may go anywhere)."""

Script = list[tuple[int, "Action | Callable[[State, random.Random], Action | None]"]]
"""The actions to play again: an action as played, or a function choosing it again on the
new hand (for what the seat did not see: another seat's hidden choice; None = nothing to do
there on this hand)."""

SHUFFLE_TRIES = 200
"""Shuffles tried before the search (:class:`_Search`) places cards one at a time."""

SEARCH_NODES = 200_000
"""The placements the search may try in all before it gives up, a few seconds at most (it
never has to in play: a dead end is found a card or two after it is entered, and a card
that got stuck is placed first on the next try)."""

EXACT_NODES = 20_000
"""The placements :func:`all_deals` may try before it gives up counting (the worlds are
then drawn as usual)."""

MIX_SWAPS = 8
"""Swaps tried per card after the search (:func:`_mixed`)."""

Check = Callable[[list[list[int]]], bool]
"""A check of a (partial) deal of the places, as lists of cards."""

S = TypeVar("S", bound="State")


class ResampleFailed(PaijuError):
    """No deal behind the seat's view exists, or none was found within the search's nodes
    and the replay's tries: an error the caller sees and decides without a sample (never
    with the true deal)."""


def _fits(parts: Sequence[Sequence[int]], allowed: Allowed) -> bool:
    for place, cards in enumerate(parts):
        for card in cards:
            where = allowed.get(card)
            if where is not None and place not in where:
                return False
    return True


def _hall_ok(counts: Mapping[frozenset[int], int], room: Sequence[int]) -> bool:
    """Hall's condition: every set of places has room for the cards that may go nowhere else.

    Only the sets that are unions of the cards' sets of places can fail first (any other
    set has the same cards that may go nowhere else as the union of the sets inside it, and
    more room), so where the cards fall into fewer such sets than there are places (one,
    when no card is bound), those unions are checked instead of every set of places."""
    kinds = [k for k, n in counts.items() if n]
    if len(kinds) < len(room) and all(kinds):
        unions: set[frozenset[int]] = set()
        for kind in kinds:
            unions |= {kind | u for u in unions}
            unions.add(kind)
        return all(
            sum(n for k, n in counts.items() if k <= union) <= sum(room[p] for p in union)
            for union in unions
        )
    places = range(len(room))
    for size in range(1, len(room) + 1):
        for subset in combinations(places, size):
            chosen = frozenset(subset)
            need = sum(n for kinds, n in counts.items() if kinds <= chosen)
            if need > sum(room[p] for p in chosen):
                return False
    return True


def _open_places(kind: frozenset[int], room: Sequence[int]) -> list[int]:
    return [p for p in sorted(kind) if room[p] > 0]


class _Search:
    """A randomised depth-first search for a deal that fits: the cards are placed one at a
    time (those that got stuck in an earlier try first, then the most constrained, ties
    in a random order), each into a place drawn by the room it has left among those that
    keep Hall's condition and pass ``prune``; a dead end goes back one card and draws
    again among the places not tried yet. So it finds a deal whenever one exists, and
    proves there is none when it runs out of places, given the nodes."""

    def __init__(
        self,
        rng: random.Random,
        cards: list[int],
        sizes: Sequence[int],
        allowed: Allowed,
        prune: Check | None,
        accept: Check | None,
        stuck: Counter[int],
    ) -> None:
        everywhere = frozenset(range(len(sizes)))
        self.rng = rng
        self.cards = cards
        self.kinds = [allowed.get(c, everywhere) & everywhere for c in cards]
        self.counts: dict[frozenset[int], int] = {}
        for k in self.kinds:
            self.counts[k] = self.counts.get(k, 0) + 1
        self.room = list(sizes)
        self.prune = prune
        self.accept = accept
        self.parts: list[list[int]] = [[] for _ in sizes]
        keys = [rng.random() for _ in cards]
        self.stuck = stuck
        self.order = sorted(
            range(len(cards)), key=lambda i: (-stuck[i], len(self.kinds[i]), keys[i])
        )
        self.nodes = 0

    def run(self, budget: int) -> list[list[int]] | None:
        """A deal that fits, or None when there is none (a :class:`_OutOfNodes` is raised
        when ``budget`` nodes were not enough to tell)."""
        if not _hall_ok(self.counts, self.room):
            return None
        self.budget = budget
        return self._place(0)

    def _place(self, at: int) -> list[list[int]] | None:
        if at == len(self.order):
            if self.accept is None or self.accept(self.parts):
                return [list(p) for p in self.parts]
            return None
        i = self.order[at]
        card, kind = self.cards[i], self.kinds[i]
        self.counts[kind] -= 1
        places = _open_places(kind, self.room)
        tried: set[int] = set()
        while len(tried) < len(places):
            self.nodes += 1
            if self.nodes > self.budget:
                raise _OutOfNodes
            left = [p for p in places if p not in tried]
            (place,) = self.rng.choices(left, [self.room[p] for p in left])
            tried.add(place)
            self.room[place] -= 1
            self.parts[place].append(card)
            if _hall_ok(self.counts, self.room) and (self.prune is None or self.prune(self.parts)):
                found = self._place(at + 1)
                if found is not None:
                    return found
            self.parts[place].pop()
            self.room[place] += 1
        self.counts[kind] += 1
        self.stuck[i] += 1  # a card with no place left: placed earlier after a restart
        return None


def _narrowed(cards: Iterable[int], places: int, allowed: Allowed, prune: Check) -> Allowed:
    """``allowed`` with what ``prune`` says of each card alone: a card it refuses alone in
    a place can never be there (the check is monotone), so Hall's condition counts it."""
    everywhere = frozenset(range(places))
    out = dict(allowed)
    for card in set(cards):
        where = allowed.get(card, everywhere) & everywhere
        keep = frozenset(
            p for p in where if prune([[card] if q == p else [] for q in range(places)])
        )
        if keep != everywhere:
            out[card] = keep
    return out


def _mixed(
    rng: random.Random, parts: list[list[int]], allowed: Allowed, accept: Check | None
) -> list[list[int]]:
    """``parts`` after :data:`MIX_SWAPS` per card of random swaps of two cards between
    places, each kept when both cards may go where they land and the deal still fits: a
    Markov chain whose steady state is uniform over the deals it reaches, which takes the
    search's deal most of the way back to a uniform draw."""
    slots = [(p, i) for p, part in enumerate(parts) for i in range(len(part))]
    if len(parts) < 2 or len(slots) < 2:
        return parts
    for _ in range(MIX_SWAPS * len(slots)):
        (p, i), (q, j) = rng.sample(slots, 2)
        a, b = parts[p][i], parts[q][j]
        if p == q or a == b:
            continue
        if (p_ok := allowed.get(b)) is not None and p not in p_ok:
            continue
        if (q_ok := allowed.get(a)) is not None and q not in q_ok:
            continue
        parts[p][i], parts[q][j] = b, a
        if accept is not None and not accept(parts):
            parts[p][i], parts[q][j] = a, b
    return parts


class _OutOfNodes(Exception):
    """The search spent its nodes without finding a deal or proving there is none."""


class _TooMany(Exception):
    """More deals fit than asked for, or the nodes ran out before all were found."""


def all_deals(
    cards: Iterable[int],
    sizes: Sequence[int],
    allowed: Allowed | None = None,
    accept: Check | None = None,
    prune: Check | None = None,
    limit: int = 64,
) -> list[tuple[list[list[int]], int]] | None:
    """Every deal of ``cards`` into places of ``sizes`` that :func:`deal_hidden` may give
    (each card where ``allowed`` lets it go, passing ``prune`` on the way and ``accept`` at
    the end), each once, its places sorted, with its weight: how many deals of the cards
    told apart give it (the product over kinds of card of ``n!`` over the ``k!`` of how
    many of the kind each place holds). None when more than ``limit`` fit, or when
    :data:`EXACT_NODES` placements did not tell.

    A depth-first search places the cards in sorted order, a copy of a card never into an
    earlier place than the copy before it (so each deal is met once), each only where
    Hall's condition still holds."""
    pool = sorted(cards)
    if len(pool) != sum(sizes):
        return []
    everywhere = frozenset(range(len(sizes)))
    rules = allowed or {}
    kinds = [rules.get(c, everywhere) & everywhere for c in pool]
    counts = Counter(kinds)
    room = list(sizes)
    parts: list[list[int]] = [[] for _ in sizes]
    where = [0] * len(pool)
    found: list[tuple[list[list[int]], int]] = []
    nodes = 0
    copies = Counter(pool)
    whole = math.prod(math.factorial(n) for n in copies.values())

    def place(at: int) -> None:
        nonlocal nodes
        if at == len(pool):
            if accept is None or accept(parts):
                held = [Counter(p) for p in parts]
                ways = math.prod(math.factorial(n) for h in held for n in h.values())
                found.append(([sorted(p) for p in parts], whole // ways))
                if len(found) > limit:
                    raise _TooMany
            return
        card, kind = pool[at], kinds[at]
        counts[kind] -= 1
        low = where[at - 1] if at and pool[at - 1] == card else 0
        for p in sorted(kind):
            if p < low or room[p] == 0:
                continue
            nodes += 1
            if nodes > EXACT_NODES:
                raise _TooMany
            room[p] -= 1
            parts[p].append(card)
            where[at] = p
            if _hall_ok(counts, room) and (prune is None or prune(parts)):
                place(at + 1)
            parts[p].pop()
            room[p] += 1
        counts[kind] += 1

    try:
        if _hall_ok(counts, room):
            place(0)
    except _TooMany:
        return None
    return found


@dataclass
class _Count:
    """:func:`all_samples` asking the family's sampler for every deal (at most ``limit``)."""

    limit: int
    called: bool = False
    shape: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    deals: list[tuple[list[list[int]], int]] | None = field(default_factory=list)


@dataclass
class _Forced:
    """:func:`all_samples` asking the family's sampler for one deal it found before."""

    parts: list[list[int]]


_MODE: ContextVar[_Count | _Forced | None] = ContextVar("_MODE", default=None)


def all_samples(
    state: S, seat: int, rng: random.Random, limit: int
) -> tuple[list[tuple[S, float]], bool]:
    """The worlds behind ``seat``'s view of ``state`` with their probabilities, and whether
    they are all of them: every world, each once, when the family's sampler deals
    ``exact`` and at most ``limit`` deals fit; else one world of :meth:`State.resample`
    (probability 1, False). A world's probability is its deal's weight among all (see
    :func:`all_deals`). Raises ResampleFailed as :meth:`State.resample` does."""
    probe = _Count(limit)
    token = _MODE.set(probe)
    try:
        first = state.resample(seat, rng)
    finally:
        _MODE.reset(token)
    if not probe.called:
        return [(first, 1.0)], not state.hidden_from(seat)
    if probe.deals is None or not probe.deals:
        return [(first, 1.0)], False
    worlds: list[tuple[S, int]] = []
    for parts, weight in probe.deals:
        token = _MODE.set(_Forced(parts))
        try:
            worlds.append((state.resample(seat, rng), weight))
        except ResampleFailed:  # the constraints let it through, the play rules it out
            continue
        finally:
            _MODE.reset(token)
    if not worlds:  # pragma: no cover - the resample above found one
        return [(first, 1.0)], False
    total = sum(w for _, w in worlds)
    return [(world, w / total) for world, w in worlds], True


def deal_hidden(
    rng: random.Random,
    cards: Iterable[int],
    sizes: Sequence[int],
    allowed: Allowed | None = None,
    accept: Check | None = None,
    prune: Check | None = None,
    *,
    exact: bool = False,
) -> list[list[int]]:
    """Deal ``cards`` into places of ``sizes`` at random, each card where ``allowed`` lets
    it go, the whole deal passing ``accept``; raises ResampleFailed only when no such deal
    exists (or, past :data:`SEARCH_NODES`, none was found).

    ``prune`` is a check of a partial deal that is monotone: a deal it refuses stays refused
    whatever cards are added (a seat that passed on a pair held no pair of the suit: adding
    cards never mends that). The search cuts its branches with it; pass the family's check
    as both ``prune`` and ``accept`` when it is monotone.

    First :data:`SHUFFLE_TRIES` shuffles are tried, each kept when it fits (rejection:
    exactly uniform over the deals that fit); when none fits, the constraints leave few
    deals and the search (:class:`_Search`) finds one: each card is placed, the most
    constrained first, into a place drawn by its room left among the places that can
    still lead to a deal. That draw is not uniform over the deals that fit: a card's place
    is weighted by room as in a uniform deal, but a card placed early is not told what the
    later ones need; the tests measure the spread it gives.

    ``cards`` should come in an order fixed by public information (sorted), so that the
    deal depends on ``rng`` only.

    ``exact``: the deal is the whole of what is hidden (no order inside a place matters,
    nothing else hidden chosen again changes the hand to come), so that
    :func:`all_samples` may give every deal (:func:`all_deals`) when few fit.
    """
    pool = list(cards)
    if len(pool) != sum(sizes):
        raise ResampleFailed(f"{len(pool)} unknown cards for {sum(sizes)} places")
    mode = _MODE.get()
    if isinstance(mode, _Forced):
        return [list(p) for p in mode.parts]
    if isinstance(mode, _Count):
        shape = (tuple(sorted(pool)), tuple(sizes))
        if not mode.called:
            mode.called, mode.shape = True, shape
            mode.deals = (
                all_deals(pool, sizes, allowed, accept, prune, mode.limit) if exact else None
            )
        elif mode.shape != shape:  # a second deal of other cards: not one deal's worlds
            mode.deals = None
    rules = allowed or {}
    for _ in range(SHUFFLE_TRIES):
        rng.shuffle(pool)
        parts: list[list[int]] = []
        at = 0
        for n in sizes:
            parts.append(pool[at : at + n])
            at += n
        if _fits(parts, rules) and (accept is None or accept(parts)):
            return parts
    if prune is not None:
        rules = _narrowed(pool, len(sizes), rules, prune)
    budget = SEARCH_NODES // 128
    spent = 0
    stuck = Counter[int]()
    while True:
        search = _Search(rng, sorted(pool), sizes, rules, prune, accept, stuck)
        try:
            found = search.run(min(budget, SEARCH_NODES - spent))
        except _OutOfNodes:
            spent += search.nodes
            if spent >= SEARCH_NODES:
                raise ResampleFailed(
                    f"no deal of the unknown cards found in {SEARCH_NODES} search nodes"
                ) from None
            budget *= 2  # again, the cards that got stuck first, with more room
            continue
        if found is None:
            raise ResampleFailed("no deal of the unknown cards fits what the seat has seen")
        return _mixed(rng, found, rules, accept)


def replay_sample(
    state: S,
    seat: int,
    rng: random.Random,
    propose: Callable[[random.Random], tuple[Deal, Script]],
    tries: int = 64,
) -> S:
    """Play the hand again from each proposed (deal, script) until ``seat``'s view of the
    result is its view of ``state``; that result. Raises ResampleFailed after ``tries``.

    A family's proposals carry every constraint public play puts on the hidden cards (where
    a card may go, the checks of :func:`deal_hidden`), so that the first proposal replays:
    in every family's playouts all of them do, and the tries are a safety net only."""
    target = state.view(seat)
    game = state.game
    if isinstance(_MODE.get(), _Forced):
        tries = min(tries, 8)  # the deal is given: only what the script draws again varies
    for _ in range(tries):
        deal, script = propose(rng)
        new: Any = game.start(state.seats, deal, state.context)
        new.seed = None
        try:
            for who, step in script:
                action = step if not callable(step) else step(new, rng)
                if action is not None:
                    new.apply(who, action)
        except IllegalAction:
            continue
        if new.view(seat) == target:
            result: S = new
            return result
    raise ResampleFailed(
        f"no hand behind seat {seat}'s view of {game.variant.code} in {tries} tries"
        f" (phase {state.phase!r})"
    )
