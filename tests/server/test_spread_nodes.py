"""Rooms spread back over a cluster's live nodes, between hands: a node that holds every
room (the first back after a PostgreSQL restart; here, the only one running while they
were made) gives rooms up to a node that joins, until each plays its share, and never a
room whose hand is in play. Real ``paiju serve`` nodes on one PostgreSQL and one Redis.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from server_helpers import FAST
from test_cluster import LEASE_TTL, Node

from paiju.server.store import Store

WAITING = {**FAST, "seats": 2, "bots": 0, "ready_check": True}
"""A room that waits for its second player: no hand in play, free to move."""


def _node_of(node: Node, room: int, token: str) -> Any:
    answer = node.call("GET", f"/api/rooms/{room}", token)
    assert answer.status_code == 200, answer.text
    return answer.json()["node"]


def test_a_node_that_holds_every_room_gives_its_waiting_rooms_up_to_a_node_that_joins(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    a = Node(tmp_path / "a", postgres_db, redis_url, "a")
    b = Node(tmp_path / "b", postgres_db, redis_url, "b")
    try:
        a.start()
        token = a.register("ann")
        made = a.call(
            "POST",
            "/api/rooms",
            token,
            json={"code": "toy", "options": {**FAST, "seats": 2, "bots": 1}, "seat": 0},
        )
        assert made.status_code == 201, made.text
        playing = made.json()["room"]["id"]  # a hand in play, waiting for ann (no clock)
        waiting = []
        for i in range(6):
            owner = a.register(f"owner{i}")
            body = {"code": "toy", "options": WAITING, "seat": 0}
            answer = a.call("POST", "/api/rooms", owner, json=body)
            assert answer.status_code == 201, answer.text
            waiting.append(answer.json()["room"]["id"])
        assert {_node_of(a, r, token) for r in [playing, *waiting]} == {"a"}
        b.start()
        end = time.monotonic() + 60 + 4 * LEASE_TTL
        where: dict[int, Any] = {}
        settled = 0  # reads in a row with every room on a node, shared 4 and 3
        while time.monotonic() < end and settled < 3:
            where = {r: _node_of(a, r, token) for r in [playing, *waiting]}
            counts = sorted(sum(n == name for n in where.values()) for name in "ab")
            settled = settled + 1 if counts == [3, 4] else 0
            time.sleep(0.5)
        assert settled == 3, where
        assert where[playing] == "a"  # the room in play stays where its hand is
    finally:
        b.stop()
        a.stop()
    store = Store(postgres_db)
    try:
        hands = store.hands(playing)  # finished ones: none, the hand is still in play
        current = store.current_hand(playing)
    finally:
        store.close()
    assert hands == [] and current is not None and current.status == "playing"
