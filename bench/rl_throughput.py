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
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import paiju.rl
from paiju.catalog import catalog
from paiju.games import FAMILIES, game
from paiju.rl.registry import ENCODERS

RLCARD_PACKAGES = ["rlcard", "termcolor"]


def install_rlcard(target: Path) -> None:
    """RLCard (and termcolor, its one missing dependency here) into ``target``."""
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "install", "-q", "--target", str(target)),
            *("--no-deps", *RLCARD_PACKAGES),
        ],
        check=True,
        capture_output=True,
    )


class Runner:
    """One contender: ``run_one()`` plays a game and returns its steps; the totals add up
    over the slices it gets."""

    def __init__(self, name: str, seats: int) -> None:
        self.name = name
        self.seats = seats
        self.games = 0
        self.steps = 0
        self.cpu = 0.0
        self.wall = 0.0
        self.errors: list[str] = []

    def run_one(self) -> int:
        raise NotImplementedError

    def slice(self, seconds: float) -> None:
        """Play whole games for about ``seconds`` of CPU time."""
        cpu0, wall0 = time.process_time(), time.perf_counter()
        while time.process_time() - cpu0 < seconds:
            self.steps += self.run_one()
            self.games += 1
        self.cpu += time.process_time() - cpu0
        self.wall += time.perf_counter() - wall0


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


def random_index(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniform legal index: a few rejection draws (cheap where most indexes are legal,
    as in 十三张's 72,072 splits), else a draw among the legal ones."""
    n = len(mask)
    for _ in range(4):
        i = int(rng.integers(n))
        if mask[i]:
            return i
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


class PaijuEnv(Runner):
    def __init__(self, code: str, seats: int) -> None:
        super().__init__(code, seats)
        self.env = paiju.rl.env(code, seats=seats)
        self.rng = np.random.default_rng(0)
        self.env.reset(seed=0)

    def run_one(self) -> int:
        env, rng = self.env, self.rng
        before = env.decisions
        try:
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                env.step(None if term or trunc else random_index(obs["action_mask"], rng))
        except AssertionError as exc:  # an engine's own consistency check failed: count it
            self.errors.append(f"{exc} (record {env.table.state.record().to_json()})")
        env.reset()
        return env.decisions - before


def seats_for(code: str, wanted: int) -> int:
    """``wanted`` seats where the game allows them, else its default (甲乙丙 is six)."""
    g = game(code)
    return wanted if g.min_seats <= wanted <= g.max_seats else g.default_seats


def default_codes() -> list[str]:
    """1301, 2001, 2101, 三打哈, and the first code of any other family with an env."""
    codes = ["1301", "2001", "2101", "sandaha"]
    families = {"shisanzhang", "baozi", "jiajiabao", "sandaha"}
    for v in catalog():
        if v.family not in families and v.family in ENCODERS and FAMILIES[v.family].game:
            codes.append(v.code)
            families.add(v.family)
    return codes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU seconds per contender")
    parser.add_argument("--codes", nargs="*", default=None)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    codes = args.codes or default_codes()
    with tempfile.TemporaryDirectory(prefix="rlcard-") as tmp:
        print(f"installing rlcard into {tmp} (throwaway, for this run only) …", flush=True)
        install_rlcard(Path(tmp))
        sys.path.insert(0, tmp)
        base = RLCardDoudizhu()
        runners: list[Runner] = [PaijuEnv(code, seats_for(code, args.seats)) for code in codes]
        rounds = max(1, round(args.seconds / 0.5))
        for _ in range(rounds):  # interleaved slices: the machine's load weighs on all alike
            for runner in (base, *runners):
                runner.slice(args.seconds / rounds)
        sys.path.remove(tmp)
    print(
        "the machine is shared and loaded: rates are per CPU second of this process, in"
        " interleaved half-second slices; wall-clock rates beside them"
    )
    header = f"{'':<16}{'seats':>5}{'games/s':>10}{'steps/s':>10}{'wall steps/s':>14}"
    print(f"{header}{'x RLCard':>10}  target 5x")
    base_rate = base.steps / base.cpu
    for runner in (base, *runners):
        rate = runner.steps / runner.cpu
        ratio = rate / base_rate
        verdict = "" if runner is base else ("ok" if ratio >= 5 else "BELOW")
        print(
            f"{runner.name:<16}{runner.seats:>5}{runner.games / runner.cpu:>10.1f}{rate:>10.0f}"
            f"{runner.steps / runner.wall:>14.0f}{ratio:>10.1f}  {verdict}"
        )
    for runner in runners:
        if runner.errors:
            print(
                f"{runner.name}: {len(runner.errors)} of {runner.games} games stopped on an"
                f" engine assertion, first: {runner.errors[0][:300]}"
            )


if __name__ == "__main__":
    main()
