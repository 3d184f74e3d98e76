"""Another room's pace and the health check while one client attacks a single server.

    .venv/bin/python bench/attacks.py                 # 4 s a phase, about 40 s in all
    .venv/bin/python bench/attacks.py --seconds 8
    .venv/bin/python bench/attacks.py --src ../other/src   # another checkout's server

It starts ``paiju serve`` on 127.0.0.1 with a fresh SQLite file (the code of ``--src``,
this checkout's by default). A room of four bots playing 放羊 (``bot_delay`` 0.1 s) is
followed by one spectator socket, which counts its updates a second; ``/api/health`` is
asked every 20 ms on a kept-alive connection, and its latencies give the p99. Each phase
runs ``--seconds`` after a second's start:

* ``none``: no attacker (the baseline of the same run);
* ``replay``: 32 connections of one client replaying one finished 麻将 hand (the seats in
  turn) and asking its proof, as fast as the answers come;
* ``flood``: one socket of one client sending pings flat out, opened again whenever the
  server closes it;
* ``slow``: 150 spectator sockets of one address on the watched room that never read
  (receive buffers of 4 KiB).

Printed per phase: the room's updates a second and their ratio to the baseline's, the
health check's p50/p99, the server's resident memory growth, and what the attacker was
answered. The goal: every ratio at least 0.90 and every p99 at most 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import contextlib
import json
import multiprocessing
import os
import queue
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent
LIMITS = {
    "min_bot_delay": 0,
    "registrations_per_address": 100_000,
    "rooms_per_address": 100_000,
    "bot_rooms_per_player": 1_000,
}
"""What the bench's operator allows (every client is 127.0.0.1); the limits under test
keep their defaults."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Server:
    def __init__(self, src: Path, folder: Path) -> None:
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(src.resolve())}
        cmd = [sys.executable, "-m", "paiju", "serve", "--port", str(self.port)]
        cmd += ["--db", str(folder / "paiju.db")]
        cmd += [f"--limit={k}={v}" for k, v in LIMITS.items()]
        log = (folder / "server.log").open("wb")
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=folder, env=env)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            if self.proc.poll() is not None:
                raise SystemExit((folder / "server.log").read_text())
            time.sleep(0.1)
        raise SystemExit("the server did not start")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def register(self, name: str) -> str:
        answer = httpx.post(f"{self.base}/api/players", json={"name": name})
        answer.raise_for_status()
        token: str = answer.json()["token"]
        return token

    def bot_room(self, token: str, code: str, **options: Any) -> int:
        body = {"code": code, "seat": None, "options": {"bots": 4, "seats": 4, **options}}
        answer = httpx.post(
            f"{self.base}/api/rooms", json=body, headers={"Authorization": f"Bearer {token}"}
        )
        answer.raise_for_status()
        room: int = answer.json()["room"]["id"]
        return room


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Watch:
    """The watched room's updates and the health check's latencies, by time."""

    def __init__(self) -> None:
        self.updates: list[float] = []
        self.lost = 0
        self.health: list[tuple[float, float]] = []

    async def follow(self, url: str, token: str) -> None:
        """Count the room's updates, following it again whenever the socket is lost (a
        stalled server misses its pings)."""
        while True:
            with contextlib.suppress(websockets.ConnectionClosed, OSError):
                async with websockets.connect(
                    url, max_size=None, additional_headers=bearer(token)
                ) as ws:
                    async for text in ws:
                        if json.loads(text).get("type") == "update":
                            self.updates.append(time.monotonic())
            self.lost += 1
            await asyncio.sleep(0.1)

    async def probe(self, base: str) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            while True:
                start = time.monotonic()
                with contextlib.suppress(httpx.HTTPError):  # unanswered: counted as waited
                    await http.get("/api/health")
                self.health.append((start, time.monotonic() - start))
                await asyncio.sleep(0.02)

    def window(self, start: float, end: float) -> tuple[float, float, float]:
        rate = sum(start <= t < end for t in self.updates) / (end - start)
        lat = [d * 1000 for t, d in self.health if start <= t < end]
        return rate, pct(lat, 0.5), pct(lat, 0.99)


Attack = Callable[[collections.Counter[str]], Awaitable[None]]
CONTEXT = multiprocessing.get_context("fork")


def replay_attack(base: str, game: int) -> Attack:
    async def attack(told: collections.Counter[str]) -> None:
        async def one(i: int) -> None:
            async with httpx.AsyncClient(base_url=base, timeout=60) as http:
                n = i
                while True:
                    n += 1
                    path = f"/api/games/{game}/replay?seat={n % 4}"
                    if n % 5 == 0:
                        path = f"/api/games/{game}/verify"
                    answer = await http.get(path)
                    told[str(answer.status_code)] += 1
                    if answer.status_code != 200:
                        await asyncio.sleep(0)  # a greedy client asks again at once

        await asyncio.gather(*(one(i) for i in range(32)))

    return attack


def flood_attack(url: str, token: str) -> Attack:
    async def attack(told: collections.Counter[str]) -> None:
        ping = json.dumps({"type": "ping"})
        while True:
            try:
                async with websockets.connect(
                    url, max_size=None, additional_headers=bearer(token)
                ) as ws:
                    told["opened"] += 1

                    async def drain(ws: Any = ws) -> None:
                        async for _ in ws:
                            told["answers"] += 1

                    reader = asyncio.create_task(drain())
                    try:
                        while True:
                            await ws.send(ping)
                            told["sent"] += 1
                    finally:
                        reader.cancel()
            except (websockets.ConnectionClosed, OSError) as exc:
                code = getattr(getattr(exc, "rcvd", None), "code", None)
                told[f"closed {code}"] += 1
                await asyncio.sleep(0.05)

    return attack


def slow_attack(port: int, room: int, tokens: list[str]) -> Attack:
    async def attack(told: collections.Counter[str]) -> None:
        held = []
        for i in range(150):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect((HOST, port))
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall(
                (
                    f"GET /ws/rooms/{room} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                    f"Authorization: Bearer {tokens[i // 8]}\r\n"
                    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                    f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                ).encode()
            )
            held.append(s)
        told["sockets"] = len(held)
        try:
            await asyncio.Event().wait()  # never read
        finally:
            for s in held:
                s.close()

    return attack


class Attacker:
    """An attack run for ``seconds`` in a process of its own: the attacker's own work
    never slows the bench's watch (a client of its own, on another core where there is
    one), as a real attacker's machine would not."""

    def __init__(self, attack: Attack, seconds: float) -> None:
        self.answers: multiprocessing.Queue[dict[str, int]] = CONTEXT.Queue()
        self.proc = CONTEXT.Process(target=_attack, args=(attack, seconds, self.answers))
        self.proc.start()

    async def result(self) -> collections.Counter[str]:
        try:
            told = await asyncio.to_thread(self.answers.get, True, 30)
        except queue.Empty:  # stuck on a server that does not answer: stopped
            self.proc.kill()
            told = {"attacker stuck": 1}
        await asyncio.to_thread(self.proc.join, 10)
        return collections.Counter(told)


def _attack(attack: Attack, seconds: float, answers: multiprocessing.Queue[dict[str, int]]) -> None:
    told: collections.Counter[str] = collections.Counter()

    async def bounded() -> None:
        try:
            await asyncio.wait_for(attack(told), seconds)
        except TimeoutError:
            pass
        except Exception as exc:  # what stopped the attacker, shown with its answers
            told[f"stopped by {type(exc).__name__}"] += 1

    asyncio.run(bounded())
    answers.put(dict(told))


async def finished_hand(server: Server, token: str) -> int:
    room = server.bot_room(
        token, "anshan-majiang", hands=1, bot_delay=0, pause=0, claim_window=0.01, seed_wait=0
    )
    async with httpx.AsyncClient(base_url=server.base) as http:
        for _ in range(1200):
            games = (await http.get(f"/api/games?room={room}")).json()
            if games:
                game: int = games[0]["id"]
                return game
            await asyncio.sleep(0.1)
    raise SystemExit("the 麻将 hand did not finish")


async def run(args: argparse.Namespace, server: Server) -> None:
    owner = server.register("owner")
    game = await finished_hand(server, owner)
    watched = server.bot_room(owner, "anshan-fangyang", bot_delay=0.1, pause=0, hands=10_000)
    spectator = server.register("watcher")
    ws_url = f"ws://{HOST}:{server.port}/ws/rooms/{watched}"
    tokens = [server.register(f"slow{i}") for i in range(19)]
    flooder = server.register("flooder")
    watch = Watch()
    background = [
        asyncio.create_task(watch.follow(ws_url, spectator)),
        asyncio.create_task(watch.probe(server.base)),
    ]
    phases: list[tuple[str, Attack | None]] = [
        ("none", None),
        ("replay", replay_attack(server.base, game)),
        ("flood", flood_attack(ws_url, flooder)),
        ("slow", slow_attack(server.port, watched, tokens)),
    ]
    await asyncio.sleep(1.0)
    base_rate = None
    print(
        f"{'attack':8} {'updates/s':>9} {'ratio':>6} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'RSS +MiB':>8}  attacker was answered"
    )
    for name, attack in phases:
        before = rss_kib(server.proc.pid)
        attacker = None if attack is None else Attacker(attack, 1.0 + args.seconds)
        await asyncio.sleep(1.0)
        start = time.monotonic()
        await asyncio.sleep(args.seconds)
        end = time.monotonic()
        grew = (rss_kib(server.proc.pid) - before) / 1024
        told = collections.Counter[str]() if attacker is None else await attacker.result()
        rate, p50, p99 = watch.window(start, end)
        base_rate = base_rate or rate
        ratio = rate / base_rate if base_rate else float("nan")
        shown = ", ".join(f"{k}: {v}" for k, v in sorted(told.items())) or "-"
        print(f"{name:8} {rate:9.2f} {ratio:6.2f} {p50:7.1f} {p99:7.1f} {grew:8.1f}  {shown}")
        await asyncio.sleep(1.0)  # the attacker's connections close
    for task in background:
        task.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds measured a phase")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the server's code")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = Server(args.src, Path(folder))
        try:
            asyncio.run(run(args, server))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
