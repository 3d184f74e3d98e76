"""鞍山甲乙丙 (``anshan-jiayibing``): six players, two decks, teams 甲乙丙 against A C B.

The reading's rules J1-J13 (``rules/readings/anshan-shedding.md``):

* J1 two decks (108 cards), 18 cards each, dealt one at a time from seat 0;
* J2 seats 甲 A 乙 C 丙 B: seats 0, 2, 4 are one team (甲乙丙), 1, 3, 5 the other;
* J3-J5 单张, 对, 三同张, 四同张 of one rank; 大王 > 小王 > 2 > A > … > 3; a joker pairs only
  with the same joker (:class:`JiayibingRules`);
* J6, J7 same kind and higher rank beats; passing is free (options ``quads_beat_all``,
  ``must_beat``);
* J8, J9 the special 3 (特殊3) drawn at random and shown to all: its holder leads the first
  deal; later deals the previous 头游 (options ``special3``, ``next_lead``);
* J10 接风 to the next seat still holding cards (下家), whichever team;
* J11 the deal ends when one team has all three players out;
* J12 the payout (:func:`settle`, option ``payout``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from paiju.cards import Card
from paiju.engine import Deal
from paiju.errors import IllegalAction, ProtocolError
from paiju.fairness import DealRng
from paiju.games.climbing.core import (
    ClimbingGame,
    ClimbingState,
    Rules,
    SameRankRules,
    field,
    one_seat,
    seat_list,
)
from paiju.games.climbing.spec import JiayibingOptions, JiayibingParams

__all__ = ["JiayibingGame", "JiayibingRules", "JiayibingState", "jiefeng", "settle"]

JSON = dict[str, Any]
SEATS = 6
HAND = 18
TEAM_ZH = ("甲乙丙", "ACB")
SUIT_TEXT = "shcd"


class JiayibingRules(SameRankRules):
    """J3-J6: one rank only; 3 lowest … A, 2, 小王, 大王 highest; jokers pair with the same."""

    order: ClassVar[tuple[int, ...]] = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2, 15, 16)


def team(seat: int) -> int:
    """J2: team 0 (甲乙丙) holds the even seats, team 1 (A C B) the odd ones."""
    return seat % 2


def jiefeng(finisher: int, holding: Sequence[int], seats: int = SEATS) -> int:
    """J10: the 下家, the first seat after ``finisher`` still holding cards."""
    for k in range(1, seats):
        s = (finisher + k) % seats
        if s in holding:
            return s
    raise IllegalAction(
        "nobody holds cards any more: the deal is over", reason="deal_over", finisher=finisher
    )


def completed(finish_order: Sequence[int]) -> int | None:
    """J11: the team whose three players are all out, or None while the deal goes on."""
    for t in (0, 1):
        if sum(1 for s in finish_order if team(s) == t) == SEATS // 2:
            return t
    return None


def deal_prefix(finish_order: Sequence[int]) -> list[int]:
    """The finishing order up to the end of the deal (later entries are ignored)."""
    out: list[int] = []
    for s in finish_order:
        out.append(s)
        if completed(out) is not None:
            return out
    return out


def settle(finish_order: Sequence[int], base: int = 1, payout: str = "first-team") -> JSON:
    """J12: ``{"deltas", "result", "winner", "first_team", "completed", "caught",
    "breakdown"}`` of a deal; ``breakdown``: ``units`` of the base each winner gets (the
    opponents caught, or catalog-v1's 1 or 2), the room's ``base`` and ``each`` = units × base.

    >>> settle([0, 2, 4])["deltas"]
    [3, -3, 3, -3, 3, -3]
    >>> settle([0, 1, 3, 5])["result"]
    'draw'
    """
    seen: set[int] = set()
    for s in finish_order:
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < SEATS:
            raise IllegalAction(f"seat {s!r} is out of range 0-5", reason="bad_seat", seat=s)
        if s in seen:
            raise IllegalAction(f"seat {s} appears twice", reason="repeated_seat", seat=s)
        seen.add(s)
    order = deal_prefix(finish_order)
    done = completed(order)
    if done is None:
        raise IllegalAction(
            f"the deal is not over after {list(finish_order)}: no team has all three out",
            reason="deal_not_over",
        )
    first = team(order[0])
    caught = SEATS // 2 - sum(1 for s in order if team(s) != done)
    if payout == "catalog-v1":
        winner: int | None = done
        amount = 2 if caught == SEATS // 2 else 1
    elif payout == "team-out":
        winner, amount = done, caught
    else:
        winner, amount = (done, caught) if done == first else (None, 0)
    deltas = [0] * SEATS
    if winner is not None:
        deltas = [amount * base if team(s) == winner else -amount * base for s in range(SEATS)]
    return {
        "deltas": deltas,
        "result": "draw" if winner is None else "win",
        "winner": winner,
        "first_team": first,
        "completed": done,
        "caught": caught,
        "breakdown": {
            "units": 0 if winner is None else amount,
            "base": base,
            "each": 0 if winner is None else amount * base,
        },
    }


class JiayibingGame(ClimbingGame[JiayibingParams]):
    """鞍山甲乙丙: room options ``base``, ``quads_beat_all``, ``must_beat``, ``special3``,
    ``next_lead``, ``payout`` (see :mod:`paiju.games.climbing.spec`)."""

    family: ClassVar[str] = "jiayibing"
    params_model = JiayibingParams
    options_model = JiayibingOptions

    def make_rules(self) -> Rules:
        return JiayibingRules(bombs=bool(self.options["quads_beat_all"]))

    def draws_special3(self, context: Mapping[str, Any]) -> bool:
        """J8/J9: the first deal (no leader carried) or every deal under ``next_lead``."""
        leader = context.get("leader")
        valid = isinstance(leader, int) and 0 <= leader < SEATS
        return not valid or self.options["next_lead"] == "special3"

    def deal(self, seats: int, rng: DealRng, context: Mapping[str, Any]) -> Deal:
        full = self.full_set()
        order = rng.shuffled(range(len(full)))
        hands: list[list[int]] = [[] for _ in range(seats)]
        owner: dict[int, int] = {}
        for i, idx in enumerate(order):
            owner[idx] = i % seats
            hands[i % seats].append(full[idx])
        info: dict[str, int | str] = {}
        if self.draws_special3(context):
            if self.options["special3"] == "instance":
                threes = [idx for idx, c in enumerate(full) if c < 52 and c // 4 + 2 == 3]
                pick = rng.choice(threes)
                card, copy, holder = full[pick], pick // 54 + 1, owner[pick]
            else:
                card = Card.of(3, rng.randbelow(4))
                copy, holder = 1, next(owner[idx] for idx in order if full[idx] == card)
            info = {"special3": str(Card(card)), "special3_copy": copy, "special3_holder": holder}
        return Deal(tuple(tuple(h) for h in hands), {}, info)

    def check_deal(self, seats: int, deal: Deal) -> None:
        super().check_deal(seats, deal)
        sizes = [len(h) for h in deal.hands]
        if sizes != [HAND] * seats:
            raise ProtocolError(f"deal: every seat holds {HAND} cards (J1), got {sizes}")

    def start(self, seats: int, deal: Deal, context: Mapping[str, Any]) -> JiayibingState:
        return JiayibingState(self, seats, deal, context)

    def settle_json(self, obj: Mapping[str, Any]) -> JSON:
        """``{"finish_order": [...], "base": 1}`` (``payout`` optional: a room option)."""
        order = seat_list(obj, "finish_order", SEATS)
        base = field(obj, "base", int, 1)
        if base < 1:
            raise IllegalAction(f"base must be at least 1, got {base}", reason="bad_field")
        payout = field(obj, "payout", str, self.options["payout"])
        if payout not in ("first-team", "team-out", "catalog-v1"):
            raise IllegalAction(f"unknown payout {payout!r}", reason="bad_field")
        return settle(order, base, payout)

    def jiefeng_json(self, obj: Mapping[str, Any]) -> JSON:
        """``{"finisher": s, "holding": [...]}`` -> ``{"leader": seat}``."""
        finisher = one_seat(obj, "finisher", SEATS)
        holding = seat_list(obj, "holding", SEATS)
        if finisher in holding:
            raise IllegalAction(
                f"the finisher {finisher} is listed as still holding cards",
                reason="finisher_holding",
            )
        for t in (0, 1):
            if not any(team(s) == t for s in holding):
                raise IllegalAction(
                    f"team {TEAM_ZH[t]} has nobody holding cards: the deal is over",
                    reason="deal_over",
                )
        return {"leader": jiefeng(finisher, holding)}


class JiayibingState(ClimbingState):
    """One deal of 鞍山甲乙丙."""

    game: JiayibingGame
    search_samples: ClassVar[int | None] = 40
    """Six seats make long rollouts: 40 worlds keep a decision's p99 under a second of CPU
    (``bench/hard_budget.py``)."""

    def __init__(
        self, game: JiayibingGame, seats: int, deal: Deal, context: Mapping[str, Any]
    ) -> None:
        super().__init__(game, seats, deal, context)
        self.special3: int | None = None
        self.special3_copy = 1
        holder = deal.info.get("special3_holder")
        if isinstance(holder, int) and 0 <= holder < seats and "special3" in deal.info:
            self.special3 = Card.parse(str(deal.info["special3"]))
            copy = deal.info.get("special3_copy", 1)
            self.special3_copy = copy if isinstance(copy, int) else 1
            leader = holder
        elif game.draws_special3(context):
            # a deal given without the draw (tests, a table set by hand): the first 3 found
            # in the order ♥ ♠ ♣ ♦, seats 0-5, is the special 3
            self.special3, leader = next(
                (Card.of(3, suit), s)
                for suit in (1, 0, 2, 3)
                for s in range(seats)
                if Card.of(3, suit) in self.hands[s]
            )
        else:
            leader = int(context["leader"])
        self.special3_holder = leader if self.special3 is not None else None
        if self.special3 is not None:
            self.exposed_of(leader)[self.special3] += 1  # shown to all (J8)
        self.start_play(leader)

    # -- hooks ------------------------------------------------------------------------

    def team_of(self, seat: int) -> int:
        return team(seat)

    def teams_known_to(self, viewer: int | None) -> list[int | None]:
        """J2: the teams are the seats' parity, known to everyone (asked at every step of a
        bot's play)."""
        return [s % 2 for s in range(self.seats)]

    def jiefeng(self, finisher: int) -> int:
        return jiefeng(finisher, [s for s in range(self.seats) if self.in_play(s)], self.seats)

    def deal_over(self) -> bool:
        return completed(self.finished) is not None

    def outcome(self) -> JSON:
        return settle(self.finished, int(self.game.options["base"]), self.game.options["payout"])

    def settlement(self) -> tuple[int, ...]:
        if self._phase != "over":
            return (0,) * self.seats
        return tuple(self.outcome()["deltas"])

    def next_context(self) -> JSON:
        if not self.finished:
            return dict(self.context)
        return {"leader": self.finished[0]}

    def view_extra(self, viewer: int | None) -> JSON:
        special: JSON | None = None
        if self.special3 is not None:
            c = Card(self.special3)
            special = {
                "rank": "3",
                "suit": SUIT_TEXT[c % 4],
                "copy": self.special3_copy,
                "holder": self.special3_holder,
            }
        return {"special3": special, "team_names": list(TEAM_ZH)}

    def result_json(self) -> JSON:
        out = self.outcome()
        return {
            "settlement": out["deltas"],
            "result": out["result"],
            "winner": out["winner"],
            "first_team": out["first_team"],
            "completed": out["completed"],
            "caught": out["caught"],
            "breakdown": out["breakdown"],
        }
