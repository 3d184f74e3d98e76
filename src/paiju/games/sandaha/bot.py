"""A rule-based 三打哈 bot that plays like a decent human.

It decides from what its seat may see (its hand, the bids, the trump, the cards played; the
kitty when it is the declarer): it bids from hand strength (trump length, 常主, pairs, side
aces), buries safe side cards (short suits first, no points or aces), names its longest
trump, leads tractors and boss cards (no higher combination can be out), throws trumps
only when no unseen combination can beat them, ruffs and over-ruffs when a trick carries
points, feeds points to a partner's safe winning trick and ducks low otherwise.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import chain, repeat

from paiju.engine import Action, Game, State
from paiju.games.sandaha import rules
from paiju.games.sandaha.game import (
    Bid,
    Bury,
    NameTrump,
    Pass,
    Play,
    SandahaState,
    is_changzhu,
)
from paiju.games.sandaha.rules import (
    NO_TRUMP,
    TRUMP,
    TRUMP_NAMES,
    Component,
    Order,
    as_cards,
    order,
)
from paiju.games.sandaha.spec import SandahaParams

_Key = Callable[[int], tuple[int, int]]

__all__ = ["SandahaBot", "hand_strength"]

BID_FLOOR = 40
"""The bot never bids below this (a lower contract is rarely made)."""
STRENGTH_TO_BID = 17.0
"""The :func:`hand_strength` from which the bot bids at all."""


def hand_strength(hand: Sequence[int], trump: int) -> float:
    """How well a hand plays with ``trump``: trump length and quality, trump pairs, side aces."""
    o = order(trump)
    trumps = [c for c in hand if o.suit[c] == TRUMP]
    score = float(len(trumps))
    score += sum(0.6 for c in trumps if c >= 52)
    score += sum(0.3 for c in trumps if is_changzhu(c) and c < 52)
    score += 0.8 * len(rules.pairs_in(trumps))
    side = [c for c in hand if o.suit[c] != TRUMP]
    score += 0.7 * sum(1 for c in side if c // 4 + 2 == 14)
    score += 0.4 * sum(1 for c in rules.pairs_in(side) if c // 4 + 2 >= 13)
    return score


def best_trump(hand: Sequence[int]) -> int:
    """The trump choice (0-3 or 无主) under which the hand is strongest."""
    return max(range(NO_TRUMP + 1), key=lambda t: (hand_strength(hand, t), -t))


class SandahaBot:
    """The 三打哈 bot (seeded; its only randomness breaks ties)."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.deck = _deck_counts(game)
        """Each card of the game's decks -> its copies (in the deck's order)."""

    def act(self, state: State, seat: int) -> Action:
        assert isinstance(state, SandahaState)
        if state.phase == "bidding":
            return self.bid(state, seat)
        if state.phase == "burying":
            return self.bury(state, seat)
        if state.phase == "naming":
            return NameTrump(TRUMP_NAMES[best_trump(state.hands[seat])])
        if not state.trick:
            return Play(as_cards(self.lead(state, seat)))
        return Play(as_cards(self.follow(state, seat)))

    # -- bidding and the kitty -----------------------------------------------------------

    def bid_limit(self, hand: Sequence[int]) -> int:
        """The lowest 庄分 this hand dares to promise (before seeing the kitty).

        Calibrated on bot self-play (every seat passing, so the first bidder declares at
        80): from a strength of 17 the defenders took under 80 in most hands, and each
        point of strength above it saved them about 5 more.
        """
        score = max(hand_strength(hand, t) for t in range(NO_TRUMP + 1))
        if score < STRENGTH_TO_BID:
            return 1000
        step = self.game.variant.params_as(SandahaParams).bid_step
        limit = 80 - step * int(score - STRENGTH_TO_BID)
        return max(BID_FLOOR, limit)

    def bid(self, state: SandahaState, seat: int) -> Action:
        allowed = state.bid_range()
        duty = state.must_bid(seat)
        if duty is not None:
            return Bid(duty)
        if allowed and allowed[0] >= self.bid_limit(state.hands[seat]) and allowed[0] <= 80:
            return Bid(allowed[0])
        return Pass()

    def bury(self, state: SandahaState, seat: int) -> Action:
        hand = state.hands[seat]
        trump = best_trump(hand)
        o = order(trump)
        lengths = Counter(o.suit[c] for c in hand)
        pairs = set(rules.pairs_in(hand))

        def cost(card: int) -> tuple[float, int]:
            if o.suit[card] == TRUMP:
                return 1000.0 + o.level[card], card
            rank = card // 4 + 2
            value = 20.0 * (card in pairs) + 15.0 * (rank == 14) + 8.0 * (rank == 13)
            value += 1.5 * rules.card_points(card) + 8.0 * lengths[o.suit[card]] + o.level[card]
            return value, card

        return Bury(as_cards(sorted(hand, key=cost)[: state.params.kitty_size]))

    # -- what the seat knows --------------------------------------------------------------

    def unseen(self, state: SandahaState, seat: int) -> list[int]:
        """Cards that may be in another hand: not ours, not played, not shown, not buried by us."""
        rest = dict(self.deck)
        gone: list[Iterable[int]] = [state.hands[seat], state.played]
        gone += [state.exposed[other] for other in range(state.seats) if other != seat]
        if seat == state.declarer:
            gone.append(state.kitty)
        for cards in gone:
            for c in cards:
                rest[c] -= 1
        return list(chain.from_iterable(map(repeat, rest, rest.values())))  # in the deck's order

    def voids(self, state: SandahaState) -> dict[int, set[int]]:
        """The suits each seat has shown it is out of (it followed short of the led suit)."""
        suit_of = order(state.trump_index).suit
        out: dict[int, set[int]] = {s: set() for s in range(state.seats)}
        for trick in [*state.tricks, state.trick]:
            if not trick:
                continue
            lead = trick[0][1]
            suit, size = suit_of[lead[0]], len(lead)
            for seat, cards in trick[1:]:
                if [suit_of[c] for c in cards].count(suit) < size:
                    out[seat].add(suit)
        return out

    # -- leading -----------------------------------------------------------------------------

    def lead(self, state: SandahaState, seat: int) -> Sequence[int]:
        t = state.trump_index
        o = order(t)
        hand = state.hands[seat]
        unseen = self.unseen(state, seat)
        unseen_trumps = sum(1 for c in unseen if o.suit[c] == TRUMP)
        voids = self.voids(state)
        opponents = (
            [s for s in range(state.seats) if s != seat]
            if seat == state.declarer
            else [state.declarer if state.declarer is not None else seat]
        )
        by_suit: dict[int, list[int]] = {}
        for c in hand:
            by_suit.setdefault(o.suit[c], []).append(c)
        comps = {suit: rules.decompose(cards, t) for suit, cards in by_suit.items()}

        def ruffable(suit: int) -> bool:
            return suit != TRUMP and unseen_trumps > 0 and any(suit in voids[s] for s in opponents)

        boss = {
            suit: [c for c in cs if not rules.beats_any(unseen, c, t)]
            for suit, cs in comps.items()
            if not ruffable(suit)
        }
        trump_boss = boss.get(TRUMP, [])
        if len(trump_boss) >= 2:
            return [c for comp in trump_boss for c in comp.cards]
        trumps = by_suit.get(TRUMP, [])
        if seat == state.declarer and unseen_trumps and len(trumps) >= 4:
            if trump_boss:
                return max(trump_boss, key=lambda c: (len(c.cards), c.top)).cards
            low = [c for c in comps[TRUMP] if rules.points_of(c.cards) == 0]
            return min(low or comps[TRUMP], key=lambda c: (-len(c.cards), c.top)).cards
        for kind in (2, 1, 0):
            found = [
                comp
                for suit, cs in boss.items()
                for comp in cs
                if min(comp.pairs, 2) == kind and (suit != TRUMP or kind > 0)
            ]
            if found:
                return max(found, key=lambda c: (len(c.cards), c.top)).cards
        side = [s for s in by_suit if s != TRUMP]
        if seat != state.declarer and state.declarer is not None:
            forcing = [s for s in side if s in voids[state.declarer]]
            if forcing:
                side = forcing
        if side:
            suit = max(side, key=lambda s: (len(by_suit[s]), s))
            return (min(by_suit[suit], key=lambda c: (rules.card_points(c) > 0, o.level[c])),)
        return (min(hand, key=lambda c: (rules.card_points(c) > 0, o.strength(c))),)

    # -- following ----------------------------------------------------------------------

    def follow(self, state: SandahaState, seat: int) -> Sequence[int]:
        t = state.trump_index
        o = order(t)
        hand = state.hands[seat]
        lead = state.lead
        winner = rules.trick_winner(state.trick, t)
        on_my_side = (winner == state.declarer) == (seat == state.declarer)
        last = len(state.trick) == state.seats - 1
        declarer_played = any(s == state.declarer for s, _ in state.trick)

        def low(c: int) -> tuple[int, int]:
            return rules.card_points(c) > 0, o.strength(c)

        def feed(c: int) -> tuple[int, int]:
            return -rules.card_points(c), o.strength(c)

        duck = rules.build_follow(hand, lead, t, low)
        if on_my_side:
            winning = dict(state.trick)[winner]
            safe = last or (seat != state.declarer and declarer_played)
            if not safe and len(lead) == 1:
                safe = not rules.beats_any(self.unseen(state, seat), _as_component(winning, t), t)
            if safe or len(lead) > 1:
                return rules.build_follow(hand, lead, t, feed)
            return duck
        points = rules.points_of(c for _, cs in state.trick for c in cs)
        win = self.cheapest_win(state, seat, after_me=not last)
        if win is not None and (points > 0 or seat == state.declarer or last):
            return win
        return duck

    def cheapest_win(self, state: SandahaState, seat: int, after_me: bool) -> Sequence[int] | None:
        """The lowest legal play that takes the trick now (a boss one when others follow)."""
        lead = state.lead
        if len(lead) != 1:
            return None
        t = state.trump_index
        o = order(t)
        hand = state.hands[seat]
        best = max(
            (r for _, cs in state.trick if (r := rules.play_rank(cs, lead, t)) is not None),
            default=(0, -1),
        )
        led_suit = o.suit[lead[0].cards[0]]
        pool = [c for c in hand if o.suit[c] == led_suit]
        if not pool:
            pool = [c for c in hand if o.suit[c] == TRUMP]
        options = []
        for cards in _shapes(pool, lead[0].pairs, t):
            rank = rules.play_rank(cards, lead, t)
            if rank is None or rank <= best:
                continue
            if rules.follow_error(hand, cards, lead, t) is not None:
                continue
            options.append((rank, cards))
        if not options:
            return None
        if after_me:
            unseen = self.unseen(state, seat)
            boss = [
                (r, cs) for r, cs in options if not rules.beats_any(unseen, _as_component(cs, t), t)
            ]
            if boss:
                return min(boss)[1]
        return min(options)[1]

    # -- 困难's candidates -------------------------------------------------------------

    def alternatives(self, state: State, seat: int) -> list[Action]:
        """Plays worth weighing against the rule bot's own in the play (for 困难,
        :class:`paiju.search.SearchBot`): on a lead, each suit's lowest card (the side
        suits first), then each suit's highest card and highest pair; on a follow, the
        cheapest win, the low duck, the point feed and the highest follow. Each is a plan
        a player would consider, not a random card."""
        assert isinstance(state, SandahaState)
        if state.phase != "playing":
            return []
        t = state.trump_index
        o = order(t)
        hand = state.hands[seat]
        plays: list[Sequence[int]] = []
        if not state.trick:
            by_suit: dict[int, list[int]] = {}
            for c in hand:
                by_suit.setdefault(o.suit[c], []).append(c)
            suits = sorted(by_suit, key=lambda suit: (suit == TRUMP, suit))
            for suit in suits:
                cards = by_suit[suit]
                plays.append((min(cards, key=lambda c: (rules.card_points(c) > 0, o.level[c])),))
            for suit in suits:
                cards = by_suit[suit]
                plays.append((max(cards, key=lambda c: (o.level[c], c)),))
                pairs = rules.pairs_in(cards)
                if pairs:
                    top = max(pairs, key=lambda c: (o.level[c], c))
                    plays.append((top, top))
            return [Play(as_cards(p)) for p in plays]
        lead = state.lead
        low, feed, high = _follow_keys(o)
        win = self.cheapest_win(state, seat, after_me=len(state.trick) < state.seats - 1)
        if win is not None:
            plays.append(win)
        for key in (low, feed, high):
            plays.append(rules.build_follow(hand, lead, t, key))
        return [Play(as_cards(p)) for p in plays]

    # -- 简单's slips ------------------------------------------------------------------

    def mistake(self, state: State, seat: int, best: Action, rng: random.Random) -> Action | None:
        """A beginner's slip instead of ``best`` in the play (for 简单,
        :class:`paiju.bots.EasyBot`): on a lead, a point card (a 10, a K, a 5) of a side
        suit, master or not; on a follow, ducking low where the rule bot takes or feeds
        the trick, and where it ducks, a point card thrown into the other side's trick or
        a high card spent on its own side's. None outside the play."""
        assert isinstance(state, SandahaState)
        if state.phase != "playing" or not isinstance(best, Play):
            return None
        t = state.trump_index
        o = order(t)
        hand = state.hands[seat]
        if not state.trick:
            side = [c for c in hand if o.suit[c] != TRUMP]
            pool = [c for c in side if rules.card_points(c) > 0] or side
            if not pool:
                return None
            card = max(pool, key=lambda c: (rules.card_points(c), o.level[c], c))
            return Play(as_cards((card,)))
        lead = state.lead
        winner = rules.trick_winner(state.trick, t)
        theirs = (winner == state.declarer) != (seat == state.declarer)
        low, feed, high = _follow_keys(o)
        duck = Play(as_cards(rules.build_follow(hand, lead, t, low)))
        if sorted(duck.cards) != sorted(best.cards):
            return duck
        return Play(as_cards(rules.build_follow(hand, lead, t, feed if theirs else high)))


def _follow_keys(o: Order) -> tuple[_Key, _Key, _Key]:
    """The three ways of choosing a follow's cards under the trump order ``o``: low (keep
    the points back, then the weakest), feed (points first) and high (the strongest)."""

    def low(c: int) -> tuple[int, int]:
        return rules.card_points(c) > 0, o.strength(c)

    def feed(c: int) -> tuple[int, int]:
        return -rules.card_points(c), o.strength(c)

    def high(c: int) -> tuple[int, int]:
        return -o.strength(c), c

    return low, feed, high


_DECKS: dict[tuple[int, ...], dict[int, int]] = {}


def _deck_counts(game: Game) -> dict[int, int]:
    """The copies of each card of ``game``'s full set, made once per deck."""
    full = game.full_set()
    counts = _DECKS.get(full)
    if counts is None:
        counts = _DECKS[full] = {}
        for c in full:
            counts[c] = counts.get(c, 0) + 1
    return counts


def _as_component(cards: Sequence[int], trump: int) -> Component:
    comps = rules.decompose(cards, trump)
    return comps[0]


def _shapes(pool: Sequence[int], pairs: int, trump: int) -> Iterable[tuple[int, ...]]:
    """Every single, pair, or tractor of ``pairs`` pairs that ``pool`` can make."""
    o = order(trump)
    if pairs == 0:
        yield from ((c,) for c in sorted(set(pool)))
        return
    held = rules.pairs_in(pool)
    if pairs == 1:
        yield from ((c, c) for c in held)
        return
    by_level: dict[int, list[int]] = {}
    for c in held:
        by_level.setdefault(o.level[c], []).append(c)
    for low in sorted(by_level):
        levels = range(low, low + pairs)
        if all(lv in by_level for lv in levels):
            yield tuple(by_level[lv][0] for lv in reversed(levels) for _ in (0, 1))
