"""The operator's console on a cluster: a room's view and its closing work from whichever
node the staff member's console reached (the call is passed to the node that plays the
room), and the live figures name every node.

The issue: "works on one process and on a cluster"; "Live: players online, rooms by game
and state …, hands per minute, errors per minute, per node in a cluster, refreshed live".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyotp
from server_helpers import FAST
from test_cluster import Node, _each

from paiju.server.accounts.logins import Passwords
from paiju.server.admin.staff import Staff
from paiju.server.store import Store

PASSWORD = "lantern-drum-93"


def _staff_on(dsn: str, node: Node) -> str:
    """An admin made in the shared database, signed in through ``node``: their token."""
    store = Store(dsn)
    try:
        made = Staff(store, Passwords(time_cost=1, memory_cost=1024)).add("mei", "admin", PASSWORD)
    finally:
        store.close()
    body = {"name": "mei", "password": PASSWORD, "code": pyotp.TOTP(made.secret).now()}
    answer = node.call("POST", "/api/admin/sessions", None, json=body)
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token


def _room_on(node: Node) -> dict[str, Any]:
    token = node.register("ann")
    body = {"code": "toy", "options": {**FAST, "seats": 2, "bots": 0}, "seat": 0}
    made = node.call("POST", "/api/rooms", token, json=body)
    assert made.status_code == 201, made.text
    info: dict[str, Any] = made.json()["room"]
    return info


def test_staff_see_and_close_a_room_from_the_node_that_does_not_play_it(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    nodes = [Node(tmp_path / n, postgres_db, redis_url, n) for n in ("a", "b")]
    by_name = {n.name: n for n in nodes}
    try:
        _each(Node.start, nodes)
        room = _room_on(nodes[0])
        plays = by_name[room["node"]]
        other = next(n for n in nodes if n is not plays)
        staff = _staff_on(postgres_db, other)
        seen = other.call("GET", f"/api/admin/rooms/{room['id']}", staff)
        assert seen.status_code == 200, seen.text
        assert seen.json()["room"]["id"] == room["id"]
        assert seen.json()["room"]["status"] == "waiting"
        # a player's token is no staff session on the node that plays the room either
        player = other.register("bo")
        refused = other.call("GET", f"/api/admin/rooms/{room['id']}", player)
        assert refused.status_code == 401, refused.text
        closed = other.call(
            "POST", f"/api/admin/rooms/{room['id']}/close", staff, json={"reason": "stuck"}
        )
        assert closed.status_code == 200, closed.text
        assert closed.json() == {"room": room["id"], "status": "closed"}
        info = plays.call("GET", f"/api/rooms/{room['id']}", player)
        assert info.json()["status"] == "closed", info.text
        # the trail names the staff member and the room, read through either node
        trail = plays.call("GET", "/api/admin/audit", staff).json()
        closing = [e for e in trail["entries"] if e["action"] == "close_room"]
        assert closing and closing[0]["actor"] == "staff:mei"
        detail = closing[0]["detail"]
        detail = json.loads(detail) if isinstance(detail, str) else detail
        assert detail["room"] == room["id"] and closing[0]["reason"] == "stuck"
        # a room that no node plays is the console's 404 on either node
        for node in nodes:
            gone = node.call("GET", "/api/admin/rooms/987654", staff)
            assert gone.status_code == 404, gone.text
    finally:
        _each(Node.stop, nodes)
