"""Clones are independent (rule 9 of the protocol): the families copy only their mutable
containers and share the rest, so a move played on a clone must leave the original
byte-for-byte as it was, and the same move played on the original must reach the state
the clone reached."""

from __future__ import annotations

import random

import pytest

from paiju.engine import State
from paiju.games import SAMPLE_CODES, game


def seen(state: State) -> list[object]:
    """Everything a seat or a spectator sees, the log and the phase."""
    views: list[object] = [state.view(s) for s in (None, *range(state.seats))]
    return [*views, state.record().to_json(), state.phase]


@pytest.mark.parametrize("code", SAMPLE_CODES)
def test_a_move_on_a_clone_leaves_the_original_alone(code: str) -> None:
    g = game(code)
    seats = 4 if g.min_seats <= 4 <= g.max_seats else g.default_seats
    rng = random.Random(7)
    context: dict[str, object] = {}
    for hand in range(2):
        state = g.new_state(seats, seed=f"clones-{hand}", context=context)
        steps = 0
        while state.to_act():
            seat = rng.choice(sorted(state.to_act()))
            legal = state.legal_actions(seat)
            action = (
                rng.choice(list(legal)) if legal is not None else state.random_action(seat, rng)
            )
            before = state.snapshot()
            clone = state.clone()
            clone.apply(seat, action)
            assert state.snapshot() == before, f"{code}: {action!r} on a clone changed the original"
            state.apply(seat, action)
            assert seen(state) == seen(clone), f"{code}: clone and original differ after {action!r}"
            state = clone if steps % 2 else state  # go on from clones and originals alike
            steps += 1
        assert state.settlement() == clone.settlement()
        context = dict(state.next_context())
