"""Connection limits below the app: uvicorn's HTTP protocol with a deadline for the
request head and a cap of open connections per client address.

uvicorn closes an idle keep-alive connection after ``timeout_keep_alive``, but a
connection that never completes a request head (half-open, or a slow sender) is held
for ever; enough of them take every file descriptor and the server refuses everyone.
:class:`GuardedHttp` closes a connection whose request head is not complete
``header_timeout`` seconds after it opened (or after the first byte of the next request
on a kept-alive connection), and one
that would exceed ``connections_per_address`` at once. WebSockets upgraded from it
keep counting against their address until they close. Behind a trusted proxy (nginx on
the same host, or ``FORWARDED_ALLOW_IPS``) the cap counts each client's requests and
sockets by the address the proxy names (:class:`PerClient`): one client holding many
sockets through the proxy does not lock every other client out.
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import json
from typing import Any

from starlette.types import Message, Receive
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = [
    "GuardedHttp",
    "NetLimits",
    "PerClient",
    "keep_alive_seconds",
    "open_connections",
    "replayed",
    "trusted_proxies",
]


def replayed(body: bytes, receive: Receive) -> Receive:
    """The ``receive`` of an app behind a middleware that read the request's whole
    ``body``: the body first, in one message, then what the client sends next (its
    disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def keep_alive_seconds(setting: float) -> int:
    """The seconds uvicorn keeps an idle connection open for the operator's ``keep_alive``
    (uvicorn takes whole seconds, at least one). A client that keeps connections to a
    server of ours (a node passing calls to another) gives them up well before this: a
    call sent just as the server closes the connection is never answered."""
    return int(max(1, setting))


class NetLimits:
    """The limits :class:`GuardedHttp` applies (set by ``paiju serve`` before it listens)."""

    header_timeout = 10.0
    connections_per_address = 512
    proxies: frozenset[str] = frozenset({"127.0.0.1", "::1"})
    """The addresses of the trusted proxies (uvicorn's ``FORWARDED_ALLOW_IPS``; ``*``
    trusts every peer): a request of theirs that names its client (``X-Forwarded-For``)
    counts against that client's cap (:class:`PerClient`), not the proxy's."""


def trusted_proxies(spec: str | None) -> frozenset[str]:
    """The proxies of ``FORWARDED_ALLOW_IPS`` (comma-separated addresses or networks such
    as ``10.0.0.0/24``, as uvicorn reads them; unset: 127.0.0.1 and ::1, a proxy on the
    same host)."""
    if spec is None:
        return frozenset({"127.0.0.1", "::1"})
    return frozenset(p.strip() for p in spec.split(",") if p.strip())


def _proxy(address: str | None) -> bool:
    """Whether ``address`` is a trusted proxy (an address or a network of the list)."""
    proxies = NetLimits.proxies
    if address is None:
        return False
    if "*" in proxies or address in proxies:
        return True
    networks = [p for p in proxies if "/" in p]
    if not networks:
        return False
    try:
        ip = ipaddress.ip_address(address)
        return any(ip in ipaddress.ip_network(n, strict=False) for n in networks)
    except ValueError:
        return False


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
        named = any(name == b"x-forwarded-for" for name, _ in self.headers)
        if self._counted and named and _proxy(self._address):
            # a trusted proxy's request names its client: that client is counted
            # (PerClient), not the proxy, which carries every client's connections
            self._release()
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()
        socket: Any = self.transport.get_protocol()
        if socket is not self and self._counted and self._address is not None:
            # the socket's connection now holds the count; the closure names the address
            # alone, so this protocol (its parser, its request's scope) is let go
            lost, address = socket.connection_lost, self._address

            def released(exc: Exception | None) -> None:
                _uncount(address)
                lost(exc)

            socket.connection_lost = released
            self._counted = False

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()  # an upgraded connection is released by its socket (above)
        super().connection_lost(exc)

    def _release(self) -> None:
        if self._counted and self._address is not None:
            self._counted = False
            _uncount(self._address)


def _uncount(address: str) -> None:
    """One connection of ``address`` fewer in :data:`open_connections`."""
    open_connections[address] -= 1
    if open_connections[address] <= 0:
        del open_connections[address]


open_requests: collections.Counter[str] = collections.Counter()
"""Requests and sockets in progress by client address (as the proxy headers name it)."""


class PerClient:
    """The per-address cap behind a trusted proxy: the requests and sockets in progress of
    each client - its own address as the proxy's ``X-Forwarded-For`` names it (uvicorn
    believes the header from the trusted proxies only, and takes its last address that
    is not one of them) - at most ``connections_per_address``; past it a request is
    answered 429 ``too_many_connections`` and a socket refused. A client that reaches the
    server directly is counted by :class:`GuardedHttp` already (its connections carry
    all of its requests), so this cap never refuses it first."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        client = scope.get("client") if scope["type"] in ("http", "websocket") else None
        if not client:
            await self.app(scope, receive, send)
            return
        address = str(client[0])
        if open_requests[address] >= NetLimits.connections_per_address:
            await _refuse(scope, send, NetLimits.connections_per_address)
            return
        open_requests[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            open_requests[address] -= 1
            if open_requests[address] <= 0:
                del open_requests[address]


async def _refuse(scope: Any, send: Any, limit: int) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 4429, "reason": "too_many_connections"})
        return
    body = json.dumps(
        {
            "error": {
                "code": "too_many_connections",
                "message": f"your address has {limit} requests and sockets open (the limit)",
            }
        }
    ).encode()
    headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body})
