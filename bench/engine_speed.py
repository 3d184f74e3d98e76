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
package registry into a throwaway directory for this run only (not a dependency of paiju).
The contenders run in interleaved half-second slices of CPU time, so that the machine's
load weighs on all alike; rates are per CPU second of this process, the ratio is paiju's
steps over RLCard's. The goal is every family at 2.2x. The codes are
:data:`paiju.games.SAMPLE_CODES`; the contenders and their slicing are bench/contenders.py's.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from contenders import EngineHands, Runner, interleave, rlcard_installed
from paiju.games import SAMPLE_CODES

GOAL = 2.2


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


def profile(codes: list[str], seconds: float, top: int) -> None:
    """cProfile of the bench loop of each code, ``seconds`` of CPU time each."""
    for code in codes:
        runner = EngineHands(code)
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
        profile(args.profile or list(SAMPLE_CODES), args.seconds, args.top)
        return
    codes = args.codes or list(SAMPLE_CODES)
    with rlcard_installed():
        base = RLCardDoudizhu()
        runners: list[Runner] = [base, *(EngineHands(code) for code in codes)]
        interleave(runners, args.seconds, warm_up=0.2)
    print(
        "whole hands, uniformly random legal play, a clone before every apply; rates per CPU"
        " second of this process, in interleaved half-second slices"
    )
    print(f"{'':<18}{'seats':>5}{'hands/s':>10}{'steps/s':>10}{'x RLCard':>10}  goal {GOAL:g}x")
    for runner in runners:
        ratio = runner.rate / base.rate
        verdict = "" if runner is base else ("ok" if ratio >= GOAL else "BELOW")
        print(
            f"{runner.name:<18}{runner.seats:>5}{runner.hand_rate:>10.1f}{runner.rate:>10.0f}"
            f"{ratio:>10.2f}  {verdict}"
        )


if __name__ == "__main__":
    main()
