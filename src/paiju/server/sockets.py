"""uvicorn's WebSocket protocol with a direct path for the room's messages.

Through ASGI, every text a room sends costs a message dict, the framework's send wrappers
(state checks, the exception handler's sender) and a coroutine that waits until the
transport is writable, run by a writer task woken for it; every text a socket sends
wakes the socket's task through the same layers, and uvicorn stops reading the socket
until that task has taken it (two system calls a message). A table's action is one text
in and a text out to each of its sockets, so these layers were a large part of the
server's work per action.

:class:`DirectWebSocket` offers the application, as the ASGI server extension
:data:`DIRECT` of the socket's scope, two plain functions:

* ``send(text) -> bool`` frames a text and hands it to the transport at the end of the
  loop's turn (the texts framed in one turn leave in one write), and answers
  ``False`` (nothing written) where the ASGI path must be taken: before the handshake
  completes, once a close is sent or the peer is gone, or while the transport's buffer is
  over its high-water mark (the ASGI send then waits for it to drain);
* ``receive(on_text)`` hands every later text (and binary) message to ``on_text`` as it
  is read, in order, after those already waiting in the ASGI queue; only the disconnect
  still comes through ASGI. The application must answer each message at once, or queue
  it itself: nothing stops the socket's reads (the room's rate limit drops a flood, and
  closes a socket that goes on);
* ``drop(code, reason)`` closes a socket that does not read what it is sent: its close
  frame is written behind what its connection still buffers, and the connection is cut
  :data:`DROP_GRACE` seconds later if it is still open, its buffer let go.

A text of the direct path is framed here (:func:`text_frame`: a server's frame is one
header and the payload, unmasked) into the websockets connection's own output buffer, so
it keeps its place among the frames of the ASGI path; the bytes on the wire are those the
library would write. Where the library must frame (an extension negotiated, its debug
log on) it does. A server without the extension (another ASGI server, the test client)
is served by the ASGI path alone.
"""

from __future__ import annotations

import asyncio
import logging
import struct
from collections.abc import Callable
from typing import Any, Generic, TypedDict, TypeVar

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request
from websockets.protocol import State

__all__ = [
    "DIRECT",
    "DROP_GRACE",
    "Direct",
    "DirectWebSocket",
    "Mailbox",
    "OnText",
    "Writable",
    "text_frame",
]

log = logging.getLogger("paiju.server")

DIRECT = "paiju.direct"
"""The scope extension's name: ``scope["extensions"][DIRECT]`` is a :class:`Direct`."""

OnText = Callable[[str], None]
"""Takes one message of the socket, as text (a binary message decoded as UTF-8, as the
application's ASGI loop decodes it)."""


_HEAD_16 = struct.Struct("!BBH")
_HEAD_64 = struct.Struct("!BBQ")


_HEADS_7 = [bytes((0x81, n)) for n in range(126)]
"""The header of a text frame of each payload shorter than 126 bytes (made once)."""


def text_frame(payload: bytes) -> tuple[bytes, bytes]:
    """A whole text message as a server frames it (RFC 6455, section 5.2: FIN and the
    text opcode, no mask, the payload's length in 7, 16 or 64 bits): header, payload."""
    n = len(payload)
    if n < 126:
        return _HEADS_7[n], payload
    if n < 0x10000:
        return _HEAD_16.pack(0x81, 126, n), payload
    return _HEAD_64.pack(0x81, 127, n), payload


class Direct(TypedDict):
    """The socket's direct path (see the module)."""

    send: Callable[[str], bool]
    receive: Callable[[OnText], None]
    drop: Callable[[int, str], None]


DROP_GRACE = 2.0
"""Seconds a dropped socket (:meth:`DirectWebSocket.drop`) has to take its close frame."""


T = TypeVar("T")


class Mailbox(Generic[T]):
    """The socket's ASGI events for its one reader (the app's task): what
    ``asyncio.Queue`` does here, in a list and a future made only while the reader waits
    (a queue holds three deques and an event with a fourth, about 3 KB a socket)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def empty(self) -> bool:
        return not self._items

    def get_nowait(self) -> T:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.pop(0)

    async def get(self) -> T:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


class Writable:
    """Whether the transport takes more (``asyncio.Event``'s ``set``, ``clear``,
    ``is_set`` and ``wait``), its waiters' list made only when one waits."""

    __slots__ = ("_set", "_waiters")

    def __init__(self) -> None:
        self._set = True
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        self._set = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self) -> None:
        if self._set:
            return
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        await waiter


class DirectWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol whose scope carries :data:`DIRECT`, with a
    lighter event queue and writable flag (:class:`Mailbox`, :class:`Writable`)."""

    on_text: OnText | None = None
    flush_due = False
    """Whether a :meth:`flush` is scheduled for the frames :meth:`send_now` framed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Mailbox()  # type: ignore[assignment]
        self._writable = Writable()
        self.writable = self._writable  # type: ignore[assignment]

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.handshake_initiated and not self.close_sent:  # the app's task starts later
            direct: Direct = {
                "send": self.send_now,
                "receive": self.receive_into,
                "drop": self.drop,
            }
            self.scope["extensions"][DIRECT] = direct  # type: ignore[assignment]

    def start_keepalive(self) -> None:
        """At the handshake's end (uvicorn starts the pings then): the request and the
        response it answered, with their headers, are let go (the scope keeps the
        request's headers), so that an idle socket holds less. The library's parser
        keeps the request as a local for the connection's life: its headers are emptied."""
        self.request.headers.clear()
        self.request = self.response = None  # type: ignore[assignment]
        super().start_keepalive()

    def send_now(self, text: str) -> bool:
        # every text the server sends a room's socket passes here: the checks read
        # attributes only, and the frame is written inline (as :func:`text_frame` does)
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self._writable._set
        ):
            return False
        conn, payload = self.conn, text.encode()
        if conn.state is State.OPEN and not (
            conn.extensions or conn.debug or conn.expect_continuation_frame
        ):
            writes = conn.writes
            n = len(payload)
            if n < 126:
                writes.append(_HEADS_7[n])
            else:
                writes.append(text_frame(payload)[0])
            writes.append(payload)
        else:
            try:
                conn.send_text(payload)
            except InvalidState:
                return False
        if not self.flush_due:
            self.flush_due = True
            _flush_soon(self.loop, self)
        return True

    def drop(self, code: int, reason: str) -> None:
        if self.disconnected or self.transport.is_closing():
            return
        if not self.close_sent and self.conn.state is State.OPEN:
            self.conn.send_close(code, reason)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
        self.loop.call_later(DROP_GRACE, self._cut)

    def _cut(self) -> None:
        if not self.disconnected:
            self.transport.abort()

    def flush(self) -> None:
        """Write the frames framed since the last write in one call: the texts a room
        sends a socket in one turn of the loop (an update, then a hand's result and the
        next deal) leave in one system call. Every write of the ASGI path takes them first
        (they wait in the connection's buffer, in order). The sockets written to in one
        turn are flushed by one callback (:func:`_flush_soon`), not one each."""
        self.flush_due = False
        data = self.conn.data_to_send()
        if data and not self.transport.is_closing():
            self.transport.write(b"".join(data))

    def receive_into(self, on_text: OnText) -> None:
        queued = []
        while not self.queue.empty():
            queued.append(self.queue.get_nowait())
        self.on_text = on_text
        for event in queued:
            if event["type"] == "websocket.receive" and not self.disconnected:
                self._take(
                    event.get("text") or (event.get("bytes") or b"").decode(errors="replace")
                )
            else:
                self.queue.put_nowait(event)  # the disconnect stays for the app's task
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()

    def send_receive_event_to_app(self) -> None:
        if self.on_text is None or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        if self.curr_msg_data_type != "text":
            self.frames = []
            self._take(data.decode(errors="replace"))
            return
        try:
            text = data.decode()
        except UnicodeDecodeError:  # uvicorn's own answer: closed with 1007
            super().send_receive_event_to_app()
            return
        self.frames = []
        self._take(text)

    def _take(self, text: str) -> None:
        on_text = self.on_text
        assert on_text is not None
        try:
            on_text(text)
        except Exception:  # one socket's fault closes that socket, and nothing else
            log.exception("a socket's message failed; the socket is closed")
            self.transport.close()


_DUE: dict[asyncio.AbstractEventLoop, list[DirectWebSocket]] = {}
"""The sockets of each loop whose frames wait for the end of the loop's turn."""


def _flush_soon(loop: asyncio.AbstractEventLoop, socket: DirectWebSocket) -> None:
    """Flush ``socket`` at the end of the loop's turn, with every other socket framed to
    in that turn: one callback for all of them."""
    due = _DUE.get(loop)
    if due is None:
        due = _DUE[loop] = []
        loop.call_soon(_flush_due, loop)
    due.append(socket)


def _flush_due(loop: asyncio.AbstractEventLoop) -> None:
    for socket in _DUE.pop(loop, ()):
        try:
            socket.flush()
        except Exception:  # one socket's fault is that socket's alone
            log.exception("a socket's write failed; the socket is closed")
            socket.transport.abort()
