"""Throughput of the paiju.rl environments beside RLCard's doudizhu, measured in one run.

    .venv/bin/python bench/rl_throughput.py [--seconds 20] [--codes 1301 2001 2101 sandaha]

Random masked agents (uniform over the legal indexes) play whole episodes through the
PettingZoo AEC environment of each code (four seats where the game allows), counting games
(hands) and steps (``env.step`` calls that carry an action; the final ``None`` steps of an
episode are not counted). The baseline is RLCard's doudizhu (``rlcard.make('doudizhu')``,
random agents, ``env.run``), installed from the package registry into a throwaway
directory for this run only (not a dependency of paiju). The contenders run in
interleaved half-second slices of CPU time, so that the machine's load weighs on all
alike; rates are per CPU second of this process, the ratio is paiju's steps over RLCard's.
The target is every family at 5x RLCard's steps/s.

Beside each environment its own engine plays the same code's hands, uniformly random legal
actions through the Game protocol and no clone (bench/contenders.py's ``EngineHands``):
the environment's hands/s over its engine's is what the encoding, the masks and the
observations cost, with the goal of every environment keeping 70% of its engine's rate.
The codes are :data:`paiju.games.SAMPLE_CODES` (those with an environment).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import paiju.rl
from contenders import (
    EngineHands,
    Runner,
    interleave,
    rlcard_installed,
    seats_for,
)
from paiju.games import SAMPLE_CODES, game
from paiju.rl.registry import ENCODERS

TARGET = 5.0
"""The environments' steps/s over RLCard's doudizhu environment's."""
KEEP = 0.7
"""The share of its engine's hands/s each environment should keep."""
LONG = 1000
"""A mask longer than this is drawn from by rejection (its legal indexes are not listed)."""


class RLCardDoudizhu(Runner):
    def __init__(self) -> None:
        import rlcard
        from rlcard.agents import RandomAgent

        super().__init__("RLCard doudizhu", 3)
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
    def __init__(self, code: str, seats: int) -> None:
        super().__init__(code, seats)
        self.env = paiju.rl.env(code, seats=seats)
        self.rng = random.Random(0)
        self.env.reset(seed=0)
        self.last_hands = 0

    def run_one(self) -> int:
        env, rng = self.env, self.rng
        before = env.decisions
        try:
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                env.step(None if term or trunc else random_index(obs["action_mask"], rng))
        except AssertionError as exc:  # an engine's own consistency check failed: count it
            self.errors.append(f"{exc} (record {env.table.state.record().to_json()})")
        self.last_hands = max(1, env.table.played)
        env.reset()
        return int(env.decisions - before)

    def hands_of_last(self) -> int:
        return self.last_hands


def default_codes() -> list[str]:
    """The sample codes whose family has an environment."""
    return [c for c in SAMPLE_CODES if game(c).variant.family in ENCODERS]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU seconds per contender")
    parser.add_argument("--codes", nargs="*", default=None)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--no-engine", action="store_true", help="leave out the engines' own hands")
    args = parser.parse_args()
    codes = args.codes or default_codes()
    envs = [PaijuEnv(code, seats_for(game(code), args.seats)) for code in codes]
    engines = [] if args.no_engine else [EngineHands(e.name, e.seats, clone=False) for e in envs]
    with rlcard_installed():
        base = RLCardDoudizhu()
        # each environment's slice next to its engine's, so that a change of the machine's
        # load within a round weighs on both alike
        pairs = [r for pair in zip(envs, engines, strict=True) for r in pair] if engines else envs
        interleave([base, *pairs], args.seconds)
    print(
        "the machine is shared and loaded: rates are per CPU second of this process, in"
        " interleaved half-second slices; wall-clock rates beside them"
    )
    header = f"{'':<18}{'seats':>5}{'games/s':>9}{'hands/s':>9}{'steps/s':>9}{'wall st/s':>10}"
    print(f"{header}{'x RLCard':>9}{'':>6}{'engine h/s':>11}{'x engine':>9}")
    for i, runner in enumerate((base, *envs)):
        ratio = runner.rate / base.rate
        line = (
            f"{runner.name:<18}{runner.seats:>5}{runner.games / runner.cpu:>9.1f}"
            f"{runner.hand_rate:>9.1f}{runner.rate:>9.0f}{runner.steps / runner.wall:>10.0f}"
            f"{ratio:>9.1f}"
        )
        if runner is not base:
            line += f"{'ok' if ratio >= TARGET else 'BELOW':>6}"
            if engines:
                engine = engines[i - 1]
                kept = runner.hand_rate / engine.hand_rate
                verdict = "ok" if kept >= KEEP else "BELOW"
                line += f"{engine.hand_rate:>11.1f}{kept:>9.2f}  {verdict}"
        print(line)
    print(f"targets: {TARGET:g}x RLCard's steps/s; {KEEP:.0%} of the engine's hands/s")
    for runner in envs:
        if runner.errors:
            print(
                f"{runner.name}: {len(runner.errors)} of {runner.games} games stopped on an"
                f" engine assertion, first: {runner.errors[0][:300]}"
            )


if __name__ == "__main__":
    main()
