"""A clock the test drives, for what times a room's turns: its hidden windows (a 麻将 claim
window), the seats' decision clocks, the 要不起 pause before the server passes for a seat,
and a vote to end the room.

A room times them by ``Room.clock`` (the event loop unless ``Room.turn_clock`` is set).
With a :class:`HeldClock` there, a window stays open (a clock does not run out, a 要不起
pass waits) until the test lets its time pass (:meth:`HeldClock.advance`): what a test
reads inside a window, while a clock runs or during the pause never races their end, and
what their time does (a window's fixed end, ``claim_time``, a timeout, the pass) is still
played exactly, at the clock's own times.

For the browser tests the server process is started through ``clock_launch.py``, which adds
the test-only routes of :func:`routes` to the app (``paiju serve`` itself has none):

* ``POST /test/players/{id}/hold-clock``: every room the player opens from now on has a
  held clock, from its start (no window of it opens on the event loop);
* ``POST /test/rooms/{id}/clock/advance``: the room's next call on that clock (a window's
  end, a timeout, a 要不起 pass) is played now; waits up to ``wait`` seconds for one to be
  scheduled. Answers ``{"advanced": …}``;
* ``GET /test/rooms/{id}/clock``: the calls waiting (``pending``, and ``due``: in how many
  seconds of the clock each is due), whether a window is open (a closing one, whose
  decisions are being played, is not), and which seats it asks for more than 过
  (``asks``), so a test knows whether the screen will ask its player.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, HTTPException, Request


@dataclass
class _Call:
    due: float
    callback: Callable[[], object]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


class HeldClock:
    """Time stands still until :meth:`advance` plays the next call due."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start
        self.calls: list[_Call] = []

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[[], object]) -> _Call:
        call = _Call(self.now + delay, callback)
        self.calls.append(call)
        return call

    def pending(self) -> list[_Call]:
        self.calls = [c for c in self.calls if not c.cancelled]
        return sorted(self.calls, key=lambda c: c.due)

    def advance(self) -> bool:
        """Let time pass to the next call due, and play it; False if none is scheduled."""
        calls = self.pending()
        if not calls:
            return False
        call = calls[0]
        self.calls.remove(call)
        self.now = max(self.now, call.due)
        call.callback()
        return True


HELD_OWNERS: set[int] = set()
"""The players whose rooms' clocks are held (``/test/players/{id}/hold-clock``)."""


def hold_marked_players_rooms() -> None:
    """A room opened by a player of :data:`HELD_OWNERS` gets a :class:`HeldClock` as it is
    made (before its first deal can open a window)."""
    from paiju.server.hub import Hub

    make = Hub.create_room

    async def create_room(self: Hub, player: Any, *args: Any, **kwargs: Any) -> Any:
        room = await make(self, player, *args, **kwargs)
        if player.id in HELD_OWNERS:
            room.turn_clock = HeldClock(room.loop.time())
        return room

    Hub.create_room = create_room  # type: ignore[method-assign]


def routes(app: Any) -> None:
    """Add the test-only clock routes (see the module's docstring) to ``app``."""
    router = APIRouter(prefix="/test")

    def room_of(request: Request, room_id: int) -> Any:
        room = request.app.state.hub.rooms.get(room_id)
        if room is None:
            raise HTTPException(404, f"no room {room_id} on this server")
        return room

    @router.post("/players/{player_id}/hold-clock")
    async def hold(player_id: int) -> dict[str, Any]:
        HELD_OWNERS.add(player_id)
        return {"held": True}

    @router.post("/rooms/{room_id}/clock/advance")
    async def advance(request: Request, room_id: int, wait: float = 20.0) -> dict[str, Any]:
        room = room_of(request, room_id)
        clock = room.turn_clock
        if clock is None:
            raise HTTPException(409, "the room's clock is not held")
        end = room.loop.time() + wait
        while not clock.pending() and room.loop.time() < end:
            await asyncio.sleep(0.02)
        return {"advanced": clock.advance()}

    @router.get("/rooms/{room_id}/clock")
    async def state(request: Request, room_id: int) -> dict[str, Any]:
        room = room_of(request, room_id)
        clock = room.turn_clock
        window = room.window
        if window is not None and window.closing:
            # its time is up: its decisions are being played (each after the commit of the
            # one before), and the state may be past it already (a claim, the next turn)
            window = None
        game = room.state
        asks = []
        if window is not None and game is not None:
            asks = [
                seat
                for seat in sorted(room.acting())
                if seat not in window.kept
                and any(a.type != "pass" for a in game.legal_actions(seat) or [])
            ]
        return {
            "held": clock is not None,
            "pending": len(clock.pending()) if clock is not None else 0,
            "due": [c.due - clock.now for c in clock.pending()] if clock is not None else [],
            "window": window is not None,
            "acting": sorted(room.acting()) if window is not None else [],
            "asks": asks,
            # each seat's river (tiles claimed away counted): what a screen up to date shows
            "rivers": [len(r) for r in getattr(game, "river", [])],
        }

    before = len(app.router.routes)
    app.include_router(router)
    added = app.router.routes[before:]
    del app.router.routes[before:]
    app.router.routes[0:0] = added  # ahead of the web client's files, mounted at "/"
