"""After a write of a room failed with the database (not refused), the room goes back to
its hand as stored, read by the group commit's thread after the room's writes, never on
the event loop; until it is read back the room does not play on (an action is refused
with ``storage_failure``), and the database still away, it is read again a moment later.
On a cluster node, a room whose stored hand cannot be read is given up and its lease
released, to be resumed from its log at the next claim. A real PostgreSQL
(``tests/pg.py``)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from loop_watch import LoopWatch
from socket_stub import SocketStub
from test_placement import TTL

from paiju.server import room as room_module
from paiju.server.client import Client
from paiju.server.cluster import Cluster, FencedJournal, NodeConfig
from paiju.server.hub import Hub
from paiju.server.inbox import handle
from paiju.server.lease import SharedStore
from paiju.server.options import Limits, RoomOptions
from paiju.server.room import Room
from paiju.server.rows import HandRow, PlayerRow
from paiju.server.store import Store

OPTIONS = RoomOptions(seats=2, bots=1, time_limit=0, bot_delay=0, pause=0, seed_wait=0)
STAKE = json.dumps({"type": "action", "action": {"type": "stake", "amount": 2}})
T = TypeVar("T")


async def _until(check: Any, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not reached in time")


def _failing_once(real: Callable[..., T], why: str) -> Callable[..., T]:
    """``real``, its first call failing as a database gone away fails it."""
    failed = []

    def call(*args: Any) -> T:
        if not failed:
            failed.append(why)
            raise OSError(why)
        return real(*args)

    return call


def _node(postgres_db: str) -> tuple[SharedStore, Hub, Cluster]:
    """A cluster node's store, hub and cluster: its journal fenced, its leases standing
    (no tick in these tests), its hand ids taken ahead."""
    store = SharedStore(postgres_db, "me", TTL)
    hub = Hub(store, Limits(min_bot_delay=0))
    cluster = Cluster(hub, store, NodeConfig("me", "http://127.0.0.1:9", "", lease_ttl=TTL))
    hub.journal = FencedJournal(store, cluster)
    store.top_up_hand_ids()
    cluster.valid_until = float("inf")
    return store, hub, cluster


async def _table(
    hub: Hub, player: PlayerRow
) -> tuple[Room, Client, SocketStub, asyncio.Task[None]]:
    """A toy room of ``player`` and a bot, with the player's socket: the player's turn,
    nothing of the room in flight."""
    room = await hub.create_room(player, "toy", OPTIONS, {}, 0)
    sock = SocketStub()
    client = Client(player, sock.send_text, hub.limits, sock.close)
    writer = asyncio.create_task(client.writer())
    room.attach(client)
    await _until(lambda: room.state is not None and room.state.to_act() == {0})
    await room.settled()
    return room, client, sock, writer


def test_a_room_whose_write_failed_reads_its_hand_back_off_the_loop(
    postgres_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(room_module, "RETRY_AFTER", 0.1)
    store = Store(postgres_db)
    hub = Hub(store, Limits(min_bot_delay=0))
    append = _failing_once(store.append_actions, "the database went away")
    fetch = _failing_once(store.current_hand, "the database is still away")
    reads: list[str] = []

    def read(room_id: int) -> HandRow | None:
        reads.append("read")
        return fetch(room_id)

    async def run() -> None:
        ann, _ = store.create_player("ann")
        room, client, sock, writer = await _table(hub, ann)
        assert room.state is not None
        version, view = len(room.state.history), room.state.view(0)
        store.append_actions = append  # type: ignore[method-assign]
        store.current_hand = read  # type: ignore[method-assign]
        async with LoopWatch(store.engine) as watch:
            handle(room, client, STAKE)
            await _until(lambda: reads == ["read"] and not hub.journal.holds(room))
            # the stored hand could not be read: the room waits, refusing to play on
            assert room.unsure
            handle(room, client, STAKE)
            await _until(lambda: sock.errors().count("storage_failure") == 2)
            refused = sock.of("error")[-1]
            assert "waits for the database" in refused["message"]
            await _until(lambda: not room.unsure)  # read again, a moment later
            assert reads == ["read", "read"]
            assert len(room.state.history) == version and room.state.view(0) == view
            handle(room, client, STAKE)  # the database answers again: the stake is stored
            await _until(lambda: any(u["seat"] == 0 for u in sock.of("update")))
        assert not watch.on_loop(), watch.on_loop()
        stored = store.current_hand(room.id)
        assert stored is not None and len(stored.actions) == version + 1
        client.close(1000, "bye")
        await writer
        hub.shutdown()

    try:
        asyncio.run(run())
    finally:
        store.close()


def test_a_socket_that_comes_while_the_hand_is_read_back_is_sent_the_stored_state(
    postgres_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state in memory holds the action the database did not store until the hand is
    read back: a player reconnecting in between (the database still away) is sent no
    state and a ``sync`` is refused; once the hand is read, the socket is sent the state
    as stored, without the action."""
    monkeypatch.setattr(room_module, "RETRY_AFTER", 0.5)
    store = Store(postgres_db)
    hub = Hub(store, Limits(min_bot_delay=0))
    append = _failing_once(store.append_actions, "the database went away")
    fetch = _failing_once(store.current_hand, "the database is still away")

    async def run() -> None:
        ann, _ = store.create_player("ann")
        room, client, _sock, writer = await _table(hub, ann)
        assert room.state is not None
        version = len(room.state.history)
        store.append_actions = append  # type: ignore[method-assign]
        store.current_hand = fetch  # type: ignore[method-assign]
        handle(room, client, STAKE)
        await _until(lambda: room.unsure and not hub.journal.holds(room))
        assert len(room.state.history) == version + 1  # in memory: the unstored stake
        sock = SocketStub()  # the player's new socket, while the hand is not read yet
        again = Client(ann, sock.send_text, hub.limits, sock.close)
        task = asyncio.create_task(again.writer())
        room.attach(again)
        handle(room, again, json.dumps({"type": "sync", "id": "s"}))
        await _until(lambda: "storage_failure" in sock.errors())
        assert room.unsure and sock.of("welcome") and not sock.of("state")
        await _until(lambda: bool(sock.of("state")))  # read back: the state as stored
        assert not room.unsure
        assert [m["version"] for m in sock.of("state")] == [version]
        assert len(room.state.history) == version
        again.close(1000, "bye")
        await asyncio.gather(writer, task)
        hub.shutdown()

    try:
        asyncio.run(run())
    finally:
        store.close()


def test_a_cluster_node_gives_up_a_room_whose_stored_hand_it_cannot_read(
    postgres_db: str,
) -> None:
    store, hub, _cluster = _node(postgres_db)

    def away(*args: Any) -> Any:
        raise OSError("the database went away")

    async def run() -> tuple[int, int]:
        ann, _ = store.create_player("ann")
        room, client, sock, writer = await _table(hub, ann)
        epoch = store.fence[room.id]
        store.append_actions = away  # type: ignore[method-assign]
        store.current_hand = away  # type: ignore[method-assign]
        handle(room, client, STAKE)
        await _until(lambda: room.id not in hub.rooms)
        await _until(lambda: any("closed" in m for m in sock.sent))
        client.close(1000, "bye")
        await writer
        return room.id, epoch

    try:
        room_id, epoch = asyncio.run(run())
        assert room_id not in store.fence
        lease = store.leases.holders([room_id]).get(room_id)
        assert lease is None or not lease.live or lease.epoch != epoch  # released
    finally:
        store.close()


def test_a_room_dropped_while_its_hand_is_read_leaves_the_room_taken_again_alone(
    postgres_db: str,
) -> None:
    """A room dropped from this node while its stored hand was being read (its lease
    lost), then taken again by this node (a new object of the same room): the old
    object's read failing does not drop the room the node plays now."""
    store, hub, cluster = _node(postgres_db)
    gate = threading.Event()
    append = _failing_once(store.append_actions, "the database went away")

    def held_read(room_id: int) -> HandRow | None:
        gate.wait(10)
        raise OSError("the database is still away")

    async def run() -> None:
        ann, _ = store.create_player("ann")
        old, client, _sock, writer = await _table(hub, ann)
        epoch = store.fence[old.id]
        row = await asyncio.to_thread(store.room, old.id)
        hand = await asyncio.to_thread(store.current_hand, old.id)
        assert row is not None and hand is not None
        store.append_actions = append  # type: ignore[method-assign]
        store.current_hand = held_read  # type: ignore[method-assign]
        handle(old, client, STAKE)  # not stored: the room reads its hand back (held)
        await _until(lambda: old.unsure)
        cluster.drop(old.id, "its lease was lost")
        store.fence[old.id] = epoch  # taken again by this node: a new object
        new = hub.resume_room(row, hand, {ann.id: "ann"})
        assert new is not None and new is not old
        gate.set()  # the old object's read fails now
        await asyncio.sleep(0.3)
        assert hub.rooms.get(new.id) is new and new.id in store.fence
        new.stop_clocks()
        client.close(1000, "bye")
        await writer

    try:
        asyncio.run(run())
    finally:
        gate.set()
        store.close()


def test_a_room_closed_while_its_hand_cannot_be_read_stops_reading(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database away, a room whose write failed tries to read its hand back every
    moment; closed meanwhile (its owner, the operator), it stops trying."""
    monkeypatch.setattr(room_module, "RETRY_AFTER", 0.05)
    store = Store(str(tmp_path / "paiju.db"))
    hub = Hub(store, Limits(min_bot_delay=0))
    reads: list[int] = []

    def away(*args: Any) -> Any:
        raise OSError("the database went away")

    def unread(room_id: int) -> HandRow | None:
        reads.append(room_id)
        raise OSError("the database is still away")

    async def run() -> None:
        ann, _ = store.create_player("ann")
        room, client, _sock, writer = await _table(hub, ann)
        store.append_actions = away  # type: ignore[method-assign]
        store.current_hand = unread  # type: ignore[method-assign]
        handle(room, client, STAKE)
        await _until(lambda: len(reads) >= 2)  # read again and again while it is away
        room.close("room_closed", "closed by its owner")
        await asyncio.sleep(0.3)
        tried = len(reads)
        await asyncio.sleep(0.3)
        assert len(reads) == tried  # no more reads of a closed room
        client.close(1000, "bye")
        await writer

    try:
        asyncio.run(run())
    finally:
        store.close()
