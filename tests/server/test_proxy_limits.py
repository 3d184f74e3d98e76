"""Behind the documented proxy (nginx on the same host, ``X-Forwarded-For``), the cap of
connections per address counts each client, not the proxy: one client's idle sockets
through nginx (every one of them a connection from nginx's own address) must not lock
every other client out of the node. The proxy is played by the test itself: connections
from 127.0.0.1 (a trusted proxy by default) that name their client as nginx does."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
import websockets
from server_helpers import Server

from server_process import TEST_LIMITS

CAP = 5


@pytest.fixture
def node(tmp_path: Path) -> Server:
    server = Server(tmp_path)
    server.limits = {**TEST_LIMITS, "connections_per_address": CAP, "hello_timeout": 30}
    server.start()
    yield server  # type: ignore[misc]
    server.stop()


def _health(node: Server, client: str) -> int:
    answer = httpx.get(f"{node.base}/api/health", headers={"X-Forwarded-For": client}, timeout=10)
    return answer.status_code


def test_one_client_behind_the_proxy_does_not_lock_the_others_out(node: Server) -> None:
    async def run() -> None:
        hog = {"X-Forwarded-For": "203.0.113.7"}
        idle = [
            await websockets.connect(f"{node.ws_base}/ws/rooms/1", additional_headers=hog)
            for _ in range(CAP)
        ]
        try:
            # the client at its cap: its next socket and request are refused ...
            with pytest.raises(websockets.InvalidStatus):
                await websockets.connect(f"{node.ws_base}/ws/rooms/1", additional_headers=hog)
            assert await asyncio.to_thread(_health, node, "203.0.113.7") == 429
            # ... also when it puts another address in front (the proxy appends the real one)
            spoofed = await asyncio.to_thread(_health, node, "198.51.100.1, 203.0.113.7")
            assert spoofed == 429
            # every other client through the same proxy is served
            for other in ("198.51.100.1", "198.51.100.2", "2001:db8::1"):
                assert await asyncio.to_thread(_health, node, other) == 200
        finally:
            for ws in idle:
                await ws.close()
        assert await asyncio.to_thread(_health, node, "203.0.113.7") == 200

    asyncio.run(run())
