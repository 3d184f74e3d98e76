"""What a cluster node passes on when it hands a room's call to the room's node: the path
it built itself, the cluster's secret, the client's address as this node saw it - and
none of the caller's own claims about its address (``X-Forwarded-For`` and the like),
which the room's node, seeing a call from a trusted peer, would otherwise believe."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from starlette.requests import Request

from paiju.server.cluster import CLIENT, FORWARDED, _send, forwarding_client


def _request(
    path: str, raw_path: bytes, headers: list[tuple[bytes, bytes]]
) -> Callable[[], Request]:
    """Requests (a new one each call) of a client's ``POST`` with the body ``{}``, as the
    passing node received them."""
    scope = {
        "type": "http",
        "method": "POST",
        "scheme": "http",
        "server": ("127.0.0.1", 8000),
        "client": ("203.0.113.7", 5555),
        "path": path,
        "raw_path": raw_path,
        "query_string": b"",
        "headers": headers,
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    return lambda: Request(scope, receive)


def test_a_call_passed_on_carries_the_nodes_word_for_the_client_only() -> None:
    seen: list[tuple[str, dict[str, str], bytes]] = []

    class Holder(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("set-cookie", "x=1")
            self.end_headers()
            self.wfile.write(b'{"ok": true}')

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Holder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    request = _request(
        "/api/rooms/5/../../players",
        b"/api/rooms/5/..%2F..%2Fplayers",
        [
            (b"host", b"node-a"),
            (b"authorization", b"Bearer t0ken"),
            (b"content-type", b"application/json"),
            (b"x-forwarded-for", b"6.6.6.6"),
            (b"forwarded", b"for=6.6.6.6"),
            (b"x-real-ip", b"6.6.6.6"),
            (CLIENT.encode(), b"6.6.6.6"),
            (FORWARDED.encode(), b"guessed"),
        ],
    )

    async def run() -> list[Any]:
        url = f"http://127.0.0.1:{server.server_address[1]}/api/rooms/5/join"
        # one client for the node's life: two players' calls through it
        async with forwarding_client(5.0) as client:
            return [await _send(client, "the-secret", request(), url) for _ in range(2)]

    try:
        answers = asyncio.run(run())
    finally:
        server.shutdown()
    assert [a.status_code for a in answers] == [200, 200]
    assert not any("set-cookie" in a.headers for a in answers)
    # the first answer's cookie is kept by no one: the second call carries none
    assert len(seen) == 2 and "cookie" not in seen[1][1]
    (path, headers, body) = seen[0]
    assert path == "/api/rooms/5/join"  # built by the node, not the client's path
    assert headers[FORWARDED] == "the-secret"
    assert headers[CLIENT] == "203.0.113.7"  # the client as the passing node saw it
    assert headers["authorization"] == "Bearer t0ken" and body == b"{}"
    for claim in ("x-forwarded-for", "forwarded", "x-real-ip"):
        assert claim not in headers, claim


def test_a_kept_connection_is_given_up_before_the_other_node_would_close_it() -> None:
    """A node closes a connection idle for its keep-alive. A call sent on that connection
    just as it closes is lost ("server disconnected without sending a response"): the
    forwarding client gives a pooled connection up well before the peer's keep-alive, and
    opens a fresh one."""
    peer_keep_alive = 1.0
    opened: list[int] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        opened.append(1)
        answered_at: float | None = None
        loop = asyncio.get_running_loop()
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.decode("latin-1").split("\r\n"):
                    name, _, value = line.partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                await reader.readexactly(length)
                if answered_at is not None and loop.time() - answered_at >= peer_keep_alive:
                    # the peer's keep-alive ran out as this call came: its close and the
                    # call cross, the call is never answered
                    writer.close()
                    return
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                await writer.drain()
                answered_at = loop.time()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def run() -> list[int]:
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        url = f"http://127.0.0.1:{port}/api/rooms/5/join"
        request = _request(
            "/api/rooms/5/join", b"/api/rooms/5/join", [(b"content-type", b"application/json")]
        )
        try:
            async with forwarding_client(peer_keep_alive) as client:
                first = await _send(client, "s", request(), url)
                await asyncio.sleep(peer_keep_alive * 1.2)
                second = await _send(client, "s", request(), url)
            return [first.status_code, second.status_code]
        finally:
            server.close()

    assert asyncio.run(run()) == [200, 200]
    assert len(opened) == 2  # the second call on a connection of its own
