"""Choosing a multiset of cards one card at a time: the card-choice sequence encoding.

Where a decision is "play a multiset of cards from the hand" (a 三打哈 lead, follow or 扣底,
a climbing game's play or pass) the legal set is too large to list as whole actions, so
the decision becomes a sequence of steps: each step picks one card (one of the
:data:`CARD_SLOTS` card indexes, see :mod:`paiju.cards`) or ``done``. The mask of every
step is exact:

* a card is allowed exactly when the chosen cards plus that card are contained in some
  legal play (so every completed sequence is legal);
* ``done`` is allowed exactly when the chosen cards are a legal play themselves (an empty
  choice is a pass, where passing is legal);

and any legal play is reachable, in any order of its cards (each prefix of it is contained
in it). The family says what is legal through a :class:`PlayOracle`: either every legal
play listed (:class:`EnumeratedPlays`, for games whose plays are few enough to list, such as
the climbing games' "single, pair, straight, bomb … or pass") or two predicates
(:class:`PredicateOracle`, for games whose legal set is too large to list, such as a 21-card
三打哈 hand following a throw).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from itertools import chain

import numpy as np
import numpy.typing as npt

__all__ = [
    "CARD_SLOTS",
    "DONE",
    "CardChoice",
    "EnumeratedPlays",
    "PlayOracle",
    "PredicateOracle",
    "counts_of",
]

CARD_SLOTS = 54
"""Card indexes 0-53 (``(rank - 2) * 4 + suit``, 52 = 小王, 53 = 大王)."""
DONE = CARD_SLOTS
"""The step index of ``done`` (end the choice; ``pass`` when nothing is chosen)."""

Mask = npt.NDArray[np.int8]


def counts_of(cards: Iterable[int]) -> list[int]:
    """A multiset of cards as a count per card index (:data:`CARD_SLOTS` entries)."""
    counts = [0] * CARD_SLOTS
    for c in cards:
        counts[c] += 1
    return counts


class PlayOracle(ABC):
    """What is legal for one decision: the masks of every step of a card choice."""

    @abstractmethod
    def options(self, hand: Sequence[int], chosen: Sequence[int], size: int) -> Mask:
        """The mask of the next step (``CARD_SLOTS + 1`` entries, the last is ``done``) after
        choosing ``chosen`` (counts per card index, ``size`` cards) from ``hand`` (counts)."""


class PredicateOracle(PlayOracle):
    """An oracle from two predicates, for legal sets too large to list.

    :meth:`can_add` says whether some legal play contains ``chosen`` plus ``card`` (the
    card is known to be still in the hand); :meth:`can_finish` whether ``chosen`` is itself a
    legal play.
    """

    @abstractmethod
    def can_add(self, chosen: Sequence[int], size: int, card: int) -> bool: ...

    @abstractmethod
    def can_finish(self, chosen: Sequence[int], size: int) -> bool: ...

    def options(self, hand: Sequence[int], chosen: Sequence[int], size: int) -> Mask:
        mask = np.zeros(CARD_SLOTS + 1, dtype=np.int8)
        for card in range(CARD_SLOTS):
            if hand[card] > chosen[card] and self.can_add(chosen, size, card):
                mask[card] = 1
        mask[DONE] = self.can_finish(chosen, size)
        return mask


class EnumeratedPlays(PlayOracle):
    """An oracle over every legal play listed (each a multiset of cards; ``()`` = pass).

    The masks are computed over the plays still consistent with the choice, as count
    vectors (one row per play), so a step costs one comparison of the table.
    """

    def __init__(self, plays: Iterable[Sequence[int]]) -> None:
        self.listed = [p if isinstance(p, tuple) else tuple(p) for p in plays]
        """The plays as listed; the count table is built only when a first card is chosen
        (the first step's mask needs no table, and many decisions end there: a pass)."""
        self._table: npt.NDArray[np.int8] | None = None
        self._sizes: npt.NDArray[np.intp] | None = None
        self._seen: dict[tuple[int, ...], tuple[npt.NDArray[np.int8], npt.NDArray[np.intp]]] = {}
        """The plays consistent with each choice asked about: a choice one card longer than
        a known one filters the known rows on that card's column only."""

    def _build(self) -> None:
        listed = self.listed
        sizes = np.fromiter(map(len, listed), dtype=np.intp, count=len(listed))
        cards = np.fromiter(chain.from_iterable(listed), dtype=np.intp, count=int(sizes.sum()))
        flat = np.repeat(np.arange(len(listed)) * CARD_SLOTS, sizes) + cards
        self._table = (
            np.bincount(flat, minlength=len(listed) * CARD_SLOTS)
            .astype(np.int8)
            .reshape(len(listed), CARD_SLOTS)
        )
        self._sizes = sizes
        self._seen[(0,) * CARD_SLOTS] = (self._table, sizes)  # one card's rows: one column

    @property
    def table(self) -> npt.NDArray[np.int8]:
        """One row of counts per listed play (a play listed twice is harmless)."""
        if self._table is None:
            self._build()
        assert self._table is not None
        return self._table

    @property
    def sizes(self) -> npt.NDArray[np.intp]:
        """The card count of each listed play."""
        if self._sizes is None:
            self._build()
        assert self._sizes is not None
        return self._sizes

    def _consistent(
        self, chosen: Sequence[int]
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.intp]]:
        key = tuple(chosen)
        found = self._seen.get(key)
        if found is not None:
            return found
        if self._table is None:
            self._build()  # which knows the empty choice: every listed play
            found = self._seen.get(key)
            if found is not None:
                return found
        parent = list(key)
        for card, count in enumerate(key):
            if not count:
                continue
            parent[card] -= 1
            known = self._seen.get(tuple(parent))
            parent[card] += 1
            if known is not None:
                keep = known[0][:, card] >= count
                found = (known[0][keep], known[1][keep])
                break
        else:
            every = np.all(self.table >= np.asarray(chosen, dtype=np.int8), axis=1)
            found = (self.table[every], self.sizes[every])
        self._seen[key] = found
        return found

    def options(self, hand: Sequence[int], chosen: Sequence[int], size: int) -> Mask:
        mask = np.zeros(CARD_SLOTS + 1, dtype=np.int8)
        if not size:  # nothing chosen: every card of a listed play, done where pass is
            cards = set().union(*self.listed)
            if cards:
                mask[list(cards)] = 1
            mask[DONE] = () in self.listed
            return mask
        rows, sizes = self._consistent(chosen)
        if len(rows):
            mask[:CARD_SLOTS] = (rows > np.asarray(chosen, dtype=np.int8)).any(axis=0)
            mask[DONE] = bool((sizes == size).any())
        return mask


class CardChoice:
    """One card-choice sequence in progress: the hand, the cards chosen so far, the oracle."""

    __slots__ = ("_mask", "cards", "chosen", "hand", "oracle")

    def __init__(self, hand: Iterable[int], oracle: PlayOracle) -> None:
        self.hand = counts_of(hand)
        self.oracle = oracle
        self.chosen = [0] * CARD_SLOTS
        self.cards: list[int] = []
        self._mask: Mask | None = None

    @property
    def size(self) -> int:
        return len(self.cards)

    def mask(self) -> Mask:
        """The exact mask of the next step (cards, then ``done``)."""
        if self._mask is None:
            self._mask = self.oracle.options(self.hand, self.chosen, len(self.cards))
        return self._mask

    def step(self, index: int) -> tuple[int, ...] | None:
        """Take one step (a card index, or :data:`DONE`): the chosen play when the step is
        ``done``, else None. The index must be allowed by :meth:`mask`."""
        if index == DONE:
            return tuple(self.cards)
        self.chosen[index] += 1
        self.cards.append(index)
        self._mask = None
        return None
