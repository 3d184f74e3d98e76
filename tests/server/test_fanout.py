"""The texts a table's listeners are sent, built from shared pieces (each distinct view
computed once, what listeners share serialised once), equal byte for byte to each
listener's message serialised whole, as the server sent them before: at every action of
random hands of every sample code, for seats, a seat with two sockets and spectators."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from paiju.engine import Event, State
from paiju.games import SAMPLE_CODES, game
from paiju.server.fanout import (
    Actor,
    dumps,
    legal_json,
    state_texts,
    update_texts,
    visible_timers,
)


def whole_state_texts(
    state: State,
    head: dict[str, Any],
    seats: Sequence[int | None],
    timers: list[dict[str, Any]],
    control: Sequence[str],
    acting: frozenset[int],
    ref: str | int | None = None,
) -> list[str]:
    """The definition: each listener's ``state`` message, serialised whole."""
    out = []
    for seat in seats:
        view = state.view(seat)
        out.append(
            dumps(
                {
                    **head,
                    "view": view,
                    "timers": visible_timers(timers, view, seat),
                    "control": control,
                    "legal": legal_json(state, seat, acting),
                    "ref": ref,
                    "kept": None,  # no window's decision kept in these calls
                }
            )
        )
    return out


def whole_update_texts(
    state: State,
    head: dict[str, Any],
    seats: Sequence[int | None],
    events: list[Event],
    actor_seat: int,
    actor: Actor,
    ref: str | int | None,
    timers: list[dict[str, Any]],
    control: Sequence[str],
    acting: frozenset[int],
    within: bool = False,
) -> list[str | None]:
    """The definition: each listener's ``update`` message, serialised whole."""
    kept_open = within and state.hidden_window()
    shown = [(e.audience(), e.to_json()) for e in events]
    out: list[str | None] = []
    for seat in seats:
        if kept_open and seat != actor_seat:
            out.append(None)
            continue
        view = state.view(seat)
        seen = [body for aud, body in shown if aud is None or (seat is not None and seat in aud)]
        unseen = seat != actor_seat and (
            within or (not seen and not isinstance(view.get("to_act"), list))
        )
        out.append(
            dumps(
                {
                    **head,
                    **({"seat": None, "actor": None} if unseen else {}),
                    "events": seen,
                    "view": view,
                    "timers": visible_timers(timers, view, seat),
                    "control": control,
                    "legal": legal_json(state, seat, acting),
                    "ref": ref if seat == actor_seat and actor == "player" else None,
                }
            )
        )
    return out


def clocks(state: State) -> list[dict[str, Any]]:
    return [{"seat": s, "limit": 30.0, "remaining": 12.5 + s} for s in sorted(state.to_act())]


@pytest.mark.parametrize("code", SAMPLE_CODES)
def test_every_listener_is_sent_the_text_of_its_whole_message(code: str) -> None:
    g = game(code)
    rng = random.Random(code)
    seats = 4 if g.min_seats <= 4 <= g.max_seats else g.default_seats
    state = g.new_state(seats, seed=f"fanout-{code}")
    listeners: list[int | None] = [*range(state.seats), None, 0, None]
    control = ["player", "bot", "away", "tuoguan", "player", "open"][: state.seats]
    steps = 0
    while not state.is_over and steps < 1000:
        acting = state.to_act()
        seat = rng.choice(sorted(acting))
        action = state.random_action(seat, rng)
        events = state.apply(seat, action)
        acting = state.to_act()
        timers = clocks(state)
        head = {
            "type": "update",
            "room": "r1",
            "game": 7,
            "version": len(state.history),
            "seat": seat,
            "actor": "player",
        }
        for within in (False, True) if state.hidden_window() else (False,):
            for actor in ("player", "bot"):
                head["actor"] = actor
                args = (state, head, listeners, events, seat, actor, "ref-1", timers)
                assert update_texts(*args, control, acting, within) == whole_update_texts(
                    *args, control, acting, within
                )
        head = {"type": "state", "room": "r1", "game": 7, "version": len(state.history)}
        assert state_texts(state, head, listeners, timers, control, acting, 3) == (
            whole_state_texts(state, head, listeners, timers, control, acting, 3)
        )
        steps += 1
    assert state.is_over, f"{code}: a random hand ended within 1000 actions"
