"""The faults an operator of a cluster meets, each on real ``paiju serve`` nodes on a
throwaway PostgreSQL and Redis: a node killed and restarted by its supervisor, every node
stopped and started again, the database restarting under the players, Redis away for a
while. In each the rooms keep playing or move, and the players are told."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from pathlib import Path

import httpx
import pytest
import websockets
from server_helpers import FAST, Relay
from sqlalchemy import text
from test_cluster import LEASE_TTL as LEASE
from test_cluster import Node, _each
from test_lease import _end_session, _name_holder

from paiju.server.lease import _NODE_LOCKS, Lease, Leases, SharedStore
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
        # the twin waits a lease time for the name before it refuses; the bound is the
        # usual start's, for a busy machine's slow start-up (not a figure under test)
        with pytest.raises(RuntimeError, match="another process is running as node a"):
            twin.start(timeout=90)
    finally:
        _each(Node.stop, [a, twin])


def _room_actions(dsn: str, rooms: list[int]) -> int:
    """The actions stored of the hands of ``rooms``."""
    store = Store(dsn)
    try:
        with store.engine.connect() as conn:
            return int(
                conn.execute(
                    text(
                        """SELECT count(*) FROM actions a JOIN hands h ON h.id = a.hand_id
                        WHERE h.room_id = ANY(:r)"""
                    ),
                    {"r": rooms},
                ).scalar()
                or 0
            )
    finally:
        store.close()


def test_a_node_whose_name_lock_ended_with_its_session_takes_it_again(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    """The database session of node a's name lock ends (its backend terminated: what a
    PostgreSQL restart does to every session, here to that one alone): at its next
    renewal the node takes its name again, so another process under the name still
    cannot have it; its rooms play on under the same leases."""
    a = Node(tmp_path / "a", postgres_db, redis_url, "a")
    store = Store(postgres_db)
    try:
        a.start()
        rooms = _bot_rooms(a, 2)
        _playing_on(a, postgres_db, rooms, within=15)
        leases = _epochs(postgres_db, rooms)
        first = _name_holder(store, "a")
        assert first is not None
        _end_session(store, first)
        end = time.monotonic() + 20
        while (again := _name_holder(store, "a")) in (None, first):
            assert time.monotonic() < end, "node a did not take its name again"
            time.sleep(0.1)
        twin = SharedStore(postgres_db, "a")
        try:
            assert not twin.hold_name()
        finally:
            twin.close()
        assert _name_holder(store, "a") == again
        _playing_on(a, postgres_db, rooms, within=15)
        assert _epochs(postgres_db, rooms) == leases
        log = a.log.read_text(errors="replace")
        assert log.count("its name's lock had ended with its database session") == 1, log
    finally:
        store.close()
        a.stop()


def test_a_node_whose_name_another_process_took_gives_its_rooms_up(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    """The session of node a's name lock ends, and another process takes the name before
    a can (the test's session, queued for the lock, gets it the moment a's ends): a gives
    every room up - its sockets are told ``wrong_node`` - and writes nothing of them
    again, takes no room over (their leases, given back, stay untaken), makes no room,
    and says why in one line of its log. The process that holds the name then starts as
    node a and plays the rooms; a stopping leaves that process's presence alone."""
    a = Node(tmp_path / "a", postgres_db, redis_url, "a")
    twin = Node(tmp_path / "twin", postgres_db, redis_url, "a")
    store = Store(postgres_db)
    other = store.engine.connect()
    try:
        a.start()
        owner = a.register("owner")
        rooms = _bot_rooms(a, 2)
        _playing_on(a, postgres_db, rooms, within=15)
        leases = _epochs(postgres_db, rooms)
        first = _name_holder(store, "a")
        assert first is not None

        async def displace() -> tuple[str, int]:
            """a's name taken from under it, as its room's socket sees it: (the error's
            code, the close code)."""
            info = await asyncio.to_thread(a.call, "GET", f"/api/rooms/{rooms[0]}")
            async with websockets.connect(info.json()["ws"], additional_headers=_auth(owner)) as ws:
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"
                queued = asyncio.create_task(
                    asyncio.to_thread(
                        other.execute,
                        text("SELECT pg_advisory_lock(:ns, hashtext('a'))"),
                        {"ns": _NODE_LOCKS},
                    )
                )
                end = time.monotonic() + 20
                while not await asyncio.to_thread(_queued, store):
                    assert time.monotonic() < end, "the lock was not asked for"
                    await asyncio.sleep(0.05)
                await asyncio.to_thread(_end_session, store, first)
                await asyncio.wait_for(queued, 20)
                code = ""
                while True:
                    try:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    except websockets.ConnectionClosed as closed:
                        assert closed.rcvd is not None, "closed without a frame"
                        return code, closed.rcvd.code
                    if msg["type"] == "error":
                        code = msg["code"]

        assert asyncio.run(displace()) == ("wrong_node", 4308)
        other.commit()  # (the lock is the session's: it outlives the transaction)
        assert _name_holder(store, "a") == other.execute(text("SELECT pg_backend_pid()")).scalar()
        # a gave the leases back: expired, the same lease numbers, nobody took them
        end = time.monotonic() + 20
        while any(lease.live for lease in _leases(store, rooms).values()):
            assert time.monotonic() < end, "node a did not give its leases back"
            time.sleep(0.2)
        written = _room_actions(postgres_db, rooms)
        time.sleep(4)  # four renewals of a: a node in the cluster takes expired leases at once
        assert _epochs(postgres_db, rooms) == leases
        assert _room_actions(postgres_db, rooms) == written
        made = a.call(
            "POST", "/api/rooms", owner, json={"code": "toy", "options": BOTS, "seat": None}
        )
        assert made.status_code == 503 and made.json()["error"]["code"] == "unavailable"
        health = httpx.get(f"{a.base}/api/health", timeout=10)  # a load balancer drops it
        assert health.status_code == 503 and health.json()["ok"] is False
        log = a.log.read_text(errors="replace")
        assert log.count("another process runs as node a now") == 1, log
        # the other process starts as node a: it takes the name's rooms back and plays them
        other.execute(text("SELECT pg_advisory_unlock_all()"))
        other.commit()
        twin.start()
        _playing_on(twin, postgres_db, rooms, within=20)
        assert _epochs(postgres_db, rooms) == {r: ("a", leases[r][1] + 1) for r in rooms}
        a.stop()
        with store.engine.connect() as conn:
            url = conn.execute(text("SELECT url FROM cluster_nodes WHERE name = 'a'")).scalar()
        assert url == twin.base
        _playing_on(twin, postgres_db, rooms, within=20)
        assert "taken again" not in a.log.read_text(errors="replace")
    finally:
        other.close()
        store.close()
        _each(Node.stop, [a, twin])


def _queued(store: Store) -> bool:
    """Whether a session waits for node a's name lock."""
    with store.engine.connect() as conn:
        return bool(
            conn.execute(
                text(
                    """SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'
                    AND NOT granted AND objsubid = 2 AND classid = CAST(:ns AS oid)
                    AND objid = CAST(hashtext('a') AS oid))"""
                ),
                {"ns": _NODE_LOCKS},
            ).scalar()
        )


def _leases(store: Store, rooms: list[int]) -> dict[int, Lease]:
    return Leases(store, "probe").holders(rooms)


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
                url = f"{b.ws_base}/ws/rooms/{big}"
                async with websockets.connect(url, additional_headers=_auth(token)) as ws:
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


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/")[0])


def test_rooms_play_on_while_redis_is_away(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    """Redis away for longer than a lease: the rooms play on on the node that holds them
    (the leases and the nodes' presence are in PostgreSQL; Redis only counts the limits),
    their sockets hear every action, a socket that reaches another node is sent to the
    room's node (never ``no_room`` for an open room), and no room changes hands."""
    relay = Relay(_port(redis_url))
    a = Node(tmp_path / "a", postgres_db, relay.url(redis_url), "a")
    b = Node(tmp_path / "b", postgres_db, relay.url(redis_url), "b")
    _each(Node.start, [a, b])
    try:
        room = _bot_rooms(a, 1)[0]
        _playing_on(a, postgres_db, [room], within=15)
        before = _epochs(postgres_db, [room])
        token = a.register("watcher")

        async def watch() -> None:
            url = f"{a.ws_base}/ws/rooms/{room}"
            async with websockets.connect(url, additional_headers=_auth(token)) as ws:
                welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert welcome["type"] == "welcome" and welcome["seat"] is None
                relay.down()
                began = last = time.monotonic()
                gaps: list[float] = []
                while time.monotonic() - began < 2 * LEASE:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    assert msg["type"] != "error", msg
                    if msg["type"] in ("update", "state", "hand_started", "hand_over"):
                        gaps.append(time.monotonic() - last)
                        last = time.monotonic()
                assert max(gaps) < 3.0, f"the room stopped for {max(gaps):.1f} s"
                # a socket to the other node is told where the room is played
                other = f"{b.ws_base}/ws/rooms/{room}"
                async with websockets.connect(other, additional_headers=_auth(token)) as moved:
                    told = json.loads(await asyncio.wait_for(moved.recv(), 10))
                    assert told["code"] == "wrong_node", told
                    assert f"{a.ws_base}/ws/rooms/{room}" in told["message"]
                relay.up()
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert msg["type"] != "error", msg

        asyncio.run(watch())
        assert _epochs(postgres_db, [room]) == before, "the room changed hands"
    finally:
        relay.up()
        _each(Node.stop, [a, b])


def test_a_node_written_into_redis_receives_nothing(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    """Anyone who can write to Redis wrote a node of their own into it, the least loaded of
    all: no room creation is passed to it (with a player's token and the cluster's secret),
    since the nodes know each other from PostgreSQL, and Redis holds no secret."""
    import socket
    import threading

    import redis

    trap = socket.create_server(("127.0.0.1", 0))
    reached: list[bytes] = []

    def listen() -> None:
        while True:
            try:
                conn, _ = trap.accept()
            except OSError:
                return
            conn.settimeout(2)
            with contextlib.suppress(OSError):
                reached.append(conn.recv(65536))
            conn.close()

    threading.Thread(target=listen, daemon=True).start()
    evil = f"http://127.0.0.1:{trap.getsockname()[1]}"
    client = redis.Redis.from_url(redis_url)
    fake = {"name": "evil", "url": evil, "rooms": 0, "connections": 0}
    a = Node(tmp_path / "a", postgres_db, redis_url, "a")
    try:
        a.start()
        token = a.register("ann")
        for _ in range(3):
            client.set("paiju:node:evil", json.dumps(fake), px=60_000)
            client.sadd("paiju:nodes", "evil")
            made = a.call(
                "POST", "/api/rooms", token, json={"code": "toy", "options": WAITING, "seat": 0}
            )
            assert made.status_code == 201, made.text
            assert made.json()["room"]["node"] == "a"
        assert reached == [], "a call was passed to a node written into Redis"
        store = Store(postgres_db)
        with store.engine.connect() as conn:
            secret = str(conn.execute(text("SELECT value FROM cluster_secrets")).scalar())
        store.close()
        for key in client.scan_iter("*"):
            kind = client.type(key)
            values = [client.get(key)] if kind == b"string" else []
            values += list(client.hvals(key)) if kind == b"hash" else []
            assert all(secret.encode() not in (v or b"") for v in values), key
    finally:
        a.stop()
        trap.close()
        client.close()


def test_the_database_away_for_seconds_tells_every_socket_and_the_rooms_resume(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    """PostgreSQL away for 5 s (a restart: every connection cut, none taken) under two
    nodes playing rooms: the nodes cannot renew, give their rooms up before the leases
    expire, and tell every socket so (``wrong_node``, moving) though they cannot say
    where the rooms go; once the database answers the rooms are taken and resumed from
    their logs, the sockets reconnect, no action is written twice, every hand verifies;
    each node holds its name again (its lock ended with its session), so no second process
    can start under it."""
    relay = Relay(_port(postgres_db))
    dsn = relay.url(postgres_db)
    a = Node(tmp_path / "a", dsn, redis_url, "a")
    b = Node(tmp_path / "b", dsn, redis_url, "b")
    _each(Node.start, [a, b])
    store = Store(postgres_db)  # (not through the relay)
    try:
        names = {n: _name_holder(store, n) for n in ("a", "b")}
        assert None not in names.values(), names
        rooms = _bot_rooms(a, 2) + _bot_rooms(b, 2)
        token = a.register("watcher")
        end = time.monotonic() + 20
        while len({a.call("GET", f"/api/rooms/{r}").json().get("node") for r in rooms}) < 2:
            assert time.monotonic() < end, "the rooms are not on both nodes"
            time.sleep(0.2)

        async def watch(room: int) -> tuple[float, int]:
            """Seconds from the cut until the socket is told, and the close code."""
            info = await asyncio.to_thread(a.call, "GET", f"/api/rooms/{room}")
            async with websockets.connect(info.json()["ws"], additional_headers=_auth(token)) as ws:
                hello = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert hello["type"] == "welcome", hello
                await cut.wait()
                began = time.monotonic()
                while True:
                    try:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    except websockets.ConnectionClosed as closed:
                        assert closed.rcvd is not None, "closed without a frame"
                        return time.monotonic() - began, closed.rcvd.code
                    if msg["type"] == "error":  # a deal that could not be stored, then moving
                        assert msg["code"] in ("wrong_node", "deal_delayed"), msg

        cut = asyncio.Event()

        async def outage() -> list[tuple[float, int]]:
            watchers = [asyncio.create_task(watch(r)) for r in rooms]
            await asyncio.sleep(2)
            relay.down()
            cut.set()
            await asyncio.sleep(5)
            relay.up()
            return list(await asyncio.gather(*watchers))

        told = asyncio.run(outage())
        assert all(code == 4308 for _, code in told), told
        assert all(seconds < 10 for seconds, _ in told), told

        async def back() -> None:
            """Each room reached as a client reaches it: where the rooms API says, and
            asked again when the node says the room is still moving (a loaded machine may
            see a room change hands once more while the leases settle)."""
            for room in rooms:
                end = time.monotonic() + 30
                while True:
                    info = await asyncio.to_thread(b.call, "GET", f"/api/rooms/{room}")
                    assert time.monotonic() < end, f"room {room} not resumed: {info.text}"
                    if info.status_code != 200 or not info.json().get("ws"):
                        await asyncio.sleep(0.3)
                        continue
                    async with websockets.connect(
                        info.json()["ws"], additional_headers=_auth(token)
                    ) as ws:
                        welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        if welcome["type"] == "error" and welcome["code"] == "wrong_node":
                            await asyncio.sleep(0.3)
                            continue
                        assert welcome["type"] == "welcome", welcome
                        while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "update":
                            pass
                        break

        asyncio.run(back())
        for node in (a, b):
            log = node.log.read_text(errors="replace")
            assert "duplicate key" not in log and "UniqueViolation" not in log
        for room in rooms:
            for game in b.call("GET", f"/api/games?room={room}").json():
                assert b.call("GET", f"/api/games/{game['id']}/verify").json()["ok"] is True
        # each node's name is held again, by a new session (the old ones ended in the cut)
        end = time.monotonic() + 20
        while True:
            again = {n: _name_holder(store, n) for n in ("a", "b")}
            if all(again[n] not in (None, names[n]) for n in names):
                break
            assert time.monotonic() < end, f"the names are not held again: {names} {again}"
            time.sleep(0.2)
        for name in ("a", "b"):
            twin = SharedStore(postgres_db, name)
            try:
                assert not twin.hold_name()
            finally:
                twin.close()
    finally:
        store.close()
        relay.up()
        _each(Node.stop, [a, b])


def _auth(token: str) -> dict[str, str]:
    """The socket's credentials: a token travels in a header, never in a URL."""
    return {"Authorization": f"Bearer {token}"}
