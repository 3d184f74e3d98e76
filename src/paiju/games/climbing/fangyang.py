"""鞍山放羊 (``anshan-fangyang``): four players, one deck, a banker who calls a partner card.

The reading's rules F1-F16 (``rules/readings/anshan-shedding.md``):

* F1 54 cards dealt one at a time from the dealing seat (seat 0 in the first deal, the banker
  later): the dealing seat and its 下家 get 14, the others 13;
* F2, F3 the holder of ♥4 is banker in the first deal, later the previous 头游 (option
  ``next_banker``);
* F4-F6 the banker calls one card of A or lower (叫牌, option ``call_max``) and declares 亮 or
  不亮: a card held by another makes 2 对 2 with its holder, the banker's own card 1 对 3; under
  亮 the holder shows it at once, under 不亮 the sides are known when the card is played;
* F7-F9 单张, 对, 三同张, 四同张 of one rank (jokers never pair); 大王 > 小王 > 3 > 2 > A > … > 4;
* F10 the banker leads; F11/F12 接风 to the 下家 while the sides are unknown, to the partner
  (对家) once they are known; F13 the deal ends when one side is all out, or at once in 亮 1 对 3
  when one of the three goes out first; F15 the payout table (:func:`settle`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from paiju.cards import RANKS, SUITS, Card
from paiju.engine import Action, Deal, Event
from paiju.errors import IllegalAction, ProtocolError
from paiju.fairness import DealRng
from paiju.games.climbing.core import (
    CORE_EVENTS,
    ClimbingGame,
    ClimbingState,
    Combo,
    Pass,
    Play,
    Rules,
    SameRankRules,
    field,
    one_seat,
    seat_list,
)
from paiju.games.climbing.spec import FangyangOptions, FangyangParams
from paiju.sampling import Allowed

__all__ = [
    "Call",
    "Called",
    "FangyangGame",
    "FangyangRules",
    "FangyangState",
    "SidesRevealed",
    "call_verdict",
    "jiefeng",
    "settle",
]

JSON = dict[str, Any]
SEATS = 4
HEART4 = Card.of(4, 1)
RANK_TEXT = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}


class FangyangRules(SameRankRules):
    """F7-F9: one rank only; 4 lowest … A, 2, 3, 小王, 大王; jokers never pair (one deck)."""

    order: ClassVar[tuple[int, ...]] = (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2, 3, 15, 16)
    joker_sizes: ClassVar[frozenset[int]] = frozenset({1})


def card_json(card: int) -> JSON:
    """A card named without its card notation (``{"rank": "K", "suit": "s"}``): the called
    card is public, where it lies is not, so views do not name it as a card."""
    c = Card(card)
    return {"rank": RANK_TEXT.get(c.rank, str(c.rank)), "suit": SUITS[c % 4]}


def callable_ranks(call_max: str = "A") -> list[int]:
    """F4: the ranks the banker may call, 4 up to A (or K): 3, 2 and jokers never."""
    top = 14 if call_max == "A" else 13
    return list(range(4, top + 1))


def call_verdict(card: int, banker_hand: Sequence[int], call_max: str = "A") -> JSON:
    """F4/F5: whether ``card`` may be called and the mode it makes.

    >>> call_verdict(Card.parse("Ks"), [Card.parse("4h")])
    {'allowed': True, 'mode': '2v2'}
    >>> call_verdict(Card.parse("2s"), [])["allowed"]
    False
    """
    c = Card(card)
    if c.is_joker or c.rank not in callable_ranks(call_max):
        top = "A" if call_max == "A" else "K"
        return {
            "allowed": False,
            "mode": None,
            "reason": f"{c} is not callable: call a card from 4 up to {top} "
            "(3, 2 and the jokers rank above A)",
        }
    return {"allowed": True, "mode": "1v3" if c in banker_hand else "2v2"}


def _check_seats(finish_order: Sequence[int]) -> None:
    seen: set[int] = set()
    for s in finish_order:
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < SEATS:
            raise IllegalAction(f"seat {s!r} is out of range 0-3", reason="bad_seat", seat=s)
        if s in seen:
            raise IllegalAction(f"seat {s} appears twice", reason="repeated_seat", seat=s)
        seen.add(s)


def sides(banker: int, partner: int) -> list[int]:
    """Side 0 is the banker's (banker and partner), side 1 the others."""
    return [0 if s in (banker, partner) else 1 for s in range(SEATS)]


def deal_end(finish_order: Sequence[int], banker: int, partner: int, shown: bool) -> int | None:
    """F13: how many entries of ``finish_order`` the deal lasted, None if it is not over."""
    side = sides(banker, partner)
    size = [side.count(0), side.count(1)]
    out = [0, 0]
    for i, s in enumerate(finish_order):
        out[side[s]] += 1
        if out[side[s]] == size[side[s]]:
            return i + 1
        if shown and banker == partner and side[s] == 1:
            return i + 1  # 亮 1 对 3: one of the three out first ends the deal at once
    return None


def settle(
    finish_order: Sequence[int], banker: int, partner: int, shown: bool, base: int = 1
) -> JSON:
    """F15: the payout of a finished deal: ``{"deltas", "result", "pattern", "mode",
    "winner", "breakdown"}``. ``winner`` is the side that won (0 the banker's, 1 the others,
    None for 和); ``breakdown`` how each player's amount is counted: ``units`` of the base
    the text names for the pattern (2v2: AABB 2, ABAB 1, ABBA 0; 1v3: 1 or 0), ``multiplier``
    2 for 亮, the room's ``base``, and ``each`` = units × multiplier × base, what each player
    of the losing side pays (in 1 对 3 the banker pays or gets it from each of the three).

    >>> settle([2, 0], banker=0, partner=2, shown=False)["deltas"]
    [2, -2, 2, -2]
    >>> settle([3], banker=1, partner=1, shown=True)["deltas"]
    [2, -6, 2, 2]
    >>> settle([2, 0], banker=0, partner=2, shown=True)["breakdown"]
    {'units': 2, 'multiplier': 2, 'base': 1, 'each': 4}
    """
    _check_seats(finish_order)
    for name, s in (("banker", banker), ("partner", partner)):
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < SEATS:
            raise IllegalAction(f"{name} seat {s!r} is out of range 0-3", reason="bad_seat")
    end = deal_end(finish_order, banker, partner, shown)
    if end is None:
        raise IllegalAction(
            f"the deal is not over after {list(finish_order)}", reason="deal_not_over"
        )
    order = list(finish_order[:end])
    side = sides(banker, partner)
    mult = 2 if shown else 1
    deltas = [0] * SEATS
    if banker != partner:
        # 2 对 2: A is the side of the first finisher (F14)
        a = side[order[0]]
        letters = "".join("A" if side[s] == a else "B" for s in order)
        pattern = {"AA": "AABB", "ABA": "ABAB"}.get(letters, "ABBA")
        units = {"AABB": 2, "ABAB": 1, "ABBA": 0}[pattern]
        per = units * mult * base
        deltas = [per if side[s] == a else -per for s in range(SEATS)]
        mode = "2v2"
        winner = None if per == 0 else (0 if a == side[banker] else 1)
    else:
        mode = "1v3"
        place = order.index(banker) + 1 if banker in order else None
        if shown:
            # 亮 1 对 3: the banker out first wins double; else the first of the three out
            # ended the deal at once ("B"), and the banker pays double to each
            pattern = "ABBB" if place == 1 else "B"
            per = (1 if place == 1 else -1) * mult * base
        else:
            pattern = {1: "ABBB", 2: "BABB", 3: "BBAB"}.get(place or 4, "BBBA")
            per = {"ABBB": 1, "BABB": 0, "BBAB": 0, "BBBA": -1}[pattern] * base
        units = 0 if per == 0 else 1
        deltas = [3 * per if s == banker else -per for s in range(SEATS)]
        winner = None if per == 0 else (0 if per > 0 else 1)
    return {
        "deltas": deltas,
        "result": "draw" if not any(deltas) else "win",
        "pattern": pattern,
        "mode": mode,
        "winner": winner,
        "breakdown": {"units": units, "multiplier": mult, "base": base, "each": abs(per)},
    }


def jiefeng(
    finisher: int, holding: Sequence[int], banker: int, partner: int, teams_known: bool
) -> int:
    """F11/F12: who leads after ``finisher`` went out with a play nobody beat."""
    if finisher in holding:
        raise IllegalAction(
            f"seat {finisher} is listed as still holding cards", reason="finisher_holding"
        )
    order = [(finisher + k) % SEATS for k in range(1, SEATS)]
    if not teams_known:
        nxt = [s for s in order if s in holding]
    else:
        side = sides(banker, partner)
        nxt = [s for s in order if s in holding and side[s] == side[finisher]]
    if not nxt:
        raise IllegalAction(
            "the finisher's side has nobody left: the deal is over", reason="deal_over"
        )
    return nxt[0]


# ---------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Call(Action):
    """叫牌: the banker names one card (``rank`` 4-A, ``suit`` s h c d) and 亮 or 不亮
    (``shown``). The card is given as rank and suit, not in card notation: it is public,
    where it lies is not."""

    type: ClassVar[str] = "call"
    rank: str
    suit: str
    shown: bool = False

    def __post_init__(self) -> None:
        self.card()  # a malformed rank or suit is a ProtocolError when the message is made

    def card(self) -> Card:
        """The called card; raises ProtocolError for a bad rank or suit."""
        rank = "T" if self.rank == "10" else self.rank.upper()
        if rank not in RANKS or self.suit not in SUITS:
            raise ProtocolError(
                f"call: rank {self.rank!r} must be 2-10, J, Q, K or A and suit {self.suit!r}"
                " one of s h c d"
            )
        return Card.of(RANKS.index(rank) + 2, SUITS.index(self.suit))

    @classmethod
    def of(cls, card: int, shown: bool = False) -> Call:
        j = card_json(card)
        return cls(j["rank"], j["suit"], shown)


@dataclass(frozen=True)
class Called(Event):
    """The banker ``seat`` called the card ``rank``/``suit``, 亮 (``shown``) or not."""

    type: ClassVar[str] = "called"
    seat: int
    rank: str
    suit: str
    shown: bool


@dataclass(frozen=True)
class SidesRevealed(Event):
    """The sides are known: ``partner`` holds the called card (the banker in 1 对 3);
    ``played`` when its being played revealed it, not 亮."""

    type: ClassVar[str] = "sides_revealed"
    partner: int
    mode: str
    played: bool


# ------------------------------------------------------------------------------- game


class FangyangGame(ClimbingGame[FangyangParams]):
    """鞍山放羊: room options ``base``, ``quads_beat_all``, ``must_beat``, ``next_banker``,
    ``call_max`` (see :mod:`paiju.games.climbing.spec`)."""

    family: ClassVar[str] = "fangyang"
    params_model = FangyangParams
    options_model = FangyangOptions
    actions: ClassVar[tuple[type[Action], ...]] = (Call, Play, Pass)
    events: ClassVar[tuple[type[Event], ...]] = (*CORE_EVENTS, Called, SidesRevealed)

    def make_rules(self) -> Rules:
        return FangyangRules(bombs=bool(self.options["quads_beat_all"]))

    @staticmethod
    def carried_banker(context: Mapping[str, Any]) -> int | None:
        banker = context.get("banker")
        valid = isinstance(banker, int) and not isinstance(banker, bool) and 0 <= banker < SEATS
        return banker if valid else None

    def deal(self, seats: int, rng: DealRng, context: Mapping[str, Any]) -> Deal:
        banker = self.carried_banker(context)
        dealer = 0 if banker is None else banker
        cards = rng.shuffled(self.full_set())
        hands: list[list[int]] = [[] for _ in range(seats)]
        for i, c in enumerate(cards):
            hands[(dealer + i) % seats].append(c)
        if banker is None:
            banker = next(s for s in range(seats) if HEART4 in hands[s])
        return Deal(tuple(tuple(h) for h in hands), {}, {"banker": banker, "dealer": dealer})

    def check_deal(self, seats: int, deal: Deal) -> None:
        super().check_deal(seats, deal)
        sizes = [len(h) for h in deal.hands]
        if sorted(sizes) != [13, 13, 14, 14]:
            raise ProtocolError(f"deal: two seats hold 14 cards and two 13 (F1), got {sizes}")

    def start(self, seats: int, deal: Deal, context: Mapping[str, Any]) -> FangyangState:
        return FangyangState(self, seats, deal, context)

    def call_json(self, card: str, hand: str) -> JSON:
        cards = self.read_cards(card, "CARD")
        if len(cards) != 1:
            raise IllegalAction(f"CARD must be one card, got {card!r}", reason="bad_input")
        held = self.read_cards(hand, "BANKER_HAND")
        return call_verdict(cards[0], held, str(self.options["call_max"]))

    def settle_json(self, obj: Mapping[str, Any]) -> JSON:
        """``{"finish_order", "banker", "partner", "shown", "base"}`` (base optional)."""
        order = seat_list(obj, "finish_order", SEATS)
        banker = one_seat(obj, "banker", SEATS)
        partner = one_seat(obj, "partner", SEATS)
        shown = field(obj, "shown", bool)
        base = field(obj, "base", int, 1)
        if base < 1:
            raise IllegalAction(f"base must be at least 1, got {base}", reason="bad_field")
        return settle(order, banker, partner, shown, base)

    def jiefeng_json(self, obj: Mapping[str, Any]) -> JSON:
        """``{"finisher", "holding", "banker", "partner", "teams_known"}`` -> leader."""
        finisher = one_seat(obj, "finisher", SEATS)
        holding = seat_list(obj, "holding", SEATS)
        banker = one_seat(obj, "banker", SEATS)
        partner = one_seat(obj, "partner", SEATS)
        known = field(obj, "teams_known", bool)
        side = sides(banker, partner)
        if finisher not in holding:
            for t in (0, 1):
                if not any(side[s] == t for s in holding):
                    raise IllegalAction(
                        "one side has nobody holding cards: the deal is over",
                        reason="deal_over",
                    )
        return {"leader": jiefeng(finisher, holding, banker, partner, known)}


class FangyangState(ClimbingState):
    """One deal of 鞍山放羊: ``calling`` (the banker's call), ``playing``, ``over``."""

    game: FangyangGame
    search_samples: ClassVar[int | None] = 96
    """A rollout of the rest of a deal takes about a millisecond, so a search affords more
    worlds than the default 48; 96 keeps a decision's p99 under a second of CPU
    (``bench/hard_budget.py``)."""

    def __init__(
        self, game: FangyangGame, seats: int, deal: Deal, context: Mapping[str, Any]
    ) -> None:
        super().__init__(game, seats, deal, context)
        banker = deal.info.get("banker")
        if not (isinstance(banker, int) and 0 <= banker < seats):
            carried = game.carried_banker(context)
            banker = carried if carried is not None else self.holder(HEART4)
        self.banker: int = banker
        self.called: int | None = None
        self.shown = False
        self.partner: int | None = None
        self.revealed = False
        self._phase = "calling"
        self.turn = self.leader = banker

    def holder(self, card: int) -> int:
        return next(s for s in range(self.seats) if card in self.hands[s])

    # -- the call (叫牌) ------------------------------------------------------------------

    def check_other(self, seat: int, action: Action) -> None:
        if not isinstance(action, Call):
            super().check_other(seat, action)
            return
        if self._phase != "calling":
            raise IllegalAction(
                f"the card was called already (phase {self._phase!r})",
                reason="wrong_phase",
                phase=self._phase,
            )
        card = action.card()
        verdict = call_verdict(card, self.hands[seat], str(self.game.options["call_max"]))
        if not verdict["allowed"]:
            raise IllegalAction(
                verdict["reason"],
                reason="not_callable",
                rank=action.rank,
                suit=action.suit,
                max=self.game.options["call_max"],
            )

    def apply_other(self, seat: int, action: Action) -> list[Event]:
        assert isinstance(action, Call)
        card = action.card()
        self.called, self.shown = card, action.shown
        self.partner = self.holder(card)
        events: list[Event] = [Called(seat, action.rank, action.suit, action.shown)]
        if action.shown:
            self.revealed = True
            self.exposed_of(self.partner)[card] += 1  # 亮: the holder shows the card
            events.append(SidesRevealed(self.partner, self.mode or "", False))
        return events + self.start_play(self.banker)

    def legal_other(self, seat: int) -> list[Action]:
        if self._phase != "calling":
            return []
        ranks = callable_ranks(str(self.game.options["call_max"]))
        return [
            Call.of(Card.of(r, s), shown)
            for shown in (False, True)
            for r in ranks
            for s in range(4)
        ]

    @property
    def mode(self) -> str | None:
        """``2v2`` or ``1v3`` once the card is called (the truth, known or not)."""
        if self.partner is None:
            return None
        return "1v3" if self.partner == self.banker else "2v2"

    @property
    def teams_known(self) -> bool:
        """Everyone knows the sides: 亮, or the called card has been played."""
        return self.revealed

    def on_play(self, seat: int, combo: Combo) -> list[Event]:
        if self.called is not None and not self.revealed and self.called in combo.cards:
            self.revealed = True
            assert self.partner is not None
            return [SidesRevealed(self.partner, self.mode or "", True)]
        return []

    def resample_allowed(self, seat: int, owners: Sequence[int]) -> Allowed:
        """F2: in a first deal the banker holds ♥4 (it was made banker by it)."""
        if self.game.carried_banker(self.context) is None and self.banker in owners:
            return {HEART4: frozenset({owners.index(self.banker)})}
        return {}

    # -- hooks ------------------------------------------------------------------------

    def team_of(self, seat: int) -> int:
        if self.partner is None:
            return 0 if seat == self.banker else 1
        return sides(self.banker, self.partner)[seat]

    def knows_sides(self, viewer: int | None) -> bool:
        """Whether ``viewer`` knows every seat's side: the sides are public, or the viewer
        holds the called card (its holder in 2 对 2, the banker in 1 对 3)."""
        if self.partner is None:
            return False
        return self.revealed or viewer == self.partner

    def teams_known_to(self, viewer: int | None) -> list[int | None]:
        if self.partner is None:
            return [0 if s == self.banker else None for s in range(self.seats)]
        if self.knows_sides(viewer) or self._phase == "over":
            # the end shows every hand: the sides are no secret once the deal is over
            every: list[int | None] = list(sides(self.banker, self.partner)[: self.seats])
            return every
        known: list[int | None] = [None] * self.seats
        known[self.banker] = 0
        if viewer is not None and viewer != self.banker:
            known[viewer] = 1  # it does not hold the card, so it is not the banker's partner
        return known

    def jiefeng(self, finisher: int) -> int:
        assert self.partner is not None
        holding = [s for s in range(self.seats) if self.in_play(s)]
        return jiefeng(finisher, holding, self.banker, self.partner, self.teams_known)

    def deal_over(self) -> bool:
        assert self.partner is not None
        return deal_end(self.finished, self.banker, self.partner, self.shown) is not None

    def outcome(self) -> JSON:
        assert self.partner is not None
        return settle(
            self.finished, self.banker, self.partner, self.shown, int(self.game.options["base"])
        )

    def settlement(self) -> tuple[int, ...]:
        if self._phase != "over":
            return (0,) * self.seats
        return tuple(self.outcome()["deltas"])

    def next_context(self) -> JSON:
        rule = self.game.options["next_banker"]
        if rule == "heart4" or not self.finished:
            return {}
        if rule == "rotate":
            return {"banker": (self.banker + 1) % self.seats}
        return {"banker": self.finished[0]}

    def view_extra(self, viewer: int | None) -> JSON:
        known = self.knows_sides(viewer) or self._phase == "over"
        return {
            "banker": self.banker,
            "called": None if self.called is None else card_json(self.called),
            "shown": None if self.called is None else self.shown,
            "teams_known": self.revealed,
            "mode": self.mode if known else None,
            "partner": self.partner if known else None,
            "callable": (
                [
                    card_json(Card.of(r, 0))["rank"]
                    for r in callable_ranks(str(self.game.options["call_max"]))
                ]
                if self._phase == "calling"
                else None
            ),
        }

    def result_json(self) -> JSON:
        out = self.outcome()
        return {
            "settlement": out["deltas"],
            "result": out["result"],
            "pattern": out["pattern"],
            "mode": out["mode"],
            "winner": out["winner"],
            "breakdown": out["breakdown"],
        }
