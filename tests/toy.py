"""A tiny game used to test the protocol, the harness and the CLI independently of families.

High card (比大小): each seat gets 3 cards; all seats stake 1-3 at once (hidden until all
have staked); then in seat order each plays one card face up; the highest rank wins every
other seat's stake. It has a simultaneous phase, a sequential phase, private hands,
events with audiences, and a two-hand match (the first player rotates).

Flags on the variant's params make deliberately broken versions, so tests can prove that
the harness catches what it must (a leak, a lost card, a non-zero-sum settlement, a state
that changes on a rejected action, a later hand with no way out).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from paiju.cards import Card, CardList, format_cards
from paiju.engine import Action, Deal, Event, Game, PrivateEvent, State
from paiju.errors import IllegalAction
from paiju.fairness import DealRng

TOY_TOML = """
[[variant]]
code = "toy"
name_zh = "比大小玩具"
name_en = "Toy high card"
family = "toy"
players = [2, 4]
deck = "52"
rules_zh = "每人三张，比大。"
rules_en = "Three cards each; stake 1-3; highest card played wins the stakes."

[[variant]]
code = "toy-leaky"
name_zh = "漏牌玩具"
name_en = "Toy that leaks"
family = "toy"
players = [2, 4]
deck = "52"
params = { leak = true }

[[variant]]
code = "toy-lossy"
name_zh = "丢牌玩具"
name_en = "Toy that loses a card"
family = "toy"
players = [2, 4]
deck = "52"
params = { lose_card = true }

[[variant]]
code = "toy-unfair"
name_zh = "不平玩具"
name_en = "Toy that does not balance"
family = "toy"
players = [2, 4]
deck = "52"
params = { unbalanced = true }

[[variant]]
code = "toy-sloppy"
name_zh = "乱改玩具"
name_en = "Toy that mutates before checking"
family = "toy"
players = [2, 4]
deck = "52"
params = { mutate_before_check = true }

[[variant]]
code = "toy-stuck"
name_zh = "卡死玩具"
name_en = "Toy that freezes in a later hand"
family = "toy"
players = [2, 4]
deck = "52"
params = { stuck_later = true }
"""


class ToyParams(BaseModel):
    """The toy's params: flags that break it on purpose."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    leak: bool = False
    lose_card: bool = False
    unbalanced: bool = False
    mutate_before_check: bool = False
    stuck_later: bool = False
    """From the second hand of a match on, the seat to play has no legal action."""


@dataclass(frozen=True)
class Stake(Action):
    type: ClassVar[str] = "stake"
    amount: int


@dataclass(frozen=True)
class Play(Action):
    type: ClassVar[str] = "play"
    card: CardList


@dataclass(frozen=True)
class Staked(Event):
    """Seat staked (amount public only once everyone has)."""

    type: ClassVar[str] = "staked"
    seat: int


@dataclass(frozen=True)
class Played(Event):
    type: ClassVar[str] = "played"
    seat: int
    card: CardList


@dataclass(frozen=True)
class YourCards(PrivateEvent):
    type: ClassVar[str] = "your_cards"
    cards: CardList


class ToyGame(Game):
    family = "toy"
    match_default = 2
    actions = (Stake, Play)
    events = (Staked, Played, YourCards)

    def deal(self, seats: int, rng: DealRng, context: Mapping[str, Any]) -> Deal:
        cards = rng.shuffled(self.full_set())
        hands = tuple(tuple(cards[3 * s : 3 * s + 3]) for s in range(seats))
        return Deal(hands, {"stock": tuple(cards[3 * seats :])})

    def start(self, seats: int, deal: Deal, context: Mapping[str, Any]) -> State:
        return ToyState(self, seats, deal, context)


class ToyState(State):
    game: ToyGame

    def __init__(self, game: ToyGame, seats: int, deal: Deal, context: Mapping[str, Any]):
        super().__init__(game, seats, deal, context)
        self.flags: dict[str, bool] = dict(game.variant.params)
        self.hands = [list(h) for h in deal.hands]
        self.stock = list(deal.piles["stock"])
        self.stakes: dict[int, int] = {}
        self.played: dict[int, Card] = {}
        self.first = int(context.get("first", 0)) % seats

    @property
    def phase(self) -> str:
        if len(self.stakes) < self.seats:
            return "staking"
        return "playing" if len(self.played) < self.seats else "over"

    def to_act(self) -> frozenset[int]:
        if self.phase == "staking":
            return frozenset(s for s in range(self.seats) if s not in self.stakes)
        if self.phase == "playing":
            return frozenset({(self.first + len(self.played)) % self.seats})
        return frozenset()

    def legal_actions(self, seat: int) -> Sequence[Action]:
        if self.phase == "staking":
            return [Stake(a) for a in (1, 2, 3)]
        if self.flags.get("stuck_later") and self.first > 0:
            return []
        return [Play((c,)) for c in sorted(self.hands[seat])]

    def check(self, seat: int, action: Action) -> None:
        if self.flags.get("mutate_before_check"):
            self.stock.reverse()
        if isinstance(action, Stake):
            if self.phase != "staking":
                raise IllegalAction("the stakes are in; play a card")
            if action.amount not in (1, 2, 3):
                raise IllegalAction(f"stake 1, 2 or 3, not {action.amount}")
        elif isinstance(action, Play):
            if self.phase != "playing":
                raise IllegalAction("stake first")
            if len(action.card) != 1 or action.card[0] not in self.hands[seat]:
                raise IllegalAction(
                    f"play one card of your hand ({format_cards(sorted(self.hands[seat]))})"
                )

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Stake):
            self.stakes[seat] = action.amount
            return [Staked(seat)]
        assert isinstance(action, Play)
        card = action.card[0]
        self.hands[seat].remove(card)
        if self.flags.get("lose_card") and len(self.played) == 0:
            self.hands[seat].clear()
        self.played[seat] = card
        return [Played(seat, (card,))]

    def view(self, seat: int | None) -> dict[str, Any]:
        visible = self.phase != "staking"
        out: dict[str, Any] = {
            "code": self.game.variant.code,
            "phase": self.phase,
            "seat": seat,
            "to_act": sorted(self.to_act()),
            "stakes": [
                self.stakes.get(s) if visible else (s in self.stakes) for s in range(self.seats)
            ],
            "played": {str(s): str(c) for s, c in self.played.items()},
        }
        if seat is not None:
            out["hand"] = format_cards(sorted(self.hands[seat]))
        if self.flags.get("leak") and seat is not None:
            out["next"] = format_cards(self.hands[(seat + 1) % self.seats])
        if self.is_over:
            out["settlement"] = list(self.settlement())
        return out

    def winner(self) -> int:
        return max(self.played, key=lambda s: (self.played[s].rank, -s))

    def settlement(self) -> tuple[int, ...]:
        if not self.is_over:
            return (0,) * self.seats
        win = self.winner()
        scores = [-self.stakes[s] if s != win else 0 for s in range(self.seats)]
        scores[win] = -sum(scores) + (1 if self.flags.get("unbalanced") else 0)
        return tuple(scores)

    def locations(self) -> Mapping[str, Sequence[int]]:
        out: dict[str, Sequence[int]] = {f"hand{s}": h for s, h in enumerate(self.hands)}
        out["stock"] = self.stock
        out["played"] = list(self.played.values())
        return out

    def hidden_from(self, seat: int | None) -> Counter[int]:
        hidden: Counter[int] = Counter(self.stock)
        for s, hand in enumerate(self.hands):
            if s != seat:
                hidden.update(hand)
        return hidden

    def next_context(self) -> dict[str, Any]:
        return {"first": (self.first + 1) % self.seats}
