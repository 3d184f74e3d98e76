"""Compressed sockets are the operator's choice (docs/protocol.md section 7,
``ws_compression``): "off: sockets do not negotiate permessage-deflate (compressed
frames), which browsers offer". A socket offering it, as a browser does, is granted it
only where the operator turned it on; either way it plays."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import websockets
from server_helpers import Server

from server_process import TEST_LIMITS


@pytest.mark.parametrize("allowed", [False, True])
def test_a_socket_is_compressed_only_where_the_operator_allows(
    tmp_path: Path, allowed: bool
) -> None:
    server = Server(tmp_path)
    server.limits = {**TEST_LIMITS, "ws_compression": allowed}
    server.start()
    try:
        room, tokens = server.table("toy", 1)

        async def first_messages() -> tuple[list[str], list[str]]:
            async with websockets.connect(
                f"{server.ws_base}/ws/rooms/{room}",
                additional_headers={"Authorization": f"Bearer {tokens[0]}"},
                compression="deflate",
            ) as ws:
                kinds = [json.loads(await asyncio.wait_for(ws.recv(), 10))["type"]]
                kinds.append(json.loads(await asyncio.wait_for(ws.recv(), 10))["type"])
                return kinds, [e.name for e in ws.protocol.extensions]

        kinds, extensions = asyncio.run(first_messages())
    finally:
        server.stop()
    assert kinds[0] == "welcome" and kinds[1] == "hand_started"  # it plays
    assert extensions == (["permessage-deflate"] if allowed else [])
