"""A generic encoder for card-play games: "play a multiset of cards from the hand, or pass",
plus a few small decisions - the shape of the climbing games (鞍山甲乙丙, 鞍山放羊, 宁城打弹子).

A family plugs in with a small adapter, a subclass that names

* :attr:`PlayEncoder.small` - the fixed list of its small decisions (call a card, declare,
  bid …) as engine actions, each one index;
* :meth:`PlayEncoder.play_cards` - the cards of an engine action that plays cards
  (``()`` for a pass; None for a small decision);
* :meth:`PlayEncoder.make_play` - the engine action that plays given cards;
* :attr:`PlayEncoder.phases` and, if it likes, :meth:`PlayEncoder.extra_fields` /
  :meth:`PlayEncoder.observe_extra` for its own observation fields;

and one line in :data:`paiju.rl.registry.ENCODERS`. The family's
:meth:`~paiju.engine.State.legal_actions` lists the legal plays (a bomb of two decks
included); the plays become a card-choice sequence over :class:`~paiju.rl.cardseq.EnumeratedPlays`
(each step masked exactly; ``done`` with nothing chosen is the pass). A tribute (进贡) or a
called card is a play of one card.

Actions: ``0-53`` choose a card, ``54`` done (pass when nothing is chosen), ``55 + i``
the i-th small decision. Observation fields: ``phase``, ``hand`` (54), ``chosen`` (54),
``hand_sizes`` (seats) / 54, then the family's own.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence

import numpy as np

from paiju.engine import Action, Game, State
from paiju.errors import IllegalAction
from paiju.rl.cardseq import CARD_SLOTS, DONE, PASSING, CardChoice, EnumeratedPlays
from paiju.rl.encoding import Encoder, Layout, Mask, Obs, Sight, mask_of, read_only

__all__ = ["PlayEncoder", "PlaySight"]

FieldSpec = tuple[str, tuple[int, ...], str]
ONLY_PASS = [()]
"""The listed plays of a decision where the pass is the one legal play."""
ONLY_DONE = [DONE]
"""The legal indexes of such a decision (shared, never changed)."""


class PlayEncoder(Encoder):
    """Card plays as card-choice sequences, small decisions as indexes (see module docs)."""

    small: tuple[Action, ...] = ()
    phases: tuple[str, ...] = ()

    # -- what an adapter writes ---------------------------------------------------------

    @abstractmethod
    def play_cards(self, action: Action) -> tuple[int, ...] | None:
        """The cards ``action`` plays (``()`` = pass), or None for a small decision."""

    @abstractmethod
    def make_play(self, state: State, seat: int, cards: tuple[int, ...]) -> Action:
        """The engine action of ``seat`` playing ``cards`` (a pass when empty)."""

    @abstractmethod
    def hand(self, state: State, seat: int) -> Sequence[int]:
        """The seat's cards."""

    def hand_sizes(self, state: State) -> list[int]:
        """The number of cards each seat holds (by seat)."""
        return [len(self.hand(state, s)) for s in range(self.seats)]

    def extra_fields(self) -> list[FieldSpec]:
        """The family's own observation fields (after the generic ones)."""
        return []

    def observe_extra(self, state: State, seat: int, out: Obs) -> None:
        """Fill the family's own fields from what ``state.view(seat)`` shows."""

    def card_choice(
        self, state: State, seat: int, plays: list[tuple[int, ...]]
    ) -> CardChoice | None:
        """The fresh card choice of a decision (None: no card choice). By default the
        listed ``plays`` over the seat's hand; a family whose phase is not "a listed play
        from the hand" (a choice from shown cards, or one judged by predicates) overrides it."""
        if plays == ONLY_PASS:  # as often as not in a climbing game: nothing beats the table
            return PASSING
        if not plays:
            return None
        return CardChoice(self.hand(state, seat), EnumeratedPlays.of_tuples(plays))

    # -- the generic part -----------------------------------------------------------------

    def __init__(self, game: Game, seats: int) -> None:
        self._fresh: tuple[State, int, int, CardChoice | None, list[int]] | None = None
        self._small_index = {a: DONE + 1 + i for i, a in enumerate(self.small)}
        """Each small decision's index (a dict: the legal ones are looked up every decision)."""
        super().__init__(game, seats)
        passing = np.zeros(self.action_size, dtype=np.int8)
        passing[DONE] = 1
        self._passing = read_only(passing)
        """The mask of a decision whose one legal play is the pass (read-only, shared)."""

    @property
    def action_size(self) -> int:
        return DONE + 1 + len(self.small)

    def make_layout(self) -> Layout:
        return Layout(
            [
                ("phase", (max(1, len(self.phases)),), "the phase, one-hot"),
                ("hand", (CARD_SLOTS,), "the observer's cards"),
                ("chosen", (CARD_SLOTS,), "the card choice in progress"),
                ("hand_sizes", (self.seats,), "cards held / 54, by seat"),
                *self.extra_fields(),
            ]
        )

    def observe(self, state: State, seat: int, choice: CardChoice | None) -> Obs:
        out = self._observe(state, seat)
        if choice is not None:
            start = self.at["chosen"]
            for c in choice.cards:
                out[start + c] += 1
        return out

    def extra_start(self) -> int:
        """Where the fields :meth:`observe_extra` writes begin (after ``hand_sizes``)."""
        return self.layout["hand_sizes"].stop

    def put_extra(self, state: State, seat: int, out: Obs, start: int) -> None:
        """The fields :meth:`observe_extra` writes, from ``start`` to the end, written
        afresh into ``out``."""
        out[start:] = 0
        self._cards = []
        self.observe_extra(state, seat, out)
        self.finish(out)

    def make_sight(self, seat: int) -> PlaySight:
        return PlaySight(self, seat)

    def _observe(self, state: State, seat: int) -> Obs:
        out = self.vector()
        at = self.at
        if state.phase in self.phases:
            out[at["phase"] + self.phases.index(state.phase)] = 1
        self.put_cards(out, "hand", self.hand(state, seat))
        sizes, n = at["hand_sizes"], self.seats
        for s, size in enumerate(self.hand_sizes(state)):
            out[sizes + (s - seat) % n] = size / 54
        self.observe_extra(state, seat, out)
        return self.finish(out)

    def _plays(self, state: State, seat: int) -> tuple[list[tuple[int, ...]], list[int]]:
        return self._plays_of(state.legal_actions(seat) or (), [], 0)

    def _plays_of(
        self, acts: Sequence[Action], plays: list[tuple[int, ...]], start: int
    ) -> tuple[list[tuple[int, ...]], list[int]]:
        """The plays (after ``plays``, those of ``acts[:start]``) and small-decision indexes
        of the legal actions ``acts``."""
        smalls: list[int] = []
        play_cards, small_index = self.play_cards, self._small_index
        for action in acts[start:]:
            cards = play_cards(action)
            if cards is not None:
                plays.append(cards)  # play_cards gives card indexes (ints)
            elif action in small_index:
                smalls.append(small_index[action])
            else:
                raise IllegalAction(
                    f"{action!r} is neither a play nor one of the encoder's small decisions"
                )
        return plays, smalls

    def _decision(self, state: State, seat: int) -> tuple[CardChoice | None, list[int]]:
        """The seat's fresh card choice (None without plays) and small-decision indexes,
        made once per decision (the cache holds the state itself)."""
        found = self._fresh
        if found is not None and found[0] is state and found[1:3] == (len(state.history), seat):
            return found[3], found[4]
        plays, smalls = self._plays(state, seat)
        fresh = self.card_choice(state, seat, plays)
        self._fresh = (state, len(state.history), seat, fresh, smalls)
        return fresh, smalls

    def mask(self, state: State, seat: int, choice: CardChoice | None) -> Mask:
        legal = self.legal_indexes(state, seat, choice)
        if legal is ONLY_DONE:
            return self._passing
        return mask_of(self.idle, legal)

    def legal_indexes(self, state: State, seat: int, choice: CardChoice | None) -> list[int]:
        if choice is None:
            choice, smalls = self._decision(state, seat)
        else:
            smalls = [] if choice.cards else self._decision(state, seat)[1]
        if choice is PASSING and not smalls:
            return ONLY_DONE
        legal = [] if choice is None else choice.legal()
        if smalls:  # small decisions only before a card
            legal = [*legal, *smalls]
        return legal

    def step(
        self, state: State, seat: int, index: int, choice: CardChoice | None
    ) -> Action | CardChoice:
        if index > DONE:
            return self.small[index - DONE - 1]
        current = choice
        if current is None:
            current = self._decision(state, seat)[0]
            self._fresh = None  # the fresh choice is now this sequence's (it changes)
        assert current is not None  # the mask offered a card or done
        cards = current.step(index)
        if cards is None:
            return current
        return self.make_play(state, seat, cards)

    def encode(self, state: State, seat: int, action: Action) -> list[int]:
        cards = self.play_cards(action)
        if cards is not None:
            return [*(int(c) for c in cards), DONE]
        if action in self._small_index:
            return [self._small_index[action]]
        raise IllegalAction(f"{action!r} is not an action this encoder knows")


class PlaySight(Sight):
    """A seat's observation of a :class:`PlayEncoder` kept up to date: ``phase``, ``hand``
    and ``hand_sizes`` rewritten where they changed; the family's own fields
    (:meth:`PlayEncoder.observe_extra`) written afresh at every new version."""

    __slots__ = ("encoder", "extra", "hand", "new_hand", "phase", "sizes")

    def __init__(self, encoder: PlayEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        self.encoder = encoder
        self.extra = encoder.extra_start()
        self.phase: str | None = None
        self.hand: Sequence[int] = []
        self.new_hand = False
        """Whether the last refresh rewrote the ``hand`` field (the hand changed)."""
        self.sizes: list[int] = []

    def forget(self) -> None:
        self.phase = None
        self.hand = []
        self.sizes = [0] * self.encoder.seats

    def refresh(self, state: State, acting: frozenset[int]) -> None:
        enc, seat = self.encoder, self.seat
        self.put_phase(state.phase)
        hand = enc.hand(state, seat)
        self.new_hand = hand != self.hand
        if self.new_hand:
            self.count(enc.at["hand"], CARD_SLOTS, hand)
            self.hand = hand[:]  # a copy of the same type (a list is compared with lists)
        self.put_sizes(enc.hand_sizes(state))
        self.refresh_extra(state)

    def put_phase(self, phase: str) -> None:
        """The ``phase`` field's mark moved to ``phase`` where it changed."""
        if phase != self.phase:
            start, phases, cells = self.encoder.at["phase"], self.encoder.phases, self.cells
            if self.phase in phases:
                cells[start + phases.index(self.phase)] = 0
            if phase in phases:
                cells[start + phases.index(phase)] = 1
            self.phase = phase

    def put_sizes(self, sizes: list[int]) -> None:
        """The ``hand_sizes`` field (cards held / 54, by seat) where a count changed."""
        known = self.sizes
        if sizes != known:
            cells, seat, n = self.cells, self.seat, self.encoder.seats
            start = self.encoder.at["hand_sizes"]
            for s, size in enumerate(sizes):
                if size != known[s]:
                    cells[start + (s - seat) % n] = size / 54
            self.sizes = sizes

    def refresh_extra(self, state: State) -> None:
        """The fields after the generic ones: the family's own, written afresh."""
        if self.extra < len(self.cells):
            self.encoder.put_extra(state, self.seat, self.vector, self.extra)
