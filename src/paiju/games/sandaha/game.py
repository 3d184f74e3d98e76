"""三打哈 through the Game protocol: deal, 叫分, 底牌, 定主, 21 tricks, settlement.

One hand runs through the phases ``bidding`` (叫分, one seat at a time), ``burying`` (the
declarer 庄家 has taken the 8-card kitty 底牌 and buries 8), ``naming`` (the declarer names a
trump suit or 无主), ``playing`` (21 tricks, the declarer leads the first) and ``over``.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, ClassVar

from paiju.cards import CardList, format_cards, unplayed_by_rank
from paiju.engine import Action, Deal, Event, Game, PrivateEvent, State
from paiju.errors import IllegalAction
from paiju.fairness import DealRng
from paiju.games.sandaha import rules
from paiju.games.sandaha.rules import (
    NO_TRUMP,
    TRUMP_NAMES,
    Component,
    as_cards,
    decompose,
    order,
)
from paiju.games.sandaha.spec import SandahaParams
from paiju.sampling import ResampleFailed, Script, deal_hidden, replay_sample

__all__ = [
    "Bid",
    "Bury",
    "NameTrump",
    "Pass",
    "Play",
    "SandahaGame",
    "SandahaState",
    "is_changzhu",
    "settle",
]

JSON = dict[str, Any]

# ----------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Bid(Action):
    """叫分: offer to hold the defenders under ``points`` (the 庄分)."""

    type: ClassVar[str] = "bid"
    points: int


@dataclass(frozen=True)
class Pass(Action):
    """不叫: give up bidding for this hand (失去当局叫分权)."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Bury(Action):
    """扣底: the declarer puts 8 cards back as the kitty."""

    type: ClassVar[str] = "bury"
    cards: CardList


@dataclass(frozen=True)
class NameTrump(Action):
    """定主: the declarer names the trump suit ``s h c d`` or ``none`` (无主, 全常主)."""

    type: ClassVar[str] = "name_trump"
    trump: str


@dataclass(frozen=True)
class Play(Action):
    """出牌: a lead (single, pair, tractor, or a throw 甩牌 of trumps) or a follow."""

    type: ClassVar[str] = "play"
    cards: CardList


# ------------------------------------------------------------------------------ events


@dataclass(frozen=True)
class BidMade(Event):
    type: ClassVar[str] = "bid_made"
    seat: int
    points: int


@dataclass(frozen=True)
class BidPassed(Event):
    type: ClassVar[str] = "bid_passed"
    seat: int


@dataclass(frozen=True)
class DeclarerChosen(Event):
    """叫分结束: ``seat`` is declarer (庄家) with ``bid`` as 庄分."""

    type: ClassVar[str] = "declarer_chosen"
    seat: int
    bid: int


@dataclass(frozen=True)
class KittyTaken(PrivateEvent):
    """The declarer takes the kitty (底牌), seen by the declarer only."""

    type: ClassVar[str] = "kitty_taken"
    cards: CardList


@dataclass(frozen=True)
class KittyBuried(PrivateEvent):
    """The declarer buried 8 cards (the cards seen by the declarer only)."""

    type: ClassVar[str] = "kitty_buried"
    cards: CardList


@dataclass(frozen=True)
class TrumpNamed(Event):
    type: ClassVar[str] = "trump_named"
    seat: int
    trump: str


@dataclass(frozen=True)
class ThrowFailed(Event):
    """甩牌失败: ``seat`` tried to throw ``tried`` but ``blocked_by`` can beat a part of it;
    the thrower plays ``forced``, the smallest beatable component, instead."""

    type: ClassVar[str] = "throw_failed"
    seat: int
    tried: CardList
    forced: CardList
    blocked_by: int


@dataclass(frozen=True)
class Played(Event):
    type: ClassVar[str] = "played"
    seat: int
    cards: CardList


@dataclass(frozen=True)
class TrickWon(Event):
    """A trick is complete: ``seat`` won it with ``points`` in it."""

    type: ClassVar[str] = "trick_won"
    seat: int
    points: int


@dataclass(frozen=True)
class KittyRevealed(Event):
    """The hand is over: the kitty shown to all, and what 抠底 added to the defenders."""

    type: ClassVar[str] = "kitty_revealed"
    cards: CardList
    points: int
    multiplier: int
    bonus: int


# ------------------------------------------------------------------------------- rules


def is_changzhu(card: int) -> bool:
    """常主: a joker, a 2 or a 7 (trumps whatever suit is named)."""
    return card >= 52 or card // 4 + 2 in (2, 7)


@dataclass(frozen=True)
class Outcome:
    """The settlement of a hand: its tier and the per-defender amount (negative = pays)."""

    tier: str
    per_defender: int

    def scores(self, declarer: int, seats: int) -> tuple[int, ...]:
        return tuple(
            -self.per_defender * (seats - 1) if s == declarer else self.per_defender
            for s in range(seats)
        )


def settle(points: int, bid: int, stake: int, rule: str, p: SandahaParams) -> Outcome:
    """积分计算公式: the tier of the defenders' ``points`` against the 庄分 ``bid``.

    >>> settle(120, 50, 10, "rule1", SandahaParams())
    Outcome(tier='defenders_big', per_defender=30)
    >>> settle(0, 50, 10, "rule2", SandahaParams())
    Outcome(tier='declarer_big', per_defender=-60)
    """
    if points >= bid:
        margin = points - bid
        if margin >= p.big_margin:
            return Outcome("defenders_big", 3 * stake)
        if margin >= p.small_margin:
            return Outcome("defenders_small", 2 * stake)
        return Outcome("defenders_win", stake)
    double = 2 if rule == "rule2" else 1
    if points < p.big_shutout_below:
        return Outcome("declarer_big", -3 * stake * double)
    if points <= p.small_shutout_upto:
        return Outcome("declarer_small", -2 * stake * double)
    return Outcome("declarer_win", -stake * double)


def kitty_multiplier(lead: Sequence[Component]) -> int:
    """抠底倍数 of the last trick's play: single x1, pair x2, tractor of n pairs x2n,
    a throw x its number of cards."""
    if len(lead) > 1:
        return sum(len(c.cards) for c in lead)
    return max(1, 2 * lead[0].pairs)


# -------------------------------------------------------------------------------- game


MAX_STAKE = 10_000
"""The largest 底注 a room may set: every settlement stays far inside the ledger's 64-bit
integers."""


class SandahaGame(Game[SandahaParams]):
    """三打哈 (three against one): room options ``stake`` (底注) and ``rule`` (rule1/rule2)."""

    family: ClassVar[str] = "sandaha"
    params_model = SandahaParams
    actions: ClassVar[tuple[type[Action], ...]] = (Bid, Pass, Bury, NameTrump, Play)
    events: ClassVar[tuple[type[Event], ...]] = (
        BidMade,
        BidPassed,
        DeclarerChosen,
        KittyTaken,
        KittyBuried,
        TrumpNamed,
        ThrowFailed,
        Played,
        TrickWon,
        KittyRevealed,
    )

    def validate_options(self, options: dict[str, Any]) -> Mapping[str, Any]:
        p = self.params
        unknown = set(options) - {"stake", "rule"}
        if unknown:
            raise IllegalAction(
                f"{self.variant.code} room options are stake and rule, not {', '.join(unknown)}",
                reason="unknown_option",
                options=sorted(unknown),
            )
        stake = options.get("stake", p.default_stake)
        if not isinstance(stake, int) or isinstance(stake, bool) or not 1 <= stake <= MAX_STAKE:
            raise IllegalAction(
                f"stake (底注) must be a whole number 1-{MAX_STAKE}, got {stake!r}",
                reason="option_out_of_range",
                option="stake",
                min=1,
                max=MAX_STAKE,
            )
        rule = options.get("rule", p.default_rule)
        if rule not in ("rule1", "rule2"):
            raise IllegalAction(
                f"rule must be rule1 (规则一) or rule2 (双进单出), got {rule!r}",
                reason="bad_option",
                option="rule",
                value=str(rule),
            )
        return {"stake": stake, "rule": rule}

    def deal(self, seats: int, rng: DealRng, context: Mapping[str, Any]) -> Deal:
        p = self.params
        cards = rng.shuffled(self.full_set())
        n = p.hand_size
        hands = tuple(tuple(sorted(cards[i * n : (i + 1) * n])) for i in range(seats))
        kitty = tuple(sorted(cards[seats * n :]))
        first = context.get("first_bidder")
        if not isinstance(first, int) or not 0 <= first < seats:
            first = rng.randbelow(seats)
        return Deal(hands, {"kitty": kitty}, {"first_bidder": first})

    def start(self, seats: int, deal: Deal, context: Mapping[str, Any]) -> SandahaState:
        return SandahaState(self, seats, deal, context)


# ------------------------------------------------------------------------------- state


_NOBODY: frozenset[int] = frozenset()
_ONLY: tuple[frozenset[int], ...] = tuple(frozenset({seat}) for seat in range(8))
"""``to_act`` of one seat, made once (it is asked several times a step)."""


_MADE: list[tuple[Play, list[int], list[Component], int] | None] = [None]
"""In its one place, the follow :meth:`SandahaState.random_action` made last, with the hand
(a copy), the lead and the trump it was made for: ``rules.build_follow`` makes a legal
follow, so that play is not checked again on that hand and that lead (a random playout's
step, on a clone of the state that made it)."""


class SandahaState(State):
    """One hand of 三打哈."""

    game: SandahaGame
    search_samples: ClassVar[int | None] = 40
    """40 worlds keep a 困难 decision's p99 under a second of CPU (``bench/hard_budget.py``)."""
    search_unchecked: ClassVar[bool] = True
    """The rule bot picks among the legal plays only."""

    def __init__(
        self, game: SandahaGame, seats: int, deal: Deal, context: Mapping[str, Any]
    ) -> None:
        super().__init__(game, seats, deal, context)
        self.params = game.params
        first = deal.info.get("first_bidder", 0)
        self.first_bidder = first if isinstance(first, int) and 0 <= first < seats else 0
        self.hands: list[list[int]] = [sorted(h) for h in deal.hands]
        self.kitty: list[int] = sorted(deal.piles.get("kitty", ()))
        self._phase = "bidding"
        self.turn = self.first_bidder
        self.bids: list[tuple[int, int | None]] = []
        self.passed: set[int] = set()
        self.bid: int | None = None
        self.bid_holder: int | None = None
        self.declarer: int | None = None
        self.kitty_taken = False
        self.trump: int | None = None
        self.trick: list[tuple[int, tuple[int, ...]]] = []
        self.lead: list[Component] = []
        self.throw_failed: ThrowFailed | None = None
        self.last_trick: list[tuple[int, tuple[int, ...]]] = []
        self.winners: list[int] = []
        """The winner of every finished trick (of :attr:`tricks`): the trick history."""
        self.taken: tuple[int, ...] = ()
        """The kitty the declarer picked up (底牌), marked in its hand until it buries."""
        self.last_winner: int | None = None
        self.played: list[int] = []
        self.exposed: list[Counter[int]] = [Counter() for _ in range(seats)]
        self.tricks_won: list[int] = [0] * seats
        self.tricks: list[list[tuple[int, tuple[int, ...]]]] = []
        """Every finished trick, plays in order (public: everyone saw them)."""
        self.card_points = 0
        self.kitty_points = 0
        self.multiplier = 0
        self.kitty_bonus = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> SandahaState:
        """A fast independent copy for :meth:`clone`: the mutable containers are copied,
        everything else (deal, params, frozen actions and components, cards) is shared
        because it is immutable. A new mutable field must be copied here too."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.context = dict(self.context)
        new.history = list(self.history)
        new.hands = [list(h) for h in self.hands]
        new.kitty = list(self.kitty)
        new.bids = list(self.bids)
        new.passed = set(self.passed)
        new.trick = list(self.trick)
        new.lead = list(self.lead)
        new.last_trick = list(self.last_trick)
        new.winners = list(self.winners)
        new.played = list(self.played)
        # the counters are shared: a change replaces a seat's counter, never changes it
        new.exposed = list(self.exposed)
        new.tricks_won = list(self.tricks_won)
        new.tricks = list(self.tricks)
        return new

    # -- protocol ---------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self._phase

    def to_act(self) -> frozenset[int]:
        return _NOBODY if self._phase == "over" else _ONLY[self.turn]

    @property
    def defenders_points(self) -> int:
        """闲家得分: card points the defenders won, plus the 抠底 bonus."""
        return self.card_points + self.kitty_bonus

    def defenders(self) -> list[int]:
        return [s for s in range(self.seats) if s != self.declarer]

    def apply(self, seat: int, action: Action) -> list[Event]:
        """:meth:`State.apply`; a play (most actions) is checked and applied at once, its
        turn checked once."""
        if type(action) is Play:
            self.check_turn(seat, action)
            self._check_play(seat, action)
            return self._logged(seat, action, self._apply_play(seat, action))
        return super().apply(seat, action)

    def check(self, seat: int, action: Action) -> None:
        self.check_turn(seat)
        if isinstance(action, Bid | Pass):
            self._check_bidding(seat, action)
        elif isinstance(action, Bury):
            self._check_bury(seat, action)
        elif isinstance(action, NameTrump):
            self._check_name(action)
        elif isinstance(action, Play):
            self._check_play(seat, action)
        else:
            raise IllegalAction(
                f"{type(action).__name__} is not a 三打哈 action", reason="not_an_action"
            )

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Bid | Pass):
            return self._apply_bidding(seat, action)
        if isinstance(action, Bury):
            return self._apply_bury(seat, action)
        if isinstance(action, NameTrump):
            return self._apply_name(seat, action)
        assert isinstance(action, Play)
        return self._apply_play(seat, action)

    # -- bidding (叫分) -------------------------------------------------------------------

    def changzhu(self, seat: int) -> int:
        """How many 常主 (王, 2, 7) a seat holds."""
        return sum(1 for c in self.hands[seat] if is_changzhu(c))

    def bid_range(self) -> list[int]:
        """The bids allowed now, highest first."""
        p = self.params
        top = p.bid_start if self.bid is None else self.bid - p.bid_step
        return list(range(top, p.min_bid - 1, -p.bid_step))

    def must_bid(self, seat: int) -> int | None:
        """The 7-常主 duty: the highest bid ``seat`` may make now if it may not pass."""
        p = self.params
        if self.changzhu(seat) < p.changzhu_duty:
            return None
        if self.bid is None or self.bid > p.duty_bid:
            allowed = self.bid_range()
            return allowed[0] if allowed else None
        return None

    def _check_bidding(self, seat: int, action: Bid | Pass) -> None:
        if self._phase != "bidding":
            raise IllegalAction(
                f"bidding is over (phase {self._phase!r})", reason="not_now", what="bid"
            )
        p = self.params
        duty = self.must_bid(seat)
        if isinstance(action, Pass):
            if duty is not None:
                raise IllegalAction(
                    f"you hold {self.changzhu(seat)} 常主 (王, 2, 7): with "
                    f"{p.changzhu_duty} or more you may not pass until someone bids "
                    f"{p.duty_bid}; bid {duty} or lower",
                    reason="must_bid",
                    count=self.changzhu(seat),
                    max=duty,
                )
            return
        allowed = self.bid_range()
        if action.points not in allowed:
            if not allowed:
                raise IllegalAction("no lower bid is possible: pass", reason="no_lower_bid")
            raise IllegalAction(
                f"bid {action.points} is not allowed: bid {allowed[0]} or lower in steps of "
                f"{p.bid_step}, down to {p.min_bid}",
                reason="bid_not_allowed",
                points=str(action.points),
                max=allowed[0],
                step=p.bid_step,
                min=p.min_bid,
            )

    def _next_bidder(self, seat: int) -> int | None:
        for step in range(1, self.seats + 1):
            s = (seat + step) % self.seats
            if s not in self.passed:
                return s
        return None

    def _apply_bidding(self, seat: int, action: Bid | Pass) -> list[Event]:
        events: list[Event] = []
        if isinstance(action, Bid):
            self.bids.append((seat, action.points))
            self.bid, self.bid_holder = action.points, seat
            events.append(BidMade(seat, action.points))
        else:
            self.bids.append((seat, None))
            self.passed.add(seat)
            events.append(BidPassed(seat))
        active = [s for s in range(self.seats) if s not in self.passed]
        if self.bid_holder is not None and (active == [self.bid_holder] or not self.bid_range()):
            events += self._start_declarer(self.bid_holder, self.bid or 0)
        elif not active:
            events += self._start_declarer(self.first_bidder, self.params.bid_start)
        else:
            nxt = self._next_bidder(seat)
            assert nxt is not None
            self.turn = nxt
        return events

    def _start_declarer(self, seat: int, bid: int) -> list[Event]:
        self.declarer, self.bid = seat, bid
        self.hands[seat] = sorted(self.hands[seat] + self.kitty)
        taken = tuple(self.kitty)
        self.taken = taken
        self.kitty = []
        self.kitty_taken = True
        self._phase = "burying"
        self.turn = seat
        return [DeclarerChosen(seat, bid), KittyTaken(seat, as_cards(taken))]

    # -- kitty and trump (扣底, 定主) -----------------------------------------------------

    def _check_bury(self, seat: int, action: Bury) -> None:
        if self._phase != "burying":
            raise IllegalAction(
                f"no burying now (phase {self._phase!r})", reason="not_now", what="bury"
            )
        size = self.params.kitty_size
        if len(action.cards) != size:
            raise IllegalAction(
                f"bury exactly {size} cards, not {len(action.cards)}",
                reason="bury_count",
                size=size,
                n=len(action.cards),
            )
        missing = Counter[int](action.cards) - Counter(self.hands[seat])
        if missing:
            held = format_cards(sorted(missing.elements()))
            raise IllegalAction(f"you do not hold {held}", reason="not_held", cards=held)

    def _apply_bury(self, seat: int, action: Bury) -> list[Event]:
        rest = Counter(self.hands[seat])
        rest.subtract(action.cards)
        self.hands[seat] = sorted(rest.elements())
        self.kitty = sorted(action.cards)
        self._phase = "naming"
        return [KittyBuried(seat, as_cards(self.kitty))]

    def _check_name(self, action: NameTrump) -> None:
        if self._phase != "naming":
            raise IllegalAction(
                f"no trump to name now (phase {self._phase!r})", reason="not_now", what="name"
            )
        if action.trump not in TRUMP_NAMES:
            raise IllegalAction(
                f"trump {action.trump!r}: name s, h, c, d (黑桃 红桃 梅花 方块) or none (无主)",
                reason="bad_trump",
            )

    def _apply_name(self, seat: int, action: NameTrump) -> list[Event]:
        self.trump = TRUMP_NAMES.index(action.trump)
        self._phase = "playing"
        self.turn = seat
        return [TrumpNamed(seat, action.trump)]

    # -- tricks -------------------------------------------------------------------------

    @property
    def trump_index(self) -> int:
        return NO_TRUMP if self.trump is None else self.trump

    def _holds(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        if all(hand.count(c) >= cards.count(c) for c in cards):  # no Counters: every play
            return
        missing = Counter(cards) - Counter(hand)
        if missing:
            held = format_cards(sorted(missing.elements()))
            raise IllegalAction(f"you do not hold {held}", reason="not_held", cards=held)

    def _check_play(self, seat: int, action: Play) -> None:
        if self._phase != "playing":
            raise IllegalAction(
                f"no card play now (phase {self._phase!r})", reason="not_now", what="play"
            )
        cards = action.cards
        if not cards:
            raise IllegalAction("play at least one card", reason="play_something")
        t = self.trump_index
        made = _MADE[0]
        if (
            made is not None
            and made[0] is action
            and self.trick
            and made[3] == t
            and self.hands[seat] == made[1]
            and self.lead == made[2]
        ):
            return  # the follow random_action built for this hand and this lead: legal
        self._holds(seat, cards)
        if not self.trick:
            suits = rules.effective_suits(cards, t)
            if len(suits) != 1:
                raise IllegalAction(
                    "a lead must be of one suit (trumps count as one suit): "
                    f"{format_cards(cards)} mixes {len(suits)}",
                    reason="lead_one_suit",
                    cards=format_cards(cards),
                )
            comps = decompose(cards, t)
            if len(comps) > 1 and suits != {rules.TRUMP}:
                raise IllegalAction(
                    "只能甩主牌: only trumps may be thrown; lead one single, pair or tractor "
                    f"of a side suit, not {' + '.join(str(c) for c in comps)}",
                    reason="only_trumps_throw",
                )
            return
        error = rules.follow_error(self.hands[seat], cards, self.lead, t)
        if error is not None:
            raise error

    def _remove(self, seat: int, cards: Sequence[int]) -> None:
        rest = list(self.hands[seat])
        for c in cards:  # held: _holds checked it
            rest.remove(c)
        rest.sort()
        self.hands[seat] = rest
        if self.exposed[seat]:  # cards shown by a failed throw (rarely any): a new counter,
            self.exposed[seat] = self.exposed[seat] - Counter(cards)  # a clone may share it
        self.played.extend(cards)

    def _apply_play(self, seat: int, action: Play) -> list[Event]:
        t = self.trump_index
        o = order(t)
        cards = tuple(sorted(action.cards, key=o.strength, reverse=True))
        events: list[Event] = []
        if not self.trick:
            self.throw_failed = None
            comps = decompose(cards, t)
            if len(comps) > 1:
                others = [
                    ((seat + k) % self.seats, self.hands[(seat + k) % self.seats])
                    for k in range(1, self.seats)
                ]
                blockers = rules.throw_blockers(comps, others, t)
                if blockers:
                    forced = rules.forced_component([c for _, c in blockers])
                    by = next(s for s, c in blockers if c == forced)
                    failed = ThrowFailed(seat, cards, forced.cards, by)
                    self.throw_failed = failed
                    shown: Counter[int] = Counter(cards)
                    shown.subtract(forced.cards)
                    # cards shown twice are still held once; a new counter (a clone may
                    # share this one)
                    self.exposed[seat] = self.exposed[seat] | +shown
                    events.append(failed)
                    cards = forced.cards
                    comps = [forced]
            self.lead = comps
        self._remove(seat, cards)
        self.trick.append((seat, cards))
        events.append(Played(seat, cards))
        if len(self.trick) < self.seats:
            self.turn = (seat + 1) % self.seats
            return events
        return events + self._finish_trick()

    def _finish_trick(self) -> list[Event]:
        t = self.trump_index
        winner = rules.trick_winner(self.trick, t)
        points = rules.points_of(c for _, cs in self.trick for c in cs)
        self.tricks_won[winner] += 1
        if winner != self.declarer:
            self.card_points += points
        events: list[Event] = [TrickWon(winner, points)]
        self.last_trick, self.last_winner = self.trick, winner
        self.winners.append(winner)
        self.tricks.append(self.trick)
        last_lead = self.lead
        winning = dict(self.trick)[winner]
        self.trick, self.lead = [], []
        self.turn = winner
        if any(self.hands):
            return events
        self.kitty_points = rules.points_of(self.kitty)
        trumps_won = all(order(t).suit[c] == rules.TRUMP for c in winning)
        if winner != self.declarer and trumps_won:
            self.multiplier = kitty_multiplier(last_lead)
            self.kitty_bonus = self.kitty_points * self.multiplier
        self._phase = "over"
        events.append(
            KittyRevealed(
                as_cards(self.kitty), self.kitty_points, self.multiplier, self.kitty_bonus
            )
        )
        return events

    # -- sampling what a seat cannot see ---------------------------------------------

    def played_by(self, seat: int) -> list[int]:
        """The cards ``seat`` has played (public: every trick is shown)."""
        return [
            c for trick in (*self.tricks, self.trick) for s, cs in trick if s == seat for c in cs
        ]

    def voids(self) -> dict[int, set[int]]:
        """Seat -> the effective suits it has shown it holds no more of: it followed a lead
        with fewer cards of the led suit than were led (必须跟同花色)."""
        out: dict[int, set[int]] = {s: set() for s in range(self.seats)}
        if self.trump is None:
            return out
        suit = order(self.trump_index).suit
        for trick in (*self.tricks, self.trick):
            if not trick:
                continue
            _, lead = trick[0]
            led = suit[lead[0]]
            for s, cs in trick[1:]:
                if sum(1 for c in cs if suit[c] == led) < len(lead):
                    out[s].add(led)
        return out

    def _follows(self, seats: Sequence[int]) -> list[list[tuple[list[Component], tuple[int, ...]]]]:
        """For each of ``seats``, its follows of this hand, latest first: (the lead's
        components, the cards it played to them)."""
        if self.trump is None:
            return [[] for _ in seats]
        t = self.trump_index
        out: list[list[tuple[list[Component], tuple[int, ...]]]] = [[] for _ in seats]
        for trick in (*self.tricks, self.trick):
            if not trick:
                continue
            lead = self.lead if trick is self.trick else decompose(trick[0][1], t)
            for who, cards in trick[1:]:
                if who in seats:
                    out[seats.index(who)].insert(0, (list(lead), tuple(cards)))
        return out

    def _follow_checks(
        self, follows: list[tuple[list[Component], tuple[int, ...]]], seat: int
    ) -> dict[int, list[tuple[tuple[int, ...], tuple[int, ...], list[Component]]]]:
        """The follows of ``seat`` (latest first, as :meth:`_follows` gives them) that a
        hand could break, by the led suit, each as (the cards of that suit the seat is
        known to have held then: shown, and played to that follow and the later ones, the
        play, the lead's components). Whether a follow was possible depends on the led
        suit's cards in the hand only; a full follow in suit to singles always was, so it is
        left out."""
        out: dict[int, list[tuple[tuple[int, ...], tuple[int, ...], list[Component]]]] = {}
        if not follows:
            return out
        o = order(self.trump_index)
        held = Counter(self.exposed[seat])
        for lead, play in follows:  # latest trick first: the hand grows back
            held.update(play)
            led = o.suit[lead[0].cards[0]]
            n = sum(len(c.cards) for c in lead)
            in_suit = sum(1 for c in play if o.suit[c] == led)
            if len(play) == n and in_suit == n and all(c.pairs == 0 for c in lead):
                continue
            known = tuple(sorted(c for c in held.elements() if o.suit[c] == led))
            out.setdefault(led, []).append((known, play, lead))
        return out

    def duty_caps(self) -> dict[int, int]:
        """Seat -> the most 常主 its dealt hand can have held: a seat that passed while the
        7-常主 duty held it to bidding held fewer than the duty's count (有7张常主（王、2和7）
        必须叫到70分或者以下)."""
        p = self.params
        caps: dict[int, int] = {}
        bid: int | None = None
        for who, points in self.bids:
            if points is not None:
                bid = points
            elif bid is None or bid > p.duty_bid:
                caps[who] = p.changzhu_duty - 1
        return caps

    def resample(self, seat: int, rng: random.Random) -> SandahaState:
        """The hand again with the other hands and the kitty (unless ``seat`` has seen it)
        dealt anew: hand sizes, cards played and shown (a failed throw) kept, no card of a
        suit a seat has shown void in, each follow possible from the hand then held, no
        more 常主 in a seat's dealt hand than its passing allowed, and the declarer's
        buried kitty chosen again from its cards; see :meth:`paiju.engine.State.resample`."""
        if self._phase == "over":
            return self.clone()
        others = [s for s in range(self.seats) if s != seat]
        kitty_hidden = not self.sees_kitty(seat)
        sizes = [len(self.hands[s]) - sum(self.exposed[s].values()) for s in others]
        if kitty_hidden:
            sizes.append(len(self.kitty))
        pool = sorted(self.hidden_from(seat).elements())
        voids = self.voids()
        suit = order(self.trump_index).suit
        allowed = {
            c: frozenset(i for i, s in enumerate(others) if suit[c] not in voids[s])
            | ({len(others)} if kitty_hidden else set())
            for c in set(pool)
            if any(suit[c] in voids[s] for s in others)
        }
        public = {s: [*self.played_by(s), *self.exposed[s].elements()] for s in others}
        d = self.declarer
        follows = self._follows(others)
        caps = self.duty_caps()
        split_later = d if kitty_hidden and self.kitty_taken else None
        room = {  # place -> the 常主 its part may hold
            i: caps[s] - sum(1 for c in public[s] if is_changzhu(c))
            for i, s in enumerate(others)
            if s in caps and s != split_later
        }
        joint: tuple[int, int] | None = None  # the declarer's place, the 常主 it and the kitty hold
        if split_later is not None and split_later in caps:
            shown = sum(1 for c in public[split_later] if is_changzhu(c))
            joint = (others.index(split_later), caps[split_later] + self.params.kitty_size - shown)

        judged: dict[tuple[int, tuple[int, ...]], bool] = {}
        zhu = frozenset(c for c in pool if is_changzhu(c))
        checks = [self._follow_checks(follows[i], others[i]) for i in range(len(others))]
        followed: dict[tuple[int, int, tuple[int, ...]], bool] = {}

        def seat_fits(i: int, part: tuple[int, ...]) -> bool:
            """Whether seat ``others[i]``, holding ``part`` now (with what it has shown),
            could have followed as it did (a seat that played no pair to a led pair held
            none in the suit, say) and passed as it did."""
            if i in room and len([c for c in part if c in zhu]) > room[i]:
                return False
            t = self.trump_index
            for led, suit_follows in checks[i].items():
                own = tuple(sorted([c for c in part if suit[c] == led]))
                key = (i, led, own)
                ok = followed.get(key)
                if ok is None:  # the follows to a suit rest on that suit's cards only
                    ok = all(
                        rules.follow_error([*own, *known], play, lead, t) is None
                        for known, play, lead in suit_follows
                    )
                    followed[key] = ok
                if not ok:
                    return False
            return True

        def fits(parts: list[list[int]]) -> bool:
            """:func:`seat_fits` for every seat (remembered: a search changes one part at a
            time), and a declarer that passed under the duty left a kitty to draw that keeps
            its dealt hand within it; monotone, so it also cuts a partial deal."""
            if joint is not None:
                i, most = joint
                if len([c for part in (parts[i], parts[-1]) for c in part if c in zhu]) > most:
                    return False
            for i in range(len(others)):
                key = (i, tuple(parts[i]))
                if key not in judged:
                    judged[key] = not parts[i] or seat_fits(i, key[1])
                if not judged[key]:
                    return False
            return True

        def propose(rng: random.Random) -> tuple[Deal, Script]:
            parts = deal_hidden(rng, pool, sizes, allowed, accept=fits, prune=fits, exact=True)
            hands = [list(h) for h in self.deal.hands]
            for i, s in enumerate(others):
                hands[s] = sorted(public[s] + parts[i])
            kitty = list(self.deal.piles.get("kitty", ()))
            script: Script = list(self.history)
            if kitty_hidden and not self.kitty_taken:
                kitty = sorted(parts[-1])
            elif kitty_hidden and d is not None:
                buried = parts[-1] if self._phase != "burying" else []
                whole = sorted(hands[d] + buried)
                kitty = self._kitty_again(rng, whole, caps.get(d))
                rest = Counter(whole)
                rest.subtract(kitty)
                hands[d] = sorted(rest.elements())
                if buried:
                    at = next(i for i, (_, a) in enumerate(script) if isinstance(a, Bury))
                    script[at] = (d, Bury(as_cards(sorted(buried))))
            deal = Deal(tuple(tuple(h) for h in hands), {"kitty": tuple(kitty)}, self.deal.info)
            return deal, script

        return replay_sample(self, seat, rng, propose)

    def _kitty_again(self, rng: random.Random, whole: list[int], cap: int | None) -> list[int]:
        """The kitty the declarer picked up, drawn again from ``whole`` (its dealt hand and
        the kitty): uniform over the draws that leave the dealt hand at most ``cap`` 常主
        (the declarer passed under the duty when every seat passed), by the hypergeometric
        count of 常主 in the kitty, then which ones."""
        size = self.params.kitty_size
        if cap is None:
            return sorted(rng.sample(whole, size))
        zhu = [c for c in whole if is_changzhu(c)]
        rest = [c for c in whole if not is_changzhu(c)]
        low = max(len(zhu) - cap, size - len(rest), 0)
        counts = list(range(low, min(len(zhu), size) + 1))
        if not counts:
            raise ResampleFailed("the declarer's dealt hand cannot have been passed")
        weights = [math.comb(len(zhu), k) * math.comb(len(rest), size - k) for k in counts]
        (k,) = rng.choices(counts, weights)
        return sorted(rng.sample(zhu, k) + rng.sample(rest, size - k))

    # -- results --------------------------------------------------------------------------

    def outcome(self) -> Outcome:
        stake = int(self.game.options["stake"])
        rule = str(self.game.options["rule"])
        return settle(self.defenders_points, self.bid or 0, stake, rule, self.params)

    def settlement(self) -> tuple[int, ...]:
        if self._phase != "over" or self.declarer is None:
            return (0,) * self.seats
        return self.outcome().scores(self.declarer, self.seats)

    def lost_by_declarer(self) -> bool:
        """下庄: the defenders took at least the 庄分."""
        return self.bid is not None and self.defenders_points >= self.bid

    def next_context(self) -> JSON:
        if self.declarer is None:
            return {"first_bidder": self.first_bidder}
        if self.lost_by_declarer():
            return {"first_bidder": (self.declarer + 1) % self.seats}
        return {"first_bidder": self.declarer}

    # -- what each seat sees -----------------------------------------------------------------

    def locations(self) -> Mapping[str, Sequence[int]]:
        places: dict[str, Sequence[int]] = {f"hand {s}": self.hands[s] for s in range(self.seats)}
        places["kitty"] = self.kitty
        places["played"] = self.played
        return places

    def sees_kitty(self, seat: int | None) -> bool:
        return self._phase == "over" or (
            seat is not None and seat == self.declarer and self.kitty_taken
        )

    def hidden_from(self, seat: int | None) -> Counter[int]:
        hidden: Counter[int] = Counter()
        for s in range(self.seats):
            if s != seat:
                hidden.update(self.hands[s])
                hidden.subtract(self.exposed[s])
        if not self.sees_kitty(seat):
            hidden.update(self.kitty)
        return +hidden

    def sorted_cards(self, cards: Sequence[int]) -> list[int]:
        """Cards grouped for display: trumps (常主 before trump is named) first, then ♠ ♥ ♣ ♦,
        each high to low."""
        if self.trump is None:
            return sorted(
                cards, key=lambda c: (not is_changzhu(c), c % 4 * (not is_changzhu(c)), -c)
            )
        o = order(self.trump)
        return sorted(cards, key=lambda c: (-(o.suit[c] == rules.TRUMP), o.suit[c], -o.level[c], c))

    def group_label(self, card: int) -> str:
        """The display group of a card: ``主`` (trumps), ``常主`` before trump is named, or
        its suit symbol."""
        if self.trump is None:
            return "常主" if is_changzhu(card) else "♠♥♣♦"[card % 4]
        suit = order(self.trump).suit[card]
        return "主" if suit == rules.TRUMP else "♠♥♣♦"[suit]

    def _text(self, cards: Sequence[int]) -> str:
        return format_cards(self.sorted_cards(cards))

    def view(self, seat: int | None) -> JSON:
        return self.views([seat])[0]

    def views(self, seats: Sequence[int | None]) -> list[JSON]:
        """Each seat's view; what every seat sees alike (the bids, the tricks, the played
        cards, the result) is computed once and shared."""
        common = self._common_view()
        kitty = self._text(self.kitty)
        out: list[JSON] = []
        for seat in seats:
            view = dict(common)
            view["seat"] = seat
            view["hand"] = None if seat is None else self._text(self.hands[seat])
            view["kitty"] = kitty if self.sees_kitty(seat) else None
            if seat is not None and seat == self.declarer and self._phase == "burying":
                view["taken"] = format_cards(self.taken)  # the kitty just picked up, marked
            if seat is not None and self._phase == "bidding" and seat == self.turn:
                view["changzhu"] = self.changzhu(seat)
                view["must_bid"] = self.must_bid(seat)
            out.append(view)
        return out

    def _common_view(self) -> JSON:
        """The fields of a view every seat sees alike, in the view's order (the seat's own
        fields ``seat``, ``hand`` and ``kitty`` held by None)."""
        out: JSON = {
            "code": self.game.variant.code,
            "phase": self._phase,
            "seat": None,
            "to_act": sorted(self.to_act()),
            "hand": None,
            "hand_sizes": [len(h) for h in self.hands],
            "first_bidder": self.first_bidder,
            "bids": [{"seat": s, "bid": b} for s, b in self.bids],
            "bid": self.bid,
            "declarer": self.declarer,
            "trump": None if self.trump is None else TRUMP_NAMES[self.trump],
            "trick": [{"seat": s, "cards": format_cards(cs)} for s, cs in self.trick],
            "last_trick": [{"seat": s, "cards": format_cards(cs)} for s, cs in self.last_trick],
            "last_winner": self.last_winner,
            "tricks": [
                {"winner": w, "plays": [{"seat": s, "cards": format_cards(cs)} for s, cs in t]}
                for w, t in zip(self.winners, self.tricks, strict=True)
            ],
            "throw_failed": None if self.throw_failed is None else self.throw_failed.to_json(),
            "defenders_points": self.defenders_points,
            "played": format_cards(self.played),
            "unplayed": unplayed_by_rank(self.game.full_set(), self.played),
            "kitty": None,
            "kitty_size": len(self.kitty),
            "stake": self.game.options["stake"],
            "rule": self.game.options["rule"],
        }
        if self._phase == "over":
            outcome = self.outcome()
            out["result"] = {
                "card_points": self.card_points,
                "kitty_points": self.kitty_points,
                "multiplier": self.multiplier,
                "kitty_bonus": self.kitty_bonus,
                "tier": outcome.tier,
                "settlement": list(self.settlement()),
            }
        return out

    # -- legal actions ------------------------------------------------------------------

    def legal_actions(self, seat: int) -> Sequence[Action] | None:
        if seat not in self.to_act():
            return []
        if self._phase == "bidding":
            acts: list[Action] = [Bid(b) for b in self.bid_range()]
            if self.must_bid(seat) is None:
                acts.insert(0, Pass())
            return acts
        if self._phase == "naming":
            return [NameTrump(name) for name in TRUMP_NAMES]
        return None

    advised_by_bot = True

    def suggestions(self, seat: int, limit: int = 5, first: Action | None = None) -> list[Action]:
        """提示: the family bot's choice ``first`` (the cards to lead, follow or bury, or a
        bid); where the legal actions are few (bidding, naming trump) the others follow.
        None when the seat does not act. The bot decides from the seat's own cards and
        plain view."""
        if seat not in self.to_act():
            return []
        out: list[Action] = [] if first is None else [first]
        for action in self.legal_actions(seat) or []:
            if len(out) >= limit:
                break
            if action not in out:
                out.append(action)
        return out

    def random_action(self, seat: int, rng: random.Random) -> Action:
        legal = self.legal_actions(seat)
        if legal:
            return rng.choice(list(legal))
        hand = self.hands[seat]
        if self._phase == "burying":
            return Bury(as_cards(rng.sample(hand, self.params.kitty_size)))
        if self._phase != "playing":
            raise IllegalAction(
                f"seat {seat} has no action in phase {self._phase!r}", reason="no_action_left"
            )
        t = self.trump_index
        if not self.trick:
            return Play(as_cards(rng.choice(lead_options(hand, t))))
        keys = {c: rng.random() for c in set(hand)}
        play = Play(tuple(rules.build_follow(hand, self.lead, t, keys.__getitem__)))
        _MADE[0] = (play, list(hand), list(self.lead), t)
        return play


def lead_options(hand: Sequence[int], trump: int) -> list[tuple[int, ...]]:
    """The simple leads of a hand: every distinct single, pair and tractor per suit."""
    o = order(trump)
    by_suit: dict[int, list[int]] = {}
    for c in hand:
        by_suit.setdefault(o.suit[c], []).append(c)
    options: list[tuple[int, ...]] = [(c,) for c in sorted(set(hand))]
    level = o.level
    for cards in by_suit.values():
        pairs = rules.pairs_in(cards)
        options += [(c, c) for c in pairs]
        if len(pairs) < 2:
            continue  # a tractor is two pairs or more
        levels = sorted({level[c] for c in pairs})
        if any(b == a + 1 for a, b in pairwise(levels)):  # else no two pairs chain
            options += [comp.cards for comp in rules.tractors(cards, trump)]
    return options
