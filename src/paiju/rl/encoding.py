"""The per-family encoders: observations as fixed-shape arrays, actions as indexes.

An :class:`Encoder` is made for one game (variant and room options) and seat count. It
names its observation :class:`Layout` (named fields of a flat ``float32`` vector) and its
action space (``action_size`` indexes), and converts both ways:

* :meth:`Encoder.observe` - what ``state.view(seat)`` shows that seat, as the vector, made
  from scratch (the definition of the observation);
* :meth:`Encoder.sight` - the same vector from the seat's :class:`Sight`, the observation
  kept up to date between looks: the environments' way, a step costing a few changed
  cells and a copy rather than a rebuild;
* :meth:`Encoder.mask` - exactly the legal indexes of the seat's next step, an array the
  caller may keep (the encoder never changes it afterwards);
* :meth:`Encoder.step` - apply one index: an engine :class:`~paiju.engine.Action` when the
  decision is complete, or None while a card-choice sequence (:mod:`paiju.rl.cardseq`) goes on;
* :meth:`Encoder.encode` - an engine action as the indexes that make it (the other way).

Seats in observations are relative to the observer: entry 0 is the observer, entry 1 the
next seat in play order, and so on.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.engine import Action, Game, State
from paiju.rl.cardseq import CARD_SLOTS, CardChoice

__all__ = [
    "Encoder",
    "Field",
    "GrowingCounts",
    "Layout",
    "Obs",
    "Sight",
    "count_in",
    "mask_of",
    "put_turned",
    "read_only",
]

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Field:
    """One named part of the observation vector."""

    name: str
    shape: tuple[int, ...]
    doc: str
    start: int = 0
    items: bool = True
    """Whether a field of card (tile) width counts physical cards, rather than marking
    kinds (the 混 kinds of mahjong)."""

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def stop(self) -> int:
        return self.start + self.size


class Layout:
    """The named fields of an observation vector, in order."""

    def __init__(
        self,
        fields: Iterable[tuple[str, tuple[int, ...], str] | tuple[str, tuple[int, ...], str, bool]],
    ) -> None:
        self.fields: dict[str, Field] = {}
        start = 0
        for name, shape, doc, *kinds in fields:
            f = Field(name, shape, doc, start, not kinds or kinds[0])
            self.fields[name] = f
            start = f.stop
        self.size = start

    def __getitem__(self, name: str) -> Field:
        return self.fields[name]

    def slice(self, name: str) -> slice:
        f = self.fields[name]
        return slice(f.start, f.stop)

    def unpack(self, vector: Obs) -> dict[str, Obs]:
        """The observation vector as named arrays of their shapes (views, not copies)."""
        return {name: vector[f.start : f.stop].reshape(f.shape) for name, f in self.fields.items()}

    def card_fields(self, slots: int = CARD_SLOTS) -> list[str]:
        """The fields that hold cards (count per card index: their last axis is 54), or
        tiles with ``slots=34``."""
        return [n for n, f in self.fields.items() if f.shape[-1] == slots and f.items]


class GrowingCounts:
    """Counts per row (a seat) of the items of lists that grow at the end as a hand goes on
    (each seat's played cards, each river), kept up to date between observations: the items
    added since the last look are counted in; a list that got shorter or whose last counted
    item changed (a river's last tile marked as claimed) is counted afresh. It serves one
    owner (a state) at a time. The lists are assumed to change only at the end (items
    added, the last one replaced), as the engines keep them; the observation cache test
    checks the counts against fresh ones."""

    def __init__(self, rows: int, slots: int) -> None:
        self.rows = rows
        self.slots = slots
        self.owner: object = None
        self.counts = np.zeros((rows, slots), dtype=np.float32)
        self.known: list[int] = [0] * rows
        self.last: list[Any] = [None] * rows
        self.turned = [
            np.array([(seat + r) % rows for r in range(rows)], dtype=np.intp)
            for seat in range(rows)
        ]
        """Each observer's rows: row r is the absolute seat ``(seat + r) % rows``."""

    def update(self, owner: object, lists: Sequence[Sequence[Any]], first: bool = False) -> Obs:
        """The counts of ``lists`` (one per row) of ``owner``; ``first``: an item is a tuple
        whose first entry is the slot."""
        if owner is not self.owner:
            self.owner = owner
            self.counts = np.zeros((self.rows, self.slots), dtype=np.float32)
            self.known = [0] * self.rows
            self.last = [None] * self.rows
        known, last, counts = self.known, self.last, self.counts
        for r, items in enumerate(lists):
            k = known[r]
            size = len(items)
            if size == k and (not k or items[k - 1] is last[r]):
                continue
            if size < k or (k and items[k - 1] is not last[r]):
                counts[r] = 0  # not just grown: count the list afresh
                k = 0
            row = counts[r]
            for x in items[k:]:
                row[x[0] if first else x] += 1
            known[r] = size
            last[r] = items[size - 1] if size else None
        return counts

    def put_seen_by(self, out: Obs, start: int, seat: int) -> None:
        """:meth:`seen_by` written into ``out`` from ``start``."""
        put_turned(out.data, start, self.counts.ravel().data, seat * self.slots)

    def seen_by(self, seat: int) -> Obs:
        """The counts of the last update with the rows as ``seat`` sees them (0 = itself,
        1 = next …), flat."""
        return self.counts[self.turned[seat]].ravel()


def put_turned(out: memoryview, start: int, rows: memoryview, k: int) -> None:
    """Write ``rows`` (one row per seat, in seat order, flat) into ``out`` from ``start``
    as the seat whose row begins at ``k`` sees them: its row first, then the next seat's
    … (two slice copies between float32 memoryviews, no index array)."""
    m = len(rows)
    out[start : start + m - k] = rows[k:]
    out[start + m - k : start + m] = rows[:k]


def read_only(mask: Mask) -> Mask:
    """``mask`` made read-only, to be handed to agents as it is (and never changed)."""
    mask.flags.writeable = False
    return mask


def mask_of(blank: Mask, legal: Sequence[int]) -> Mask:
    """A fresh mask: ``blank`` (all zero, the action size long) with the indexes ``legal``
    set to 1. A few are set one by one in a copy of ``blank``, more in a bytearray that
    numpy then reads (each way the cheaper where it is used)."""
    if len(legal) < 16:
        mask = blank.copy()
        for i in legal:
            mask[i] = 1
        return mask
    cells = bytearray(len(blank))
    for i in legal:
        cells[i] = 1
    return np.frombuffer(cells, dtype=np.int8)


def count_in(out: Obs, indexes: Sequence[int]) -> None:
    """Add one to ``out`` at each of ``indexes`` (vector indexes; one listed twice adds two)."""
    if indexes:
        # Only the indexes listed are touched (adding a whole count vector to ``out``
        # costs more than the counting): where an index is listed more than once,
        # every listing of it writes the same total.
        at = np.fromiter(indexes, dtype=np.intp, count=len(indexes))
        if len(set(indexes)) == len(indexes):
            out[at] += 1
        else:
            out[at] += np.bincount(at)[at]  # small counts: exact


_ZEROS = memoryview(array("f", bytes(4 * 1024)))
"""Zero floats to clear a span of a :class:`Sight`'s cells with (a field is shorter)."""


class Sight:
    """One seat's observation kept up to date between looks (:meth:`Encoder.sight`).

    It holds the seat's vector as last brought up to date, the state it shows and how many
    of that state's actions (:attr:`version`: a state changes only by an action, which
    lengthens its history), and - in a family's subclass - what each field was made from
    (its keys). :meth:`look` at a later version of the same state has the family's
    :meth:`refresh` compare each field's key with the state's and rewrite only the fields
    that changed; through a card choice the version stays and only ``chosen`` changes, by
    the card just chosen; a new state (the next hand) starts from a zero vector with every
    key forgotten. The vector's cells are written through :attr:`cells`, a plain array of
    floats over the same memory (a cell costs a fraction of a numpy item there). The test
    of the environments checks every look against :meth:`Encoder.observe` at every step of
    random playouts of every family.
    """

    __slots__ = (
        "cells",
        "chosen",
        "chosen_at",
        "seat",
        "seats",
        "span",
        "state",
        "vector",
        "version",
    )

    def __init__(self, encoder: Encoder, seat: int) -> None:
        self.seat = seat
        self.seats = encoder.seats
        self.state: State | None = None
        self.version = -1
        self.cells = array("f", bytes(4 * encoder.layout.size))
        """The vector's cells (float32), for reading and writing a few at a time."""
        self.vector: Obs = np.frombuffer(self.cells, dtype=np.float32)
        """The vector as numpy sees it (the same memory), for whole spans."""
        self.span = memoryview(self.cells)
        """The cells as a float32 memoryview, for copying spans of them in one step."""
        self.chosen: list[int] = []
        """The cards of the card choice counted in ``chosen``, in the order chosen."""
        self.chosen_at = encoder.at.get("chosen", -1)

    def look(self, state: State, choice: CardChoice | None, acting: frozenset[int]) -> Obs:
        """:meth:`Encoder.observe` of ``state`` and ``choice``: the kept vector brought up
        to date, copied (the copy is the agent's to keep). ``acting`` is
        ``state.to_act()``, which the caller knows."""
        self.update(state, choice, acting)
        return self.vector.copy()

    def update(self, state: State, choice: CardChoice | None, acting: frozenset[int]) -> None:
        """Bring the kept vector (:attr:`vector`, :attr:`cells`) up to date with ``state``
        and ``choice``, no copy made (:meth:`look` copies it; the vector environment
        copies it into its own array)."""
        if state is not self.state:
            self.vector.fill(0)
            self.state = state
            self.version = -1
            self.chosen = []
            self.forget()
        version = len(state.history)
        if version != self.version:
            self.refresh(state, acting)
            self.version = version
        if choice is not None:
            if choice.cards != self.chosen:
                self.choose(choice.cards)
        elif self.chosen:
            self.choose([])

    def mark(self, start: int, old: int | None, new: int | None) -> None:
        """Move a one-hot field's mark from cell ``start + old`` to ``start + new``
        (``None``: no mark)."""
        cells = self.cells
        if old is not None:
            cells[start + old] = 0
        if new is not None:
            cells[start + new] = 1

    def mark_seat(self, start: int, old: int | None, new: int | None) -> None:
        """:meth:`mark` of a seat field: seats as this seat sees them (itself first)."""
        n, seat = self.seats, self.seat
        self.mark(
            start,
            None if old is None else (old - seat) % n,
            None if new is None else (new - seat) % n,
        )

    def mark_name(self, start: int, names: Sequence[str], old: str, new: str) -> None:
        """:meth:`mark` of a field one-hot over ``names`` (``old`` empty: no mark yet)."""
        self.mark(start, names.index(old) if old else None, names.index(new))

    def put_seats(self, start: int, values: Sequence[float]) -> None:
        """Write one value a seat from ``start``, seats as this seat sees them (itself
        first)."""
        cells, n, seat = self.cells, self.seats, self.seat
        for s, x in enumerate(values):
            cells[start + (s - seat) % n] = x

    def put_marks(self, start: int, slots: int, marked: Iterable[int]) -> None:
        """Write 1 in the cells ``start + k`` of ``marked`` and 0 in the rest of the
        ``slots`` cells from ``start``."""
        self.clear(start, start + slots)
        cells = self.cells
        for k in marked:
            cells[start + k] = 1

    def put_shown(
        self, start: int, slots: int, kept: list[dict[int, int]], shown: Sequence[Counter[int]]
    ) -> None:
        """Each seat's row of the cards known to be in its hand (``shown``, a count a
        seat, rows as this seat sees them), rewritten where it differs from ``kept``,
        which is brought up to date (plain dicts: compared in one call)."""
        n, seat = self.seats, self.seat
        for s, cards in enumerate(shown):
            if (cards or kept[s]) and not dict.__eq__(kept[s], cards):
                self.count(start + (s - seat) % n * slots, slots, list(cards.elements()))
                kept[s] = dict(cards)

    def put_held_shown(
        self,
        start: int,
        slots: int,
        kept: list[dict[int, int]],
        held: list[Any],
        shown: Sequence[Counter[int]],
    ) -> list[Any]:
        """:meth:`put_shown` for an engine that replaces a seat's counter when it changes
        (never changes it in place): skipped while every counter is the one ``held`` (the
        counters of the last call, kept alive so that their ids stay theirs); returns the
        counters to hold now."""
        if list(map(id, shown)) == list(map(id, held)):
            return held
        if len(held) != len(shown):
            self.put_shown(start, slots, kept, shown)
            return list(shown)
        n, seat = self.seats, self.seat
        for s, cards in enumerate(shown):
            if cards is not held[s] and not dict.__eq__(kept[s], cards):
                self.count(start + (s - seat) % n * slots, slots, list(cards.elements()))
                kept[s] = dict(cards)
        return list(shown)

    def clear(self, start: int, stop: int) -> None:
        """Zero the cells ``start:stop``."""
        self.span[start:stop] = _ZEROS[: stop - start]

    def put_turned(self, start: int, rows: memoryview, width: int) -> None:
        """Write ``rows`` (a row of ``width`` cells per seat, in seat order, float32) over
        the cells from ``start``, as this seat sees them (:func:`put_turned`)."""
        put_turned(self.span, start, rows, self.seat * width)

    def put_bytes(self, start: int, data: bytes) -> None:
        """Write ``data`` (float32 cells as bytes) over the cells from ``start``."""
        self.span[start : start + len(data) // 4] = memoryview(data).cast("f")

    def count(self, start: int, slots: int, items: Sequence[int]) -> None:
        """Write the counts of ``items`` (slot indexes, fewer than 256 of each) over the
        cells ``start : start + slots``, whatever they held."""
        if len(items) < 16:  # a few: cell by cell
            self.span[start : start + slots] = _ZEROS[:slots]
            cells = self.cells
            for x in items:
                cells[start + x] += 1
            return
        row = bytearray(slots)
        for x in items:
            row[x] += 1
        self.vector[start : start + slots] = np.frombuffer(row, dtype=np.uint8)

    def choose(self, cards: list[int]) -> None:
        """Count ``cards`` (the card choice in progress) into ``chosen``: the one card
        added when the choice grew by one, else the field afresh."""
        start, known = self.chosen_at, self.chosen
        if len(cards) == len(known) + 1 and cards[:-1] == known:
            self.cells[start + cards[-1]] += 1
        else:
            self.count(start, CARD_SLOTS, cards)
        self.chosen = list(cards)

    def forget(self) -> None:
        """Forget the keys: the vector is zero again (a new state)."""

    def refresh(self, state: State, acting: frozenset[int]) -> None:
        """Bring the vector up to date with ``state`` (a later version, or a new state after
        :meth:`forget`; ``acting``: its ``to_act()``): rewrite the fields whose keys
        changed, and keep the new keys."""
        raise NotImplementedError


class Encoder(ABC):
    """Observations and actions of one family's game."""

    item_slots: int = CARD_SLOTS
    """The size of a card field's last axis: 54 card indexes (34 tile kinds for mahjong)."""
    default_hands: int | None = 1
    """The hands of an episode when the environment is not told (``hands="default"``): one
    hand, or None for the game's own match (打弹子, which settles only when its match ends)."""
    unchecked: bool = False
    """Whether :meth:`apply` skips the engine's check of an action (its ``check``, or the
    checks its ``apply`` fuses): for a family whose masks are exact, so that an action
    they let through is legal, and whose engine's check costs a good part of a step."""
    simultaneous: bool = False
    """Whether every decision is one step and the game's seats may decide at once (the
    family then has a parallel environment)."""

    def __init__(self, game: Game, seats: int) -> None:
        self.game = game
        self.seats = seats
        self.layout = self.make_layout()
        self.at: dict[str, int] = {n: f.start for n, f in self.layout.fields.items()}
        """Each field's start in the vector (a plain dict: observe runs every step)."""
        self.idle = read_only(np.zeros(self.action_size, dtype=np.int8))
        """The mask of a seat that is not to act: all zero (read-only, shared)."""
        self.sights = [self.make_sight(s) for s in range(seats)]
        """Each seat's observation kept up to date (:meth:`sight`)."""

    @property
    @abstractmethod
    def action_size(self) -> int:
        """The number of action indexes (the Discrete space)."""

    @abstractmethod
    def make_layout(self) -> Layout: ...

    @abstractmethod
    def observe(self, state: State, seat: int, choice: CardChoice | None) -> Obs:
        """The seat's observation (``choice``: its card choice in progress, if any), made
        from scratch."""

    @abstractmethod
    def make_sight(self, seat: int) -> Sight:
        """The seat's :class:`Sight` (the family's subclass)."""

    def sight(
        self, state: State, seat: int, choice: CardChoice | None, acting: frozenset[int]
    ) -> Obs:
        """:meth:`observe`, from the seat's kept observation brought up to date (a copy);
        ``acting`` is ``state.to_act()``, which the environment knows."""
        return self.sights[seat].look(state, choice, acting)

    @abstractmethod
    def mask(self, state: State, seat: int, choice: CardChoice | None) -> Mask:
        """The legal indexes of the next step of ``seat``, which is to act (int8, 1 = legal).
        The caller may keep it: the encoder never changes it afterwards (a fresh array, or
        a read-only one it may hand out again while the legal indexes stay)."""

    def legal_indexes(
        self, state: State, seat: int, choice: CardChoice | None
    ) -> Sequence[int] | None:
        """:meth:`mask`'s legal indexes as a short sequence (each once, in no set order),
        for a caller that writes them into a mask of its own (the vector environment);
        None where the family's masks are arrays made once (long, or all alike), which
        :meth:`mask` hands out. The caller only reads the sequence."""
        return None

    @abstractmethod
    def step(
        self, state: State, seat: int, index: int, choice: CardChoice | None
    ) -> Action | CardChoice:
        """One index applied: the complete action, or the card choice that goes on (a new
        one when ``choice`` is None and the index starts a sequence)."""

    def apply(self, state: State, seat: int, action: Action) -> None:
        """Apply ``action`` of ``seat``, which is to act, made by :meth:`step` from indexes
        the mask let through: the engine's checked :meth:`State.apply`, or where
        :attr:`unchecked` :meth:`State.apply_unchecked`."""
        if self.unchecked:
            state.apply_unchecked(seat, action)
        else:
            state.apply(seat, action)

    @abstractmethod
    def encode(self, state: State, seat: int, action: Action) -> list[int]:
        """The indexes that make ``action`` of ``seat`` now (the inverse of :meth:`step`)."""

    def relative(self, seat: int, other: int) -> int:
        """``other``'s place as ``seat`` sees it (0 = itself, 1 = next …)."""
        return (other - seat) % self.seats

    # helpers for the families ---------------------------------------------------------

    def vector(self) -> Obs:
        """A zero observation; :meth:`put_cards` then :meth:`finish` fill its card fields."""
        self._cards: list[int] = []
        return np.zeros(self.layout.size, dtype=np.float32)

    def put_cards(self, out: Obs, name: str, cards: Sequence[int], row: int = 0) -> None:
        """Count ``cards`` into a card field (row ``row`` of a 2-D field); the counts land
        in ``out`` at :meth:`finish`, all fields in one numpy call."""
        base = self.at[name] + row * self.item_slots
        self._cards.extend(map(base.__add__, cards))

    def finish(self, out: Obs) -> Obs:
        """``out`` with the cards of :meth:`put_cards` counted in."""
        count_in(out, self._cards)
        return out

    def one_hot(self, out: Obs, name: str, index: int | None) -> None:
        if index is not None:
            out[self.at[name] + index] = 1
