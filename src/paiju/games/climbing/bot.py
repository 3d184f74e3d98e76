"""A rule-based bot for the 鞍山 climbing games (and a base for the family's others).

It decides from what its seat sees (its hand, the table, card counts, the sides it knows):

* it keeps its rank groups whole (a 四同张 stays a quad, a pair is not split for a single)
  unless an opponent is about to go out;
* it leads low first (the lowest whole group), and keeps its top cards (2s, jokers and, in
  放羊, 3s) for taking the lead back;
* it passes on a partner's play, and feeds a partner about to go out a low lead of the
  size the partner may still hold;
* it blocks an opponent about to go out: it beats with its highest play, breaks a group if
  it must, and does not lead the kind the opponent could go out with;
* in 放羊 the banker calls an A it does not hold (2 对 2), or its own card (1 对 3) with a
  strong hand, 亮 with a very strong one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from paiju.engine import Action, Game, State
from paiju.games.climbing.core import ClimbingState, Combo, Pass, Play, as_cards, full_counts

__all__ = ["ClimbingBot", "SmallestBot"]

THREAT = 3
"""An opponent holding this many cards or fewer is about to go out."""


class ClimbingBot:
    """The family bot (``cls(game, seed)``), see the module docs."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    # -- what the seat knows ------------------------------------------------------------

    @staticmethod
    def _sides(state: ClimbingState, seat: int) -> tuple[frozenset[int], frozenset[int]]:
        """(known partners, known opponents) of ``seat``, as its view shows the teams."""
        teams = tuple(state.teams_known_to(seat))
        known = _SIDES.get((teams, seat))
        if known is None:
            known = _SIDES[teams, seat] = _sides_of(teams, seat)
        return known

    def act(self, state: State, seat: int) -> Action:
        assert isinstance(state, ClimbingState)
        if state.phase != "playing":
            return self.other(state, seat)
        combos = state.legal_combos(seat)
        if state.table is None:
            return self._play(self.lead(state, seat, combos))
        choice = self.follow(state, seat, combos)
        if choice is None and state.may_pass(seat) is None:
            return Pass()
        return self._play(
            choice if choice is not None else min(combos, key=self._cost(state, seat))
        )

    def alternatives(self, state: State, seat: int) -> list[Action]:
        """The plans a search compares with the rule bot's (:mod:`paiju.search`): a pass
        where one is allowed, the cheapest plays (groups kept, low ranks first) and the
        highest play (the block); on the 放羊 call, the other modes: 1 对 3 on the seat's
        own highest callable card, plain and 亮, and 2 对 2 on a card it does not hold."""
        assert isinstance(state, ClimbingState)
        if state.phase == "calling":
            return self._calls(state, seat)
        if state.phase != "playing":
            return []
        combos = state.legal_combos(seat)
        out: list[Action] = []
        if state.table is not None and state.may_pass(seat) is None:
            out.append(Pass())
        if combos:
            cheap = sorted(combos, key=self._cost(state, seat))
            out.extend(self._play(c) for c in cheap[:3])
            out.append(self._play(max(combos, key=lambda c: (c.rank, c.length))))
        return out

    @staticmethod
    def _calls(state: ClimbingState, seat: int) -> list[Action]:
        from paiju.games.climbing.fangyang import Call

        rules = state.rules
        hand = state.hands[seat]
        cards = [a.card() for a in state.legal_actions(seat) or [] if isinstance(a, Call)]
        own = [c for c in cards if c in hand]
        others = [c for c in cards if c not in hand]
        out: list[Action] = []
        if own:
            card = max(own, key=rules.level)
            out += [Call.of(card), Call.of(card, True)]
        if others:
            out.append(Call.of(max(others, key=rules.level)))
        return out

    @staticmethod
    def _play(combo: Combo) -> Play:
        return Play(as_cards(combo.cards))

    def other(self, state: ClimbingState, seat: int) -> Action:
        """A decision of a phase before play: the 放羊 call, or a legal action at random."""
        from paiju.games.climbing.fangyang import FangyangState

        if isinstance(state, FangyangState) and state.phase == "calling":
            return self.call(state, seat)
        legal = state.legal_actions(seat) or []
        return self.rng.choice(list(legal))

    # -- 放羊: the call ---------------------------------------------------------------

    def call(self, state: ClimbingState, seat: int) -> Action:
        """Call an A (the highest callable rank) the seat does not hold; with 7 top cards
        and triples, its own highest callable card (1 对 3), 亮 with 9."""
        from paiju.games.climbing.fangyang import Call

        rules = state.rules
        hand = state.hands[seat]
        top = rules.level(_card_of_rank(2))
        strength = sum(1 for c in hand if rules.level(c) >= top)
        strength += sum(1 for n in Counter(rules.level(c) for c in hand).values() if n >= 3)
        legal = [a for a in state.legal_actions(seat) or [] if isinstance(a, Call) and not a.shown]
        cards = [(a.card(), a) for a in legal]
        own = [c for c, _ in cards if c in hand]
        if strength >= 7 and own:
            card = max(own, key=rules.level)
            return Call.of(card, strength >= 9)
        others = [(c, a) for c, a in cards if c not in hand]
        best = max(rules.level(c) for c, _ in others)
        pick = [a for c, a in others if rules.level(c) == best]
        return self.rng.choice(pick)

    # -- play -------------------------------------------------------------------------

    def _cost(self, state: ClimbingState, seat: int):  # type: ignore[no-untyped-def]
        """Sort key of a play: groups broken, then rank (spend little, keep groups)."""
        counts = Counter(map(state.rules.level, state.hands[seat]))

        def key(c: Combo) -> tuple[int, int, int]:
            return (counts[c.rank] != c.length, c.rank, -c.length)

        return key

    @staticmethod
    def unseen(state: ClimbingState, seat: int) -> list[int]:
        """The cards ``seat`` has not seen played and does not hold (others may hold them)."""
        left = list(full_counts(state.game.full_set()))  # by card: cards are 0-53
        for c in state.hands[seat]:
            left[c] -= 1
        for c in state.played:
            left[c] -= 1
        return [c for c, n in enumerate(left) if n > 0 for _ in range(n)]

    @staticmethod
    def boss(state: ClimbingState, combo: Combo, unseen: Sequence[int]) -> bool:
        """Nothing the others may hold beats ``combo`` (it wins the trick for sure)."""
        return not state.rules.beatable(unseen, combo)

    def lead(self, state: ClimbingState, seat: int, combos: Sequence[Combo]) -> Combo:
        hand = state.hands[seat]
        for c in combos:
            if c.length == len(hand):
                return c  # out in one play
        partners, opponents = self._sides(state, seat)
        sizes = [len(h) for h in state.hands]
        counts = Counter(map(state.rules.level, hand))
        whole = [c for c in combos if counts[c.rank] == c.length]
        if 2 <= len(whole) <= 3:
            # the endgame: a sure winner first keeps the lead for the rest
            unseen = self.unseen(state, seat)
            sure = [c for c in whole if self.boss(state, c, unseen)]
            if sure:
                return min(sure, key=lambda c: c.rank)
        pool = whole or list(combos)
        threats = {sizes[s] for s in opponents if state.in_play(s) and sizes[s] <= THREAT}
        safe = [c for c in pool if c.length not in threats]
        if threats and not safe:
            # every lead could let an opponent out: lead the highest of the commonest size
            return max(pool, key=lambda c: (c.rank, c.length))
        pool = safe or pool
        feed = [s for s in partners if state.in_play(s) and sizes[s] <= THREAT]
        if feed:
            fitting = [c for c in pool if c.length <= sizes[feed[0]]]
            if fitting:
                return min(fitting, key=lambda c: (c.rank, -c.length))
        # low first; among the lowest, shed more cards at once
        return min(pool, key=lambda c: (c.rank + (4 if c.kind == "quad" else 0), -c.length))

    def follow(self, state: ClimbingState, seat: int, combos: Sequence[Combo]) -> Combo | None:
        if not combos:
            return None
        hand = state.hands[seat]
        for c in combos:
            if c.length == len(hand):
                return c
        partners, opponents = self._sides(state, seat)
        sizes = [len(h) for h in state.hands]
        table_seat = state.table_seat
        threat = any(state.in_play(s) and sizes[s] <= THREAT for s in opponents)
        if table_seat in partners:
            return None  # never overtake a partner
        rules = state.rules
        counts = Counter(map(rules.level, hand))
        top = rules.level(_card_of_rank(2))
        if threat or (table_seat is not None and sizes[table_seat] <= THREAT):
            # block: keep the opponent from going out, with the highest play
            return max(combos, key=lambda c: (c.rank, counts[c.rank] == c.length))
        groups = len(counts)
        whole = [c for c in combos if counts[c.rank] == c.length and c.kind != "quad"]
        if groups <= 3 and whole:
            # the endgame: take the lead with a sure winner, then lead the rest
            unseen = self.unseen(state, seat)
            sure = [c for c in whole if self.boss(state, c, unseen)]
            if sure:
                return min(sure, key=lambda c: c.rank)
        if not whole:
            if len(hand) <= 6:
                cheap = [c for c in combos if c.kind != "quad"]
                return min(cheap, key=lambda c: c.rank) if cheap else None
            return None
        best = min(whole, key=lambda c: c.rank)
        if best.rank >= top and len(hand) > 8 and table_seat not in opponents:
            return None  # do not spend a 2 or a joker on an unknown seat early
        if best.rank >= top and len(hand) > 10:
            return None
        return best

    # -- 简单's slips ------------------------------------------------------------------

    def mistake(self, state: State, seat: int, best: Action, rng: random.Random) -> Action | None:
        """A beginner's slip instead of ``best`` (for 简单, :class:`paiju.bots.EasyBot`):
        on a lead it breaks up a 四同张 or spends its highest group early; on a follow it
        passes a trick it could take, or, where the rule bot passes, overtakes its partner
        or spends a high card on nothing. None when no such slip is open."""
        assert isinstance(state, ClimbingState)
        if state.phase != "playing":
            return None
        combos = state.legal_combos(seat)
        if not combos:
            return None
        counts = Counter(map(state.rules.level, state.hands[seat]))
        broken = [c for c in combos if counts[c.rank] >= 4 and c.length < counts[c.rank]]
        if state.table is None:
            if broken and rng.random() < 0.5:
                return self._play(min(broken, key=lambda c: (c.rank, c.length)))
            whole = [c for c in combos if counts[c.rank] == c.length and c.kind != "quad"]
            return self._play(max(whole or combos, key=lambda c: (c.rank, c.length)))
        if isinstance(best, Play):
            return Pass() if state.may_pass(seat) is None else None
        if broken:
            return self._play(min(broken, key=lambda c: c.rank))
        return self._play(max(combos, key=lambda c: (c.kind != "quad", c.rank)))


class SmallestBot:
    """The baseline: plays the smallest beating play (the lowest rank, then the fewest
    cards), always plays when it can, calls the first legal call."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game

    def act(self, state: State, seat: int) -> Action:
        assert isinstance(state, ClimbingState)
        if state.phase != "playing":
            legal = state.legal_actions(seat) or []
            return next(iter(legal))
        combos = state.legal_combos(seat)
        if not combos:
            return Pass()
        best = min(combos, key=lambda c: (c.rank, c.length))
        return Play(as_cards(best.cards))


_SIDES: dict[tuple[tuple[int | None, ...], int], tuple[frozenset[int], frozenset[int]]] = {}
"""The sides a seat knows, by the teams it knows (a few patterns; asked at every decision)."""


def _sides_of(teams: tuple[int | None, ...], seat: int) -> tuple[frozenset[int], frozenset[int]]:
    """(partners, opponents) of ``seat`` among the known ``teams`` (None: unknown)."""
    mine = teams[seat]
    if mine is None:
        return frozenset(), frozenset()
    partners = frozenset(
        s for s, t in enumerate(teams) if t is not None and t == mine and s != seat
    )
    opponents = frozenset(s for s, t in enumerate(teams) if t is not None and t != mine)
    return partners, opponents


def _card_of_rank(rank: int) -> int:
    """A suited card of ``rank`` (2-14), to ask a game's order for the level of a rank."""
    return (rank - 2) * 4


def duel(g: Game, seed: str, ours: type, theirs: type) -> int:
    """One comparison deal pair of the game ``g``: ``ours`` in the even seats against
    ``theirs`` in the odd ones, then the seats swapped on the same deal; the total score of
    ``ours``.

    Used by ``bench/climbing_bots.py`` (many deals, mean and 95% CI).
    """
    total = 0
    for ours_parity in (0, 1):
        bots = [
            (ours if s % 2 == ours_parity else theirs)(g, hash((seed, s)) & 0xFFFF)
            for s in range(g.default_seats)
        ]
        state = g.new_state(seed=seed)
        while not state.is_over:
            (s,) = state.to_act()
            state.apply(s, bots[s].act(state, s))
        scores = state.settlement()
        total += sum(scores[s] for s in range(state.seats) if s % 2 == ours_parity)
    return total
