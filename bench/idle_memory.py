"""What an idle socket costs the server in memory: ``paiju serve`` against a bare room server.

    PYTHONPATH=$PWD/src .venv/bin/python bench/idle_memory.py [--connections 400]

``paiju serve`` (the bench's limits, a fresh SQLite file) gets ``--connections`` players
seated at tables of four (1301 and 2001, as ``bench/server_load.py`` seats them); its
resident memory is read once the rooms exist, and again once every seat's socket is open,
has been sent its welcome and state, and sits idle (nobody acts; the clocks are a minute
long). Then the bare websocket room server of ``server_load.py`` (the ``websockets``
library on uvloop) gets as many sockets, each having said which room and seat it holds,
measured the same way, in the same run. Printed: KiB of resident memory a socket each way
(the growth over the count of sockets, so what the rooms' own state weighs at the
server's first reading is not counted, but a hand dealt when its table fills is) and the
ratio. A socket's buffers are the kernel's, outside both processes' memory.

``--compression deflate`` has the clients offer permessage-deflate, as browsers do (the
bench's other clients do not): what a socket holds then includes its compression state,
where the server accepts the extension.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

import uvloop
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))

import server_load as sl


def rss_kib(pid: int) -> int:
    """Resident memory of a process, in KiB (/proc/PID/status, VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise SystemExit(f"no VmRSS for process {pid}")


async def settle(pid: int) -> int:
    """The resident memory once it stops growing (the server has answered every socket)."""
    last = -1
    for _ in range(60):
        await asyncio.sleep(0.5)
        now = rss_kib(pid)
        if now == last:
            return now
        last = now
    return last


async def hold_game(
    port: int, seated: list[tuple[int, str]], pid: int, compression: str | None
) -> tuple[int, int]:
    """Open every seat's socket, read its first messages, then sit idle; the server's
    memory before and after."""
    before = rss_kib(pid)
    sockets = []
    for i in range(0, len(seated), 50):
        for room, token in seated[i : i + 50]:
            ws = await websockets.connect(
                f"ws://{sl.HOST}:{port}/ws/rooms/{room}",
                additional_headers={"Authorization": f"Bearer {token}"},
                compression=compression,
                open_timeout=60,
                max_queue=None,
            )
            sockets.append(ws)
        await asyncio.sleep(0.05)
    for ws in sockets:  # its welcome and first state
        await asyncio.wait_for(ws.recv(), 60)
    after = await settle(pid)
    for ws in sockets:
        await ws.close()
    return before, after


async def hold_room(
    port: int, n: int, seats: int, pid: int, compression: str | None
) -> tuple[int, int]:
    """As many sockets at the bare room server, each seated by its hello."""
    before = rss_kib(pid)
    sockets = []
    for i in range(n - n % seats):
        ws = await websockets.connect(
            f"ws://{sl.HOST}:{port}/", compression=compression, open_timeout=60, max_queue=None
        )
        await ws.send(json.dumps({"room": i // seats, "seat": i % seats}))
        sockets.append(ws)
    for ws in sockets:  # the start of its room
        await asyncio.wait_for(ws.recv(), 60)
    after = await settle(pid)
    for ws in sockets:
        await ws.close()
    return before, after


def game_memory(
    n: int, codes: list[str], seats: int, compression: str | None
) -> tuple[int, int, int]:
    folder = Path(tempfile.mkdtemp(prefix="paiju-bench-idle-"))
    port = sl.free_port()
    server = sl.serve(folder, port)
    try:
        seated = sl.setup_tables(f"http://{sl.HOST}:{port}", n, codes, seats)
        time.sleep(1)
        before, after = uvloop.run(hold_game(port, seated, server.pid, compression))
    finally:
        sl.stop(server)
    return before, after, len(seated)


def room_memory(n: int, seats: int, compression: str | None) -> tuple[int, int, int]:
    folder = Path(tempfile.mkdtemp(prefix="paiju-bench-idle-room-"))
    port = sl.free_port()
    room = sl.start(
        [sys.executable, "-c", sl.ROOM_SERVER, str(port), str(seats)], port, folder, "room"
    )
    try:
        time.sleep(0.5)
        before, after = uvloop.run(hold_room(port, n, seats, room.pid, compression))
    finally:
        sl.stop(room)
    return before, after, n - n % seats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=400)
    parser.add_argument("--codes", default="1301,2001")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument(
        "--compression",
        choices=["none", "deflate"],
        default="none",
        help="deflate: the clients offer permessage-deflate, as browsers do.",
    )
    args = parser.parse_args()
    compression = None if args.compression == "none" else args.compression
    n = min(args.connections, sl.MAX_CONNECTIONS)
    sl.raise_file_limit(2 * n + 256)
    g_before, g_after, g_n = game_memory(n, args.codes.split(","), args.seats, compression)
    r_before, r_after, r_n = room_memory(n, args.seats, compression)
    game = (g_after - g_before) / g_n
    bare = (r_after - r_before) / r_n
    print(
        f"paiju serve: {g_n} idle sockets at tables of {args.codes}: {g_before / 1024:.1f} MiB"
        f" -> {g_after / 1024:.1f} MiB, {game:.1f} KiB a socket"
    )
    print(
        f"bare room server: {r_n} idle sockets: {r_before / 1024:.1f} MiB ->"
        f" {r_after / 1024:.1f} MiB, {bare:.1f} KiB a socket"
    )
    print(f"ratio KiB a socket, paiju : bare room server = {game / bare:.2f}")


if __name__ == "__main__":
    main()
