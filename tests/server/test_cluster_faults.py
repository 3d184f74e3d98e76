"""The faults an operator of a cluster meets, each on real ``paiju serve`` nodes on a
throwaway PostgreSQL and Redis: a node killed and restarted by its supervisor, every node
stopped and started again, the database restarting under the players, Redis away for a
while. In each the rooms keep playing or move, and the players are told."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from server_helpers import FAST
from sqlalchemy import text
from test_cluster import Node, _each

from paiju.server.store import Store

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
