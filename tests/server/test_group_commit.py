"""Group commit (the server benchmark's work): accepted actions of many rooms share one
transaction, and a room never has two actions in flight - a message that arrives while
its room's last action awaits the commit waits for it, in arrival order.

docs/protocol.md section 5: "Every accepted action is appended to the hand's log in the
database in a transaction before anyone is told"; section 3: "updates arrive in order,
one per action".
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from server_helpers import PLAYABLE

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


class _Socket:
    """A socket stand-in that keeps what the server sends (and what was stored then)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        msg = json.loads(text)
        if msg["type"] == "update":  # persistence before broadcast
            hand = self.store.hand(msg["game"])
            assert hand is not None and len(hand.actions) >= msg["version"]
        self.sent.append(msg)

    async def close(self, code: int, reason: str) -> None:
        self.sent.append({"closed": code})


async def _table(hub: Hub, store: Store, name: str) -> tuple[Room, list[Client], list[_Socket]]:
    """A 宝子 room with three seated players, each with a socket, its hand dealt."""
    players = [store.create_player(f"{name}{i}")[0] for i in range(3)]
    room = await hub.create_room(players[0], "2001", OPTIONS, {}, 0)
    for p in players[1:]:
        room.join(p, None)
    clients, sockets = [], []
    for p in players:
        sock = _Socket(store)
        client = Client(p, sock.send_text, hub.limits, sock.close)
        asyncio.get_running_loop().create_task(client.writer())
        room.attach(client)
        clients.append(client)
        sockets.append(sock)
    for _ in range(1000):  # the deal is committed (a loaded machine may take a while)
        await room.settled()
        if room.acting() and not hub.journal.holds(room):
            break
        await asyncio.sleep(0.01)
    assert room.acting() and not hub.journal.holds(room), "the deal was not committed"
    return room, clients, sockets


def _bet(room: Room, seat: int, ref: str) -> str:
    legal = room.legal(seat)
    assert legal, f"seat {seat} should be to act: {room.acting()}"
    return json.dumps({"type": "action", "action": legal[0], "id": ref})


def test_actions_of_one_turn_share_a_commit_and_a_waiting_message_keeps_its_order(
    tmp_path: Path,
) -> None:
    store = Store(str(tmp_path / "group.db"))
    batches: list[list[str]] = []
    append = store.append_actions

    def recording(writes: list[ActionWrite | HandWrite]) -> None:
        batches.append([type(w).__name__ for w in writes])
        append(writes)

    store.append_actions = recording  # type: ignore[method-assign]

    async def scenario() -> None:
        hub = Hub(store, Limits(min_bot_delay=0))
        (a, a_clients, a_socks), (b, b_clients, b_socks) = [
            await _table(hub, store, n) for n in "ab"
        ]
        assert a.acting() == b.acting() == frozenset({1, 2})  # the players bet at once
        batches.clear()
        # one event-loop turn: seat 1 of each room acts, then seat 2 of room a
        handle(a, a_clients[1], _bet(a, 1, "a1"))
        handle(b, b_clients[1], _bet(b, 1, "b1"))
        handle(a, a_clients[2], _bet(a, 2, "a2"))
        # nothing is told before the commit; a's second action waits for it
        assert hub.journal.holds(a) and hub.journal.holds(b)
        assert a.deferred == 1 and len(hub.journal.pending) == 2
        assert not [m for s in a_socks + b_socks for m in s.sent if m["type"] == "update"]
        while a.deferred or hub.journal.holds(a) or hub.journal.holds(b):
            await a.settled()
            await b.settled()
        await asyncio.sleep(0.05)  # the sockets' writers send what the rooms queued
        # the two rooms' actions went in one transaction; a2 in the next one
        assert batches[:2] == [["ActionWrite", "ActionWrite"], ["ActionWrite"]]
        for socks, refs in ((a_socks, ["a1", "a2"]), (b_socks, ["b1"])):
            for seat, sock in enumerate(socks):
                updates = [m for m in sock.sent if m["type"] == "update"]
                assert [m["version"] for m in updates] == list(range(1, len(refs) + 1))
                assert [m["seat"] for m in updates] == [1, 2][: len(refs)]
                mine = [m["ref"] for m in updates if m["ref"] is not None]
                assert mine == [r for i, r in enumerate(refs) if i + 1 == seat]
        hand = store.hand(a.hand_id)
        assert hand is not None and [s for s, _, _ in hand.actions] == [1, 2]
        for c in a_clients + b_clients:
            c.close(1000, "bye")
        hub.shutdown()

    asyncio.run(scenario())
    store.close()


def test_a_group_commit_leaves_no_cycle_for_the_garbage_collector(tmp_path: Path) -> None:
    """Every commit's batch is freed as soon as it has landed, by reference counting alone.
    A cycle through the batch (its future's callback holding the batch) would leave every
    commit to the cyclic collector, whose pauses stall every room of the process: under a
    paced load of 1,000 sockets they made the slowest 1% of actions 3x slower."""
    import concurrent.futures
    import gc

    from paiju.server.journal import _Flight, _Pending

    store = Store(str(tmp_path / "cycles.db"))

    async def scenario() -> None:
        hub = Hub(store, Limits(min_bot_delay=0))
        room, clients, _ = await _table(hub, store, "c")
        for seat in (1, 2):
            handle(room, clients[seat], _bet(room, seat, f"c{seat}"))
            while room.deferred or hub.journal.holds(room):
                await room.settled()
        for c in clients:
            c.close(1000, "bye")
        hub.shutdown()

    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        asyncio.run(scenario())
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = [
            type(o).__name__
            for o in gc.garbage
            if isinstance(o, _Flight | _Pending | concurrent.futures.Future)
        ]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()
    store.close()
    assert left == [], f"commits left to the cyclic collector: {left}"
