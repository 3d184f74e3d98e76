"""宁城打弹子 through the Game protocol: deal, 进贡/还贡, 宣战, the play, points, the match.

One deal (盘) runs through the phases

* ``tribute`` - a giver under 骚贡 chooses their tribute (automatic tribute needs no action);
* ``picking`` - (2/2 form) 头游 takes two of the four tribute cards, 二游 gets the rest;
* ``returning`` - the receivers return as many cards (4/2: both at once; 2/2: 头游 first,
  face down, then 二游);
* ``picking_returns`` - (2/2 form) 三游 takes two of the four returns, 末游 gets the rest;
* ``declaring`` - 宣战权 offered from the previous 三游 round the table (N42);
* ``playing`` - tricks until the finishing order is known;
* ``over``.

A match's first deal has no tribute and declares automatically: the holder of the first
大王 dealt (N41) declares and leads. The match (局) runs until a side reaches the room's
``target`` (30 or 60, N61); what carries from deal to deal (totals, the finishing order,
the declarer) is the JSON context.

明牌 (N58): every seat's view holds its partner's hand; opponents see what is played, the
shown tribute (N56) and card counts.

The settlement of a deal is zero for every seat until the match ends; the deal that ends it
settles the match: ``match_stake`` to each player of the winning side, paid by the other.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar

from paiju.cards import RED_JOKER, Card, CardList, format_cards
from paiju.engine import Action, Deal, Event, Game, PrivateEvent, State
from paiju.errors import IllegalAction
from paiju.fairness import DealRng
from paiju.games.danzi.combos import (
    FOUR,
    SINGLE,
    Combo,
    beats,
    card_rank_index,
    classify,
    counts_of,
)
from paiju.games.danzi.moves import legal_plays
from paiju.games.danzi.scoring import PointRules, deal_points, team_of
from paiju.games.danzi.tribute import (
    auto_tribute,
    check_return,
    check_tribute,
    is_free,
    return_value,
)

__all__ = [
    "DanziGame",
    "DanziState",
    "Declare",
    "Decline",
    "Pass",
    "Pick",
    "Play",
    "Return",
    "Tribute",
    "cards_for",
    "first_red_joker",
]

JSON = dict[str, Any]
PLACES_ZH = ("头游", "二游", "三游", "末游")

# ----------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Play(Action):
    """出牌: a combination that leads or beats the table, or a 取牌 with 4s."""

    type: ClassVar[str] = "play"
    cards: CardList


@dataclass(frozen=True)
class Pass(Action):
    """不要: pass on the table (a pass does not bar playing later in the trick, N37)."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Declare(Action):
    """宣战: undertake to go out first (头游)."""

    type: ClassVar[str] = "declare"


@dataclass(frozen=True)
class Decline(Action):
    """不宣战: let the right to declare pass on."""

    type: ClassVar[str] = "decline"


@dataclass(frozen=True)
class Tribute(Action):
    """进贡 under 骚贡 (N51): the giver's own choice of cards, 4s excepted."""

    type: ClassVar[str] = "tribute"
    cards: CardList


@dataclass(frozen=True)
class Pick(Action):
    """挑选 (2/2 form): take two cards of the four shown (tribute or returns)."""

    type: ClassVar[str] = "pick"
    cards: CardList


@dataclass(frozen=True)
class Return(Action):
    """还贡: give back as many cards as received (N53-N55)."""

    type: ClassVar[str] = "return"
    cards: CardList


# ------------------------------------------------------------------------------ events


@dataclass(frozen=True)
class TributeGiven(Event):
    """进贡, shown to all (N56): ``to`` is the receiver, or None for the 2/2 pool."""

    type: ClassVar[str] = "tribute_given"
    seat: int
    to: int | None
    cards: CardList
    free: bool


@dataclass(frozen=True)
class Picked(Event):
    """A pick from a shown pool; ``rest`` went to ``rest_to``."""

    type: ClassVar[str] = "picked"
    seat: int
    cards: CardList
    rest_to: int
    rest: CardList


@dataclass(frozen=True)
class ReturnGiven(Event):
    """还贡, shown to all: the 4/2 form's returns, and the 2/2 returns once both are down."""

    type: ClassVar[str] = "return_given"
    seat: int
    to: int | None
    cards: CardList


@dataclass(frozen=True)
class ReturnHidden(PrivateEvent):
    """The first 2/2 return, face down until the second is down (N48)."""

    type: ClassVar[str] = "return_hidden"
    cards: CardList


@dataclass(frozen=True)
class Declared(Event):
    """宣战 (``automatic`` in a match's first deal, N41)."""

    type: ClassVar[str] = "declared"
    seat: int
    automatic: bool


@dataclass(frozen=True)
class Declined(Event):
    type: ClassVar[str] = "declined"
    seat: int


@dataclass(frozen=True)
class Played(Event):
    """A play: its kind (``kind_zh``) and whether it was a 取牌."""

    type: ClassVar[str] = "played"
    seat: int
    cards: CardList
    kind: str
    take: bool


@dataclass(frozen=True)
class Passed(Event):
    type: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True)
class TrickWon(Event):
    """Everyone else passed: ``seat`` won the trick and ``leader`` leads (接风 when they differ)."""

    type: ClassVar[str] = "trick_won"
    seat: int
    leader: int


@dataclass(frozen=True)
class WentOut(Event):
    """``seat`` took place ``place`` (0 = 头游 … 3 = 末游)."""

    type: ClassVar[str] = "went_out"
    seat: int
    place: int


@dataclass(frozen=True)
class DeclarationDecided(Event):
    """宣战成功 (the declarer is 头游) or 宣战失败 (the declarer is 末游 and stops, N45)."""

    type: ClassVar[str] = "declaration_decided"
    seat: int
    success: bool


@dataclass(frozen=True)
class DealScored(Event):
    """The deal's points per team and the match totals after it."""

    type: ClassVar[str] = "deal_scored"
    finish_order: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    match_over: bool


# ------------------------------------------------------------------------------- helpers


def cards_for(hand: Sequence[int], counts: Sequence[int]) -> tuple[Card, ...]:
    """Concrete cards of ``hand`` for a play's count vector (the lowest card indexes)."""
    need = list(counts)
    out: list[Card] = []
    for c in sorted(hand):
        i = card_rank_index(c)
        if need[i]:
            need[i] -= 1
            out.append(Card(c))
    if any(need):
        raise IllegalAction("the hand does not hold that play", reason="cards_not_in_hand")
    return tuple(out)


def first_red_joker(hands: Sequence[Sequence[int]], start: int) -> int:
    """The seat dealt the first 大王, cards dealt one at a time from ``start`` (N41, A21)."""
    best: tuple[int, int] | None = None
    for seat, hand in enumerate(hands):
        for k, c in enumerate(hand):
            if c == RED_JOKER:
                order = k * len(hands) + (seat - start) % len(hands)
                if best is None or order < best[0]:
                    best = (order, seat)
                break
    if best is None:
        raise IllegalAction("no 大王 in the deal")
    return best[1]


def display_order(cards: Sequence[int]) -> list[int]:
    """Cards from the biggest single down (大王 … 4), equal ranks together."""
    return sorted(cards, key=lambda c: (-SINGLE[card_rank_index(c)], c))


_DEFAULTS: dict[str, Any] = {
    "target": 30,
    "points_12": 3,
    "points_13": 2,
    "points_14": 1,
    "declare_multiplier": 2,
    "declare_fail_points": 3,
    "match_stake": 1,
    "lead_rule": "declarer_else_first",
    "pass_is_final": False,
    "end_after_one_two": False,
    "tribute_pick": "cards",
    "tribute_between_partners": True,
}
_CHOICES: dict[str, tuple[Any, ...]] = {
    "target": (30, 60),
    "lead_rule": ("declarer_else_first", "declarer_else_last"),
    "tribute_pick": ("cards", "lots"),
}


# -------------------------------------------------------------------------------- game


class DanziGame(Game):
    """宁城打弹子: room options of §14 (``target`` 30/60, points, leads, passing, tribute)."""

    family: ClassVar[str] = "danzi"
    actions: ClassVar[tuple[type[Action], ...]] = (
        Play,
        Pass,
        Declare,
        Decline,
        Tribute,
        Pick,
        Return,
    )
    events: ClassVar[tuple[type[Event], ...]] = (
        TributeGiven,
        Picked,
        ReturnGiven,
        ReturnHidden,
        Declared,
        Declined,
        Played,
        Passed,
        TrickWon,
        WentOut,
        DeclarationDecided,
        DealScored,
    )

    def validate_options(self, options: dict[str, Any]) -> Mapping[str, Any]:
        unknown = set(options) - set(_DEFAULTS)
        if unknown:
            raise IllegalAction(
                f"{self.variant.code} room options are {', '.join(_DEFAULTS)};"
                f" not {', '.join(sorted(unknown))}",
                reason="unknown_option",
                options=sorted(unknown),
            )
        out = dict(_DEFAULTS)
        for name, value in options.items():
            default = _DEFAULTS[name]
            if isinstance(default, bool):
                ok = isinstance(value, bool)
            elif isinstance(default, int):
                ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
            else:
                ok = isinstance(value, str)
            if ok and name in _CHOICES:
                ok = value in _CHOICES[name]
            if not ok:
                allowed = _CHOICES.get(name, (type(default).__name__,))
                raise IllegalAction(
                    f"room option {name} must be one of {', '.join(map(str, allowed))},"
                    f" got {value!r}",
                    reason="bad_option",
                    option=name,
                )
            out[name] = value
        if out["match_stake"] < 1:
            raise IllegalAction("match_stake must be at least 1", reason="bad_option")
        return out

    @property
    def point_rules(self) -> PointRules:
        o = self.options
        return PointRules(
            o["points_12"],
            o["points_13"],
            o["points_14"],
            o["declare_multiplier"],
            o["declare_fail_points"],
        )

    def deal(self, seats: int, rng: DealRng, context: Mapping[str, Any]) -> Deal:
        """27 cards each, one at a time in playing order from the starting seat (N1)."""
        cards = rng.shuffled(self.full_set())
        prev = _previous(context)
        start = prev["finish_order"][0] if prev else rng.randbelow(seats)
        hands = tuple(
            tuple(cards[(k * seats) + (s - start) % seats] for k in range(27)) for s in range(seats)
        )
        return Deal(hands, {}, {"start": start})

    def start(self, seats: int, deal: Deal, context: Mapping[str, Any]) -> DanziState:
        return DanziState(self, seats, deal, context)

    def match_over(self, context: Mapping[str, Any], hands_played: int) -> bool:
        return bool(context.get("match_over"))


def _previous(context: Mapping[str, Any]) -> dict[str, Any] | None:
    """The previous deal of the same match from the context, None for a first deal."""
    prev = context.get("previous")
    if context.get("match_over") or not isinstance(prev, Mapping):
        return None
    order = prev.get("finish_order")
    if not isinstance(order, list | tuple) or sorted(order) != [0, 1, 2, 3]:
        return None
    declarer = prev.get("declarer")
    return {
        "finish_order": list(order),
        "declarer": declarer if isinstance(declarer, int) else None,
    }


# ------------------------------------------------------------------------------- state


class DanziState(State):
    """One deal (盘) of 宁城打弹子."""

    game: DanziGame

    def __init__(self, game: DanziGame, seats: int, deal: Deal, context: Mapping[str, Any]) -> None:
        super().__init__(game, seats, deal, context)
        self.options = game.options
        prev = _previous(context)
        totals = context.get("totals") if prev else None
        self.totals: list[int] = (
            [int(totals[0]), int(totals[1])]
            if isinstance(totals, list | tuple) and len(totals) == 2
            else [0, 0]
        )
        self.deal_number = int(context.get("deal_number", 0)) + 1 if prev else 1
        self.previous = prev
        self.hands: list[list[int]] = [display_order(h) for h in deal.hands]
        self.exposed: list[Counter[int]] = [Counter() for _ in range(seats)]
        """Cards known to all to be in a hand (received as shown tribute or returns)."""
        self.played: list[int] = []
        self._phase = "tribute"
        # tribute
        self.form: str | None = None  # "2/2", "4/2" or None (first deal)
        self.givers: dict[int, tuple[int, int | None, int]] = {}
        """giver -> (count, receiver or None for the pool, place of the giver)."""
        self.tribute_log: list[JSON] = []
        self.received: dict[int, list[int]] = {}
        self.returners: list[int] = []
        self.pool: list[tuple[int, int]] = []  # (from seat, card), shown
        self.hidden_return: tuple[int, list[int]] | None = None
        self.return_pool: list[tuple[int, int]] = []
        self.return_to: dict[int, int] = {}
        # declaration
        self.declarer: int | None = None
        self.declare_turn: int | None = None
        self.declined: list[int] = []
        self.automatic = False
        self.failed: int | None = None
        self.success: bool | None = None
        # play
        self.turn = 0
        self.table: Combo | None = None
        self.table_cards: tuple[int, ...] = ()
        self.table_take = False
        self.owner: int | None = None
        self.passed: set[int] = set()
        """Seats that passed since the table's play."""
        self.dropped: set[int] = set()
        """Seats that passed in this trick (skipped under ``pass_is_final``)."""
        self.trick: list[JSON] = []
        self.last_trick: list[JSON] = []
        self.finish: list[int] = []
        self.points: tuple[int, int] | None = None
        self.match_over = False
        self._begin()

    def __deepcopy__(self, memo: dict[int, Any]) -> DanziState:
        """A fast independent copy for bots: the mutable containers are copied; the game,
        the deal, combos, cards and logged actions are immutable and shared."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.context = dict(self.context)
        new.history = list(self.history)
        new.hands = [list(h) for h in self.hands]
        new.exposed = [Counter(e) for e in self.exposed]
        new.played = list(self.played)
        new.totals = list(self.totals)
        new.givers = dict(self.givers)
        new.tribute_log = list(self.tribute_log)
        new.received = {k: list(v) for k, v in self.received.items()}
        new.returners = list(self.returners)
        new.pool = list(self.pool)
        new.return_pool = list(self.return_pool)
        new.return_to = dict(self.return_to)
        new.declined = list(self.declined)
        new.passed = set(self.passed)
        new.dropped = set(self.dropped)
        new.trick = list(self.trick)
        new.last_trick = list(self.last_trick)
        new.finish = list(self.finish)
        return new

    # -- the start of a deal ------------------------------------------------------------

    def _begin(self) -> None:
        prev = self.previous
        if prev is None:
            start = self.deal.info.get("start", 0)
            seat = first_red_joker(self.deal.hands, start if isinstance(start, int) else 0)
            self.declarer, self.automatic = seat, True
            self._start_play(seat)
            return
        order = prev["finish_order"]
        first, second, third, last = order
        self.form = "4/2" if prev["declarer"] is not None else "2/2"
        if self.form == "4/2":
            transfers = [(last, first, 4), (third, second, 2)]
            if not self.options["tribute_between_partners"]:
                transfers = [(g, r, n) for g, r, n in transfers if team_of(g) != team_of(r)]
            for giver, receiver, n in transfers:
                self.givers[giver] = (n, receiver, order.index(giver))
        else:
            self.givers[third] = (2, None, 2)
            self.givers[last] = (2, None, 3)
        for giver in sorted(self.givers, key=lambda g: -self.givers[g][2]):
            if not is_free(self.hands[giver]):
                n, receiver, _ = self.givers[giver]
                self._give(giver, list(auto_tribute(self.hands[giver], n)), receiver, free=False)
        self._after_tribute()

    def _give(self, giver: int, cards: list[int], receiver: int | None, *, free: bool) -> Event:
        self._remove(giver, cards)
        del self.givers[giver]
        if receiver is None:
            self.pool.extend((giver, c) for c in cards)
        else:
            self._receive(receiver, cards)
            self.received[receiver] = list(cards)
            self.return_to[receiver] = giver
        event = TributeGiven(giver, receiver, _as_cards(cards), free)
        self.tribute_log.append(event.to_json())
        return event

    def _receive(self, seat: int, cards: Sequence[int]) -> None:
        self.hands[seat] = display_order([*self.hands[seat], *cards])
        self.exposed[seat].update(cards)

    def _remove(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
            if self.exposed[seat][c]:
                self.exposed[seat][c] -= 1
        self.exposed[seat] = +self.exposed[seat]

    def _after_tribute(self) -> None:
        if self.givers:
            self._phase = "tribute"
            return
        assert self.previous is not None
        order = self.previous["finish_order"]
        if self.form == "2/2":
            self._phase = "picking"
            self.turn = order[0]
            return
        self.returners = [s for s in (order[0], order[1]) if s in self.received]
        self._phase = "returning" if self.returners else "declaring"
        if not self.returners:
            self._start_declaring()

    def _start_declaring(self) -> None:
        assert self.previous is not None
        self._phase = "declaring"
        self.declare_turn = self.previous["finish_order"][2]

    def _start_play(self, leader: int) -> None:
        self._phase = "playing"
        self.turn = leader

    def _lead_after_declaring(self) -> int:
        assert self.previous is not None
        if self.declarer is not None:
            return self.declarer
        order = self.previous["finish_order"]
        first: int = order[0] if self.options["lead_rule"] == "declarer_else_first" else order[3]
        return first

    # -- protocol -----------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self._phase

    def to_act(self) -> frozenset[int]:
        p = self._phase
        if p == "tribute":
            return frozenset(self.givers)
        if p in ("picking", "picking_returns", "playing"):
            return frozenset({self.turn})
        if p == "returning":
            return frozenset(self.returners)
        if p == "declaring":
            assert self.declare_turn is not None
            return frozenset({self.declare_turn})
        return frozenset()

    def check(self, seat: int, action: Action) -> None:
        p = self._phase
        if isinstance(action, Tribute) and p == "tribute":
            n, _, _ = self.givers[seat]
            check_tribute(self.hands[seat], n, action.cards)
        elif isinstance(action, Pick) and p in ("picking", "picking_returns"):
            self._check_pick(action.cards)
        elif isinstance(action, Return) and p == "returning":
            check_return(self.hands[seat], self.received[seat], action.cards)
        elif isinstance(action, Declare | Decline) and p == "declaring":
            pass
        elif isinstance(action, Play) and p == "playing":
            self._check_play(seat, action.cards)
        elif isinstance(action, Pass) and p == "playing":
            if self.table is None:
                raise IllegalAction(
                    "the leader must play: a trick cannot start with a pass", reason="must_lead"
                )
        else:
            raise IllegalAction(
                f"{action.type} is not an action of the {p} phase",
                reason="wrong_phase",
                action=action.type,
                phase=p,
            )

    def _check_pick(self, cards: Sequence[int]) -> None:
        pool = self.pool if self._phase == "picking" else self.return_pool
        if len(cards) != 2:
            raise IllegalAction(
                f"pick two cards, not {len(cards)}", reason="pick_wrong_count", count=2
            )
        missing = Counter(cards) - Counter(c for _, c in pool)
        if missing:
            raise IllegalAction(
                f"{format_cards(sorted(missing.elements()))} is not among the shown cards",
                reason="pick_not_shown",
                cards=format_cards(sorted(missing.elements())),
            )
        if self.options["tribute_pick"] == "lots":
            lots = {Counter(c for g, c in pool if g == giver) for giver, _ in pool}
            if not any(Counter(cards) == lot for lot in lots):
                raise IllegalAction(
                    "pick one giver's two cards (tribute_pick = lots)", reason="pick_one_lot"
                )

    def _check_play(self, seat: int, cards: Sequence[int]) -> None:
        missing = Counter(cards) - Counter(self.hands[seat])
        if missing:
            text = format_cards(sorted(missing.elements()))
            raise IllegalAction(
                f"{text} is not in the hand", reason="cards_not_in_hand", cards=text
            )
        combo = classify(counts_of(cards)) if cards else None
        if combo is None:
            text = format_cards(cards)
            raise IllegalAction(
                f"{text or 'nothing'} is no combination of 打弹子",
                reason="not_a_combination",
                cards=text,
            )
        if self.table is not None:
            verdict = beats(self.table, combo)
            if not verdict.beats:
                raise IllegalAction(
                    f"{combo.name_zh} {format_cards(cards)} does not beat the table's"
                    f" {self.table.name_zh} {format_cards(self.table_cards)} ({verdict.reason})",
                    reason="does_not_beat",
                    why=verdict.reason,
                    table=format_cards(self.table_cards),
                )

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Tribute):
            receiver = self.givers[seat][1]
            events = [self._give(seat, list(action.cards), receiver, free=True)]
            self._after_tribute()
            return events
        if isinstance(action, Pick):
            return self._apply_pick(seat, list(action.cards))
        if isinstance(action, Return):
            return self._apply_return(seat, list(action.cards))
        if isinstance(action, Declare | Decline):
            return self._apply_declaring(seat, isinstance(action, Declare))
        if isinstance(action, Play):
            return self._apply_play(seat, list(action.cards))
        return self._apply_pass(seat)

    # -- tribute phases -----------------------------------------------------------------

    def _apply_pick(self, seat: int, cards: list[int]) -> list[Event]:
        assert self.previous is not None
        order = self.previous["finish_order"]
        picking = self._phase == "picking"
        pool = self.pool if picking else self.return_pool
        rest = [c for _, c in pool]
        for c in cards:
            rest.remove(c)
        other = order[1] if picking else order[3]
        for who, got in ((seat, cards), (other, rest)):
            self._receive(who, got)
        pool.clear()
        event = Picked(seat, _as_cards(cards), other, _as_cards(rest))
        self.tribute_log.append(event.to_json())
        if picking:
            self.received = {seat: cards, other: rest}
            self.returners = [order[0]]
            self._phase = "returning"
        else:
            self._start_declaring()
        return [event]

    def _apply_return(self, seat: int, cards: list[int]) -> list[Event]:
        assert self.previous is not None
        order = self.previous["finish_order"]
        self._remove(seat, cards)
        self.returners.remove(seat)
        if self.form == "4/2":
            to = self.return_to[seat]
            self._receive(to, cards)
            event: Event = ReturnGiven(seat, to, _as_cards(cards))
            self.tribute_log.append(event.to_json())
            if not self.returners:
                self._start_declaring()
            return [event]
        if self.hidden_return is None:  # 头游's return, face down (N48)
            self.hidden_return = (seat, cards)
            self.returners = [order[1]]
            return [ReturnHidden(seat, _as_cards(cards))]
        first, first_cards = self.hidden_return
        self.hidden_return = None
        self.return_pool = [(first, c) for c in first_cards] + [(seat, c) for c in cards]
        events: list[Event] = []
        for who, cs in ((first, first_cards), (seat, cards)):
            ev = ReturnGiven(who, None, _as_cards(cs))
            self.tribute_log.append(ev.to_json())
            events.append(ev)
        self._phase = "picking_returns"
        self.turn = order[2]
        return events

    # -- 宣战 -----------------------------------------------------------------------------

    def _apply_declaring(self, seat: int, declare: bool) -> list[Event]:
        if declare:
            self.declarer = seat
            self.declare_turn = None
            self._start_play(self._lead_after_declaring())
            return [Declared(seat, False)]
        self.declined.append(seat)
        if len(self.declined) == self.seats:
            self.declare_turn = None
            self._start_play(self._lead_after_declaring())
        else:
            self.declare_turn = (seat + 1) % self.seats
        return [Declined(seat)]

    # -- the play -------------------------------------------------------------------------

    def live(self) -> list[int]:
        """Seats still playing: not out, not a failed declarer."""
        return [s for s in range(self.seats) if s not in self.finish and s != self.failed]

    def _apply_play(self, seat: int, cards: list[int]) -> list[Event]:
        combo = classify(counts_of(cards))
        assert combo is not None
        take = self.table is not None and beats(self.table, combo).take
        self._remove(seat, cards)
        self.played.extend(cards)
        ordered = display_order(cards)
        self.table, self.table_cards, self.table_take = combo, tuple(ordered), take
        self.owner = seat
        self.passed = set()
        self.trick.append(
            {"seat": seat, "cards": format_cards(ordered), "kind": combo.name_zh, "take": take}
        )
        events: list[Event] = [Played(seat, _as_cards(ordered), combo.kind, take)]
        if not self.hands[seat]:
            events += self._went_out(seat)
        if self._phase == "playing":
            events += self._advance(seat)
        return events

    def _apply_pass(self, seat: int) -> list[Event]:
        self.passed.add(seat)
        self.dropped.add(seat)
        self.trick.append({"seat": seat, "pass": True})
        return [Passed(seat), *self._advance(seat)]

    def _went_out(self, seat: int) -> list[Event]:
        self.finish.append(seat)
        events: list[Event] = [WentOut(seat, len(self.finish) - 1)]
        if len(self.finish) == 1 and self.declarer is not None:
            self.success = seat == self.declarer
            if not self.success:
                self.failed = self.declarer  # 宣战失败: 末游, plays nothing more (N45)
            events.append(DeclarationDecided(self.declarer, self.success))
        live = self.live()
        one_two = (
            self.options["end_after_one_two"]
            and len(self.finish) == 2
            and team_of(self.finish[0]) == team_of(self.finish[1])
        )
        if len(live) <= 1 or one_two:
            rest = sorted(live, key=lambda s: (len(self.hands[s]), (s - seat) % self.seats))
            for s in rest:
                self.finish.append(s)
                events.append(WentOut(s, len(self.finish) - 1))
            if self.failed is not None:
                self.finish.append(self.failed)
                events.append(WentOut(self.failed, 3))
            events += self._score()
        return events

    def _advance(self, seat: int) -> list[Event]:
        """The next seat in turn, or the end of the trick and its new leader (接风, N38)."""
        live = self.live()
        owner = self.owner
        assert owner is not None
        done = self.passed | self.dropped if self.options["pass_is_final"] else self.passed
        if all(s in done for s in live if s != owner):
            leader = owner
            if owner == self.failed:
                leader = self._next_live(owner, live)  # a failed declarer never leads (N45)
            elif leader not in live:
                partner = (owner + 2) % self.seats  # 接风 (N38)
                leader = partner if partner in live else self._next_live(owner, live)
            self.last_trick = self.trick
            self.trick = []
            self.table, self.table_cards, self.table_take = None, (), False
            self.passed = set()
            self.dropped = set()
            self.turn = leader
            return [TrickWon(owner, leader)]
        skip = self.dropped if self.options["pass_is_final"] else set()
        nxt = self._next_live(seat, [s for s in live if s not in skip])
        self.turn = nxt
        return []

    def _next_live(self, seat: int, live: Sequence[int]) -> int:
        for k in range(1, self.seats + 1):
            s = (seat + k) % self.seats
            if s in live:
                return s
        raise AssertionError("no live seat")

    # -- results ----------------------------------------------------------------------------

    def _score(self) -> list[Event]:
        self._phase = "over"
        self.points = deal_points(self.finish, self.declarer, self.game.point_rules)
        self.totals = [self.totals[0] + self.points[0], self.totals[1] + self.points[1]]
        self.match_over = max(self.totals) >= self.options["target"]
        return [DealScored(tuple(self.finish), self.points, tuple(self.totals), self.match_over)]

    @property
    def winner(self) -> int | None:
        """The team that won the match in this deal, else None."""
        if not self.match_over:
            return None
        return 0 if self.totals[0] >= self.options["target"] else 1

    def settlement(self) -> tuple[int, ...]:
        winner = self.winner
        if self._phase != "over" or winner is None:
            return (0,) * self.seats
        stake = self.options["match_stake"]
        return tuple(stake if team_of(s) == winner else -stake for s in range(self.seats))

    def next_context(self) -> JSON:
        if self._phase != "over":
            return dict(self.context)
        return {
            "totals": list(self.totals),
            "deal_number": self.deal_number,
            "previous": {"finish_order": list(self.finish), "declarer": self.declarer},
            "match_over": self.match_over,
        }

    # -- what each seat sees ------------------------------------------------------------

    def locations(self) -> Mapping[str, Sequence[int]]:
        places: dict[str, Sequence[int]] = {f"hand {s}": self.hands[s] for s in range(self.seats)}
        places["played"] = self.played
        places["tribute pool"] = [c for _, c in self.pool]
        places["return pool"] = [c for _, c in self.return_pool]
        places["hidden return"] = self.hidden_return[1] if self.hidden_return else []
        return places

    def sees_hand(self, seat: int | None, owner: int) -> bool:
        """明牌: a seat sees its own hand and its partner's (N58)."""
        return seat is not None and (seat == owner or seat == (owner + 2) % self.seats)

    def hidden_from(self, seat: int | None) -> Counter[int]:
        hidden: Counter[int] = Counter()
        for s in range(self.seats):
            if not self.sees_hand(seat, s):
                hidden.update(self.hands[s])
                hidden.subtract(self.exposed[s])
        if self.hidden_return is not None and not self.sees_hand(seat, self.hidden_return[0]):
            hidden.update(self.hidden_return[1])
        return +hidden

    def view(self, seat: int | None) -> JSON:
        partner = None if seat is None else (seat + 2) % self.seats
        table = None
        if self.table is not None:
            table = {
                "seat": self.owner,
                "cards": format_cards(self.table_cards),
                "kind": self.table.kind,
                "name": self.table.name_zh,
                "bomb": not self.table.plain,
                "take": self.table_take,
            }
        out: JSON = {
            "code": self.game.variant.code,
            "phase": self._phase,
            "seat": seat,
            "to_act": sorted(self.to_act()),
            "turn": self.turn if self._phase in ("playing", "picking", "picking_returns") else None,
            "hand": None if seat is None else format_cards(self.hands[seat]),
            "partner": partner,
            "partner_hand": None if partner is None else format_cards(self.hands[partner]),
            "hand_sizes": [len(h) for h in self.hands],
            "teams": [[0, 2], [1, 3]],
            "table": table,
            "trick": list(self.trick),
            "last_trick": list(self.last_trick),
            "passed": sorted(self.passed),
            "finish_order": list(self.finish),
            "declarer": self.declarer,
            "automatic_declaration": self.automatic,
            "declaration": self._declaration_state(),
            "declare_turn": self.declare_turn,
            "declined": list(self.declined),
            "tribute": self._tribute_view(seat),
            "deal_number": self.deal_number,
            "totals": list(self.totals),
            "target": self.options["target"],
            "previous": self.previous,
        }
        if self._phase == "over":
            out["result"] = {
                "finish_order": list(self.finish),
                "places": {PLACES_ZH[i]: s for i, s in enumerate(self.finish)},
                "points": list(self.points or (0, 0)),
                "totals": list(self.totals),
                "match_over": self.match_over,
                "winner": self.winner,
                "settlement": list(self.settlement()),
            }
        return out

    def _declaration_state(self) -> str:
        if self.declarer is None:
            return "offering" if self._phase == "declaring" else "none"
        if self.success is None:
            return "declared"
        return "success" if self.success else "failed"

    def _tribute_view(self, seat: int | None) -> JSON | None:
        if self.form is None:
            return None
        hidden = self.hidden_return
        return {
            "form": self.form,
            "log": list(self.tribute_log),
            "owed": [
                {"seat": g, "count": n, "to": r, "free": True}
                for g, (n, r, _) in self.givers.items()
            ],
            "pool": format_cards(c for _, c in self.pool),
            "return_pool": format_cards(c for _, c in self.return_pool),
            "received": {str(s): format_cards(cs) for s, cs in self.received.items()},
            "returning": list(self.returners) if self._phase == "returning" else [],
            "hidden_return": None
            if hidden is None
            else {
                "seat": hidden[0],
                "count": len(hidden[1]),
                "cards": format_cards(hidden[1]) if self.sees_hand(seat, hidden[0]) else None,
            },
        }

    # -- legal actions --------------------------------------------------------------------

    def plays(self, seat: int) -> list[Combo]:
        """Every combination ``seat`` may play now (empty when it is not their turn to play)."""
        if self._phase != "playing" or seat != self.turn:
            return []
        return legal_plays(counts_of(self.hands[seat]), self.table)

    def legal_actions(self, seat: int) -> Sequence[Action] | None:
        if seat not in self.to_act():
            return []
        p = self._phase
        if p == "playing":
            hand = self.hands[seat]
            acts: list[Action] = [Play(cards_for(hand, c.counts)) for c in self.plays(seat)]
            if self.table is not None:
                acts.insert(0, Pass())
            return acts
        if p == "declaring":
            return [Declare(), Decline()]
        if p in ("picking", "picking_returns"):
            pool = [c for _, c in (self.pool if p == "picking" else self.return_pool)]
            picks = {tuple(sorted(pair)) for pair in combinations(pool, 2)}
            out: list[Action] = []
            for pair in sorted(picks):
                action = Pick(_as_cards(pair))
                try:
                    self._check_pick(pair)
                except IllegalAction:
                    continue
                out.append(action)
            return out
        return None  # tribute and returns: choices of several cards from 27

    def random_action(self, seat: int, rng: random.Random) -> Action:
        legal = self.legal_actions(seat)
        if legal:
            return rng.choice(list(legal))
        hand = self.hands[seat]
        if self._phase == "tribute":
            n = self.givers[seat][0]
            eligible = [c for c in hand if card_rank_index(c) != FOUR]
            return Tribute(_as_cards(rng.sample(eligible, n)))
        if self._phase == "returning":
            received = self.received[seat]
            n = len(received)
            forbidden = {return_value(c) for c in received}
            eligible = [
                c for c in hand if card_rank_index(c) != FOUR and return_value(c) not in forbidden
            ]
            return Return(_as_cards(rng.sample(eligible, n)))
        raise IllegalAction(f"seat {seat} has no action in phase {self._phase!r}")


def _as_cards(cards: Sequence[int]) -> tuple[Card, ...]:
    return tuple(Card(c) for c in cards)
