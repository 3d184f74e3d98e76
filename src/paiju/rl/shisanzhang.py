"""The encoder of 十三张: an arrangement (摆牌) is one index over a fixed enumeration of splits.

A hand's 13 cards, sorted by card index, are positions 0-12. The 72,072 ways to split them
into a front (头墩, 3), a middle (中墩, 5) and a back (尾墩, 5) are numbered
``f * 252 + m``: ``f`` indexes the front's positions among ``combinations(range(13), 3)``
(286, lexicographic) and ``m`` the middle's positions among the 10 left, as
``combinations(range(10), 5)`` (252); the back is the rest. One index per split (no
sequence of choices) because every split is legal - a decreasing one is 倒水 and loses, as
in the game - so a policy sees the whole choice at once; :func:`split_table` gives every
split's row of each position as one array for vectorised policies.

Actions (``Discrete(72072 + 1 + B)``): the splits, then ``72072`` = declare (报到/免摆/开牌,
legal where the engine allows it), then the code's B bets (下注) in their catalogue order.

Observation fields (seats relative to the observer):

* ``phase`` (3): betting, arranging, over;
* ``hand`` (54): the observer's cards; ``positions`` (13, 17): the card at each position,
  rank (2..A, 13) then suit (♠♥♣♦, 4) one-hot - the positions the split index refers to;
* ``special`` (K): the observer's special hand (the code's ladder, best first) one-hot;
  ``declare`` (2): may declare, must declare;
* ``banker`` (seats); ``ready`` (seats): who has arranged; ``bets`` (seats): bets / the
  highest bet, as the view shows them (others' amounts once every bet is in);
* ``shown`` (seats, 54), ``fouls`` (seats), ``declared`` (seats), ``scores`` (seats): the
  showdown (比牌): every hand, 倒水, 报到, and the settlement in points.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import cache
from itertools import combinations
from operator import itemgetter
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from paiju.engine import Action, State
from paiju.errors import IllegalAction
from paiju.games.shisanzhang.game import Arrange, Bet, Declare, ShisanzhangGame, ShisanzhangState
from paiju.rl.cardseq import CARD_SLOTS, CardChoice
from paiju.rl.encoding import (
    Encoder,
    Layout,
    Mask,
    Obs,
    Sight,
    read_only,
)

__all__ = [
    "SPLITS",
    "ShisanzhangEncoder",
    "ShisanzhangSight",
    "split_index",
    "split_items",
    "split_of",
    "split_table",
]

T = TypeVar("T")

FRONTS: tuple[tuple[int, ...], ...] = tuple(combinations(range(13), 3))
MIDDLES: tuple[tuple[int, ...], ...] = tuple(combinations(range(10), 5))
SPLITS = len(FRONTS) * len(MIDDLES)
"""72,072 = C(13, 3) x C(10, 5)."""
_FRONT_INDEX = {f: i for i, f in enumerate(FRONTS)}
_MIDDLE_INDEX = {m: i for i, m in enumerate(MIDDLES)}
_FRONT_OF = tuple(itemgetter(*f) for f in FRONTS)
_REST_OF = tuple(itemgetter(*(p for p in range(13) if p not in f)) for f in FRONTS)
"""Each front's items, and the ten others in order (the rest), by front index."""
_MIDDLE_OF = tuple(itemgetter(*m) for m in MIDDLES)
_BACK_OF = tuple(itemgetter(*(j for j in range(10) if j not in m)) for m in MIDDLES)
"""The middle's and the back's items among the rest, by middle index."""
PHASES = ("betting", "arranging", "over")
_POSITION = [
    np.bincount([c // 4, 13 + c % 4], minlength=17).astype(np.float32).tobytes()
    for c in range(CARD_SLOTS)
]
"""Each card's cells of a position (its rank and suit one-hot, 17 float32 as bytes)."""


Rows = tuple[tuple[T, ...], tuple[T, ...], tuple[T, ...]]


def split_items(index: int, items: Sequence[T]) -> Rows[T]:
    """The items (13, by position) of the front, middle and back of split ``index``."""
    f, m = divmod(index, len(MIDDLES))
    rest = _REST_OF[f](items)
    return _FRONT_OF[f](items), _MIDDLE_OF[m](rest), _BACK_OF[m](rest)


def split_of(index: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The positions (0-12) of the front, middle and back of split ``index``."""
    return split_items(index, range(13))


def split_index(front: tuple[int, ...], middle: tuple[int, ...]) -> int:
    """The index of the split with these front and middle positions (the inverse)."""
    rest = [p for p in range(13) if p not in front]
    local = tuple(sorted(rest.index(p) for p in middle))
    return _FRONT_INDEX[tuple(sorted(front))] * len(MIDDLES) + _MIDDLE_INDEX[local]


@cache
def split_table() -> npt.NDArray[np.uint8]:
    """Every split as the row (0 front, 1 middle, 2 back) of each position: (72072, 13)."""
    table = np.full((SPLITS, 13), 2, dtype=np.uint8)
    for f, front in enumerate(FRONTS):
        rest = np.array([p for p in range(13) if p not in front])
        block = table[f * len(MIDDLES) : (f + 1) * len(MIDDLES)]
        block[:, list(front)] = 0
        for m, mid in enumerate(MIDDLES):
            block[m, rest[list(mid)]] = 1
    table.flags.writeable = False
    return table


class ShisanzhangEncoder(Encoder):
    """十三张 (see the module docs)."""

    simultaneous = True
    game: ShisanzhangGame
    unchecked = True
    """The masks are exact: the engine's check of an arrangement (the rows' sizes, the
    cards against the hand) need not run."""

    @property
    def action_size(self) -> int:
        return SPLITS + 1 + len(self.game.params.bets)

    @property
    def specials(self) -> tuple[str, ...]:
        return self.game.params.special_names

    def make_layout(self) -> Layout:
        self._specials = self.specials
        self._masks: dict[str, Mask] = {}
        self._shown: tuple[State, memoryview, list[tuple[bool, bool, int]]] | None = None
        n = self.seats
        return Layout(
            [
                ("phase", (3,), "betting, arranging, over"),
                ("hand", (CARD_SLOTS,), "the observer's 13 cards"),
                ("positions", (13, 17), "rank and suit one-hot of each sorted position"),
                ("special", (max(1, len(self.specials)),), "the observer's special hand"),
                ("declare", (2,), "may declare, must declare"),
                ("banker", (n,), "the banker's place (banker games)"),
                ("ready", (n,), "1 once a seat has arranged or declared"),
                ("bets", (n,), "bets / the highest bet, as shown"),
                ("shown", (n, CARD_SLOTS), "every hand at the showdown"),
                ("fouls", (n,), "倒水 at the showdown"),
                ("declared", (n,), "报到 (declared a special) at the showdown"),
                ("scores", (n,), "the settlement, in points"),
            ]
        )

    def observe(self, state: State, seat: int, choice: CardChoice | None) -> Obs:
        assert isinstance(state, ShisanzhangState)
        out = self.vector()
        at = self.at
        out[at["phase"] + PHASES.index(state.phase)] = 1
        self._cards.extend(self._hand_indexes(state, seat))
        special = state.specials[seat]
        if special is not None and special.name_zh in self._specials:
            out[at["special"] + self._specials.index(special.name_zh)] = 1
        out[at["declare"]] = special is not None
        out[at["declare"] + 1] = state.forced[seat]
        n = self.seats
        if state.banker is not None:
            out[at["banker"] + (state.banker - seat) % n] = 1
        ready = at["ready"]
        for s, h in enumerate(state.acted):
            if h is not None:
                out[ready + (s - seat) % n] = 1
        bets = self.game.params.bets
        if bets and state.banker is not None:
            top = float(max(bets))
            for s, b in enumerate(state.bets):
                if b is not None and (not state.betting or s == seat):
                    out[at["bets"] + (s - seat) % n] = b / top
        if state.result is not None:
            for s, h in enumerate(state.result.hands):
                r = (s - seat) % n
                self.put_cards(out, "shown", state.hands[s], r)
                out[at["fouls"] + r] = h.foul
                out[at["declared"] + r] = h.rows is None
                out[at["scores"] + r] = state.result.scores[s]
        return self.finish(out)

    def _hand_indexes(self, state: ShisanzhangState, seat: int) -> list[int]:
        """The vector indexes of the seat's hand and positions: each card's count, and the
        rank and suit of the card at each position."""
        hand_at, pos = self.at["hand"], self.at["positions"]
        found: list[int] = []
        for p, c in enumerate(sorted(state.hands[seat])):
            found += (hand_at + c, pos + 17 * p + c // 4, pos + 17 * p + 13 + c % 4)
        return found

    def _showdown(self, state: ShisanzhangState) -> tuple[memoryview, list[tuple[bool, bool, int]]]:
        """The showdown in seat order, made once per hand for every seat's look: the hands
        (one row of counts per seat, flat), and each seat's 倒水, 报到 and score."""
        found = self._shown
        if found is None or found[0] is not state:
            result = state.result
            assert result is not None
            rows = array("f", bytes(4 * self.seats * CARD_SLOTS))
            for s, hand in enumerate(state.hands):
                row = s * CARD_SLOTS
                for c in hand:
                    rows[row + c] += 1
            marks = [(h.foul, h.rows is None, result.scores[s]) for s, h in enumerate(result.hands)]
            found = self._shown = (state, memoryview(rows), marks)
        return found[1], found[2]

    def make_sight(self, seat: int) -> ShisanzhangSight:
        return ShisanzhangSight(self, seat)

    def mask(self, state: State, seat: int, choice: CardChoice | None) -> Mask:
        """One of four masks built once, read-only (72,076 entries each: handed out as they
        are, never changed)."""
        assert isinstance(state, ShisanzhangState)
        if state.betting:
            key = "bet"
        elif state.forced[seat]:
            key = "declare"
        else:
            key = "arrange+declare" if state.specials[seat] is not None else "arrange"
        mask = self._masks.get(key)
        if mask is None:
            mask = np.zeros(self.action_size, dtype=np.int8)
            if key == "bet":
                mask[SPLITS + 1 :] = 1
            if key.startswith("arrange"):
                mask[:SPLITS] = 1
            if key.endswith("declare"):
                mask[SPLITS] = 1
            self._masks[key] = read_only(mask)
        return mask

    def step(
        self, state: State, seat: int, index: int, choice: CardChoice | None
    ) -> Action | CardChoice:
        assert isinstance(state, ShisanzhangState)
        if index > SPLITS:
            return Bet(self.game.params.bets[index - SPLITS - 1])
        if index == SPLITS:
            return Declare()
        return Arrange(*split_items(index, sorted(state.hands[seat])))  # Card already

    def encode(self, state: State, seat: int, action: Action) -> list[int]:
        assert isinstance(state, ShisanzhangState)
        if isinstance(action, Bet):
            return [SPLITS + 1 + self.game.params.bets.index(action.amount)]
        if isinstance(action, Declare):
            return [SPLITS]
        if isinstance(action, Arrange):
            hand = sorted(state.hands[seat])
            try:
                front = tuple(hand.index(c) for c in action.front)
                middle = tuple(hand.index(c) for c in action.middle)
            except ValueError:
                raise IllegalAction(f"{action!r} is not made of seat {seat}'s cards") from None
            return [split_index(front, middle)]
        raise IllegalAction(f"{action!r} is not a 十三张 action")


class ShisanzhangSight(Sight):
    """A seat's 十三张 observation kept up to date: the hand, its positions, its special
    hand and the banker written once a hand; the phase, who is ready and the bets as they
    change; the showdown once it happened."""

    __slots__ = ("bets", "dealt", "encoder", "phase", "ready", "result")

    def __init__(self, encoder: ShisanzhangEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        self.encoder = encoder

    def forget(self) -> None:
        self.dealt = False
        self.phase = ""
        self.ready = [False] * self.encoder.seats
        self.bets: list[float] = [0.0] * self.encoder.seats
        self.result: object = None

    def refresh(self, state: State, acting: frozenset[int]) -> None:
        assert isinstance(state, ShisanzhangState)
        enc, cells, seat = self.encoder, self.cells, self.seat
        at, n = enc.at, enc.seats
        if not self.dealt:
            hand = sorted(state.hands[seat])
            self.count(at["hand"], CARD_SLOTS, hand)
            start = at["positions"]
            self.put_bytes(start, b"".join([_POSITION[c] for c in hand]))
            special = state.specials[seat]
            if special is not None and special.name_zh in enc._specials:
                cells[at["special"] + enc._specials.index(special.name_zh)] = 1
            cells[at["declare"]] = special is not None
            cells[at["declare"] + 1] = state.forced[seat]
            if state.banker is not None:
                cells[at["banker"] + (state.banker - seat) % n] = 1
            self.dealt = True
        phase = state.phase
        if phase != self.phase:
            self.mark_name(at["phase"], PHASES, self.phase, phase)
            self.phase = phase
        ready = [h is not None for h in state.acted]
        if ready != self.ready:
            start = at["ready"]
            for s, is_ready in enumerate(ready):
                cells[start + (s - seat) % n] = is_ready
            self.ready = ready
        bets = enc.game.params.bets
        if bets and state.banker is not None:
            top = float(max(bets))
            shown = [
                b / top if b is not None and (not state.betting or s == seat) else 0.0
                for s, b in enumerate(state.bets)
            ]
            if shown != self.bets:
                start = at["bets"]
                for s, x in enumerate(shown):
                    cells[start + (s - seat) % n] = x
                self.bets = shown
        result = state.result
        if result is not None and result is not self.result:
            rows, marks = enc._showdown(state)
            self.put_turned(at["shown"], rows, CARD_SLOTS)
            fouls, declared, scores = at["fouls"], at["declared"], at["scores"]
            for s, (foul, declares, score) in enumerate(marks):
                r = (s - seat) % n
                cells[fouls + r] = foul
                cells[declared + r] = declares
                cells[scores + r] = score
            self.result = result
