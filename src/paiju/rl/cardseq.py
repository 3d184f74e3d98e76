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

from paiju.errors import IllegalAction

__all__ = [
    "CARD_SLOTS",
    "DONE",
    "PASSING",
    "CardChoice",
    "EnumeratedPlays",
    "Passing",
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
    """What is legal for one decision: the indexes every step of a card choice may take."""

    @abstractmethod
    def steps(self, hand: Sequence[int], chosen: Sequence[int], size: int) -> list[int]:
        """The indexes the next step may take - card indexes, and :data:`DONE` where
        ``done`` is legal, each once, in no set order - after choosing ``chosen`` (counts
        per card index, ``size`` cards) from ``hand`` (counts)."""

    def options(self, hand: Sequence[int], chosen: Sequence[int], size: int) -> Mask:
        """:meth:`steps` as the mask of the next step (``CARD_SLOTS + 1`` entries, the
        last is ``done``)."""
        mask = np.zeros(CARD_SLOTS + 1, dtype=np.int8)
        steps = self.steps(hand, chosen, size)
        if steps:
            mask[steps] = 1
        return mask


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

    def steps(self, hand: Sequence[int], chosen: Sequence[int], size: int) -> list[int]:
        found = [
            card
            for card in range(CARD_SLOTS)
            if hand[card] > chosen[card] and self.can_add(chosen, size, card)
        ]
        if self.can_finish(chosen, size):
            found.append(DONE)
        return found


class EnumeratedPlays(PlayOracle):
    """An oracle over every legal play listed (each a multiset of cards; ``()`` = pass).

    The plays are few (a climbing decision lists a handful), so the masks are worked out on
    the plays themselves: for each choice asked about, the rest of every play still
    consistent with it (the play less the cards chosen). A choice one card longer than a
    known one keeps the known rests that hold that card, less one copy of it; a card may be
    chosen next exactly when some rest holds it, ``done`` exactly when some rest is empty.
    """

    def __init__(self, plays: Iterable[Sequence[int]]) -> None:
        self.listed = [p if isinstance(p, tuple) else tuple(p) for p in plays]
        """The plays as listed."""
        self._table: npt.NDArray[np.int8] | None = None
        self._sizes: npt.NDArray[np.intp] | None = None
        self._rests: dict[tuple[int, ...], list[tuple[int, ...]]] = {(): self.listed}
        """The rests of the plays consistent with each choice asked about, by the chosen
        cards in the order chosen."""

    @classmethod
    def of_tuples(cls, plays: list[tuple[int, ...]]) -> EnumeratedPlays:
        """The oracle over ``plays`` listed as tuples already (kept as they are, not
        copied: the caller hands the list over)."""
        oracle = cls(())
        oracle.listed = plays
        oracle._rests[()] = plays
        return oracle

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

    def rests(self, cards: Sequence[int]) -> list[tuple[int, ...]]:
        """What is left of each listed play that contains ``cards`` (the chosen cards, in
        any order) once they are taken out of it."""
        key = cards if isinstance(cards, tuple) else tuple(cards)
        found = self._rests.get(key)
        if found is None:
            card = key[-1]
            found = []
            for rest in self.rests(key[:-1]):
                if card in rest:
                    i = rest.index(card)
                    found.append(rest[:i] + rest[i + 1 :])
            self._rests[key] = found
        return found

    def legal(self, cards: Sequence[int]) -> list[int]:
        """The indexes the next step may take after choosing ``cards``: the cards of some
        rest, then ``done`` where a rest is empty."""
        rests = self.rests(cards)
        found = list(set(chain.from_iterable(rests)))
        if () in rests:
            found.append(DONE)
        return found

    def steps(self, hand: Sequence[int], chosen: Sequence[int], size: int) -> list[int]:
        return self.legal([c for c, n in enumerate(chosen) for _ in range(n)])


class CardChoice:
    """One card-choice sequence in progress: the hand, the cards chosen so far, the oracle."""

    __slots__ = ("_hand", "_legal", "_mask", "cards", "chosen", "held", "oracle")

    def __init__(self, hand: Iterable[int], oracle: PlayOracle) -> None:
        self.held = tuple(hand)
        """The hand's cards (counted into :attr:`hand` when first asked)."""
        self.oracle = oracle
        self.chosen = [0] * CARD_SLOTS
        self.cards: list[int] = []
        self._hand: list[int] | None = None
        self._mask: Mask | None = None
        self._legal: list[int] | None = None

    @property
    def hand(self) -> list[int]:
        """The hand as counts per card index."""
        if self._hand is None:
            self._hand = counts_of(self.held)
        return self._hand

    @property
    def size(self) -> int:
        return len(self.cards)

    def mask(self) -> Mask:
        """The exact mask of the next step (cards, then ``done``)."""
        if self._mask is None:
            mask = np.zeros(CARD_SLOTS + 1, dtype=np.int8)
            legal = self.legal()
            if legal:
                mask[legal] = 1
            self._mask = mask
        return self._mask

    def legal(self) -> list[int]:
        """The indexes :meth:`mask` allows (cards, and ``done``), in no set order."""
        if self._legal is None:
            oracle = self.oracle
            if isinstance(oracle, EnumeratedPlays):  # its rests kept by the cards in order
                self._legal = oracle.legal(self.cards)
            else:
                self._legal = oracle.steps(self.hand, self.chosen, len(self.cards))
        return self._legal

    def step(self, index: int) -> tuple[int, ...] | None:
        """Take one step (a card index, or :data:`DONE`): the chosen play when the step is
        ``done``, else None. The index must be allowed by :meth:`mask`."""
        if index == DONE:
            return tuple(self.cards)
        self.chosen[index] += 1
        self.cards.append(index)
        self._mask = self._legal = None
        return None


class Passing(CardChoice):
    """The card choice of a decision whose one legal play is the pass: only ``done`` is
    legal, at once. One is shared (:data:`PASSING`): no card is ever chosen in it."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__((), EnumeratedPlays([()]))

    def step(self, index: int) -> tuple[int, ...] | None:
        if index != DONE:
            raise IllegalAction(f"only done (the pass) is legal here, not {index}")
        return ()


PASSING = Passing()
"""The shared :class:`Passing` choice."""
