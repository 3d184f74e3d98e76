"""What a seat's bot is handed, and what of its answer is played.

A bot is handed the seat's view as a state (:func:`seen`): the hand resampled for the
seat, everything it cannot see dealt again, never the true deal. The rule bot answers at
once (:func:`choose_now`); a 困难 bot thinks in a thread of its own (:func:`thinker`), off
the event loop. Whatever a bot answers is checked (:func:`checked`): a bot that fails, or
answers an illegal action, is logged and its seat plays a random legal action.
"""

from __future__ import annotations

import logging
import random
import secrets
from concurrent.futures import ThreadPoolExecutor

from paiju.bots import Bot
from paiju.engine import Action, State
from paiju.errors import ProtocolError
from paiju.sampling import ResampleFailed

__all__ = ["checked", "choose_now", "seat_view_state", "seen", "thinker"]

log = logging.getLogger("paiju.server")

_THINKER: ThreadPoolExecutor | None = None


def thinker() -> ThreadPoolExecutor:
    """The threads 困难 bots think in, off the event loop (made on first use)."""
    global _THINKER
    if _THINKER is None:
        _THINKER = ThreadPoolExecutor(max_workers=2, thread_name_prefix="paiju-bot")
    return _THINKER


def seat_view_state(state: State, seat: int) -> State:
    """What a bot of ``seat`` is handed: the hand resampled for the seat (its view, the
    hidden cards dealt again), never the true deal; a clone where the family has no
    sampler or no sample is found (the tests prove every family's bots decide the same)."""
    try:
        return state.resample(seat, random.Random(secrets.randbits(32)))
    except (ResampleFailed, NotImplementedError):
        return state.clone()


def seen(state: State, seat: int, room: int) -> State:
    """:func:`seat_view_state`, or a clone where even that fails (logged for ``room``)."""
    try:
        return seat_view_state(state, seat)
    except Exception:
        log.exception("room %s: no sample for seat %d; a clone is handed", room, seat)
        return state.clone()


def choose_now(bot: Bot, hard: bool, state: State, seat: int, room: int) -> Action:
    """The bot's choice for ``seat`` on what the seat sees, at once: a 困难 bot's rule
    bot (its ``policy``) where ``hard``; checked (:func:`checked`)."""
    policy = getattr(bot, "policy", None) if hard else None
    try:
        action: Action | None = (policy or bot).act(seen(state, seat, room), seat)
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
