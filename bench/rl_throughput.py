"""Throughput of the paiju.rl environments beside RLCard's doudizhu, measured in one run.

    PYTHONPATH=src .venv/bin/python bench/rl_throughput.py [--seconds 20] [--codes 1301 2001]
    PYTHONPATH=src .venv/bin/python bench/rl_throughput.py --profile --seconds 3 --codes sandaha

Random masked agents play whole episodes through the PettingZoo AEC environment of each
code (four seats where the game allows), the way a researcher drives an environment to
train on it: stepped directly, each action drawn uniformly from the legal ones the
cheapest way (:func:`random_index`: the standard library's draw among a short mask's legal
indexes, a few rejection draws on 十三张's long one). Rates are counted per engine action
(``state.apply``: a 三打哈 or climbing play of k cards is k + 1 environment steps and one
engine action; one RLCard step is one engine action), environment steps beside them.

**The anchor (the figure)** is RLCard's doudizhu environment (``rlcard.make('doudizhu')``)
stepped the same way: ``env.reset()``, then ``env.step(a)`` with ``a`` drawn uniformly
from the keys of ``state['legal_actions']``, until ``env.is_over()``. It is what a
researcher training on RLCard meets, with RLCard's own observation and legal-action
encoding at every step. The goal is every environment at 3x its engine actions per CPU
second. RLCard's own loop (``env.run`` with ``RandomAgent``, whose ``eval_step`` builds a
27,472-entry list of probabilities at every step, about three quarters of RLCard's time)
is printed beside it for reference only: a ratio against it flatters us about fourfold.
RLCard is installed from the package registry into a throwaway directory for this run only
(not a dependency of paiju).

The contenders run in interleaved half-second slices of CPU time (bench/contenders.py),
so that the machine's load weighs on all alike; rates are per CPU second of this process.
The machine this runs on is shared: a figure moves by 10% or more from run to run, a ratio
measured in one run much less.

Beside each environment its own engine plays the same code's hands, uniformly random legal
actions through the Game protocol and no clone (bench/contenders.py's ``EngineHands``):
the environment's hands/s over its engine's is what the encoding, the masks and the
observations keep of the engine's rate. ``--vector N`` adds each code's
:class:`~paiju.rl.vector.PaijuVectorEnv` of N games, driven the same way (one uniform
legal index per game from its mask row), with what it keeps of the engine, and beside it
as many AEC environments stepped one step each in turn (what a trainer of that many games
does without it).
The codes are :data:`paiju.games.SAMPLE_CODES` (those with an environment).

``--floor`` adds, beside each environment, the least an AEC environment over the same
engine can cost (:class:`AECFloor`): PettingZoo's loop and bookkeeping, one step per engine
action and no encoding at all (a constant observation, a mask of ones as long as the
engine's list of legal actions, an action its index there). Its share of the engine's
hands/s is about the most an environment driven through that API (``agent_iter``,
``last``, ``step``) on PettingZoo's own bookkeeping can keep, whatever its observation and
its action space; the bench prints what the encoding costs beyond it.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
from pathlib import Path
from typing import ClassVar

import numpy as np
from pettingzoo import AECEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))

import paiju.rl
from contenders import (
    EngineHands,
    Runner,
    interleave,
    rlcard_installed,
    seats_for,
)
from paiju.engine import Action, Game, State
from paiju.games import SAMPLE_CODES, game
from paiju.rl.registry import ENCODERS
from paiju.rl.vector import PaijuVectorEnv

TARGET = 3.0
"""The environments' engine actions per CPU second over those of RLCard's doudizhu
environment stepped directly."""
LONG = 1000
"""A mask longer than this is drawn from by rejection (its legal indexes are not listed)."""


class RLCardStepped(Runner):
    """RLCard's doudizhu environment stepped directly with uniform legal actions (the
    anchor): a step is one engine action."""

    def __init__(self) -> None:
        import rlcard

        super().__init__("RLCard stepped", 3)
        self.env = rlcard.make("doudizhu", config={"seed": 0})
        self.rng = random.Random(0)

    def run_one(self) -> int:
        env, rng = self.env, self.rng
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
        return steps


class RLCardRun(Runner):
    """RLCard's own loop, ``env.run`` with its ``RandomAgent`` (for reference: not the
    anchor, its agent costs three quarters of the time)."""

    def __init__(self) -> None:
        import rlcard
        from rlcard.agents import RandomAgent

        super().__init__("RLCard env.run", 3)
        self.env = rlcard.make("doudizhu", config={"seed": 0})
        self.env.set_agents(
            [RandomAgent(num_actions=self.env.num_actions) for _ in range(self.env.num_players)]
        )

    def run_one(self) -> int:
        trajectories, _ = self.env.run(is_training=False)
        return sum(len(t) // 2 for t in trajectories)


def random_index(mask: np.ndarray, rng: random.Random) -> int:
    """A uniform legal index: on a long mask (十三张's 72,076 indexes, nearly all legal) a
    few rejection draws, cheaper than listing its legal indexes; else, and on a short mask
    at once, a draw among the legal ones. The draws are the standard library's, a fraction
    of a numpy generator's call, so that the agent weighs little beside the environment it
    drives (as the engine's random player does beside its engine)."""
    n = len(mask)
    if n > LONG:
        for _ in range(4):
            i = rng.randrange(n)
            if mask[i]:
                return i
    legal = mask.nonzero()[0]
    return int(legal[rng.randrange(len(legal))])


class PaijuEnv(Runner):
    """The AEC environment of one code: ``run_one`` plays an episode and returns its engine
    actions; :attr:`env_steps` counts the environment steps that carried an action."""

    def __init__(self, code: str, seats: int) -> None:
        super().__init__(code, seats)
        self.env = paiju.rl.env(code, seats=seats)
        self.rng = random.Random(0)
        self.env.reset(seed=0)
        self.last_hands = 0
        self.env_steps = 0

    def reset(self) -> None:
        super().reset()
        self.env_steps = 0

    def run_one(self) -> int:
        env, rng = self.env, self.rng
        before, applied = env.decisions, env.applied
        try:
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                env.step(None if term or trunc else random_index(obs["action_mask"], rng))
        except AssertionError as exc:  # an engine's own consistency check failed: count it
            self.errors.append(f"{exc} (record {env.table.state.record().to_json()})")
        self.last_hands = max(1, env.table.played)
        env.reset()
        self.env_steps += env.decisions - before
        return int(env.applied - applied)

    def hands_of_last(self) -> int:
        return self.last_hands


class VectorEnv(Runner):
    """A code's :class:`PaijuVectorEnv` of ``size`` games, driven as :class:`PaijuEnv`
    drives its environment (a uniform legal index per game from its mask row):
    ``run_one`` is some steps of every game (256 game steps) and returns their engine
    actions."""

    def __init__(self, code: str, seats: int, size: int) -> None:
        super().__init__(f"{code} x{size}", seats)
        self.env = PaijuVectorEnv(code, size, seats=seats)
        self.env.reset(seed=0)
        self.rng = random.Random(0)
        self.env_steps = 0
        self.last_hands = 0

    def reset(self) -> None:
        super().reset()
        self.env_steps = 0

    def run_one(self) -> int:
        env, rng = self.env, self.rng
        applied, hands = env.applied, env.hands
        steps = max(1, 256 // env.num_envs)  # the slice's clock read once in 256 game steps
        for _ in range(steps):
            env.step([random_index(mask, rng) for mask in env.action_masks])
        self.env_steps += steps * env.num_envs
        self.last_hands = env.hands - hands
        return env.applied - applied

    def hands_of_last(self) -> int:
        return self.last_hands


class AECTurns(Runner):
    """``size`` AEC environments of a code stepped one step each in turn: what a trainer of
    that many games does without the vector environment (the baseline of
    :class:`VectorEnv`). ``run_one`` is 256 game steps, as :class:`VectorEnv`'s."""

    def __init__(self, code: str, seats: int, size: int) -> None:
        super().__init__(f"{code} AEC x{size}", seats)
        self.envs = [paiju.rl.env(code, seats=seats) for _ in range(size)]
        for i, env in enumerate(self.envs):
            env.reset(seed=i)
        self.rng = random.Random(0)
        self.last_hands = 0

    def run_one(self) -> int:
        envs, rng = self.envs, self.rng
        applied = sum(env.applied for env in envs)
        hands = 0
        for _ in range(max(1, 256 // len(envs))):
            for env in envs:
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    while env.agents:
                        env.step(None)
                    hands += max(1, env.table.played)
                    env.reset()
                    obs, *_ = env.last()
                assert obs is not None
                env.step(random_index(obs["action_mask"], rng))
        self.last_hands = hands
        return sum(env.applied for env in envs) - applied

    def hands_of_last(self) -> int:
        return self.last_hands


class AECFloor(AECEnv):  # type: ignore[misc]
    """An AEC environment that does the least one can over the engine (see module docs): the
    engine's hands one after another, each an episode, dealt from seeds of its own and the
    match's context carried from hand to hand as :class:`EngineHands` does."""

    metadata: ClassVar[dict[str, str]] = {"name": "paiju_floor_v0"}

    def __init__(self, code: str, seats: int) -> None:
        super().__init__()
        self.game: Game = game(code)
        self.seats = seats
        self.possible_agents = [f"seat_{i}" for i in range(seats)]
        self.rng = random.Random(0)
        blank = np.zeros(paiju.rl.env(code, seats=seats).unwrapped.encoder.layout.size, np.float32)
        self.blank = blank
        self.idle = {"observation": blank, "action_mask": np.zeros(1, dtype=np.int8)}
        self.asked: dict[int, dict[str, np.ndarray]] = {}
        """The observation of a decision of n legal actions, by n (made once)."""
        self.legal: list[Action] | None = None
        self.context: dict[str, object] = {}
        self.dealt = self.played = 0

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        self.dealt += 1
        self.state: State = self.game.new_state(
            self.seats, seed=f"floor-{self.dealt}", context=self.context
        )
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[min(self.state.to_act())]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.terminations[agent]:
            return self.idle
        self.legal = legal = self.state.legal_actions(self.possible_agents.index(agent))
        n = 1 if not legal else len(legal)  # None: too many to list (one random draw)
        found = self.asked.get(n)
        if found is None:
            found = self.asked[n] = {
                "observation": self.blank,
                "action_mask": np.ones(n, dtype=np.int8),
            }
        return found

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0
        state, legal = self.state, self.legal
        state.apply(seat, legal[action] if legal else state.random_action(seat, self.rng))
        acting = state.to_act()
        if acting:
            self.agent_selection = self.possible_agents[min(acting)]
            return
        for s, x in enumerate(state.settlement()):
            self.rewards[self.possible_agents[s]] = float(x)
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.played += 1
        context = state.next_context()
        if self.game.match_over(context, self.played):
            self.context, self.played = {}, 0
        else:
            self.context = context


class FloorEnv(Runner):
    """:class:`AECFloor`'s hands, driven as :class:`PaijuEnv` drives its environment."""

    def __init__(self, code: str, seats: int) -> None:
        super().__init__(f"{code} floor", seats)
        self.env = AECFloor(code, seats)
        self.rng = random.Random(0)
        self.env.reset()

    def run_one(self) -> int:
        env, rng = self.env, self.rng
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.randrange(len(obs["action_mask"])))
            steps += 1
        env.reset()
        return steps


def default_codes() -> list[str]:
    """The sample codes whose family has an environment."""
    return [c for c in SAMPLE_CODES if game(c).variant.family in ENCODERS]


def profile(codes: list[str], seats: int, seconds: float, top: int, vector: int) -> None:
    """cProfile of each code's environment driven as the bench drives it (its vector
    environment of ``vector`` games where given), ``seconds`` of CPU time each: the
    profile sorted by cumulative time, then by own time (no RLCard)."""
    for code in codes:
        n = seats_for(game(code), seats)
        runner: Runner = VectorEnv(code, n, vector) if vector else PaijuEnv(code, n)
        runner.slice(0.2)  # tables built at first use stay out of the profile
        runner.reset()
        prof = cProfile.Profile()
        prof.enable()
        runner.slice(seconds)
        prof.disable()
        print(f"== {runner.name}: {runner.steps} engine actions, {runner.hands} hands")
        stats = pstats.Stats(prof)
        stats.sort_stats("cumulative").print_stats(top)
        stats.sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU seconds per contender")
    parser.add_argument("--codes", nargs="*", default=None)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--no-engine", action="store_true", help="leave out the engines' own hands")
    parser.add_argument(
        "--floor", action="store_true", help="add the least an AEC environment can cost"
    )
    parser.add_argument(
        "--vector", type=int, default=0, metavar="N", help="add each code's vector env of N games"
    )
    parser.add_argument(
        "--profile", action="store_true", help="cProfile each code's environment instead"
    )
    parser.add_argument("--top", type=int, default=30, help="rows of each profile")
    args = parser.parse_args()
    if args.profile:
        codes = args.codes or default_codes()
        profile(codes, args.seats, args.seconds, args.top, args.vector)
        return
    if args.floor and args.no_engine:
        parser.error("--floor is measured against the engine: drop --no-engine")
    codes = args.codes or default_codes()
    envs = [PaijuEnv(code, seats_for(game(code), args.seats)) for code in codes]
    engines = [] if args.no_engine else [EngineHands(e.name, e.seats, clone=False) for e in envs]
    floors = [FloorEnv(e.name, e.seats) for e in envs] if args.floor else []
    vectors = [VectorEnv(e.name, e.seats, args.vector) for e in envs] if args.vector else []
    turns = [AECTurns(e.name, e.seats, args.vector) for e in envs] if args.vector else []
    with rlcard_installed():
        anchor, run = RLCardStepped(), RLCardRun()
        # each environment's slice next to its engine's (and its floor's), so that a change
        # of the machine's load within a round weighs on them alike
        pairs: list[Runner] = []
        for i, env in enumerate(envs):
            pairs += [env, *vectors[i : i + 1], *turns[i : i + 1]]
            pairs += [*engines[i : i + 1], *floors[i : i + 1]]
        interleave([anchor, run, *pairs], args.seconds, warm_up=0.2)
    report(anchor, run, envs, engines, floors, vectors)
    for vector, turn in zip(vectors, turns, strict=True):
        print(
            f"{vector.name:<22} over {turn.name} stepped in turn: {vector.rate / turn.rate:.2f}"
            f" ({turn.rate:.0f} actions/s, {turn.rate / anchor.rate:.2f}x the anchor)"
        )


def report(
    anchor: Runner,
    run: Runner,
    envs: list[PaijuEnv],
    engines: list[EngineHands],
    floors: list[FloorEnv],
    vectors: list[VectorEnv],
) -> None:
    print(
        "the machine is shared and loaded: rates are per CPU second of this process, in"
        " interleaved half-second slices; a figure moves by 10% or more from run to run"
    )
    print(
        "actions/s: engine actions (one RLCard step; one card play of k cards = k + 1"
        " environment steps); the figure is 'x anchor': ours over RLCard's doudizhu"
        " environment stepped directly with uniform legal actions"
    )
    header = f"{'':<22}{'seats':>5}{'hands/s':>9}{'steps/s':>9}{'actions/s':>10}"
    print(f"{header}{'x anchor':>9}{'':>6}{'x env.run':>10}{'engine h/s':>11}{'x engine':>9}")
    for runner in (anchor, run):
        print(
            f"{runner.name:<22}{runner.seats:>5}{runner.hand_rate:>9.1f}{runner.rate:>9.0f}"
            f"{runner.rate:>10.0f}{runner.rate / anchor.rate:>9.2f}{'':>6}"
            f"{runner.rate / run.rate:>10.2f}"
        )
    rows: list[tuple[int, PaijuEnv | VectorEnv]] = [(i, e) for i, e in enumerate(envs)]
    rows += [(i, v) for i, v in enumerate(vectors)]
    for i, env in rows:
        ratio = env.rate / anchor.rate
        line = (
            f"{env.name:<22}{env.seats:>5}{env.hand_rate:>9.1f}{env.env_steps / env.cpu:>9.0f}"
            f"{env.rate:>10.0f}{ratio:>9.2f}{'ok' if ratio >= TARGET else 'BELOW':>6}"
            f"{env.rate / run.rate:>10.2f}"
        )
        if engines:
            engine = engines[i]
            line += f"{engine.hand_rate:>11.1f}{env.hand_rate / engine.hand_rate:>9.2f}"
        print(line)
    print(
        f"goal: {TARGET:g}x the anchor's actions/s (the figure); 'x env.run' is against"
        " RLCard's own loop and RandomAgent, for reference only (it flatters us about 4x)"
    )
    if vectors:
        print(
            f"'CODE x{vectors[0].env.num_envs}': the vector environment of"
            f" {vectors[0].env.num_envs} games (paiju.rl.vector), hands/s and actions/s"
            " summed over its games"
        )
    if floors:
        print(
            "the floor: PettingZoo's AEC loop over the engine with no encoding, one step an"
            " action; then what the environment's encoding (observations, masks, card"
            " choices) costs beyond the floor, in the engine's time for a hand (1.00 = as"
            " long as the engine takes)"
        )
        print(f"{'':<22}{'floor h/s':>10}{'x engine':>9}{'encoding':>10}")
        for floor, engine, env in zip(floors, engines, envs, strict=True):
            floor_kept = floor.hand_rate / engine.hand_rate
            now = engine.hand_rate / env.hand_rate - 1 / floor_kept
            print(f"{env.name:<22}{floor.hand_rate:>10.1f}{floor_kept:>9.2f}{now:>10.2f}")
    for env in envs:
        if env.errors:
            print(
                f"{env.name}: {len(env.errors)} of {env.games} games stopped on an"
                f" engine assertion, first: {env.errors[0][:300]}"
            )


if __name__ == "__main__":
    main()
