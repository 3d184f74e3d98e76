"""十三张 through the Game protocol: deal, arrange (摆牌) or declare, showdown (比牌), settle.

One hand: 13 cards to each of 2-4 seats; phase ``arranging``, where every seat that has not
acted is in :meth:`~ShisanzhangState.to_act` at once (simultaneous decisions). A seat acts
once, with

* :class:`Arrange` - its three rows, front (头墩, 3 cards), middle (中墩, 5), back (尾墩, 5);
  a decreasing arrangement is allowed and loses as 倒水;
* :class:`Declare` - it shows its special hand instead of arranging (报到). Where the code's
  special hands are 免摆 (1302, 1305, 1306), a seat holding one may only Declare; in 1304
  (绍兴13张1, 不摆牌) every seat's only action is Declare (开牌: showing the hand).

Until every seat has acted, a view shows other seats only as ready or not (no cards, no
rows). Then the phase is ``over`` and the view carries the public ``showdown``: every hand,
every pair's row results, 打枪/全垒打, bonuses, specials and the settlement.

Room options (:meth:`ShisanzhangGame.validate_options`): ``scoring`` (where the code offers
several, e.g. 1301/1303 ``points`` or ``majority``), ``stake`` (注, a positive int that
multiplies every score) and, in banker games, ``favoured`` (the banker-favoured comparison).
A banker game's banker is ``context["banker"]``; :meth:`~ShisanzhangState.next_context`
rotates it.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from itertools import chain, combinations
from operator import attrgetter
from typing import Any, ClassVar, Final, cast

from paiju.cards import Card, CardList, format_cards
from paiju.catalog import Variant
from paiju.engine import JSON, Action, Deal, Event, Game, State
from paiju.errors import IllegalAction
from paiju.fairness import DealRng
from paiju.games.shisanzhang.rows import RowRules, arrangement_values, row_value
from paiju.games.shisanzhang.showdown import (
    Hand,
    Showdown,
    arranged,
    declared,
    display_text,
    settle,
    shown_texts,
)
from paiju.games.shisanzhang.spec import Scoring, ShisanzhangParams
from paiju.games.shisanzhang.specials import Special, best_specials
from paiju.sampling import Script, deal_hidden, replay_sample

__all__ = [
    "Arrange",
    "Bet",
    "BetPlaced",
    "BetsShown",
    "Declare",
    "Ready",
    "Revealed",
    "ShisanzhangGame",
    "ShisanzhangState",
    "greedy_arrangement",
    "sort_hand",
]

MAX_STAKE = 10_000


@dataclass(frozen=True)
class Arrange(Action):
    """摆牌: the seat's three rows, front (头墩) 3 cards, middle (中墩) 5, back (尾墩) 5."""

    type: ClassVar[str] = "arrange"
    front: CardList
    middle: CardList
    back: CardList


@dataclass(frozen=True)
class Declare(Action):
    """报到 / 免摆 / 开牌: the seat shows its special hand instead of arranging."""

    type: ClassVar[str] = "declare"


@dataclass(frozen=True)
class Bet(Action):
    """下注: a player's stake against the banker, one of the code's ``bets``, before arranging."""

    type: ClassVar[str] = "bet"
    amount: int


@dataclass(frozen=True)
class BetPlaced(Event):
    """A player has placed its bet (the amount stays hidden until every player has bet)."""

    type: ClassVar[str] = "bet_placed"
    seat: int


@dataclass(frozen=True)
class BetsShown(Event):
    """Every player has bet: the bets by seat (the banker's entry is 0)."""

    type: ClassVar[str] = "bets_shown"
    bets: tuple[int, ...]


@dataclass(frozen=True)
class Ready(Event):
    """A seat has arranged or declared (what it did stays hidden until the showdown)."""

    type: ClassVar[str] = "ready"
    seat: int


@dataclass(frozen=True)
class Revealed(Event):
    """The showdown (比牌): every hand as text (``f / m / b`` or ``name: 13 cards``), the
    fouls (倒水) and the scores; the full per-pair result is in the view's ``showdown``."""

    type: ClassVar[str] = "revealed"
    hands: tuple[str, ...]
    specials: tuple[str, ...]
    fouls: tuple[bool, ...]
    scores: tuple[int, ...]

    def __getattr__(self, name: str) -> tuple[str, ...]:
        """Only what the instance lacks comes here: the ``hands`` of the event a showdown
        made (:meth:`ShisanzhangState._revealed`), written from the showdown's hands when
        first read and kept. Their text is most of a showdown's cost, and a random
        playout or a search never reads it; a server writes it once, as it sends it."""
        shown: Sequence[Hand] | None = self.__dict__.get("_shown") if name == "hands" else None
        if shown is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        texts = self.__dict__["hands"] = shown_texts(shown)
        return texts


_READY: Final = tuple(Ready(s) for s in range(4))
"""The :class:`Ready` event of each seat of a four-seat table, made once (it is frozen)."""


def sort_hand(cards: Sequence[Card]) -> tuple[Card, ...]:
    """A hand as players hold it: by rank, highest first, then 黑桃 红心 梅花 方块."""
    return tuple(sorted(cards, key=lambda c: (-(c // 4), c % 4)))


_CARDS_ONLY: Final = {Card}


def _shuffle13(c: list[Card], bits: Callable[[int], int]) -> None:
    """:meth:`random.Random.shuffle` of 13 items written out, ``bits`` being the generator's
    ``getrandbits``: for each place ``i`` from 12 down, ``_randbelow(i + 1)`` (draws of
    ``(i + 1).bit_length()`` bits until one is below ``i + 1``) and the swap. The very same
    getrandbits calls, so the same order and the same generator state after it; unrolled,
    as the random arranger's inner loop, without a loop over the places."""
    j = bits(4)
    while j >= 13:
        j = bits(4)
    c[12], c[j] = c[j], c[12]
    j = bits(4)
    while j >= 12:
        j = bits(4)
    c[11], c[j] = c[j], c[11]
    j = bits(4)
    while j >= 11:
        j = bits(4)
    c[10], c[j] = c[j], c[10]
    j = bits(4)
    while j >= 10:
        j = bits(4)
    c[9], c[j] = c[j], c[9]
    j = bits(4)
    while j >= 9:
        j = bits(4)
    c[8], c[j] = c[j], c[8]
    j = bits(4)
    while j >= 8:
        j = bits(4)
    c[7], c[j] = c[j], c[7]
    j = bits(3)
    while j >= 7:
        j = bits(3)
    c[6], c[j] = c[j], c[6]
    j = bits(3)
    while j >= 6:
        j = bits(3)
    c[5], c[j] = c[j], c[5]
    j = bits(3)
    while j >= 5:
        j = bits(3)
    c[4], c[j] = c[j], c[4]
    j = bits(3)
    while j >= 4:
        j = bits(3)
    c[3], c[j] = c[j], c[3]
    j = bits(2)
    while j >= 3:
        j = bits(2)
    c[2], c[j] = c[j], c[2]
    j = bits(2)
    while j >= 2:
        j = bits(2)
    c[1], c[j] = c[j], c[1]


_new = object.__new__
assert tuple(f.name for f in fields(Revealed)) == ("hands", "specials", "fouls", "scores"), (
    "_revealed fills Revealed's fields as its __init__ would (hands when first read)"
)
_special_of: Final = attrgetter("special")
_foul_of: Final = attrgetter("foul")
assert tuple(f.name for f in fields(Arrange)) == ("front", "middle", "back"), (
    "random_action fills Arrange's fields in their order, as its __init__ would"
)

_LAST_DEALT: Final[list[tuple[tuple[int, ...], ...] | None]] = [None]
"""The hands :meth:`ShisanzhangGame.deal` cut last (the very tuple): tuples of the deck's
own :class:`~paiju.cards.Card` objects, which :class:`ShisanzhangState` takes as they are
(another deal's hands are looked at card by card)."""

_Made = tuple[Arrange, tuple[Card, ...], RowRules, tuple[int, int, int]]
_LAST_MADE: Final[list[_Made | None]] = [None]
"""In its one place, the arrangement :meth:`ShisanzhangState.random_action` made last, the
hand it laid out (the very tuple), the rules and its row values: applying it (a random
playout's next step) needs neither the check that it uses the hand's cards nor its values
computed again."""


def _made_from(
    action: Action, hand: tuple[Card, ...]
) -> tuple[RowRules, tuple[int, int, int]] | None:
    """The rules and row values of ``action`` where it is the arrangement random_action
    made last from ``hand`` itself (the same objects), else None."""
    last = _LAST_MADE[0]
    if last is not None and last[0] is action and last[1] is hand:
        return last[2], last[3]
    return None


def _best_subset(cards: Sequence[Card], size: int, rules: RowRules) -> tuple[Card, ...]:
    return max(combinations(cards, size), key=lambda row: row_value(row, rules))


def greedy_arrangement(
    cards: Sequence[Card], rules: RowRules
) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """ "Strongest back first": the best five cards at the back, the best five of the rest
    in the middle, the last three in front. Never 倒水 (the best five of a set beat any
    row made of its other cards), and the solver's baseline."""
    back = _best_subset(cards, 5, rules)
    rest = [c for c in cards if c not in back]
    middle = _best_subset(rest, 5, rules)
    front = tuple(c for c in rest if c not in middle)
    return front, middle, back


class ShisanzhangGame(Game[ShisanzhangParams]):
    """A 十三张 code with its room options."""

    family: ClassVar[str] = "shisanzhang"
    params_model = ShisanzhangParams
    actions: ClassVar[tuple[type[Action], ...]] = (Arrange, Declare, Bet)
    events: ClassVar[tuple[type[Event], ...]] = (Ready, Revealed, BetPlaced, BetsShown)

    def __init__(self, variant: Variant, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(variant, options)
        self.row_rules: RowRules = self.params.row_rules()
        """The code's row rules (``params.row_rules()``), looked up once for the game: the
        random arranger and its apply ask at every step."""

    @property
    def scoring(self) -> Scoring:
        scoring: Scoring = self.options["scoring"]
        return scoring

    def validate_options(self, options: dict[str, Any]) -> Mapping[str, Any]:
        params = self.params
        known = {"scoring", "stake", "favoured"}
        unknown = set(options) - known
        if unknown:
            raise IllegalAction(
                f"{self.variant.code} has no room option {', '.join(sorted(unknown))}; "
                f"options are scoring ({'/'.join(params.scorings_offered)}), stake"
                + (", favoured" if params.banker else ""),
                reason="unknown_option",
                options=sorted(unknown),
            )
        scoring = options.get("scoring", params.scoring)
        if scoring not in params.scorings_offered:
            raise IllegalAction(
                f"{self.variant.code} is settled by {' or '.join(params.scorings_offered)},"
                f" not {scoring!r}",
                reason="bad_option",
                option="scoring",
                value=str(scoring),
            )
        stake = options.get("stake", 1)
        if isinstance(stake, bool) or not isinstance(stake, int) or not 1 <= stake <= MAX_STAKE:
            raise IllegalAction(
                f"stake must be a whole number 1-{MAX_STAKE}, got {stake!r}",
                reason="option_out_of_range",
                option="stake",
                min=1,
                max=MAX_STAKE,
            )
        favoured = options.get("favoured", False)
        if not isinstance(favoured, bool):
            raise IllegalAction(
                f"favoured must be true or false, got {favoured!r}",
                reason="bad_option",
                option="favoured",
                value=str(favoured),
            )
        if favoured and not params.banker:
            raise IllegalAction(
                f"{self.variant.code} is not a banker game: the banker-favoured option "
                "(favoured) needs a banker",
                reason="not_banker_game",
                code=self.variant.code,
            )
        return {"scoring": scoring, "stake": stake, "favoured": favoured}

    def deal(self, seats: int, rng: DealRng, context: Mapping[str, Any]) -> Deal:
        cards = rng.shuffled(self.full_set())
        hands = tuple([tuple(cards[13 * s : 13 * s + 13]) for s in range(seats)])
        _LAST_DEALT[0] = hands  # cut from the deck's own cards: start need not look again
        rest = tuple(cards[13 * seats :])
        return Deal(hands, {"undealt": rest} if rest else {})

    def start(self, seats: int, deal: Deal, context: Mapping[str, Any]) -> State:
        if not set(map(len, deal.hands)) <= {13}:
            raise IllegalAction("every seat of 十三张 holds 13 cards")
        return ShisanzhangState(self, seats, deal, context)


class ShisanzhangState(State):
    """One hand of 十三张: simultaneous arranging, then the showdown."""

    game: ShisanzhangGame

    def __init__(
        self, game: ShisanzhangGame, seats: int, deal: Deal, context: Mapping[str, Any]
    ) -> None:
        super().__init__(game, seats, deal, context)
        params = game.params
        banker = context.get("banker", 0)
        if not isinstance(banker, int) or isinstance(banker, bool):
            raise IllegalAction(f"context banker must be a seat number, got {banker!r}")
        self.banker: int | None = banker % seats if params.banker else None
        self.hands: tuple[tuple[Card, ...], ...] = (
            cast("tuple[tuple[Card, ...], ...]", deal.hands)
            if deal.hands is _LAST_DEALT[0]
            else tuple([cast("tuple[Card, ...]", tuple(h)) for h in deal.hands])
            if set(map(type, chain.from_iterable(deal.hands))) == _CARDS_ONLY  # one look
            else tuple(
                cast("tuple[Card, ...]", tuple(h))
                if set(map(type, h)) == _CARDS_ONLY
                else tuple(map(Card, h))
                for h in deal.hands
            )
        )
        scoring = game.scoring
        self.specials: tuple[Special | None, ...] = best_specials(self.hands, params, scoring)
        # as forced_special, from the specials just found
        self.forced: tuple[bool, ...] = (
            tuple([special is not None for special in self.specials])
            if params.specials_forced
            else (False,) * len(self.specials)
        )
        self.acted: list[Hand | None] = [None] * seats
        self._waiting: frozenset[int] = frozenset(range(seats))
        """The seats that have not arranged or declared (``to_act`` once the bets are in)."""
        self.result: Showdown | None = None
        self._hand_texts: tuple[str, ...] | None = None
        self._showdown: dict[str, Any] | None = None
        self.bets: list[int | None] = [None] * seats
        """下注 by seat; the banker bets nothing (None); None until placed."""
        self.betting = bool(params.bets) and self.banker is not None

    def __deepcopy__(self, memo: dict[int, Any]) -> ShisanzhangState:
        """A fast independent copy for :meth:`clone`: the mutable containers are copied,
        everything else (deal, hands, specials, frozen actions and showdown hands) is
        shared because it is immutable. A new mutable field must be copied here too."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.context = dict(self.context)
        new.history = list(self.history)
        new.acted = list(self.acted)
        new.bets = list(self.bets)
        if self.result is not None:  # the finished hand's showdown: rarely cloned
            new.result = copy.deepcopy(self.result, memo)
            new._showdown = copy.deepcopy(self._showdown, memo)
        return new

    def clone(self) -> ShisanzhangState:
        """:meth:`State.clone` through :meth:`__deepcopy__` at once (a random playout
        clones before every step), the game shared as :meth:`State.clone` shares it."""
        game = self.game
        return self.__deepcopy__({id(game): game})

    @property
    def hand_texts(self) -> tuple[str, ...]:
        """Each seat's 13 cards as its views show them (sorted), written once, when a view
        first needs them (hands played without views - bots, RL - never write them)."""
        if self._hand_texts is None:
            self._hand_texts = tuple([display_text(h) for h in self.hands])
        return self._hand_texts

    @property
    def showdown(self) -> dict[str, Any] | None:
        """The public showdown (``result.to_json()``) once it happened, written once, when a
        view first needs it."""
        if self._showdown is None and self.result is not None:
            self._showdown = self.result.to_json()
        return self._showdown

    # -- protocol ----------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        return "betting" if self.betting else "arranging"

    def to_act(self) -> frozenset[int]:
        if self.betting:
            return frozenset(
                s for s in range(self.seats) if s != self.banker and self.bets[s] is None
            )
        return self._waiting

    @property
    def is_over(self) -> bool:
        return self.result is not None  # the showdown happens once every seat has acted

    def _check_bet(self, seat: int, action: Action) -> None:
        choices = self.game.params.bets
        if not isinstance(action, Bet):
            raise IllegalAction(
                f"seat {seat} bets first (下注): one of {', '.join(map(str, choices))}",
                reason="bet_first",
                choices=list(choices),
            )
        if isinstance(action.amount, bool) or action.amount not in choices:
            raise IllegalAction(
                f"a bet is one of {', '.join(map(str, choices))}, not {action.amount!r}",
                reason="bet_choice",
                choices=list(choices),
                amount=str(action.amount),
            )

    def check(self, seat: int, action: Action) -> None:
        if self.betting:
            self._check_bet(seat, action)
            return
        if isinstance(action, Bet):
            raise IllegalAction(
                "the bets are placed; arrange (or declare) your hand", reason="bets_placed"
            )
        if self.acted[seat] is not None:
            raise IllegalAction(f"seat {seat} has already shown its hand", reason="already_shown")
        special = self.specials[seat]
        if isinstance(action, Declare):
            if special is None:
                raise IllegalAction(
                    f"seat {seat} holds no special hand this code lets it declare; arrange "
                    "your 13 cards as front (3) / middle (5) / back (5)",
                    reason="no_special",
                )
            return
        if not isinstance(action, Arrange):
            raise IllegalAction(
                f"{type(action).__name__} is not an action of 十三张", reason="not_an_action"
            )
        if self.forced[seat]:
            assert special is not None
            what = (
                "不摆牌: every hand is shown"
                if self.game.params.special_mode == "all"
                else (f"your {special.name_zh} is 免摆 (it does not arrange)")
            )
            if self.game.params.special_mode == "all":
                raise IllegalAction(f"seat {seat} may only declare: {what}", reason="show_only")
            raise IllegalAction(
                f"seat {seat} may only declare: {what}",
                reason="declare_only",
                special=special.name_zh,
            )
        if _made_from(action, self.hands[seat]) is not None:
            return  # random_action laid out these very cards
        sizes = (len(action.front), len(action.middle), len(action.back))
        if sizes != (3, 5, 5):
            raise IllegalAction(
                f"rows of {sizes[0]}, {sizes[1]} and {sizes[2]} cards; the front (头墩) holds "
                "3 cards, the middle (中墩) and back (尾墩) 5 each",
                reason="row_sizes",
                front=sizes[0],
                middle=sizes[1],
                back=sizes[2],
            )
        cards = (*action.front, *action.middle, *action.back)
        if sorted(cards) != sorted(self.hands[seat]):  # one comparison on the common path
            given = Counter(cards)
            held = Counter(self.hands[seat])
            extra = sorted((given - held).elements())
            missing = sorted((held - given).elements())
            raise IllegalAction(
                f"an arrangement uses your 13 cards exactly once: "
                f"not yours or repeated {format_cards(extra) or 'none'}, "
                f"left out {format_cards(missing) or 'none'}",
                reason="not_your_cards",
                extra=format_cards(extra),
                missing=format_cards(missing),
            )

    def apply(self, seat: int, action: Action) -> list[Event]:
        """:meth:`State.apply`; the arrangement :meth:`random_action` has just made for this
        seat's hand (a random playout's step) is applied at once: it is legal wherever the
        seat is still to arrange and may (the checks of :meth:`State.apply` and
        :meth:`check` come to that), and its row values are known."""
        made = _LAST_MADE[0]
        if (
            made is not None
            and made[0] is action
            and type(seat) is int
            and seat in self._waiting
            and not self.betting
            and made[1] is self.hands[seat]
            and made[2] is self.game.row_rules
            and not self.forced[seat]
            and self.acted[seat] is None
        ):
            arrange = made[0]
            rows = (arrange.front, arrange.middle, arrange.back)
            self.acted[seat] = arranged(rows, made[2], made[3])
            return self._logged(seat, action, self._shown(seat))
        return super().apply(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Bet):
            self.bets[seat] = action.amount
            events: list[Event] = [BetPlaced(seat)]
            if not self.to_act():
                self.betting = False
                events.append(BetsShown(tuple(b or 0 for b in self.bets)))
            return events
        if isinstance(action, Declare):
            special = self.specials[seat]
            assert special is not None
            self.acted[seat] = declared(self.hands[seat], special)
        else:
            assert isinstance(action, Arrange)
            rows = (tuple(action.front), tuple(action.middle), tuple(action.back))
            rules = self.game.row_rules
            made = _made_from(action, self.hands[seat])
            values = made[1] if made is not None and made[0] is rules else None
            self.acted[seat] = arranged(rows, rules, values)
        return self._shown(seat)

    def _shown(self, seat: int) -> list[Event]:
        """The events of ``seat`` having arranged or declared (its hand is in ``acted``):
        it is ready, and the showdown happens once every seat is."""
        self._waiting = self._waiting - {seat}
        events: list[Event] = [_READY[seat] if 0 <= seat < len(_READY) else Ready(seat)]
        if not self._waiting:
            hands = [h for h in self.acted if h is not None]
            options = self.game.options
            self.result = settle(
                self.game.params,
                hands,
                self.game.scoring,
                self.banker,
                options["stake"],
                options["favoured"],
                self.stakes(),
            )
            events.append(self._revealed(self.result))
        return events

    def stakes(self) -> list[int] | None:
        """Each player's bet against the banker (1 where the code has no betting)."""
        if self.banker is None:
            return None
        return [b or 1 for b in self.bets]

    @staticmethod
    def _revealed(result: Showdown) -> Revealed:
        hands = result.hands
        specials = tuple(map(_special_of, hands))
        # Revealed(hands=…, specials=…, fouls=…, scores=…), once a hand: its fields put in
        # its __dict__ as the frozen dataclass's __init__ does, the hands' text left to be
        # written from them when first read (Revealed.__getattr__)
        event = _new(Revealed)
        fill = event.__dict__
        fill["_shown"] = hands
        fill["specials"] = (
            ("",) * len(hands)  # no special shown: the common case
            if specials.count(None) == len(hands)
            else tuple([s.name_zh if s else "" for s in specials])
        )
        fill["fouls"] = tuple(map(_foul_of, hands))
        fill["scores"] = tuple(result.scores)
        return event

    def legal_actions(self, seat: int) -> Sequence[Action] | None:
        if self.betting:
            if seat == self.banker or self.bets[seat] is not None:
                return []
            return [Bet(x) for x in self.game.params.bets]
        if self.acted[seat] is not None or self.result is not None:
            return []
        if self.forced[seat]:
            return [Declare()]
        return None

    def random_action(self, seat: int, rng: random.Random) -> Action:
        """A random arrangement that does not 倒水 (or Declare where that is the only action);
        a random bet in the betting phase."""
        if self.betting:
            return Bet(rng.choice(self.game.params.bets))
        if self.forced[seat]:
            return Declare()
        rules = self.game.row_rules
        cards = list(self.hands[seat])
        # a plain random.Random's shuffle written out (its _randbelow inlined): the very
        # same getrandbits calls, so the same order and the same generator state after it
        inline = type(rng) is random.Random and len(cards) == 13
        getrandbits = rng.getrandbits
        for _ in range(50):
            if inline:
                _shuffle13(cards, getrandbits)
            else:
                rng.shuffle(cards)
            f, m, b = arrangement_values(cards, rules)
            if f <= m and f <= b:  # else 倒水 whichever of middle and back is higher: again
                laid = tuple(cards)  # the rows cut only from a kept shuffle
                # Arrange(front, middle, back), its fields put in its __dict__ in their order
                # as the frozen dataclass's __init__ does, without a setattr through object
                action = _new(Arrange)
                fill = action.__dict__
                fill["front"] = laid[:3]
                if m > b:  # the higher of the two at the back
                    fill["middle"], fill["back"] = laid[8:], laid[3:8]
                    values = (f, b, m)
                else:
                    fill["middle"], fill["back"] = laid[3:8], laid[8:]
                    values = (f, m, b)
                _LAST_MADE[0] = (action, self.hands[seat], rules, values)
                return action
        return Arrange(*greedy_arrangement(cards, rules))

    def _preview(self, seat: int, action: Action) -> JSON | None:
        """An arrangement as the showdown will judge it, under the code's own row rules
        (suit tie-breaks included): ``{"front", "middle", "back", "categories", "foul"}``;
        a declaration: ``{"declared": name, "cards"}``."""
        if isinstance(action, Arrange):
            rows = (tuple(action.front), tuple(action.middle), tuple(action.back))
            return arranged(rows, self.game.row_rules).to_json()
        if isinstance(action, Declare):
            special = self.specials[seat]
            assert special is not None  # check() refuses a declaration without one
            return declared(self.hands[seat], special).to_json()
        return None

    advised_by_bot = True

    def suggestions(self, seat: int, limit: int = 5, first: Action | None = None) -> list[Action]:
        """推荐摆法: the solver's best arrangements under the room's settlement (declaring
        first where the seat must, or where the bot's choice ``first`` is to declare: its
        special is worth more than arranging)."""
        return [a for a, _ in self._advised(seat, limit, first)]

    def advice(self, seat: int, limit: int = 5, first: Action | None = None) -> list[JSON]:
        """推荐摆法 for a player: each arrangement with its rows' ``categories`` (牌型)
        and the solver's expected ``score`` per opponent (in 注), a declaration as is."""
        out: list[JSON] = []
        rules = self.game.row_rules
        for action, score in self._advised(seat, limit, first):
            item = action.to_json()
            if isinstance(action, Arrange):
                rows = (tuple(action.front), tuple(action.middle), tuple(action.back))
                item["categories"] = list(arranged(rows, rules).categories or ())
                if score is not None:
                    item["score"] = round(score, 2)
            out.append(item)
        return out

    def _advised(
        self, seat: int, limit: int, first: Action | None
    ) -> list[tuple[Action, float | None]]:
        if seat not in self.to_act() or self.betting:
            return []
        from paiju.games.shisanzhang.solver import solve

        if self.forced[seat]:
            return [(Declare(), None)]
        found = solve(
            self.hands[seat],
            self.game.params,
            scoring=self.game.scoring,
            banker=self.banker == seat,
            alternatives=limit - 1,
        )
        scores: dict[Action, float | None] = {}
        solved: list[Action] = []
        for a in found:
            action = Arrange(a.front, a.middle, a.back)
            scores.setdefault(action, float(a.score))
            solved.append(action)
        declare: list[Action] = [Declare()] if self.specials[seat] is not None else []
        ordered = [first, *declare, *solved] if isinstance(first, Declare) else [*solved, *declare]
        return [(a, scores.get(a)) for a in dict.fromkeys(ordered)][:limit]

    def view(self, seat: int | None) -> JSON:
        return self.views([seat])[0]

    def views(self, seats: Sequence[int | None]) -> list[JSON]:
        """Each seat's view; what every seat sees alike is computed once and shared."""
        common: JSON = {
            "code": self.game.variant.code,
            "phase": self.phase,
            "seat": None,
            "to_act": sorted(self.to_act()),
            "seats": self.seats,
            "scoring": self.game.scoring,
            "stake": self.game.options["stake"],
            "banker": self.banker,
            "ready": [h is not None for h in self.acted],
        }
        bets = self.game.params.bets and self.banker is not None
        if bets:
            common["bet_choices"] = list(self.game.params.bets)
            common["bets"] = None
        showdown = self.showdown
        texts = self.hand_texts if any(seat is not None for seat in seats) else ()
        specials, forced, acted = self.specials, self.forced, self.acted
        out: list[JSON] = []
        for seat in seats:
            view = dict(common)
            view["seat"] = seat
            if bets:
                view["bets"] = [
                    b if (not self.betting or s == seat) else (None if b is None else "placed")
                    for s, b in enumerate(self.bets)
                ]
            if seat is not None:
                special = specials[seat]
                view["hand"] = texts[seat]
                view["special"] = None if special is None else special.name_zh
                view["must_declare"] = forced[seat]
                mine = acted[seat]
                # a hand's JSON form, written once and shared (views are read-only)
                view["mine"] = None if mine is None else mine.json_form()
            if showdown is not None:
                view["showdown"] = showdown
            out.append(view)
        return out

    def resample(self, seat: int, rng: random.Random) -> ShisanzhangState:
        """The other hands (and the undealt cards) dealt anew; what the others chose and
        nobody has seen yet (a bet before the bets are shown, an arrangement) chosen again
        at random on their new hands. See :meth:`paiju.engine.State.resample`."""
        if self.result is not None:
            return self.clone()
        others = [s for s in range(self.seats) if s != seat]
        pool = sorted(self.hidden_from(seat).elements())
        undealt = len(self.deal.piles.get("undealt", ()))
        sizes = [13] * len(others) + ([undealt] if undealt else [])

        def again(s: int) -> Callable[[State, random.Random], Action]:
            return lambda state, rng: state.random_action(s, rng)

        def propose(rng: random.Random) -> tuple[Deal, Script]:
            parts = deal_hidden(rng, pool, sizes)
            hands = [tuple(h) for h in self.deal.hands]
            for i, s in enumerate(others):
                hands[s] = tuple(sorted(parts[i]))
            piles = {"undealt": tuple(sorted(parts[-1]))} if undealt else {}
            script: Script = [
                (s, a if s == seat or (isinstance(a, Bet) and not self.betting) else again(s))
                for s, a in self.history
            ]
            return Deal(tuple(hands), piles, self.deal.info), script

        return replay_sample(self, seat, rng, propose)

    def settlement(self) -> tuple[int, ...]:
        if self.result is None:
            return (0,) * self.seats
        return tuple(self.result.scores)

    def locations(self) -> Mapping[str, Sequence[int]]:
        out: dict[str, Sequence[int]] = {f"seat{s}": h for s, h in enumerate(self.hands)}
        out.update(self.deal.piles)
        return out

    def hidden_from(self, seat: int | None) -> Counter[int]:
        hidden: Counter[int] = Counter()
        for pile in self.deal.piles.values():
            hidden.update(pile)
        if self.result is None:
            for s, hand in enumerate(self.hands):
                if s != seat:
                    hidden.update(hand)
        return hidden

    def next_context(self) -> JSON:
        if self.banker is None:
            return {}
        return {"banker": (self.banker + 1) % self.seats}
