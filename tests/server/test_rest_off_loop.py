"""The REST calls of a table's life ask PostgreSQL off the event loop: registering, making a
room, 邀请 a table-mate, the invitations a player polls for, taking the seat, 准备, the
start and the owner's closing. Each of them, made through the app as a client makes it,
runs no statement on the loop's thread, so that the rooms the server plays meanwhile never
wait for the database. A real PostgreSQL (``tests/pg.py``); the app in this process (its
lifespan run by the test)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from loop_watch import LoopWatch
from sqlalchemy.engine import Engine

from paiju.server.app import create_app
from paiju.server.options import Limits

WAITING = {
    "seats": 3,
    "bots": 0,
    "fill_after": None,
    "ready_check": True,
    "time_limit": 0,
    "bot_delay": 0,
    "pause": 0,
    "hands": 1,
}


def test_a_tables_rest_calls_run_no_statement_on_the_loop(postgres_db: str) -> None:
    app = create_app(postgres_db, Limits(min_bot_delay=0))

    async def run() -> dict[str, Any]:
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://paiju") as http,
        ):

            async def call(method: str, path: str, token: str | None, **body: Any) -> Any:
                headers = {} if token is None else {"Authorization": f"Bearer {token}"}
                payload = None if method == "GET" else body
                answer = await http.request(method, path, headers=headers, json=payload)
                assert answer.status_code < 300, answer.text
                return answer.json()

            async with LoopWatch(Engine) as watch:  # the app started: from now on
                ann = await call("POST", "/api/players", None, name="ann")
                bob = await call("POST", "/api/players", None, name="bob")
                cat = await call("POST", "/api/players", None, name="cat")
                made = await call("POST", "/api/rooms", ann["token"], code="1301", options=WAITING)
                room = made["room"]["id"]
                await call("POST", f"/api/rooms/{room}/invite", ann["token"], player=bob["id"])
                invites = await call("GET", "/api/players/me/invites", bob["token"])
                await call("POST", f"/api/rooms/{room}/join", bob["token"], seat=1)
                await call("POST", f"/api/rooms/{room}/join", cat["token"])
                left = await call("GET", "/api/players/me/invites", bob["token"])
                await call("POST", f"/api/rooms/{room}/start", ann["token"])
                info = await call("GET", f"/api/rooms/{room}", ann["token"])
                closed = await call("POST", f"/api/rooms/{room}/close", ann["token"])
            assert watch.seen, "nothing was asked of the database"
            assert not watch.on_loop(), watch.on_loop()
            assert [i["room"] for i in invites["invites"]] == [room]
            assert left["invites"] == []  # answered by taking the seat
            assert closed["status"] == "closed"
            return info

    info = asyncio.run(run())
    assert info["status"] == "playing" and info["players"] == ["ann", "bob", "cat"]
