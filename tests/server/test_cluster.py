"""Three ``paiju serve`` nodes on one PostgreSQL and one Redis, real processes on loopback:

rooms are created through every node, each on the least loaded live node (the call passed
on to it), and played through sockets on the node that holds each; any node answers the
lobby and a room's info (which node, which socket URL), passes a join to the room's node,
and tells a socket that reached the wrong node where to go. Then ``kill -9`` of one node
in the middle of its games: within seconds the other nodes take its rooms over and resume
each from the event log - the same views, legal actions and timers, the ledger unchanged -
and the games play to the end; every hand verifies. A new room is never placed on a node
that cannot be reached.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from server_helpers import FAST, GAME_CODES, Oracle, Player, Relay, Server
from sqlalchemy import text
from test_recovery import TIME_LIMIT, _same, _snapshot, _updates_seen

from paiju.server.store import Store


class Node(Server):
    """``paiju serve --db postgresql://… --redis redis://… --node NAME --public-url URL``."""

    def __init__(self, folder: Path, dsn: str, redis: str, name: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        super().__init__(folder)
        self.name = name
        self.db = dsn  # type: ignore[assignment]  # a DSN, handed to --db as is
        self.extra = ("--redis", redis, "--node", name, "--public-url", self.base)
        self.extra += ("--lease-ttl", str(LEASE_TTL))


LEASE_TTL = 4.0
"""The nodes' lease time (seconds): a dead node's rooms are taken over after about this."""

HANDS = 3
"""Hands a room plays: the node is killed in the first or second, the match ends elsewhere."""


class Where:
    """Where a room's socket is (what :class:`Player` needs of a server)."""

    def __init__(self, ws: str) -> None:
        self.ws_base = ws.rsplit("/ws/rooms/", 1)[0]


def _table(
    create: Node, join: Node, code: str, options: dict[str, Any]
) -> tuple[int, list[str], str]:
    """A two-seat room created through ``create``, its second player joining through
    ``join`` (another node: the join is passed to the room's node); (room, tokens, the
    node that plays it)."""
    tokens = [create.register("p0"), join.register("p1")]
    body = {"code": code, "options": {**FAST, **options, "seats": 2, "bots": 0}, "seat": 0}
    made = create.call("POST", "/api/rooms", tokens[0], json=body)
    assert made.status_code == 201, made.text
    info = made.json()["room"]
    room: int = info["id"]
    assert made.json()["ws"] == info["ws"] and info["ws"].endswith(f"/ws/rooms/{room}")
    joined = join.call("POST", f"/api/rooms/{room}/join", tokens[1], json={})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    assert joined.json()["room"]["node"] == info["node"]
    return room, tokens, str(info["node"])


def _info(nodes: list[Node], room: int) -> dict[str, Any]:
    for node in nodes:
        if node.proc is not None and node.proc.poll() is None:
            answer = node.call("GET", f"/api/rooms/{room}")
            assert answer.status_code == 200, answer.text
            found: dict[str, Any] = answer.json()
            return found
    raise AssertionError("no node is running")


async def _refused_elsewhere(node: Node, room: int, token: str, holder: Node) -> None:
    """A socket to a node that does not hold the room is told where to go."""
    url = f"{node.ws_base}/ws/rooms/{room}"
    async with websockets.connect(url, additional_headers=_auth(token)) as ws:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert msg["type"] == "error" and msg["code"] == "wrong_node"
        assert f"{holder.ws_base}/ws/rooms/{room}" in msg["message"]
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4308


def test_three_nodes_kill_9_of_one_resumes_its_tables_on_the_others(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    nodes = [Node(tmp_path / n, postgres_db, redis_url, n) for n in ("a", "b", "c")]
    try:
        _each(Node.start, nodes)
        _play_through_a_failover(nodes, postgres_db, redis_url)
    finally:
        _each(Node.stop, nodes)


def _each(step: Any, nodes: list[Node]) -> None:
    """``step(node)`` for every node at once (starting or stopping a node waits for it)."""
    with concurrent.futures.ThreadPoolExecutor(len(nodes)) as pool:
        for done in [pool.submit(step, n) for n in nodes]:
            done.result()


def _play_through_a_failover(nodes: list[Node], dsn: str, redis_url: str) -> None:
    options = {
        "time_limit": TIME_LIMIT,
        "reconnect_grace": TIME_LIMIT,
        "tuoguan": "both",
        "hands": HANDS,
    }
    a, b, c = nodes
    by_name = {n.name: n for n in nodes}
    # (the node the create call reaches, the node the room must go to): the first three
    # reach a, which keeps one and passes one to each idle node; then every node holds
    # one and keeps the next it is asked for (a tie goes to the node asked)
    plan = [(a, a), (a, b), (a, c), (b, b), (c, c), (a, a)]
    tables: list[tuple[int, list[str], int, Node]] = []
    for i, (through, expected) in enumerate(plan):
        joiner = nodes[(nodes.index(through) + 1) % 3]
        code = GAME_CODES[i % len(GAME_CODES)]
        room, tokens, placed_on = _table(through, joiner, code, options)
        assert placed_on == expected.name, f"room {i} went to {placed_on}"
        tables.append((room, tokens, (1, 2)[i % 2], expected))

    # any node answers the lobby: every room, with the node that plays it
    lobby = nodes[2].call("GET", "/api/rooms").json()
    placed = {r["id"]: r["node"] for r in lobby}
    for room, _, _, node in tables:
        assert placed[room] == node.name
        info = nodes[(nodes.index(node) + 2) % 3].call("GET", f"/api/rooms/{room}").json()
        assert info["ws"] == f"{node.ws_base}/ws/rooms/{room}"
        assert info["status"] == "playing"
    room0, tokens0, _, node0 = tables[0]
    asyncio.run(_refused_elsewhere(nodes[1], room0, tokens0[0], node0))

    oracle = Oracle(dsn)  # type: ignore[arg-type]

    async def connect(seed: int) -> list[Player]:
        players = []
        for room, tokens, _, _ in tables:
            where = Where(_info(nodes, room)["ws"])
            for i, token in enumerate(tokens):
                p = Player(where, token, room, seed=seed + i, oracle=oracle)  # type: ignore[arg-type]
                players.append(await p.connect())
        return players

    async def first_half() -> dict[tuple[int, str], dict[str, Any]]:
        players = await connect(0)
        stops = [partway for _, tokens, partway, _ in tables for _ in tokens]
        await asyncio.gather(
            *(p.play(until=_updates_seen(s)) for p, s in zip(players, stops, strict=True))
        )
        for p in players:
            await p.close()
        again = await connect(100)
        snap = await _snapshot(again)
        for p in again:
            await p.close()
        return snap

    before = asyncio.run(first_half())
    all_tokens = [t for _, tokens, _, _ in tables for t in tokens]
    ledgers = {t: nodes[1].call("GET", "/api/players/me/ledger", t).json() for t in all_tokens}
    assert any(lg["entries"] for lg in ledgers.values()), "no hand was settled before"
    store = Store(dsn)
    actions_before = store.count_actions()
    store.close()

    victim = nodes[0]
    moved = [room for room, _, _, node in tables if node is victim]
    assert len(moved) == 2
    victim.kill9()
    killed = time.monotonic()
    survivors = [n for n in nodes if n is not victim]
    asyncio.run(_never_on_a_dead_node(b, dsn, survivors))
    while True:
        infos = {room: _info(survivors, room) for room in moved}
        if all(i.get("node") in ("b", "c") and i.get("ws") for i in infos.values()):
            break
        assert time.monotonic() - killed < 30, f"rooms not taken over: {infos}"
        time.sleep(0.2)
    failover = time.monotonic() - killed
    assert failover < 30
    for room, info in infos.items():
        assert info["ws"] == f"{by_name[info['node']].ws_base}/ws/rooms/{room}"

    async def second_half() -> None:
        players = await connect(50)
        after = await _snapshot(players)
        assert after.keys() == before.keys()
        for key, msg in before.items():
            _same(msg, after[key])
        for token in all_tokens:
            assert nodes[2].call("GET", "/api/players/me/ledger", token).json() == ledgers[token]
        await asyncio.gather(*(p.play(timeout=120) for p in players))
        for p in players:
            await p.close()

    asyncio.run(second_half())
    oracle.close()
    store = Store(dsn)
    assert store.count_actions() > actions_before, "the games went on after the failover"
    store.close()
    for room, _, _, _ in tables:
        games = nodes[1].call("GET", f"/api/games?room={room}").json()
        assert len(games) == HANDS, f"room {room} did not play its {HANDS} hands"
        for g in games:
            assert nodes[2].call("GET", f"/api/games/{g['id']}/verify").json()["ok"] is True
    metrics = httpx.get(f"{nodes[1].base}/metrics", timeout=10).text
    assert 'paiju_rooms_taken_over_total{node="b"}' in metrics
    assert 'paiju_actions_total{node="b"}' in metrics


async def _never_on_a_dead_node(through: Node, dsn: str, live: list[Node]) -> None:
    """A node that looks the least loaded but cannot be reached (the presence of a node
    just dead, not expired yet) is skipped: the room is created on a live node."""
    store = Store(dsn)
    with store.engine.begin() as conn:
        conn.execute(
            text(
                """INSERT INTO cluster_nodes (name, url, rooms, connections, seen_at, expires_at)
                SELECT 'ghost', 'http://127.0.0.1:9', 0, 0, t, t + :ttl
                FROM (SELECT extract(epoch from clock_timestamp()) AS t) AS now"""
            ),
            {"ttl": LEASE_TTL},
        )
    store.close()
    token = through.register("late")
    body = {"code": "toy", "options": {**FAST, "seats": 2, "bots": 0}, "seat": 0}
    made = await asyncio.to_thread(through.call, "POST", "/api/rooms", token, json=body)
    assert made.status_code == 201, made.text
    assert made.json()["room"]["node"] in {n.name for n in live}


def test_a_node_cut_off_from_the_database_stops_before_another_takes_over(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    """Node a loses PostgreSQL: it cannot renew, gives its room up (its sockets are told
    ``wrong_node``) while its lease still holds - nobody has taken the room yet - and then
    node b takes it over; the game resumes there exactly and plays to the end."""
    port = int(postgres_db.rsplit(":", 1)[1].split("/")[0])
    relay = Relay(port)
    a_dsn = postgres_db.replace(f":{port}/", f":{relay.port}/")
    a = Node(tmp_path / "a", a_dsn, redis_url, "a")
    b = Node(tmp_path / "b", postgres_db, redis_url, "b")
    _each(Node.start, [a, b])
    store = Store(postgres_db)
    try:
        options = {"time_limit": TIME_LIMIT, "reconnect_grace": TIME_LIMIT, "hands": HANDS}
        room, tokens, placed_on = _table(a, b, "toy", options)
        assert placed_on == "a"  # both idle: the node asked keeps it

        async def run() -> None:
            oracle = Oracle(postgres_db)  # type: ignore[arg-type]
            players = [Player(a, t, room, seed=i, oracle=oracle) for i, t in enumerate(tokens)]
            for p in players:
                await p.connect()
            await asyncio.gather(*(p.play(until=_updates_seen(2)) for p in players))
            before = await _snapshot(players)
            relay.down()
            for p in players:
                told = await p.expect("error", timeout=20)
                assert told["code"] == "wrong_node"
            with store.engine.connect() as conn:
                holder = conn.execute(
                    text("SELECT node FROM room_leases WHERE room_id = :r"), {"r": room}
                ).scalar()
            assert holder == "a", "another node took the room before a gave it up"
            for p in players:
                await asyncio.wait_for(p.closed.wait(), 10)
            end = time.monotonic() + 30
            while _info([b], room).get("node") != "b":
                assert time.monotonic() < end, "b did not take the room over"
                await asyncio.sleep(0.2)
            again = [Player(b, t, room, seed=9 + i, oracle=oracle) for i, t in enumerate(tokens)]
            for p in again:
                await p.connect()
            after = await _snapshot(again)
            assert after.keys() == before.keys()
            for key, msg in before.items():
                _same(msg, after[key])
            await asyncio.gather(*(p.play(timeout=60) for p in again))
            for p in again:
                await p.close()
            oracle.close()

        asyncio.run(run())
        games = b.call("GET", f"/api/games?room={room}").json()
        assert len(games) == HANDS
        assert all(b.call("GET", f"/api/games/{g['id']}/verify").json()["ok"] for g in games)
    finally:
        store.close()
        _each(Node.stop, [a, b])


def _auth(token: str) -> dict[str, str]:
    """The socket's credentials: a token travels in a header, never in a URL."""
    return {"Authorization": f"Bearer {token}"}
