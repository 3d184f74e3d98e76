"""The database works off the event loop: while a group commit waits on the database,
every other room of the process answers its sockets and plays on, and the room whose
action is being stored tells nobody of it until it is stored.

docs/protocol.md section 5: "Every accepted action is appended to the hand's log in the
database in a transaction before anyone is told".
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from server_helpers import PLAYABLE
from socket_stub import SocketStub

from paiju.server.client import Client
from paiju.server.hub import Hub
from paiju.server.inbox import handle
from paiju.server.options import Limits, RoomOptions
from paiju.server.room import Room
from paiju.server.rows import ActionWrite, HandWrite
from paiju.server.store import Store

pytestmark = pytest.mark.skipif("2001" not in PLAYABLE, reason="宝子 2001 is not registered")

OPTIONS = RoomOptions(
    seats=3,
    time_limit=0,
    bot_delay=0,
    pause=0,
    hands=1,
    fill_after=None,
    ready_check=False,
    seed_wait=0,
)


async def _table(hub: Hub, store: Store, name: str) -> tuple[Room, list[Client], list[SocketStub]]:
    """A 宝子 room of three seated players with sockets, its first hand dealt and stored."""
    players = [store.create_player(f"{name}{i}")[0] for i in range(3)]
    room = await hub.create_room(players[0], "2001", OPTIONS, {}, 0)
    for p in players[1:]:
        room.join(p, None)
    clients, sockets = [], []
    for p in players:
        sock = SocketStub()
        client = Client(p, sock.send_text, hub.limits, sock.close)
        asyncio.get_running_loop().create_task(client.writer())
        await room.settled()
        room.attach(client)
        clients.append(client)
        sockets.append(sock)
    await _until(lambda: room.acting() and not hub.journal.holds(room), "the deal is stored")
    return room, clients, sockets


def _bet(room: Room, seat: int, ref: str) -> str:
    legal = room.legal(seat)
    assert legal, f"seat {seat} should be to act: {room.acting()}"
    return json.dumps({"type": "action", "action": legal[0], "id": ref})


async def _until(check: Any, what: str, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def test_a_stalled_commit_leaves_the_loop_free_and_its_room_silent(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "stall.db"))
    append = store.append_actions
    stall = threading.Event()
    stalled = threading.Event()
    release = threading.Event()

    def slow(writes: list[ActionWrite | HandWrite]) -> None:
        if stall.is_set():
            stalled.set()  # the writer thread waits here as on a database that hangs
            assert release.wait(30)
        append(writes)

    store.append_actions = slow  # type: ignore[method-assign]

    async def scenario() -> None:
        hub = Hub(store, Limits(min_bot_delay=0, messages_per_second=1000, burst=1000))
        a, a_clients, a_socks = await _table(hub, store, "a")
        b, b_clients, b_socks = await _table(hub, store, "b")
        assert hub.journal.threaded
        stall.set()
        handle(a, a_clients[1], _bet(a, 1, "a1"))
        await _until(stalled.is_set, "the commit reached the database")
        stall.clear()
        # room a's action is in the database's hands: the loop goes on. Room b answers a
        # ping and plays an action of its own, and room a answers a ping too.
        ticks = 0
        for _ in range(20):
            await asyncio.sleep(0.005)
            ticks += 1
        assert ticks == 20
        handle(b, b_clients[0], json.dumps({"type": "ping", "id": "pb"}))
        handle(a, a_clients[0], json.dumps({"type": "ping", "id": "pa"}))
        await _until(lambda: b_socks[0].of("pong"), "room b answered its ping")
        # nothing of room a's action is told before it is stored; its ping waits behind it
        assert not any(s.of("update") for s in a_socks)
        assert hub.journal.holds(a) and a.deferred == 1
        handle(b, b_clients[1], _bet(b, 1, "b1"))  # queued for the next commit
        assert hub.journal.holds(b)
        release.set()
        await _until(lambda: all(s.of("update") for s in a_socks + b_socks), "every update")
        await _until(lambda: a_socks[0].of("pong"), "room a answered its ping after its commit")
        for sock in a_socks + b_socks:
            assert [m["version"] for m in sock.of("update")] == [1]
        hand = store.hand(a.hand_id)
        assert hand is not None and [s for s, _, _ in hand.actions] == [1]
        for c in a_clients + b_clients:
            c.close(1000, "bye")
        hub.shutdown()

    asyncio.run(scenario())
    store.close()


def test_a_bot_waits_for_the_commit_before_it_moves(tmp_path: Path) -> None:
    """A bot whose moment comes while its room's last action is being stored moves once
    it is stored: a room never has two actions in flight."""
    store = Store(str(tmp_path / "bots.db"))
    append = store.append_actions
    stall = threading.Event()
    stalled = threading.Event()
    release = threading.Event()
    batches: list[list[tuple[int, int]]] = []

    def slow(writes: list[ActionWrite | HandWrite]) -> None:
        batches.append([(w.hand_id, w.seat) for w in writes if isinstance(w, ActionWrite)])
        if stall.is_set() and len(batches[-1]):
            stalled.set()
            assert release.wait(30)
        append(writes)

    store.append_actions = slow  # type: ignore[method-assign]

    async def scenario() -> None:
        hub = Hub(store, Limits(min_bot_delay=0))
        ann = store.create_player("ann")[0]
        room = await hub.create_room(ann, "2001", OPTIONS, {}, 0)
        sock = SocketStub()
        client = Client(ann, sock.send_text, hub.limits, sock.close)
        asyncio.get_running_loop().create_task(client.writer())
        room.attach(client)
        stall.set()
        room.start()  # bots take seats 1 and 2, and both bet at once
        await _until(stalled.is_set, "a bot's bet reached the database")
        state = room.state
        assert state is not None
        for _ in range(20):  # the other bot's moment has come and gone meanwhile
            await asyncio.sleep(0.005)
        assert len(state.history) == 1, "a second action was applied before the first was stored"
        assert room.acting() and hub.journal.holds(room)
        stall.clear()
        release.set()
        await _until(lambda: len(sock.of("update")) >= 2, "both bets are told")
        assert [m["version"] for m in sock.of("update")][:2] == [1, 2]
        assert sorted(m["seat"] for m in sock.of("update")[:2]) == [1, 2]
        client.close(1000, "bye")
        hub.shutdown()

    asyncio.run(scenario())
    store.close()
    acted = [b for b in batches if b]
    assert acted[0] != acted[1] and all(len(b) == 1 for b in acted[:2]), acted


def _held(call: Any) -> tuple[Any, threading.Event, threading.Event]:
    """``call`` made to wait, as a query on a slow database server does: the stand-in,
    the event it sets when it is entered, and the one that lets it go on."""
    entered, release = threading.Event(), threading.Event()

    def held(*args: Any) -> Any:
        entered.set()
        assert release.wait(10), "the loop never let the query finish"
        return call(*args)

    return held, entered, release


def test_a_token_the_node_does_not_know_is_looked_up_off_the_loop(tmp_path: Path) -> None:
    """A node that takes rooms over is asked at once for the token of every player who
    moves with them. Against a database server a lookup is a round trip: it is made in a
    worker thread while the loop goes on; a token the process knows answers in place, and
    an expired one says so."""
    from paiju.server.store import token_status

    store = Store(f"sqlite:///{tmp_path / 'tokens.db'}")
    try:
        ann, ann_token = store.create_player("ann")
        _, old_token = store.create_player("old", lifetime=-1.0)  # expired already
        other = Store(f"sqlite:///{tmp_path / 'tokens.db'}")  # a second node: knows no token
        other.remote = True  # as a PostgreSQL server's store is
        looked_up = other.token_status
        other.token_status, entered, release = _held(looked_up)  # type: ignore[method-assign]

        async def run() -> tuple[Any, ...]:
            lookup = asyncio.create_task(token_status(other, ann_token))
            while not entered.is_set():
                await asyncio.sleep(0.005)
            for _ in range(5):  # the loop runs while the database is being asked
                await asyncio.sleep(0.005)
            pending = not lookup.done()  # still asking, and the loop went on meanwhile
            release.set()
            found = await lookup
            known = await token_status(store, ann_token)  # cached in the registering store
            expired = await token_status(other, old_token)
            unknown = await token_status(other, "no-such-token")
            return pending, found, known, expired, unknown

        pending, found, known, expired, unknown = asyncio.run(run())
        assert pending
        assert found == (ann, False) and known == (ann, False)
        assert expired == (None, True) and unknown == (None, False)
        other.token_status = looked_up  # type: ignore[method-assign]
        # now the second node knows ann's token: no database, no thread
        assert other.known_token_status(ann_token) == (ann, False)
        other.close()
    finally:
        store.close()


def test_a_slow_query_of_the_rest_api_holds_up_no_other_call(tmp_path: Path) -> None:
    """Against a database server the REST API's queries (积分, 战绩, a replay …) are made
    off the event loop: while one waits on the database, the server answers the rest."""
    from fastapi.testclient import TestClient

    from paiju.server.app import create_app

    store = Store(str(tmp_path / "rest.db"), owner=True)
    store.remote = True  # as a PostgreSQL server's store is
    store.ledger, entered, release = _held(store.ledger)  # type: ignore[method-assign]
    with TestClient(create_app(opened=store)) as client:
        token = client.post("/api/players", json={"name": "ann"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        answers: list[Any] = []
        waiting = threading.Thread(
            target=lambda: answers.append(client.get("/api/players/me/ledger", headers=auth))
        )
        waiting.start()
        assert entered.wait(10)
        # the ledger's query is waiting on the database: other calls are answered
        assert client.get("/api/health").status_code == 200
        assert client.get("/api/players/me", headers=auth).json()["name"] == "ann"
        assert not answers
        release.set()
        waiting.join(10)
    assert answers and answers[0].status_code == 200
    assert answers[0].json()["entries"] == []
