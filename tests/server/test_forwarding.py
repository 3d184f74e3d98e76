"""What a cluster node passes on when it hands a room's call to the room's node: the path
it built itself, the cluster's secret, the client's address as this node saw it - and
none of the caller's own claims about its address (``X-Forwarded-For`` and the like),
which the room's node, seeing a call from a trusted peer, would otherwise believe."""

from __future__ import annotations

import asyncio
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from starlette.requests import Request

from paiju.server.cluster import CLIENT, FORWARDED, _send, forwarding_client


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
    scope = {
        "type": "http",
        "method": "POST",
        "scheme": "http",
        "server": ("127.0.0.1", 8000),
        "client": ("203.0.113.7", 5555),
        "path": "/api/rooms/5/../../players",
        "raw_path": b"/api/rooms/5/..%2F..%2Fplayers",
        "query_string": b"",
        "headers": [
            (b"host", b"node-a"),
            (b"authorization", b"Bearer t0ken"),
            (b"content-type", b"application/json"),
            (b"x-forwarded-for", b"6.6.6.6"),
            (b"forwarded", b"for=6.6.6.6"),
            (b"x-real-ip", b"6.6.6.6"),
            (CLIENT.encode(), b"6.6.6.6"),
            (FORWARDED.encode(), b"guessed"),
        ],
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def run() -> list[Any]:
        url = f"http://127.0.0.1:{server.server_address[1]}/api/rooms/5/join"
        # one client for the node's life: two players' calls through it
        async with forwarding_client() as client:
            return [
                await _send(client, "the-secret", Request(scope, receive), url) for _ in range(2)
            ]

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
