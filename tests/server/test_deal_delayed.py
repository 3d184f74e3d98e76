"""A player waiting for a deal while the database takes no write is told, as a player
whose action could not be stored is: once an outage (``deal_delayed``), also when the
socket connects meanwhile; the hand is dealt once the database takes it again.

docs/protocol.md section 3: "Every message gets an answer or an error", and the errors'
table: ``deal_delayed``, "the next hand could not be stored; it is dealt again every
second until the database takes it". In process, on the real store and group commit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest
from socket_stub import SocketStub
from sqlalchemy.exc import OperationalError

from paiju.server.client import Client
from paiju.server.hub import Hub
from paiju.server.options import Limits, RoomOptions
from paiju.server.rows import HandWrite, Write
from paiju.server.store import Store

OPTIONS = RoomOptions(
    seats=2, bots=1, time_limit=0, bot_delay=0, pause=0, fill_after=None, seed_wait=0
)


def test_a_player_waiting_for_a_deal_the_database_cannot_store_is_told_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(str(tmp_path / "full.db"))
    full = True
    refused: list[int] = []
    append = store.append_actions

    def disk_full(writes: Sequence[Write]) -> None:
        if full and any(isinstance(w, HandWrite) for w in writes):
            refused.append(1)
            raise OperationalError("INSERT INTO hands", {}, Exception("database or disk is full"))
        append(writes)

    monkeypatch.setattr(store, "append_actions", disk_full)

    async def wait_for(done: object, what: str) -> None:
        for _ in range(1000):
            if callable(done) and done():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"{what} never came")

    async def scenario() -> tuple[SocketStub, SocketStub]:
        nonlocal full
        hub = Hub(store, Limits(min_bot_delay=0))
        ann, eve = (store.create_player(n)[0] for n in ("ann", "eve"))
        room = await hub.create_room(ann, "toy", OPTIONS, {}, 0)
        seat, late = SocketStub(), SocketStub()
        client = Client(ann, seat.send_text, hub.limits, seat.close)
        asyncio.get_running_loop().create_task(client.writer())
        room.attach(client)  # the full room starts: its first deal cannot be stored
        await wait_for(lambda: len(refused) >= 2, "a second try of the deal")
        watcher = Client(eve, late.send_text, hub.limits, late.close)
        asyncio.get_running_loop().create_task(watcher.writer())
        room.attach(watcher)  # a spectator who comes meanwhile is told too
        await wait_for(lambda: late.errors(), "the spectator's error")
        full = False
        await wait_for(lambda: seat.of("hand_started"), "the deal")
        hub.shutdown()
        return seat, late

    seat, late = asyncio.run(scenario())
    store.close()
    assert seat.errors() == ["deal_delayed"]  # once, though the deal failed twice or more
    (told,) = seat.of("error")
    assert told["text"]["zh"] and told["text"]["en"]
    assert late.errors() == ["deal_delayed"]
    assert seat.of("hand_started")[0]["hand_no"] == 1
