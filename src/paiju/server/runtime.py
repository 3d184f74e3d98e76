"""The room runtime, re-exported from its modules: :mod:`paiju.server.client` (a socket),
:mod:`paiju.server.room` (a table), :mod:`paiju.server.journal` (the group commit),
:mod:`paiju.server.hub` (every open room), :mod:`paiju.server.options` (room options and
server limits) and :mod:`paiju.server.errors` (:class:`ServerError`)."""

from __future__ import annotations

from paiju.server.client import Client
from paiju.server.errors import ServerError
from paiju.server.hub import Hub
from paiju.server.journal import Journal
from paiju.server.options import Limits, RoomOptions
from paiju.server.room import Room
from paiju.server.seating import SeatRuntime

__all__ = [
    "Client",
    "Hub",
    "Journal",
    "Limits",
    "Room",
    "RoomOptions",
    "SeatRuntime",
    "ServerError",
]
