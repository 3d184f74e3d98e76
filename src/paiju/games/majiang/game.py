"""鞍山麻将 as a game of the Game protocol: the wall, the 混, turns, claim windows, payment.

A hand (一局): the 136 tiles are shuffled into the wall; the dealer (庄家) takes 14 tiles,
the others 13 (「只有庄家可得到十四张牌,其余的人十三张牌」), and the last tile of the wall is
turned up (揭, the flip): the kind after it is the 混 (wild), the kind before it the 明枪.
Draws come from the front of the wall, kong replacements (补牌) from the tail.

Phases:

* ``play`` - the seat to move holds 14 - 3 × melds tiles (its draw done by the state):
  :class:`Discard`, :class:`Kong` (暗杠 or 补杠, then a replacement draw) or :class:`Win`
  (自摸). After a 吃 or 碰 only a discard is allowed.
* ``claim`` - after every discard each other seat decides at once
  (:meth:`MajiangState.to_act`): :class:`Chi` (the 下家 only), :class:`Peng`,
  :class:`Gang` (明杠), :class:`Win` (点炮) or :class:`Pass`; a seat that can claim nothing
  is asked too, with :class:`Pass` alone, so that the window itself tells nobody who could
  claim. Priority 胡 > 杠 = 碰 > 吃, and among several 胡 the first seat in turn order
  after the discarder (截胡), unless the room allows 一炮多响. The window closes when every
  seat in it has decided; decisions stay private (:class:`ClaimMade`) until then.
* ``rob`` - after every 补杠 each other seat decides whether to rob the added tile
  (抢杠胡; :class:`Pass` alone for a seat that cannot win on it).
* ``over`` - a win, or 流局 when a draw is needed and the wall is empty.

A seat that lets a win go by (过胡) may not win on a discard or a robbed kong before its
own next draw.

Records: format 2 (:attr:`MajiangGame.record_format`). A log of format 1, written before
every window asked every other seat, replays through :meth:`MajiangState.implied`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from paiju.engine import Action, Deal, Event, Game, PrivateEvent, State
from paiju.errors import IllegalAction, ProtocolError
from paiju.fairness import DealRng
from paiju.games.majiang.actions import Chi, Discard, Gang, Kong, OneTile, Pass, Peng, Win
from paiju.games.majiang.distance import Stakes, worth
from paiju.games.majiang.rules import MajiangRules, hun_kinds, kind_counts
from paiju.games.majiang.sample import proposer
from paiju.games.majiang.score import (
    WinContext,
    payment_table,
    payments,
    qiang_kinds,
    score,
)
from paiju.games.majiang.ting import help_from_view
from paiju.games.majiang.win import Meld, can_win
from paiju.sampling import replay_sample
from paiju.tiles import Tile, TileList, format_tiles

__all__ = [
    "Chi",
    "Discard",
    "Gang",
    "Kong",
    "MajiangGame",
    "MajiangState",
    "Pass",
    "Peng",
    "Win",
]

JSON = dict[str, Any]


# ---------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Drew(Event):
    """A seat draws (public: the tile is in :class:`TileDrawn`); ``replacement`` = 补牌."""

    type: ClassVar[str] = "drew"
    seat: int
    replacement: bool
    wall: int


@dataclass(frozen=True)
class TileDrawn(PrivateEvent):
    """The tile a seat drew (only that seat sees it)."""

    type: ClassVar[str] = "tile_drawn"
    tile: OneTile


@dataclass(frozen=True)
class Discarded(Event):
    type: ClassVar[str] = "discarded"
    seat: int
    tile: OneTile


@dataclass(frozen=True)
class ClaimMade(PrivateEvent):
    """A seat's own claim decision (hidden from the others until the window closes)."""

    type: ClassVar[str] = "claim_made"
    choice: str


@dataclass(frozen=True)
class Melded(Event):
    """A 吃 / 碰 / 明杠 / 补杠 / 暗杠; an 暗杠's tiles are in :class:`ConcealedKong` only."""

    type: ClassVar[str] = "melded"
    seat: int
    kind: str
    tiles: TileList
    source: int | None


@dataclass(frozen=True)
class ConcealedKong(PrivateEvent):
    """The tiles of one's own 暗杠."""

    type: ClassVar[str] = "concealed_kong"
    tiles: TileList


@dataclass(frozen=True)
class Won(Event):
    """胡: ``how`` is ``zimo`` (自摸), ``dianpao`` (点炮) or ``qianggang`` (抢杠胡)."""

    type: ClassVar[str] = "won"
    seat: int
    how: str
    tile: OneTile
    source: int | None
    fans: tuple[str, ...]
    form: str


@dataclass(frozen=True)
class HandsShown(Event):
    """The hand is over: every concealed hand and 暗杠, and the 暗枪 tile if one was turned up."""

    type: ClassVar[str] = "hands_shown"
    hands: tuple[str, ...]
    reveal: str


@dataclass(frozen=True)
class Drawn(Event):
    """流局: the wall is empty when a draw is needed; nobody pays."""

    type: ClassVar[str] = "drawn_hand"


# ----------------------------------------------------------------------------- melds


@dataclass(frozen=True)
class MeldRecord:
    """A meld on the table: its kind, tiles, whose discard (None for 暗杠) and which tile."""

    kind: str
    tiles: tuple[Tile, ...]
    source: int | None = None
    claimed: Tile | None = None

    def meld(self) -> Meld:
        return Meld(self.kind, self.tiles)


@dataclass
class WinRecord:
    seat: int
    how: str
    tile: Tile
    source: int | None
    fans: list[str]
    form: str
    groups: list[JSON]
    deltas: list[int]
    pay: list[JSON] = field(default_factory=list)


# ------------------------------------------------------------------------------- game


QUAN_MOST_PASSES = 4
"""Passes of the deal per seat after which a 圈 ends even if a seat has not dealt in it
(with the winner dealing next, a seat that wins no hand never deals): 16 at four seats."""


def _count(context: Mapping[str, Any], key: str) -> int:
    value = context.get(key, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def after_hand(context: Mapping[str, Any], dealer: int, following: int, seats: int) -> JSON:
    """The next hand's context when ``dealer`` dealt this one and ``following`` deals next:
    ``passes`` counts the passes of the deal to another seat (过庄) in the match, ``quan``
    the 圈 ended, ``dealt`` the seats that have dealt in the 圈 under way and
    ``quan_passes`` its passes. A 圈 ends when the deal passes on once every seat has dealt
    in it (or after :data:`QUAN_MOST_PASSES` passes per seat); the new 圈 starts with the
    seat the deal passed to."""
    passes, done, in_quan = _count(context, "passes"), _count(context, "quan"), 0
    dealt = {s for s in context.get("dealt", ()) if isinstance(s, int)} | {dealer}
    if following != dealer:
        passes += 1
        in_quan = _count(context, "quan_passes") + 1
        if len(dealt) >= seats or in_quan >= QUAN_MOST_PASSES * seats:
            done, dealt, in_quan = done + 1, set(), 0
        dealt.add(following)
    else:
        in_quan = _count(context, "quan_passes")
    return {
        "dealer": following,
        "passes": passes,
        "quan": done,
        "dealt": sorted(dealt),
        "quan_passes": in_quan,
    }


class MajiangGame(Game):
    """鞍山麻将: four seats, 136 tiles, the 混, 明枪/暗枪 rooms (room option ``qiang``)."""

    family: ClassVar[str] = "majiang"
    items = "tiles"
    match_option: ClassVar[str | None] = "quan"
    match_default: ClassVar[int] = 1
    match_most: ClassVar[int] = 16
    actions: ClassVar[tuple[type[Action], ...]] = (Discard, Kong, Win, Chi, Peng, Gang, Pass)
    record_format: ClassVar[int] = 2
    """2: every window asks every other seat and closes once all have decided. A log of
    format 1 (before) holds only the decisions its window waited for; it replays through
    :meth:`MajiangState.implied`."""
    events: ClassVar[tuple[type[Event], ...]] = (
        Drew,
        TileDrawn,
        Discarded,
        ClaimMade,
        Melded,
        ConcealedKong,
        Won,
        HandsShown,
        Drawn,
    )

    def validate_options(self, options: dict[str, Any]) -> Mapping[str, Any]:
        """Room options: see :data:`paiju.games.majiang.rules.OPTION_CHOICES`."""
        self.rules = MajiangRules.from_options(options)
        return self.rules.as_options()

    def match_over(self, context: Mapping[str, Any], hands_played: int) -> bool:
        """A match is ``quan`` 圈, counted as players count them: a 圈 ends when the deal has
        gone round to every seat, that is when it passes on (过庄) from a dealer once every
        seat has dealt in the 圈 (with the deal passing to the 下家, four passes; with the
        winner dealing next, a seat that wins no hand never deals, so a 圈 also ends after
        :data:`QUAN_MOST_PASSES` passes per seat); a hand the dealer deals again (连庄)
        passes nothing. A context of an older match without the count of 圈 counts four
        passes to a 圈, as it did."""
        done = context.get("quan")
        if isinstance(done, int) and not isinstance(done, bool):
            return done >= (self.match_length or 1)
        passes = context.get("passes", 0)
        return isinstance(passes, int) and passes >= (self.match_length or 1) * self.max_seats

    def dealer_of(self, seats: int, context: Mapping[str, Any]) -> int | None:
        dealer = context.get("dealer")
        if dealer is None:
            return None
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < seats:
            raise IllegalAction(
                f"context dealer must be a seat 0-{seats - 1}, got {dealer!r}",
                reason="bad_context",
                field="dealer",
            )
        return dealer

    def deal(self, seats: int, rng: DealRng, context: Mapping[str, Any]) -> Deal:
        """Shuffle the wall; the dealer (drawn at random for the first hand) takes 14."""
        dealer = self.dealer_of(seats, context)
        if dealer is None:
            dealer = rng.randbelow(seats)
        wall = rng.shuffled(self.full_set())
        hands: list[list[int]] = [[] for _ in range(seats)]
        pos = 0
        for seat in (dealer, *((dealer + k) % seats for k in range(1, seats))):
            n = 14 if seat == dealer else 13
            hands[seat] = wall[pos : pos + n]
            pos += n
        rest = wall[pos:]
        return Deal(
            tuple(tuple(h) for h in hands),
            {"wall": tuple(rest[:-1]), "flip": (rest[-1],)},
            {"dealer": dealer},
        )

    def check_deal(self, seats: int, deal: Deal) -> None:
        super().check_deal(seats, deal)
        dealer = deal.info.get("dealer")
        if not isinstance(dealer, int) or not 0 <= dealer < seats:
            raise ProtocolError(f"deal: info.dealer must be a seat 0-{seats - 1}, got {dealer!r}")
        for seat, hand in enumerate(deal.hands):
            want = 14 if seat == dealer else 13
            if len(hand) != want:
                raise ProtocolError(f"deal: seat {seat} has {len(hand)} tiles, not {want}")
        if len(deal.piles.get("flip", ())) != 1:
            raise ProtocolError("deal: the flip pile must hold exactly one tile")

    def start(self, seats: int, deal: Deal, context: Mapping[str, Any]) -> State:
        return MajiangState(self, seats, deal, context)


# ------------------------------------------------------------------------------ state


_ONLY: Final = tuple(frozenset({s}) for s in range(8))
"""The set of one seat, of each seat of a table of up to eight, made once (frozen)."""


class MajiangState(State):
    """One hand of 鞍山麻将."""

    game: MajiangGame

    def __init__(self, game: Game, seats: int, deal: Deal, context: Mapping[str, Any]) -> None:
        super().__init__(game, seats, deal, context)
        assert isinstance(game, MajiangGame)
        self.rules = game.rules
        dealer = deal.info["dealer"]
        assert isinstance(dealer, int)
        self.dealer = dealer
        self.hands: list[list[Tile]] = [sorted(Tile(t) for t in h) for h in deal.hands]
        self.wall: list[Tile] = [Tile(t) for t in deal.piles["wall"]]
        self.flip = Tile(deal.piles["flip"][0])
        self.hun = hun_kinds(self.flip, self.rules)
        self.qiang: tuple[int, ...] = qiang_kinds(self.flip, self.rules, None)
        self.reveal: Tile | None = None
        self.melds: list[list[MeldRecord]] = [[] for _ in range(seats)]
        self.river: list[list[tuple[Tile, bool]]] = [[] for _ in range(seats)]
        """Each seat's discards in order, with whether a claim took it."""
        self.turn = dealer
        self.drawn: Tile | None = Tile(deal.hands[dealer][-1])
        self.must_discard = False
        self.after_kong = False
        self.last: tuple[int, Tile] | None = None
        """The discard (or 补杠 tile) a claim window is open on."""
        self.window: dict[int, list[Action]] = {}
        self.decisions: dict[int, Action] = {}
        self.passed_win: set[int] = set()
        self.robbing: tuple[int, Tile] | None = None
        self._phase = "play"
        self.wins: list[WinRecord] = []
        self.scores: tuple[int, ...] = (0,) * seats
        self.draws: list[tuple[int, bool]] = []
        """Every draw so far, in order: (seat, a replacement from the tail); public."""

    def __deepcopy__(self, memo: dict[int, object]) -> MajiangState:
        new = object.__new__(type(self))  # copy.copy without its reduce protocol
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new.hands = [list(h) for h in self.hands]
        new.wall = list(self.wall)
        new.melds = [list(m) for m in self.melds]
        new.river = [list(r) for r in self.river]
        new.window = dict(self.window)
        new.decisions = dict(self.decisions)
        new.passed_win = set(self.passed_win)
        new.wins = list(self.wins)
        new.draws = list(self.draws)
        return new

    # -- protocol ---------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self._phase

    def to_act(self) -> frozenset[int]:
        if self._phase == "play":  # asked several times a step: each seat's set made once
            turn = self.turn
            return _ONLY[turn] if 0 <= turn < len(_ONLY) else frozenset({turn})
        if self._phase in ("claim", "rob"):
            decisions = self.decisions
            return frozenset([s for s in self.window if s not in decisions])
        return frozenset()

    def hidden_window(self) -> bool:
        """A claim (or rob) window: every other seat decides, unseen by the rest."""
        return self._phase in ("claim", "rob")

    def is_open(self, seat: int) -> bool:
        """开门: the seat has a 吃, 碰 or 明杠 (补杠 included)."""
        return any(m.kind != "angang" for m in self.melds[seat])

    def _counts(self, seat: int, extra: Tile | None = None) -> tuple[list[int], int]:
        counts, wilds = kind_counts(self.hands[seat], self.hun)
        if extra is not None:
            if extra in self.hun:
                wilds += 1
            else:
                counts[extra] += 1
        return counts, wilds

    def _can_win_with(self, seat: int, tile: Tile | None) -> bool:
        counts, wilds = self._counts(seat, tile)
        return can_win(counts, wilds, [m.meld() for m in self.melds[seat]], self.rules)

    def _natural(self, seat: int, tile: Tile) -> int:
        return sum(1 for t in self.hands[seat] if t == tile)

    def chows(self, seat: int, tile: Tile) -> list[tuple[Tile, ...]]:
        """The chows (吃) ``seat`` could make with ``tile`` from its natural tiles."""
        if tile >= 27 or tile in self.hun:
            return []
        held = {t for t in self.hands[seat] if t not in self.hun}
        base = tile - tile % 9
        out = []
        for start in range(max(base, tile - 2), min(tile, base + 6) + 1):
            run = tuple(Tile(start + k) for k in range(3))
            if all(t == tile or t in held for t in run):
                out.append(run)
        return out

    def _claim_options(self, seat: int, source: int, tile: Tile) -> list[Action]:
        """What ``seat`` may do with ``source``'s discard: its claims, and 过 (a seat with
        no claim is in the window too, with 过 alone)."""
        opts: list[Action] = []
        if tile in self.hun:
            return [Pass()]
        if seat not in self.passed_win and self._can_win_with(seat, tile):
            opts.append(Win())
        n = self._natural(seat, tile)
        if n >= 3 and self.wall:
            opts.append(Gang())
        if n >= 2:
            opts.append(Peng())
        if seat == (source + 1) % self.seats:
            opts.extend(Chi(c) for c in self.chows(seat, tile))
        opts.append(Pass())
        return opts

    def kong_options(self, seat: int) -> list[Kong]:
        """暗杠 (four natural in hand) and 补杠 (a 碰 and its fourth tile in hand)."""
        if self.must_discard or not self.wall:
            return []
        held = Counter(t for t in self.hands[seat] if t not in self.hun)
        out = [Kong(t) for t, n in sorted(held.items()) if n == 4]
        for m in self.melds[seat]:
            if m.kind == "peng" and held[m.tiles[0]]:
                out.append(Kong(m.tiles[0]))
        return out

    def legal_actions(self, seat: int) -> Sequence[Action] | None:
        if seat not in self.to_act():
            return []
        if self._phase in ("claim", "rob"):
            return list(self.window[seat])
        out: list[Action] = []
        if not self.must_discard and self._can_win_with(seat, None):
            out.append(Win())
        out.extend(self.kong_options(seat))
        out.extend(Discard(t) for t in sorted(set(self.hands[seat])))
        return out

    def check(self, seat: int, action: Action) -> None:
        if self._phase in ("claim", "rob"):
            if action not in self.window[seat]:
                allowed = ", ".join(_action_text(a) for a in self.window[seat])
                raise IllegalAction(
                    f"seat {seat} may now only {allowed} on {self.window_tile()}",
                    reason="claim_not_allowed",
                    tile=str(self.window_tile()),
                    allowed=[a.to_json() for a in self.window[seat]],
                )
            return
        if isinstance(action, Discard):
            if action.tile not in self.hands[seat]:
                raise IllegalAction(
                    f"seat {seat} holds no {action.tile}",
                    reason="tile_not_held",
                    tile=str(action.tile),
                )
            return
        if isinstance(action, Kong):
            if action not in self.kong_options(seat):
                raise IllegalAction(
                    f"seat {seat} cannot kong {action.tile} now (暗杠 needs four natural"
                    " tiles, 补杠 a 碰 and its fourth; not after 吃/碰, nor on an empty wall)",
                    reason="kong_not_allowed",
                    tile=str(action.tile),
                )
            return
        if isinstance(action, Win):
            if self.must_discard or not self._can_win_with(seat, None):
                ctx = self._win_context(seat, None, self_drawn=True)
                reason = (
                    score(ctx, self.rules).reason
                    if not self.must_discard
                    else ("a 吃 or 碰 must be followed by a discard")
                )
                raise IllegalAction(
                    f"seat {seat} does not win: {reason}", reason="not_a_win", why=reason
                )
            return
        raise IllegalAction(
            f"{action.type} is a claim; no claim window is open",
            reason="no_claim_window",
        )

    def _check_out_of_turn(self, seat: int, action: Action) -> None:
        # a claim (or 过) of a seat not asked: its window closed before it arrived, or
        # none is open - said as such, not as another seat's turn
        claim = isinstance(action, (Pass, Peng, Chi, Gang)) or (
            isinstance(action, Win) and self._phase != "play"
        )
        if claim and not self.hidden_window():
            raise IllegalAction(
                f"{action.type} is a claim; no claim window is open",
                reason="no_claim_window",
            )

    def window_tile(self) -> Tile | None:
        return self.last[1] if self.last else None

    # -- transitions --------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if self._phase in ("claim", "rob"):
            return self._decide(seat, action)
        if isinstance(action, Discard):
            return self._discard(seat, action.tile)
        if isinstance(action, Kong):
            return self._kong(seat, action.tile)
        assert isinstance(action, Win)
        return self._self_drawn_win(seat)

    def _draw(self, seat: int, replacement: bool) -> list[Event]:
        if not self.wall:
            return self._exhausted()
        tile = self.wall.pop() if replacement else self.wall.pop(0)
        self.draws.append((seat, replacement))
        self.hands[seat].append(tile)
        self.hands[seat].sort()
        self.turn = seat
        self.drawn = tile
        self.must_discard = False
        self.after_kong = replacement
        self.passed_win.discard(seat)
        self._phase = "play"
        return [Drew(seat, replacement, len(self.wall)), TileDrawn(seat, tile)]

    def _exhausted(self) -> list[Event]:
        self._phase = "over"
        self.scores = (0,) * self.seats
        return [Drawn(), self._shown()]

    def _discard(self, seat: int, tile: Tile) -> list[Event]:
        self.hands[seat].remove(tile)
        self.river[seat].append((tile, False))
        self.drawn = None
        self.after_kong = False
        self.must_discard = False
        events: list[Event] = [Discarded(seat, tile)]
        self.last = (seat, tile)
        self.window = {
            other: self._claim_options(other, seat, tile) for other in self._others(seat)
        }
        self.decisions = {}
        self._phase = "claim"
        return events

    def _others(self, seat: int) -> list[int]:
        """Every other seat, in turn order after ``seat``: who decides in its windows."""
        return [(seat + k) % self.seats for k in range(1, self.seats)]

    def _kong(self, seat: int, tile: Tile) -> list[Event]:
        hand = self.hands[seat]
        if hand.count(tile) == 4:
            for _ in range(4):
                hand.remove(tile)
            record = MeldRecord("angang", (tile,) * 4)
            self.melds[seat].append(record)
            return [
                Melded(seat, "angang", (), None),
                ConcealedKong(seat, record.tiles),
                *self._draw(seat, True),
            ]
        hand.remove(tile)
        self.drawn = None
        self.window = {
            other: [Win(), Pass()]
            if other not in self.passed_win and self._can_win_with(other, tile)
            else [Pass()]
            for other in self._others(seat)
        }
        self.decisions = {}
        self.robbing = (seat, tile)
        self.last = (seat, tile)
        self._phase = "rob"
        return [Melded(seat, "bugang_pending", (tile,), None)]

    def _finish_bugang(self) -> list[Event]:
        assert self.robbing is not None
        seat, tile = self.robbing
        self.robbing = None
        melds = self.melds[seat]
        i = next(k for k, m in enumerate(melds) if m.kind == "peng" and m.tiles[0] == tile)
        old = melds[i]
        melds[i] = MeldRecord("minggang", (tile,) * 4, old.source, old.claimed)
        return [Melded(seat, "bugang", (tile,) * 4, old.source), *self._draw(seat, True)]

    def _decide(self, seat: int, action: Action) -> list[Event]:
        self.decisions[seat] = action
        if Win() in self.window[seat] and not isinstance(action, Win):
            self.passed_win.add(seat)
        events: list[Event] = [ClaimMade(seat, _action_text(action))]
        if self._window_settled():
            events.extend(self._close_window())
        return events

    def _rank(self, source: int, seat: int, action: Action) -> tuple[int, int]:
        prio = (
            3
            if isinstance(action, Win)
            else 2
            if isinstance(action, Peng | Gang)
            else (1 if isinstance(action, Chi) else 0)
        )
        return prio, -((seat - source) % self.seats)

    def _window_settled(self) -> bool:
        """A window closes once every seat in it has decided (never earlier, even when a
        decision made could not be outranked): how many decisions a window takes is then the
        same whatever the seats hold, and tells nobody who could claim."""
        return all(s in self.decisions for s in self.window)

    # -- logs of record format 1 ---------------------------------------------------------

    def implied(
        self, record_format: int, upcoming: tuple[int, Action] | None
    ) -> list[tuple[int, Action]]:
        """A log of format 1 was written by an engine that asked only the seats that could
        claim, and closed a window as soon as no undecided seat could outrank the best
        decision made: it has no 过 of a seat with nothing to claim, nor a decision the
        window did not wait for. When the log goes on past an open window (``upcoming`` is
        no decision of a seat in it) that the old engine had closed, those seats pass here,
        in turn order: the window closes as it closed then (their decisions could not
        change what it played). After the log's last action (``upcoming`` None) they pass
        only if that ends the hand (a 胡 claimed, or 流局): a hand still in play waits for
        them. A decision the old engine waited for and the log lacks is refused
        (``decision_missing``)."""
        if record_format > 1 or self._phase not in ("claim", "rob"):
            return []
        assert self.last is not None
        source, tile = self.last
        undecided = [s for s in self._others(source) if s not in self.decisions]
        if upcoming is not None:
            seat, action = upcoming
            if seat in undecided and action in self.window[seat]:
                return []  # the log decides in this window
        waited = self._waited_for()
        if waited:
            if upcoming is None:
                return []
            could = "; ".join(
                f"seat {s} could {', '.join(_action_text(a) for a in self.window[s])}"
                for s in waited
            )
            raise IllegalAction(
                f"the log (record format {record_format}) lacks the decision of seat"
                f" {', '.join(map(str, waited))} on {tile}, which its engine waited for"
                f" ({could})",
                reason="decision_missing",
                seats=waited,
                tile=str(tile),
            )
        passes: list[tuple[int, Action]] = [(s, Pass()) for s in undecided]
        if upcoming is None:
            after = self.clone()
            for seat, action in passes:
                after.apply(seat, action)
            if not after.is_over:
                return []
        return passes

    def _waited_for(self) -> list[int]:
        """The undecided seats the engine of record format 1 still waited for: those that
        could claim (more than 过) something outranking the best decision made, or, when the
        room allows 一炮多响, a 胡 beside a 胡 made."""
        assert self.last is not None
        source = self.last[0]
        best = max((self._rank(source, s, a) for s, a in self.decisions.items()), default=(0, -99))
        out = []
        for s, opts in self.window.items():
            if s in self.decisions or opts == [Pass()]:
                continue
            could = max(self._rank(source, s, a) for a in opts)
            if could > best or (self.rules.multiple_winners and best[0] == 3 and Win() in opts):
                out.append(s)
        return out

    def _close_window(self) -> list[Event]:
        assert self.last is not None
        source, tile = self.last
        ranked = sorted(
            self.decisions.items(), key=lambda sa: self._rank(source, *sa), reverse=True
        )
        self.window = {}
        claims = [(s, a) for s, a in ranked if not isinstance(a, Pass)]
        if self._phase == "rob":
            winners = [s for s, a in claims if isinstance(a, Win)]
            if winners:
                return self._discard_wins(winners, source, tile, "qianggang")
            self._phase = "play"
            return self._finish_bugang()
        if not claims:
            return self._draw((source + 1) % self.seats, False)
        seat, action = claims[0]
        if isinstance(action, Win):
            winners = [s for s, a in claims if isinstance(a, Win)]
            return self._discard_wins(winners, source, tile, "dianpao")
        river = self.river[source]
        river[-1] = (tile, True)
        hand = self.hands[seat]
        self.turn = seat
        self._phase = "play"
        self.drawn = None
        if isinstance(action, Chi):
            used = list(action.chow)
            used.remove(tile)
            for t in used:
                hand.remove(t)
            record = MeldRecord("chi", tuple(action.chow), source, tile)
            self.must_discard = True
        elif isinstance(action, Peng):
            for _ in range(2):
                hand.remove(tile)
            record = MeldRecord("peng", (tile,) * 3, source, tile)
            self.must_discard = True
        else:
            for _ in range(3):
                hand.remove(tile)
            record = MeldRecord("minggang", (tile,) * 4, source, tile)
        self.melds[seat].append(record)
        events: list[Event] = [Melded(seat, record.kind, record.tiles, source)]
        if record.kind == "minggang":
            events.extend(self._draw(seat, True))
        return events

    # -- wins -----------------------------------------------------------------------------

    def _win_context(self, seat: int, tile: Tile | None, self_drawn: bool) -> WinContext:
        hand = list(self.hands[seat])
        if tile is None:
            win_tile = self.drawn if self.drawn is not None and self.drawn in hand else hand[-1]
            hand.remove(win_tile)
        else:
            win_tile = tile
        return WinContext(
            tuple(hand),
            tuple(m.meld() for m in self.melds[seat]),
            win_tile,
            self_drawn,
            self.hun,
            self.qiang,
            after_kong=self_drawn and self.after_kong,
        )

    def _turn_up_qiang(self) -> None:
        """暗枪: 「胡牌后的下一张牌是枪」: the next wall tile and the kind after it."""
        if self.rules.qiang == "an" and self.wall:
            self.reveal = self.wall.pop(0)
            self.qiang = qiang_kinds(self.flip, self.rules, self.reveal)

    def _record_win(self, seat: int, how: str, tile: Tile, source: int | None) -> WinRecord:
        ctx = self._win_context(seat, None if source is None else tile, source is None)
        verdict = score(ctx, self.rules)
        assert verdict.win, verdict.reason
        fans = list(verdict.fans)
        closed = [s for s in range(self.seats) if s != seat and not self.is_open(s)]
        deltas = payments(
            len(fans),
            winner=seat,
            dealer=self.dealer,
            discarder=source,
            closed=closed,
            seats=self.seats,
            rules=self.rules,
        )
        pay = payment_table(
            len(fans),
            winner=seat,
            dealer=self.dealer,
            discarder=source,
            closed=closed,
            seats=self.seats,
            rules=self.rules,
        )
        return WinRecord(
            seat,
            how,
            tile,
            source,
            fans,
            verdict.reading.form,
            [g.to_json() for g in verdict.reading.groups],
            deltas,
            pay,
        )

    def _end_with(self, records: list[WinRecord]) -> list[Event]:
        self.wins = records
        totals = [0] * self.seats
        for r in records:
            for s, d in enumerate(r.deltas):
                totals[s] += d
        self.scores = tuple(totals)
        self._phase = "over"
        events: list[Event] = [
            Won(r.seat, r.how, r.tile, r.source, tuple(r.fans), r.form) for r in records
        ]
        return [*events, self._shown()]

    def _shown(self) -> HandsShown:
        hands = []
        for s in range(self.seats):
            parts = [format_tiles(sorted(self.hands[s]))]
            parts += [m.kind + ":" + format_tiles(m.tiles) for m in self.melds[s]]
            hands.append(" ".join(parts))
        return HandsShown(tuple(hands), "" if self.reveal is None else str(self.reveal))

    def _self_drawn_win(self, seat: int) -> list[Event]:
        self._turn_up_qiang()
        tile = self.drawn if self.drawn is not None else self.hands[seat][-1]
        return self._end_with([self._record_win(seat, "zimo", tile, None)])

    def _discard_wins(self, winners: list[int], source: int, tile: Tile, how: str) -> list[Event]:
        if not self.rules.multiple_winners:
            winners = winners[:1]
        if how == "dianpao":
            self.river[source][-1] = (tile, True)
        else:
            self.robbing = None
        self._turn_up_qiang()
        records = [self._record_win(w, how, tile, source) for w in winners]
        self.hands[winners[0]].append(tile)
        self.hands[winners[0]].sort()
        return self._end_with(records)

    # -- advice -------------------------------------------------------------------------

    advised_by_bot = True

    def suggestions(self, seat: int, limit: int = 5, first: Action | None = None) -> list[Action]:
        """提示: the family bot's choice ``first``; then, on one's turn, the other discards
        that keep the hand ready (听); then the other legal actions. None when the seat does
        not act. The bot decides from the seat's own tiles and what is in plain view."""
        if seat not in self.to_act():
            return []
        out: list[Action] = [] if first is None else [first]
        legal = list(self.legal_actions(seat) or [])
        ting = self.view(seat).get("ting", {})
        ready = [Discard(Tile.parse(d["tile"])) for d in ting.get("discards", [])]
        for action in [*ready, *legal]:
            if len(out) >= limit:
                break
            if action not in out:
                out.append(action)
        return out

    def advice(self, seat: int, limit: int = 5, first: Action | None = None) -> list[JSON]:
        """:meth:`suggestions` as JSON; a discard that keeps the hand ready carries the waits
        it leaves (``waits``, as the view's ``ting``)."""
        ting = self.view(seat).get("ting", {})
        waits = {d["tile"]: d["waits"] for d in ting.get("discards", [])}
        out = []
        for action in self.suggestions(seat, limit, first):
            item = action.to_json()
            if isinstance(action, Discard) and str(action.tile) in waits:
                item["waits"] = waits[str(action.tile)]
            out.append(item)
        return out

    # -- results ------------------------------------------------------------------------

    def settlement(self) -> tuple[int, ...]:
        return self.scores

    def next_context(self) -> JSON:
        """The next dealer: the winner (or the 下家 under ``dealer_rotation = next``);
        after 流局 or a dealer's win the dealer deals again (连庄). The count of 圈 goes
        with it (:func:`after_hand`; see :meth:`MajiangGame.match_over`)."""
        if not self.wins or any(w.seat == self.dealer for w in self.wins):
            following = self.dealer
        elif self.rules.dealer_rotation == "next":
            following = (self.dealer + 1) % self.seats
        else:
            following = self.wins[0].seat
        return after_hand(self.context, self.dealer, following, self.seats)

    def locations(self) -> Mapping[str, Sequence[int]]:
        out: dict[str, Sequence[int]] = {"wall": self.wall, "flip": (self.flip,)}
        if self.reveal is not None:
            out["reveal"] = (self.reveal,)
        if self.robbing is not None:
            out["robbed"] = (self.robbing[1],)
        for s in range(self.seats):
            out[f"hand {s}"] = self.hands[s]
            out[f"melds {s}"] = [t for m in self.melds[s] for t in m.tiles]
            out[f"river {s}"] = [t for t, taken in self.river[s] if not taken]
        return out

    search_horizon: ClassVar[int | None] = 3
    """A rollout plays the window on the seat's discard (the three other seats' answers),
    then values the hand by :meth:`estimate`: past that window a discard's effect is what
    it leaves the hand worth, the same in every world, and the rule bot is slow."""
    search_samples: ClassVar[int | None] = 24
    """Enough worlds to see a discard that often completes another hand, or feeds a
    claim; the hand's own worth is the same in every world."""

    def estimate(self, seat: int) -> float:
        """In play: what the seat's hand is worth (:meth:`worth`; on its turn to discard,
        with its best discard made)."""
        if self._phase == "over":
            return self.payoff(seat)
        hand = self.hands[seat]
        value_of = self.appraiser(seat)
        if len(hand) + 3 * len(self.melds[seat]) == 13:
            return value_of(hand)
        kinds = {t for t in hand if t not in self.hun} or set(hand)
        best = []
        for t in kinds:
            rest = list(hand)
            rest.remove(t)
            best.append(value_of(rest))
        return max(best)

    def worth(self, seat: int, tiles: Sequence[Tile]) -> float:
        """:func:`~paiju.games.majiang.distance.worth` of ``tiles`` as the seat's concealed
        hand (its melds as they are): :meth:`appraiser`'s answer for them."""
        return self.appraiser(seat)(tiles)

    def appraiser(self, seat: int) -> Callable[[Sequence[Tile]], float]:
        """:meth:`worth` for ``seat`` with what it reads from the table read once: the
        tiles the seat has not seen (its own hand, every discard and shown meld, the
        flip), the 枪, the stakes (who is 庄, who is closed, the fans the others show:
        站立, 枪 in their melds, kongs), and whether it has let a win go by (过胡). What
        it is given is only the concealed tiles to value."""
        unseen = [4] * 34
        unseen[self.flip] -= 1
        for t in self.hands[seat]:
            unseen[t] -= 1
        win = loss = 0.0
        both = self.rules.zhuang == "both"
        for s in range(self.seats):
            for t, taken in self.river[s]:
                unseen[t] -= not taken  # a claimed discard is counted in its meld
            for m in self.melds[s]:
                if m.kind != "angang" or s == seat:
                    for t in m.tiles:
                        unseen[t] -= 1
            if s == seat:
                continue
            closed = not self.is_open(s)
            win += 2 ** ((seat == self.dealer or (s == self.dealer and both)) + closed)
            shown = closed + sum(1 for m in self.melds[s] if m.kind in ("minggang", "angang"))
            shown += sum(
                1 for m in self.melds[s] if m.kind != "angang" for t in m.tiles if t in self.qiang
            )
            loss += 2 ** ((s == self.dealer or (seat == self.dealer and both)) + shown)
        stakes = Stakes(win, loss / (self.seats - 1))
        melds = [m.meld() for m in self.melds[seat]]
        unseen = [max(0, n) for n in unseen]
        passed = seat in self.passed_win
        return lambda tiles: worth(tiles, self.hun, melds, self.qiang, unseen, stakes, passed)

    def resample(self, seat: int, rng: random.Random) -> MajiangState:
        """The other concealed hands, their 暗杠 and the wall dealt anew (the flip and its
        混 stay); see :mod:`paiju.games.majiang.sample`."""
        if self.phase == "over":
            return self.clone()
        return replay_sample(self, seat, rng, proposer(self, seat))

    def hidden_from(self, seat: int | None) -> Counter[int]:
        hidden: Counter[int] = Counter(self.wall)
        if self._phase == "over":
            return hidden
        for s in range(self.seats):
            if s == seat:
                continue
            hidden.update(self.hands[s])
            for m in self.melds[s]:
                if m.kind == "angang":
                    hidden.update(m.tiles)
        return hidden

    def view(self, seat: int | None) -> JSON:
        return self.views([seat])[0]

    def _player_json(self, s: int, viewer: int | None) -> JSON:
        """Seat ``s`` at the table as ``viewer`` sees it (an 暗杠's tiles: its owner only,
        until the end)."""
        over = self._phase == "over"
        melds = []
        for m in self.melds[s]:
            shown = over or s == viewer or m.kind != "angang"
            melds.append(
                {
                    "kind": m.kind,
                    "tiles": format_tiles(m.tiles) if shown else None,
                    "from": m.source,
                    "claimed": None if m.claimed is None else str(m.claimed),
                }
            )
        player: JSON = {
            "seat": s,
            "concealed": len(self.hands[s]),
            "melds": melds,
            "discards": format_tiles(t for t, _ in self.river[s]),
            "claimed": [i for i, (_, taken) in enumerate(self.river[s]) if taken],
            "open": self.is_open(s),
        }
        if over:
            player["hand"] = format_tiles(sorted(self.hands[s]))
        return player

    def views(self, seats: Sequence[int | None]) -> list[JSON]:
        """Each seat's view; the table as every seat sees it (the melds but 暗杠, the
        rivers) is computed once, and a seat's own place again only where it holds an
        暗杠."""
        over = self._phase == "over"
        table = [self._player_json(s, None) for s in range(self.seats)]
        last_discard = (
            None
            if self.last is None or self._phase not in ("claim", "rob")
            else {"seat": self.last[0], "tile": str(self.last[1]), "kong": self._phase == "rob"}
        )
        result = self._result_json() if over else None
        out: list[JSON] = []
        for seat in seats:
            players = table
            if seat is not None and not over and any(m.kind == "angang" for m in self.melds[seat]):
                players = list(table)
                players[seat] = self._player_json(seat, seat)
            out.append(self._seat_view(seat, players, last_discard, result))
        return out

    def _seat_view(
        self,
        seat: int | None,
        players: list[JSON],
        last_discard: JSON | None,
        result: JSON | None,
    ) -> JSON:
        over = self._phase == "over"
        out: JSON = {
            "code": self.game.variant.code,
            "phase": self._phase,
            "seat": seat,
            "to_act": self._to_act_shown(seat),
            "dealer": self.dealer,
            "turn": self.turn,
            "flip": str(self.flip),
            "hun": sorted(self.hun),
            "qiang": list(self.qiang),
            "qiang_room": self.rules.qiang,
            "wall": len(self.wall),
            "players": players,
            "last_discard": last_discard,
        }
        if seat is not None:
            hand = list(self.hands[seat])
            drawn = None
            if self.turn == seat and self._phase == "play" and self.drawn in hand:
                drawn = self.drawn
                hand.remove(self.drawn)
            out["hand"] = format_tiles(sorted(hand))
            out["drawn"] = None if drawn is None else str(drawn)
            out["actions"] = [a.to_json() for a in (self.legal_actions(seat) or [])]
            if self._phase in ("claim", "rob") and seat in self.decisions:
                out["decided"] = _action_text(self.decisions[seat])
            if not over:
                out["ting"] = help_from_view(out, self.rules)  # read from the view alone
        if over:
            out["result"] = result
        return out

    def _to_act_shown(self, seat: int | None) -> bool | list[int]:
        """What a view says of who acts: a seat learns only whether it acts itself (so a
        claim window hides which other seats may claim); a spectator sees the seat to move,
        and nobody during a claim window."""
        if seat is not None:
            return seat in self.to_act()
        return [] if self._phase in ("claim", "rob") else sorted(self.to_act())

    def _result_json(self) -> JSON:
        return {
            "kind": "win" if self.wins else "drawn",
            "reveal": None if self.reveal is None else str(self.reveal),
            "scores": list(self.scores),
            "wins": [
                {
                    "seat": w.seat,
                    "how": w.how,
                    "tile": str(w.tile),
                    "from": w.source,
                    "form": w.form,
                    "fans": w.fans,
                    "fan": len(w.fans),
                    "groups": w.groups,
                    "pay": w.pay,
                    "deltas": w.deltas,
                }
                for w in self.wins
            ],
        }


def _action_text(action: Action) -> str:
    if isinstance(action, Chi):
        return f"chi {format_tiles(action.chow)}"
    if isinstance(action, Discard | Kong):
        return f"{action.type} {action.tile}"
    return action.type
