"""One seat learns, the family bots (or random players) play the others: a Gymnasium env.

>>> import paiju.rl
>>> env = paiju.rl.SingleAgentEnv("2101", seat=1, seats=4)
>>> obs, info = env.reset(seed=7)
>>> obs["action_mask"].sum() > 0
np.True_

The observation and action space are the AEC environment's. ``step`` plays the learner's
index, then the other seats until the learner is to act again or the episode ends; the
reward is the learner's settlement of the hands that ended meanwhile. A hand in which the
learner never acts (the banker of 宝子 bets nothing) is played through by the others at
``reset``, and its result is not the learner's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

import gymnasium
import numpy as np

from paiju.bots import Bot, RandomBot
from paiju.engine import State
from paiju.errors import IllegalAction
from paiju.games import game as make_game
from paiju.games import make_bot
from paiju.rl.env import PaijuAEC

__all__ = ["SingleAgentEnv", "opponents"]


def opponents(
    code: str, seats: int | None = None, seed: int = 0, kind: Literal["bots", "random"] = "bots"
) -> list[Bot]:
    """One opponent per seat: the family's own bot (``kind="bots"``) or the random legal bot."""
    g = make_game(code)
    n = g.seat_count(seats)
    rng = random.Random(seed)
    if kind == "random":
        return [RandomBot(g, rng.randrange(2**32)) for _ in range(n)]
    if kind != "bots":
        raise IllegalAction(f"opponents are 'bots' or 'random', not {kind!r}")
    return [make_bot(g, rng.randrange(2**32)) for _ in range(n)]


class SingleAgentEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """The AEC environment of ``code`` seen from ``seat`` (see the module docs)."""

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 - gymnasium declares it so

    def __init__(
        self,
        code: str,
        seat: int = 1,
        *,
        opponents: Sequence[Bot] | Literal["bots", "random"] = "bots",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.aec = PaijuAEC(code, render_mode=render_mode, **options)
        n = self.aec.table.seats
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise IllegalAction(f"the learner's seat is 0-{n - 1}, not {seat!r}")
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.render_mode = render_mode
        self._kind = opponents
        self.bots: list[Bot] = (
            list(opponents) if not isinstance(opponents, str) else _bots(code, n, 0, opponents)
        )
        if len(self.bots) != n:
            raise IllegalAction(f"opponents: one bot per seat ({n}), got {len(self.bots)}")
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)

    def _advance(self) -> float:
        """Let the other seats play until the learner is to act or the episode ends."""
        aec = self.aec
        while aec.agents and not (aec.terminations[self.agent] or aec.truncations[self.agent]):
            if aec.agent_selection == self.agent:
                break
            seat = aec.possible_agents.index(aec.agent_selection)
            state: State = aec.table.state
            aec.apply_action(self.bots[seat].act(state, seat))
        return float(aec._cumulative_rewards.get(self.agent, 0.0))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None and isinstance(self._kind, str):
            self.bots = _bots(self.aec.table.code, len(self.bots), seed, self._kind)
        self.aec.reset(seed=seed)
        self._advance()
        for _ in range(100):
            if not self._over():
                break
            self.aec.reset()
            self._advance()
        else:
            raise IllegalAction(
                f"seat {self.seat} has no decision in 100 episodes of {self.aec.table.code}"
                " (the banker of 宝子 bets nothing): learn from another seat"
            )
        self.aec._cumulative_rewards[self.agent] = 0.0
        return self._observation(), {}

    def _observation(self) -> dict[str, np.ndarray]:
        """The learner's observation, its mask copied: the AEC environment may hand one
        read-only mask out again while it stays, but a Gymnasium environment returns new
        data on every call (its checker looks)."""
        obs = self.aec.observe(self.agent)
        return {"observation": obs["observation"], "action_mask": obs["action_mask"].copy()}

    def _over(self) -> bool:
        aec = self.aec
        return bool(aec.terminations[self.agent] or aec.truncations[self.agent])

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        aec = self.aec
        aec.step(action)
        reward = self._advance()
        aec._cumulative_rewards[self.agent] = 0.0
        terminated = bool(aec.terminations[self.agent])
        truncated = bool(aec.truncations[self.agent])
        return self._observation(), reward, terminated, truncated, {}

    def render(self) -> str | None:
        return self.aec.render()


def _bots(code: str, n: int, seed: int, kind: str) -> list[Bot]:
    if kind not in ("bots", "random"):
        raise IllegalAction(f"opponents are 'bots', 'random' or a list of bots, not {kind!r}")
    return opponents(code, n, seed, "bots" if kind == "bots" else "random")
