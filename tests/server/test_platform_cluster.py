"""The platform on a cluster: "sign out everywhere" through one node closes the player's
sockets on every node; a club's tables on several nodes all show in its lobby.

The issue: "An ended session's open sockets are closed within 1 s with a clear close
code, on every node of a cluster (the cluster already has Redis for such news)."
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest
import websockets
from server_helpers import FAST
from test_cluster import Node, _auth, _each

PASSWORD = "river-and-wall-9"


async def _welcomed(url: str, token: str) -> websockets.ClientConnection:
    ws = await websockets.connect(url, additional_headers=_auth(token))
    while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "welcome":
        pass
    return ws


async def _close_code(ws: websockets.ClientConnection) -> tuple[int, list[str]]:
    codes: list[str] = []
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
            codes.append(str(msg.get("code")))
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, codes


def test_sign_out_everywhere_closes_the_sockets_on_every_node(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    a, b = nodes = [Node(tmp_path / n, postgres_db, redis_url, n) for n in ("a", "b")]
    try:
        _each(Node.start, nodes)
        made = httpx.post(
            f"{a.base}/api/accounts", json={"login": "wen", "password": PASSWORD}, timeout=10
        )
        assert made.status_code == 201, made.text
        on_a = made.json()["token"]
        signed = httpx.post(
            f"{b.base}/api/sessions", json={"login": "wen", "password": PASSWORD}, timeout=10
        )
        on_b = signed.json()["token"]
        third = b.call(
            "POST", "/api/sessions", None, json={"login": "wen", "password": PASSWORD}
        ).json()["token"]
        body = {"code": "2001", "options": {**FAST, "seats": 2, "bots": 1}, "seat": 0}
        first = a.call("POST", "/api/rooms", on_a, json=body).json()["room"]
        second = b.call("POST", "/api/rooms", on_b, json=body).json()["room"]
        assert {first["node"], second["node"]} == {"a", "b"}, (first["node"], second["node"])

        async def scenario() -> list[tuple[int, list[str]]]:
            sockets = [await _welcomed(first["ws"], on_a), await _welcomed(second["ws"], on_b)]
            ended = await asyncio.to_thread(a.call, "DELETE", "/api/sessions", third)
            assert ended.status_code == 200 and len(ended.json()["ended"]) == 2, ended.text
            return list(await asyncio.gather(*(_close_code(ws) for ws in sockets)))

        for code, messages in asyncio.run(scenario()):
            assert code == 4401 and "session_ended" in messages
        for node in nodes:
            for token in (on_a, on_b):
                assert node.call("GET", "/api/players/me", token).status_code == 401
            assert node.call("GET", "/api/players/me", third).status_code == 200
    finally:
        _each(Node.stop, nodes)


def test_a_clubs_tables_on_two_nodes_show_in_its_lobby_on_either(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    """The issue: "the club tables and their lobby work on one process and on a cluster (a
    club's tables may live on several nodes; the club lobby shows them all)"."""
    a, b = nodes = [Node(tmp_path / n, postgres_db, redis_url, n) for n in ("a", "b")]
    try:
        _each(Node.start, nodes)
        owner, friend = a.register("圈主"), b.register("牌友")
        club = a.call("POST", "/api/clubs", owner, json={"name": "两台机器"}).json()
        assert (
            b.call("POST", "/api/clubs/join", friend, json={"code": club["code"]}).status_code
            == 200
        )
        body = {"name": "宝子", "code": "2001", "options": {**FAST, "seats": 2, "fill_after": None}}
        preset = a.call("POST", f"/api/clubs/{club['id']}/presets", owner, json=body).json()
        path = f"/api/clubs/{club['id']}/presets/{preset['id']}/table"
        first = a.call("POST", path, owner).json()
        assert first["seat"] == 0 and first["room"]["node"] == "a"
        # a second table, opened through the other node by a member already seated there
        second = b.call("POST", path, friend).json()
        if second["seat"] is None:  # the waiting table is a's: the answer says how to sit
            joined = b.call("POST", second["join"], friend, json={})
            assert joined.status_code == 200, joined.text
        lobbies = [
            n.call("GET", f"/api/clubs/{club['id']}", t).json()
            for n, t in ((a, owner), (b, friend))
        ]
        for lobby in lobbies:
            assert [x["seats"] for x in lobby["tables"]] == [["圈主", "牌友"]]
        listed = b.call("GET", "/api/rooms", friend).json()
        assert first["room"]["id"] not in [r["id"] for r in listed], "not in the public lobby"
    finally:
        _each(Node.stop, nodes)
