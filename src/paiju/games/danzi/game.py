"""宁城打弹子 on the climbing core: deal, 进贡/还贡, 宣战, the play, points, the match.

The card play (lead, beat or pass, trick end, finishing order) is the climbing core's
(:mod:`paiju.games.climbing.core`); this module adds the game's combinations
(:class:`DanziRules` over :mod:`paiju.games.danzi.combos`, takes with 4s included), the
phases before the play and the match. One deal (盘) runs through the phases

* ``tribute`` - a giver under 骚贡 chooses their tribute (automatic tribute needs no action);
* ``picking`` - (2/2 form) 头游 takes two of the four tribute cards, 二游 gets the rest;
* ``returning`` - the receivers return as many cards (4/2: both at once; 2/2: 头游 first,
  face down, then 二游);
* ``picking_returns`` - (2/2 form) 三游 takes two of the four returns, 末游 gets the rest;
* ``declaring`` - 宣战权 offered from the previous 三游 round the table (N42);
* ``playing`` - the core's tricks until the finishing order is known;
* ``over``.

A match's first deal has no tribute and declares automatically: the holder of the first
大王 dealt (N41) declares and leads. A declaration fails as soon as another player goes out
first; the declarer then stops (the core's ``stop``) and is 末游. The match (局) runs until
a side reaches the room's ``target`` (30 or 60, N61); what carries from deal to deal
(totals, the finishing order, the declarer) is the JSON context.

明牌 (N58): every seat sees its partner's hand (``sees_hand``); opponents see what is
played, the shown tribute (N56, kept in the core's ``exposed``) and card counts.

The settlement of a deal is zero for every seat until the match ends; the deal that ends it
settles the match: ``match_stake`` to each player of the winning side, paid by the other.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from itertools import accumulate, combinations
from operator import itemgetter
from typing import Any, ClassVar, Final, cast

from paiju.cards import RED_JOKER, Card, CardList, format_cards, parse_cards
from paiju.engine import Action, Deal, Event, NoParams, PrivateEvent
from paiju.errors import IllegalAction
from paiju.fairness import DealRng
from paiju.games.climbing.core import (
    CORE_EVENTS,
    ClimbingGame,
    ClimbingState,
    Combo,
    Finished,
    Pass,
    Play,
    Rules,
    only,
)
from paiju.games.danzi import combos as dz
from paiju.games.danzi.combos import FOUR, NRANKS, SINGLE, card_rank_index, counts_of
from paiju.games.danzi.contract import beats_json, combo_json, settle_json
from paiju.games.danzi.moves import all_plays, legal_plays
from paiju.games.danzi.scoring import PointRules, deal_breakdown, deal_points, team_of
from paiju.games.danzi.spec import DanziOptions
from paiju.games.danzi.tribute import (
    FREE_BLOCKERS,
    auto_tribute,
    check_return,
    check_tribute,
    is_free,
    return_value,
    returnable,
)
from paiju.sampling import Allowed, Script

__all__ = [
    "DanziGame",
    "DanziRules",
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

KIND_IDS: dict[str, str] = {
    "单牌": "single",
    "对牌": "pair",
    "单龙": "dragon",
    "双龙": "double_dragon",
    "砟子": "zhazi",
    "真7": "zhen7",
    "真8": "zhen8",
    "假8": "jia8",
    "假10": "jia10",
    "假12": "jia12",
    "假14": "jia14",
    "假16": "jia16",
    "假15": "jia15",
    "连蛋": "liandan",
    "三减": "jian3",
    "四减": "jian4",
    "五减": "jian5",
    "六减": "jian6",
    "双王": "two_jokers",
    "三王": "three_jokers",
    "四王": "four_jokers",
}
"""The core's kind ids of the reading's kinds (``kind_zh`` stays the contract's name)."""


@lru_cache(maxsize=65536)
def danzi_combo(counts: dz.Counts) -> dz.Combo | None:
    """The 打弹子 combination of a count vector (cached: the core asks for it often)."""
    return dz.classify(counts)


class DanziRules(Rules):
    """The 打弹子 combinations (N9-N21) and what beats what (N22-N34) for the core.

    A core :class:`~paiju.games.climbing.core.Combo` is the cards; its ``rank`` is the
    ladder key (row x 100 + top) and its ``length`` the card count. The comparisons and the
    generator are :mod:`paiju.games.danzi.combos` and :mod:`paiju.games.danzi.moves`.
    """

    kind_zh: ClassVar[Mapping[str, str]] = {v: k for k, v in KIND_IDS.items()}
    kind_en: ClassVar[Mapping[str, str]] = {v: v.replace("_", " ") for v in KIND_IDS.values()}
    order: ClassVar[tuple[int, ...]] = (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2, 3, 15, 16)
    """The single order low to high (N5): 4 … K A 2 3 小王 大王."""

    def danzi(self, combo: Combo) -> dz.Combo:
        """The 打弹子 combination of a core combination."""
        found = danzi_combo(counts_of(combo.cards))
        assert found is not None
        return found

    def wrap(self, d: dz.Combo, cards: Sequence[int]) -> Combo:
        return Combo(KIND_IDS[d.kind], d.row * 100 + d.top, d.cards, tuple(self.sort(cards)))

    def classify(self, cards: Sequence[int]) -> Combo | None:
        d = danzi_combo(counts_of(cards)) if cards else None
        return None if d is None else self.wrap(d, cards)

    def explain(self, cards: Sequence[int]) -> str:
        return f"{format_cards(cards) or 'nothing'} is no combination of 打弹子"

    def beats(self, play: Combo, table: Combo) -> bool:
        return dz.beats(self.danzi(table), self.danzi(play)).beats

    def why_not(self, play: Combo, table: Combo) -> tuple[str, str]:
        t, p = self.danzi(table), self.danzi(play)
        why = dz.beats(t, p).reason
        reason = "not_higher" if why in ("lower", "equal", "lower_bomb") else "wrong_kind"
        return (
            reason,
            f"{p.name_zh} {format_cards(play.cards)} does not beat the table's {t.name_zh}"
            f" {format_cards(table.cards)} ({why})",
        )

    def combos(self, hand: Sequence[int]) -> Iterator[Combo]:
        for d in all_plays(counts_of(hand)):
            yield self.wrap(d, cards_for(hand, d.counts))

    def plays(self, hand: Sequence[int], table: Combo | None) -> list[Combo]:
        return self.plays_in_order(self.sort(hand), None if table is None else self.danzi(table))

    def plays_in_order(self, hand: Sequence[int], table: dz.Combo | None) -> list[Combo]:
        """:meth:`plays` of a hand already in the game's order (a state's hand), against a
        table given as its 打弹子 combination."""
        return [
            Combo(kind, rank, n, cards) for (_, kind, rank, n, _, _), cards in _plays(hand, table)
        ]

    def play_cards(self, hand: Sequence[int], table: dz.Combo | None) -> list[tuple[Card, ...]]:
        """The cards of each of :meth:`plays_in_order`, in its order (the legal actions)."""
        return [cards for _, cards in _plays(hand, table)]

    def describe(self, combo: Combo) -> JSON:
        d = self.danzi(combo)
        return {
            "kind": combo.kind,
            "kind_zh": d.kind,
            "name_zh": d.name_zh,
            "rank": d.top_name,
            "length": combo.length,
            "cards": format_cards(combo.cards),
            "bomb": not d.plain,
        }


# ----------------------------------------------------------------------------- actions


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
class Took(Event):
    """取牌 (N32-N34): ``seat`` took ``taken`` (a 砟子) with the 4s ``cards``."""

    type: ClassVar[str] = "took"
    seat: int
    cards: CardList
    taken: CardList


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


PlayInfo = tuple[int, str, int, int, tuple[tuple[int, int], ...], dz.Combo]
"""What a play's count vector says for the core: its place in the order of the legal plays
(plain first, low to high: the row, the card count and the top as one int), the core's
kind id, rank and length, its ``(rank index, count)`` parts in the game's order, and its
打弹子 combination."""

_IN_ORDER: Final = tuple(sorted(range(NRANKS), key=SINGLE.__getitem__))
"""The rank indexes in the game's order, low to high (4 … A 2 3 小王 大王)."""
_COUNTS_IN_ORDER: Final = itemgetter(*_IN_ORDER)
"""A count vector's counts in the game's order."""
_BY_RANK: Final = itemgetter(*(_IN_ORDER.index(i) for i in range(NRANKS)))
"""Of values in the game's order, the value of each rank index."""
_PLAY_INFO: dict[int, PlayInfo] = {}
""":data:`PlayInfo` by the ``id`` of its combination: the generator's combinations are made
once (:mod:`paiju.games.danzi.moves`), and :data:`_KEPT` keeps each one met alive, so that
its ``id`` stays its own."""
_KEPT: list[dz.Combo] = []
_CARDS_ONLY: Final = {Card}
_FIRST: Final = itemgetter(0)


def _play_info(d: dz.Combo) -> PlayInfo:
    """:data:`PlayInfo` of a play, made once per combination."""
    info = _PLAY_INFO.get(id(d))
    if info is None:
        counts = d.counts
        parts = tuple((i, counts[i]) for i in _IN_ORDER if counts[i])
        assert 0 <= d.cards < 1000 and 0 <= d.top < 1000  # the order's int below
        order = (d.row * 1000 + d.cards) * 1000 + d.top  # (row, cards, top) as one int
        info = order, KIND_IDS[d.kind], d.row * 100 + d.top, d.cards, parts, d
        _KEPT.append(d)
        _PLAY_INFO[id(d)] = info
    return info


_TABLE_DANZI: Final[list[tuple[Combo, DanziRules, dz.Combo] | None]] = [None]
"""In its one place, the table :attr:`DanziState.danzi_table` read last, the rules and its
打弹子 combination."""
_Listed = tuple["DanziRules", Sequence[int], Combo | None, list[tuple[PlayInfo, tuple[Card, ...]]]]
_LISTED: Final[list[_Listed | None]] = [None]
"""In its one place, the plays :meth:`DanziState.legal_actions` listed last: the rules, the
hand (the seat's very list: a state's hand is replaced, never changed in place), the table
and each play's :data:`PlayInfo` with its cards (the very tuple); a play in it is legal on
that hand and that table, and its combination is known (:meth:`DanziState.check_play`)."""
_PASS: Final = Pass()
"""The pass of every legal list (a frozen action, shared)."""
_new = object.__new__
assert tuple(f.name for f in fields(Play)) == ("cards",), "_play_of fills Play's one field"


def _play_of(cards: tuple[Card, ...]) -> Play:
    """``Play(cards)`` of a listed play (several at every step): its one field put in its
    ``__dict__``, as the frozen dataclass's ``__init__`` does."""
    play = _new(Play)
    play.__dict__["cards"] = cards
    return play


_HandFacts = tuple[Sequence[int], dz.Counts, tuple[Card, ...], tuple[int, ...]]
_KEPT_HANDS: Final[dict[int, _HandFacts]] = {}
"""By the ``id`` of a state's hand (kept with it, so the ``id`` stays its own): its count
vector, its cards and where each rank's cards begin. A state's hand is replaced, never
changed in place (clones share it: :meth:`ClimbingState.__deepcopy__`), so what is worked
out from it holds while it is the seat's hand; a seat that passed is asked again with the
same hand."""
_KEPT_MOST: Final = 256


def _hand_facts(hand: Sequence[int]) -> _HandFacts:
    """The count vector, the cards and each rank's first place of ``hand`` (in the game's
    order: a rank's cards lie together, ties by card index)."""
    counts = counts_of(hand)
    held: tuple[Card, ...] = (
        tuple(cast("Sequence[Card]", hand))
        if {*map(type, hand)} == _CARDS_ONLY
        else tuple([Card(c) for c in hand])
    )
    # where each rank's cards begin in the hand: the counts summed in the game's order
    start = _BY_RANK(list(accumulate(_COUNTS_IN_ORDER(counts), initial=0)))
    return hand, counts, held, start


def _plays(
    hand: Sequence[int], table: dz.Combo | None, *, kept: bool = False
) -> list[tuple[PlayInfo, tuple[Card, ...]]]:
    """Every legal play of a hand in the game's order with its cards, plain first, low to
    high. A rank's cards lie together in that order (the level is the rank's, ties go by
    card index): a play's cards are the first ``count`` of each of its ranks' cards, so they
    come out in the game's order too. ``kept``: ``hand`` is a state's hand (never changed
    in place), whose facts are kept in :data:`_KEPT_HANDS`."""
    facts = _KEPT_HANDS.get(id(hand)) if kept else None
    if facts is None or facts[0] is not hand:
        facts = _hand_facts(hand)
        if kept:
            if len(_KEPT_HANDS) >= _KEPT_MOST:
                _KEPT_HANDS.clear()
            _KEPT_HANDS[id(hand)] = facts
    _, counts, held, start = facts
    found = legal_plays(counts, table)
    if not found:
        return []
    known = _PLAY_INFO.get
    infos = [known(id(d)) or _play_info(d) for d in found]
    infos.sort(key=_FIRST)
    out: list[tuple[PlayInfo, tuple[Card, ...]]] = []
    for info in infos:
        parts = info[4]
        if len(parts) == 1:  # one rank's cards (a single, a pair, a 砟子): a slice
            ((i, n),) = parts
            if n > counts[i]:
                raise IllegalAction("the hand does not hold that play", reason="cards_not_in_hand")
            at = start[i]
            out.append((info, held[at : at + n]))
            continue
        cards: list[Card] = []
        for i, n in parts:
            if n > counts[i]:
                raise IllegalAction("the hand does not hold that play", reason="cards_not_in_hand")
            at = start[i]
            cards += held[at : at + n]
        out.append((info, tuple(cards)))
    return out


def cards_for(hand: Sequence[int], counts: Sequence[int]) -> tuple[Card, ...]:
    """Concrete cards of ``hand`` for a play's count vector (the lowest card indexes)."""
    return _cards_for(_ranked(hand), counts)


def _ranked(hand: Sequence[int]) -> list[tuple[Card, int]]:
    """The hand's cards, lowest index first, each with its rank index."""
    index = _RANK_INDEX
    return [(c if type(c) is Card else Card(c), index[c]) for c in sorted(hand)]


_RANK_INDEX: tuple[int, ...] = tuple(card_rank_index(c) for c in range(54))


def _cards_for(ranked: Sequence[tuple[Card, int]], counts: Sequence[int]) -> tuple[Card, ...]:
    need = list(counts)
    left = sum(need)
    out: list[Card] = []
    for c, i in ranked:
        if need[i]:
            need[i] -= 1
            out.append(c)
            left -= 1
            if not left:
                break
    if left:
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
        raise IllegalAction("no 大王 in the deal", reason="bad_deal")
    return best[1]


def _tribute_key(card: int) -> tuple[int, int]:
    """The place of a card in the tribute order (N5): smaller is given first."""
    return (-SINGLE[card_rank_index(card)], card)


def display_order(cards: Sequence[int]) -> list[int]:
    """Cards from the biggest single down (大王 … 4), equal ranks together."""
    return sorted(cards, key=lambda c: (-SINGLE[card_rank_index(c)], c))


def _as_cards(cards: Sequence[int]) -> tuple[Card, ...]:
    return tuple(Card(c) for c in cards)


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


def _totals(value: Any) -> tuple[int, int] | None:
    if isinstance(value, list | tuple) and len(value) == 2 and all(type(t) is int for t in value):
        return (value[0], value[1])
    return None


def deal_points_between(
    context: Mapping[str, Any], next_context: Mapping[str, Any]
) -> tuple[int, int] | None:
    """A finished deal's points per side from the context it started from and the one it
    carried on (None where the contexts do not say): the totals after it less those it
    started from, 0:0 for a match's first deal.

    >>> deal_points_between({}, {"totals": [3, 0], "match_over": False})
    (3, 0)
    >>> deal_points_between({"totals": [27, 4], "previous": {"finish_order": [0, 1, 2, 3]}},
    ...                     {"totals": [33, 4], "match_over": True})
    (6, 0)
    """
    after = _totals(next_context.get("totals"))
    if after is None:
        return None
    start = _totals(context.get("totals")) if _previous(context) else (0, 0)
    if start is None:
        start = (0, 0)
    return (after[0] - start[0], after[1] - start[1])


# -------------------------------------------------------------------------------- game


class DanziGame(ClimbingGame[NoParams]):
    """宁城打弹子: the room options of §14 (:class:`~paiju.games.danzi.spec.DanziOptions`)."""

    family: ClassVar[str] = "danzi"
    params_model = NoParams
    options_model = DanziOptions
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
        *CORE_EVENTS,
        Took,
        TributeGiven,
        Picked,
        ReturnGiven,
        ReturnHidden,
        Declared,
        Declined,
        DeclarationDecided,
        DealScored,
    )

    def make_rules(self) -> Rules:
        return DanziRules()

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
        """27 cards each, one at a time in playing order from the starting seat (N1): the
        previous 头游, or a seat drawn like a cut in a match's first deal."""
        cards = rng.shuffled(self.full_set())
        prev = _previous(context)
        start = prev["finish_order"][0] if prev else rng.randbelow(seats)
        hands = tuple(
            tuple(cards[(k * seats) + (s - start) % seats] for k in range(27)) for s in range(seats)
        )
        return Deal(hands, {}, {"start": start})

    def start(self, seats: int, deal: Deal, context: Mapping[str, Any]) -> DanziState:
        return DanziState(self, seats, deal, context)

    match_option: ClassVar[str | None] = None  # a 局 is played to ``target`` points
    hand_words: ClassVar[tuple[str, str]] = ("盘", "deal")
    match_words: ClassVar[tuple[str, str]] = ("局", "match")

    def match_over(self, context: Mapping[str, Any], hands_played: int) -> bool:
        return bool(context.get("match_over"))

    def hand_won(
        self,
        settlement: Sequence[int],
        context: Mapping[str, Any],
        next_context: Mapping[str, Any],
    ) -> tuple[bool, ...]:
        """A deal is won by the side that scored more points in it (its settlement is 0
        until the match ends): the totals it carried on less those it started from."""
        points = deal_points_between(context, next_context)
        if points is None or points[0] == points[1]:
            return (False,) * len(settlement)
        side = 0 if points[0] > points[1] else 1
        return tuple(team_of(s) == side for s in range(len(settlement)))

    # -- the command line (§15) ----------------------------------------------------------

    def combo_json(self, text: str) -> JSON:
        answer = combo_json(text)
        answer["kind"] = KIND_IDS[answer["kind_zh"]]
        answer["rank"] = answer["top"]
        return answer

    def beats_json(self, lead: str, play: str) -> JSON:
        return beats_json(lead, play)

    def settle_json(self, obj: Mapping[str, Any]) -> JSON:
        answer = settle_json(obj)
        answer["deltas"] = answer["points"]
        answer["result"] = "match over" if answer["match_over"] else "deal scored"
        return answer


# ------------------------------------------------------------------------------- state


class DanziState(ClimbingState):
    """One deal (盘) of 宁城打弹子 on the climbing core."""

    game: DanziGame
    rules: DanziRules
    search_samples: ClassVar[int | None] = 36
    """36 worlds keep a decision's p99 under a second of CPU (``bench/hard_budget.py``)."""

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
        # tribute (进贡/还贡)
        self.form: str | None = None  # "2/2", "4/2" or None (a match's first deal)
        self.givers: dict[int, tuple[int, int | None, int]] = {}
        """giver -> (count, receiver or None for the 2/2 pool, the giver's place)."""
        self.tribute_log: list[JSON] = []
        self.received: dict[int, list[int]] = {}
        self.returners: list[int] = []
        self.pool: list[tuple[int, int]] = []  # (giver, card), shown to all
        self.hidden_return: tuple[int, list[int]] | None = None
        self.return_pool: list[tuple[int, int]] = []  # (returner, card), shown to all
        self.return_to: dict[int, int] = {}
        # 宣战
        self.declarer: int | None = None
        self.declare_turn: int | None = None
        self.declined: list[int] = []
        self.automatic = False
        self.success: bool | None = None
        # play and result
        self.table_take = False
        self.points: tuple[int, int] | None = None
        self.match_over = False
        self._begin()

    def copy_extra(self, new: ClimbingState) -> None:
        """The tribute and the declaration are copied only before play: once play has
        begun nothing changes them, and clones share them."""
        assert isinstance(new, DanziState)
        new.totals = list(self.totals)
        if self._phase in ("playing", "over"):
            return
        new.givers = dict(self.givers)
        new.tribute_log = list(self.tribute_log)
        new.received = {k: list(v) for k, v in self.received.items()}
        new.returners = list(self.returners)
        new.pool = list(self.pool)
        new.return_pool = list(self.return_pool)
        new.return_to = dict(self.return_to)
        new.declined = list(self.declined)

    # -- the start of a deal ------------------------------------------------------------

    def _begin(self) -> None:
        prev = self.previous
        if prev is None:  # a match's first deal: the first 大王 declares and leads (N41)
            start = self.deal.info.get("start", 0)
            seat = first_red_joker(self.deal.hands, start if isinstance(start, int) else 0)
            self.declarer, self.automatic = seat, True
            self.start_play(seat)
            return
        first, second, third, last = prev["finish_order"]
        self.form = "4/2" if prev["declarer"] is not None else "2/2"
        if self.form == "4/2":  # N49
            transfers = [(last, first, 4), (third, second, 2)]
            if not self.options["tribute_between_partners"]:
                transfers = [(g, r, n) for g, r, n in transfers if team_of(g) != team_of(r)]
            for giver, receiver, n in transfers:
                self.givers[giver] = (n, receiver, prev["finish_order"].index(giver))
        else:  # N48
            self.givers[third] = (2, None, 2)
            self.givers[last] = (2, None, 3)
        for giver in sorted(self.givers, key=lambda g: -self.givers[g][2]):
            if not is_free(self.hands[giver]):  # N50: automatic; 骚贡 waits for a choice
                n, receiver, _ = self.givers[giver]
                self._give(giver, list(auto_tribute(self.hands[giver], n)), receiver, free=False)
        self._after_tribute()

    def _give(self, giver: int, cards: list[int], receiver: int | None, *, free: bool) -> Event:
        self._take_out(giver, cards)
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
        """Shown cards join a hand: everyone knows they are there (N56)."""
        self.hands[seat] = self.rules.sort([*self.hands[seat], *cards])
        self.exposed_of(seat).update(cards)

    def _take_out(self, seat: int, cards: Sequence[int]) -> None:
        rest = Counter(self.hands[seat])
        rest.subtract(cards)
        self.hands[seat] = self.rules.sort(rest.elements())
        shown = self.exposed_of(seat)
        shown -= Counter(cards)  # in place: the counter stays in exposed

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
        if self.returners:
            self._phase = "returning"
        else:
            self._start_declaring()

    def _start_declaring(self) -> None:
        assert self.previous is not None
        self._phase = "declaring"
        self.declare_turn = self.previous["finish_order"][2]  # the previous 三游 first (N42)

    def _lead_after_declaring(self) -> int:
        """N40: the declarer leads, else the previous 头游 (or 末游, ``lead_rule``)."""
        assert self.previous is not None
        if self.declarer is not None:
            return self.declarer
        order = self.previous["finish_order"]
        first: int = order[0] if self.options["lead_rule"] == "declarer_else_first" else order[3]
        return first

    # -- protocol -----------------------------------------------------------------------

    def to_act(self) -> frozenset[int]:
        p = self._phase
        if p == "playing":  # asked several times a step: the turn at once
            return only(self.turn)
        if p == "tribute":
            return frozenset(self.givers)
        if p == "returning":
            return frozenset(self.returners)
        if p == "declaring":
            assert self.declare_turn is not None
            return only(self.declare_turn)
        return super().to_act()

    def check_other(self, seat: int, action: Action) -> None:
        p = self._phase
        if isinstance(action, Tribute) and p == "tribute":
            check_tribute(self.hands[seat], self.givers[seat][0], action.cards)
        elif isinstance(action, Pick) and p in ("picking", "picking_returns"):
            self._check_pick(action.cards)
        elif isinstance(action, Return) and p == "returning":
            check_return(self.hands[seat], self.received[seat], action.cards)
        elif isinstance(action, Declare | Decline) and p == "declaring":
            pass
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
            text = format_cards(sorted(missing.elements()))
            raise IllegalAction(
                f"{text} is not among the shown cards", reason="pick_not_shown", cards=text
            )
        if self.options["tribute_pick"] == "lots":
            lots = [Counter(c for g, c in pool if g == giver) for giver in {g for g, _ in pool}]
            if not any(Counter(cards) == lot for lot in lots):
                raise IllegalAction(
                    "pick one giver's two cards (tribute_pick = lots)", reason="pick_one_lot"
                )
        if not self.options["tribute_between_partners"]:
            self._check_not_from_partners(pool, cards)

    def _check_not_from_partners(self, pool: list[tuple[int, int]], cards: Sequence[int]) -> None:
        """N57 with ``tribute_between_partners = false`` in the 2/2 form: neither the picker
        nor the seat that gets the rest receives a card its own partner put in the pool."""
        assert self.previous is not None
        order = self.previous["finish_order"]
        picker, other = (order[0], order[1]) if self._phase == "picking" else (order[2], order[3])
        rest = Counter(c for _, c in pool) - Counter(cards)
        for seat, got in ((picker, Counter(cards)), (other, rest)):
            allowed = Counter(c for g, c in pool if team_of(g) != team_of(seat))
            if got - allowed:
                text = format_cards(sorted((got - allowed).elements()))
                raise IllegalAction(
                    f"{text} would pass between partners (tribute_between_partners = false)",
                    reason="pick_from_partner",
                    cards=text,
                )

    def apply_other(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Tribute):
            receiver = self.givers[seat][1]
            events = [self._give(seat, list(action.cards), receiver, free=True)]
            self._after_tribute()
            return events
        if isinstance(action, Pick):
            return self._apply_pick(seat, list(action.cards))
        if isinstance(action, Return):
            return self._apply_return(seat, list(action.cards))
        return self._apply_declaring(seat, isinstance(action, Declare))

    def _apply_pick(self, seat: int, cards: list[int]) -> list[Event]:
        assert self.previous is not None
        order = self.previous["finish_order"]
        picking = self._phase == "picking"
        pool = self.pool if picking else self.return_pool
        rest = [c for _, c in pool]
        for c in cards:
            rest.remove(c)
        other = order[1] if picking else order[3]
        self._receive(seat, cards)
        self._receive(other, rest)
        pool.clear()
        event = Picked(seat, _as_cards(cards), other, _as_cards(rest))
        self.tribute_log.append(event.to_json())
        if picking:
            self.received = {seat: cards, other: rest}
            self.returners = [order[0]]  # 头游 returns first, face down (N48)
            self._phase = "returning"
        else:
            self._start_declaring()
        return [event]

    def _apply_return(self, seat: int, cards: list[int]) -> list[Event]:
        assert self.previous is not None
        order = self.previous["finish_order"]
        self._take_out(seat, cards)
        self.returners.remove(seat)
        if self.form == "4/2":  # shown as given (N56)
            to = self.return_to[seat]
            self._receive(to, cards)
            event: Event = ReturnGiven(seat, to, _as_cards(cards))
            self.tribute_log.append(event.to_json())
            if not self.returners:
                self._start_declaring()
            return [event]
        if self.hidden_return is None:
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
        self.turn = order[2]  # 三游 picks first (N48)
        return events

    def _apply_declaring(self, seat: int, declare: bool) -> list[Event]:
        if declare:
            self.declarer = seat
            self.declare_turn = None
            return [Declared(seat, False), *self.start_play(self._lead_after_declaring())]
        self.declined.append(seat)
        if len(self.declined) == self.seats:
            self.declare_turn = None
            return [Declined(seat), *self.start_play(self._lead_after_declaring())]
        self.declare_turn = (seat + 1) % self.seats
        return [Declined(seat)]

    # -- the core's hooks -----------------------------------------------------------------

    def team_of(self, seat: int) -> int:
        return team_of(seat)

    def sees_hand(self, viewer: int | None, seat: int) -> bool:
        """明牌: a seat sees its own hand and its partner's (N58)."""
        return viewer is not None and (viewer == seat or viewer == (seat + 2) % self.seats)

    def jiefeng(self, finisher: int) -> int:
        """接风 (N38): the partner leads; a partner out or stopped, the next seat in play.
        A failed declarer whose play stood never leads again (N45): the next seat does."""
        partner = (finisher + 2) % self.seats
        if finisher not in self.stopped and self.in_play(partner):
            return partner
        nxt = self.next_in_play(finisher)
        assert nxt is not None
        return nxt

    def deal_over(self) -> bool:
        """N39: one player left in play; or a 1-2 finish under ``end_after_one_two``."""
        live = [s for s in range(self.seats) if self.in_play(s)]
        one_two = (
            self.options["end_after_one_two"]
            and len(self.finished) == 2
            and team_of(self.finished[0]) == team_of(self.finished[1])
        )
        return len(live) <= 1 or bool(one_two)

    def apply_play(self, seat: int, combo: Combo) -> list[Event]:
        table = self.table
        self.table_take = (  # only a 砟子 is taken: no other table is looked at again
            table is not None
            and table.kind == "zhazi"
            and dz.is_take(self.rules.danzi(table), self.rules.danzi(combo))
        )
        taken = () if table is None else table.cards
        events = super().apply_play(seat, combo)
        if self.table_take:
            events.insert(1, Took(seat, _as_cards(combo.cards), _as_cards(taken)))
        if self.declarer is not None and self.success is None and self.finished:
            self.success = self.finished[0] == self.declarer
            events.append(DeclarationDecided(self.declarer, self.success))
            if not self.success:  # 宣战失败: 末游 at once, plays no more (N45)
                events += self.stop(self.declarer)
        return events

    def check_play(self, seat: int, cards: Sequence[int]) -> Combo:
        """The core's check; the cards of a play :meth:`legal_actions` has just listed (the
        very tuple) for this hand and this table are that play's combination at once."""
        listed = _LISTED[0]
        if (
            listed is not None
            and listed[2] is self.table
            and listed[0] is self.rules
            and self._phase == "playing"
        ):
            for info, listed_cards in listed[3]:
                if listed_cards is cards:
                    if self.hands[seat] is listed[1]:
                        combo = Combo(info[1], info[2], info[3], listed_cards)
                        # the table it makes, as danzi_table reads it next
                        _TABLE_DANZI[0] = (combo, self.rules, info[5])
                        return combo
                    break
        return super().check_play(seat, cards)

    def _trick_passes(self) -> set[int]:
        return {s for s, cards in self.trick if cards is None}

    def sitting_out(self) -> set[int]:
        """Under ``pass_is_final`` a seat that passed sits the rest of the trick out (N37
        option); otherwise the core's rule (a pass counts until the next play)."""
        if not self.options["pass_is_final"]:
            return self.passed
        return self.passed | self._trick_passes()

    def end_deal(self) -> list[Event]:
        """The last places (N39): the players left by cards left, a failed declarer 末游."""
        last = self.finished[-1] if self.finished else 0
        events = super().end_deal()
        left = [s for s in range(self.seats) if s not in self.finished and s not in self.stopped]
        left.sort(key=lambda s: (len(self.hands[s]), (s - last) % self.seats))
        for s in [*left, *self.stopped]:
            self.finished.append(s)
            events.append(Finished(s, len(self.finished)))
        self.points = deal_points(self.finished, self.declarer, self.game.point_rules)
        self.totals = [self.totals[0] + self.points[0], self.totals[1] + self.points[1]]
        self.match_over = max(self.totals) >= self.options["target"]
        events.append(
            DealScored(tuple(self.finished), self.points, tuple(self.totals), self.match_over)
        )
        return events

    # -- results ------------------------------------------------------------------------

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

    def payoff(self, seat: int) -> float:
        """The deal's points of ``seat``'s side less the other side's (a match settles only
        at its end, so a search values one deal by its points)."""
        if self.points is None:
            return 0.0
        side = team_of(seat)
        return float(self.points[side] - self.points[1 - side])

    def next_context(self) -> JSON:
        if self._phase != "over":
            return dict(self.context)
        return {
            "totals": list(self.totals),
            "deal_number": self.deal_number,
            "previous": {"finish_order": list(self.finished), "declarer": self.declarer},
            "match_over": self.match_over,
        }

    def result_json(self) -> JSON:
        return {
            "settlement": list(self.settlement()),
            "result": "win",
            "finish_order": list(self.finished),
            "places_zh": {PLACES_ZH[i]: s for i, s in enumerate(self.finished)},
            "declarer": self.declarer,
            "declaration": self._declaration_state(),
            "points": list(self.points or (0, 0)),
            "breakdown": deal_breakdown(self.finished, self.declarer, self.game.point_rules),
            "totals": list(self.totals),
            "target": self.options["target"],
            "match_over": self.match_over,
            "winner": self.winner,
        }

    # -- sampling what a seat cannot see (the core's hooks) -----------------------------

    def hidden_pieces(self, seat: int) -> list[tuple[int, Counter[int]]]:
        """The unseen hands, and the first 2/2 return while it lies face down (N48)."""
        pieces = super().hidden_pieces(seat)
        hidden = self.hidden_return
        if hidden is not None and not self.sees_hand(seat, hidden[0]):
            pieces.append((hidden[0], Counter(hidden[1])))
        return pieces

    def resample_allowed(self, seat: int, owners: Sequence[int]) -> Allowed:
        """What the shown tribute says of a giver's dealt hand: an automatic tribute was
        its biggest cards, 4s aside (N50, N52: nothing bigger stayed); a 骚贡 hand held no
        joker, 3 or 2 (N51). A face-down return holds no 4 (N55) and no value its returner
        received (N54)."""
        pool = set(self.hidden_from(seat))
        banned: dict[int, set[int]] = {c: set() for c in pool}
        for entry in self.tribute_log:
            if entry.get("type") != "tribute_given" or entry["seat"] not in owners:
                continue
            place = owners.index(entry["seat"])
            given = parse_cards(entry["cards"])
            if entry["free"]:
                for c in pool:
                    if card_rank_index(c) in FREE_BLOCKERS:
                        banned[c].add(place)
                continue
            last = max(_tribute_key(c) for c in given)
            for c in pool:
                if card_rank_index(c) != FOUR and _tribute_key(c) < last:
                    banned[c].add(place)
        hidden = self.hidden_return
        if hidden is not None and not self.sees_hand(seat, hidden[0]):
            place = len(owners) - 1  # the return is the last piece
            values = {return_value(c) for c in self.received.get(hidden[0], [])}
            for c in pool:
                if card_rank_index(c) == FOUR or return_value(c) in values:
                    banned[c].add(place)
        everywhere = frozenset(range(len(owners)))
        return {c: everywhere - frozenset(b) for c, b in banned.items() if b}

    def _automatic_declarer(self, seat: int) -> int | None:
        """The seat a match's first deal made declarer by its 大王, when ``seat`` does not
        see its hand and it has not played a 大王 yet (N41)."""
        declarer = self.declarer
        if self.previous is not None or declarer is None or self.sees_hand(seat, declarer):
            return None
        return None if RED_JOKER in self.played_by[declarer] else declarer

    def resample_accept(
        self, seat: int, owners: Sequence[int]
    ) -> Callable[[list[list[int]]], bool] | None:
        passes = super().resample_accept(seat, owners)
        declarer = self._automatic_declarer(seat)
        if declarer is None:
            return passes
        mine = [i for i, owner in enumerate(owners) if owner == declarer]
        return lambda parts: (
            any(RED_JOKER in parts[i] for i in mine) and (passes is None or passes(parts))
        )

    def dealt_order(self, seat: int, cards: list[int]) -> tuple[int, ...]:
        """A first deal's automatic declarer gets its 大王 first, the others theirs last,
        so that the first 大王 dealt is still the declarer's."""
        if self.previous is not None:
            return tuple(cards)
        jokers = [c for c in cards if c == RED_JOKER]
        rest = [c for c in cards if c != RED_JOKER]
        return tuple(jokers + rest if seat == self.declarer else rest + jokers)

    def resample_script(
        self, seat: int, pieces: Sequence[tuple[int, Counter[int]]], parts: Sequence[list[int]]
    ) -> Script:
        """The history, the face-down return chosen again from its sampled cards."""
        script: Script = list(self.history)
        hidden = self.hidden_return
        if hidden is not None and not self.sees_hand(seat, hidden[0]):
            at = max(i for i, (s, a) in enumerate(script) if s == hidden[0])
            script[at] = (hidden[0], Return(_as_cards(sorted(parts[-1]))))
        return script

    # -- what each seat sees ------------------------------------------------------------

    def locations(self) -> Mapping[str, Sequence[int]]:
        places = dict(super().locations())
        places["tribute pool"] = [c for _, c in self.pool]
        places["return pool"] = [c for _, c in self.return_pool]
        places["hidden return"] = self.hidden_return[1] if self.hidden_return else []
        return places

    def hidden_from(self, seat: int | None) -> Counter[int]:
        hidden = super().hidden_from(seat)
        if self.hidden_return is not None and not self.sees_hand(seat, self.hidden_return[0]):
            hidden.update(self.hidden_return[1])
        return hidden

    def _declaration_state(self) -> str:
        if self.declarer is None:
            return "offering" if self._phase == "declaring" else "none"
        if self.success is None:
            return "declared"
        return "success" if self.success else "failed"

    def _trick_takes(self) -> list[bool]:
        """Per entry of the trick: was it a 取牌 of the play before it."""
        out: list[bool] = []
        before: dz.Combo | None = None
        for _, cards in self.trick:
            if cards is None:
                out.append(False)
                continue
            now = danzi_combo(counts_of(cards))
            out.append(before is not None and now is not None and dz.is_take(before, now))
            before = now
        return out

    def view_extra(self, viewer: int | None) -> JSON:
        return self.views_extra([viewer])[0]

    def views_extra(self, viewers: Sequence[int | None]) -> list[JSON]:
        common: JSON = {
            "partner": None,
            "declarer": self.declarer,
            "automatic_declaration": self.automatic,
            "declaration": self._declaration_state(),
            "declare_turn": self.declare_turn,
            "declined": list(self.declined),
            "table_take": self.table_take if self.table is not None else False,
            "trick_takes": self._trick_takes(),
            "tribute": None,
            "deal_number": self.deal_number,
            "totals": list(self.totals),
            "target": self.options["target"],
            "previous": self.previous,
        }
        out: list[JSON] = []
        for viewer in viewers:
            extra = dict(common)
            extra["partner"] = None if viewer is None else (viewer + 2) % self.seats
            extra["tribute"] = self._tribute_view(viewer)
            out.append(extra)
        return out

    def _tribute_view(self, viewer: int | None) -> JSON | None:
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
                "cards": format_cards(hidden[1]) if self.sees_hand(viewer, hidden[0]) else None,
            },
        }

    # -- legal actions --------------------------------------------------------------------

    @property
    def danzi_table(self) -> dz.Combo | None:
        """The table as a 打弹子 combination (for bots and tables)."""
        table = self.table
        if table is None:
            return None
        last = _TABLE_DANZI[0]  # the table stays while the seats pass on it
        if last is not None and last[0] is table and last[1] is self.rules:
            return last[2]
        found = self.rules.danzi(table)
        _TABLE_DANZI[0] = (table, self.rules, found)
        return found

    def plays(self, seat: int) -> list[dz.Combo]:
        """Every 打弹子 combination ``seat`` may play now (empty when not its turn)."""
        if self._phase != "playing" or seat != self.turn:
            return []
        return legal_plays(counts_of(self.hands[seat]), self.danzi_table)

    def legal_combos(self, seat: int) -> list[Combo]:
        if self._phase != "playing" or seat != self.turn:
            return []
        return self.rules.plays_in_order(self.hands[seat], self.danzi_table)

    def legal_play_cards(self, seat: int) -> list[tuple[Card, ...]] | None:
        """In the playing phase, the cards of ``seat``'s legal plays as :meth:`legal_actions`
        lists them (``()`` the pass), no action made; None in any other phase."""
        if self._phase != "playing":
            return None
        if seat != self.turn:
            return []
        cards: list[tuple[Card, ...]] = (
            [()] if self.table is not None and self.may_pass(seat) is None else []
        )
        cards += [play for _, play in _plays(self.hands[seat], self.danzi_table, kept=True)]
        return cards

    def legal_actions(self, seat: int) -> Sequence[Action] | None:
        """The core's legal actions; the plays are made from their cards alone."""
        p = self._phase
        if p == "playing":
            if seat != self.turn:
                return []
            acts: list[Action] = (
                [_PASS] if self.table is not None and self.may_pass(seat) is None else []
            )
            hand = self.hands[seat]
            found = _plays(hand, self.danzi_table, kept=True)
            acts += [_play_of(cards) for _, cards in found]
            # kept for check_play: a listed play applied next is not classified again
            _LISTED[0] = (self.rules, hand, self.table, found)
            return acts
        if p in ("tribute", "returning") and seat in self.to_act():
            return None  # choices of several cards from 27
        return super().legal_actions(seat)

    def legal_other(self, seat: int) -> list[Action]:
        p = self._phase
        if p == "declaring":
            return [Declare(), Decline()]
        if p in ("picking", "picking_returns"):
            pool = [c for _, c in (self.pool if p == "picking" else self.return_pool)]
            out: list[Action] = []
            for pair in sorted({tuple(sorted(two)) for two in combinations(pool, 2)}):
                try:
                    self._check_pick(pair)
                except IllegalAction:
                    continue
                out.append(Pick(_as_cards(pair)))
            return out
        return []

    def random_action(self, seat: int, rng: random.Random) -> Action:
        if self._phase == "tribute":
            n = self.givers[seat][0]
            eligible = [c for c in self.hands[seat] if card_rank_index(c) != FOUR]
            return Tribute(_as_cards(rng.sample(eligible, n)))
        if self._phase == "returning":
            received = self.received[seat]
            free, fill = returnable(self.hands[seat], received)
            n = len(received)
            if fill:  # too few cards of other values: all of them, the rest made up
                return Return(_as_cards([*free, *rng.sample(fill, n - len(free))]))
            return Return(_as_cards(rng.sample(free, n)))
        return super().random_action(seat, rng)
