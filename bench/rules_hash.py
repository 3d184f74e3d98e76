"""A hash of seeded hands of each family, to show that a speed change left the rules alone.

    PYTHONPATH=src .venv/bin/python bench/rules_hash.py [--hands 500] [--codes 1301 2101]

Each code plays ``--hands`` hands (matches carried on as bench/engine_speed.py carries them)
with seeded random legal play, a clone before every apply, and hashes every step's seat,
legal list, action, events, the phase, every seat's view and the spectator's (at the deal,
at every step of one hand in five, at the end), the settlement and the next context. Run
it before and after a change: the rules are untouched where every line is the same.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from contenders import seats_for
from paiju.games import SAMPLE_CODES, game


def rules_hash(code: str, hands: int) -> str:
    """The hash of ``hands`` seeded hands of ``code`` (16 hex digits)."""
    g = game(code)
    seats = seats_for(g, 4)
    everyone: list[int | None] = [*range(seats), None]
    digest = hashlib.sha256()
    rng = random.Random(code)
    context: dict[str, Any] = {}
    played = 0

    def put(value: object) -> None:
        text = json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)
        digest.update(text.encode())

    for n in range(hands):
        state = g.new_state(seats, seed=f"hash-{code}-{n}", context=context)
        put(state.views(everyone))
        while True:
            acting = state.to_act()
            if not acting:
                break
            seat = rng.choice(sorted(acting))
            legal = state.legal_actions(seat)
            put([seat, None if legal is None else [a.to_json() for a in legal]])
            action = rng.choice(legal) if legal is not None else state.random_action(seat, rng)
            state = state.clone()
            events = state.apply(seat, action)
            put([action.to_json(), [e.to_json() for e in events], state.phase])
            if n % 5 == 0:
                put(state.views(everyone))
        put([list(state.settlement()), state.next_context(), state.views(everyone)])
        played += 1
        context = dict(state.next_context())
        if g.match_over(context, played):
            context, played = {}, 0
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--codes", nargs="*", default=None)
    args = parser.parse_args()
    for code in args.codes or list(SAMPLE_CODES):
        print(code, rules_hash(code, args.hands), flush=True)


if __name__ == "__main__":
    main()
