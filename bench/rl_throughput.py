"""Throughput of the paiju.rl environments beside RLCard's doudizhu, measured in one run.

    .venv/bin/python bench/rl_throughput.py [--seconds 5] [--codes 1301 2001 2101 sandaha]

Random masked agents (uniform over the legal indexes) play whole episodes through the
PettingZoo AEC environment of each code (four seats), counting games (hands) and steps
(``env.step`` calls that carry an action; the final ``None`` steps of an episode are not
counted). The baseline is RLCard's doudizhu (``rlcard.make('doudizhu')``, random agents,
``env.run``), installed from the package registry into a throwaway directory for this run
only (not a dependency of paiju) and timed before and after paiju's environments, so that
the load of the machine weighs on both; the ratio is paiju's steps/s over RLCard's mean.
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
from paiju.games import FAMILIES
from paiju.rl.registry import ENCODERS

RLCARD_PACKAGES = ["rlcard", "termcolor"]
RLCARD = """
import sys, time
import rlcard
from rlcard.agents import RandomAgent
env = rlcard.make("doudizhu", config={"seed": 0})
env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
seconds = float(sys.argv[1])
games = steps = 0
start = time.perf_counter()
while time.perf_counter() - start < seconds:
    trajectories, payoffs = env.run(is_training=False)
    games += 1
    steps += sum(len(t) // 2 for t in trajectories)
elapsed = time.perf_counter() - start
print(games / elapsed, steps / elapsed)
"""


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


def rlcard_rate(target: Path, seconds: float) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", RLCARD, str(seconds)],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
        cwd=target,
    )
    games, steps = out.stdout.split()
    return float(games), float(steps)


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


def paiju_rate(code: str, seconds: float, seats: int | None) -> tuple[float, float]:
    env = paiju.rl.env(code, seats=seats)
    rng = np.random.default_rng(0)
    games = 0
    env.reset(seed=0)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else random_index(obs["action_mask"], rng))
        games += 1
        env.reset()
    elapsed = time.perf_counter() - start
    return games / elapsed, env.decisions / elapsed


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
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--codes", nargs="*", default=None)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    codes = args.codes or default_codes()
    with tempfile.TemporaryDirectory(prefix="rlcard-") as tmp:
        target = Path(tmp)
        print(f"installing rlcard into {target} (throwaway) …", flush=True)
        install_rlcard(target)
        before = rlcard_rate(target, args.seconds)
        rows = []
        for code in codes:
            seats = args.seats if code != "sandaha" else 4
            rows.append((code, seats, *paiju_rate(code, args.seconds, seats)))
        after = rlcard_rate(target, args.seconds)
    base_games = (before[0] + after[0]) / 2
    base_steps = (before[1] + after[1]) / 2
    print(
        "machine shared and loaded: figures vary from run to run; the ratios are measured"
        " in the same run"
    )
    print(
        f"RLCard doudizhu (random agents, env.run): {base_games:8.1f} games/s "
        f"{base_steps:9.0f} steps/s  (before {before[1]:.0f}, after {after[1]:.0f} steps/s)"
    )
    print(f"{'code':<12}{'seats':>5}{'games/s':>11}{'steps/s':>11}{'x RLCard':>10}  target 5x")
    for code, seats, games, steps in rows:
        ratio = steps / base_steps
        verdict = "ok" if ratio >= 5 else "BELOW"
        print(f"{code:<12}{seats:>5}{games:>11.1f}{steps:>11.0f}{ratio:>10.1f}  {verdict}")


if __name__ == "__main__":
    main()
