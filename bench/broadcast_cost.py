"""What one action's broadcast costs the server: the texts of every listener of a table.

    PYTHONPATH=src .venv/bin/python bench/broadcast_cost.py [--seconds 2] [--codes 1301 2001]

After every action of random hands (four seats where the game allows, else its default),
the ``update`` texts of a table of four seated sockets and two spectators are built three
ways, in the same run, in interleaved turns and timed by this process's CPU clock:

* **shared** - the server's :func:`paiju.server.fanout.update_texts`: every distinct seat's
  view computed once (:meth:`State.views`, a family computing what all seats see alike
  once), what listeners share (the head, ``control``, the events and clocks each
  audience sees) serialised once, each text joined from those pieces;
* **whole** - the baseline, as the server built them before: each listener's whole
  message (view, events, clocks, legal actions) computed and serialised for it;
* **bare** - a bare websocket room server's broadcast: one small message (the seat, the
  action and the version) serialised once and the same text sent to every socket.

Printed per code: microseconds of CPU per action each way, shared over whole (the saving)
and shared over bare (what a table costs beyond the bare room server's broadcast), and
the bytes sent per action. Building texts is only the broadcast's share of a server's
work; ``bench/server_load.py`` measures the whole server over sockets.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from paiju.engine import Action, Event, State
from paiju.games import SAMPLE_CODES, game
from paiju.server.fanout import dumps, legal_json, update_texts, visible_timers

LISTENERS: list[int | None] = [0, 1, 2, 3, None, None]


def whole_texts(
    state: State,
    head: dict[str, Any],
    seats: Sequence[int | None],
    events: list[Event],
    actor_seat: int,
    ref: str | int | None,
    timers: list[dict[str, Any]],
    control: Sequence[str],
    acting: frozenset[int],
) -> list[str | None]:
    """The baseline: each listener's whole ``update`` message, computed and serialised for
    it (spectators sharing one), as the server built them before."""
    shown = [(e.audience(), e.to_json()) for e in events]
    spectators: str | None = None
    out: list[str | None] = []
    for seat in seats:
        if seat is None and spectators is not None:
            out.append(spectators)
            continue
        view = state.view(seat)
        seen = [body for aud, body in shown if aud is None or (seat is not None and seat in aud)]
        unseen = seat != actor_seat and not seen and not isinstance(view.get("to_act"), list)
        text = dumps(
            {
                **head,
                **({"seat": None, "actor": None} if unseen else {}),
                "events": seen,
                "view": view,
                "timers": visible_timers(timers, view, seat),
                "control": control,
                "legal": legal_json(state, seat, acting),
                "ref": ref if seat == actor_seat else None,
            }
        )
        if seat is None:
            spectators = text
        out.append(text)
    return out


def bare_texts(
    head: dict[str, Any], seats: Sequence[int | None], action: Action
) -> list[str | None]:
    """A bare room server's broadcast: one message, serialised once, sent to every socket."""
    text = dumps({**head, "action": action.to_json()})
    return [text for _ in seats]


class Table:
    """Random hands of one code, each action's broadcast built by the three contenders."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.game = game(code)
        g = self.game
        self.seats = 4 if g.min_seats <= 4 <= g.max_seats else g.default_seats
        self.listeners: list[int | None] = [*range(self.seats), None, None]
        self.rng = random.Random(code)
        self.hand = 0
        self.cpu = {"shared": 0.0, "whole": 0.0, "bare": 0.0}
        self.bytes = {"shared": 0, "whole": 0, "bare": 0}
        self.actions = 0
        self.state = self._deal()

    def _deal(self) -> State:
        self.hand += 1
        return self.game.new_state(self.seats, seed=f"broadcast-{self.code}-{self.hand}")

    def step(self) -> None:
        state = self.state
        if state.is_over:
            state = self.state = self._deal()
        seat = self.rng.choice(sorted(state.to_act()))
        action = state.random_action(seat, self.rng)
        events = state.apply(seat, action)
        acting = state.to_act()
        timers = [{"seat": s, "limit": 30.0, "remaining": 21.5} for s in sorted(acting)]
        control = ["player"] * self.seats
        head = {
            "type": "update",
            "room": "abcdef",
            "game": 12345,
            "version": len(state.history),
            "seat": seat,
            "actor": "player",
        }
        runs: list[tuple[str, Callable[[], list[str | None]]]] = [
            (
                "shared",
                lambda: update_texts(
                    state, head, self.listeners, events, seat, "player", 1, timers, control, acting
                ),
            ),
            (
                "whole",
                lambda: whole_texts(
                    state, head, self.listeners, events, seat, 1, timers, control, acting
                ),
            ),
            ("bare", lambda: bare_texts(head, self.listeners, action)),
        ]
        if self.actions % 2:
            runs.reverse()
        for name, run in runs:
            start = time.process_time()
            texts = run()
            self.cpu[name] += time.process_time() - start
            self.bytes[name] += sum(len(t.encode()) for t in texts if t is not None)
        self.actions += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per code")
    parser.add_argument("--codes", nargs="*", default=list(SAMPLE_CODES))
    args = parser.parse_args()
    print(
        f"{'code':16} {'actions':>8} {'shared µs':>10} {'whole µs':>9} {'bare µs':>8}"
        f" {'shared/whole':>12} {'shared/bare':>11} {'bytes/action':>12}"
    )
    ratios = []
    for code in args.codes:
        table = Table(code)
        end = time.process_time() + args.seconds
        while time.process_time() < end:
            table.step()
        n = table.actions
        us = {k: v / n * 1e6 for k, v in table.cpu.items()}
        ratios.append(us["shared"] / us["whole"])
        print(
            f"{code:16} {n:8d} {us['shared']:10.1f} {us['whole']:9.1f} {us['bare']:8.1f}"
            f" {us['shared'] / us['whole']:12.2f} {us['shared'] / us['bare']:11.1f}"
            f" {table.bytes['shared'] / n:12.0f}"
        )
    ratios.sort()
    print(f"shared over whole, median of the codes: {ratios[len(ratios) // 2]:.2f}")


if __name__ == "__main__":
    main()
