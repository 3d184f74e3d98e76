"""A rule-based 宁城打弹子 bot that plays like a decent player.

It decides from what its seat sees: its own hand, its partner's open hand (明牌), the
table, the card counts and the shown tribute.

* It plans its hand as the fewest plays (:func:`plan_cost`): bombs (4+ of a rank, two or
  more jokers) kept whole, then 双龙, 单龙, 连蛋 of the rest, triples, pairs and singles.
* It leads the play that leaves the cheapest plan, low cards first; when its partner can
  go out on one play, it leads something the partner beats.
* It follows with the cheapest plain play that beats the table, never over its partner
  (unless it goes out); it takes 砟子 with 4s; it bombs only when it matters: an opponent
  is close to going out, or the bomb brings it close to going out itself.
* It declares (宣战) only when its plan is short and it holds the control to carry it.
* Tribute: under 骚贡 it gives its least useful cards; it picks the biggest cards of a
  pool; it returns its least useful legal cards (its best ones to a partner).
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Sequence
from typing import Final

from paiju.cards import Card
from paiju.engine import Action, Game, State
from paiju.games.danzi.combos import (
    BJ,
    FOUR,
    RJ,
    SINGLE,
    Combo,
    Counts,
    beats,
    card_rank_index,
    counts_of,
)
from paiju.games.danzi.game import (
    DanziState,
    Declare,
    Decline,
    Pass,
    Play,
    Return,
    Tribute,
    cards_for,
)
from paiju.games.danzi.moves import legal_plays
from paiju.games.danzi.tribute import returnable

__all__ = ["DECLARE_BELOW", "DanziBot", "SmallestBot", "plan_cost"]

DECLARE_BELOW = 4.5
"""The bot declares (宣战) with a :func:`plan_cost` below this and at least one bomb."""
DANGER = 6
"""An opponent with this many cards or fewer is close to going out: bombs are worth it."""


_POSITIONS: Final = tuple((pos, 12 if pos in (1, 14) else pos - 2) for pos in range(1, 15))
"""The run positions 1-14 (A low, 2 … K, A high) with the count index of each."""


def _runs(h: list[int], per: int, min_len: int) -> int:
    """Greedily take the longest runs of ``per`` copies (N6 positions); how many were taken."""
    taken = 0
    while True:
        best, top = 0, 0  # the longest run so far (the first of that length) and its top
        length = 0
        for pos, i in _POSITIONS:
            if h[i] >= per:
                length += 1
                if length >= min_len and length > best:
                    best, top = length, pos
            else:
                length = 0
        if not best:
            return taken
        length = min(best, 13 if per < 3 else 9)
        for pos in range(top - length + 1, top + 1):
            h[_POSITIONS[pos - 1][1]] -= per
        taken += 1


def plan_cost(counts: Sequence[int]) -> float:
    """How many plays the hand needs, roughly (bombs count a little: they also win tricks)."""
    return _plan_cost(tuple(counts))


@functools.lru_cache(maxsize=1 << 17)
def _plan_cost(counts: Counts) -> float:
    """:func:`plan_cost` of a hand's counts, remembered: a search's rollouts weigh the same
    hands less the same plays over and over."""
    h = list(counts)
    cost = 0.0
    jokers = h[BJ] + h[RJ]
    if jokers >= 2:
        cost += 0.3
    else:
        cost += 0.5 * jokers  # a lone joker is a near-sure winner
    h[BJ] = h[RJ] = 0
    for i in range(13):
        if h[i] >= 4:
            cost += 0.3
            h[i] = 0
    cost += _runs(h, 2, 3)
    cost += _runs(h, 1, 5)
    for i in range(13):
        n = h[i]
        if n == 3:
            cost += 0.8
        elif n:
            # high singles and pairs win tricks; low ones need a lead
            cost += 0.6 if SINGLE[i] >= 11 else 1.0
    return cost


def _minus(hand: Counts, play: Combo) -> Counts:
    return _less(hand, play.counts)


@functools.lru_cache(maxsize=1 << 17)
def _less(hand: Counts, cards: Counts) -> Counts:
    assert len(hand) == len(cards)
    return tuple(map(operator.sub, hand, cards))


class DanziBot:
    """The 宁城打弹子 bot (seeded; its randomness only breaks ties)."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> Action:
        assert isinstance(state, DanziState)
        phase = state.phase
        if phase == "playing":
            return self.play(state, seat)
        if phase == "declaring":
            return Declare() if self.should_declare(state, seat) else Decline()
        if phase in ("picking", "picking_returns"):
            return self.pick(state, seat)
        if phase == "tribute":
            return self.tribute(state, seat)
        if phase == "returning":
            return self.give_back(state, seat)
        return state.random_action(seat, self.rng)

    # -- 宣战 ------------------------------------------------------------------------------

    def should_declare(self, state: DanziState, seat: int) -> bool:
        """Declare only with a short plan and the bombs or top cards to carry it."""
        counts = _counts(state.hands[seat])
        cost = plan_cost(counts)
        bombs = sum(1 for i in range(13) if counts[i] >= 4) + (counts[BJ] + counts[RJ] >= 2)
        # measured over bot deals: a plan under 4.5 plays with a bomb went out first
        # 55-65% of the time (all hands: 25%), about where 宣战 pays for its risk
        return cost < DECLARE_BELOW and bombs >= 1

    # -- the play -------------------------------------------------------------------------

    def play(self, state: DanziState, seat: int) -> Action:
        hand = _counts(state.hands[seat])
        plays = state.plays(seat)
        if state.table is None:
            return self._act(state, seat, self.lead(state, seat, hand, plays))
        whole = [p for p in plays if p.cards == sum(hand)]
        if whole:
            return self._act(state, seat, whole[0])  # go out (接风 for the partner)
        owner = state.table_seat
        assert owner is not None
        partner = (seat + 2) % 4
        if owner == partner:
            return Pass()
        choice = self.follow(state, seat, hand, plays, owner)
        return Pass() if choice is None else self._act(state, seat, choice)

    def _act(self, state: DanziState, seat: int, combo: Combo) -> Action:
        return Play(cards_for(state.hands[seat], combo.counts))

    def lead(self, state: DanziState, seat: int, hand: Counts, plays: list[Combo]) -> Combo:
        whole = [p for p in plays if p.cards == sum(hand)]
        if whole:
            return whole[0]
        partner = (seat + 2) % 4
        if state.in_play(partner):
            feed = self._feed_partner(state, partner, plays)
            if feed is not None:
                return feed
        plain = [p for p in plays if p.plain] or plays

        def score(p: Combo) -> tuple[float, int, int]:
            return (plan_cost(_minus(hand, p)) - 0.05 * p.cards, p.top, p.row)

        return min(plain, key=score)

    def _feed_partner(self, state: DanziState, partner: int, plays: list[Combo]) -> Combo | None:
        """When the partner's whole hand is one combination, lead something it beats."""
        mate = legal_plays(_counts(state.hands[partner]), None)
        size = len(state.hands[partner])
        goal = next((m for m in mate if m.cards == size), None)
        if goal is None:
            return None
        fits = [p for p in plays if p.plain and beats(p, goal).beats]
        return min(fits, key=lambda p: (p.top, p.cards)) if fits else None

    def follow(
        self, state: DanziState, seat: int, hand: Counts, plays: list[Combo], owner: int
    ) -> Combo | None:
        if not plays:
            return None
        base = plan_cost(hand)
        table = state.danzi_table
        assert table is not None
        takes = [p for p in plays if p.counts[FOUR] == p.cards and table.kind == "砟子"]
        if takes and takes[0].cards < table.cards:
            return takes[0]
        plain = [p for p in plays if p.plain]
        if plain:
            best = min(plain, key=lambda p: (plan_cost(_minus(hand, p)), p.top))
            if plan_cost(_minus(hand, best)) <= base + 0.5:
                return best
        bombs = [p for p in plays if not p.plain]
        if not bombs:
            return None
        threat = min(
            (len(state.hands[s]) for s in range(4) if state.in_play(s) and s % 2 != seat % 2),
            default=99,
        )
        # the bomb that spoils the plan least (a whole 8888 rather than 888 of it), lowest
        bomb = min(bombs, key=lambda p: (plan_cost(_minus(hand, p)), p.key))
        after = plan_cost(_minus(hand, bomb))
        if threat <= DANGER or after <= 1.5 or len(state.hands[owner]) <= DANGER:
            return bomb
        return None

    # -- 简单's slips ------------------------------------------------------------------

    def mistake(self, state: State, seat: int, best: Action, rng: random.Random) -> Action | None:
        """A beginner's slip instead of ``best`` in the play (for 简单,
        :class:`paiju.bots.EasyBot`): on a lead, its highest plain play (top cards spent
        early); on a follow, a pass where the rule bot takes the trick, and where it passes,
        the plain play that spoils its plan most, or a bomb on a trick worth nothing.
        None outside the play."""
        assert isinstance(state, DanziState)
        if state.phase != "playing":
            return None
        hand = _counts(state.hands[seat])
        plays = state.plays(seat)
        plain = [p for p in plays if p.plain]
        if state.table is None:
            if not plain:
                return None
            return self._act(state, seat, max(plain, key=lambda p: (p.top, p.cards, p.row)))
        if isinstance(best, Play):
            return Pass()
        if not plays:
            return None
        if plain:
            worst = max(plain, key=lambda p: (plan_cost(_minus(hand, p)), p.top))
            return self._act(state, seat, worst)
        return self._act(state, seat, min(plays, key=lambda p: p.key))

    # -- tribute ------------------------------------------------------------------------

    def _usefulness(self, hand: Sequence[int]) -> list[int]:
        """Cards of the hand from the least useful to the most (4s excluded)."""
        counts = _counts(hand)
        base = plan_cost(counts)
        scored = []
        for c in set(hand):
            i = card_rank_index(c)
            if i == FOUR:
                continue
            less = list(counts)
            less[i] -= 1
            scored.append((base - plan_cost(less), SINGLE[i], c))
        order: list[int] = []
        for _, _, c in sorted(scored, reverse=True):
            order += [c] * hand.count(c)
        return order

    def tribute(self, state: DanziState, seat: int) -> Action:
        n = state.givers[seat][0]
        return Tribute(tuple(Card(c) for c in self._usefulness(state.hands[seat])[:n]))

    def pick(self, state: DanziState, seat: int) -> Action:
        legal = state.legal_actions(seat) or []
        return max(legal, key=lambda a: sum(SINGLE[card_rank_index(c)] for c in _cards(a)))

    def give_back(self, state: DanziState, seat: int) -> Action:
        received = state.received[seat]
        free, fill = returnable(state.hands[seat], received)
        order = self._usefulness(state.hands[seat])
        to = state.return_to.get(seat)
        if to is not None and to % 2 == seat % 2:
            order = order[::-1]  # a return to the partner: the best cards
        ok = [c for c in order if c in free]
        if fill:  # too few cards of other values (our fallback): all of them, then the rest
            ok += [c for c in order if c in fill][: len(received) - len(free)]
        return Return(tuple(Card(c) for c in ok[: len(received)]))


class SmallestBot(DanziBot):
    """The "smallest beating play" baseline: always the lowest legal play, never a pass
    while it can beat, tribute like the bot, never declares."""

    def should_declare(self, state: DanziState, seat: int) -> bool:
        return False

    def play(self, state: DanziState, seat: int) -> Action:
        plays = state.plays(seat)
        if not plays:
            return Pass()
        smallest = min(plays, key=lambda p: (p.row, p.cards if p.plain else 0, p.top))
        if state.table is None:
            smallest = min(plays, key=lambda p: (not p.plain, p.top, -p.cards))
        return self._act(state, seat, smallest)


def _counts(hand: Sequence[int]) -> Counts:
    return _counts_of(tuple(hand))


@functools.lru_cache(maxsize=1 << 16)
def _counts_of(hand: tuple[int, ...]) -> Counts:
    """:func:`counts_of` a hand, remembered (a rollout's bots ask of the same hands)."""
    return counts_of(hand)


def _cards(action: Action) -> Sequence[int]:
    cards: Sequence[int] = getattr(action, "cards", ())
    return cards
