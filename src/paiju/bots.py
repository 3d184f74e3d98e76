"""The Bot protocol and the random legal bot.

A bot is made for a game (``cls(game, seed)``) and asked for one seat's decision at a
time. It must decide from what :meth:`~paiju.engine.State.view` shows that seat (its own
hand, public play); bots get the state object for speed, not to peek.
"""

from __future__ import annotations

import random
from typing import Protocol

from paiju.engine import Action, Game, State

__all__ = ["Bot", "RandomBot"]


class Bot(Protocol):
    """Anything that can choose an action for a seat."""

    def act(self, state: State, seat: int) -> Action:
        """A legal action for ``seat``, which must be in ``state.to_act()``."""
        ...


class RandomBot:
    """Chooses uniformly among the legal actions (seeded, so games replay)."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> Action:
        return state.random_action(seat, self.rng)
