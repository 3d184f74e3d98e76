"""The encoder of 宝子 and 佳佳宝: bets, then (佳佳宝) the grouping of four cards.

Actions (``Discrete(B + 3)``, B = ``max_bet - min_bet + 1``): index ``i < B`` bets
``min_bet + i`` (下注); index ``B + k`` (佳佳宝 only) is the grouping (分组) that pairs the
seat's lowest card (by card index) with its ``k + 1``-th lowest, the other two forming the
other group (the engine puts the stronger group at the back, 后).

Observation fields (seats relative to the observer, card fields are counts per card index):

* ``phase`` (3): betting, grouping, over;
* ``banker`` (seats): the banker's place; ``bets`` (seats): each bet / ``max_bet`` (0 while
  not placed); ``placed`` (seats): 1 once a seat's bet is in (the banker's is always 0);
* ``hand`` (54): the observer's cards once its view shows them (佳佳宝 grouping, showdown);
* ``groupings`` (3, 2): 佳佳宝 grouping phase: for grouping k, the strength of the front and
  back group it makes (the rank among every two-card hand of the deck, 0-1);
* ``shown`` (seats, 54): every seat's cards at the showdown; ``results`` (seats): every
  seat's settlement / ``max_bet`` at the end.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from paiju.cards import Card
from paiju.engine import Action, State
from paiju.errors import IllegalAction
from paiju.games.baozi.game import BaoziGame, BaoziState, Bet, Group, JiajiabaoState, groupings
from paiju.rl.cardseq import CARD_SLOTS, CardChoice
from paiju.rl.encoding import (
    Encoder,
    Layout,
    Mask,
    Obs,
    Sight,
    count_in,
    read_only,
)

__all__ = ["BaoziEncoder", "BaoziSight"]

PHASES = ("betting", "grouping", "over")


class BaoziEncoder(Encoder):
    """宝子 / 佳佳宝 (see the module docs)."""

    simultaneous = True
    game: BaoziGame

    def __init__(self, game: BaoziGame, seats: int) -> None:
        self.low: int = game.options["min_bet"]
        self.high: int = game.options["max_bet"]
        self.bets: int = self.high - self.low + 1
        self.grouped = game.variant.family == "jiajiabao"
        self._size: int = self.bets + (3 if self.grouped else 0)
        self._grouped: dict[
            int,
            tuple[State, tuple[int, ...], list[tuple[tuple[int, int], tuple[int, int]]], Obs],
        ] = {}
        """By seat: the state and hand its groupings and their strengths were made for."""
        self._shown: tuple[State, memoryview, list[float]] | None = None
        super().__init__(game, seats)

    @property
    def action_size(self) -> int:
        return self._size

    def make_layout(self) -> Layout:
        n = self.seats
        return Layout(
            [
                ("phase", (3,), "betting, grouping, over"),
                ("banker", (n,), "the banker's place"),
                ("bets", (n,), "each seat's bet / max_bet"),
                ("placed", (n,), "1 once the seat has bet"),
                ("hand", (CARD_SLOTS,), "the observer's cards, once shown to it"),
                ("groupings", (3, 2), "front/back strength of each grouping (佳佳宝)"),
                ("shown", (n, CARD_SLOTS), "every seat's cards at the showdown"),
                ("results", (n,), "each seat's settlement / max_bet at the end"),
            ]
        )

    @cached_property
    def _top_rank(self) -> float:
        return float(max(1, self.game.evaluator.top_rank))

    def observe(self, state: State, seat: int, choice: CardChoice | None) -> Obs:
        assert isinstance(state, BaoziState)
        out = self.vector()
        at = self.at
        phase = state.phase
        out[at["phase"] + PHASES.index(phase)] = 1
        n = self.seats
        out[at["banker"] + (state.banker - seat) % n] = 1
        high = float(self.high)
        bets, placed = at["bets"], at["placed"]
        for s, bet in enumerate(state.bets):
            if bet is not None:
                r = (s - seat) % n
                out[bets + r] = bet / high
                out[placed + r] = 1
        if state.visible_hand(seat, seat):
            self.put_cards(out, "hand", state.hands[seat])
        if phase == "grouping" and isinstance(state, JiajiabaoState) and seat in state.to_act():
            strengths = self._grouped_for(state, seat)[1]
            base = at["groupings"]
            out[base : base + len(strengths)] = strengths
        if phase == "over":
            for s in range(self.seats):
                self.put_cards(out, "shown", state.shown_cards(s), self.relative(seat, s))
            res = at["results"]
            for s, x in enumerate(state.settlement()):
                out[res + self.relative(seat, s)] = x / high
        return self.finish(out)

    @staticmethod
    def _groupings(state: BaoziState, seat: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        hand = sorted(state.hands[seat])
        return [((int(a), int(b)), (int(c), int(d))) for (a, b), (c, d) in groupings(hand)]

    def _grouped_for(
        self, state: BaoziState, seat: int
    ) -> tuple[list[tuple[tuple[int, int], tuple[int, int]]], Obs]:
        """The seat's groupings and the front/back strength of each (the ``groupings``
        field), made once for the seat's hand of this state: the observation and the step
        of one grouping decision both ask."""
        key = tuple(state.hands[seat])
        found = self._grouped.get(seat)
        if found is not None and found[0] is state and found[1] == key:
            return found[2], found[3]
        made = self._groupings(state, seat)
        ev = self.game.evaluator
        top = self._top_rank
        values: list[float] = []
        for a, b in made:
            ra, rb = ev.rank(*a), ev.rank(*b)
            values += (min(ra, rb) / top, max(ra, rb) / top)
        strengths = np.array(values, dtype=np.float32)
        self._grouped[seat] = (state, key, made, strengths)
        return made, strengths

    def _showdown(self, state: BaoziState) -> tuple[memoryview, list[float]]:
        """The showdown in seat order, made once per hand for every seat's look: the cards
        shown (one row of counts per seat, flat) and each result / ``max_bet``."""
        found = self._shown
        if found is None or found[0] is not state:
            rows = np.zeros(self.seats * CARD_SLOTS, dtype=np.float32)
            count_in(
                rows,
                [s * CARD_SLOTS + c for s in range(self.seats) for c in state.shown_cards(s)],
            )
            high = float(self.high)
            results = [x / high for x in state.settlement()]
            found = self._shown = (state, rows.data, results)
        return found[1], found[2]

    def make_sight(self, seat: int) -> BaoziSight:
        return BaoziSight(self, seat)

    @cached_property
    def _masks(self) -> dict[str, Mask]:
        """The mask of each phase (read-only, made once): every bet, every grouping."""
        bet = np.zeros(self.action_size, dtype=np.int8)
        bet[: self.bets] = 1
        group = np.zeros(self.action_size, dtype=np.int8)
        group[self.bets :] = 1
        return {"betting": read_only(bet), "grouping": read_only(group)}

    def mask(self, state: State, seat: int, choice: CardChoice | None) -> Mask:
        return self._masks.get(state.phase, self.idle)

    def step(
        self, state: State, seat: int, index: int, choice: CardChoice | None
    ) -> Action | CardChoice:
        assert isinstance(state, BaoziState)
        if index < self.bets:
            return Bet(self.low + index)
        first, second = self._grouped_for(state, seat)[0][index - self.bets]
        return Group(tuple(map(Card, first)), tuple(map(Card, second)))

    def encode(self, state: State, seat: int, action: Action) -> list[int]:
        assert isinstance(state, BaoziState)
        if isinstance(action, Bet):
            return [action.amount - self.low]
        if isinstance(action, Group):
            mine = {frozenset(action.first), frozenset(action.second)}
            for k, (a, b) in enumerate(self._groupings(state, seat)):
                if {frozenset(a), frozenset(b)} == mine:
                    return [self.bets + k]
        raise IllegalAction(f"{action!r} is not an action of seat {seat} now")


class BaoziSight(Sight):
    """A seat's 宝子 / 佳佳宝 observation kept up to date: the phase, the banker, each bet
    as it is placed, the hand once shown, the groupings while the seat groups, and the
    showdown once the hand is over."""

    __slots__ = ("banker", "bets", "encoder", "groupings", "hand", "over", "phase")

    def __init__(self, encoder: BaoziEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        self.encoder = encoder

    def forget(self) -> None:
        self.phase = ""
        self.banker: int | None = None
        self.bets: list[int | None] = [None] * self.encoder.seats
        self.hand: tuple[int, ...] | None = None
        self.groupings: Obs | None = None
        self.over = False

    def refresh(self, state: State, acting: frozenset[int]) -> None:
        assert isinstance(state, BaoziState)
        enc, cells, seat = self.encoder, self.cells, self.seat
        at, n = enc.at, enc.seats
        phase = state.phase
        if phase != self.phase:
            self.mark_name(at["phase"], PHASES, self.phase, phase)
            self.phase = phase
        if state.banker != self.banker:
            self.mark_seat(at["banker"], self.banker, state.banker)
            self.banker = state.banker
        if state.bets != self.bets:
            high = float(enc.high)
            for s, bet in enumerate(state.bets):
                if bet != self.bets[s]:
                    r = (s - seat) % n
                    cells[at["bets"] + r] = 0 if bet is None else bet / high
                    cells[at["placed"] + r] = bet is not None
            self.bets = list(state.bets)
        hand = tuple(state.hands[seat]) if state.visible_hand(seat, seat) else None
        if hand != self.hand:
            self.count(at["hand"], CARD_SLOTS, hand or ())
            self.hand = hand
        groupings = None
        if phase == "grouping" and isinstance(state, JiajiabaoState) and seat in acting:
            groupings = enc._grouped_for(state, seat)[1]
        if groupings is not self.groupings:
            start = at["groupings"]
            self.clear(start, start + 6)
            if groupings is not None:
                self.vector[start : start + len(groupings)] = groupings
            self.groupings = groupings
        if phase == "over" and not self.over:
            rows, results = enc._showdown(state)
            self.put_turned(at["shown"], rows, CARD_SLOTS)
            self.put_seats(at["results"], results)
            self.over = True
