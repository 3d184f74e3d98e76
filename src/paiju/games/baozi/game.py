"""宝子 and 佳佳宝 as games of the Game protocol: bets, the deal, grouping, showdown.

A hand (一局): the banker (庄家, ``context["banker"]``, default seat 0) sits against every
other seat. Phase ``betting``: every player (闲家) bets at once, an amount within the room's
``min_bet``..``max_bet``. The cards were dealt when the hand began (all chance happens in
:meth:`BaoziGame.deal`, in the variant's dealing mode, starting left of the banker) but no
seat sees any card before every bet is in. Then:

* 宝子: the hands are shown (亮牌) and each player's two cards are compared with the
  banker's; a win pays the bet times the payout (1:1, or ``pair_payout`` when the winning
  hand is a ladder hand such as a pair), a loss costs it, a push (和) is 0;
* 佳佳宝: phase ``grouping``: every seat, the banker included, sees its four cards and
  splits them into two groups at once (:class:`Group`, either order: the engine puts the
  stronger group at the back, 后); codes with the fixed grouping rule (2104) are grouped
  by the rule without asking. At the showdown front meets front and back meets back: two
  wins win the bet, two losses lose it, anything else is a push.

The banker's delta is minus the players' total. ``banker_rotation`` (``rotate``/``stay``)
decides the next hand's banker (:meth:`BaoziState.next_context`).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self, cast

from paiju.cards import Card, CardList, format_cards
from paiju.engine import Action, Deal, Event, Game, PrivateEvent, State
from paiju.errors import IllegalAction, ProtocolError
from paiju.fairness import DealRng
from paiju.games.baozi.groups import Groups, fixed_grouping, groupings, groups_text, order_groups
from paiju.games.baozi.rules import Evaluator, Outcome, Reading, evaluator
from paiju.games.baozi.spec import BaoziParams, JiajiabaoParams, params_of
from paiju.sampling import Script, deal_hidden, replay_sample

if TYPE_CHECKING:
    from paiju.games.baozi.solver import GroupingScore

__all__ = [
    "BaoziGame",
    "BaoziState",
    "Bet",
    "BetPlaced",
    "Compared",
    "Dealt",
    "Group",
    "GroupChosen",
    "Groups",
    "HandShown",
    "JiajiabaoGame",
    "JiajiabaoState",
    "fixed_grouping",
    "groupings",
    "order_groups",
]

JSON = dict[str, Any]

# ------------------------------------------------------------------ actions and events


@dataclass(frozen=True)
class Bet(Action):
    """A player's bet (下注) on its hand against the banker's."""

    type: ClassVar[str] = "bet"
    amount: int


@dataclass(frozen=True)
class Group(Action):
    """佳佳宝: split four cards into two groups of two (分组), in either order."""

    type: ClassVar[str] = "group"
    first: CardList
    second: CardList


@dataclass(frozen=True)
class BetPlaced(Event):
    """A player's bet, seen by everyone."""

    type: ClassVar[str] = "bet_placed"
    seat: int
    amount: int


@dataclass(frozen=True)
class Dealt(Event):
    """The bets are in: the cards come off the deal, seat by seat in ``order``.

    ``mode`` is the variant's dealing (单张发 ``one_at_a_time``, 2张发 ``two_at_once``,
    4连发 ``four_at_once``) so that clients can animate it.
    """

    type: ClassVar[str] = "dealt"
    mode: str
    order: tuple[int, ...]
    cards_each: int


@dataclass(frozen=True)
class CardsSeen(PrivateEvent):
    """佳佳宝: a seat looks at its own four cards (only that seat sees this event)."""

    type: ClassVar[str] = "cards_seen"
    cards: CardList


@dataclass(frozen=True)
class GroupChosen(PrivateEvent):
    """佳佳宝: a seat has set its groups; the cards are seen only by that seat."""

    type: ClassVar[str] = "group_chosen"
    front: CardList
    back: CardList


@dataclass(frozen=True)
class SeatGrouped(Event):
    """佳佳宝: a seat has set its groups (public: no cards)."""

    type: ClassVar[str] = "seat_grouped"
    seat: int


@dataclass(frozen=True)
class HandShown(Event):
    """Showdown (亮牌): a seat's hand and how it reads (佳佳宝: front then back)."""

    type: ClassVar[str] = "hand_shown"
    seat: int
    cards: CardList
    reading: str


@dataclass(frozen=True)
class Compared(Event):
    """A player's hand against the banker's: who won, per group (佳佳宝), and the player's delta."""

    type: ClassVar[str] = "compared"
    seat: int
    winner: str
    groups: tuple[str, ...]
    amount: int


# ------------------------------------------------------------------------------ games


MAX_BET = 100_000
"""The largest bet (min_bet, max_bet) a room may allow: every settlement stays far inside
the ledger's 64-bit integers."""
MAX_PAYOUT = 100
"""The largest pair_payout (对子 pays this many times the bet)."""


class BaoziGame(Game):
    """宝子: a banker against 1-8 players, two cards each, bets paid at the showdown."""

    family: ClassVar[str] = "baozi"
    actions: ClassVar[tuple[type[Action], ...]] = (Bet,)
    events: ClassVar[tuple[type[Event], ...]] = (BetPlaced, Dealt, HandShown, Compared)
    cards_each: ClassVar[int] = 2

    def validate_options(self, options: dict[str, Any]) -> Mapping[str, Any]:
        """Room options: ``min_bet`` (1), ``max_bet`` (10), ``pair_payout`` (1),
        ``banker_rotation`` (``rotate`` or ``stay``)."""
        out: dict[str, Any] = {
            "min_bet": 1,
            "max_bet": 10,
            "banker_rotation": "rotate",
        }
        if self.family == "baozi":
            out["pair_payout"] = 1
        unknown = sorted(set(options) - set(out))
        if unknown:
            raise IllegalAction(
                f"{self.variant.code}: unknown room option {', '.join(unknown)}; "
                f"options are {', '.join(sorted(out))}",
                reason="unknown_option",
                options=sorted(unknown),
            )
        out.update(options)
        for name in ("min_bet", "max_bet", *(("pair_payout",) if "pair_payout" in out else ())):
            value = out[name]
            top = MAX_PAYOUT if name == "pair_payout" else MAX_BET
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
                raise IllegalAction(
                    f"room option {name} must be a whole number 1-{top}, got {value!r}",
                    reason="option_out_of_range",
                    option=name,
                    min=1,
                    max=top,
                )
        if out["min_bet"] > out["max_bet"]:
            raise IllegalAction(
                f"room option min_bet {out['min_bet']} is above max_bet {out['max_bet']}",
                reason="bad_option",
                option="min_bet",
                value=str(out["min_bet"]),
            )
        if out["max_bet"] - out["min_bet"] > 10_000:
            raise IllegalAction(
                "room options: at most 10001 bet sizes between min_bet and max_bet",
                reason="bad_option",
                option="max_bet",
                value=str(out["max_bet"]),
            )
        if out["banker_rotation"] not in ("rotate", "stay"):
            raise IllegalAction(
                f"room option banker_rotation must be 'rotate' or 'stay', "
                f"got {out['banker_rotation']!r}",
                reason="bad_option",
                option="banker_rotation",
                value=str(out["banker_rotation"]),
            )
        return out

    @functools.cached_property
    def evaluator(self) -> Evaluator:
        """The variant's evaluator (looked up once: every grouping and reading asks)."""
        return evaluator(self.variant)

    @functools.cached_property
    def dealing(self) -> str:
        """How the cards are dealt (read once: every view names it)."""
        params = params_of(self.variant)
        assert isinstance(params, BaoziParams | JiajiabaoParams)
        return params.dealing

    def banker_of(self, seats: int, context: Mapping[str, Any]) -> int:
        banker = context.get("banker", 0)
        if isinstance(banker, bool) or not isinstance(banker, int) or not 0 <= banker < seats:
            raise IllegalAction(f"context banker must be a seat 0-{seats - 1}, got {banker!r}")
        return banker

    def deal_order(self, seats: int, banker: int) -> tuple[int, ...]:
        """Seats in dealing order: left of the banker first, the banker last."""
        return tuple((banker + 1 + i) % seats for i in range(seats))

    def deal(self, seats: int, rng: DealRng, context: Mapping[str, Any]) -> Deal:
        """Shuffle, then deal ``cards_each`` per seat in the variant's dealing mode."""
        order = self.deal_order(seats, self.banker_of(seats, context))
        stock = list(rng.shuffled(self.full_set()))
        hands: list[list[int]] = [[] for _ in range(seats)]
        step = {"one_at_a_time": 1, "two_at_once": 2, "four_at_once": 4}[self.dealing]
        step = min(step, self.cards_each)
        pos = 0
        for _ in range(self.cards_each // step):
            for seat in order:
                hands[seat].extend(stock[pos : pos + step])
                pos += step
        return Deal(tuple(tuple(h) for h in hands), {"stock": tuple(stock[pos:])})

    def start(self, seats: int, deal: Deal, context: Mapping[str, Any]) -> State:
        return BaoziState(self, seats, deal, context)

    def check_deal(self, seats: int, deal: Deal) -> None:
        super().check_deal(seats, deal)
        for seat, hand in enumerate(deal.hands):
            if len(hand) != self.cards_each:
                raise ProtocolError(
                    f"deal: seat {seat} has {len(hand)} cards; {self.variant.code} deals "
                    f"{self.cards_each} each"
                )


class JiajiabaoGame(BaoziGame):
    """佳佳宝: four cards each, split into a front and a back group, both compared."""

    family: ClassVar[str] = "jiajiabao"
    actions: ClassVar[tuple[type[Action], ...]] = (Bet, Group)
    events: ClassVar[tuple[type[Event], ...]] = (
        BetPlaced,
        Dealt,
        CardsSeen,
        GroupChosen,
        SeatGrouped,
        HandShown,
        Compared,
    )
    cards_each: ClassVar[int] = 4

    @functools.cached_property
    def fixed(self) -> bool:
        params = params_of(self.variant)
        assert isinstance(params, JiajiabaoParams)
        return params.grouping == "fixed"

    def start(self, seats: int, deal: Deal, context: Mapping[str, Any]) -> State:
        return JiajiabaoState(self, seats, deal, context)


# ----------------------------------------------------------------------------- states


def _as_cards(items: Sequence[int]) -> tuple[Card, ...]:
    """Dealt items as cards (those of a shuffled deck already are, and are kept)."""
    if {*map(type, items)} <= _CARD_TYPE:  # one look at C speed
        return cast("tuple[Card, ...]", tuple(items))
    return tuple(map(Card, items))


_CARD_TYPE: Final = frozenset({Card})

_LISTED: Final[list[tuple[tuple[Card, ...], Evaluator, tuple[Group, ...]] | None]] = [None]
"""In its one place, the groupings :meth:`JiajiabaoState.legal_actions` listed last: the
hand (the very tuple), the evaluator and the :class:`Group` actions, each of
:func:`~paiju.games.baozi.groups.order_groups`' front and back. One of them applied to
that hand (a random playout's next step) is neither checked nor ordered again."""


def _listed(hand: tuple[Card, ...], ev: Evaluator, action: Action) -> bool:
    """Whether ``action`` is one of the groupings listed last for ``hand`` itself."""
    last = _LISTED[0]
    if last is None or last[0] is not hand or last[1] is not ev:
        return False
    return any([listed is action for listed in last[2]])


@functools.cache
def _bets(low: int, high: int) -> tuple[Bet, ...]:
    """Every bet from ``low`` to ``high``, made once (a frozen action is shared)."""
    return tuple(Bet(n) for n in range(low, high + 1))


class BaoziState(State):
    """One 宝子 hand: ``betting`` then ``over`` (the showdown follows the last bet)."""

    game: BaoziGame

    def __init__(self, game: Game, seats: int, deal: Deal, context: Mapping[str, Any]) -> None:
        super().__init__(game, seats, deal, context)
        assert isinstance(game, BaoziGame)
        self.banker = game.banker_of(seats, context)
        self.hands: tuple[tuple[Card, ...], ...] = tuple(_as_cards(h) for h in deal.hands)
        self.stock: tuple[Card, ...] = _as_cards(deal.piles.get("stock", ()))
        self.bets: list[int | None] = [None] * seats
        self.results: list[tuple[str, tuple[str, ...], int]] | None = None
        self.readings: tuple[str, ...] = ()
        """Each seat's reading (text) once the hand is over (the showdown's events tell it)."""
        self._revealed: tuple[tuple[str, str], ...] | None = None
        self._phase = "betting"
        self._acting = self._waiting()
        """:meth:`to_act`, worked out once an action (at the deal and after each action)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A fast independent copy for :meth:`clone`: the mutable containers are copied,
        everything else (deal, cards, readings, frozen actions) is shared because it is
        immutable. A new mutable field must be copied here too (or in a subclass's)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.context = dict(self.context)
        new.history = list(self.history)
        new.bets = list(self.bets)
        if self.results is not None:
            new.results = list(self.results)
        return new

    # -- protocol -------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def players(self) -> list[int]:
        """The players (闲家): every seat but the banker."""
        return [s for s in range(self.seats) if s != self.banker]

    def to_act(self) -> frozenset[int]:
        # asked several times an action (the turn checked, legal_actions, apply, is_over):
        # worked out once an action, by _apply
        return self._acting

    def _waiting(self) -> frozenset[int]:
        """The seats to act, worked out from the bets (and the groups)."""
        if self._phase == "betting":
            bets, banker = self.bets, self.banker
            return frozenset([s for s in range(self.seats) if s != banker and bets[s] is None])
        return frozenset()

    def _bet_range(self) -> tuple[int, int]:
        return self.game.options["min_bet"], self.game.options["max_bet"]

    def check(self, seat: int, action: Action) -> None:
        self.check_turn(seat)
        if self._phase != "betting" or not isinstance(action, Bet):
            raise IllegalAction(
                f"phase {self._phase!r}: seat {seat} must "
                + ("bet (下注)" if self._phase == "betting" else "group its cards (分组)")
                + f", not {action.type!r}",
                reason="bet_now" if self._phase == "betting" else "group_now",
            )
        low, high = self._bet_range()
        amount = action.amount
        if isinstance(amount, bool) or not isinstance(amount, int) or not low <= amount <= high:
            raise IllegalAction(
                f"bet {amount!r} is outside the table limits {low}-{high}",
                reason="bet_limits",
                amount=str(amount),
                low=low,
                high=high,
            )

    def legal_actions(self, seat: int) -> Sequence[Action] | None:
        if seat not in self.to_act():
            return []
        if self._phase == "betting":
            return list(_bets(*self._bet_range()))
        return None

    def _apply(self, seat: int, action: Action) -> list[Event]:
        events = self._play(seat, action)
        self._acting = self._waiting()
        return events

    def _play(self, seat: int, action: Action) -> list[Event]:
        """:meth:`_apply` of one action; ``to_act`` is the one before it until it ends
        (who is to act after a change is ``_waiting()``)."""
        assert isinstance(action, Bet)
        self.bets[seat] = action.amount
        events: list[Event] = [BetPlaced(seat, action.amount)]
        if not self._waiting():
            events += self._after_bets()
        return events

    def _after_bets(self) -> list[Event]:
        game = self.game
        order = game.deal_order(self.seats, self.banker)
        events: list[Event] = [Dealt(game.dealing, order, game.cards_each)]
        return events + self._showdown()

    # -- showdown -------------------------------------------------------------------

    def reading(self, seat: int) -> str:
        return self.game.evaluator.read(self.hands[seat]).name

    def shown_cards(self, seat: int) -> tuple[Card, ...]:
        return self.hands[seat]

    @property
    def revealed(self) -> tuple[tuple[str, str], ...]:
        """Each seat's shown cards (text) and reading once the hand is over, else none:
        every view of the over hand shows them, so they are written once, when a view
        first asks (a random playout never does)."""
        if not self.readings:
            return ()
        if self._revealed is None:
            cards = [format_cards(self.shown_cards(s)) for s in range(self.seats)]
            self._revealed = tuple(zip(cards, self.readings, strict=True))
        return self._revealed

    def outcome(self, seat: int) -> tuple[Outcome, tuple[str, ...], int]:
        """(winner, per-group winners, multiplier) of a player against the banker."""
        ev = self.game.evaluator
        banker = ev.read(self.hands[self.banker])
        player = ev.read(self.hands[seat])
        winner = ev.outcome(banker, player)
        winning: Reading | None = {"banker": banker, "player": player}.get(winner)
        payout = self.game.options["pair_payout"] if winning and winning.is_ladder else 1
        return winner, (), payout

    def _showdown(self) -> list[Event]:
        readings = self.readings = tuple([self.reading(s) for s in range(self.seats)])
        events: list[Event] = [
            HandShown(s, self.shown_cards(s), readings[s]) for s in range(self.seats)
        ]
        self.results = []
        for seat in self.players:
            winner, groups, mult = self.outcome(seat)
            bet = self.bets[seat] or 0
            sign = {"player": 1, "banker": -1, "push": 0}[winner]
            self.results.append((winner, groups, sign * bet * mult))
            events.append(Compared(seat, winner, groups, sign * bet * mult))
        self._phase = "over"
        return events

    def resample(self, seat: int, rng: random.Random) -> BaoziState:
        """Every card ``seat`` does not see dealt anew (while the bets are made nobody has
        seen a card, its own neither); the bets stay (they are shown), another seat's
        grouping nobody has seen yet is chosen again at random on its new cards. See
        :meth:`paiju.engine.State.resample`."""
        if self._phase == "over":
            return self.clone()
        owners = [s for s in range(self.seats) if not self.visible_hand(seat, s)]
        pool = sorted(self.hidden_from(seat).elements())
        sizes = [len(self.hands[s]) for s in owners] + [len(self.stock)]

        def again(s: int) -> Callable[[State, random.Random], Action]:
            return lambda state, rng: state.random_action(s, rng)

        def propose(rng: random.Random) -> tuple[Deal, Script]:
            parts = deal_hidden(rng, pool, sizes)
            hands = [tuple(h) for h in self.deal.hands]
            for i, s in enumerate(owners):
                hands[s] = tuple(parts[i])
            script: Script = [
                (s, a if s == seat or isinstance(a, Bet) else again(s)) for s, a in self.history
            ]
            return Deal(tuple(hands), {"stock": tuple(parts[-1])}, self.deal.info), script

        return replay_sample(self, seat, rng, propose)

    def settlement(self) -> tuple[int, ...]:
        scores = [0] * self.seats
        if self.results is None:
            return tuple(scores)
        for seat, (_, _, amount) in zip(self.players, self.results, strict=True):
            scores[seat] += amount
            scores[self.banker] -= amount
        return tuple(scores)

    # -- what each seat sees --------------------------------------------------------

    def locations(self) -> Mapping[str, Sequence[int]]:
        out: dict[str, Sequence[int]] = {f"seat {s}": h for s, h in enumerate(self.hands)}
        out["stock"] = self.stock
        return out

    def visible_hand(self, seat: int | None, owner: int) -> bool:
        """Whether ``seat`` may see ``owner``'s cards now."""
        return self._phase == "over"

    def hidden_from(self, seat: int | None) -> Counter[int]:
        hidden: Counter[int] = Counter(self.stock)
        for owner, hand in enumerate(self.hands):
            if not self.visible_hand(seat, owner):
                hidden.update(hand)
        return hidden

    def seat_view(self, seat: int | None, owner: int) -> JSON:
        out: JSON = {
            "seat": owner,
            "role": "banker" if owner == self.banker else "player",
            "bet": self.bets[owner],
        }
        if self._phase == "over":
            out["cards"], out["reading"] = self.revealed[owner]
        else:
            visible = self.visible_hand(seat, owner)
            out["cards"] = format_cards(self.shown_cards(owner)) if visible else None
        return out

    def _blind_alike(self) -> bool:
        """Whether every seat sees the table's seats alike while the hand is played: where
        :meth:`visible_hand` and :meth:`seat_view` are 宝子's own (nobody sees a card before
        the showdown), not a subclass's that shows a seat its own cards."""
        cls = type(self)
        return cls.visible_hand is BaoziState.visible_hand and cls.seat_view is BaoziState.seat_view

    def view(self, seat: int | None) -> JSON:
        return self.views([seat])[0]

    def views(self, seats: Sequence[int | None]) -> list[JSON]:
        """Each seat's view; what every seat sees alike (the bets' range, the results, the
        seats where no seat sees another's cards) is computed once and shared."""
        low, high = self._bet_range()
        common: JSON = {
            "code": self.game.variant.code,
            "phase": self._phase,
            "seat": None,
            "to_act": sorted(self.to_act()),
            "banker": self.banker,
            "dealing": self.game.dealing,
            "min_bet": low,
            "max_bet": high,
            "seats": None,
        }
        if self.results is not None:
            common["results"] = [
                {"seat": s, "winner": w, "groups": list(g), "amount": a}
                for s, (w, g, a) in zip(self.players, self.results, strict=True)
            ]
            common["settlement"] = list(self.settlement())
        shown = None  # once over, every seat sees every hand alike
        if self._phase == "over" or self._blind_alike():
            shown = [self.seat_view(None, s) for s in range(self.seats)]
        out: list[JSON] = []
        for seat in seats:
            view = dict(common)
            view["seat"] = seat
            view["seats"] = shown or [self.seat_view(seat, s) for s in range(self.seats)]
            out.append(view)
        return out

    def next_context(self) -> JSON:
        """The next hand's banker: the next seat (``rotate``) or the same (``stay``)."""
        if self.game.options["banker_rotation"] == "rotate":
            return {"banker": (self.banker + 1) % self.seats}
        return {"banker": self.banker}


class JiajiabaoState(BaoziState):
    """One 佳佳宝 hand: ``betting``, ``grouping`` (all seats at once), then ``over``."""

    game: JiajiabaoGame

    def __init__(self, game: Game, seats: int, deal: Deal, context: Mapping[str, Any]) -> None:
        super().__init__(game, seats, deal, context)
        self.groups: list[Groups | None] = [None] * seats

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        new = super().__deepcopy__(memo)
        new.groups = list(self.groups)
        return new

    def suggestions(self, seat: int, limit: int = 5, first: Action | None = None) -> list[Action]:
        """推荐分组: the solver's groupings, best expected result first (exact counts); the
        solver is the bot, so ``first`` is not asked for."""
        if seat not in self.to_act() or self.phase != "grouping":
            return []
        return [Group(sc.front, sc.back) for sc in self._ranked_groupings(seat)[:limit]]

    def advice(self, seat: int, limit: int = 5, first: Action | None = None) -> list[JSON]:
        """推荐分组 for a player: each grouping with its two groups' ``readings``
        (``["7点", "对6"]``, front then back) and its ``win``/``push``/``loss`` chances
        and ``expected`` result per unit bet against every hand the others may hold."""
        if seat not in self.to_act() or self.phase != "grouping":
            return []
        ev = self.game.evaluator
        out: list[JSON] = []
        for sc in self._ranked_groupings(seat)[:limit]:
            item = Group(sc.front, sc.back).to_json()
            item["readings"] = [ev.read(sc.front).name, ev.read(sc.back).name]
            item["win"] = round(sc.wins / sc.hands, 4)
            item["push"] = round(sc.pushes / sc.hands, 4)
            item["loss"] = round(sc.losses / sc.hands, 4)
            item["expected"] = round(float(sc.expected), 4)
            out.append(item)
        return out

    def _ranked_groupings(self, seat: int) -> list[GroupingScore]:
        from paiju.games.baozi.solver import Role, solver

        role: Role = "banker" if seat == self.banker else "player"
        scores = solver(self.game.variant).scores(self.hands[seat], role)
        return sorted(scores, key=lambda sc: sc.losses - sc.wins)

    def _waiting(self) -> frozenset[int]:
        if self._phase == "grouping":
            groups = self.groups
            return frozenset([s for s in range(self.seats) if groups[s] is None])
        return super()._waiting()

    def check(self, seat: int, action: Action) -> None:
        if self._phase != "grouping":
            super().check(seat, action)
            return
        self.check_turn(seat)
        if not isinstance(action, Group):
            raise IllegalAction(
                f"phase 'grouping': seat {seat} must split its four cards into two groups "
                f"of two (分组), not {action.type!r}",
                reason="group_now",
            )
        hand = self.hands[seat]
        if _listed(hand, self.game.evaluator, action):
            return  # legal_actions made it of these very cards
        if len(action.first) != 2 or len(action.second) != 2:
            raise IllegalAction(
                f"each group is two cards, got {len(action.first)} and {len(action.second)}; "
                f"your cards are {format_cards(hand)}",
                reason="group_sizes",
                hand=format_cards(hand),
            )
        if sorted(action.first + action.second) != sorted(hand):  # as multisets
            raise IllegalAction(
                f"the groups {format_cards(action.first)} / {format_cards(action.second)} "
                f"are not your four cards {format_cards(hand)}",
                reason="not_your_groups",
                hand=format_cards(hand),
            )

    def legal_actions(self, seat: int) -> Sequence[Action] | None:
        if self._phase == "grouping":
            if seat not in self.to_act():
                return []
            ev = self.game.evaluator
            hand = self.hands[seat]
            out = []
            for first, second in groupings(hand):
                front, back = order_groups(ev, first, second)
                out.append(Group(front, back))
            _LISTED[0] = (hand, ev, tuple(out))
            return out
        return super().legal_actions(seat)

    def _play(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Bet):
            return super()._play(seat, action)
        assert isinstance(action, Group)
        ev = self.game.evaluator
        groups = (
            cast(Groups, (action.first, action.second))  # listed: order_groups' order
            if _listed(self.hands[seat], ev, action)
            else order_groups(ev, action.first, action.second)
        )
        self.groups[seat] = groups
        events: list[Event] = [GroupChosen(seat, groups[0], groups[1]), SeatGrouped(seat)]
        if not self._waiting():
            events += self._showdown()
        return events

    def _after_bets(self) -> list[Event]:
        game = self.game
        order = game.deal_order(self.seats, self.banker)
        events: list[Event] = [Dealt(game.dealing, order, game.cards_each)]
        if game.fixed:
            for s in range(self.seats):
                self.groups[s] = fixed_grouping(game.evaluator, self.hands[s])
            return events + self._showdown()
        events += [CardsSeen(s, self.hands[s]) for s in range(self.seats)]
        self._phase = "grouping"
        return events

    def shown_cards(self, seat: int) -> tuple[Card, ...]:
        groups = self.groups[seat]
        return self.hands[seat] if groups is None else groups[0] + groups[1]

    def reading(self, seat: int) -> str:
        groups = self.groups[seat]
        if groups is None:
            return ""
        ev = self.game.evaluator
        return f"前 {ev.read(groups[0]).name} 后 {ev.read(groups[1]).name}"

    def outcome(self, seat: int) -> tuple[Outcome, tuple[str, ...], int]:
        ev = self.game.evaluator
        mine, banker = self.groups[seat], self.groups[self.banker]
        assert mine is not None and banker is not None
        per = tuple(ev.compare(banker[i], mine[i]) for i in (0, 1))
        return group_winner(per), per, 1

    def visible_hand(self, seat: int | None, owner: int) -> bool:
        if self._phase == "grouping":
            return seat == owner
        return super().visible_hand(seat, owner)

    def seat_view(self, seat: int | None, owner: int) -> JSON:
        out = super().seat_view(seat, owner)
        groups = self.groups[owner]
        if self._phase == "grouping":
            out["grouped"] = groups is not None
            if seat == owner and groups is not None:
                out["groups"] = groups_text(groups)
        elif self._phase == "over" and groups is not None:
            out["groups"] = groups_text(groups)
        return out


def group_winner(per_group: Sequence[Outcome]) -> Outcome:
    """累计赢牌次数: a player who wins both groups wins, loses both loses; else a push."""
    if all(w == "player" for w in per_group):
        return "player"
    if all(w == "banker" for w in per_group):
        return "banker"
    return "push"
