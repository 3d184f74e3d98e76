"""The server's limits hold across the nodes of a cluster (``paiju serve --redis``): two
real nodes on one PostgreSQL and one Redis, clients on loopback.

Each test's client comes from an address of its own (127.0.0.N: the whole 127/8 block is
loopback), so the per-address counts of one test do not reach another's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from server_helpers import FAST, Server

from paiju.server.shared_limits import TOKEN_CACHE_SECONDS
from pg import PostgresCluster
from redis_server import RedisServer

LIMITS: dict[str, object] = {
    "min_bot_delay": 0,
    "messages_per_second": 0.05,
    "burst": 10,
    "registrations_per_address": 4,
    "rooms_per_player": 2,
    "rooms_per_address": 4,
    "bot_rooms_per_player": 1,
    "sockets_per_player": 2,
    "sockets_per_address": 3,
    "invite_lookups_per_minute": 5,
    "invite_lookups_per_address": 5,
}
"""Small limits, so that a few calls reach them (a message token every 20 s, an invite
lookup every 12 s, one at once: no test refills)."""

WAITING = {**FAST, "seats": 2, "bots": 0}
"""A room that waits for its second player (no fill, no start)."""


class Node(Server):
    """``paiju serve --db postgresql://… --redis redis://… --node NAME`` with :data:`LIMITS`."""

    def __init__(self, folder: Path, dsn: str, redis: str, name: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        super().__init__(folder)
        self.name = name
        self.limits = LIMITS
        self.db = dsn  # type: ignore[assignment]  # a DSN, handed to --db as is
        self.extra = ("--redis", redis, "--node", name, "--public-url", self.base)


class From:
    """REST calls and sockets from one loopback address."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.http = httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)

    def register(self, node: Node, name: str) -> httpx.Response:
        return self.http.post(f"{node.base}/api/players", json={"name": name})

    def player(self, node: Node, name: str) -> str:
        answer = self.register(node, name)
        assert answer.status_code == 201, answer.text
        token: str = answer.json()["token"]
        return token

    def call(self, node: Node, method: str, path: str, token: str, **kw: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"}
        return self.http.request(method, f"{node.base}{path}", headers=headers, **kw)

    def room(self, node: Node, token: str, seat: int | None = 0, **options: Any) -> httpx.Response:
        body = {"code": "toy", "options": {**WAITING, **options}, "seat": seat}
        return self.call(node, "POST", "/api/rooms", token, json=body)

    def made(self, node: Node, token: str, **options: Any) -> dict[str, Any]:
        """A new room's info (created through ``node``; any node may play it)."""
        answer = self.room(node, token, **options)
        assert answer.status_code == 201, answer.text
        room: dict[str, Any] = answer.json()["room"]
        return room

    async def socket(self, room: dict[str, Any], token: str) -> Any:
        """A socket to ``room`` on the node that plays it."""
        return await websockets.connect(
            room["ws"],
            local_addr=(self.address, 0),
            additional_headers={"Authorization": f"Bearer {token}"},
        )


def _one_on_each_node(nodes: tuple[Node, Node], player: str, owners: From) -> list[dict[str, Any]]:
    """A waiting room on each node, ``player`` seated in both: rooms are created (by
    players of ``owners``, through each node in turn) until both nodes play one."""
    found: dict[str, dict[str, Any]] = {}
    for i in range(4):  # rooms_per_address = 4 from `owners`
        if i % 2 == 0:
            owner = owners.player(nodes[0], "owner")
        room = owners.made(nodes[i % 2], owner)
        found.setdefault(room["node"], room)
        if len(found) == 2:
            break
    assert len(found) == 2, f"4 new rooms all went to node {list(found)}"
    rooms = [found["a"], found["b"]]
    for room, node in zip(rooms, nodes, strict=True):
        joined = owners.call(node, "POST", f"/api/rooms/{room['id']}/join", player, json={})
        assert joined.status_code == 200, joined.text
    return rooms


@pytest.fixture(scope="module")
def started(
    tmp_path_factory: pytest.TempPathFactory,
    postgres_cluster: PostgresCluster,
    redis_server: RedisServer,
) -> Iterator[dict[str, Node]]:
    dsn = postgres_cluster.create_database()
    redis = redis_server.fresh_url()
    folder = tmp_path_factory.mktemp("limits")
    nodes = {n: Node(folder / n, dsn, redis, n) for n in ("a", "b")}
    try:
        for node in nodes.values():
            node.start()
        yield nodes
    finally:
        for node in nodes.values():
            node.stop()
        postgres_cluster.drop_database(dsn)


@pytest.fixture
def nodes(started: dict[str, Node]) -> tuple[Node, Node]:
    """Nodes a and b, both running (one a test killed starts again)."""
    for node in started.values():
        if node.proc is None or node.proc.poll() is not None:
            node.start()
    _wait_until_they_see_each_other(started["a"], started["b"])
    return started["a"], started["b"]


def _wait_until_they_see_each_other(a: Node, b: Node) -> None:
    end = time.monotonic() + 30
    while True:
        seen = [_nodes_seen(n) for n in (a, b)]
        if all(s == 2 for s in seen):
            return
        assert time.monotonic() < end, f"the nodes see {seen} live nodes, not 2"
        time.sleep(0.2)


def _nodes_seen(node: Node) -> float:
    for line in httpx.get(f"{node.base}/metrics", timeout=10).text.splitlines():
        if line.startswith("paiju_cluster_nodes{"):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


async def _first(ws: Any, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    """The socket's next message of type ``kind`` (earlier ones skipped)."""
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["type"] == kind:
            return msg


def test_a_players_burst_through_two_nodes_is_limited_as_one(nodes: tuple[Node, Node]) -> None:
    """One bucket a player (burst 10), whichever node and socket its messages go through."""
    a = nodes[0]
    me = From("127.0.0.21")
    token = me.player(a, "burst")
    rooms = _one_on_each_node(nodes, token, From("127.0.0.31"))

    async def run() -> list[str]:
        sockets = [await me.socket(room, token) for room in rooms]
        try:
            for ws in sockets:
                await _first(ws, "welcome")
            for i in range(6):
                for ws in sockets:
                    await ws.send(json.dumps({"type": "ping", "id": i}))
            answers: list[str] = []

            async def read(ws: Any) -> None:
                # every pong, and the first message each socket had dropped (the next
                # ones of a socket are dropped without an answer)
                while answers.count("pong") < 10 or "rate_limited" not in answers:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] == "pong":
                        answers.append("pong")
                    elif msg["type"] == "error":
                        assert msg["code"] == "rate_limited", msg
                        answers.append("rate_limited")

            readers = [asyncio.create_task(read(ws)) for ws in sockets]
            await asyncio.wait(readers, return_when=asyncio.FIRST_COMPLETED)
            for reader in readers:
                reader.cancel()
            return answers
        finally:
            for ws in sockets:
                await ws.close()

    answers = asyncio.run(run())
    # counted per node, each node would have answered all 6 of its messages
    assert answers.count("pong") == 10
    assert 1 <= answers.count("rate_limited") <= 2


def test_invite_lookups_through_two_nodes_share_one_limit(nodes: tuple[Node, Node]) -> None:
    """One lookup bucket a player and one an address (burst 1), whichever node a lookup
    goes through: counted per node, each second lookup below would be answered."""
    a, b = nodes
    player = From("127.0.0.51").player(a, "looks")
    first = From("127.0.0.52").call(a, "GET", "/api/invites/QQQQQQ", player)
    assert first.status_code == 404, first.text  # counted, and no such room
    again = From("127.0.0.53").call(b, "GET", "/api/invites/QQQQQQ", player)
    assert again.status_code == 429, again.text
    error = again.json()["error"]
    assert error["code"] == "too_many_lookups" and error["message"].startswith("you looked")
    # the address's bucket: another player from the same address, through the other node
    here = From("127.0.0.54")
    p, q = here.player(a, "p"), here.player(b, "q")
    assert here.call(b, "GET", "/api/invites/QQQQQQ", p).status_code == 404
    refused = here.call(a, "GET", "/api/invites/QQQQQQ", q)
    assert refused.status_code == 429, refused.text
    error = refused.json()["error"]
    assert error["code"] == "too_many_lookups" and error["message"].startswith("your address")
    # a lookup refused for its address took no token of q's
    elsewhere = From("127.0.0.55").call(b, "GET", "/api/invites/QQQQQQ", q)
    assert elsewhere.status_code == 404, elsewhere.text


def test_an_invitation_sent_through_one_node_is_seen_through_the_other(
    nodes: tuple[Node, Node],
) -> None:
    """邀请牌友 in a cluster: invited through node b (whichever node plays the room), the
    invitation is listed through both nodes, and gone through both once it is taken."""
    a, b = nodes
    hosts, guests = From("127.0.0.61"), From("127.0.0.62")
    host, guest = hosts.player(a, "东家"), guests.player(b, "客人")
    guest_id = guests.call(b, "GET", "/api/players/me", guest).json()["id"]
    room = hosts.made(a, host)
    sent = hosts.call(b, "POST", f"/api/rooms/{room['id']}/invite", host, json={"player": guest_id})
    assert sent.status_code == 200, sent.text
    for node in (a, b):
        listed = guests.call(node, "GET", "/api/players/me/invites", guest).json()["invites"]
        assert [(i["room"], i["from"]) for i in listed] == [(room["id"], "东家")], node.name
    joined = guests.call(b, "POST", f"/api/rooms/{room['id']}/join", guest, json={})
    assert joined.status_code == 200, joined.text
    for node in (a, b):
        assert guests.call(node, "GET", "/api/players/me/invites", guest).json()["invites"] == []
    # the room's other calls are the room's node's answers through either node: its 总结算,
    # and 再来一局 (refused alike while the match is not over)
    summaries = [hosts.call(n, "GET", f"/api/rooms/{room['id']}/summary", host) for n in (a, b)]
    assert [r.status_code for r in summaries] == [200, 200]
    assert summaries[0].json() == summaries[1].json()
    again = [hosts.call(n, "POST", f"/api/rooms/{room['id']}/again", host) for n in (a, b)]
    assert again[0].status_code == again[1].status_code != 404, [r.text for r in again]
    assert again[0].json()["error"]["code"] == again[1].json()["error"]["code"]


def test_registrations_per_address_are_counted_on_every_node(nodes: tuple[Node, Node]) -> None:
    a, b = nodes
    here = From("127.0.0.22")
    for node in (a, b, a, b):
        assert here.register(node, "reg").status_code == 201
    for node in (a, b):
        refused = here.register(node, "reg")
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "too_many_registrations"
    assert From("127.0.0.23").register(b, "elsewhere").status_code == 201


def test_open_rooms_per_player_address_and_bot_rooms_are_the_clusters(
    nodes: tuple[Node, Node],
) -> None:
    a, b = nodes
    here = From("127.0.0.24")
    p, q, r = (here.player(n, name) for n, name in ((a, "p"), (b, "q"), (a, "r")))
    # rooms_per_player = 2: one room on each node is p's limit, on either node
    mine = [here.made(a, p), here.made(b, p)]
    held = {n.name: n for n in nodes}
    for node in (a, b):
        refused = here.room(node, p)
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "too_many_rooms"
    # so is a seat in a room another node plays (the join is passed to it)
    theirs = here.made(b, q)
    other = a if theirs["node"] == "b" else b
    joined = here.call(other, "POST", f"/api/rooms/{theirs['id']}/join", p, json={})
    assert joined.status_code == 429, joined.text
    assert joined.json()["error"]["code"] == "too_many_rooms"
    # bot_rooms_per_player = 1
    bots = {"seats": 2, "bots": 2, "bot_delay": 30}
    assert here.room(b, r, seat=None, **bots).status_code == 201
    refused = here.room(a, r, seat=None, **bots)
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"]["code"] == "too_many_bot_rooms"
    # rooms_per_address = 4: p's two, q's and r's; then none through either node
    for node in (a, b):
        refused = here.room(node, q)
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "too_many_rooms_address"
    assert From("127.0.0.25").room(a, q).status_code == 201
    # a room closed (through the node that does not play it) no longer counts, for p or
    # for the address
    other = held["a" if mine[1]["node"] == "b" else "b"]
    closed = here.call(other, "POST", f"/api/rooms/{mine[1]['id']}/close", p)
    assert closed.status_code == 200, closed.text
    again = here.room(a, p)
    assert again.status_code == 201, again.text


def test_a_rotated_token_stops_working_on_the_other_node(nodes: tuple[Node, Node]) -> None:
    a, b = nodes
    here = From("127.0.0.26")
    old = here.player(a, "rotates")
    assert here.call(b, "GET", "/api/players/me", old).status_code == 200  # b caches it
    rotated = here.call(a, "POST", "/api/players/me/token", old)
    assert rotated.status_code == 200, rotated.text
    new = rotated.json()["token"]
    assert here.call(a, "GET", "/api/players/me", old).status_code == 401
    assert here.call(b, "GET", "/api/players/me", new).status_code == 200
    end = time.monotonic() + TOKEN_CACHE_SECONDS + 10  # the cache's life, and a loaded machine
    while (answer := here.call(b, "GET", "/api/players/me", old)).status_code == 200:
        assert time.monotonic() < end, "node b still takes the rotated token"
        time.sleep(0.2)
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "bad_token"


def test_sockets_per_player_and_address_across_nodes_and_a_killed_nodes_stop_counting(
    nodes: tuple[Node, Node],
) -> None:
    a, b = nodes
    here = From("127.0.0.27")
    s, u = here.player(a, "s"), here.player(b, "u")
    room_a, room_b = _one_on_each_node(nodes, s, From("127.0.0.32"))

    async def refused(room: dict[str, Any], token: str) -> str:
        ws = await here.socket(room, token)
        try:
            msg = await _first(ws, "error")
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
            code: str = msg["code"]
            return code
        finally:
            await ws.close()

    async def run() -> None:
        held = [await here.socket(room_a, s), await here.socket(room_b, s)]
        for ws in held:
            await _first(ws, "welcome")
        # sockets_per_player = 2: one on each node is s's limit
        assert await refused(room_a, s) == "too_many_sockets"
        # sockets_per_address = 3: u's spectator socket on a is the third from here
        held.append(await here.socket(room_a, u))
        await _first(held[-1], "welcome")
        assert await refused(room_b, u) == "too_many_sockets"
        await held.pop().close()
        # kill -9 of b: its socket of s stops counting once b's presence is gone
        b.kill9()
        end = time.monotonic() + 30
        while True:
            ws = await here.socket(room_a, s)
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if msg["type"] != "error":
                held.append(ws)
                break
            assert msg["code"] == "too_many_sockets", msg
            await ws.close()
            assert time.monotonic() < end, "a still counts the sockets of the killed node"
            await asyncio.sleep(0.5)
        for ws in held:
            with contextlib.suppress(Exception):
                await ws.close()

    asyncio.run(run())


def test_a_node_that_cannot_reach_redis_counts_on_its_own() -> None:
    """Redis away: the limits hold per node, as on a single server (never all open)."""
    from types import SimpleNamespace

    from paiju.server.errors import ServerError
    from paiju.server.hub import Hub
    from paiju.server.options import Limits
    from paiju.server.shared_limits import SharedGuard
    from paiju.server.store import Store
    from server_process import free_port

    limits = Limits(burst=3, messages_per_second=0.01, sockets_per_player=1)
    limits = limits.model_copy(
        update={"registrations_per_address": 2, "invite_lookups_per_minute": 5}
    )
    store = Store("sqlite://")
    hub = Hub(store, limits)
    config = SimpleNamespace(
        name="alone", redis_url=f"redis://127.0.0.1:{free_port()}/0", lease_ttl=5.0, renew_every=1.0
    )
    guard = SharedGuard(hub, SimpleNamespace(config=config, nodes={}))  # type: ignore[arg-type]

    async def run() -> None:
        await guard.start()
        try:
            assert [await guard.admit(7) for _ in range(4)] == [True, True, True, False]
            await guard.registering("10.0.0.1")
            await guard.registering("10.0.0.1")
            with pytest.raises(ServerError) as too_many:
                await guard.registering("10.0.0.1")
            assert too_many.value.code == "too_many_registrations"
            await guard.open_socket(7, "10.0.0.1")
            with pytest.raises(ServerError) as sockets:
                await guard.open_socket(7, "10.0.0.1")
            assert sockets.value.code == "too_many_sockets"
            await guard.close_socket(7, "10.0.0.1")
            await guard.open_socket(7, "10.0.0.1")
            await guard.invite_lookup(7, "10.0.0.1")  # a burst of 1 (5 a minute)
            with pytest.raises(ServerError) as lookups:
                await guard.invite_lookup(7, "10.0.0.1")
            assert lookups.value.code == "too_many_lookups"
        finally:
            await guard.stop()

    try:
        asyncio.run(run())
    finally:
        store.close()


def test_a_node_writes_its_socket_counts_again_when_redis_lost_them(redis_url: str) -> None:
    """Redis restarted empty (here: the node's hash deleted): the node's next renewal
    writes its sockets back from its own counts, so other nodes see them again."""
    from types import SimpleNamespace

    import redis

    from paiju.server.hub import Hub
    from paiju.server.options import Limits
    from paiju.server.shared_limits import SharedGuard
    from paiju.server.store import Store

    store = Store("sqlite://")
    hub = Hub(store, Limits())
    config = SimpleNamespace(name="n1", redis_url=redis_url, lease_ttl=5.0, renew_every=0.05)
    guard = SharedGuard(hub, SimpleNamespace(config=config, nodes={}))  # type: ignore[arg-type]
    client = redis.Redis.from_url(redis_url)
    key = "paiju:limits:sockets:n1"

    async def run() -> dict[bytes, bytes]:
        async with asyncio.timeout(120):  # a hang fails here, with the await it hung on
            return await steps()

    async def steps() -> dict[bytes, bytes]:
        await guard.start()
        try:
            await guard.open_socket(7, "10.0.0.9")
            await guard.open_socket(7, "10.0.0.9")
            await guard.open_socket(8, "10.0.0.9")
            await guard.close_socket(8, "10.0.0.9")
            assert client.hgetall(key) == {b"p:7": b"2", b"a:10.0.0.9": b"2"}
            client.delete(key)
            for _ in range(100):
                await asyncio.sleep(0.05)
                if client.exists(key):
                    break
            found: dict[bytes, bytes] = client.hgetall(key)  # type: ignore[assignment]
            return found
        finally:
            await guard.stop()

    try:
        assert asyncio.run(run()) == {b"p:7": b"2", b"a:10.0.0.9": b"2"}
    finally:
        client.close()
        store.close()


def test_creations_at_the_same_instant_on_both_nodes_pass_the_limit_once(
    nodes: tuple[Node, Node],
) -> None:
    """Three creations of one player fired at once through both nodes, its limit being 2
    open rooms: exactly two are made, the third is refused, in each of three rounds (the
    check and the write of a player's rooms are one step across the cluster)."""
    import concurrent.futures

    a, b = nodes
    for k in range(3):
        here = [From(f"127.0.0.{40 + k}") for _ in range(3)]  # addresses no other test uses
        token = here[0].player(a, f"racer{k}")
        calls = [(here[0], a), (here[1], b), (here[2], a)]
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            futures = [pool.submit(client.room, node, token) for client, node in calls]
            answers = [f.result() for f in futures]
        codes = sorted(r.status_code for r in answers)
        assert codes == [201, 201, 429], [r.text for r in answers]
        refused = next(r for r in answers if r.status_code == 429)
        assert refused.json()["error"]["code"] in ("too_many_rooms", "busy"), refused.text


def _guards(redis_url: str, limits: Any, *names: str) -> tuple[list[Any], Any]:
    """Cluster guards of ``names`` over one Redis (no database: the message buckets need
    none), each with a hub of its own, and the stores to close."""
    from types import SimpleNamespace

    from paiju.server.hub import Hub
    from paiju.server.shared_limits import SharedGuard
    from paiju.server.store import Store

    store = Store("sqlite://")
    guards = []
    for name in names:
        config = SimpleNamespace(name=name, redis_url=redis_url, lease_ttl=5.0, renew_every=0.05)
        cluster = SimpleNamespace(config=config, nodes={})
        guards.append(SharedGuard(Hub(store, limits), cluster))  # type: ignore[arg-type]
    return guards, store


def test_a_player_at_a_human_pace_asks_redis_once_every_few_messages(redis_url: str) -> None:
    """A player's bucket more than half full: the node takes a few tokens at once and
    admits the next messages with them; what it took and did not use is dropped after
    HOLD_SECONDS, and the next message asks Redis again."""
    from paiju.server import shared_limits
    from paiju.server.options import Limits

    (guard,), store = _guards(redis_url, Limits(burst=40, messages_per_second=20.0), "h1")
    calls: list[list[str]] = []
    run_script = guard._run

    async def counted(script: str, keys: list[str], args: list[Any]) -> Any:
        calls.append(keys)
        return await run_script(script, keys, args)

    guard._run = counted
    player = 7_000_001

    async def run() -> tuple[list[bool], int, bool, int]:
        await guard.start()
        try:
            admitted = [await guard.admit(player) for _ in range(16)]
            asked = len(calls)
            await asyncio.sleep(shared_limits.HOLD_SECONDS + 0.2)
            dropped = player not in guard._held
            await guard.admit(player)
            return admitted, asked, dropped, len(calls) - asked
        finally:
            await guard.stop()

    try:
        admitted, asked, dropped, after = asyncio.run(run())
    finally:
        store.close()
    assert guard.chunk == 8
    assert admitted == [True] * 16
    assert asked == 2  # 8 messages a call
    assert dropped  # the renewal forgot the tokens held past their time
    assert after == 1


def test_two_nodes_draining_one_bucket_admit_exactly_its_burst(redis_url: str) -> None:
    """Held tokens never admit a message more than the shared bucket holds: two nodes
    taking turns at one player's bucket (burst 40, no refill to speak of) admit 40 of 60
    messages between them, and each is refused only once the bucket is empty."""
    from paiju.server.options import Limits

    limits = Limits(burst=40, messages_per_second=0.001)
    guards, store = _guards(redis_url, limits, "x1", "x2")
    player = 7_000_002

    async def run() -> list[bool]:
        for guard in guards:
            await guard.start()
        try:
            answers = []
            for i in range(60):
                answers.append(await guards[i % 2].admit(player))
            return answers
        finally:
            for guard in guards:
                await guard.stop()

    try:
        answers = asyncio.run(run())
    finally:
        store.close()
    assert answers.count(True) == 40
    assert answers[:40] == [True] * 40  # no message refused while tokens were left


def test_a_nodes_redis_connections_open_without_a_refused_command(redis_url: str) -> None:
    """Redis 7.0 (Debian's) knows neither CLIENT SETINFO nor CLIENT MAINT_NOTIFICATIONS: a
    node's connections open with neither, so Redis refuses none of its commands as unknown
    (its own error count, ``INFO errorstats``, stays as it was)."""
    import redis

    from paiju.server.options import Limits

    (guard,), store = _guards(redis_url, Limits(burst=40, messages_per_second=20.0), "e1")
    plain = redis.Redis.from_url(redis_url)

    def refused() -> int:
        """Commands Redis refused as unknown or wrong (``ERR``; a script's first call on a
        Redis that has not seen it is ``NOSCRIPT``, answered by loading the script)."""
        return int(plain.info("errorstats").get("errorstat_ERR", {}).get("count", 0))

    async def run() -> list[bool]:
        await guard.start()
        try:
            return list(await asyncio.gather(*(guard.admit(8_000_000 + i) for i in range(12))))
        finally:
            await guard.stop()

    try:
        before = refused()
        admitted = asyncio.run(run())
        after = refused()
    finally:
        store.close()
        plain.close()
    assert admitted == [True] * 12  # Redis was asked (a connection opened)
    assert after == before
