"""The faults an operator of a cluster meets, each on real ``paiju serve`` nodes on a
throwaway PostgreSQL and Redis: a node killed and restarted by its supervisor, every node
stopped and started again, the database restarting under the players, Redis away for a
while. In each the rooms keep playing or move, and the players are told."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path

import httpx
import pytest
import websockets
from server_helpers import FAST
from sqlalchemy import text
from test_cluster import Node, _each

from paiju.server.store import Store

WAITING = {**FAST, "seats": 2, "bots": 0}
"""A room that waits for its second player."""

BOTS = {**FAST, "bots": 2, "seats": 2, "hands": 1000, "bot_delay": 0.05}
"""A room of bots only that plays for ever, at a pace the tests can watch."""


def _epochs(dsn: str, rooms: list[int]) -> dict[int, tuple[str, int]]:
    store = Store(dsn)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(
                text("SELECT room_id, node, epoch FROM room_leases WHERE room_id = ANY(:r)"),
                {"r": rooms},
            ).all()
    finally:
        store.close()
    return {int(r.room_id): (str(r.node), int(r.epoch)) for r in rows}


def _actions(dsn: str) -> int:
    store = Store(dsn)
    try:
        return store.count_actions()
    finally:
        store.close()


def _bot_rooms(node: Node, count: int) -> list[int]:
    token = node.register("owner")
    rooms = []
    for _ in range(count):
        made = node.call(
            "POST", "/api/rooms", token, json={"code": "toy", "options": BOTS, "seat": None}
        )
        assert made.status_code == 201, made.text
        rooms.append(int(made.json()["room"]["id"]))
    return rooms


def _playing_on(node: Node, dsn: str, rooms: list[int], within: float) -> None:
    """Every room is held by ``node`` and its games go on (actions are stored)."""
    end = time.monotonic() + within
    before = _actions(dsn)
    while True:
        held = _epochs(dsn, rooms)
        infos = [node.call("GET", f"/api/rooms/{r}").json() for r in rooms]
        mine = all(held.get(r, ("",))[0] == node.name for r in rooms)
        if mine and all(i.get("node") == node.name for i in infos) and _actions(dsn) > before:
            return
        assert time.monotonic() < end, f"rooms not played on {node.name}: {held} {infos}"
        time.sleep(0.2)


def test_a_node_killed_and_restarted_at_once_takes_its_rooms_back(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    """kill -9, and the supervisor starts the node again 1.3 s later (its leases have not
    expired): it starts within seconds, takes back each of its rooms under the next lease
    number (one claim each, not thousands), plays them, and stops on SIGTERM. Then every
    node is stopped and started again: the first one up plays every room."""
    a = Node(tmp_path / "a", postgres_db, redis_url, "a")
    b = Node(tmp_path / "b", postgres_db, redis_url, "b")
    try:
        a.start()
        rooms = _bot_rooms(a, 3)
        _playing_on(a, postgres_db, rooms, within=15)
        first = _epochs(postgres_db, rooms)
        a.kill9()
        time.sleep(1.3)
        a.start()  # before: it never listened, claiming its own rooms again and again
        _playing_on(a, postgres_db, rooms, within=15)
        again = _epochs(postgres_db, rooms)
        assert again == {r: ("a", first[r][1] + 1) for r in rooms}, (first, again)
        log = a.log.read_text(errors="replace")
        assert "it holds" not in log
        # SIGTERM stops it (a supervisor's stop), handing the leases back
        assert a.proc is not None
        a.proc.send_signal(signal.SIGTERM)
        a.proc.wait(15)
        # every node stopped and started again: the first one up plays them all
        b.start()
        _playing_on(b, postgres_db, rooms, within=20)
        a.start()
        _each(Node.stop, [a, b])
        a.start()
        _playing_on(a, postgres_db, rooms, within=20)
    finally:
        _each(Node.stop, [a, b])


def test_two_processes_cannot_run_as_one_node(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    """A node's name is a session lock in PostgreSQL: a second process under the same name
    (which would take back the first one's rooms as its own) refuses to start."""
    a = Node(tmp_path / "a", postgres_db, redis_url, "a")
    twin = Node(tmp_path / "twin", postgres_db, redis_url, "a")
    try:
        a.start()
        with pytest.raises(RuntimeError, match="another process is running as node a"):
            twin.start(timeout=30)
    finally:
        _each(Node.stop, [a, twin])


def test_a_call_passed_on_goes_to_the_rooms_own_routes_only(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    """A node passes on the calls of a room (join, spectate, …) built from the parsed room
    id and route: a path that climbs out of the room (``..%2F``) reaches nothing on the
    room's node. Room ids past what the database holds (2**31 and up) are answered with
    JSON errors, and a socket to one gets a frame saying so before it is closed."""
    a = Node(tmp_path / "a", postgres_db, redis_url, "a")
    b = Node(tmp_path / "b", postgres_db, redis_url, "b")
    _each(Node.start, [a, b])
    try:
        token = a.register("ann")
        made = a.call(
            "POST", "/api/rooms", token, json={"code": "toy", "options": WAITING, "seat": 0}
        )
        assert made.status_code == 201, made.text
        room = made.json()["room"]
        assert room["node"] == "a"
        players = _players(postgres_db)
        for climb in ("..%2F..%2Fplayers", "..%2F..%2F..%2Fapi%2Fplayers", "x%2F..%2F..%2Fplayers"):
            url = f"{b.base}/api/rooms/{room['id']}/{climb}"
            answer = httpx.post(
                url,
                json={"name": "mallory"},
                headers={"Authorization": f"Bearer {token}", "X-Forwarded-For": "6.6.6.6"},
                timeout=10,
            )
            assert answer.status_code in (404, 405), (climb, answer.status_code, answer.text)
        assert _players(postgres_db) == players, "a call climbed out of the room's routes"
        # the room's own routes are still passed on
        spectate = b.call("GET", f"/api/rooms/{room['id']}/spectate", token)
        assert spectate.status_code == 200, spectate.text
        assert spectate.json()["room"]["node"] == "a"
        for big in (2**31, 2**40, 2**63 - 1):
            for method, route in (("GET", ""), ("POST", "/join"), ("GET", "/spectate")):
                answer = b.call(method, f"/api/rooms/{big}{route}", token, json={})
                assert answer.status_code == 404, (big, route, answer.text)
                assert answer.json()["error"]["code"] == "no_room"
            closed = b.call("POST", f"/api/rooms/{big}/close", token)
            assert closed.status_code == 404 and closed.json()["error"]["code"] == "no_room"

        async def sockets() -> None:
            for big in (2**31, 2**40):
                url = f"{b.ws_base}/ws/rooms/{big}?token={token}"
                async with websockets.connect(url) as ws:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    assert msg["type"] == "error" and msg["code"] == "no_room", msg
                    with pytest.raises(websockets.ConnectionClosed) as ended:
                        await asyncio.wait_for(ws.recv(), 10)
                    assert ended.value.rcvd is not None and ended.value.rcvd.code == 4404

        asyncio.run(sockets())
        for node in (a, b):
            assert "Traceback" not in node.log.read_text(errors="replace")
    finally:
        _each(Node.stop, [a, b])


def _players(dsn: str) -> int:
    store = Store(dsn)
    try:
        with store.engine.connect() as conn:
            return int(conn.execute(text("SELECT count(*) FROM players")).scalar() or 0)
    finally:
        store.close()
