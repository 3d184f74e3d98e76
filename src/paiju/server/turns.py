"""Who plays a turn, decided without a clock, a thread or a socket.

A room asks :func:`plan` after every change of whose turn it is. It hands in what it
knows of each seat (:class:`SeatTurn`: whether the seat is to act, who plays it, what is
already running for it) and the room's times, and it is answered the steps to take, in
seat order (:class:`Step`): stop a seat's clock and bot, start its clock, let its bot
(or 托管) move after a delay, or pass for it (要不起 with auto-pass on). The room carries
them out on its event loop; nothing here starts or stops anything, so every rule of it is
checked with plain values (``tests/server/test_turns.py``).

要不起 tells the table nothing by default: a seat passed for runs its clock as every seat
to act does, and its pass comes after a pause drawn as a person's (:func:`pass_pause`),
whatever it holds, so that no other seat learns that it could not beat; only its own
player sees 要不起. A room with ``quick_pass`` takes the faster way that tells: no clock,
the pass after :data:`AUTO_PASS_BEAT`."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Literal, NamedTuple

__all__ = [
    "AUTO_PASS_BEAT",
    "FIRST_LOOK",
    "HARD_PACE",
    "PASS_PAUSE",
    "SeatTurn",
    "Step",
    "bot_pace",
    "pass_pause",
    "plan",
]

FIRST_LOOK = 8.0
"""Seconds a connected 托管 seat's bot waits before its first action of a new hand."""

AUTO_PASS_BEAT = 1.2
"""Seconds a seat whose only legal action is pass shows 要不起 before the server passes
for it, in a room with ``quick_pass`` (when its player turned auto-pass on)."""

PASS_PAUSE = (2.2, 0.55, 0.9, 9.0)
"""A person's time to a decision, as :func:`pass_pause` draws it: log-normal with a
median of 2.2 s and a shape of 0.55 (half the turns between about 1.5 and 3.2 s), kept
between 0.9 and 9 s."""


HARD_PACE = (0.8, 1.6)
"""Seconds beyond ``bot_delay`` after which a 困难 bot's decision is shown, drawn
uniformly (:func:`bot_pace`): more than its search thinks (half a second of one core), so
that a seat that can only pass is not shown quicker than one that weighs its choices."""


def bot_pace(rng: random.Random, bot_delay: float) -> float:
    """Seconds from a 困难 bot's turn to its decision shown to the table: ``bot_delay``
    and a draw from :data:`HARD_PACE`, whatever the seat holds (it thinks meanwhile, from
    the turn's start). A room of ``bot_delay`` 0 (bots flat out) is not paced."""
    if bot_delay <= 0:
        return 0.0
    low, high = HARD_PACE
    return bot_delay + rng.uniform(low, high)


def pass_pause(rng: random.Random, time_limit: float) -> float:
    """Seconds before the server passes for a 要不起 seat (auto-pass on): drawn from
    :data:`PASS_PAUSE` whatever the seat holds, and within its clock (at most 80% of the
    ``time_limit``, 0: no clock)."""
    median, shape, low, high = PASS_PAUSE
    pause = min(high, max(low, median * math.exp(rng.gauss(0.0, shape))))
    return min(pause, 0.8 * time_limit) if time_limit > 0 else pause


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


def plan(
    seats: Sequence[SeatTurn | None],
    bot_delay: float,
    time_limit: float,
    pause: float = AUTO_PASS_BEAT,
    quick_pass: bool = False,
) -> list[Step]:
    """The steps after a change of whose turn it is. A seat not to act has nothing
    running; a bot's seat has no clock, and its bot moves after ``bot_delay`` (a 托管
    seat's first look: at least :data:`FIRST_LOOK`, never more than the time limit); a
    要不起 turn with auto-pass on passes after ``pause`` (drawn by :func:`pass_pause`),
    its clock running as any seat's does - with ``quick_pass``, without a clock, after
    :data:`AUTO_PASS_BEAT`; any other seat to act gets its clock of ``time_limit`` seconds
    (0: no clock). What runs already is left running. A seat given as ``None`` is not to
    act and has nothing running: nothing is done for it."""
    steps: list[Step] = []
    for i, seat in enumerate(seats):
        if seat is None:
            continue
        if not seat.acting:
            steps.append(Step(i, "stop"))
        elif seat.by_bot:
            steps.append(Step(i, "stop_clock"))
            if not seat.moving:
                delay = bot_delay
                if seat.first_look and time_limit > 0:
                    delay = max(delay, min(FIRST_LOOK, time_limit))
                steps.append(Step(i, "bot", delay))
        elif seat.only_pass and quick_pass:
            steps.append(Step(i, "stop_clock"))
            if not seat.moving:
                steps.append(Step(i, "auto_pass", AUTO_PASS_BEAT))
        elif seat.only_pass:
            if not seat.clock and time_limit > 0:
                steps.append(Step(i, "clock", time_limit))
            if not seat.moving:
                steps.append(Step(i, "auto_pass", pause))
        elif not seat.clock and time_limit > 0:
            steps.append(Step(i, "clock", time_limit))
    return steps
