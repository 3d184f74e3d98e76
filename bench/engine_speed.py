"""The engines' own speed beside RLCard's raw doudizhu engine, measured in one run.

    PYTHONPATH=src .venv/bin/python bench/engine_speed.py [--seconds 20] [--codes 1301 sandaha]
    PYTHONPATH=src .venv/bin/python bench/engine_speed.py --profile sandaha  # cProfile, no RLCard

Each code plays whole hands (four seats where the game allows, else its default) with
uniformly random legal actions through the Game protocol, as a search does: for a seat of
``state.to_act()`` (drawn among them), an action drawn from ``state.legal_actions(seat)``
(``state.random_action`` where the set is too large to list, as for a 十三张 arrangement),
then ``state.clone()`` and ``apply`` on the clone, play going on from the clone. A step is
one such clone + apply; a hand is dealt with ``game.new_state(seats, seed=…, context=…)``,
the context carried from the hand before (a match goes on until the game says it is over,
then starts again from nothing).

The baseline is RLCard's raw doudizhu engine (``rlcard.games.doudizhu.game.DoudizhuGame``:
``init_game``, then ``step`` with an action drawn uniformly from the legal actions its
state lists, until ``is_over``; RLCard has no clone, so it pays none), installed from the
package registry into a throwaway directory for this run only (not a dependency of paiju;
bench/rl_throughput.py's helper). The contenders run in interleaved half-second slices of
CPU time, so that the machine's load weighs on all alike; rates are per CPU second of this
process, the ratio is paiju's steps over RLCard's. The goal is every family at 2x.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from paiju.engine import Game, State  # noqa: E402
from paiju.games import game  # noqa: E402
from rl_throughput import install_rlcard  # noqa: E402

CODES = [
    "1301",
    "2001",
    "2101",
    "sandaha",
    "ningcheng-danzi",
    "anshan-jiayibing",
    "anshan-fangyang",
    "anshan-majiang",
]
GOAL = 2.0


class Runner:
    """One contender: ``run_one()`` plays a hand and returns its steps; the totals add up
    over the slices it gets."""

    def __init__(self, name: str, seats: int) -> None:
        self.name = name
        self.seats = seats
        self.hands = 0
        self.steps = 0
        self.cpu = 0.0

    def run_one(self) -> int:
        raise NotImplementedError

    def slice(self, seconds: float) -> None:
        """Play whole hands for about ``seconds`` of CPU time."""
        cpu0 = time.process_time()
        while time.process_time() - cpu0 < seconds:
            self.steps += self.run_one()
            self.hands += 1
        self.cpu += time.process_time() - cpu0


class RLCardDoudizhu(Runner):
    """RLCard's doudizhu game object, driven raw: no env, no encoding, no copies."""

    def __init__(self) -> None:
        from rlcard.games.doudizhu.game import DoudizhuGame

        super().__init__("RLCard doudizhu", 3)
        self.game = DoudizhuGame()
        self.game.np_random.seed(0)
        self.rng = random.Random(0)

    def run_one(self) -> int:
        g, rng = self.game, self.rng
        state, _ = g.init_game()
        steps = 0
        while not g.is_over():
            state, _ = g.step(rng.choice(state["actions"]))
            steps += 1
        return steps


class PaijuGame(Runner):
    """Hands of one code through the Game protocol, a clone before every apply."""

    def __init__(self, code: str, seats: int | None = None) -> None:
        self.game: Game = game(code)
        n = seats if seats is not None else seats_for(self.game, 4)
        super().__init__(code, n)
        self.rng = random.Random(0)
        self.context: dict[str, Any] = {}
        self.played = 0
        self.seed = 0

    def run_one(self) -> int:
        g, rng = self.game, self.rng
        self.seed += 1
        state: State = g.new_state(self.seats, seed=f"bench-{self.seed}", context=self.context)
        steps = 0
        while True:
            acting = state.to_act()
            if not acting:
                break
            seat = rng.choice(sorted(acting)) if len(acting) > 1 else next(iter(acting))
            legal = state.legal_actions(seat)
            action = rng.choice(legal) if legal is not None else state.random_action(seat, rng)
            state = state.clone()
            state.apply(seat, action)
            steps += 1
        self.played += 1
        context = state.next_context()
        if g.match_over(context, self.played):
            self.context, self.played = {}, 0
        else:
            self.context = context
        return steps


def seats_for(g: Game, wanted: int) -> int:
    """``wanted`` seats where the game allows them, else its default (甲乙丙 is six)."""
    return wanted if g.min_seats <= wanted <= g.max_seats else g.default_seats


def profile(codes: list[str], seconds: float, top: int) -> None:
    """cProfile of the bench loop of each code, ``seconds`` of CPU time each."""
    for code in codes:
        runner = PaijuGame(code)
        runner.slice(0.2)  # tables built at first use stay out of the profile
        prof = cProfile.Profile()
        prof.enable()
        runner.slice(seconds)
        prof.disable()
        print(f"== {code}: {runner.steps} steps, {runner.hands} hands")
        stats = pstats.Stats(prof)
        stats.sort_stats("tottime").print_stats(top)
        stats.sort_stats("cumulative").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU seconds per contender")
    parser.add_argument("--codes", nargs="*", default=None)
    parser.add_argument(
        "--profile", nargs="*", default=None, help="cProfile these codes instead (no RLCard)"
    )
    parser.add_argument("--top", type=int, default=30, help="rows of each profile")
    args = parser.parse_args()
    if args.profile is not None:
        profile(args.profile or CODES, args.seconds, args.top)
        return
    codes = args.codes or CODES
    with tempfile.TemporaryDirectory(prefix="rlcard-") as tmp:
        print(f"installing rlcard into {tmp} (throwaway, for this run only) …", flush=True)
        install_rlcard(Path(tmp))
        sys.path.insert(0, tmp)
        base = RLCardDoudizhu()
        runners: list[Runner] = [PaijuGame(code) for code in codes]
        for runner in (base, *runners):  # warm-up: tables built at first use are not timed
            runner.slice(0.2)
            runner.hands = runner.steps = 0
            runner.cpu = 0.0
        rounds = max(1, round(args.seconds / 0.5))
        for _ in range(rounds):  # interleaved slices: the machine's load weighs on all alike
            for runner in (base, *runners):
                runner.slice(args.seconds / rounds)
        sys.path.remove(tmp)
    print(
        "whole hands, uniformly random legal play, a clone before every apply; rates per CPU"
        " second of this process, in interleaved half-second slices"
    )
    print(f"{'':<18}{'seats':>5}{'hands/s':>10}{'steps/s':>10}{'x RLCard':>10}  goal {GOAL:g}x")
    base_rate = base.steps / base.cpu
    for runner in (base, *runners):
        rate = runner.steps / runner.cpu
        ratio = rate / base_rate
        verdict = "" if runner is base else ("ok" if ratio >= GOAL else "BELOW")
        print(
            f"{runner.name:<18}{runner.seats:>5}{runner.hands / runner.cpu:>10.1f}{rate:>10.0f}"
            f"{ratio:>10.2f}  {verdict}"
        )


if __name__ == "__main__":
    main()
