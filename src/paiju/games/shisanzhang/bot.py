"""The 十三张 bot: arranges with the solver (自动摆牌), declares a special when it pays more.

In a banker game with bets (下注) it bets by its hand's expected score first.
It sees only its own hand (what :meth:`~ShisanzhangState.view` shows its seat): it asks the
solver for the arrangement with the highest expected score per opponent, and declares its
special hand (报到) when the special's value per opponent beats that expected score. Where
the seat may only declare (免摆, 绍兴13张1) it declares.
"""

from __future__ import annotations

import random

from paiju.engine import Action, Game, State
from paiju.errors import IllegalAction
from paiju.games.shisanzhang.game import (
    Arrange,
    Bet,
    Declare,
    ShisanzhangGame,
    ShisanzhangState,
)
from paiju.games.shisanzhang.solver import best_arrangement, expected_score, solve

__all__ = ["ShisanzhangBot", "special_value"]


def special_value(game: ShisanzhangGame, name: str) -> float:
    """What a declared special takes from each opponent it beats, in stakes."""
    if game.scoring == "majority":
        return 1.0
    return float(game.params.special_values.get(name, 1))


class ShisanzhangBot:
    """Solver-driven bot for every 十三张 code (seeded, though it needs no chance)."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        if not isinstance(game, ShisanzhangGame):
            raise IllegalAction(f"the 十三张 bot cannot play {game.variant.code}")
        self.game = game
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> Action:
        if not isinstance(state, ShisanzhangState):
            raise IllegalAction("the 十三张 bot plays 十三张 states only")
        if state.betting:
            return self.bet(state, seat)
        if state.forced[seat]:
            return Declare()
        cards = state.hands[seat]
        variant = self.game.variant
        is_banker = state.banker == seat
        if self.game.scoring == self.game.params.scoring and not is_banker:
            front, middle, back = best_arrangement(variant, cards)
        else:  # the room's own settlement (scoring option, banker side)
            best = solve(
                cards,
                self.game.params,
                scoring=self.game.scoring,
                banker=is_banker,
                alternatives=0,
            )[0]
            front, middle, back = best.front, best.middle, best.back
        special = state.specials[seat]
        if special is not None:
            score = expected_score(
                variant, front, middle, back, scoring=self.game.scoring, banker=is_banker
            )
            if special_value(self.game, special.name_zh) > score:
                return Declare()
        return Arrange(front, middle, back)

    def bet(self, state: ShisanzhangState, seat: int) -> Bet:
        """下注 by the hand: the top bet with a special hand or a clearly winning arrangement,
        the lowest with a losing one, a middle bet otherwise."""
        choices = sorted(self.game.params.bets)
        if state.specials[seat] is not None:
            return Bet(choices[-1])
        best = solve(
            state.hands[seat], self.game.params, scoring=self.game.scoring, alternatives=0
        )[0]
        if best.score > 1.0:
            return Bet(choices[-1])
        if best.score < 0.0:
            return Bet(choices[0])
        return Bet(choices[len(choices) // 2])
