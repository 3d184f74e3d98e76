"""What bench/engine_speed.py and bench/rl_throughput.py share: contenders that play whole
hands in interleaved slices of CPU time, the engine's own hands through the Game protocol,
and RLCard installed into a throwaway directory for one run.

A contender (:class:`Runner`) plays a game at a time (``run_one()`` returns its steps) for
the slices of CPU time it is given; :func:`interleave` hands out half-second slices in
turn, so that the machine's load weighs on all alike. Rates are per CPU second of this
process (``time.process_time``), wall-clock totals kept beside them.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from paiju.engine import Game, State
from paiju.games import game

RLCARD_PACKAGES = ["rlcard", "termcolor"]
SLICE = 0.5
"""Seconds of CPU time of one slice of :func:`interleave`."""


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


@contextmanager
def rlcard_installed() -> Iterator[None]:
    """RLCard importable for the block, from a throwaway directory removed after it (RLCard
    is not a dependency of paiju)."""
    with tempfile.TemporaryDirectory(prefix="rlcard-") as tmp:
        print(f"installing rlcard into {tmp} (throwaway, for this run only) …", flush=True)
        install_rlcard(Path(tmp))
        sys.path.insert(0, tmp)
        try:
            yield
        finally:
            sys.path.remove(tmp)


class Runner:
    """One contender: ``run_one()`` plays a game (a hand, or an episode) and returns its
    steps; the totals add up over the slices it gets. ``hands`` counts the hands played
    where a game holds several (an episode of a whole match)."""

    def __init__(self, name: str, seats: int) -> None:
        self.name = name
        self.seats = seats
        self.games = 0
        self.hands = 0
        self.steps = 0
        self.cpu = 0.0
        self.wall = 0.0
        self.errors: list[str] = []

    def run_one(self) -> int:
        raise NotImplementedError

    def hands_of_last(self) -> int:
        """The hands the last ``run_one()`` played (one, unless a game is several)."""
        return 1

    def slice(self, seconds: float) -> None:
        """Play whole games for about ``seconds`` of CPU time."""
        cpu0, wall0 = time.process_time(), time.perf_counter()
        while time.process_time() - cpu0 < seconds:
            self.steps += self.run_one()
            self.games += 1
            self.hands += self.hands_of_last()
        self.cpu += time.process_time() - cpu0
        self.wall += time.perf_counter() - wall0

    def reset(self) -> None:
        """Forget the totals (after a warm-up)."""
        self.games = self.hands = self.steps = 0
        self.cpu = self.wall = 0.0
        self.errors.clear()

    @property
    def rate(self) -> float:
        """Steps per CPU second."""
        return self.steps / self.cpu

    @property
    def hand_rate(self) -> float:
        """Hands per CPU second."""
        return self.hands / self.cpu


def interleave(runners: Sequence[Runner], seconds: float, warm_up: float = 0.0) -> None:
    """About ``seconds`` of CPU time for each runner, in turns of :data:`SLICE` seconds;
    first ``warm_up`` seconds each, not counted (tables built at first use)."""
    if warm_up:
        for runner in runners:
            runner.slice(warm_up)
            runner.reset()
    rounds = max(1, round(seconds / SLICE))
    for _ in range(rounds):
        for runner in runners:
            runner.slice(seconds / rounds)


def seats_for(g: Game, wanted: int) -> int:
    """``wanted`` seats where the game allows them, else its default (甲乙丙 is six)."""
    return wanted if g.min_seats <= wanted <= g.max_seats else g.default_seats


class EngineHands(Runner):
    """Hands of one code through the Game protocol with uniformly random legal actions: for
    a seat of ``state.to_act()`` (drawn among them), an action drawn from
    ``state.legal_actions(seat)`` (``state.random_action`` where the set is too large to
    list), applied - on a clone of the state when ``clone`` (as a search plays), play going
    on from the clone. The context carries from hand to hand until the game says the match
    is over, then starts again from nothing. A step is one apply."""

    def __init__(self, code: str, seats: int | None = None, *, clone: bool = True) -> None:
        self.game: Game = game(code)
        super().__init__(code, seats if seats is not None else seats_for(self.game, 4))
        self.clone = clone
        self.rng = random.Random(0)
        self.context: dict[str, Any] = {}
        self.played = 0
        self.seed = 0

    def run_one(self) -> int:
        g, rng, clone = self.game, self.rng, self.clone
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
            if clone:
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
