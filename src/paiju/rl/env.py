"""PettingZoo environments over the Game protocol: :class:`PaijuAEC` and :class:`PaijuParallel`.

Agents are ``seat_0`` … ``seat_{n-1}``. An episode is one hand (``hands=1``),
``hands=N`` hands of a match (the context - banker, first bidder - carries from hand to
hand), or ``hands=None``: the game's own match (整局, :meth:`~paiju.engine.Game.match_over`).
The default (``hands="default"``) is the family's :attr:`~paiju.rl.encoding.Encoder.default_hands`:
one hand, except 打弹子's whole match (it settles only when the match ends).
Every agent's reward is its settlement when a hand ends (the per-seat deltas, summing to
zero), so an episode's return is the seat's match total.

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``, the vector
laid out per family (``env.unwrapped.encoder.layout``, documented in ``docs/rl.md``).
Simultaneous decisions (十三张 arranging, 宝子 bets, 佳佳宝 grouping) are asked seat by seat in
the AEC environment; what an earlier seat chose stays as hidden as the engine's views keep it.

``max_cycles`` truncates an episode after that many cycles. A cycle is one pass around the
table: it ends when the turn passes from a higher seat to a lower one (seat n-1 to seat 0,
say), when a hand ends, or - in the parallel environment - after every step.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv

from paiju.engine import Action, Game, State
from paiju.errors import IllegalAction, PaijuError
from paiju.games import FAMILIES, resolve
from paiju.games import game as make_game
from paiju.rl.cardseq import CardChoice
from paiju.rl.encoding import Encoder
from paiju.rl.registry import encoder_class

__all__ = ["PaijuAEC", "PaijuParallel", "Table"]

RENDER_MODES = ["ansi", "human"]


class Table:
    """The engine side shared by both environments: game, encoder, hands of an episode."""

    def __init__(
        self,
        code: str,
        seats: int | None,
        hands: int | Literal["default"] | None,
        context: Mapping[str, Any] | None,
        room: Mapping[str, Any],
        game: Game | None = None,
    ) -> None:
        self.game: Game = make_game(code, **room) if game is None else game
        """The game (``game``: one already made of ``code`` and ``room``, shared - a
        vector environment's games share theirs)."""
        self.code = code
        self.seats = self.game.seat_count(seats)
        cls: type[Encoder] = encoder_class(self.game.variant.family)
        if hands == "default":
            hands = cls.default_hands
        if hands is not None and (isinstance(hands, bool) or not isinstance(hands, int)):
            raise IllegalAction(f"hands must be a whole number >= 1 or None, got {hands!r}")
        if hands is not None and hands < 1:
            raise IllegalAction(f"hands must be a whole number >= 1 or None, got {hands!r}")
        self.hands = hands
        self.start_context = dict(context or {})
        self.encoder: Encoder = cls(self.game, self.seats)
        self.rng = random.Random()
        self.state: State = self.game.new_state(self.seats, seed=0, context=self.start_context)
        self.played = 0
        self.totals = [0] * self.seats

    def seed(self, seed: int | None) -> None:
        if seed is not None:
            self.rng = random.Random(seed)

    def deal(self, context: Mapping[str, Any]) -> State:
        """Deal the next hand of the episode from the seeded stream of hand seeds."""
        self.state = self.game.new_state(
            self.seats, seed=f"rl/{self.rng.getrandbits(64):016x}", context=context
        )
        return self.state

    def new_episode(self) -> State:
        self.played = 0
        self.totals = [0] * self.seats
        return self.deal(self.start_context)

    def hand_over(self) -> tuple[int, ...]:
        """Book the finished hand; return its settlement."""
        scores = tuple(self.state.settlement())
        self.played += 1
        for s, x in enumerate(scores):
            self.totals[s] += x
        return scores

    def episode_over(self) -> bool:
        if self.hands is None:
            return self.game.match_over(self.state.next_context(), self.played)
        return self.played >= self.hands

    def render(self, seat: int | None, color: bool) -> str:
        """The table as ``paiju play`` shows it to ``seat`` (the family's terminal table)."""
        from rich.console import Console

        buffer = io.StringIO()
        console = Console(
            file=buffer,
            width=100,
            force_terminal=color,
            color_system="standard" if color else None,
            highlight=False,
        )
        path = FAMILIES[self.game.variant.family].terminal
        state = self.state
        if path is not None and seat is not None:
            resolve(path)(self.game, console).show(state, seat)
        else:
            import json

            console.print(json.dumps(state.view(seat), ensure_ascii=False, indent=1))
        if state.is_over:
            console.print(f"settlement 结算: {list(state.settlement())}")
        return buffer.getvalue()


def _spaces(encoder: Encoder) -> tuple[gymnasium.spaces.Dict, gymnasium.spaces.Discrete]:
    obs = gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(
                low=-np.inf, high=np.inf, shape=(encoder.layout.size,), dtype=np.float32
            ),
            "action_mask": gymnasium.spaces.Box(
                low=0, high=1, shape=(encoder.action_size,), dtype=np.int8
            ),
        }
    )
    return obs, gymnasium.spaces.Discrete(encoder.action_size)


def _check_index(encoder: Encoder, mask: np.ndarray, action: Any) -> int:
    # the common case, checked as below in fewer steps (the mask's length is the action
    # size, which a family may work out at every ask)
    if type(action) is int and 0 <= action < len(mask) and mask[action]:
        return action
    try:
        index = int(action)
    except (TypeError, ValueError):
        raise IllegalAction(
            f"an action is an index 0-{encoder.action_size - 1}, got {action!r}"
        ) from None
    if index != action or not 0 <= index < encoder.action_size:
        raise IllegalAction(f"an action is an index 0-{encoder.action_size - 1}, got {action!r}")
    if not mask[index]:
        raise IllegalAction(
            f"action {index} is masked out (not legal now); legal: "
            f"{np.flatnonzero(mask)[:20].tolist()}{' …' if mask.sum() > 20 else ''}"
        )
    return index


def _check_illegal(illegal: str) -> str:
    if illegal not in ("raise", "terminate"):
        raise IllegalAction(f"illegal is 'raise' or 'terminate', not {illegal!r}")
    return illegal


def penalty(seats: int, offender: int) -> list[float]:
    """The rewards of an episode ended by an illegal action (``illegal="terminate"``): the
    offender loses 1, the others share it (zero-sum)."""
    return [-1.0 if s == offender else 1.0 / (seats - 1) for s in range(seats)]


class PaijuAEC(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """The AEC environment of one catalogue code (see the module docs)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": RENDER_MODES,
        "name": "paiju_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        code: str,
        *,
        seats: int | None = None,
        hands: int | Literal["default"] | None = "default",
        context: Mapping[str, Any] | None = None,
        max_cycles: int | None = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        **room: Any,
    ) -> None:
        super().__init__()
        self.illegal = _check_illegal(illegal)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise IllegalAction(
                f"render_mode is one of {RENDER_MODES} or None, not {render_mode!r}"
            )
        if max_cycles is not None and (not isinstance(max_cycles, int) or max_cycles < 1):
            raise IllegalAction(
                f"max_cycles must be a whole number >= 1 or None, got {max_cycles!r}"
            )
        self.table = Table(code, seats, hands, context, room)
        self.encoder = self.table.encoder
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [f"seat_{s}" for s in range(self.table.seats)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        obs, act = _spaces(self.encoder)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self._choice: CardChoice | None = None
        self._cache: dict[str, dict[str, np.ndarray]] = {}
        self._zeroed = False
        """Whether every entry of ``rewards`` is the int 0 that ``_clear_rewards`` writes
        (clearing again, or accumulating them, would change nothing)."""
        self.decisions = 0
        """Steps that carried an action (not the final None steps), over the env's life."""
        self.applied = 0
        """Engine actions applied, over the env's life (a card choice of k cards is k + 1
        steps and one engine action)."""

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state_(self) -> State:
        """The engine state of the hand being played."""
        return self.table.state

    # -- episode ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.seed(seed)
        self.table.new_episode()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._choice = None
        self._cache = {}
        self._zeroed = False
        self.cycles = 0
        self._skip_agent_selection = None
        self._acting = self.table.state.to_act()
        """The seats to act now (``to_act``, asked once a step)."""
        self.agent_selection = self.possible_agents[min(self._acting)]

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """As :meth:`AECEnv.last`, the cached observation looked up first."""
        agent = self.agent_selection
        assert agent is not None
        observation = (self._cache.get(agent) or self.observe(agent)) if observe else None
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        found = self._cache.get(agent)
        if found is not None:
            return found
        seat = self._seat_of[agent]
        state = self.table.state
        enc = self.encoder
        choice = self._choice if agent == self.agent_selection else None
        acting = self._acting
        sight = enc.sights[seat]  # Encoder.sight, its two calls inlined (every step)
        sight.update(state, choice, acting)
        obs: dict[str, np.ndarray] = {
            "observation": sight.vector.copy(),
            "action_mask": enc.mask(state, seat, choice)
            if seat in acting and not (self.terminations.get(agent) or self.truncations.get(agent))
            else enc.idle,
        }
        self._cache[agent] = obs
        return obs

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            self._cache = {}
            self._zeroed = False
            return
        seat = self._seat_of[agent]
        self._cumulative_rewards[agent] = 0
        if not self._zeroed:  # the rewards are mostly zero already: clear them only once
            self._clear_rewards()
            self._zeroed = True
        try:
            obs = self._cache.get(agent) or self.observe(agent)
            index = _check_index(self.encoder, obs["action_mask"], action)
        except IllegalAction as exc:
            if self.illegal == "raise":
                raise
            self._cache = {}
            self._zeroed = False
            for s, r in enumerate(penalty(self.table.seats, seat)):
                self.rewards[self.possible_agents[s]] = r
            self.infos[agent] = {"illegal": str(exc)}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            return
        self.decisions += 1
        state = self.table.state
        done = self.encoder.step(state, seat, index, self._choice)
        self._cache = {}
        if isinstance(done, CardChoice):
            self._choice = done
            return  # the rewards are all zero: accumulating them changes nothing
        self._choice = None
        self.encoder.apply(state, seat, done)
        self.applied += 1
        acting = state.to_act()
        wrapped = terminated = False
        if not acting:  # the hand is over
            scores = self.table.hand_over()
            self._zeroed = False
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = float(scores[s])
            wrapped = True
            if self.table.episode_over():
                self.terminations = dict.fromkeys(self.agents, True)
                terminated = True
            else:
                acting = self.table.deal(state.next_context()).to_act()
        self._acting = acting
        if not terminated:  # no agent was terminated before this step (it would be dead)
            nxt = self.possible_agents[min(acting)]
            wrapped = wrapped or self._seat_of[nxt] < seat
            self.agent_selection = nxt
            if wrapped:
                self.cycles += 1
                if self.max_cycles is not None and self.cycles >= self.max_cycles:
                    self.truncations = dict.fromkeys(self.agents, True)
        if not self._zeroed:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- rendering --------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (ansi or human)")
            return None
        seat = self.possible_agents.index(self.agent_selection) if self.agents else None
        text = self.table.render(seat, color=self.render_mode == "ansi")
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        pass

    def apply_action(self, action: Action) -> None:
        """Step with an engine action of the selected seat (every step that makes it)."""
        seat = self.possible_agents.index(self.agent_selection)
        for index in self.encoder.encode(self.table.state, seat, action):
            self.step(index)


class PaijuParallel(ParallelEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """The parallel environment of a family whose decisions are simultaneous.

    Every step takes one action of each seat that is to act (the seats of
    ``to_act``); the other seats' actions are ignored (their masks are all zero). The
    actions are applied in seat order, all chosen from observations made before the step;
    a decision the engine no longer needs (a mahjong claim window closed by a claim no
    later seat could outrank) is dropped.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": RENDER_MODES,
        "name": "paiju_parallel_v0",
    }

    def __init__(
        self,
        code: str,
        *,
        seats: int | None = None,
        hands: int | Literal["default"] | None = "default",
        context: Mapping[str, Any] | None = None,
        max_cycles: int | None = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        **room: Any,
    ) -> None:
        self.illegal = _check_illegal(illegal)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise IllegalAction(
                f"render_mode is one of {RENDER_MODES} or None, not {render_mode!r}"
            )
        self.table = Table(code, seats, hands, context, room)
        self.encoder = self.table.encoder
        if not self.encoder.simultaneous:
            raise PaijuError(
                f"{code} ({self.table.game.variant.name_zh}) is played in turns: use "
                "paiju.rl.env for it; parallel_env is for games whose seats decide at once"
            )
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [f"seat_{s}" for s in range(self.table.seats)]
        obs, act = _spaces(self.encoder)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        state = self.table.state
        acting = state.to_act()
        enc = self.encoder
        out: dict[str, dict[str, np.ndarray]] = {}
        for s, a in enumerate(self.possible_agents):
            mask = enc.mask(state, s, None) if s in acting else enc.idle
            out[a] = {"observation": enc.sight(state, s, None, acting), "action_mask": mask}
        return out

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self.table.seed(seed)
        self.table.new_episode()
        self.agents = list(self.possible_agents)
        self.cycles = 0
        self._last = self._observations()
        return self._last, {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, int]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        state = self.table.state
        enc = self.encoder
        chosen: list[tuple[int, Action]] = []
        for s in sorted(state.to_act()):
            agent = self.possible_agents[s]
            try:
                if agent not in actions:
                    raise IllegalAction(f"{agent} is to act: its action is missing")
                index = _check_index(enc, self._last[agent]["action_mask"], actions[agent])
            except IllegalAction as exc:
                if self.illegal == "raise":
                    raise
                return self._illegal(s, str(exc))
            done = enc.step(state, s, index, None)
            assert not isinstance(done, CardChoice)  # simultaneous families are one step
            chosen.append((s, done))
        for s, action in chosen:
            if s in state.to_act():  # a claim window closes once no later seat could outrank
                state.apply(s, action)
        rewards = dict.fromkeys(self.agents, 0.0)
        terminated = False
        if state.is_over:
            scores = self.table.hand_over()
            rewards = {a: float(scores[s]) for s, a in enumerate(self.possible_agents)}
            if self.table.episode_over():
                terminated = True
            else:
                self.table.deal(state.next_context())
        self.cycles += 1
        truncated = (
            not terminated and self.max_cycles is not None and self.cycles >= self.max_cycles
        )
        self._last = self._observations()
        agents = self.agents
        terms = dict.fromkeys(agents, terminated)
        truncs = dict.fromkeys(agents, truncated)
        if terminated or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return self._last, rewards, terms, truncs, {a: {} for a in agents}

    def _illegal(
        self, seat: int, message: str
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        agents = self.agents
        rewards = dict(zip(self.possible_agents, penalty(self.table.seats, seat), strict=True))
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        infos[self.possible_agents[seat]] = {"illegal": message}
        self.agents = []
        return (
            self._last,
            rewards,
            dict.fromkeys(agents, True),
            dict.fromkeys(agents, False),
            infos,
        )

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (ansi or human)")
            return None
        acting = sorted(self.table.state.to_act())
        text = self.table.render(acting[0] if acting else 0, color=self.render_mode == "ansi")
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        pass
