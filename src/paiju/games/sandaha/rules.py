"""三打哈 card order, combinations (对、拖拉机、甩牌), following and trick winners.

Pure functions over cards; the state machine lives in :mod:`paiju.games.sandaha.game`.

Every card gets, for a trump choice, an *effective suit* (0-3 = s h c d, :data:`TRUMP` for
主牌) and a *level* inside it, so that higher level = stronger card and two pairs link into
a tractor (拖拉机) exactly when their levels are consecutive. With a trump suit the trump
levels are 主5 0, 主6 1, 主8 2 … 主A 8, 副2 9, 主2 10, 副7 11, 主7 12, 小王 13, 大王 14 (7 is
always trump, so 6 and 8 are neighbours: 6688 links and 6677/7788 do not); at no-trump
(全常主) the missing 主7/主2 levels are skipped: 2s 9, 7s 10, 小王 11, 大王 12. Off-suit
levels are 5 0, 6 1, 8 2 … A 8.

>>> from paiju.cards import parse_cards
>>> [str(c) for c in decompose(parse_cards("7d 7d 7s 7s 2d 2d 5h"), trump=3)]
['7d 7d 7s 7s 2d 2d', '5h']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from paiju.cards import BLACK_JOKER, RED_JOKER, Card, format_cards
from paiju.errors import IllegalAction

__all__ = [
    "NO_TRUMP",
    "POINTS",
    "TRUMP",
    "TRUMP_NAMES",
    "Component",
    "Order",
    "as_cards",
    "beats_any",
    "best_chains",
    "build_follow",
    "card_points",
    "decompose",
    "follow_error",
    "follow_value",
    "order",
    "play_rank",
    "points_of",
    "throw_blockers",
    "tractors",
    "trick_winner",
]

TRUMP: Final = 4
"""The effective suit of every trump (主牌)."""
NO_TRUMP: Final = 4
"""The trump choice 全常主 (无主): only jokers, 7s and 2s are trumps."""
TRUMP_NAMES: Final = ("s", "h", "c", "d", "none")
"""Trump choices by index: 黑桃 红心 梅花 方块, and ``none`` for 无主."""
SUIT_LABELS: Final = ("♠", "♥", "♣", "♦", "trumps")
SUIT_CODES: Final = ("s", "h", "c", "d", "trumps")
"""The suits as the player-facing refusals name them (:mod:`paiju.reasons`)."""

POINTS: Final = {5: 5, 10: 10, 13: 10}
"""分牌: 5 = 5, 10 = 10, K = 10 (rank -> points)."""

_OFF_LEVEL: Final = {5: 0, 6: 1, 8: 2, 9: 3, 10: 4, 11: 5, 12: 6, 13: 7, 14: 8}


def as_cards(items: Iterable[int]) -> tuple[Card, ...]:
    """Card indexes as :class:`~paiju.cards.Card` s (for the card fields of actions and events)."""
    return tuple(Card(c) for c in items)


def card_points(card: int) -> int:
    """The points (分) of one card: 5, 10 or K score, the rest nothing."""
    return 0 if card >= BLACK_JOKER else POINTS.get(card // 4 + 2, 0)


def points_of(cards: Iterable[int]) -> int:
    """The points of cards (5 = 5, 10 = 10, K = 10)."""
    return sum(card_points(c) for c in cards)


@dataclass(frozen=True)
class Order:
    """The card order for one trump choice: effective suit and level of every card."""

    trump: int
    suit: tuple[int, ...]
    level: tuple[int, ...]

    def key(self, card: int) -> tuple[int, int]:
        """(effective suit, level)."""
        return self.suit[card], self.level[card]

    def strength(self, card: int) -> int:
        """A total order on cards for display and ranking: trumps above every off-suit card."""
        return (100 if self.suit[card] == TRUMP else 0) + self.level[card]


@cache
def order(trump: int) -> Order:
    """The :class:`Order` of a trump choice (0-3 = s h c d, :data:`NO_TRUMP` = 无主)."""
    if not 0 <= trump <= NO_TRUMP:
        raise ValueError(f"trump choice {trump} is not 0-4")
    no_trump = trump == NO_TRUMP
    suits: list[int] = []
    levels: list[int] = []
    for index in range(RED_JOKER + 1):
        card = Card(index)
        if card.is_joker:
            suit, level = TRUMP, (11 if no_trump else 13) + (index == RED_JOKER)
        elif card.rank in (3, 4):
            suit, level = -1, -1
        elif card.rank == 7:
            suit, level = TRUMP, 10 if no_trump else 11 + (card.suit == trump)
        elif card.rank == 2:
            suit, level = TRUMP, 9 + (card.suit == trump and not no_trump)
        elif card.suit == trump:
            suit, level = TRUMP, _OFF_LEVEL[card.rank]
        else:
            suit, level = index % 4, _OFF_LEVEL[card.rank]
        suits.append(suit)
        levels.append(level)
    return Order(trump, tuple(suits), tuple(levels))


# ----------------------------------------------------------------------- combinations


@dataclass(frozen=True)
class Component:
    """One combination of a play: a single (单牌), a pair (对) or a tractor (拖拉机).

    ``pairs`` is 0 for a single, 1 for a pair, n >= 2 for a tractor of n pairs; ``top`` is
    the level of its highest card; ``cards`` run high to low.
    """

    cards: tuple[Card, ...]
    pairs: int
    top: int

    def __str__(self) -> str:
        return format_cards(self.cards)

    @property
    def kind(self) -> str:
        return "single" if self.pairs == 0 else "pair" if self.pairs == 1 else "tractor"

    def describe(self) -> str:
        if self.pairs >= 2:
            return f"a tractor of {self.pairs} pairs"
        return "a pair" if self.pairs else "a single"


def pairs_in(cards: Iterable[int]) -> list[int]:
    """The cards held twice (对: two identical cards), once each."""
    seen: set[int] = set()
    pairs: set[int] = set()
    for c in cards:  # a set pass: this runs for every play, a Counter costs more
        if c in seen:
            pairs.add(c)
        else:
            seen.add(c)
    return sorted(pairs)


def _runs(levels: Counter[int]) -> Iterable[tuple[int, int]]:
    """Maximal runs (low level, length) of consecutive levels holding a pair."""
    present = sorted(lv for lv, n in levels.items() if n > 0)
    start = prev = None
    for lv in present:
        if prev is not None and lv == prev + 1:
            prev = lv
            continue
        if start is not None and prev is not None:
            yield start, prev - start + 1
        start = prev = lv
    if start is not None and prev is not None:
        yield start, prev - start + 1


@dataclass(frozen=True)
class SmallTables:
    """The combinations of one card and of two cards under one trump choice, built once:
    most plays are a single or a pair, and :func:`decompose` answers them from here.
    ``single[c]`` / ``pair[c]`` is None for a card not in the 三打哈 deck (3s and 4s)."""

    single: tuple[Component | None, ...]
    pair: tuple[Component | None, ...]
    strength: tuple[int, ...]


@cache
def small_tables(trump: int) -> SmallTables:
    """The :class:`SmallTables` of a trump choice (built on first use, then shared)."""
    o = order(trump)
    single: list[Component | None] = []
    pair: list[Component | None] = []
    for index in range(RED_JOKER + 1):
        if o.suit[index] < 0:
            single.append(None)
            pair.append(None)
            continue
        card = Card(index)
        single.append(Component((card,), 0, o.level[index]))
        pair.append(Component((card, card), 1, o.level[index]))
    strength = tuple(o.strength(c) for c in range(RED_JOKER + 1))
    return SmallTables(tuple(single), tuple(pair), strength)


def decompose(cards: Sequence[int], trump: int) -> list[Component]:
    """Split cards of one effective suit into combinations: longest tractors first (highest
    first among equals), then pairs, then singles, each group high to low."""
    tables = small_tables(trump)
    n = len(cards)
    if n == 1:
        comp = tables.single[cards[0]]
        if comp is not None:
            return [comp]
    elif n == 2:
        a, b = cards
        if a == b:
            comp = tables.pair[a]
            if comp is not None:
                return [comp]
        else:
            x, y = tables.single[a], tables.single[b]
            if x is not None and y is not None:
                return [x, y] if tables.strength[a] >= tables.strength[b] else [y, x]
    return _decompose(cards, trump)


def tractors(cards: Sequence[int], trump: int) -> list[Component]:
    """The tractors :func:`decompose` splits cards of one effective suit into, in its order
    (without building the pairs and singles beside them)."""
    return _tractors(cards, order(trump))[0]


def _tractors(cards: Sequence[int], o: Order) -> tuple[list[Component], dict[int, list[int]]]:
    """The tractors of :func:`decompose`, and the pairs left over by level."""
    by_level: dict[int, list[int]] = {}
    for c in pairs_in(cards):
        by_level.setdefault(o.level[c], []).append(c)
    tractors: list[Component] = []
    while True:
        counts = Counter({lv: len(cs) for lv, cs in by_level.items()})
        runs = sorted(_runs(counts), key=lambda r: (r[1], r[0]), reverse=True)
        if not runs or runs[0][1] < 2:
            break
        low, length = runs[0]
        chain = [by_level[lv].pop() for lv in range(low + length - 1, low - 1, -1)]
        doubled = tuple(Card(c) for c in chain for _ in (0, 1))
        tractors.append(Component(doubled, length, low + length - 1))
    return tractors, by_level


def _decompose(cards: Sequence[int], trump: int) -> list[Component]:
    """:func:`decompose` of any number of cards."""
    o = order(trump)
    tractors, by_level = _tractors(cards, o)
    pairs = sorted((c for cs in by_level.values() for c in cs), key=o.strength, reverse=True)
    left: dict[int, int] = {}
    for c in cards:
        left[c] = left.get(c, 0) + 1
    for comp in tractors:
        for c in comp.cards:
            left[c] -= 1
    for c in pairs:
        left[c] -= 2
    rest = [c for c, k in left.items() for _ in range(k)]
    singles = sorted(rest, key=o.strength, reverse=True)
    return [
        *tractors,
        *(Component((Card(c), Card(c)), 1, o.level[c]) for c in pairs),
        *(Component((Card(c),), 0, o.level[c]) for c in singles),
    ]


def effective_suits(cards: Iterable[int], trump: int) -> set[int]:
    """The effective suits (0-3, or :data:`TRUMP`) among cards."""
    o = order(trump)
    return {o.suit[c] for c in cards}


# -------------------------------------------------------------------------- following


def _pair_levels(cards: Iterable[int], trump: int) -> Counter[int]:
    o = order(trump)
    return Counter(o.level[c] for c in pairs_in(cards))


def best_chains(
    levels: Counter[int], lengths: tuple[int, ...]
) -> tuple[int, list[tuple[int, int]]]:
    """The most pairs that tractors among ``levels`` (pairs per level) can put against led
    tractors of ``lengths`` (each answered by one tractor no longer than it), and the
    chains used as (low level, length), lowest chains preferred."""
    if not lengths or sum(levels.values()) < 2:
        return 0, []
    first, rest = lengths[0], lengths[1:]
    best = best_chains(levels, rest)
    if best[0] == sum(lengths):
        return best
    for low in sorted(lv for lv, n in levels.items() if n > 0):
        for length in range(2, first + 1):
            span = range(low, low + length)
            if any(levels[lv] <= 0 for lv in span):
                break
            for lv in span:
                levels[lv] -= 1
            covered, chains = best_chains(levels, rest)
            for lv in span:
                levels[lv] += 1
            if length + covered > best[0]:
                best = (length + covered, [(low, length), *chains])
    return best


def follow_value(cards: Sequence[int], lead: Sequence[Component], trump: int) -> tuple[int, int]:
    """How much of the lead's structure ``cards`` answer: (pairs in tractors set against the
    led tractors, pairs set against the led pairs and tractors), each capped by the lead."""
    lengths = tuple(sorted((c.pairs for c in lead if c.pairs >= 2), reverse=True))
    led_pairs = sum(c.pairs for c in lead)
    levels = _pair_levels(cards, trump)
    in_tractors = best_chains(levels, lengths)[0] if lengths else 0
    return in_tractors, min(led_pairs, sum(levels.values()))


def _suit_label(suit: int) -> str:
    return SUIT_LABELS[suit]


def follow_error(
    hand: Sequence[int], play: Sequence[int], lead: Sequence[Component], trump: int
) -> IllegalAction | None:
    """Why ``play`` (from ``hand``) does not follow the ``lead`` (the refusal, with its
    player-facing reason and params), or None when it does."""
    o = order(trump)
    n = sum(len(c.cards) for c in lead)
    suit = o.suit[lead[0].cards[0]]
    label = _suit_label(suit)
    code = SUIT_CODES[suit]
    if len(play) != n:
        return IllegalAction(
            f"must play {n} card{'s' * (n > 1)} to follow, not {len(play)}",
            reason="follow_count",
            count=n,
            n=len(play),
        )
    in_suit = sorted((c for c in hand if o.suit[c] == suit), key=o.strength, reverse=True)
    played_in_suit = [c for c in play if o.suit[c] == suit]
    if len(in_suit) <= n:
        if len(played_in_suit) != len(in_suit):
            return IllegalAction(
                f"must follow {label}: play all your {label} ({format_cards(in_suit)}) "
                "before other cards",
                reason="must_follow_all",
                suit=code,
                cards=format_cards(in_suit),
            )
        return None
    if len(played_in_suit) != n:
        return IllegalAction(
            f"must follow {label}: you hold {len(in_suit)} {label}, play {n} of them",
            reason="must_follow",
            suit=code,
            held=len(in_suit),
            count=n,
        )
    if all(c.pairs == 0 for c in lead):  # singles led: any cards of the suit follow
        return None
    need = follow_value(in_suit, lead, trump)
    got = follow_value(play, lead, trump)
    pairs = sorted(pairs_in(in_suit), key=o.strength, reverse=True)
    if got[0] < need[0]:
        lengths = tuple(sorted((c.pairs for c in lead if c.pairs >= 2), reverse=True))
        chains = best_chains(_pair_levels(in_suit, trump), lengths)[1]
        levels = {lv for low, length in chains for lv in range(low, low + length)}
        held = format_cards(c for c in pairs if o.level[c] in levels for _ in (0, 1))
        return IllegalAction(
            f"must follow {label} with a tractor ({need[0]} pairs in tractors): you hold {held}",
            reason="must_follow_tractor",
            suit=code,
            cards=held,
        )
    if got[1] < need[1]:
        what = "a pair" if need[1] == 1 else f"{need[1]} pairs"
        held_pairs = format_cards(c for c in pairs for _ in (0, 1))
        return IllegalAction(
            f"must follow {label} with {what}: you hold {held_pairs}",
            reason="must_follow_pairs",
            suit=code,
            pairs=need[1],
            cards=held_pairs,
        )
    return None


def build_follow(
    hand: Sequence[int], lead: Sequence[Component], trump: int, key: Callable[[int], Any]
) -> list[Card]:
    """A legal follow to ``lead`` that takes, where it has a choice, the cards first in the
    order ``key`` (low cards first to duck, point cards first to feed a partner …)."""
    o = order(trump)
    n = sum(len(c.cards) for c in lead)
    suit = o.suit[lead[0].cards[0]]
    in_suit = sorted((c for c in hand if o.suit[c] == suit), key=key)
    if len(in_suit) <= n:
        others = Counter(hand)
        others.subtract(in_suit)
        return [Card(c) for c in in_suit + sorted(others.elements(), key=key)[: n - len(in_suit)]]
    led_pairs = sum(c.pairs for c in lead)
    if led_pairs == 0:  # singles led: the first cards of the suit (what the rest below takes)
        return [Card(c) for c in in_suit[:n]]
    lengths = tuple(sorted((c.pairs for c in lead if c.pairs >= 2), reverse=True))
    pairs = sorted(pairs_in(in_suit), key=key)
    chosen: list[int] = []
    if lengths:
        levels = Counter(o.level[c] for c in pairs)
        for low, length in best_chains(levels, lengths)[1]:
            for lv in range(low, low + length):
                card = next(c for c in pairs if o.level[c] == lv)
                pairs.remove(card)
                chosen += [card, card]
    while pairs and len(chosen) // 2 < led_pairs:
        card = pairs.pop(0)
        chosen += [card, card]
    rest = Counter(in_suit)
    rest.subtract(chosen)
    chosen += sorted(rest.elements(), key=key)[: n - len(chosen)]
    return [Card(c) for c in chosen]


# ----------------------------------------------------------------------- trick winners


def play_rank(play: Sequence[int], lead: Sequence[Component], trump: int) -> tuple[int, int] | None:
    """How a play ranks against a single, pair or tractor lead: (1 for a ruff 毙, level of
    its top card), or None when it cannot win (a discard 垫牌, or a different shape)."""
    if len(lead) != 1:
        return None
    o = order(trump)
    led_suit = o.suit[lead[0].cards[0]]
    suits = {o.suit[c] for c in play}
    if len(suits) != 1:
        return None
    (suit,) = suits
    if suit not in (led_suit, TRUMP):
        return None
    comps = decompose(play, trump)
    if len(comps) != 1 or comps[0].pairs != lead[0].pairs:
        return None
    return int(suit == TRUMP and led_suit != TRUMP), comps[0].top


def trick_winner(plays: Sequence[tuple[int, Sequence[int]]], trump: int) -> int:
    """The seat whose play wins a trick (the first play is the lead; a throw 甩牌 that was
    allowed wins outright; among equal plays the earlier one wins)."""
    leader, lead_cards = plays[0]
    lead = decompose(lead_cards, trump)
    if len(lead) != 1:
        return leader
    best_seat, best = leader, play_rank(lead_cards, lead, trump)
    assert best is not None
    for seat, cards in plays[1:]:
        rank = play_rank(cards, lead, trump)
        if rank is not None and rank > best:
            best_seat, best = seat, rank
    return best_seat


# ------------------------------------------------------------------------------ throws


def beats_any(hand: Sequence[int], comp: Component, trump: int) -> bool:
    """Whether ``hand`` holds a higher combination of the same kind in the same suit."""
    o = order(trump)
    suit = o.suit[comp.cards[0]]
    mine = [c for c in hand if o.suit[c] == suit]
    if comp.pairs == 0:
        return any(o.level[c] > comp.top for c in mine)
    levels = _pair_levels(mine, trump)
    if comp.pairs == 1:
        return any(lv > comp.top for lv in levels)
    return any(
        low + length - 1 > comp.top and length >= comp.pairs for low, length in _runs(levels)
    )


def throw_blockers(
    comps: Sequence[Component], hands: Sequence[tuple[int, Sequence[int]]], trump: int
) -> list[tuple[int, Component]]:
    """The (seat, component) pairs where another hand beats a component of a throw."""
    return [(seat, comp) for comp in comps for seat, hand in hands if beats_any(hand, comp, trump)]


def forced_component(blocked: Sequence[Component]) -> Component:
    """甩牌失败: the smallest beatable component, which the thrower must play instead."""
    return min(blocked, key=lambda c: (c.top, len(c.cards)))
