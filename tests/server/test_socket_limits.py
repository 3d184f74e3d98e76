"""What one socket can cost the others: a flood is told once and then closed, and a socket
that does not read is bounded by the bytes waiting for it, not by a count of messages.

docs/protocol.md section 7: past ``messages_per_second`` (burst ``burst``) a message is
dropped, the first one dropped answered ``rate_limited``; ``burst`` more close the socket
(4429). A socket with more than ``outbox_bytes`` unread is closed (4408 ``slow_consumer``)
and what waited for it let go. Rooms in process, sockets stood in for.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from socket_stub import SocketStub

from paiju.server.client import Client
from paiju.server.hub import Hub
from paiju.server.inbox import handle
from paiju.server.options import Limits, RoomOptions
from paiju.server.rows import PlayerRow
from paiju.server.store import Store

WAITING = RoomOptions(seats=2, fill_after=None, ready_check=True, time_limit=0, bot_delay=0)


def test_a_flood_is_told_once_and_closed_when_it_goes_on(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "flood.db"))
    # a bucket that does not refill within the test: five messages, then none
    limits = Limits(min_bot_delay=0, messages_per_second=1e-6, burst=5)

    async def scenario() -> SocketStub:
        hub = Hub(store, limits)
        ann = store.create_player("ann")[0]
        room = await hub.create_room(ann, "toy", WAITING, {}, 0)
        sock = SocketStub()
        client = Client(ann, sock.send_text, hub.limits, sock.close)
        writer = asyncio.get_running_loop().create_task(client.writer())
        room.attach(client)
        for i in range(1000):
            handle(room, client, json.dumps({"type": "ping", "id": i}))
        await asyncio.wait_for(writer, 10)  # it ends once the socket is closed
        hub.shutdown()
        return sock

    sock = asyncio.run(scenario())
    store.close()
    pongs = sock.of("pong")
    assert [p["id"] for p in pongs] == [0, 1, 2, 3, 4]
    assert sock.errors() == ["rate_limited"]  # once, for the first message dropped
    assert sock.of("error")[0]["ref"] == 5
    assert sock.sent[-1] == {"closed": 4429}  # after 5 more dropped, closed


def test_a_flood_is_cut_where_the_server_can_cut_it() -> None:
    """On the direct path the flood's close is written at once, and its connection cut
    (``drop``): nothing more of it is read."""
    limits = Limits(burst=3)
    dropped: list[tuple[int, str]] = []
    sock = SocketStub()
    client = Client(
        PlayerRow(1, "ann"),
        sock.send_text,
        limits,
        sock.close,
        drop=lambda *why: dropped.append(why),
    )
    for i in range(10):
        client.rate_limited(json.dumps({"type": "ping", "id": i}))
    assert client.closed and dropped == [(4429, "rate_limited")]


def test_a_message_let_through_starts_the_count_again() -> None:
    """A client a little over its rate now and then is told each time, never closed."""
    limits = Limits(burst=2)
    sock = SocketStub()
    client = Client(PlayerRow(1, "ann"), sock.send_text, limits, sock.close)
    for _ in range(3):
        client.rate_limited('{"type": "ping", "id": 1}')
        client.rate_limited('{"type": "ping", "id": 2}')
        client.bucket.give_back()
        assert client.allow()
    assert not client.closed
    told = [json.loads(text)["code"] for text in client.outbox if text is not None]
    assert told == ["rate_limited"] * 3


def test_a_socket_that_does_not_read_is_bounded_by_bytes() -> None:
    """Messages of 4 KB to a socket whose send never completes: the bytes waiting for it
    never pass ``outbox_bytes``, far below ``outbox`` messages of them; then it is closed
    (4408), dropped, and what waited let go."""
    limits = Limits(outbox_bytes=65_536, outbox=2_000)
    dropped: list[tuple[int, str]] = []
    never = asyncio.Event()

    async def send_text(text: str) -> None:
        await never.wait()

    async def close(code: int, reason: str) -> None:
        pass

    async def scenario() -> tuple[list[int], Client]:
        client = Client(
            PlayerRow(1, "ann"), send_text, limits, close, drop=lambda *why: dropped.append(why)
        )
        writer = asyncio.get_running_loop().create_task(client.writer())
        text = json.dumps({"type": "chat", "text": "牌" * 1_300})  # about 4 KB as UTF-8
        seen = []
        for _ in range(1_000):
            client.send(text)
            seen.append(client.queued)
            await asyncio.sleep(0)
        writer.cancel()
        return seen, client

    seen, client = asyncio.run(scenario())
    assert max(seen) <= limits.outbox_bytes
    assert client.closed and dropped == [(4408, "slow_consumer")]
    assert client.queued == 0 and list(client.outbox) == [None]
