"""The sockets' direct path (paiju.server.sockets): a room's texts written at once and a
socket's texts answered as they are read, in the order of the ASGI path, falling back to
it where the direct path cannot write; and a Client that keeps the order across both."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn
import websockets
from websockets.frames import Frame, Opcode

from paiju.server.client import Client
from paiju.server.net import GuardedHttp, open_connections
from paiju.server.options import Limits
from paiju.server.rows import PlayerRow
from paiju.server.sockets import (
    DIRECT,
    Direct,
    DirectWebSocket,
    Mailbox,
    Writable,
    _flush_soon,
    text_frame,
)
from server_process import free_port


class EchoApp:
    """An ASGI app on the direct path: it sends ``asgi-1`` through ASGI and ``direct-1``
    directly, then answers every text with ``echo:<text>`` directly (from the
    ``receive`` callback); ``pause`` makes the transport report its buffer full (the
    direct send must then refuse), ``resume`` drains it."""

    def __init__(self) -> None:
        self.refused: list[str] = []
        self.had_direct: bool | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return
        assert (await receive())["type"] == "websocket.connect"
        direct: Direct | None = scope.get("extensions", {}).get(DIRECT)
        self.had_direct = direct is not None
        await send({"type": "websocket.accept"})
        if direct is None:
            return
        protocol = direct["send"].__self__  # type: ignore[attr-defined]
        await send({"type": "websocket.send", "text": "asgi-1"})
        assert direct["send"]("direct-1")
        await asyncio.sleep(0.2)  # the client's first texts wait in the ASGI queue

        def on_text(text: str) -> None:
            if text == "pause":
                protocol.pause_writing()
                if not direct["send"]("while-paused"):
                    self.refused.append("while-paused")
                protocol.resume_writing()
            elif text == "boom":
                raise RuntimeError("a bug in one socket's handler")
            elif text == "drop":  # the room found it a slow consumer
                direct["drop"](4408, "slow_consumer")
                return
            assert direct["send"](f"echo:{text}")

        direct["receive"](on_text)
        while (await receive())["type"] != "websocket.disconnect":
            pass


@contextlib.asynccontextmanager
async def serving(app: Any) -> AsyncIterator[int]:
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, ws=DirectWebSocket, log_level="error")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        await task


def connected(port: int) -> Any:
    return websockets.connect(f"ws://127.0.0.1:{port}/", compression=None)


async def received(ws: Any, n: int) -> list[str]:
    return [await asyncio.wait_for(ws.recv(), 10) for _ in range(n)]


def test_direct_sends_and_answers_keep_the_order_of_the_asgi_path() -> None:
    app = EchoApp()

    async def main() -> None:
        async with serving(app) as port, connected(port) as ws:
            await ws.send("early-1")  # read before the app registers its callback
            await ws.send("early-2")
            first = await received(ws, 4)
            assert first == ["asgi-1", "direct-1", "echo:early-1", "echo:early-2"]
            for i in range(50):
                await ws.send(f"m{i}")
            assert await received(ws, 50) == [f"echo:m{i}" for i in range(50)]

    asyncio.run(main())
    assert app.had_direct is True


def test_a_full_buffer_refuses_the_direct_send() -> None:
    app = EchoApp()

    async def main() -> None:
        async with serving(app) as port, connected(port) as ws:
            await received(ws, 2)
            await ws.send("pause")
            assert await received(ws, 1) == ["echo:pause"]

    asyncio.run(main())
    assert app.refused == ["while-paused"]


def test_a_failing_handler_closes_its_own_socket_only() -> None:
    app = EchoApp()

    async def main() -> None:
        async with serving(app) as port, connected(port) as bad, connected(port) as good:
            await received(bad, 2)
            await received(good, 2)
            await bad.send("boom")
            with pytest.raises(websockets.ConnectionClosed):
                await received(bad, 1)
            await good.send("still here")
            assert await received(good, 1) == ["echo:still here"]

    asyncio.run(main())


class BurstApp:
    """Sends ``n`` texts directly in one turn of the loop, then one through ASGI, counting
    the transport's writes while it does."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.writes_in_turn: int | None = None
        self.writes_after: int | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return
        await receive()
        await send({"type": "websocket.accept"})
        direct: Direct = scope["extensions"][DIRECT]
        protocol = direct["send"].__self__  # type: ignore[attr-defined]
        writes: list[bytes] = []
        real_write = protocol.transport.write

        def counted(data: bytes) -> None:
            writes.append(data)
            real_write(data)

        protocol.transport.write = counted
        for i in range(self.n):
            assert direct["send"](f"burst-{i}")
        self.writes_in_turn = len(writes)  # nothing written yet: framed, waiting
        await asyncio.sleep(0)
        await send({"type": "websocket.send", "text": "after"})
        self.writes_after = len(writes)
        while (await receive())["type"] != "websocket.disconnect":
            pass


def test_a_dropped_socket_is_sent_its_close() -> None:
    """``drop``: the close frame (4408) goes behind what the connection buffers; a peer
    that reads gets it (one that never reads is cut ``DROP_GRACE`` seconds later)."""
    app = EchoApp()

    async def main() -> None:
        async with serving(app) as port, connected(port) as ws:
            await received(ws, 2)
            await ws.send("drop")
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await received(ws, 1)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408

    asyncio.run(main())


def test_the_texts_of_one_turn_leave_in_one_write() -> None:
    app = BurstApp(5)

    async def main() -> None:
        async with serving(app) as port, connected(port) as ws:
            assert await received(ws, 6) == [*(f"burst-{i}" for i in range(5)), "after"]

    asyncio.run(main())
    assert app.writes_in_turn == 0
    assert app.writes_after == 2  # the five texts together, then the ASGI one


class FlushedSocket:
    """What the end of a turn's flush asks of a socket (its ``flush``, its transport's
    ``abort``), counted; ``broken`` fails its write."""

    def __init__(self, broken: bool) -> None:
        self.broken = broken
        self.flushed = 0
        self.aborted = False
        self.transport = self

    def flush(self) -> None:
        self.flushed += 1
        if self.broken:
            raise OSError("broken pipe")

    def abort(self) -> None:
        self.aborted = True


def test_the_sockets_of_one_turn_are_flushed_by_one_callback_a_fault_staying_its_own() -> None:
    async def main() -> tuple[int, FlushedSocket, FlushedSocket]:
        loop = asyncio.get_running_loop()
        scheduled = 0
        call_soon = loop.call_soon

        def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal scheduled
            scheduled += 1
            return call_soon(*args, **kwargs)

        loop.call_soon = counted  # type: ignore[method-assign]
        broken, fine = FlushedSocket(broken=True), FlushedSocket(broken=False)
        try:
            _flush_soon(loop, broken)  # type: ignore[arg-type]
            _flush_soon(loop, fine)  # type: ignore[arg-type]
        finally:
            loop.call_soon = call_soon  # type: ignore[method-assign]
        await asyncio.sleep(0)
        return scheduled, broken, fine

    scheduled, broken, fine = asyncio.run(main())
    assert scheduled == 1
    assert (broken.flushed, broken.aborted) == (1, True)
    assert (fine.flushed, fine.aborted) == (1, False)


def client_with(send_now: Any, send_text: Any) -> Client:
    player = PlayerRow(id=1, name="甲")
    return Client(player, send_text, Limits(), lambda code, reason: None, send_now=send_now)


def test_the_client_queues_behind_what_could_not_go_at_once() -> None:
    """A text the direct path refuses waits for the writer; every later one queues behind
    it (also while the writer's own send is in flight), so the socket reads them in
    the order the room sent them."""
    wire: list[str] = []
    full = False
    gate = asyncio.Event()

    def send_now(text: str) -> bool:
        if full:
            return False
        wire.append(text)
        return True

    async def send_text(text: str) -> None:
        await gate.wait()
        wire.append(text)

    async def main() -> None:
        nonlocal full
        client = client_with(send_now, send_text)
        writer = asyncio.create_task(client.writer())
        client.send("1")
        full = True
        client.send("2")  # refused: queued
        full = False
        client.send("3")  # behind 2
        await asyncio.sleep(0)  # the writer takes 2 and waits in its send
        assert wire == ["1"] and list(client.outbox) == ["3"]
        client.send("4")  # the writer is sending: queued, not written ahead of 2
        gate.set()
        for _ in range(20):
            await asyncio.sleep(0)
        assert wire == ["1", "2", "3", "4"]
        client.send("5")  # nothing queued or in flight: at once
        assert wire[-1] == "5"
        client.close(1000, "bye")
        await writer

    asyncio.run(main())


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65_535, 65_536, 70_000])
def test_a_direct_text_is_framed_as_the_library_frames_it(size: int) -> None:
    """The direct path frames its texts itself; the bytes are those of websockets."""
    payload = ("牌" * (size // 3) + "x" * (size % 3)).encode()
    assert len(payload) == size
    ours = b"".join(text_frame(payload))
    theirs = Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])
    assert ours == theirs


def test_the_mailbox_hands_its_events_in_order_to_a_waiting_reader() -> None:
    async def main() -> None:
        box: Mailbox[int] = Mailbox()
        assert box.empty()
        with pytest.raises(asyncio.QueueEmpty):
            box.get_nowait()
        reader = asyncio.create_task(box.get())
        await asyncio.sleep(0)
        assert not reader.done()  # nothing yet: it waits
        box.put_nowait(1)
        box.put_nowait(2)
        assert await reader == 1
        assert not box.empty()
        assert box.get_nowait() == 2
        assert box.empty()

    asyncio.run(main())


def test_writable_holds_its_waiters_until_set() -> None:
    async def main() -> None:
        flag = Writable()
        assert flag.is_set()
        await asyncio.wait_for(flag.wait(), 1)  # set: no wait
        flag.clear()
        waiters = [asyncio.create_task(flag.wait()) for _ in range(3)]
        await asyncio.sleep(0.01)
        assert not any(w.done() for w in waiters) and not flag.is_set()
        flag.set()
        await asyncio.wait_for(asyncio.gather(*waiters), 1)

    asyncio.run(main())


def test_an_idle_socket_keeps_neither_its_http_protocol_nor_its_request() -> None:
    """What an open socket holds: once upgraded, the HTTP protocol that read its request
    (its parser, its scope) is let go, and so are the handshake's request and response;
    the per-address count moves to the socket and is released when it closes."""
    app = EchoApp()

    async def main() -> None:
        port = free_port()
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            http=GuardedHttp,
            ws=DirectWebSocket,
            log_level="error",
        )
        server = uvicorn.Server(config)
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        try:
            async with connected(port) as ws:
                await received(ws, 2)
                gc.collect()
                live = [o for o in gc.get_objects() if isinstance(o, GuardedHttp)]
                sockets = [o for o in gc.get_objects() if isinstance(o, DirectWebSocket)]
                assert live == [] and len(sockets) == 1
                assert sockets[0].request is None and sockets[0].response is None
                assert open_connections["127.0.0.1"] == 1
            for _ in range(100):
                if "127.0.0.1" not in open_connections:
                    break
                await asyncio.sleep(0.02)
            assert "127.0.0.1" not in open_connections
        finally:
            server.should_exit = True
            await task

    asyncio.run(main())
