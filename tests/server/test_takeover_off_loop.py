"""A node taking over the rooms of a dead node reads them off its event loop: the rooms'
rows, the hands in play and the players' names come from a worker thread, while the rooms
the node plays already keep answering; each room is then resumed on the loop from what was
read (the lobby lists them with no query), and a room that finished meanwhile gives its
lease back; the info of a room the node gave up, asked of its object, asks nothing either.
A real PostgreSQL (``tests/pg.py``)."""

from __future__ import annotations

import asyncio
import time

from loop_watch import LoopWatch
from sqlalchemy import text
from test_placement import TTL

from paiju.server.cluster import Cluster, NodeConfig
from paiju.server.hub import Hub
from paiju.server.lease import SharedStore
from paiju.server.options import Limits


def test_rooms_taken_over_are_read_off_the_loop(postgres_db: str) -> None:
    dead = SharedStore(postgres_db, "dead", TTL)
    store = SharedStore(postgres_db, "me", TTL)
    hub = Hub(store, Limits())
    me = Cluster(hub, store, NodeConfig("me", "http://127.0.0.1:9", "", lease_ttl=TTL))
    hub.placements = me.placement
    player, _ = dead.create_player("玩家")
    bots = [False, True, True, True]
    waiting = [dead.create_room("1301", {}, {}, 4, player.id, bots) for _ in range(3)]
    playing = dead.create_room("1301", {}, {}, 4, player.id, bots)
    for room in [*waiting, playing]:
        dead.set_seat(room, 0, player.id, False)
    dead.set_room_status(playing, "playing")  # no hand yet: the first deal comes
    finished = dead.create_room("1301", {}, {}, 4, player.id, bots)
    with store.engine.begin() as conn:  # the dead node's leases ran out
        conn.execute(text("UPDATE room_leases SET expires_at = 0"))
    claimed = store.leases.claim(10)
    assert sorted(r for r, _ in claimed) == sorted([*waiting, playing, finished])
    with store.engine.begin() as conn:  # over between the claim and the takeover
        conn.execute(text("UPDATE rooms SET status = 'finished' WHERE id = :r"), {"r": finished})

    # the playing room's first deal takes a block of hand ids: not a read
    watch = LoopWatch(store.engine, skip=("nextval",))

    async def run() -> tuple[int, int]:
        async with watch:  # a room of this node answers meanwhile
            taken = await me._adopt(claimed)
            infos = [room.info() for room in hub.rooms.values()]  # the lobby lists them at once
            gone = hub.rooms[waiting[0]]
            me.drop(gone.id, "given up in a test")  # told where it went, in a worker thread
            left = gone.info()  # its object asked after it left: nothing to say, no query
            await asyncio.sleep(0.2)
        assert infos[0].node == "me" and infos[0].ws is not None
        assert left.node is None and left.ws is None
        assert {tuple(i.players) for i in infos} == {("玩家", "bot", "bot", "bot")}
        assert watch.seen, "the takeover read nothing"
        assert not watch.on_loop(), watch.on_loop()
        for room in hub.rooms.values():
            room.stop_clocks()
            if room.next_hand is not None:
                room.next_hand.cancel()
        return taken, watch.turns

    try:
        taken, ticks = asyncio.run(run())
        assert taken == 4 and ticks > 1
        assert sorted(hub.rooms) == sorted([*waiting[1:], playing])
        assert sorted(store.fence) == sorted([*waiting[1:], playing])
        assert hub.rooms[playing].status == "playing"
        assert {r.status for i, r in hub.rooms.items() if i != playing} == {"waiting"}
        # the finished room's lease went back
        assert finished not in store.leases.holders([finished])
    finally:
        store.close()
        dead.close()


def test_a_tick_takes_over_batch_after_batch_while_they_come_full(postgres_db: str) -> None:
    """A dead node's rooms are taken a batch (``claim_batch``) at a time, and one tick
    goes on to the next batch while the last came full: a node of many rooms is taken over
    in one or a few ticks, not in a tick for every batch."""
    dead = SharedStore(postgres_db, "dead", TTL)
    store = SharedStore(postgres_db, "me", TTL)
    hub = Hub(store, Limits())
    # a long tick: however slow the machine, its half is time enough for three batches
    config = NodeConfig(
        "me", "http://127.0.0.1:9", "", lease_ttl=TTL, renew_every=30.0, claim_batch=3
    )
    me = Cluster(hub, store, config)
    hub.placements = me.placement
    player, _ = dead.create_player("玩家")
    rooms = [
        dead.create_room("1301", {}, {}, 4, player.id, [False, True, True, True]) for _ in range(7)
    ]
    with store.engine.begin() as conn:  # the dead node's leases ran out
        conn.execute(text("UPDATE room_leases SET expires_at = 0"))

    async def run() -> None:
        me.db_ok = True
        me.valid_until = time.monotonic() + 60
        await me.tick()
        for room in hub.rooms.values():
            room.stop_clocks()

    try:
        asyncio.run(run())
        assert sorted(hub.rooms) == sorted(rooms), "a tick took one batch and stopped"
        assert sorted(store.fence) == sorted(rooms)
        holders = store.leases.holders(rooms)
        assert {h.node for h in holders.values()} == {"me"}
    finally:
        store.close()
        dead.close()
