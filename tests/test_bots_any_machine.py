"""The same state, seed and level give the same decision on any machine.

A bot's decision may depend on nothing the machine chooses: not on the hash seed (the
order of a set of strings), not on how fast the search runs (its budget is in samples,
time only a safety cap). Two Python processes with different ``PYTHONHASHSEED`` play the
same positions with bots of every level and must print the same decisions.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import paiju
from paiju.games import make_bot
from paiju.search import SAFETY_MS, Budget, SearchBot

SCRIPT = """
import random
import paiju
from paiju.games import SAMPLE_CODES, make_bot
for code in SAMPLE_CODES:
    game = paiju.game(code)
    state = game.new_state(seed="any-machine")
    bots = {lv: [make_bot(game, 7 + s, lv) for s in range(state.seats)]
            for lv in ("easy", "normal", "hard")}
    for lv in ("easy", "normal", "hard"):
        for bot in bots[lv]:
            if hasattr(bot, "budget"):
                bot.budget.samples = 6
    rng = random.Random(1)
    for step in range(12):
        if state.is_over:
            break
        seat = min(state.to_act())
        acts = [bots[lv][seat].act(state, seat) for lv in ("easy", "normal", "hard")]
        print(code, step, [a.to_json() for a in acts])
        state.apply(seat, acts[rng.randrange(3)])
"""


def decisions(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    src = str(Path(paiju.__file__).resolve().parents[1])
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def test_decisions_do_not_depend_on_the_hash_seed() -> None:
    first = decisions("1")
    assert first.count("\n") > 40
    assert decisions("2") == first


def test_the_search_budget_is_in_samples_time_only_a_cap() -> None:
    """The default budget is the family's worlds; the CPU time cap is far above what they
    take, so the search stops on its count of worlds (or its race), not on the clock."""
    game = paiju.game("sandaha")
    bot = make_bot(game, 0, "hard")
    assert isinstance(bot, SearchBot)
    assert bot.budget.samples is None and bot.budget.ms == SAFETY_MS >= 2000
    assert Budget().ms == SAFETY_MS
