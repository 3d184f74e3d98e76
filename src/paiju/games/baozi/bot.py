"""The bots of 宝子 and 佳佳宝.

A player bets before seeing any card, so the bet cannot depend on the hand: the bot bets
a seeded random amount within the table limits (every size gets played). The 佳佳宝 bot
groups its four cards with the grouping solver (:mod:`paiju.games.baozi.solver`): the split
with the best expected result against a random banker hand.
"""

from __future__ import annotations

import random

from paiju.engine import Action, Game, State
from paiju.games.baozi.game import BaoziState, Bet, Group, JiajiabaoState

__all__ = ["BaoziBot"]


class BaoziBot:
    """Bets a seeded random amount; in 佳佳宝 groups by the solver (as banker or player)."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> Action:
        assert isinstance(state, BaoziState)
        if state.phase == "betting":
            low, high = state.game.options["min_bet"], state.game.options["max_bet"]
            return Bet(self.rng.randint(low, high))
        assert isinstance(state, JiajiabaoState)
        from paiju.games.baozi.solver import solver

        s = solver(state.game.variant)
        role_of_seat = s.best(state.hands[seat], "banker" if seat == state.banker else "player")
        front, back = role_of_seat
        return Group(front, back)
