"""A room needs no hub and no socket: it asks its host only for what ``room.Host`` names
(the store, the journal, the limits, a placement, 再来一局 and its end), and a client is
a callable that receives text. Here a whole 三打哈 hand is played by bots in a room whose
host is this test, on the real store; what the room sent its one watcher and what it asked
of its host are all the test reads."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paiju.games import game
from paiju.server.client import Client
from paiju.server.journal import Journal
from paiju.server.messages import MatchSummaryMsg
from paiju.server.options import Limits, RoomOptions
from paiju.server.room import Host, Room
from paiju.server.rows import PlayerRow, Table
from paiju.server.store import Store
from paiju.server.summary import room_summary


@dataclass
class OneRoomHost:
    """The test's host of one room: the room's calls up are recorded."""

    store: Store
    journal: Journal
    limits: Limits = field(default_factory=lambda: Limits(min_bot_delay=0))
    ended: list[int] = field(default_factory=list)

    def placement(self, room_id: int) -> dict[str, str]:
        return {}

    async def again(self, room: Room, player: PlayerRow) -> Room:
        raise AssertionError("nobody asked for another match")

    def finished(self, room: Room) -> None:
        self.ended.append(room.id)

    def summary(self, table: Table) -> MatchSummaryMsg:
        return room_summary(self.store, table)

    def deal_seeds(self, room_id: int) -> list[str] | None:
        return None


def test_a_room_plays_a_hand_for_a_host_that_is_not_the_hub(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "host.db"))
    host = OneRoomHost(store, Journal(store))
    seated: Host = host  # the protocol is met without importing the hub
    options = RoomOptions(
        seats=4, bots=4, bot_delay=0, pause=0, hands=1, fill_after=None, ready_check=False
    )
    owner = store.create_player("watcher")[0]
    g = game("sandaha")
    room_id = store.create_room(
        "sandaha", options.model_dump(), g.room_options, 4, owner.id, [True] * 4
    )
    row = store.room(room_id)
    assert row is not None
    received: list[dict[str, Any]] = []

    async def send(text: str) -> None:
        received.append(json.loads(text))

    async def close(code: int, reason: str) -> None:
        received.append({"closed": code})

    async def scenario() -> None:
        room = Room(seated, row)
        watcher = Client(owner, send, host.limits, close)
        writer = asyncio.get_running_loop().create_task(watcher.writer())
        room.attach(watcher)
        room.start()
        for _ in range(3000):
            if any(m.get("type") == "hand_over" for m in received):
                break
            await asyncio.sleep(0.005)
        room.stop_clocks()
        watcher.close(1000, "bye")
        await writer

    asyncio.run(scenario())
    over = [m for m in received if m.get("type") == "hand_over"]
    assert over, [m.get("type") for m in received][-5:]
    assert sum(over[0]["scores"]) == 0 and over[0]["room_finished"]
    stored = store.hand(over[0]["game"])
    assert stored is not None and stored.actions
    assert list(stored.settlement or ()) == over[0]["scores"]
    assert host.ended == [room_id]  # a one-hand match: the room told its host it is over
