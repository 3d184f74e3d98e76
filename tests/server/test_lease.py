"""Room leases on PostgreSQL (``paiju.server.lease``): one node plays a room at a time, and
every write of a room's hands and actions carries its lease number (epoch) - a node whose
lease moved on is refused in the same transaction, before anything is written."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from paiju.server import batches
from paiju.server.app import create_app
from paiju.server.errors import ServerError
from paiju.server.lease import _NODE_LOCKS, SharedStore, StaleLease
from paiju.server.rows import ActionWrite, HandEnding, HandWrite
from paiju.server.store import _PG_LOCK, Store

Nodes = tuple[SharedStore, SharedStore]
T = TypeVar("T")


@pytest.fixture
def nodes(postgres_db: str) -> Iterator[Nodes]:
    """Two cluster nodes' stores, ``a`` and ``b``, on one database; closed after the test."""
    a = SharedStore(postgres_db, "a", ttl=30.0)
    b = SharedStore(postgres_db, "b", ttl=30.0)
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def _hand(store: SharedStore, room: int, players: tuple[int | None, ...]) -> HandWrite:
    return HandWrite(
        id=store.new_hand_id(),
        room_id=room,
        hand_no=1,
        code="toy",
        game_options={},
        players=players,
        commitment="c" * 64,
        seed="s",
        deal={},
        context={},
    )


def _expire(store: SharedStore, room: int) -> None:
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE room_leases SET expires_at = 0 WHERE room_id = :r"), {"r": room})


def test_a_room_is_held_by_one_node_and_a_stale_epoch_writes_nothing(nodes: Nodes) -> None:
    a, b = nodes
    ann, _ = a.create_player("ann")
    room = a.create_room("toy", {}, {}, 2, ann.id, [False, True])
    first = a.fence[room]
    # node b cannot take a live lease, nor claim the room
    assert b.leases.acquire(room) is None
    assert b.leases.claim(10, grace=0) == []
    assert a.leases.renew({room: first}) == {room}
    hand = _hand(a, room, (ann.id, None))
    a.append_actions([hand])
    a.append_actions([ActionWrite(hand.id, 0, 0, {"n": 1}, "player")])
    # a's lease lapses (a paused or cut-off node); b takes the room: a new epoch
    _expire(a, room)
    assert b.leases.claim(10, grace=0) == [(room, first + 1)]
    b.fence[room] = first + 1
    assert a.leases.renew({room: first}) == set()
    holder = b.leases.holders([room])[room]
    assert (holder.node, holder.epoch, holder.live) == ("b", first + 1, True)
    # a's next write (an action that also settles the hand) is refused: nothing lands
    ending = HandEnding(room, (1, -1), (1, -1), (ann.id, None), 1, {}, False)
    with pytest.raises(StaleLease) as refused:
        a.append_actions([ActionWrite(hand.id, 1, 1, {"n": 2}, "bot", ending)])
    assert refused.value.rooms == {room}
    found = a.hand(hand.id)
    assert found is not None
    assert len(found.actions) == 1 and found.status == "playing"
    assert a.ledger(ann.id) == []
    # b, the holder, writes it
    b.append_actions([ActionWrite(hand.id, 1, 1, {"n": 2}, "bot", ending)])
    assert [e["delta"] for e in b.ledger(ann.id)] == [1]
    # a new hand of a stale node is refused too
    with pytest.raises(StaleLease):
        a.append_actions([_hand(a, room, (ann.id, None))])


@pytest.mark.parametrize("pipeline", [True, False], ids=["pipelined", "statement by statement"])
def test_a_batch_with_one_stale_room_is_refused_whole_by_the_database(
    nodes: Nodes, pipeline: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A node that has not yet noticed that a room was taken over writes its batch in one
    round trip (or, on a libpq without pipeline mode, statement by statement in one
    transaction): the database itself refuses the batch's fenced first write, so nothing
    of the batch lands - not the new hand of the room the node still holds either - and
    the node is told which room it lost."""
    import psycopg

    if not pipeline:
        monkeypatch.setattr(psycopg.Pipeline, "is_supported", classmethod(lambda cls: False))

        def never(*_: object) -> None:
            raise AssertionError("pipelined on a libpq without pipeline mode")

        monkeypatch.setattr(batches, "pipelined", never)
    a, b = nodes
    ann, _ = a.create_player("ann")
    kept = a.create_room("toy", {}, {}, 2, ann.id, [False, True])
    lost = a.create_room("toy", {}, {}, 2, ann.id, [False, True])
    lost_hand = _hand(a, lost, (ann.id, None))
    a.append_actions([lost_hand])
    epoch = a.fence[lost]
    _expire(a, lost)
    assert b.leases.claim(10, grace=0) == [(lost, epoch + 1)]
    assert a.fence[lost] == epoch  # a still believes it holds the room
    kept_hand = _hand(a, kept, (ann.id, None))
    with pytest.raises(StaleLease) as refused:
        a.append_actions([kept_hand, ActionWrite(lost_hand.id, 0, 0, {"n": 1}, "player")])
    assert refused.value.rooms == {lost}
    assert a.hand(kept_hand.id) is None
    found = a.hand(lost_hand.id)
    assert found is not None and found.actions == ()
    # the room it holds is written as before, once the batch is without the lost room
    a.append_actions([kept_hand])
    assert a.hand(kept_hand.id) is not None


def test_a_lease_epoch_past_32_bits_fences_its_writes(nodes: Nodes) -> None:
    """An epoch is a 64-bit number (``room_leases.epoch`` is BIGINT): a write under one
    past 2^31 lands, and one under the epoch before it is refused."""
    a, _ = nodes
    ann, _ = a.create_player("ann")
    room = a.create_room("toy", {}, {}, 2, ann.id, [False, True])
    big = 2**31 + 7
    with a.engine.begin() as conn:
        conn.execute(
            text("UPDATE room_leases SET epoch = :e WHERE room_id = :r"), {"e": big, "r": room}
        )
    a.fence[room] = big
    hand = _hand(a, room, (ann.id, None))
    a.append_actions([hand])
    a.append_actions([ActionWrite(hand.id, 0, 0, {"n": 1}, "player")])
    found = a.hand(hand.id)
    assert found is not None and len(found.actions) == 1
    a.fence[room] = big - 1
    with pytest.raises(StaleLease) as refused:
        a.append_actions([ActionWrite(hand.id, 1, 1, {"n": 2}, "player")])
    assert refused.value.rooms == {room}
    found = a.hand(hand.id)
    assert found is not None and len(found.actions) == 1


def _waiting_on_a_lock(store: SharedStore) -> int:
    """How many sessions of the database wait for a lock now."""
    with store.engine.connect() as conn:
        return int(
            conn.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND datname = current_database()"
                )
            ).scalar()
            or 0
        )


def test_a_takeover_leaves_a_room_whose_holder_writes_until_the_write_is_in(
    nodes: Nodes,
) -> None:
    """A takeover never bumps an epoch under a write of the old holder in flight, and
    never waits for it either: it takes the room at its next claim, the write in."""
    a, b = nodes
    ann, _ = a.create_player("ann")
    room = a.create_room("toy", {}, {}, 2, ann.id, [False, True])
    epoch = a.fence[room]
    hand = _hand(a, room, (ann.id, None))
    a.append_actions([hand])
    with a.engine.connect() as write:
        # a's write in flight: its first statement written under the fence (which locks
        # the lease row), not yet committed
        write.begin()
        first = [ActionWrite(hand.id, 0, 0, {"n": 1}, "player")]
        fence = a._fence(write, [], first, set())
        assert fence is not None and dict(fence.epochs) == {room: epoch}
        batches.run(write, a._action_calls(write, first, 0.0, fence)[0])
        renewed: list[set[int]] = []
        renewal = threading.Thread(target=lambda: renewed.append(a.leases.renew({room: epoch})))
        renewal.start()
        renewal.join(30)
        assert not renewal.is_alive() and renewed == [{room}]
        _expire(a, room)
        assert _at_once(lambda: b.leases.claim(10, grace=0)) == []  # nothing taken
        assert _at_once(lambda: b.leases.acquire(room)) is None
        write.commit()
    assert b.leases.claim(10, grace=0) == [(room, epoch + 1)]
    found = a.hand(hand.id)
    assert found is not None and len(found.actions) == 1
    with pytest.raises(StaleLease):
        a.append_actions([ActionWrite(hand.id, 1, 1, {"n": 2}, "player")])


def test_a_holder_frozen_inside_its_write_loses_the_room_after_its_lease_time(
    postgres_db: str,
) -> None:
    """A node stopped (SIGSTOP) while a write of a room is open holds that lease row's lock
    with its connection alive: the database ends its session once it has idled in the
    transaction past the lease's time, the room is taken over, and the write never lands."""
    a = SharedStore(postgres_db, "a", ttl=1.0)
    b = SharedStore(postgres_db, "b", ttl=1.0)
    try:
        ann, _ = a.create_player("ann")
        room = a.create_room("toy", {}, {}, 2, ann.id, [False, True])
        epoch = a.fence[room]
        hand = _hand(a, room, (ann.id, None))
        a.append_actions([hand])
        write = a.engine.connect()
        write.begin()
        first = [ActionWrite(hand.id, 0, 0, {"n": 1}, "player")]
        batches.run(write, a._action_calls(write, first, 0.0, a._fence(write, [], first, set()))[0])
        # frozen here: the lease runs out and nothing more comes from this connection
        _expire(b, room)
        assert _at_once(lambda: b.leases.claim(10, grace=0)) == []
        began = time.monotonic()
        taken: list[tuple[int, int]] = []
        while not taken and time.monotonic() - began < 20:
            time.sleep(0.2)
            taken = _at_once(lambda: b.leases.claim(10, grace=0))
        assert taken == [(room, epoch + 1)], "the frozen holder's row lock was never freed"
        with pytest.raises(Exception, match=r"idle-in-transaction|terminat|closed"):
            write.commit()  # woken: its session is gone, and its action with it
        write.invalidate()
        found = b.hand(hand.id)
        assert found is not None and found.actions == ()
    finally:
        a.close()
        b.close()


def _at_once(call: Callable[[], T]) -> T:
    """``call()``, which must answer within 10 s (a claim never waits on a lock)."""
    out: list[T] = []
    worker = threading.Thread(target=lambda: out.append(call()), daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive() and out, "it waited (on a lock?)"
    return out[0]


def test_released_leases_are_claimed_at_once_and_hand_ids_never_collide(
    nodes: Nodes,
) -> None:
    a, b = nodes
    ann, _ = a.create_player("ann")
    rooms = [a.create_room("toy", {}, {}, 2, ann.id, [False, True]) for _ in range(3)]
    # rooms without a lease (made by a single server) wait out the creation grace
    with a.engine.begin() as conn:
        conn.execute(text("DELETE FROM room_leases WHERE room_id = :r"), {"r": rooms[2]})
    assert b.leases.claim(10) == []
    assert b.leases.claim(10, full=True) == []
    a.leases.release({r: a.fence[r] for r in rooms[:2]})
    # the takeover query of every second sees expired leases only
    claimed = dict(b.leases.claim(10, grace=0))
    assert set(claimed) == set(rooms[:2])
    assert claimed[rooms[0]] == a.fence[rooms[0]] + 1
    # the full one (at start-up, then once a minute) finds the room without a lease
    assert b.leases.claim(10, grace=0, full=True) == [(rooms[2], 1)]
    ids = [s.new_hand_id() for s in (a, b, a, b)]
    assert len(set(ids)) == 4
    # leases are timed by the database's clock
    lease = b.leases.holders([rooms[0]])[rooms[0]]
    assert abs(lease.expires_at - 30.0 - time.time()) < 5


def test_a_cluster_store_needs_postgresql(tmp_path: object) -> None:
    from paiju.errors import PaijuError

    with pytest.raises(PaijuError, match="PostgreSQL"):
        SharedStore("paiju.db", "a")


def test_seats_status_and_closing_of_a_room_are_fenced_by_its_lease(postgres_db: str) -> None:
    """``set_seat``, ``set_ready``, ``set_room_status`` and ``close_room`` check the lease
    epoch in their own transaction as ``append_actions`` does: a node whose lease moved on
    writes none of them, and is told (``on_stale``) so that it drops the room."""
    a = SharedStore(postgres_db, "a", ttl=30.0)
    b = SharedStore(postgres_db, "b", ttl=30.0)
    told: list[frozenset[int]] = []
    a.on_stale = lambda exc: told.append(exc.rooms)
    try:
        ann, _ = a.create_player("ann")
        bob, _ = a.create_player("bob")
        room = a.create_room("toy", {}, {}, 2, ann.id, [False, False])
        # the room and its lease are one transaction: the lease is there at once
        holder = b.leases.holders([room])[room]
        assert (holder.node, holder.epoch, holder.live) == ("a", a.fence[room], True)
        a.set_seat(room, 0, ann.id, False)
        # a node that does not hold the room is refused before the database
        with pytest.raises(StaleLease):
            b.set_seat(room, 1, bob.id, False)
        _expire(a, room)
        assert dict(b.leases.claim(10)) == {room: a.fence[room] + 1}
        b.fence[room] = a.fence[room] + 1
        writes = [
            lambda: a.set_seat(room, 1, bob.id, False),
            lambda: a.set_ready(room, 0, True),
            lambda: a.set_room_status(room, "playing"),
            lambda: a.close_room(room, None),
        ]
        for write in writes:
            with pytest.raises(StaleLease) as refused:
                write()
            assert refused.value.rooms == {room}
        assert told == [frozenset({room})] * 4
        row = b.room(room)
        assert row is not None
        assert row.seat_players == (ann.id, None) and row.status == "waiting"
        assert not any(row.seat_ready)
        # the holder writes them
        b.set_seat(room, 1, bob.id, False)
        b.set_room_status(room, "playing")
        row = b.room(room)
        assert row is not None
        assert row.seat_players == (ann.id, bob.id) and row.status == "playing"
        b.close_room(room, None)
        row = b.room(room)
        assert row is not None and row.status == "closed"
        # a room over gives its lease row up: nobody writes it again
        b.leases.release({room: b.fence[room]})
        assert b.leases.holders([room]) == {}
        with pytest.raises(StaleLease):
            b.set_room_status(room, "playing")
    finally:
        a.close()
        b.close()


def test_the_takeover_query_walks_the_expired_leases_only(nodes: Nodes) -> None:
    """With thousands of open rooms held, the query every node runs every second uses the
    index of lease expiry times (PostgreSQL's plan: no sequential scan of rooms or leases)
    and takes only the expired rooms; leases of rooms over are deleted on the way."""
    a, b = nodes
    ann, _ = a.create_player("ann")
    with a.engine.begin() as conn:
        conn.execute(
            text(
                """INSERT INTO rooms (code, options, game_options, seats, owner_id, status,
                    hands_played, context, created_at)
                SELECT 'toy', '{}', '{}', 2, :owner,
                    CASE WHEN g % 2 = 0 THEN 'playing' ELSE 'finished' END, 0, '{}', 0
                FROM generate_series(1, 6000) AS g"""
            ),
            {"owner": ann.id},
        )
        # every room has a lease: the open ones live, on node a; the first four
        # rooms' leases (two open, two over) expired
        conn.execute(
            text(
                """INSERT INTO room_leases (room_id, node, epoch, expires_at)
                SELECT id, 'a', 1, CASE WHEN id <= 4 THEN 0 ELSE 1e12 END FROM rooms"""
            )
        )
        conn.execute(text("ANALYZE rooms"))
        conn.execute(text("ANALYZE room_leases"))
    plan = b.leases.explain_claim()
    assert "room_leases_expires" in plan, plan
    assert "Seq Scan" not in plan, plan
    full = b.leases.explain_claim(full=True)  # start-up: reads the open rooms
    assert "rooms" in full
    open_ids = {2, 4}
    assert {r for r, _ in b.leases.claim(20)} == open_ids
    held = b.leases.holders([1, 2, 3, 4])
    assert set(held) == open_ids, "the expired leases of rooms over were not deleted"
    assert all(held[r].node == "b" and held[r].epoch == 2 for r in open_ids)
    assert b.leases.claim(20) == []


def test_token_times_are_the_databases_clock_not_the_nodes(
    postgres_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A node whose clock is 91 days fast neither refuses the 90-day tokens another node
    gave (``token_expired``) nor gives tokens of 181 days: a cluster node's store counts
    token times by the database server's clock, as the leases do."""
    day = 86_400
    right = SharedStore(postgres_db, "right", ttl=30.0)
    ann, token = right.create_player("ann", lifetime=90 * day)
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 91 * day)
    fast = SharedStore(postgres_db, "fast", ttl=30.0)
    try:
        assert fast.player_by_token(token) == ann
        assert not fast.token_expired(token)
        bob, other, given = fast.register("bob", lifetime=90 * day)
        with right.engine.connect() as conn:
            stored = conn.execute(
                text("SELECT expires FROM sessions WHERE player_id = :p"), {"p": bob.id}
            ).scalar_one()
        assert given is not None and abs(given - stored) < 1e-3
        assert abs(stored - (real() + 90 * day)) < 60, "a token of 181 days"
        assert fast.player_by_token(other) == bob
        # a token past its time is refused by both
        with right.engine.begin() as conn:
            conn.execute(
                text("UPDATE sessions SET expires = :t WHERE player_id = :p"),
                {"t": real() - 60, "p": ann.id},
            )
        fast._players.clear()
        assert fast.token_expired(token) and fast.player_by_token(token) is None
    finally:
        right.close()
        fast.close()


def _name_holder(store: Store, node: str) -> int | None:
    """The backend pid holding node ``node``'s name lock, if any session does."""
    with store.engine.connect() as conn:
        pid = conn.execute(
            text(
                """SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
                AND objsubid = 2 AND classid = CAST(:ns AS oid)
                AND objid = CAST(hashtext(:node) AS oid)"""
            ),
            {"ns": _NODE_LOCKS, "node": node},
        ).scalar()
    return None if pid is None else int(pid)


def _end_session(store: Store, pid: int) -> None:
    """End one backend as a database restart ends every one, and wait until it is gone
    (its locks with it)."""
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar()
        conn.commit()
        end = time.monotonic() + 30
        while conn.execute(
            text("SELECT count(*) FROM pg_stat_activity WHERE pid = :p"), {"p": pid}
        ).scalar():
            # pg_stat_activity is a snapshot taken once per transaction: ask in a new one
            conn.rollback()
            assert time.monotonic() < end, f"backend {pid} did not end"
            time.sleep(0.05)


def test_a_name_lock_lost_with_its_session_is_taken_again_unless_another_took_it(
    postgres_db: str,
) -> None:
    """The name lock ends with its database session: ``keep_name`` (each renewal) finds
    that out and takes it again, so a second process under the name still cannot start;
    a session lost on the store's side only (the database's lives on, holding the name)
    is ended and the lock taken again. If another process took the name first, the store
    is displaced for good: it makes no room, writes none of its rooms' hands, actions or
    seats, and never takes the name back, even once it is free."""
    a = SharedStore(postgres_db, "n", ttl=30.0)
    twin = SharedStore(postgres_db, "n", ttl=30.0)
    try:
        assert a.hold_name() and a.keep_name() == "held"
        assert not twin.hold_name()
        ann, _ = a.create_player("ann")
        room = a.create_room("toy", {}, {}, 2, ann.id, [False, True])
        hand = _hand(a, room, (ann.id, None))
        a.append_actions([hand])
        first = _name_holder(a, "n")
        assert first is not None
        _end_session(a, first)
        assert _name_holder(a, "n") is None
        assert a.keep_name() == "again"
        again = _name_holder(a, "n")
        assert again is not None and again != first
        assert a.keep_name() == "held"
        assert not twin.hold_name()
        # the connection lost on a's side only: its session lives on in the database
        # (a connection cut halfway) and keeps the name for a, which ends it and takes
        # the lock again on a new connection
        lost = a.engine.connect()
        lost.close()
        a._name_lock, kept = lost, a._name_lock
        assert kept is not None and _name_holder(a, "n") == again
        assert a.keep_name() == "held"  # (the name is a's still: its old session's)
        end = time.monotonic() + 30
        while (state := a.keep_name()) == "held":
            assert time.monotonic() < end, "the session lost on a's side lives on"
            time.sleep(0.05)
        assert state == "again" and not twin.hold_name()
        assert _name_holder(a, "n") not in (None, again)
        again = _name_holder(a, "n")
        assert again is not None
        # lost again, and the twin takes the name before a asks
        _end_session(a, again)
        assert twin.hold_name()
        assert a.keep_name() == "taken" and a.displaced
        with pytest.raises(StaleLease):
            a.append_actions([ActionWrite(hand.id, 0, 0, {"n": 1}, "player")])
        with pytest.raises(StaleLease):
            a.set_seat(room, 0, ann.id, False)
        with pytest.raises(ServerError) as refused:
            a.create_room("toy", {}, {}, 2, ann.id, [False, True])
        assert refused.value.code == "unavailable" and refused.value.status == 503
        found = a.hand(hand.id)
        assert found is not None and found.actions == ()
        # the twin leaves: the name is free (once the database has ended its session, a
        # moment after the connection closed), and a displaced store never takes it back
        twin.close()
        end = time.monotonic() + 10
        while _name_holder(a, "n") is not None:
            assert time.monotonic() < end, "the twin's session kept the name"
            time.sleep(0.05)
        assert a.keep_name() == "taken" and not a.hold_name()
        assert _name_holder(a, "n") is None
    finally:
        a.close()
        twin.close()


def _server_lock_holder(store: Store) -> int | None:
    """The backend pid holding the single server's lock of the database, if any session
    does (its one bigint key shows as ``classid``/``objid``, ``objsubid`` 1)."""
    with store.engine.connect() as conn:
        pid = conn.execute(
            text(
                """SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
                AND objsubid = 1 AND classid = CAST(:high AS oid)
                AND objid = CAST(:low AS oid)"""
            ),
            {"high": _PG_LOCK >> 32, "low": _PG_LOCK & 0xFFFF_FFFF},
        ).scalar()
    return None if pid is None else int(pid)


def test_a_single_server_takes_its_database_lock_again_unless_another_server_took_it(
    postgres_db: str,
) -> None:
    """A single server on PostgreSQL holds the database's lock in a session: a database
    restart ends it, and ``keep_lock`` takes it again at once, so a second server still
    cannot start. If a second server started first, the first is displaced: it writes no
    hand and makes no room, and its health answers 503."""
    served = Store(postgres_db, owner=True)
    try:
        assert served.keep_lock() == "held"
        with pytest.raises(Exception, match="another paiju server"):
            Store(postgres_db, owner=True)
        first = _server_lock_holder(served)
        assert first is not None
        _end_session(served, first)
        assert _server_lock_holder(served) is None
        assert served.keep_lock() == "again"
        again = _server_lock_holder(served)
        assert again is not None and again != first
        assert served.keep_lock() == "held"
        with pytest.raises(Exception, match="another paiju server"):
            Store(postgres_db, owner=True)
        ann, _ = served.create_player("ann")
        room = served.create_room("toy", {}, {}, 2, ann.id, [False, True])
        # lost again, and a second server starts before the first asks
        _end_session(served, again)
        second = Store(postgres_db, owner=True)
        try:
            assert served.keep_lock() == "taken" and served.displaced
            for write in (
                lambda: served.create_room("toy", {}, {}, 2, ann.id, [False, True]),
                lambda: served.append_actions([ActionWrite(1, 0, 0, {"n": 1}, "player")]),
            ):
                with pytest.raises(ServerError) as refused:
                    write()
                assert refused.value.code == "unavailable" and refused.value.status == 503
            assert served.keep_lock() == "taken"
            assert second.keep_lock() == "held" and not second.displaced
            assert second.room(room) is not None
            app = create_app(opened=served)
            with TestClient(app) as client:
                health = client.get("/api/health")
            assert health.status_code == 503 and health.json()["ok"] is False
            assert "another server" in health.json()["reason"]
        finally:
            second.close()
    finally:
        served.close()


def test_a_sqlite_server_has_no_database_session_to_lose(tmp_path: Path) -> None:
    """SQLite's lock is the process's ``flock``: nothing to take again."""
    served = Store(str(tmp_path / "x.db"), owner=True)
    try:
        assert served.keep_lock() == "none" and not served.displaced
    finally:
        served.close()


def test_a_serving_single_server_takes_its_lock_again_by_itself(postgres_db: str) -> None:
    """The server checks its lock in the background: after its session ended (as a
    database restart ends it) the lock is soon held again, by a new session, and a second
    server still refuses to start."""
    served = Store(postgres_db, owner=True)
    try:
        with TestClient(create_app(opened=served)) as client:
            first = _server_lock_holder(served)
            assert first is not None
            _end_session(served, first)
            end = time.monotonic() + 60
            while _server_lock_holder(served) in (None, first):
                assert time.monotonic() < end, "the server did not take its lock again"
                time.sleep(0.1)
            with pytest.raises(Exception, match="another paiju server"):
                Store(postgres_db, owner=True)
            assert client.get("/api/health").json()["ok"] is True
    finally:
        served.close()


def test_two_nodes_settling_one_players_hands_at_once_keep_one_running_balance(
    nodes: Nodes,
) -> None:
    """Hands of the same two players end on both nodes at once (each node its own rooms,
    two of them ending in each of its transactions): every ledger row of a player is the
    row before it plus its delta. The players' locks are taken by each transaction's first
    write, and the balance is counted by the statement that settles, from what is stored
    then - never from what a node saw before."""
    a, b = nodes
    ann, _ = a.create_player("ann")
    bob, _ = a.create_player("bob")
    rooms = {
        s.leases.node: [s.create_room("toy", {}, {}, 2, ann.id, [False, False]) for _ in range(2)]
        for s in (a, b)
    }
    failed: list[BaseException] = []

    def settle(store: SharedStore, hands: int) -> None:
        try:
            for no in range(1, hands + 1):
                dealt = [
                    dataclasses.replace(_hand(store, r, (ann.id, bob.id)), hand_no=no)
                    for r in rooms[store.leases.node]
                ]
                store.append_actions(dealt)
                store.append_actions(
                    [
                        ActionWrite(
                            h.id,
                            0,
                            0,
                            {"n": no},
                            "player",
                            HandEnding(
                                h.room_id, (no, -no), (no, -no), (ann.id, bob.id), no, {}, False
                            ),
                        )
                        for h in dealt
                    ]
                )
        except BaseException as exc:  # the test's thread: seen by the test
            failed.append(exc)

    threads = [threading.Thread(target=settle, args=(s, 12)) for s in (a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not failed, failed
    for player, sign in ((ann, 1), (bob, -1)):
        rows = a.ledger(player.id)
        assert len(rows) == 2 * 2 * 12
        running = 0
        for row in rows:
            running += row["delta"]
            assert row["balance"] == running, (player.name, row)
        assert running == sign * 2 * 2 * sum(range(1, 13))


def test_a_nodes_hand_ids_are_taken_ahead_of_its_deals(postgres_db: str) -> None:
    """A node takes its hand ids from the database a block at a time; the tick tops the
    block up (in a worker thread) once less than half of it is left, so the deals that
    follow, on the event loop, ask the database nothing. A node that deals faster than
    its tick, whose deal had to ask, takes twice as many at a time from then on."""
    from sqlalchemy import event

    from paiju.server.lease import HAND_IDS, HAND_IDS_MAX

    store = SharedStore(postgres_db, "ids")
    asked: list[str] = []

    @event.listens_for(store.engine, "before_cursor_execute")
    def _seen(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        asked.append(statement)

    try:
        assert store.hand_ids_low()
        store.top_up_hand_ids()  # none yet: a block
        assert len(asked) == 1
        first = [store.new_hand_id() for _ in range(HAND_IDS // 2)]
        assert not store.hand_ids_low()  # the tick does not go to a worker thread
        store.top_up_hand_ids()  # half a block left: enough, nothing asked
        assert len(asked) == 1
        first.append(store.new_hand_id())
        assert store.hand_ids_low()
        store.top_up_hand_ids()  # less than half: the next block
        assert len(asked) == 2
        rest = [store.new_hand_id() for _ in range(HAND_IDS + HAND_IDS // 2 - 1)]
        assert len(asked) == 2  # every deal's id was at hand
        ids = first + rest
        assert len(set(ids)) == len(ids) == 2 * HAND_IDS
        store.new_hand_id()  # none left and no tick since: the deal asks itself
        assert len(asked) == 3
        # ... and the node takes twice as many at a time from then on, so that a tick
        # comes before the next block runs out at this pace
        assert store.hand_block == 2 * HAND_IDS
        more = [store.new_hand_id() for _ in range(HAND_IDS - 1)]  # a whole block left
        assert len(asked) == 3 and not store.hand_ids_low()
        more.append(store.new_hand_id())
        assert store.hand_ids_low()
        store.top_up_hand_ids()
        assert len(asked) == 4
        more += [store.new_hand_id() for _ in range(3 * HAND_IDS - 1)]
        assert len(asked) == 4  # the doubled block and its top-up covered these deals
        assert len(set(ids + more)) == len(ids) + len(more)
        for _ in range(12):  # the block stops growing at its bound
            store._hand_ids.clear()
            store.new_hand_id()
        assert store.hand_block == HAND_IDS_MAX
    finally:
        store.close()
