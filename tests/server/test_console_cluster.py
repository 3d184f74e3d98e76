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

from server_helpers import FAST, staff_on
from test_cluster import Node, _each

from paiju.server.admin.console import merge_live, node_figures


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
        staff = staff_on(postgres_db, other)
        seen = other.call("GET", f"/api/admin/rooms/{room['id']}", staff)
        assert seen.status_code == 200, seen.text
        assert seen.json()["room"]["id"] == room["id"]
        assert seen.json()["room"]["status"] == "waiting"
        # a player's token is no staff session on the node that plays the room either
        player = other.register("bo")
        refused = other.call("GET", f"/api/admin/rooms/{room['id']}", player)
        assert refused.status_code == 401, refused.text
        told = other.call(
            "POST", f"/api/admin/rooms/{room['id']}/notice", staff, json={"zh": "请文明用语"}
        )
        assert told.status_code == 200 and told.json()["room"] == room["id"], told.text
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


def test_the_live_figures_name_every_node_with_its_rooms(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    nodes = [Node(tmp_path / n, postgres_db, redis_url, n) for n in ("a", "b")]
    try:
        _each(Node.start, nodes)
        rooms = [_room_on(nodes[0]), _room_on(nodes[1])]
        assert {r["node"] for r in rooms} == {"a", "b"}  # one on each: the least loaded
        staff = staff_on(postgres_db, nodes[1])
        for node in nodes:
            live = node.call("GET", "/api/admin/live", staff)
            assert live.status_code == 200, live.text
            found = live.json()
            by_name = {n["name"]: n for n in found["nodes"]}
            assert sorted(by_name) == ["a", "b"]
            for name in ("a", "b"):
                figures = by_name[name]
                assert figures["reachable"] and figures["rooms"] == 1, figures
                assert figures["errors_per_minute"] == 0 and figures["players_online"] == 0
            assert found["rooms"] == 2 and found["by_game"] == {"toy": {"waiting": 2}}
            assert {(r["id"], r["node"]) for r in found["list"]} == {
                (r["id"], r["node"]) for r in rooms
            }
        # a node's own figures need a staff session too
        assert nodes[0].call("GET", "/api/admin/node", nodes[0].viewer).status_code == 401
    finally:
        _each(Node.stop, nodes)


def _node_live(name: str, rooms: list[tuple[int, str, bool]], errors: int) -> dict[str, Any]:
    listed = [{"id": i, "code": code, "connected": 1, "stuck": stuck} for i, code, stuck in rooms]
    games: dict[str, dict[str, int]] = {}
    for _, code, stuck in rooms:
        state = "stuck" if stuck else "playing"
        games.setdefault(code, {})[state] = games.get(code, {}).get(state, 0) + 1
    return {
        "players_online": len(rooms),
        "rooms": len(rooms),
        "list": listed,
        "by_game": games,
        "stuck": [i for i, _, stuck in rooms if stuck],
        "hands_per_minute": 9,
        "errors_per_minute": errors,
        "node": node_figures(name, listed, len(rooms), 3, errors),
    }


def test_a_clusters_figures_add_up_and_a_silent_node_is_named() -> None:
    own = _node_live("a", [(1, "toy", False), (2, "2001", True)], 1)
    theirs = _node_live("b", [(3, "toy", False)], 4)
    merged = merge_live(own, {"c": None, "b": theirs})
    assert [n["name"] for n in merged["nodes"]] == ["a", "b", "c"]
    assert merged["nodes"][2] == {"name": "c", "reachable": False}
    assert merged["rooms"] == 3 and merged["players_online"] == 3
    assert merged["errors_per_minute"] == 5 and merged["hands_per_minute"] == 9
    assert merged["by_game"] == {"2001": {"stuck": 1}, "toy": {"playing": 2}}
    assert merged["stuck"] == [2]
    assert [(r["id"], r["node"]) for r in merged["list"]] == [(1, "a"), (2, "a"), (3, "b")]
