"""The web client on a cluster of two nodes (``paiju serve --redis``, one PostgreSQL, one
Redis): a page served by node a opens a room that node b plays; a's socket refuses it with
close code 4308 (``wrong_node``), the client asks the room's info for its socket and plays
the hand seated on b, its settlement the ledger's."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from play_every_code import arrange
from web_helpers import PHONE, check_against_ledger, enter, token

from pg import PostgresCluster, find_bindir
from redis_server import RedisServer, find_redis_server
from server_process import ServerProcess


def _missing(what: str, variable: str, reason: str) -> None:
    if os.environ.get(variable) == "1":
        pytest.fail(f"{reason}, and {variable}=1 requires {what}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server and database (``tests/pg.py``)."""
    bindir = find_bindir()
    if importlib.util.find_spec("psycopg") is None or bindir is None:
        _missing("PostgreSQL", "PAIJU_REQUIRE_POSTGRES", "no PostgreSQL server or driver")
        return
    cluster = PostgresCluster(bindir)
    try:
        cluster.start()
        yield cluster.create_database()
    finally:
        cluster.stop()


@pytest.fixture(scope="module")
def redis() -> Iterator[str]:
    """A throwaway Redis server (``tests/redis_server.py``)."""
    binary = find_redis_server()
    if importlib.util.find_spec("redis") is None or binary is None:
        _missing("Redis", "PAIJU_REQUIRE_REDIS", "no redis-server binary or redis library")
        return
    server = RedisServer(binary)
    try:
        server.start()
        yield server.fresh_url()
    finally:
        server.stop()


class Node(ServerProcess):
    """``paiju serve --db postgresql://… --redis redis://… --node NAME`` (the real games)."""

    def __init__(self, folder: Path, dsn: str, redis: str, name: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        super().__init__(folder)
        self.name = name
        self.db = dsn  # type: ignore[assignment]  # a DSN, handed to --db as is
        self.extra = ("--redis", redis, "--node", name, "--public-url", self.base)

    def get(self, path: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = httpx.get(f"{self.base}{path}", headers=headers, timeout=10)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def sockets(self) -> float:
        for line in httpx.get(f"{self.base}/metrics", timeout=10).text.splitlines():
            if line.startswith("paiju_connections{"):
                return float(line.rsplit(" ", 1)[1])
        raise AssertionError(f"node {self.name} has no paiju_connections series")


def test_the_client_follows_wrong_node_to_the_rooms_node_and_plays_there(
    tmp_path: Path, postgres: str, redis: str, browser: Any
) -> None:
    nodes = {n: Node(tmp_path / n, postgres, redis, n) for n in ("a", "b")}
    for node in nodes.values():
        node.launch()
    entry = nodes["a"]
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.set_default_timeout(20_000)
        page.base = entry.base
        enter(page, "跨节点")
        mine = token(page)
        # a room for the page's player, made through b; then the page on the other node
        body = {
            "code": "1301",
            "seat": 0,
            "options": {"seats": 4, "bots": 3, "bot_delay": 0, "time_limit": 0, "hands": 1},
        }
        made = httpx.post(
            f"{nodes['b'].base}/api/rooms",
            json=body,
            headers={"Authorization": f"Bearer {mine}"},
            timeout=10,
        )
        assert made.status_code == 201, made.text
        room = made.json()["room"]
        held = nodes[room["node"]]
        wrong = nodes["a" if held.name == "b" else "b"]
        assert wrong.get(f"/api/rooms/{room['id']}", mine)["ws"] == room["ws"]

        page.goto(f"{wrong.base}/#/room/{room['id']}")
        page.wait_for_selector("#ssz-submit")  # seated, with its 13 cards to arrange
        # no token in a socket's URL (it goes in the first message): 4308, then the room's node
        assert sockets[0] == f"{wrong.ws_base}/ws/rooms/{room['id']}"
        assert sockets[-1] == room["ws"]
        assert (wrong.sockets(), held.sockets()) == (0, 1)
        arrange(page, "1301")
        record = check_against_ledger(page, held, seat=0)
        assert record["room"] == room["id"]
        assert wrong.get(f"/api/games/{record['id']}/verify")["ok"]
        assert not errors, f"JavaScript errors on the page: {errors}"
    finally:
        context.close()
        for node in nodes.values():
            node.stop()


def test_the_client_leaves_a_frozen_node_for_the_one_that_takes_its_room(
    tmp_path: Path, postgres: str, redis: str, browser: Any
) -> None:
    """The node playing the room freezes (SIGSTOP, past its lease): its socket stays open
    and says nothing. The page's heartbeat notices the silence, gives the socket up, reads
    the room's info again and plays on on the node that took the room over."""
    import signal
    import time

    nodes = {n: Node(tmp_path / n, postgres, redis, n) for n in ("a", "b")}
    for node in nodes.values():
        node.extra += ("--lease-ttl", "4")
        node.launch()
    context = browser.new_context(viewport=PHONE)
    frozen = None
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.set_default_timeout(20_000)
        page.base = nodes["a"].base
        enter(page, "心跳")
        mine = token(page)
        body = {
            "code": "1301",
            "seat": 0,
            "options": {"seats": 4, "bots": 3, "bot_delay": 0, "time_limit": 0, "hands": 1},
        }
        made = httpx.post(  # through b, which keeps it (both idle): the page is a's
            f"{nodes['b'].base}/api/rooms",
            json=body,
            headers={"Authorization": f"Bearer {mine}"},
            timeout=10,
        )
        assert made.status_code == 201, made.text
        room = made.json()["room"]
        frozen, other = nodes["b"], nodes["a"]
        assert room["node"] == "b"
        page.goto(f"{other.base}/#/room/{room['id']}")
        page.wait_for_selector("#ssz-submit")
        page.wait_for_selector("#conn.on")
        assert sockets[-1] == room["ws"]
        assert frozen.proc is not None
        frozen.proc.send_signal(signal.SIGSTOP)
        stopped, moved = time.monotonic(), f"{other.ws_base}/ws/rooms/{room['id']}"
        while sockets[-1] != moved:  # the silence noticed, the room found again
            assert time.monotonic() - stopped < 40, sockets
            page.wait_for_timeout(200)
        try:
            page.wait_for_selector("#conn.on")
        except Exception as exc:  # say what the page and the node that took over did
            took = other.log.read_text(errors="replace")[-3000:]
            raise AssertionError(f"{exc}\nsockets {sockets}\nnode {other.name}: {took}") from exc
        # a socket refused while the room moves is tried again later and later, not in a
        # storm (each refusal opens the socket first: its opening is not a join)
        assert len(sockets) <= 12, sockets
        page.wait_for_selector("#ssz-submit")
        arrange(page, "1301")
        record = check_against_ledger(page, other, seat=0)
        assert record["room"] == room["id"]
        assert not errors, f"JavaScript errors on the page: {errors}"
    finally:
        if frozen is not None and frozen.proc is not None:
            frozen.proc.send_signal(signal.SIGCONT)
        context.close()
        for node in nodes.values():
            node.stop()
