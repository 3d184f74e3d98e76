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

Dealing is exact where it can be: a shuffle of the unknown cards, kept when every card is
where it may be (rejection, which is uniform over the deals that fit); when the
constraints make that rare, cards are placed one at a time among the places still open,
weighted by the room left, keeping Hall's condition so that the rest can always be placed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, TypeVar

from paiju.errors import IllegalAction, PaijuError

if TYPE_CHECKING:
    from paiju.engine import Action, Deal, State

__all__ = ["ResampleFailed", "Script", "deal_hidden", "replay_sample"]

Allowed = Mapping[int, frozenset[int]]
"""Card -> the places it may be dealt to (a card missing from the mapping may go anywhere)."""

Script = list[tuple[int, "Action | Callable[[State, random.Random], Action | None]"]]
"""The actions to play again: an action as played, or a function choosing it again on the
new hand (for what the seat did not see: another seat's hidden choice; None = nothing to do
there on this hand)."""

SHUFFLE_TRIES = 200
"""Shuffles tried before placing cards one at a time."""

S = TypeVar("S", bound="State")


class ResampleFailed(PaijuError):
    """No deal behind the seat's view was found within the tries (the constraints are too
    tight for the sampler); the caller decides without a sample."""


def _fits(parts: Sequence[Sequence[int]], allowed: Allowed) -> bool:
    for place, cards in enumerate(parts):
        for card in cards:
            where = allowed.get(card)
            if where is not None and place not in where:
                return False
    return True


def _hall_ok(counts: Mapping[frozenset[int], int], room: Sequence[int]) -> bool:
    """Hall's condition: every set of places has room for the cards that may go nowhere else."""
    places = range(len(room))
    for size in range(1, len(room) + 1):
        for subset in combinations(places, size):
            chosen = frozenset(subset)
            need = sum(n for kinds, n in counts.items() if kinds <= chosen)
            if need > sum(room[p] for p in chosen):
                return False
    return True


def _place_one_by_one(
    rng: random.Random, cards: list[int], sizes: Sequence[int], allowed: Allowed
) -> list[list[int]]:
    everywhere = frozenset(range(len(sizes)))
    kinds = [allowed.get(c, everywhere) & everywhere for c in cards]
    counts: dict[frozenset[int], int] = {}
    for k in kinds:
        counts[k] = counts.get(k, 0) + 1
    room = list(sizes)
    if not _hall_ok(counts, room):
        raise ResampleFailed("the constraints leave no deal of the unknown cards")
    order = list(range(len(cards)))
    rng.shuffle(order)
    parts: list[list[int]] = [[] for _ in sizes]
    for i in order:
        kind = kinds[i]
        counts[kind] -= 1
        open_places = [p for p in sorted(kind) if room[p] > 0]
        weights = [room[p] for p in open_places]
        while open_places:
            (place,) = rng.choices(open_places, weights)
            room[place] -= 1
            if _hall_ok(counts, room):
                break
            room[place] += 1
            at = open_places.index(place)
            del open_places[at], weights[at]
        else:  # pragma: no cover - Hall's condition guarantees a place
            raise ResampleFailed("no place left for a card")
        parts[place].append(cards[i])
    return parts


def deal_hidden(
    rng: random.Random,
    cards: Iterable[int],
    sizes: Sequence[int],
    allowed: Allowed | None = None,
    accept: Callable[[list[list[int]]], bool] | None = None,
) -> list[list[int]]:
    """Deal ``cards`` into places of ``sizes`` at random, each card where ``allowed`` lets
    it go, the whole deal passing ``accept``; raises ResampleFailed when none is found.

    ``cards`` should come in an order fixed by public information (sorted), so that the
    deal depends on ``rng`` only.
    """
    pool = list(cards)
    if len(pool) != sum(sizes):
        raise ResampleFailed(f"{len(pool)} unknown cards for {sum(sizes)} places")
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
    for _ in range(SHUFFLE_TRIES):
        parts = _place_one_by_one(rng, sorted(pool), sizes, rules)
        if accept is None or accept(parts):
            return parts
    raise ResampleFailed("no deal of the unknown cards passed the checks")


def replay_sample(
    state: S,
    seat: int,
    rng: random.Random,
    propose: Callable[[random.Random], tuple[Deal, Script]],
    tries: int = 64,
) -> S:
    """Play the hand again from each proposed (deal, script) until ``seat``'s view of the
    result is its view of ``state``; that result. Raises ResampleFailed after ``tries``."""
    target = state.view(seat)
    game = state.game
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
