"""Room leases on PostgreSQL (``paiju.server.lease``): one node plays a room at a time, and
every write of a room's hands and actions carries its lease number (epoch) - a node whose
lease moved on is refused in the same transaction, before anything is written."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import text

from paiju.server.lease import SharedStore, StaleLease
from paiju.server.store import ActionWrite, HandEnding, HandWrite


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


def test_a_room_is_held_by_one_node_and_a_stale_epoch_writes_nothing(postgres_db: str) -> None:
    a = SharedStore(postgres_db, "a", ttl=30.0)
    b = SharedStore(postgres_db, "b", ttl=30.0)
    try:
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
    finally:
        a.close()
        b.close()


def test_released_leases_are_claimed_at_once_and_hand_ids_never_collide(
    postgres_db: str,
) -> None:
    a = SharedStore(postgres_db, "a", ttl=30.0)
    b = SharedStore(postgres_db, "b", ttl=30.0)
    try:
        ann, _ = a.create_player("ann")
        rooms = [a.create_room("toy", {}, {}, 2, ann.id, [False, True]) for _ in range(3)]
        # rooms without a lease (made by a single server) wait out the creation grace
        with a.engine.begin() as conn:
            conn.execute(text("DELETE FROM room_leases WHERE room_id = :r"), {"r": rooms[2]})
        assert b.leases.claim(10) == []
        a.leases.release({r: a.fence[r] for r in rooms[:2]})
        claimed = dict(b.leases.claim(10, grace=0))
        assert set(claimed) == set(rooms)
        assert claimed[rooms[0]] == a.fence[rooms[0]] + 1
        ids = [s.new_hand_id() for s in (a, b, a, b)]
        assert len(set(ids)) == 4
        # leases are timed by the database's clock
        lease = b.leases.holders([rooms[0]])[rooms[0]]
        assert abs(lease.expires_at - 30.0 - time.time()) < 5
    finally:
        a.close()
        b.close()


def test_a_cluster_store_needs_postgresql(tmp_path: object) -> None:
    from paiju.errors import PaijuError

    with pytest.raises(PaijuError, match="PostgreSQL"):
        SharedStore("paiju.db", "a")
