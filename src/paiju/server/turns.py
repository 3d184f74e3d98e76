"""Who plays a turn, decided without a clock, a thread or a socket.

A room asks :func:`plan` after every change of whose turn it is. It hands in what it
knows of each seat (:class:`SeatTurn`: whether the seat is to act, who plays it, what is
already running for it) and the room's times, and it is answered the steps to take, in
seat order (:class:`Step`): stop a seat's clock and bot, start its clock, let its bot
(or 托管) move after a delay, or pass for it after a beat (要不起 with auto-pass on). The
room carries them out on its event loop; nothing here starts or stops anything, so every
rule of it is checked with plain values (``tests/server/test_turns.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

__all__ = ["AUTO_PASS_BEAT", "FIRST_LOOK", "SeatTurn", "Step", "plan"]

FIRST_LOOK = 8.0
"""Seconds a connected 托管 seat's bot waits before its first action of a new hand."""

AUTO_PASS_BEAT = 1.2
"""Seconds a seat whose only legal action is pass shows 要不起 before the server passes
for it (when its player turned auto-pass on)."""


class SeatTurn(NamedTuple):
    """A seat as the plan needs it (a named tuple: the room makes one a seat after every
    action, so it is made as cheaply as Python makes a value)."""

    acting: bool
    """The seat is to act now."""
    by_bot: bool
    """A bot plays the seat: a bot seat, or 托管."""
    first_look: bool = False
    """托管 with its player connected, on a hand the seat has not acted in yet: the
    player sees the cards (and may take the seat back) before the bot plays them."""
    only_pass: bool = False
    """The seat's player turned auto-pass on, and pass is its only legal action now."""
    clock: bool = False
    """The seat's clock runs."""
    moving: bool = False
    """A bot move or a pass for the seat is on its way (waiting, or a 困难 bot thinking)."""


class Step(NamedTuple):
    """One thing for the room to do for a seat.

    ``stop``: cancel the seat's clock and its bot's move. ``stop_clock``: cancel its clock.
    ``clock``: start its clock of ``delay`` seconds (its time runs out then). ``bot``: let
    its bot move in ``delay`` seconds. ``auto_pass``: pass for it in ``delay`` seconds."""

    seat: int
    kind: Literal["stop", "stop_clock", "clock", "bot", "auto_pass"]
    delay: float = 0.0


def plan(seats: Sequence[SeatTurn], bot_delay: float, time_limit: float) -> list[Step]:
    """The steps after a change of whose turn it is. A seat not to act has nothing
    running; a bot's seat has no clock, and its bot moves after ``bot_delay`` (a 托管
    seat's first look: at least :data:`FIRST_LOOK`, never more than the time limit); a
    要不起 turn with auto-pass on has no clock, and passes after :data:`AUTO_PASS_BEAT`;
    any other seat to act gets its clock of ``time_limit`` seconds (0: no clock). What
    runs already is left running."""
    steps: list[Step] = []
    for i, seat in enumerate(seats):
        if not seat.acting:
            steps.append(Step(i, "stop"))
        elif seat.by_bot:
            steps.append(Step(i, "stop_clock"))
            if not seat.moving:
                delay = bot_delay
                if seat.first_look and time_limit > 0:
                    delay = max(delay, min(FIRST_LOOK, time_limit))
                steps.append(Step(i, "bot", delay))
        elif seat.only_pass:
            steps.append(Step(i, "stop_clock"))
            if not seat.moving:
                steps.append(Step(i, "auto_pass", AUTO_PASS_BEAT))
        elif not seat.clock and time_limit > 0:
            steps.append(Step(i, "clock", time_limit))
    return steps
