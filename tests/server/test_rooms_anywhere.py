"""The cluster's middleware of ``/api/rooms`` (``paiju.server.cluster.RoomsAnywhere``), in
front of a stand-in app, with a stand-in node: a call of another path reaches the app
untouched; a room call another node holds is passed on with its body, read within the
server's body limit; a call that is the app's own reaches it with its body; a room the app
creates here is in the node's presence before the answer goes out."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.types import Message, Receive, Scope, Send

from paiju.server.app import BodyLimit, RoomSockets, create_app
from paiju.server.cluster import FORWARDED, NodeConfig, RoomsAnywhere, forwarding_client

LIMIT = 100


class App:
    """The app behind the middleware: what it was called with, and a 201 with the body."""

    def __init__(self, events: list[str] | None = None) -> None:
        self.calls: list[tuple[str, Receive, Send, bytes]] = []
        self.events = events if events is not None else []
        """The kind of each message the app sent, as it sent it."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        if scope["type"] == "http" and scope["method"] == "POST":
            body = (await receive())["body"]
        self.calls.append((scope["path"], receive, send, body))
        for message in (
            {"type": "http.response.start", "status": 201, "headers": []},
            {"type": "http.response.body", "body": body},
        ):
            self.events.append(message["type"])
            await send(message)


@pytest.fixture
def holder() -> Iterator[tuple[str, list[tuple[str, bytes]]]]:
    """Another node's server: the calls it was passed (path, body)."""
    seen: list[tuple[str, bytes]] = []

    class Holder(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            seen.append((self.path, body))
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"passed": true}')

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Holder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()


def node(holder_url: str, here: set[int], events: list[str]) -> Any:
    """A node that holds the rooms ``here`` and whose peer at ``holder_url`` holds the rest."""

    async def holder_of(room_id: int) -> Any:
        return SimpleNamespace(url=holder_url)

    async def refresh() -> None:
        events.append("presence")

    return SimpleNamespace(
        hub=SimpleNamespace(rooms=dict.fromkeys(here)),
        trusts=lambda secret: secret == "the-secret",
        holder=holder_of,
        refresh=refresh,
        secret="the-secret",
        config=SimpleNamespace(name="a"),
        http=None,
    )


class Answer(tuple[int, bytes, list[str]]):
    """A call's status, body and the kinds of message sent, in order; ``channels`` the
    server's own receive and send."""

    channels: tuple[Receive, Send]


async def call(
    stack: Any,
    method: str,
    path: str,
    body: bytes = b"",
    headers: list[Any] | None = None,
    events: list[str] | None = None,
) -> Answer:
    """One HTTP call through ``stack`` (each message the server is sent noted in ``events``
    as "out" and its kind)."""
    chunks = [body[i : i + 40] for i in range(0, len(body), 40)] or [b""]
    sent: list[Message] = []

    async def receive() -> Message:
        if chunks:
            chunk = chunks.pop(0)
            return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)
        if events is not None:
            events.append(f"out {message['type']}")

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "scheme": "http",
        "server": ("127.0.0.1", 8000),
        "client": ("203.0.113.7", 5555),
        "headers": [(b"authorization", b"Bearer t0ken"), *(headers or [])],
    }
    await stack(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    out = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    answer = Answer((status, out, [m["type"] for m in sent]))
    answer.channels = (receive, send)
    return answer


def test_the_servers_body_limit_is_outside_the_clusters_middleware() -> None:
    app = create_app(
        "postgresql://paiju@127.0.0.1:1/none",
        node=NodeConfig(name="a", public_url="http://a", redis_url="redis://127.0.0.1:1"),
    )
    # the first is the outermost: the rooms' sockets (no body, and never the cluster's:
    # RoomsAnywhere lets every WebSocket through), then the body limit around the cluster
    assert [m.cls for m in app.user_middleware] == [RoomSockets, BodyLimit, RoomsAnywhere]


def test_a_call_of_another_path_reaches_the_app_untouched(
    holder: tuple[str, list[tuple[str, bytes]]],
) -> None:
    app = App()
    stack = RoomsAnywhere(app, cluster=lambda: node(holder[0], set(), []))
    # not a room's path: the very receive and send of the server, no task between
    answer = asyncio.run(call(stack, "POST", "/api/players", b"{}"))
    assert answer[0] == 201
    (path, receive, send, body) = app.calls[0]
    assert path == "/api/players" and body == b"{}"
    assert (receive, send) == answer.channels
    assert holder[1] == []


def test_a_room_another_node_holds_is_passed_its_body(
    holder: tuple[str, list[tuple[str, bytes]]],
) -> None:
    app = App()
    url, seen = holder
    body = json.dumps({"seat": 2, "pad": "x" * 60}).encode()  # three chunks

    async def run() -> Answer:
        here = node(url, set(), [])
        async with forwarding_client(5.0) as client:
            here.http = client
            return await call(
                BodyLimit(RoomsAnywhere(app, lambda: here), LIMIT),
                "POST",
                "/api/rooms/5/join",
                body,
            )

    status, answer, _ = asyncio.run(run())
    assert (status, answer) == (200, b'{"passed": true}')
    assert seen == [("/api/rooms/5/join", body)]
    assert app.calls == []


def test_a_body_over_the_limit_is_refused_before_it_is_passed_on(
    holder: tuple[str, list[tuple[str, bytes]]],
) -> None:
    app = App()
    url, seen = holder
    here = node(url, set(), [])
    stack = BodyLimit(RoomsAnywhere(app, lambda: here), LIMIT)
    status, answer, _ = asyncio.run(call(stack, "POST", "/api/rooms/5/join", b"x" * 500))
    assert status == 413 and b"body_too_large" in answer
    assert seen == [] and app.calls == []


def test_a_call_the_app_answers_reaches_it_with_its_body(
    holder: tuple[str, list[tuple[str, bytes]]],
) -> None:
    app = App()
    url, seen = holder
    here = node(url, {7}, [])
    stack = BodyLimit(RoomsAnywhere(app, lambda: here), LIMIT)
    body = b'{"seat": 1}'
    status, answer, _ = asyncio.run(call(stack, "POST", "/api/rooms/7/join", body))
    assert (status, answer) == (201, body)  # the room is here: the app's own, body and all
    assert [c[0] for c in app.calls] == ["/api/rooms/7/join"] and seen == []


def test_a_room_made_here_is_in_the_presence_before_its_answer_goes_out(
    holder: tuple[str, list[tuple[str, bytes]]],
) -> None:
    events: list[str] = []
    app = App(events)
    here = node(holder[0], set(), events)
    stack = RoomsAnywhere(app, lambda: here)
    headers = [(FORWARDED.encode(), b"the-secret")]  # passed on by the node that placed it
    status, answer, order = asyncio.run(
        call(stack, "POST", "/api/rooms", b'{"code": "1301"}', headers, events)
    )
    assert (status, answer) == (201, b'{"code": "1301"}')
    # the app sent its answer's start; the node's presence was written before it left
    assert events == [
        "http.response.start",
        "presence",
        "out http.response.start",
        "http.response.body",
        "out http.response.body",
    ]
    assert order == ["http.response.start", "http.response.body"]
