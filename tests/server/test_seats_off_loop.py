"""A room's creation, its seats, 准备 marks, start and closing are stored off the event loop:
the room's row (and a cluster node's lease of it) is stored in a worker thread, and its
seats, status and closing go into the group commit with its hands, under the node's leases. Rooms
already played by the process keep answering meanwhile; what was stored is what the room
holds. A real PostgreSQL (``tests/pg.py``), a single process and a cluster node."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from loop_watch import LoopWatch
from sqlalchemy import update
from test_placement import TTL

from paiju.server import tables as t
from paiju.server.hub import Hub
from paiju.server.lease import SharedStore
from paiju.server.options import Limits, RoomOptions
from paiju.server.rows import ClosingWrite, HandWrite, RoomRow, SeatsWrite
from paiju.server.store import Store

OPTIONS = RoomOptions(
    seats=4,
    bots=0,
    time_limit=0,
    bot_delay=0,
    pause=0,
    hands=1,
    fill_after=None,
    ready_check=True,
    seed_wait=0,
)


@pytest.mark.parametrize("node", [False, True], ids=["single process", "cluster node"])
def test_a_room_is_made_seated_and_started_without_a_query_on_the_loop(
    postgres_db: str, node: bool
) -> None:
    store = SharedStore(postgres_db, "me", TTL) if node else Store(postgres_db)
    hub = Hub(store, Limits(min_bot_delay=0))
    ann, bob, cat = (store.create_player(name)[0] for name in ("ann", "bob", "cat"))
    if isinstance(store, SharedStore):
        store.top_up_hand_ids()  # the tick takes the deals' ids off the loop

    watch = LoopWatch(store.engine)

    def stored(room_id: int) -> RoomRow:
        """The room as stored, read by the test (its queries are not counted)."""
        with watch.aside():
            row = store.room(room_id)
        assert row is not None
        return row

    async def run() -> tuple[int, int, list[bool]]:
        async with watch:  # a room of this process answers meanwhile
            room = await hub.create_room(ann, "1301", OPTIONS, {}, 0)
            room.join(bob, None)
            room.join(cat, None)
            await room.settled()
            waiting = stored(room.id)
            room.set_ready(1, True)
            await room.settled()
            ready = stored(room.id)
            room.start()  # the owner starts: a bot takes the last seat, the first hand is dealt
            await room.settled()
        assert watch.seen, "nothing was stored"
        assert not watch.on_loop(), watch.on_loop()
        assert waiting.status == "waiting"
        assert waiting.seat_players == (ann.id, bob.id, cat.id, None)
        assert waiting.ready_marks() == (True, False, False, False)
        room.stop_clocks()
        return room.id, watch.turns, list(ready.ready_marks())

    try:
        room_id, ticks, ready = asyncio.run(run())
        assert ticks > 1
        assert ready == [True, True, False, False]
        row = store.room(room_id)
        assert row is not None and row.status == "playing"
        assert row.seat_players == (ann.id, bob.id, cat.id, None)
        assert row.seat_bots == (False, False, False, True)
        hand = store.current_hand(room_id)
        assert hand is not None and hand.status == "playing"
        if isinstance(store, SharedStore):
            assert room_id in store.fence  # the lease taken with the room is held
            assert store.leases.holders([room_id])[room_id].node == "me"
    finally:
        store.close()


def test_two_players_asking_for_the_next_match_at_once_get_one_room(postgres_db: str) -> None:
    """再来一局 asked by two seated players while the first asker's room is still being
    stored (off the loop): both get that room, and only one room is made."""
    store = Store(postgres_db)
    hub = Hub(store, Limits(min_bot_delay=0))
    ann, bob = (store.create_player(name)[0] for name in ("ann", "bob"))
    options = OPTIONS.model_copy(update={"seats": 2, "ready_check": False})

    async def run() -> tuple[int, int, int]:
        room = await hub.create_room(ann, "1301", options, {}, 0)
        room.join(bob, None)  # full and ready: the room starts
        await room.settled()
        room.stop_clocks()
        room.status = "finished"  # the match is over (the test need not play it)
        first, second = await asyncio.gather(hub.again(room, bob), hub.again(room, ann))
        assert first is second and room.next_room == first.id
        assert first.seat_of(bob.id) == 1 and first.seat_of(ann.id) == 0
        assert first.owner == bob.id
        await first.settled()
        return room.id, first.id, len(store.rooms())

    try:
        old, new, rooms = asyncio.run(run())
        assert rooms == 2 and new != old
    finally:
        store.close()


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_seats_written_by_the_group_commit_never_reopen_a_finished_room(
    db: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A room's seats and status written in a group commit: the seats as they stand, the
    status moved from waiting to playing; a status written late (a write tried again
    after the database failed) does not reopen a room whose match is over."""
    url = str(tmp_path / "paiju.db") if db == "sqlite" else request.getfixturevalue("postgres_db")
    store = Store(url)
    try:
        ann, _ = store.create_player("ann")
        room = store.create_room("1301", {}, {}, 3, ann.id, [False, False, True])
        store.append_actions([SeatsWrite(room, ((0, ann.id, False, True),), "playing")])
        row = store.room(room)
        assert row is not None and row.status == "playing"
        assert row.seat_players == (ann.id, None, None) and row.seat_bots == (False, False, True)
        assert row.ready_marks() == (True, False, False)
        store.set_room_status(room, "finished")
        store.append_actions([SeatsWrite(room, ((1, None, True, False),), "playing")])
        row = store.room(room)
        assert row is not None and row.status == "finished"  # not reopened
        assert row.seat_bots == (False, True, True)  # the seat is written all the same
    finally:
        store.close()


@pytest.mark.parametrize("node", [False, True], ids=["single process", "cluster node"])
def test_a_room_is_closed_without_a_query_on_the_loop(postgres_db: str, node: bool) -> None:
    """Closing a room in play (its owner, the operator) asks the database nothing on the
    loop: the closing goes into the group commit, the hand in play is stored ``void``."""
    store = SharedStore(postgres_db, "me", TTL) if node else Store(postgres_db)
    hub = Hub(store, Limits(min_bot_delay=0))
    ann, bob = (store.create_player(name)[0] for name in ("ann", "bob"))
    if isinstance(store, SharedStore):
        store.top_up_hand_ids()
    options = OPTIONS.model_copy(update={"seats": 2, "ready_check": False})
    watch = LoopWatch(store.engine)

    async def run() -> tuple[int, int]:
        room = await hub.create_room(ann, "1301", options, {}, 0)
        room.join(bob, None)  # full and ready: the room starts, its first hand is dealt
        await room.settled()
        assert room.status == "playing" and room.state is not None
        hand = room.hand_id
        async with watch:
            room.close("room_closed", "closed by its owner")
            assert room.status == "closed"
            await room.settled()
        assert watch.seen, "the closing was not stored"
        assert not watch.on_loop(), watch.on_loop()
        return room.id, hand

    try:
        room_id, hand_id = asyncio.run(run())
        row = store.room(room_id)
        assert row is not None and row.status == "closed"
        hand = store.current_hand(room_id)
        assert hand is not None and hand.id == hand_id and hand.status == "void"
    finally:
        store.close()


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_a_closing_voids_only_a_hand_still_in_play(
    db: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A closing written after its hand was settled (in the same group commit or an
    earlier one) closes the room and leaves the hand ``finished``; the seats written with
    it in one batch come first, and the closing is the room's last word."""
    url = str(tmp_path / "paiju.db") if db == "sqlite" else request.getfixturevalue("postgres_db")
    store = Store(url)
    try:
        ann, _ = store.create_player("ann")
        room = store.create_room("1301", {}, {}, 2, ann.id, [False, True])
        store.set_room_status(room, "playing")
        hand = _hand(store, room)
        with store.engine.begin() as conn:  # settled, as a batch before the closing left it
            conn.execute(update(t.hands).where(t.hands.c.id == hand).values(status="finished"))
        store.append_actions(
            [SeatsWrite(room, ((0, ann.id, False, True),), "playing"), ClosingWrite(room, hand)]
        )
        row = store.room(room)
        assert row is not None and row.status == "closed"
        stored = store.current_hand(room)
        assert stored is not None and stored.status == "finished"
        other = store.create_room("1301", {}, {}, 2, ann.id, [False, True])
        store.set_room_status(other, "playing")
        played = _hand(store, other)
        store.append_actions([ClosingWrite(other, played)])
        stored = store.current_hand(other)
        assert stored is not None and stored.status == "void"
    finally:
        store.close()


def _hand(store: Store, room: int) -> int:
    """A hand in play of ``room`` (its deal need not be a real one here)."""
    hand = store.new_hand_id()
    store.append_actions([HandWrite(hand, room, 1, "1301", {}, (None, None), "c", "s", {}, {})])
    return hand
