"""The encoder of 鞍山麻将: every decision is one index (discards, kongs, claims).

Actions (``Discrete(75)``; tiles by kind 0-33 = 1-9 万, 1-9 筒, 1-9 条, 东南西北白发中):

* ``0-33`` 打牌 (discard that kind); ``34-67`` 杠 on one's turn (暗杠 or 补杠 of that kind);
* ``68`` 胡 (自摸, 点炮 or 抢杠); ``69`` 碰; ``70`` 明杠; ``71`` 过;
* ``72 + k`` 吃 with the discard as the chow's ``k``-th tile (lowest 0, middle 1, highest 2).

Claim windows (吃/碰/杠/胡/过) are simultaneous: every other seat decides (``71`` 过 alone
when it can claim nothing), and no
seat sees another's decision before the window closes (the parallel environment asks
them at once; the AEC environment one after the other, lowest seat first).

Observation fields (seats relative to the observer; tile fields count per kind):

* ``phase`` (4): play, claim, rob, over; ``acting`` (1): the observer acts now;
* ``hand`` (34), ``drawn`` (34): the observer's concealed tiles and the tile just drawn;
* ``hun`` (34): the 混 (wild) kinds; ``flip`` (34): the turned-up tile; ``qiang`` (34): the 枪;
* ``melds`` (4, 34): each seat's melds (an 暗杠 only to its owner, and to all at the end);
* ``discards`` (4, 34): each seat's river; ``last`` (34) and ``discarder`` (4): the tile
  of the open claim window and who discarded it; ``concealed`` (4): tiles held / 14;
* ``dealer`` (4), ``turn`` (4); ``wall`` (1): tiles left / 136;
* ``shown`` (4, 34): every hand at the end; ``scores`` (4): the settlement.
"""

from __future__ import annotations

import numpy as np

from paiju.engine import Action, Game, State
from paiju.errors import IllegalAction
from paiju.games.majiang.game import (
    Chi,
    Discard,
    Gang,
    Kong,
    MajiangState,
    MeldRecord,
    Pass,
    Peng,
    Win,
)
from paiju.rl.cardseq import CardChoice
from paiju.rl.encoding import Encoder, GrowingCounts, Layout, Mask, Obs, Sight, read_only
from paiju.tiles import Tile

__all__ = ["MajiangEncoder", "MajiangSight"]

KINDS = 34
KONG, WIN, PENG, GANG, PASS, CHI = 34, 68, 69, 70, 71, 72
PHASES = ("play", "claim", "rob", "over")
SIMPLE: dict[type[Action], int] = {Win: WIN, Peng: PENG, Gang: GANG, Pass: PASS}
"""The index of each action without a tile."""


class MajiangEncoder(Encoder):
    """鞍山麻将 (see the module docs)."""

    item_slots = KINDS
    simultaneous = True

    def __init__(self, game: Game, seats: int) -> None:
        self._rivers = GrowingCounts(seats, KINDS)
        """Every seat's river as tile counts (one row per seat, absolute)."""
        super().__init__(game, seats)
        passing = np.zeros(self.action_size, dtype=np.int8)
        passing[PASS] = 1
        self._passing = read_only(passing)
        """The mask of 过 alone (read-only, shared)."""

    @property
    def action_size(self) -> int:
        return CHI + 3

    def make_layout(self) -> Layout:
        n = self.seats
        return Layout(
            [
                ("phase", (4,), "play, claim, rob, over"),
                ("acting", (1,), "the observer acts now"),
                ("hand", (KINDS,), "the observer's concealed tiles"),
                ("drawn", (KINDS,), "the tile the observer just drew"),
                ("hun", (KINDS,), "the 混 (wild) kinds", False),
                ("flip", (KINDS,), "the turned-up tile"),
                ("qiang", (KINDS,), "the 枪 kinds", False),
                ("melds", (n, KINDS), "each seat's melds, as shown"),
                ("discards", (n, KINDS), "each seat's river"),
                ("last", (KINDS,), "the tile of the open claim window"),
                ("discarder", (n,), "who discarded it"),
                ("concealed", (n,), "tiles held / 14"),
                ("dealer", (n,), "the dealer's place"),
                ("turn", (n,), "the seat to move"),
                ("wall", (1,), "tiles left in the wall / 136"),
                ("shown", (n, KINDS), "every hand at the end"),
                ("scores", (n,), "the settlement"),
            ]
        )

    def observe(self, state: State, seat: int, choice: CardChoice | None) -> Obs:
        assert isinstance(state, MajiangState)
        out = self.vector()
        at = self.at
        n = self.seats
        phase = state.phase
        over = phase == "over"
        out[at["phase"] + PHASES.index(phase)] = 1
        out[at["acting"]] = seat in state.to_act()
        hand = list(state.hands[seat])
        if phase == "play" and state.turn == seat and state.drawn in hand:
            assert state.drawn is not None
            hand.remove(state.drawn)
            out[at["drawn"] + state.drawn] = 1
        self.put_cards(out, "hand", hand)
        for k in state.hun:
            out[at["hun"] + k] = 1
        out[at["flip"] + state.flip] = 1
        for k in state.qiang:
            out[at["qiang"] + k] = 1
        cards = self._cards  # the tile indexes counted in at finish (put_cards, inlined)
        self._rivers.update(state, state.river, first=True)
        self._rivers.put_seen_by(out, at["discards"], seat)
        melds, concealed = at["melds"], at["concealed"]
        for s in range(n):
            r = (s - seat) % n
            row = r * KINDS
            for m in state.melds[s]:
                if over or s == seat or m.kind != "angang":
                    cards.extend(map((melds + row).__add__, m.tiles))
            out[concealed + r] = len(state.hands[s]) / 14
            if over:
                self.put_cards(out, "shown", state.hands[s], r)
                out[at["scores"] + r] = state.scores[s]
        if state.last is not None and phase in ("claim", "rob"):
            out[at["last"] + state.last[1]] = 1
            out[at["discarder"] + (state.last[0] - seat) % n] = 1
        if state.dealer is not None:
            out[at["dealer"] + (state.dealer - seat) % n] = 1
        out[at["turn"] + (state.turn - seat) % n] = 1
        out[at["wall"]] = len(state.wall) / 136
        return self.finish(out)

    def make_sight(self, seat: int) -> MajiangSight:
        return MajiangSight(self, seat)

    def mask(self, state: State, seat: int, choice: CardChoice | None) -> Mask:
        legal = state.legal_actions(seat) or ()
        if len(legal) == 1 and type(legal[0]) is Pass:  # a claim window with nothing to claim
            return self._passing
        mask = bytearray(self.action_size)  # a few indexes set: cheaper than numpy's
        index = self.index
        for action in legal:
            if type(action) is Discard:  # the most listed, as index gives it
                mask[action.tile] = 1
            else:
                mask[index(state, action)] = 1
        return np.frombuffer(mask, dtype=np.int8)

    def index(self, state: State, action: Action) -> int:
        """The index of one engine action."""
        assert isinstance(state, MajiangState)
        if isinstance(action, Discard):
            return int(action.tile)
        if isinstance(action, Kong):
            return KONG + int(action.tile)
        if isinstance(action, Chi):
            tile = state.window_tile()
            if tile is not None and tile in action.chow:
                return CHI + sorted(action.chow).index(tile)
        simple = SIMPLE.get(type(action))
        if simple is None:
            raise IllegalAction(f"{action!r} is not a 鞍山麻将 action now")
        return simple

    def step(
        self, state: State, seat: int, index: int, choice: CardChoice | None
    ) -> Action | CardChoice:
        assert isinstance(state, MajiangState)
        if index < KONG:
            return Discard(Tile(index))
        if index < WIN:
            return Kong(Tile(index - KONG))
        if index >= CHI:
            tile = state.window_tile()
            assert tile is not None
            start = tile - (index - CHI)
            return Chi(tuple(Tile(start + k) for k in range(3)))
        return {WIN: Win, PENG: Peng, GANG: Gang, PASS: Pass}[index]()

    def encode(self, state: State, seat: int, action: Action) -> list[int]:
        return [self.index(state, action)]


class MajiangSight(Sight):
    """A seat's 鞍山麻将 observation kept up to date: the rivers counted in as they grow,
    a seat's melds row rewritten when its melds changed, and every other field rewritten
    when what it shows changed (the hand, the drawn tile, the claim window, the turn …)."""

    __slots__ = (
        "acting",
        "concealed",
        "dealer",
        "drawn",
        "encoder",
        "flip",
        "hand",
        "hun",
        "last",
        "melds",
        "over",
        "phase",
        "qiang",
        "rivers",
        "turn",
        "wall",
    )

    def __init__(self, encoder: MajiangEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        self.encoder = encoder

    def forget(self) -> None:
        n = self.encoder.seats
        self.phase = ""
        self.acting = False
        self.hand: list[Tile] = []
        self.drawn: Tile | None = None
        self.hun: object = None
        self.flip: Tile | None = None
        self.qiang: tuple[int, ...] = ()
        self.rivers = [0] * n
        """How many tiles of each river are counted in."""
        self.melds: list[list[MeldRecord]] = [[] for _ in range(n)]
        self.concealed = [0] * n
        self.last: tuple[int, Tile] | None = None
        self.dealer: int | None = None
        self.turn: int | None = None
        self.wall = 0
        self.over = False

    def refresh(self, state: State, acting: frozenset[int]) -> None:
        assert isinstance(state, MajiangState)
        enc, cells, seat = self.encoder, self.cells, self.seat
        at, n = enc.at, enc.seats
        phase = state.phase
        over = phase == "over"
        if phase != self.phase:
            self.mark_name(at["phase"], PHASES, self.phase, phase)
            self.phase = phase
        if (seat in acting) != self.acting:
            self.acting = seat in acting
            cells[at["acting"]] = self.acting
        hand = state.hands[seat]
        drawn = state.drawn
        if not (phase == "play" and state.turn == seat and drawn in hand):
            drawn = None
        if hand != self.hand or drawn != self.drawn:
            start = at["hand"]
            self.count(start, KINDS, hand)
            if drawn is not None:
                cells[start + drawn] -= 1  # the drawn tile apart
            self.mark(at["drawn"], self.drawn, drawn)
            self.hand = list(hand)
            self.drawn = drawn
        if state.hun != self.hun:
            self.put_marks(at["hun"], KINDS, state.hun)
            self.hun = state.hun
        if state.flip != self.flip:
            self.mark(at["flip"], self.flip, state.flip)
            self.flip = state.flip
        if state.qiang != self.qiang:
            self.put_marks(at["qiang"], KINDS, state.qiang)
            self.qiang = state.qiang
        rivers = list(map(len, state.river))
        if rivers != self.rivers:  # a river only grows (a claim marks its last tile: the same)
            start = at["discards"]
            for s, (size, k) in enumerate(zip(rivers, self.rivers, strict=True)):
                if size != k:
                    row = start + (s - seat) % n * KINDS
                    river = state.river[s]
                    if size < k:  # not just grown: counted afresh
                        self.count(row, KINDS, [t for t, _ in river])
                        continue
                    for t, _ in river[k:]:
                        cells[row + t] += 1
            self.rivers = rivers
        if state.melds != self.melds or (over and not self.over):
            start = at["melds"]
            for s, kept in enumerate(state.melds):
                if kept != self.melds[s] or over:
                    shown = [
                        t for m in kept if over or s == seat or m.kind != "angang" for t in m.tiles
                    ]
                    self.count(start + (s - seat) % n * KINDS, KINDS, shown)
            self.melds = [list(kept) for kept in state.melds]
        concealed = list(map(len, state.hands))
        if concealed != self.concealed:
            start = at["concealed"]
            for s, size in enumerate(concealed):
                if size != self.concealed[s]:
                    cells[start + (s - seat) % n] = size / 14
            self.concealed = concealed
        last = state.last if phase in ("claim", "rob") else None
        if last != self.last:
            was = self.last or (None, None)
            now = last or (None, None)
            self.mark(at["last"], was[1], now[1])
            self.mark_seat(at["discarder"], was[0], now[0])
            self.last = last
        if state.dealer != self.dealer:
            self.mark_seat(at["dealer"], self.dealer, state.dealer)
            self.dealer = state.dealer
        if state.turn != self.turn:
            self.mark_seat(at["turn"], self.turn, state.turn)
            self.turn = state.turn
        if len(state.wall) != self.wall:
            self.wall = len(state.wall)
            cells[at["wall"]] = self.wall / 136
        if over and not self.over:
            for s in range(n):
                r = (s - seat) % n
                self.count(at["shown"] + r * KINDS, KINDS, state.hands[s])
                cells[at["scores"] + r] = state.scores[s]
            self.over = True
