"""What a seat's bot is handed, and what of its answer is played.

A bot is handed the seat's view as a state (:func:`seen`): the hand resampled for the
seat, everything it cannot see dealt again, never the true deal (where no sample is found
the bot is not asked at all). The rule bot answers at
once (:func:`choose_now`); a 困难 bot thinks in a thread of its own (:func:`thinker`), off
the event loop. Whatever a bot answers is checked (:func:`checked`): a bot that fails, or
answers an illegal action, is logged and its seat plays a random legal action.
"""

from __future__ import annotations

import logging
import os
import random
import secrets
import time
from concurrent.futures import ThreadPoolExecutor

from paiju.bots import Bot
from paiju.engine import Action, State
from paiju.errors import ProtocolError
from paiju.sampling import ResampleFailed

__all__ = [
    "HARD_WALL_S",
    "checked",
    "choose_now",
    "cores",
    "seat_view_state",
    "seen",
    "think",
    "thinker",
    "wall_deadline",
    "without_bot",
]

log = logging.getLogger("paiju.server")

_THINKER: ThreadPoolExecutor | None = None


HARD_WALL_S = 5.0
"""The wall time a 困难 bot's turn may take at most, from when the room asks it (waiting for
a thread included), and never more than the room's time per move: its search stops then
and plays what it has (the rule bot's action when it has too little)."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def thinker() -> ThreadPoolExecutor:
    """The threads 困难 bots think in, off the event loop (made on first use): one a core,
    two at least."""
    global _THINKER
    if _THINKER is None:
        _THINKER = ThreadPoolExecutor(max_workers=max(2, cores()), thread_name_prefix="paiju-bot")
    return _THINKER


def wall_deadline(time_limit: float) -> float:
    """The :func:`time.monotonic` time a 困难 decision asked now must be back by:
    :data:`HARD_WALL_S`, or the room's time per move where that is shorter (0: none)."""
    wall = HARD_WALL_S if time_limit <= 0 else min(HARD_WALL_S, time_limit)
    return time.monotonic() + wall


def think(bot: Bot, state: State, seat: int, deadline: float) -> Action:
    """A 困难 bot's decision in the thinker's thread, its search stopped at ``deadline``
    (:func:`wall_deadline`) however long it waited for the thread."""
    if hasattr(bot, "deadline"):
        bot.deadline = deadline
    return bot.act(state, seat)


def seat_view_state(state: State, seat: int) -> State:
    """What a bot of ``seat`` is handed: the hand resampled for the seat (its view, the
    hidden cards and hidden choices dealt again), never the true deal. Raises
    :class:`~paiju.sampling.ResampleFailed` (or NotImplementedError, a family without a
    sampler) where no sample is found: the caller plays without the bot."""
    return state.resample(seat, random.Random(secrets.randbits(32)))


def seen(state: State, seat: int, room: int) -> State | None:
    """:func:`seat_view_state`, or None where no sample is found (logged for ``room``): the
    bot is then not asked, and the seat plays :func:`without_bot`."""
    try:
        return seat_view_state(state, seat)
    except NotImplementedError:  # a family without a sampler (a test's toy game)
        log.debug("room %s: %s has no sampler", room, state.game.variant.code)
    except ResampleFailed as exc:
        log.error("room %s: no sample for seat %d (%s); no bot is asked", room, seat, exc)
    except Exception:
        log.exception("room %s: no sample for seat %d; no bot is asked", room, seat)
    return None


def without_bot(state: State, seat: int) -> Action:
    """The seat's action where its bot may not be asked (no sample of what it cannot see):
    a random legal action, drawn from what the seat itself may do."""
    return state.random_action(seat, random.Random(secrets.randbits(32)))


def choose_now(bot: Bot, hard: bool, state: State, seat: int, room: int) -> Action:
    """The bot's choice for ``seat`` on what the seat sees, at once: a 困难 bot's rule
    bot (its ``policy``) where ``hard``; checked (:func:`checked`)."""
    policy = getattr(bot, "policy", None) if hard else None
    sample = seen(state, seat, room)
    if sample is None:
        return without_bot(state, seat)
    try:
        action: Action | None = (policy or bot).act(sample, seat)
    except Exception:
        log.exception("room %s: bot failed for seat %d", room, seat)
        action = None
    return checked(state, seat, action, room)


def checked(state: State, seat: int, action: Action | None, room: int) -> Action:
    """A bot's ``action`` for ``seat`` if it is legal now; else (``None``: the bot gave
    none) a random legal action, the failure logged for ``room``."""
    try:
        if action is None:
            raise ProtocolError("no decision")
        state.check_turn(seat, action)
        state.check(seat, action)
    except Exception:
        log.exception("room %s: bot failed for seat %d; playing a random legal action", room, seat)
        action = state.random_action(seat, random.Random(secrets.randbits(32)))
    return action
