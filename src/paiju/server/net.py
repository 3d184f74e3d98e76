"""Connection limits below the app: uvicorn's HTTP protocol with a deadline for the
request head and a cap of open connections per client address.

uvicorn closes an idle keep-alive connection after ``timeout_keep_alive``, but a
connection that never completes a request head (half-open, or a slow sender) is held
for ever; enough of them take every file descriptor and the server refuses everyone.
:class:`GuardedHttp` closes a connection whose request head is not complete
``header_timeout`` seconds after it opened (or after the first byte of the next request
on a kept-alive connection), and one
that would exceed ``connections_per_address`` at once. WebSockets upgraded from it
keep counting against their address until they close.
"""

from __future__ import annotations

import asyncio
import collections
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["GuardedHttp", "NetLimits", "open_connections"]


class NetLimits:
    """The limits :class:`GuardedHttp` applies (set by ``paiju serve`` before it listens)."""

    header_timeout = 10.0
    connections_per_address = 512


open_connections: collections.Counter[str] = collections.Counter()
"""Open connections by client address."""


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with a request-head deadline and a per-address cap."""

    _address: str | None = None
    _deadline: asyncio.TimerHandle | None = None
    _counted = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else None
        self._address = address
        if address is not None:
            if open_connections[address] >= NetLimits.connections_per_address:
                transport.close()
                return
            open_connections[address] += 1
            self._counted = True
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(NetLimits.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()
        socket: Any = self.transport.get_protocol()
        if socket is not self and self._counted:
            lost = socket.connection_lost

            def released(exc: Exception | None) -> None:
                self._release()
                lost(exc)

            socket.connection_lost = released
            self._upgraded = True

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if not getattr(self, "_upgraded", False):
            self._release()
        super().connection_lost(exc)

    def _release(self) -> None:
        if self._counted and self._address is not None:
            self._counted = False
            open_connections[self._address] -= 1
            if open_connections[self._address] <= 0:
                del open_connections[self._address]
