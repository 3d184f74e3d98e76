"""The encoder of 三打哈: bids and trump as indexes, 扣底 and plays as card-choice sequences.

Actions (``Discrete(62 + 16 + 5)`` with the default 16 bids):

* ``0-53`` choose one card (card index), ``54`` done - the steps of a 扣底 (bury, exactly
  the kitty's size, 8) and of a play (出牌: a lead of one single, pair or tractor of a side
  suit or any cards of trumps, 甩牌 included; a follow obeying 跟牌), each step masked
  exactly (:mod:`paiju.rl.cardseq`);
* ``55`` pass (不叫); ``56 + i`` bids the i-th bid from the highest (80, 75 … 5);
* then the five trump names 定主: ♠ ♥ ♣ ♦ and 无主.

Observation fields (seats relative to the observer; card fields count per card index,
two-deck cards count up to 2):

* ``phase`` (5): bidding, burying, naming, playing, over;
* ``hand`` (54); ``chosen`` (54): the observer's card choice in progress;
* ``bids`` (4): each seat's last bid / 80 (0 = none), ``passed`` (4); ``bid`` (1): the
  current bid / 80; ``duty`` (2): must bid (7 常主), 常主 held / 20 (while bidding);
* ``declarer`` (4); ``trump`` (5);
* ``trick`` (4, 54): the current trick by seat; ``leader`` (4); ``last_trick`` (4, 54);
* ``played`` (54): every card played so far; ``kitty`` (54): the kitty where the observer
  sees it (the declarer after taking it; everyone at the end);
* ``exposed`` (4, 54): cards shown by failed throws (甩牌失败) and still held;
* ``hand_sizes`` (4) / 29; ``points`` (1): the defenders' points / 100;
* ``scores`` (4): the settlement at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np
import numpy.typing as npt

from paiju.cards import Card
from paiju.engine import Action, State
from paiju.errors import IllegalAction
from paiju.games.sandaha import rules
from paiju.games.sandaha.game import (
    Bid,
    Bury,
    NameTrump,
    Pass,
    Play,
    SandahaGame,
    SandahaState,
)
from paiju.games.sandaha.rules import TRUMP, TRUMP_NAMES, Component, order
from paiju.rl.cardseq import CARD_SLOTS, DONE, CardChoice, PlayOracle
from paiju.rl.encoding import Encoder, GrowingCounts, Layout, Mask, Obs, Sight, mask_of

__all__ = [
    "BuryOracle",
    "FollowOracle",
    "LeadOracle",
    "SandahaEncoder",
    "SandahaSight",
    "oracle",
]

PHASES = ("bidding", "burying", "naming", "playing", "over")
PASS = DONE + 1
FIRST_BID = DONE + 2


class BuryOracle(PlayOracle):
    """扣底: any ``size`` cards of the hand."""

    def __init__(self, size: int) -> None:
        self.size = size

    def steps(self, hand: Sequence[int], chosen: Sequence[int], size: int) -> list[int]:
        if size < self.size:
            return [c for c in range(CARD_SLOTS) if hand[c] > chosen[c]]
        return [DONE] if size == self.size else []


class LeadOracle(PlayOracle):
    """A lead (首出): one single, pair or tractor of a side suit, or any trumps (甩主)."""

    def __init__(self, hand: Sequence[int], trump: int) -> None:
        o = order(trump)
        self.suit = o.suit
        self.level = o.level
        self.by_suit: dict[int, list[int]] = {}
        for c in hand:
            self.by_suit.setdefault(o.suit[c], []).append(c)
        self.held = sorted(set(hand))
        """The card indexes held (each once): the only ones a step may add."""
        self._components: dict[int, list[tuple[int, ...]]] = {}
        self._needs: dict[int, list[tuple[int, dict[int, int]]]] = {}

    def components(self, suit: int) -> list[tuple[int, ...]]:
        """The side suit's leadable components (made when a first card of it is chosen)."""
        found = self._components.get(suit)
        if found is not None:
            return found
        cards = self.by_suit.get(suit, [])
        level = self.level
        comps: list[tuple[int, ...]] = [(c,) for c in sorted(set(cards))]
        pairs = sorted(rules.pairs_in(cards), key=lambda c: level[c])
        comps += [(c, c) for c in pairs]
        run: list[int] = []
        for c in pairs:
            if run and level[c] != level[run[-1]] + 1:
                run = []
            run.append(c)
            for start in range(len(run) - 1):
                comps.append(tuple(x for x in run[start:] for _ in (0, 1)))
        self._components[suit] = comps
        return comps

    def steps(self, hand: Sequence[int], chosen: Sequence[int], size: int) -> list[int]:
        held = self.held  # the cards not held could not be added
        if size == 0:
            return [c for c in held if hand[c] > 0]
        picked = [c for c in held if chosen[c]]
        suit = self.suit[picked[0]]
        if suit == TRUMP:
            trumps = [c for c in held if self.suit[c] == TRUMP and hand[c] > chosen[c]]
            return [*trumps, DONE]
        found: set[int] = set()
        for length, need in self.needs(suit):
            if length < size:
                continue
            if any(chosen[c] > need.get(c, 0) for c in picked):
                continue
            if length == size:
                found.add(DONE)
            found.update(c for c, k in need.items() if k > chosen[c])
        return list(found)

    def needs(self, suit: int) -> list[tuple[int, dict[int, int]]]:
        """Each of the side suit's :meth:`components` as its size and its count of each
        card (made once a suit)."""
        found = self._needs.get(suit)
        if found is None:
            found = self._needs[suit] = []
            for comp in self.components(suit):
                need: dict[int, int] = {}
                for c in comp:
                    need[c] = need.get(c, 0) + 1
                found.append((len(comp), need))
        return found


class FollowOracle(PlayOracle):
    """A follow (跟牌) to ``lead``: as many cards as the lead; the led suit first, all of
    it when short; otherwise as many pairs and tractor pairs as :func:`rules.follow_error`
    demands.

    When the seat holds more of the led suit than the lead's size, a play is legal exactly
    when its pairs (a set D of pairable card types) match the demanded structure, a
    property that only grows with D. So a choice Q can be completed exactly when some
    good set S of ``L`` pairs (L = the demanded pair count) can be added: the cards it
    still needs, the sum over S of (2 - Q[c]), fit in the cards left to choose. The good
    sets are enumerated once per decision (at most C(10, 5) of them).
    """

    def __init__(self, hand: Sequence[int], lead: Sequence[Component], trump: int) -> None:
        o = order(trump)
        self.suit = o.suit
        self.led = o.suit[lead[0].cards[0]]
        self.n = sum(len(c.cards) for c in lead)
        in_suit = [c for c in hand if o.suit[c] == self.led]
        self.kinds = sorted(set(hand))
        """The card indexes held (each once): the only ones a step may add."""
        self.held = len(in_suit)
        self.short = self.held <= self.n
        self.pairable: list[int] = []
        self.good: npt.NDArray[np.int8] | None = None
        self.pairs_needed = 0
        if self.short or not any(c.pairs for c in lead):
            return  # all the led suit, or a lead without pairs: no pair is demanded
        tractor_pairs, pairs = rules.follow_value(in_suit, lead, trump)
        self.pairable = rules.pairs_in(in_suit)
        self.pairs_needed = pairs
        if tractor_pairs:
            need = (tractor_pairs, pairs)
            rows = [
                [int(c in subset) for c in self.pairable]
                for subset in combinations(self.pairable, pairs)
                if rules.follow_value([c for c in subset for _ in (0, 1)], lead, trump) >= need
            ]
            self.good = np.array(rows, dtype=np.int8).reshape(-1, len(self.pairable))

    def extra(self, chosen: Sequence[int]) -> int:
        """The fewest cards still needed to complete the demanded pairs."""
        if not self.pairs_needed:
            return 0
        costs = [2 - chosen[c] for c in self.pairable]
        if self.good is None:
            return sum(sorted(costs)[: self.pairs_needed])
        return int((self.good @ np.array(costs)).min())

    def steps(self, hand: Sequence[int], chosen: Sequence[int], size: int) -> list[int]:
        n, suit, led = self.n, self.suit, self.led
        kinds = self.kinds  # the chosen cards are held ones, and only held ones are added
        found: list[int] = []
        if self.short:
            in_suit = sum(chosen[c] for c in kinds if chosen[c] and suit[c] == led)
            off_room = (n - self.held) - (size - in_suit)
            if size < n:
                found = [
                    c for c in kinds if hand[c] > chosen[c] and (suit[c] == led or off_room > 0)
                ]
            if size == n and off_room == 0:
                found.append(DONE)
            return found
        if size < n and not self.pairs_needed:  # no pair demanded: any card of the suit
            found = [c for c in kinds if hand[c] > chosen[c] and suit[c] == led]
        elif size < n:
            trial = list(chosen)
            left = n - size - 1
            for c in kinds:
                if hand[c] > chosen[c] and suit[c] == led:
                    trial[c] += 1
                    if self.extra(trial) <= left:
                        found.append(c)
                    trial[c] -= 1
        if size == n and self.extra(chosen) == 0:
            found.append(DONE)
        return found


def oracle(state: SandahaState, seat: int) -> PlayOracle:
    """The oracle of ``seat``'s card decision now (扣底, a lead or a follow)."""
    if state.phase == "burying":
        return BuryOracle(state.params.kitty_size)
    if not state.trick:
        return LeadOracle(state.hands[seat], state.trump_index)
    return FollowOracle(state.hands[seat], state.lead, state.trump_index)


class SandahaEncoder(Encoder):
    """三打哈 (see the module docs)."""

    game: SandahaGame
    unchecked = True
    """The masks are exact: the engine's check of a follow (the cards held, then its demands)
    need not run."""

    def __init__(self, game: SandahaGame, seats: int) -> None:
        p = game.params
        self.bid_values = list(range(p.bid_start, p.min_bid - 1, -p.bid_step))
        self.first_trump = FIRST_BID + len(self.bid_values)
        self.top = float(p.bid_start)
        """The highest bid, the bids' scale."""
        self._fresh: tuple[State, int, int, CardChoice] | None = None
        self._played = GrowingCounts(1, CARD_SLOTS)
        """Every card played so far, as counts (it only grows through a hand)."""
        self._naming = list(range(self.first_trump, self.first_trump + len(TRUMP_NAMES)))
        """The legal indexes of naming the trump: every trump name."""
        super().__init__(game, seats)

    @property
    def action_size(self) -> int:
        return self.first_trump + len(TRUMP_NAMES)

    def make_layout(self) -> Layout:
        return Layout(
            [
                ("phase", (5,), "bidding, burying, naming, playing, over"),
                ("hand", (CARD_SLOTS,), "the observer's cards"),
                ("chosen", (CARD_SLOTS,), "the card choice in progress"),
                ("bids", (4,), "each seat's last bid / the highest bid"),
                ("passed", (4,), "1 once a seat has passed"),
                ("bid", (1,), "the current bid / the highest bid"),
                ("duty", (2,), "must bid (7 常主), 常主 held / 20"),
                ("declarer", (4,), "the declarer's place"),
                ("trump", (5,), "the trump named: s h c d none"),
                ("trick", (4, CARD_SLOTS), "the current trick by seat"),
                ("leader", (4,), "who led the current trick"),
                ("last_trick", (4, CARD_SLOTS), "the last finished trick by seat"),
                ("played", (CARD_SLOTS,), "every card played"),
                ("kitty", (CARD_SLOTS,), "the kitty where the observer sees it"),
                ("exposed", (4, CARD_SLOTS), "failed-throw cards still held"),
                ("hand_sizes", (4,), "cards held / 29"),
                ("points", (1,), "the defenders' points / 100"),
                ("scores", (4,), "the settlement"),
            ]
        )

    def make_sight(self, seat: int) -> SandahaSight:
        return SandahaSight(self, seat)

    def observe(self, state: State, seat: int, choice: CardChoice | None) -> Obs:
        out = self._observe(state, seat)
        if choice is not None:
            start = self.at["chosen"]
            for c in choice.cards:
                out[start + c] += 1
        return out

    def _observe(self, state: State, seat: int) -> Obs:
        assert isinstance(state, SandahaState)
        out = self.vector()
        at = self.at
        rel = self.relative
        n = self.seats
        out[at["phase"] + PHASES.index(state.phase)] = 1
        self.put_cards(out, "hand", state.hands[seat])
        top = self.top
        passed, bids = at["passed"], at["bids"]
        for s, b in state.bids:
            if b is None:
                out[passed + (s - seat) % n] = 1
            else:
                out[bids + (s - seat) % n] = b / top
        if state.bid is not None:
            out[at["bid"]] = state.bid / top
        if state.phase == "bidding" and seat == state.turn:
            out[at["duty"]] = state.must_bid(seat) is not None
            out[at["duty"] + 1] = state.changzhu(seat) / 20
        if state.declarer is not None:
            self.one_hot(out, "declarer", rel(seat, state.declarer))
        self.one_hot(out, "trump", state.trump)
        listed = self._cards  # the card indexes counted in at finish (put_cards, inlined)
        trick, last = at["trick"], at["last_trick"]
        for s, cards in state.trick:
            listed.extend(map((trick + (s - seat) % n * CARD_SLOTS).__add__, cards))
        if state.trick:
            out[at["leader"] + (state.trick[0][0] - seat) % n] = 1
        for s, cards in state.last_trick:
            listed.extend(map((last + (s - seat) % n * CARD_SLOTS).__add__, cards))
        played = at["played"]
        out[played : played + CARD_SLOTS] = self._played.update(state, (state.played,))[0]
        if state.sees_kitty(seat):
            self.put_cards(out, "kitty", state.kitty)
        for s, shown in enumerate(state.exposed):
            if shown:
                self.put_cards(out, "exposed", list(shown.elements()), rel(seat, s))
        sizes = at["hand_sizes"]
        for s, h in enumerate(state.hands):
            out[sizes + (s - seat) % n] = len(h) / 29
        out[at["points"]] = state.defenders_points / 100
        if state.phase == "over":
            for s, x in enumerate(state.settlement()):
                out[at["scores"] + rel(seat, s)] = x
        return self.finish(out)

    def _choice(self, state: SandahaState, seat: int, choice: CardChoice | None) -> CardChoice:
        if choice is not None:
            return choice
        found = self._fresh
        if found is not None and found[0] is state and found[1:3] == (len(state.history), seat):
            return found[3]
        fresh = CardChoice(state.hands[seat], oracle(state, seat))
        self._fresh = (state, len(state.history), seat, fresh)
        return fresh

    def mask(self, state: State, seat: int, choice: CardChoice | None) -> Mask:
        return mask_of(self.idle, self.legal_indexes(state, seat, choice))

    def legal_indexes(self, state: State, seat: int, choice: CardChoice | None) -> list[int]:
        assert isinstance(state, SandahaState)
        phase = state.phase
        if phase != "bidding" and phase != "naming":  # a card choice
            return self._choice(state, seat, choice).legal()
        if phase == "naming":
            return self._naming
        legal = [] if state.must_bid(seat) is not None else [PASS]
        index = self.bid_values.index
        legal += [FIRST_BID + index(b) for b in state.bid_range()]
        return legal

    def step(
        self, state: State, seat: int, index: int, choice: CardChoice | None
    ) -> Action | CardChoice:
        assert isinstance(state, SandahaState)
        if index <= DONE:
            current = self._choice(state, seat, choice)
            self._fresh = None
            cards = current.step(index)
            if cards is None:
                return current
            played = tuple(Card(c) for c in cards)
            return Bury(played) if state.phase == "burying" else Play(played)
        if index == PASS:
            return Pass()
        if index < self.first_trump:
            return Bid(self.bid_values[index - FIRST_BID])
        return NameTrump(TRUMP_NAMES[index - self.first_trump])

    def encode(self, state: State, seat: int, action: Action) -> list[int]:
        if isinstance(action, Pass):
            return [PASS]
        if isinstance(action, Bid) and action.points in self.bid_values:
            return [FIRST_BID + self.bid_values.index(action.points)]
        if isinstance(action, NameTrump) and action.trump in TRUMP_NAMES:
            return [self.first_trump + TRUMP_NAMES.index(action.trump)]
        if isinstance(action, Bury | Play):
            return [*(int(c) for c in action.cards), DONE]
        raise IllegalAction(f"{action!r} is not a 三打哈 action of seat {seat} now")


class SandahaSight(Sight):
    """A seat's 三打哈 observation kept up to date: the bids counted in as they come, the
    trick's plays as they are made (afresh when a trick starts), the played cards as they
    grow, and every other field rewritten when what it shows changed."""

    __slots__ = (
        "bid",
        "bids",
        "declarer",
        "duty",
        "encoder",
        "exposed",
        "hand",
        "kitty",
        "last_trick",
        "phase",
        "played",
        "points",
        "scores",
        "shown",
        "sizes",
        "trick",
        "trump",
    )

    def __init__(self, encoder: SandahaEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        self.encoder = encoder

    def forget(self) -> None:
        n = self.encoder.seats
        self.phase = ""
        self.hand: Sequence[int] = []
        self.bids = 0
        """How many of the state's bids are written."""
        self.bid: int | None = None
        self.duty: tuple[bool, float] | None = None
        self.declarer: int | None = None
        self.trump: int | None = None
        self.trick: list[tuple[int, tuple[int, ...]]] = []
        self.last_trick: list[tuple[int, tuple[int, ...]]] = []
        self.played = 0
        """How many of the played cards are counted in."""
        self.kitty: tuple[int, ...] | None = None
        self.exposed: list[dict[int, int]] = [{} for _ in range(n)]
        """Each seat's exposed cards as written (plain dicts: compared in one call)."""
        self.shown: list[object] = []
        """The engine's counters of exposed cards last written, held (the engine replaces
        a seat's counter when it changes: :meth:`put_held_shown`)."""
        self.sizes = [0] * n
        self.points = 0
        self.scores: tuple[int, ...] = ()

    def refresh(self, state: State, acting: frozenset[int]) -> None:
        assert isinstance(state, SandahaState)
        enc, cells, seat = self.encoder, self.cells, self.seat
        at, n = enc.at, enc.seats
        phase = state.phase
        # through the play the bids, the contract, the trump and the kitty stay as they are
        steady = phase == "playing" == self.phase
        if phase != self.phase:
            self.mark_name(at["phase"], PHASES, self.phase, phase)
            self.phase = phase
        hand = state.hands[seat]  # replaced, never changed in place, by the engine
        if hand is not self.hand and hand != self.hand:
            self.count(at["hand"], CARD_SLOTS, hand)
        self.hand = hand
        if not steady:
            self.refresh_contract(state, phase)
        trick, known = state.trick, self.trick
        if trick != known:
            start, leader = at["trick"], at["leader"]
            k = len(known)
            if k and len(trick) > k and trick[:k] == known:
                new = trick[k:]  # grown: the new plays counted in
            else:
                self.clear(start, start + n * CARD_SLOTS)
                self.clear(leader, leader + n)
                if trick:
                    cells[leader + (trick[0][0] - seat) % n] = 1
                new = trick
            for s, cards in new:
                row = start + (s - seat) % n * CARD_SLOTS
                for c in cards:
                    cells[row + c] += 1
            self.trick = list(trick)
        if state.last_trick != self.last_trick:
            start = at["last_trick"]
            self.clear(start, start + n * CARD_SLOTS)
            for s, cards in state.last_trick:
                row = start + (s - seat) % n * CARD_SLOTS
                for c in cards:
                    cells[row + c] += 1
            self.last_trick = list(state.last_trick)
        played = state.played
        if len(played) != self.played:
            start = at["played"]
            if len(played) < self.played:  # not just grown: counted afresh
                self.count(start, CARD_SLOTS, played)
            else:
                for c in played[self.played :]:
                    cells[start + c] += 1
            self.played = len(played)
        self.shown = self.put_held_shown(
            at["exposed"], CARD_SLOTS, self.exposed, self.shown, state.exposed
        )
        sizes = list(map(len, state.hands))
        if sizes != self.sizes:
            start = at["hand_sizes"]
            for s, size in enumerate(sizes):
                if size != self.sizes[s]:
                    cells[start + (s - seat) % n] = size / 29
            self.sizes = sizes
        points = state.defenders_points
        if points != self.points:
            cells[at["points"]] = points / 100
            self.points = points
        if phase == "over":
            scores = tuple(state.settlement())
            if scores != self.scores:
                self.put_seats(at["scores"], scores)
                self.scores = scores

    def refresh_contract(self, state: SandahaState, phase: str) -> None:
        """The bids, the duty to bid, the declarer, the trump and the kitty: the fields
        that the play itself never changes."""
        enc, cells, seat = self.encoder, self.cells, self.seat
        at, n = enc.at, enc.seats
        top = enc.top
        bids = state.bids
        if len(bids) != self.bids:
            passed, bid_at = at["passed"], at["bids"]
            if len(bids) < self.bids:  # not just grown: written afresh
                self.clear(passed, passed + n)
                self.clear(bid_at, bid_at + n)
                self.bids = 0
            for s, b in bids[self.bids :]:
                if b is None:
                    cells[passed + (s - seat) % n] = 1
                else:
                    cells[bid_at + (s - seat) % n] = b / top
            self.bids = len(bids)
        if state.bid != self.bid:
            cells[at["bid"]] = 0 if state.bid is None else state.bid / top
            self.bid = state.bid
        duty = None
        if phase == "bidding" and seat == state.turn:
            duty = (state.must_bid(seat) is not None, state.changzhu(seat) / 20)
        if duty != self.duty:
            must, held = duty or (False, 0.0)
            cells[at["duty"]] = must
            cells[at["duty"] + 1] = held
            self.duty = duty
        if state.declarer != self.declarer:
            self.mark_seat(at["declarer"], self.declarer, state.declarer)
            self.declarer = state.declarer
        if state.trump != self.trump:
            start = at["trump"]
            if self.trump is not None:
                cells[start + self.trump] = 0
            if state.trump is not None:
                cells[start + state.trump] = 1
            self.trump = state.trump
        kitty = tuple(state.kitty) if state.sees_kitty(seat) else None
        if kitty != self.kitty:
            self.count(at["kitty"], CARD_SLOTS, kitty or ())
            self.kitty = kitty
