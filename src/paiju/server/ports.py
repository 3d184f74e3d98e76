"""What a room asks of the floors around it, named as protocols so that the room imports
none of them: the sockets at its table (:class:`Peer`, met by
:class:`paiju.server.client.Client`), the database as the room writes it
(:class:`RoomStore`, met by :class:`paiju.server.store.Store`) and the group commit
(:class:`Commits`, met by :class:`paiju.server.journal.Journal`).

A room can then be driven with no socket, no database and no event loop of a server:
``tests/server/test_room_host.py`` plays one for a host of its own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from pydantic import BaseModel

from paiju.errors import PaijuError
from paiju.server.rows import HandRow, PlayerRow, Write

T = TypeVar("T")

__all__ = ["Cancellable", "Commits", "Peer", "RoomStore", "Writer"]


class Peer(Protocol):
    """One socket at a table: its player, the seat it holds (``None``: a spectator) and
    its outbox."""

    seat: int | None

    @property
    def player(self) -> PlayerRow:
        """The authenticated player of the socket."""

    def send(self, msg: BaseModel | str) -> None:
        """Queue a message (a model, or its JSON text)."""

    def error(self, code: str, message: str, ref: str | int | None = None) -> None:
        """Queue an ``error`` message with ``code``."""

    def refuse(self, exc: PaijuError, ref: str | int | None = None) -> None:
        """Queue the ``error`` message of a refusal."""

    def close(self, code: int, reason: str) -> None:
        """Close the socket (after what is queued)."""

    def allow(self) -> bool:
        """Take a token from the player's rate bucket."""

    def rate_limited(self, text: str = "") -> None:
        """Tell the socket that its message ``text`` was dropped."""


class RoomStore(Protocol):
    """The database as a room asks it outside the group commit: names, hand ids and the
    hand in play (its seats, status and closing go through the group commit)."""

    def player_names(self, ids: Sequence[int]) -> dict[int, str]:
        """The names of these players."""

    def new_hand_id(self) -> int:
        """The id of the next hand dealt."""

    def current_hand(self, room_id: int) -> HandRow | None:
        """The room's last hand as stored."""

    def refused(self, exc: BaseException) -> bool:
        """Whether a failed write was refused for what it holds (retrying would fail
        again) rather than failed with the database (locked, away, disk full)."""


class Writer(Protocol):
    """A room as the group commit knows it: its id, and how many of its sockets'
    messages wait for its next commit."""

    id: int
    deferred: int


class Cancellable(Protocol):
    """A call waiting for something (a commit), cancelled as a timer is."""

    def cancel(self) -> None:
        """Do not make the call."""


class Commits(Protocol):
    """The group commit as a room uses it: its writes stored in order, and the calls and
    messages that wait for them."""

    def add(
        self,
        room: Writer,
        write: Write,
        done: Callable[[], None],
        failed: Callable[[BaseException], None],
    ) -> None:
        """Store ``write`` in the next group commit; then ``done()``, or ``failed(exc)``."""

    def read(
        self,
        room: Writer,
        fn: Callable[[], T],
        done: Callable[[T], None],
        failed: Callable[[BaseException], None],
    ) -> None:
        """Call ``fn()`` off the loop after the room's writes before it; then
        ``done(answer)``, or ``failed(exc)``. The room waits for it as for a write."""

    def later(self, room: Writer, handle: Callable[[], None]) -> None:
        """Handle one of the room's sockets' messages after its next commit."""

    def after(self, room: Writer, fn: Callable[[], None]) -> Cancellable:
        """Call ``fn`` once the room's writes pending now are stored."""

    def holds(self, room: Writer) -> bool:
        """Whether a write of the room is pending or in flight."""

    def settle(self, room: Writer) -> None:
        """Store the room's writes now, blocking."""

    async def settled(self, room: Writer) -> None:
        """Wait until the room has no write in flight."""
