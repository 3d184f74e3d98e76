"""A cluster node's lobby: ``GET /api/rooms`` on a node lists the rooms every node plays,
from the shared database. What it reads does not grow with the rooms - their players'
names, latest hands and leases come in three queries however many rooms there are, none of
them read on the event loop (the node's own rooms play on meanwhile) - and it lists the
open rooms, as a single server does; of the finished ones, only the newest. A real
PostgreSQL (``tests/pg.py``); the other node is its store and its presence row."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any

from sqlalchemy import event
from test_placement import TTL, _present

from paiju.server.cluster import Cluster, NodeConfig
from paiju.server.lease import SharedStore


def test_the_lobby_of_a_node_reads_three_queries_off_the_loop_however_many_rooms(
    postgres_db: str,
) -> None:
    other = SharedStore(postgres_db, "other", TTL)
    store = SharedStore(postgres_db, "me", TTL)
    hub: Any = SimpleNamespace(rooms={})
    me = Cluster(hub, store, NodeConfig("me", "http://127.0.0.1:9", "", lease_ttl=TTL))
    ids: list[int] = []
    names: dict[int, str] = {}

    def open_rooms(count: int) -> None:
        """``count`` rooms node ``other`` plays: a hand dealt in every other one."""
        for _ in range(count):
            player, _ = other.create_player(f"玩家{len(ids)}")
            names[player.id] = player.name
            room = other.create_room("1301", {}, {}, 4, player.id, [False, True, True, True])
            other.set_seat(room, 0, player.id, False)
            if len(ids) % 2:
                for hand_no in (1, 2):
                    other.start_hand(
                        room, hand_no, "1301", {}, [player.id, None, None, None], "c", "s", {}, {}
                    )
            ids.append(room)

    asked: list[int] = []
    sql: list[str] = []

    @event.listens_for(store.engine, "before_cursor_execute")
    def _seen(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        asked.append(threading.get_ident())
        sql.append(statement)

    async def infos() -> tuple[list[Any], int]:
        loop = threading.get_ident()
        rows = store.rooms(("waiting", "playing"))
        del asked[:], sql[:]
        found = await me.room_infos(rows)
        assert asked and loop not in asked, "the rooms' facts were read on the event loop"
        return found, len([s for s in sql if not s.lstrip().upper().startswith("INSERT")])

    async def run() -> None:
        _present(other, "other", rooms=30)
        assert await me.refresh()
        open_rooms(3)
        few, asked_few = await infos()
        assert [i.id for i in few] == ids
        open_rooms(27)
        many, asked_many = await infos()
        assert asked_many == asked_few == 3, sql
        assert [i.id for i in many] == ids
        for info in many:
            assert info.node == "other" and info.ws == f"ws://127.0.0.1:9/other/ws/rooms/{info.id}"
            assert info.players[0] in names.values() and info.players[1:] == ["bot"] * 3
        started = [i for i in many if i.game is not None]
        assert [i.id for i in started] == ids[1::2]
        for info in started:  # the latest hand (hand 2), not the first
            hand = store.current_hand(info.id)
            assert hand is not None and info.game == hand.id and hand.hand_no == 2
        # the finished rooms: only the newest, by id
        for room in ids[:5]:
            other.set_room_status(room, "finished")
        assert [r.id for r in store.rooms(("waiting", "playing"))] == ids[5:]
        assert [r.id for r in store.rooms(("finished",), newest=2)] == ids[3:5]

    try:
        asyncio.run(run())
    finally:
        store.close()
        other.close()
