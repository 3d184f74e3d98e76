"""Load benchmark of the game server: N WebSocket clients on 127.0.0.1 playing real games.

    .venv/bin/python bench/server_load.py --connections 200 --seconds 20
    .venv/bin/python bench/server_load.py --connections 1000 --seconds 20
    .venv/bin/python bench/server_load.py --connections 1000 --seconds 20 --pace 2
    .venv/bin/python bench/server_load.py --connections 1000 --pace 2 --rounds 3 --no-echo

It starts ``paiju serve`` (uvicorn with uvloop/httptools) on a free loopback port with a
fresh SQLite file, registers one player per connection, seats them (all human) at tables
of 1301 (十三张) and 2001 (宝子) that play hand after hand, and lets every client act as
soon as the rules allow (``--pace 0``) or at a human pace (``--pace 2``: one action per
connection every 2 s on average; each think time varies by ``--jitter``, ±50% by default,
as people's do - ``--jitter 0`` makes every client a metronome, and since a decision that
comes late is taken at once, metronomes fall into step and act in bursts). Then the same
clients run against a bare WebSocket echo server (the ``websockets`` library on uvloop)
in the same run: the ceiling; and a bare websocket room server (rooms of ``--seats``
sockets acting in turn, each action broadcast as one small text, no rules nor store):
the baseline of what a table costs the server, printed as the ratio of the server's CPU
an action.

Printed: hands settled per second, actions per second, p50/p99 latency from an action to
its broadcast (the actor's own ``update``), errors, lost actions (sent, neither refused
nor in the database's action log at the end), and the ratio of the game's action rate
to the echo server's round-trip rate. Everything is counted over ``--seconds`` after a
``--warmup`` in which the clients already play: the start, when every table deals at once
and every client's first decision falls in the same ``pace`` seconds, is not steady state
(default: 2 s flat out, three think times paced). Bounded in time (``--warmup`` +
``--seconds`` per phase plus set-up) and connections (``--connections`` at most 4,000);
127.0.0.1 only.

The game's and the bare room server's clients are driven from several processes (one
per 1,000 clients, or ``--client-processes``; each table's seats in one process): one
process's event loop is the limit past about a thousand clients, and the latency it
measured past that was its own. ``--connections 250,1000,4000`` runs each size in turn
and prints their p99s together. ``--profile FILE`` profiles the server's measured window
only (``cpu_profile.py``).

    .venv/bin/python bench/server_load.py --connections 250,1000,4000 --pace 2 --no-echo
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import uvloop
import websockets

MAX_CONNECTIONS = 4_000
BENCH_LIMITS = {
    "registrations_per_address": 100_000,
    "rooms_per_address": 100_000,
    "sockets_per_address": 100_000,
    "connections_per_address": 100_000,
    # flat out, a client of a small load acts faster than a person may (20 a second):
    # the bench measures the server, not its flood limit
    "messages_per_second": 100_000,
    "burst": 100_000,
    "min_bot_delay": 0,
}
HOST = "127.0.0.1"


def raise_file_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, needed))
    if want > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def queue_wait(pid: int) -> float:
    """Seconds the process's main thread has spent runnable but waiting for a CPU (the
    kernel's run-queue delay, /proc/PID/schedstat): time other processes took from it."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


@dataclass
class Cpu:
    """CPU seconds of the server and of this load generator over a phase, and the
    seconds the server waited for a CPU while it had work (machine contention)."""

    server: float = 0.0
    clients: float = 0.0
    server_waited: float = 0.0
    counted: dict[str, float] = field(default_factory=dict)
    """What the servers' ``/metrics`` counters (:data:`COUNTERS`) rose by over the phase."""

    def per_commit(self) -> float:
        """Writes (actions and new hands) a group commit stored, on average."""
        c = self.counted
        writes = c.get("paiju_actions_total", 0.0) + c.get("paiju_hands_total", 0.0)
        return writes / (c.get("paiju_commit_seconds_count") or float("nan"))

    @staticmethod
    def now(pid: int) -> tuple[float, float, float]:
        """The server's CPU seconds, this process's, and the server's wait for a CPU."""
        return cpu_seconds(pid), time.process_time(), queue_wait(pid)

    def since(self, start: tuple[float, float, float], end: tuple[float, float, float]) -> None:
        """Keep what was used between two readings of :meth:`now`."""
        used = [b - a for a, b in zip(start, end, strict=True)]
        self.server, self.clients, self.server_waited = used


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def absolute_path_env() -> dict[str, str]:
    """This process's environment with ``PYTHONPATH``'s folders made absolute: a server
    runs in its own folder, where ``PYTHONPATH=src`` would name nothing and the installed
    package (another checkout's code) would be served and measured instead."""
    env = dict(os.environ)
    paths = env.get("PYTHONPATH")
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(
            str(Path(p).resolve()) if p else p for p in paths.split(os.pathsep)
        )
    return env


def start(cmd: list[str], port: int, folder: Path, name: str) -> subprocess.Popen[bytes]:
    log = (folder / f"{name}.log").open("wb")
    proc = subprocess.Popen(
        cmd, stdout=log, stderr=subprocess.STDOUT, cwd=str(folder), env=absolute_path_env()
    )
    end = time.monotonic() + 60
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=0.5):
            return proc
        if proc.poll() is not None:
            raise SystemExit(f"{name} exited: {(folder / f'{name}.log').read_text()}")
        time.sleep(0.1)
    raise SystemExit(f"{name} did not start")


def serve(folder: Path, port: int, profile: list[str] | None = None) -> subprocess.Popen[bytes]:
    """``paiju serve`` on ``port`` with a fresh database in ``folder`` (``profile``: the
    command that wraps it, if any)."""
    return start(
        [
            sys.executable,
            *(profile or []),
            str(Path(sys.executable).parent / "paiju"),
            "serve",
            "--port",
            str(port),
            "--db",
            str(folder / "bench.db"),
            # every client of the bench comes from 127.0.0.1: the operator lifts the
            # per-address limits (and the per-player ones the bench's tables exceed)
            *(f"--limit={name}={value}" for name, value in BENCH_LIMITS.items()),
        ],
        port,
        folder,
        "server",
    )


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


ECHO_SERVER = """
import asyncio, sys
import uvloop, websockets
async def echo(ws):
    async for message in ws:
        await ws.send(message)
async def main():
    async with websockets.serve(echo, "127.0.0.1", int(sys.argv[1]), max_queue=None,
                                compression=None, backlog=4096):
        await asyncio.Future()
uvloop.run(main())
"""


ROOM_SERVER = """
import asyncio, json, sys
import uvloop, websockets
SEATS = int(sys.argv[2])
rooms = {}
async def play(ws):
    hello = json.loads(await ws.recv())
    room = rooms.setdefault(hello["room"], {"sockets": {}, "version": 0})
    seat = hello["seat"]
    room["sockets"][seat] = ws
    if len(room["sockets"]) == SEATS:
        websockets.broadcast(list(room["sockets"].values()),
                             json.dumps({"type": "update", "version": 0, "turn": 0}))
    async for message in ws:
        msg = json.loads(message)
        turn = room["version"] % SEATS
        if seat != turn:
            await ws.send(json.dumps({"type": "error", "code": "not_your_turn"}))
            continue
        room["version"] += 1
        text = json.dumps({"type": "update", "version": room["version"], "seat": seat,
                           "action": msg["action"], "turn": room["version"] % SEATS})
        websockets.broadcast(list(room["sockets"].values()), text)
async def main():
    async with websockets.serve(play, "127.0.0.1", int(sys.argv[1]), max_queue=None,
                                compression=None, backlog=4096):
        await asyncio.Future()
uvloop.run(main())
"""
"""A bare websocket room server (the ``websockets`` library on uvloop), the baseline of a
table's cost: rooms of ``--seats`` sockets play in turn, each action checked for its
turn and broadcast to the room as one small JSON text; no rules, no views, no store."""


@dataclass
class Clock:
    """Clients connect first, then all start together (``go``), play a warm-up that is not
    counted, are measured from ``since`` and stop at ``until``."""

    go: asyncio.Event
    since: float = 0.0
    until: float = 0.0
    connected: int = 0

    def measured(self, now: float) -> bool:
        return self.since <= now < self.until

    async def run(
        self, warmup: float, seconds: float, pid: int, cpu: Cpu, metrics: tuple[str, ...] = ()
    ) -> None:
        """Start the clients; measure the server's CPU over the measured window (and, given
        the servers' ``/metrics``, what their cyclic garbage collectors found meanwhile)."""
        self.since = time.monotonic() + warmup
        self.until = self.since + seconds
        self.go.set()
        await asyncio.sleep(warmup)
        # the CPU is read at the window's ends, the slower /metrics after each (on a busy
        # machine a read of it can take seconds: the window must not move with it)
        start = Cpu.now(pid)
        before = await counters(metrics)
        await asyncio.sleep(max(0.0, self.until - time.monotonic()))
        cpu.since(start, Cpu.now(pid))
        after = await counters(metrics)
        cpu.counted = {name: after[name] - before[name] for name in COUNTERS}


COUNTERS = (
    "python_gc_objects_collected_total",
    "python_gc_collections_total",
    "paiju_commit_seconds_count",
    "paiju_actions_total",
    "paiju_hands_total",
)
"""The ``/metrics`` counters a phase reports: the cyclic garbage collector's work (each
collection pauses every room) and the group commits' size."""


async def counters(urls: tuple[str, ...]) -> dict[str, float]:
    """The :data:`COUNTERS` of servers so far, from their ``/metrics``, summed over their
    labels (generations) and the servers."""
    found = dict.fromkeys(COUNTERS, 0.0)
    async with httpx.AsyncClient(timeout=30) as client:
        for url in urls:
            for line in (await client.get(url)).text.splitlines():
                name = line.split("{", 1)[0]
                if name in found:
                    found[name] += float(line.rsplit(" ", 1)[1])
    return found


@dataclass
class Stats:
    sent: int = 0
    acked: int = 0
    errors: int = 0
    failures: int = 0
    refused: int = 0
    messages: int = 0
    phase_messages: int = 0
    """Messages received (by the game clients: from the server) before the phase's end."""
    phase_acked: int = 0
    """Actions (echo: round trips) answered before the phase's end."""
    latencies: list[float] = field(default_factory=list)
    hands: set[tuple[int, int]] = field(default_factory=set)
    error_samples: list[str] = field(default_factory=list)


def choose(msg: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """An action from what the seat is sent: a listed legal action, else (十三张) an
    arrangement of the seat's 13 cards in the view (a weak one may foul: 倒水 is legal)."""
    legal = msg.get("legal")
    if legal:
        action: dict[str, Any] = rng.choice(legal)
        return action
    view = msg["view"]
    if view.get("must_declare"):
        return {"type": "declare"}
    cards = str(view.get("hand", "")).split()
    if len(cards) == 13:
        rng.shuffle(cards)
        return {
            "type": "arrange",
            "front": " ".join(cards[:3]),
            "middle": " ".join(cards[3:8]),
            "back": " ".join(cards[8:]),
        }
    return None


async def game_client(
    url: str, token: str, stats: Stats, clock: Clock, pace: float, jitter: float, seed: int
) -> None:
    """One seat's player. Paced (``pace`` > 0), each decision is taken ``pace`` seconds
    times a uniform factor in [1 - jitter, 1 + jitter] after the seat's previous action
    (one action every ``pace`` seconds on average), or at once when the decision comes
    later than that; the first at a uniform moment of the first ``pace`` seconds."""
    rng = random.Random(seed)
    async with websockets.connect(
        url,
        additional_headers={"Authorization": f"Bearer {token}"},
        compression=None,
        open_timeout=60,
        max_queue=None,
    ) as ws:
        seat: int | None = None
        latest: dict[str, Any] | None = None
        while latest is None:  # the welcome and the seat's state come before the start
            first = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if first["type"] == "welcome":
                seat = first["seat"]
            elif first["type"] in ("state", "update"):
                latest = first
        clock.connected += 1
        await clock.go.wait()
        until = clock.until
        pending: dict[int, tuple[float, bool]] = {}
        counter = 0
        next_at = time.monotonic() + rng.random() * pace
        waiting = False

        def think() -> float:
            return pace * rng.uniform(1 - jitter, 1 + jitter)

        async def act() -> None:
            nonlocal counter, next_at, waiting
            if latest is None or pending or waiting or time.monotonic() >= until:
                return
            if seat not in latest["view"]["to_act"]:
                return
            action = choose(latest, rng)
            if action is None:
                return
            if pace > 0:
                wait = next_at - time.monotonic()
                if wait > 0:
                    waiting = True
                    await asyncio.sleep(wait)
                    waiting = False
                    if time.monotonic() >= until or pending:
                        return
                    if latest is None or seat not in latest["view"]["to_act"]:
                        return
                    action = choose(latest, rng)
                    if action is None:
                        return
            counter += 1
            text = json.dumps(
                {"type": "action", "action": action, "id": counter, "game": latest["game"]}
            )
            pending[counter] = (time.perf_counter(), clock.measured(time.monotonic()))
            next_at = time.monotonic() + think()
            try:
                await ws.send(text)
            except websockets.ConnectionClosed:
                pending.pop(counter, None)
                return
            stats.sent += 1

        thinking: set[asyncio.Task[None]] = set()

        def act_later() -> None:
            task = asyncio.get_running_loop().create_task(act())
            thinking.add(task)
            task.add_done_callback(thinking.discard)

        act_later()
        while True:
            now = time.monotonic()
            if now >= until + 30 or (now >= until and not pending and not waiting):
                return
            try:  # paced actions are tasks of their own: this only waits for messages
                async with asyncio.timeout(max(until - now, 0.25)):  # no task per message
                    text = await ws.recv()
            except TimeoutError:
                continue
            stats.messages += 1
            in_phase = clock.measured(time.monotonic())
            stats.phase_messages += in_phase
            msg = json.loads(text)
            kind = msg["type"]
            ref = msg.get("ref")
            if ref is not None and ref in pending:
                began, counted = pending.pop(ref)
                if kind == "error":
                    stats.errors += 1
                    stats.refused += 1
                    if len(stats.error_samples) < 5:
                        stats.error_samples.append(f"{msg['code']}: {msg['message']}")
                else:
                    stats.acked += 1
                    stats.phase_acked += in_phase
                    if counted:
                        stats.latencies.append(time.perf_counter() - began)
            elif kind == "error":
                stats.errors += 1
                if len(stats.error_samples) < 5:
                    stats.error_samples.append(f"{msg['code']}: {msg['message']}")
            if kind == "hand_over" and in_phase:
                stats.hands.add((msg["room"], msg["game"]))
            if kind in ("state", "update"):
                latest = msg
                if pace > 0:
                    act_later()
                else:
                    await act()


async def echo_client(url: str, stats: Stats, clock: Clock, payload: str) -> None:
    async with websockets.connect(url, compression=None, open_timeout=60) as ws:
        clock.connected += 1
        await clock.go.wait()
        while time.monotonic() < clock.until:
            began, began_at = time.perf_counter(), time.monotonic()
            stats.sent += 1
            await ws.send(payload)
            await ws.recv()
            in_phase = clock.measured(time.monotonic())
            stats.acked += 1
            stats.messages += 1
            stats.phase_acked += in_phase
            stats.phase_messages += in_phase
            if clock.measured(began_at):
                stats.latencies.append(time.perf_counter() - began)


async def room_client(
    url: str,
    room: int,
    seat: int,
    seats: int,
    stats: Stats,
    clock: Clock,
    pace: float,
    jitter: float,
    rng: random.Random,
) -> None:
    """A seat of the bare room server: on its turn it acts (after its think time, paced as
    the game clients are), and times its action to its broadcast."""
    async with websockets.connect(url, compression=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"room": room, "seat": seat}))
        clock.connected += 1
        await clock.go.wait()
        began: float | None = None
        began_at = 0.0
        async for text in ws:
            now = time.monotonic()
            if now >= clock.until:
                break
            msg = json.loads(text)
            in_phase = clock.measured(now)
            stats.messages += 1
            stats.phase_messages += in_phase
            if msg.get("seat") == seat and began is not None:
                stats.acked += 1
                stats.phase_acked += in_phase
                if clock.measured(began_at):
                    stats.latencies.append(time.perf_counter() - began)
                began = None
            if msg.get("turn") == seat:
                if pace:
                    await asyncio.sleep(pace * rng.uniform(1 - jitter, 1 + jitter))
                began, began_at = time.perf_counter(), time.monotonic()
                stats.sent += 1
                await ws.send(json.dumps({"type": "action", "action": {"type": "pass"}}))


async def connect_all(factories: list[Any], batch: int = 100) -> list[asyncio.Task[None]]:
    tasks = []
    for i in range(0, len(factories), batch):
        tasks.extend(asyncio.create_task(f()) for f in factories[i : i + batch])
        await asyncio.sleep(0.05)
    return tasks


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def setup_tables(base: str, n: int, codes: list[str], seats: int) -> list[tuple[int, str]]:
    """Register n players and seat them at tables of ``seats``: (room, token) per client."""
    client = httpx.Client(base_url=base, timeout=30)
    tokens = [client.post("/api/players", json={"name": f"b{i}"}).json()["token"] for i in range(n)]
    out: list[tuple[int, str]] = []
    options = {
        "seats": seats,
        "time_limit": 60,
        "bot_delay": 0,
        "pause": 0,
        "hands": 10_000,
        "tuoguan": "off",
    }
    for t, first in enumerate(range(0, n - n % seats, seats)):
        group = tokens[first : first + seats]
        auth = {"Authorization": f"Bearer {group[0]}"}
        body = {"code": codes[t % len(codes)], "options": options, "seat": 0}
        answer = client.post("/api/rooms", json=body, headers=auth)
        answer.raise_for_status()
        room = answer.json()["room"]["id"]
        out.append((room, group[0]))
        for token in group[1:]:
            joined = client.post(
                f"/api/rooms/{room}/join", json={}, headers={"Authorization": f"Bearer {token}"}
            )
            joined.raise_for_status()
            out.append((room, token))
    client.close()
    return out


def game_clients(
    port: int, part: list[tuple[int, tuple[int, str]]], args: argparse.Namespace
) -> ClientsOf:
    """The game's clients of one load process: ``(i, (room, token))`` each, the ``i``-th
    seated client (seeded by ``i``)."""

    def make(stats: Stats, clock: Clock) -> list[Any]:
        return [
            (
                lambda r=room, t=token, i=i: game_client(
                    f"ws://{HOST}:{port}/ws/rooms/{r}", t, stats, clock, args.pace, args.jitter, i
                )
            )
            for i, (room, token) in part
        ]

    return make


def room_clients(port: int, part: list[int], args: argparse.Namespace) -> ClientsOf:
    """The bare room server's clients of one load process: the seats numbered ``part``
    (seat ``i`` sits in room ``i // seats``)."""
    seats = args.seats

    def make(stats: Stats, clock: Clock) -> list[Any]:
        return [
            (
                lambda i=i: room_client(
                    f"ws://{HOST}:{port}/",
                    i // seats,
                    i % seats,
                    seats,
                    stats,
                    clock,
                    args.pace,
                    args.jitter,
                    random.Random(7_000_003 * i),
                )
            )
            for i in part
        ]

    return make


ClientsOf = Any
"""Makes one load process's clients: ``(stats, clock) -> [coroutine function]``."""


def load_processes(args: argparse.Namespace, n: int) -> int:
    """How many processes drive ``n`` clients: ``--client-processes``, else one per
    :data:`PER_PROCESS` clients (one process's loop is the limit past about a thousand)."""
    wanted = args.client_processes or -(-n // PER_PROCESS)
    return max(1, min(wanted, n // max(1, args.seats) or 1))


PER_PROCESS = 1_000


def parts(items: list[Any], k: int, seats: int) -> list[list[Any]]:
    """``items`` cut into ``k`` runs of whole tables (each table's seats in one process)."""
    tables = [items[i : i + seats] for i in range(0, len(items), seats)]
    return [[x for table in tables[j::k] for x in table] for j in range(k) if tables[j::k]]


def _load_process(conn: Connection, make: ClientsOf, settle: bool) -> None:
    """One load process: its clients connect, say so, wait for the window, play it, and
    send back what they counted and the CPU this process used over the window."""
    uvloop.run(_drive_clients(conn, make, settle))


async def _drive_clients(conn: Connection, make: ClientsOf, settle: bool) -> None:
    stats = Stats()
    clock = Clock(asyncio.Event())
    factories = make(stats, clock)
    tasks = await connect_all(factories)
    deadline = time.monotonic() + 120
    while clock.connected < len(factories) and time.monotonic() < deadline:
        if all(t.done() for t in tasks):
            break
        await asyncio.sleep(0.1)
    conn.send(clock.connected)
    loop = asyncio.get_running_loop()
    clock.since, clock.until = await loop.run_in_executor(None, conn.recv)
    clock.go.set()

    async def used() -> float:
        await asyncio.sleep(max(0.0, clock.since - time.monotonic()))
        start = time.process_time()
        await asyncio.sleep(max(0.0, clock.until - time.monotonic()))
        return time.process_time() - start

    cpu = asyncio.create_task(used())
    if settle:  # the game's clients end on their own, once their actions are answered
        results = await asyncio.gather(*tasks, return_exceptions=True)
    else:  # the bare room server's play on: they are stopped
        await asyncio.sleep(max(0.0, clock.until - time.monotonic()) + 0.5)
        for t in tasks:
            t.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        results = [r for r in results if not isinstance(r, asyncio.CancelledError)]
    failures = [r for r in results if isinstance(r, BaseException)]
    stats.error_samples.extend(f"client failed: {f!r}" for f in failures[:3])
    stats.failures += len(failures)
    conn.send((stats, await cpu))


def drive(
    makers: list[ClientsOf],
    args: argparse.Namespace,
    seconds: float,
    pid: int,
    metrics: tuple[str, ...] = (),
    profiled: bool = False,
    settle: bool = True,
) -> tuple[Stats, Cpu]:
    """Run each maker's clients in a process of its own; once every process's clients
    are connected, all start together, play ``--warmup`` seconds, then ``seconds``
    measured: the server's CPU over that window (``profiled``: the server's profile
    covers it alone, see ``cpu_profile.py``), the load processes' CPU, and what the
    clients counted, summed."""
    context = multiprocessing.get_context("fork")  # no event loop runs here yet
    links = []
    for make in makers:
        mine, theirs = context.Pipe()
        process = context.Process(target=_load_process, args=(theirs, make, settle))
        process.start()
        links.append((process, mine))
    try:
        for _, link in links:
            if not link.poll(300):
                raise SystemExit("a load process did not connect its clients in 300 s")
            link.recv()
        since = time.monotonic() + args.warmup
        until = since + seconds
        for _, link in links:
            link.send((since, until))
        cpu = Cpu()
        time.sleep(max(0.0, since - time.monotonic()))
        if profiled:
            os.kill(pid, signal.SIGUSR1)
        start = Cpu.now(pid)
        before = asyncio.run(counters(metrics))
        time.sleep(max(0.0, until - time.monotonic()))
        cpu.since(start, Cpu.now(pid))
        if profiled:
            os.kill(pid, signal.SIGUSR2)
        after = asyncio.run(counters(metrics))
        cpu.counted = {name: after[name] - before[name] for name in COUNTERS}
        stats = Stats()
        cpu.clients = 0.0
        for _, link in links:
            if not link.poll(120):
                raise SystemExit("a load process did not report within 120 s of the end")
            part, used = link.recv()
            merge(stats, part)
            cpu.clients += used
    finally:
        for process, _ in links:
            process.join(10)
            if process.is_alive():
                process.kill()
    return stats, cpu


def merge(into: Stats, part: Stats) -> None:
    """Add what one load process's clients counted."""
    for name in (
        "sent",
        "acked",
        "errors",
        "failures",
        "refused",
        "messages",
        "phase_messages",
        "phase_acked",
    ):
        setattr(into, name, getattr(into, name) + getattr(part, name))
    into.latencies.extend(part.latencies)
    into.hands |= part.hands
    into.error_samples.extend(part.error_samples[: max(0, 5 - len(into.error_samples))])


async def run_echo(
    port: int, n: int, seconds: float, warmup: float, payload: str, pid: int, cpu: Cpu
) -> tuple[Stats, float]:
    """The same number of clients against the echo server, timed like the game phase:
    all connect first, then echo one message at a time each for ``seconds``."""
    stats = Stats()
    clock = Clock(asyncio.Event())
    factories = [
        (lambda: echo_client(f"ws://{HOST}:{port}/", stats, clock, payload)) for _ in range(n)
    ]
    tasks = await connect_all(factories)
    deadline = time.monotonic() + 120
    while clock.connected < n and time.monotonic() < deadline:
        if all(t.done() for t in tasks):
            break
        await asyncio.sleep(0.1)
    measuring = asyncio.create_task(clock.run(warmup, seconds, pid, cpu))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.failures += sum(isinstance(r, BaseException) for r in results)
    await measuring
    return stats, seconds


@dataclass
class EchoPhase:
    """One echo phase: what the clients counted, its seconds, the server's CPU."""

    stats: Stats
    seconds: float
    cpu: Cpu

    @property
    def msgs(self) -> float:
        """Messages a second, in and out (each round trip one in, one out)."""
        return 2 * self.stats.phase_acked / self.seconds

    @property
    def msgs_per_cpu(self) -> float:
        """Messages handled a CPU-second of the server."""
        return self.msgs * self.seconds / self.cpu.server if self.cpu.server > 0 else 0.0


@dataclass
class GamePhase(EchoPhase):
    """One game phase: as an echo phase, and what the database stored, the load average
    before it, the clients seated."""

    stored: int
    load: float
    connections: int

    @property
    def msgs(self) -> float:
        """Messages the server handled a second: the actions in, every message out."""
        return (self.stats.phase_acked + self.stats.phase_messages) / self.seconds


def game_phase(args: argparse.Namespace, n: int, seconds: float) -> GamePhase:
    """A fresh ``paiju serve`` and its database, ``n`` clients at its tables."""
    folder = Path(tempfile.mkdtemp(prefix="paiju-bench-"))
    port = free_port()
    profile = (
        [str(Path(__file__).with_name("cpu_profile.py")), args.profile] if args.profile else []
    )
    if args.profile:  # cpu_profile.py profiles the measured window only
        os.environ["PAIJU_PROFILE_WINDOW"] = "1"
    server = serve(folder, port, profile)
    try:
        seated = setup_tables(f"http://{HOST}:{port}", n, args.codes.split(","), args.seats)
        load = os.getloadavg()[0]
        k = load_processes(args, len(seated))
        makers = [
            game_clients(port, part, args) for part in parts(list(enumerate(seated)), k, args.seats)
        ]
        metrics = (f"http://{HOST}:{port}/metrics",)
        game, cpu = drive(makers, args, seconds, server.pid, metrics, bool(args.profile))
        game_time = seconds
    finally:
        stop(server)
    db = sqlite3.connect(folder / "bench.db")
    stored = db.execute("select count(*) from actions where actor = 'player'").fetchone()[0]
    db.close()
    return GamePhase(game, game_time, cpu, stored, load, len(seated))


def echo_phase(args: argparse.Namespace, n: int, seconds: float) -> EchoPhase:
    """The echo server, ``n`` clients echoing one message at a time each."""
    folder = Path(tempfile.mkdtemp(prefix="paiju-bench-echo-"))
    payload = json.dumps({"type": "action", "action": {"type": "bet", "amount": 10}, "id": 1})
    eport = free_port()
    echo = start([sys.executable, "-c", ECHO_SERVER, str(eport)], eport, folder, "echo")
    cpu = Cpu()
    try:
        stats, echo_time = uvloop.run(
            run_echo(eport, n, seconds, args.warmup, payload, echo.pid, cpu)
        )
    finally:
        stop(echo)
    return EchoPhase(stats, echo_time, cpu)


def room_phase(args: argparse.Namespace, n: int, seconds: float) -> EchoPhase:
    """The bare room server, ``n`` clients seated in rooms of ``--seats``."""
    folder = Path(tempfile.mkdtemp(prefix="paiju-bench-room-"))
    port = free_port()
    room = start(
        [sys.executable, "-c", ROOM_SERVER, str(port), str(args.seats)], port, folder, "room"
    )
    try:
        time.sleep(0.5)
        seats = list(range(n - n % args.seats))
        makers = [
            room_clients(port, part, args)
            for part in parts(seats, load_processes(args, len(seats)), args.seats)
        ]
        stats, cpu = drive(makers, args, seconds, room.pid, settle=False)
    finally:
        stop(room)
    return EchoPhase(stats, seconds, cpu)


def report_room(r: EchoPhase, n: int) -> None:
    per_action = 1000 * r.cpu.server / r.stats.phase_acked if r.stats.phase_acked else 0.0
    print(
        f"bare room server: {n} connections, actions/s {r.stats.phase_acked / r.seconds:10.1f},"
        f" p50 {pct(r.stats.latencies, 0.5):.1f} ms, p99 {pct(r.stats.latencies, 0.99):.1f} ms,"
        f" errors {r.stats.errors + r.stats.failures}; server CPU {per_action:.3f} ms an action"
        f" ({100 * r.cpu.server / r.seconds:.0f}% of one core),"
        f" {r.stats.phase_messages / max(1, r.stats.phase_acked):.2f} messages sent an action"
    )


def cpu_per_action(p: EchoPhase) -> float:
    return p.cpu.server / p.stats.phase_acked if p.stats.phase_acked else float("nan")


def report_game(args: argparse.Namespace, g: GamePhase, seconds: float) -> None:
    game, game_time, game_cpu = g.stats, g.seconds, g.cpu
    lost = game.sent - g.stored - game.refused
    unanswered = game.sent - game.acked - game.refused
    paced = f"{args.pace:g} s ± {args.jitter:.0%}" if args.pace else "flat out"
    print(
        f"paiju server load: {g.connections} connections, codes {args.codes}, "
        f"{args.seats} seats a table, pace {paced}, "
        f"{seconds:g} s measured after {args.warmup:g} s of warm-up"
    )
    print(f"  hands settled/s     {len(game.hands) / game_time:10.1f}   ({len(game.hands)} hands)")
    print(
        f"  actions/s           {game.phase_acked / game_time:10.1f}   "
        f"({game.acked} answered of {game.sent} sent)"
    )
    print(
        f"  server msgs/s       {g.msgs:10.1f}   ({game.phase_messages / game_time:.1f}/s out"
        f" to the clients, {game.phase_acked / game_time:.1f}/s actions in)"
    )
    print(
        f"  latency p50 / p99   {pct(game.latencies, 0.5):7.1f} ms / "
        f"{pct(game.latencies, 0.99):.1f} ms"
        "   (action -> its broadcast to the actor)"
    )
    print(
        f"  errors              {game.errors + game.failures:10d}   "
        f"({game.errors} error messages, {game.failures} failed clients) {game.error_samples[:3]}"
    )
    print(
        f"  lost actions        {lost:10d}   (sent {game.sent}, refused {game.refused}, "
        f"in the database {g.stored}; {unanswered} still unanswered 30 s after the end)"
    )
    print(
        f"  CPU                 server {100 * game_cpu.server / game_time:.0f}%, "
        f"load generator {100 * game_cpu.clients / game_time:.0f}% of one core; "
        f"load average {g.load:.1f} at the start ({os.cpu_count()} cores); the server "
        f"waited for a CPU {100 * game_cpu.server_waited / game_time:.0f}% of the time"
    )
    if game_cpu.server > 0 and game.phase_acked:
        print(
            f"  server CPU          {1000 * game_cpu.server / game.phase_acked:.2f} ms an action, "
            f"{g.msgs_per_cpu:.0f} msgs a CPU-second"
        )
        print(
            f"  cyclic garbage      "
            f"{game_cpu.counted['python_gc_objects_collected_total'] / game.phase_acked:10.2f}"
            f"   objects an action, found by "
            f"{game_cpu.counted['python_gc_collections_total']:.0f} collections"
            " (each a pause of every room)"
        )
        print(f"  group commits       {game_cpu.per_commit():10.1f}   writes each on average")


def report_echo(e: EchoPhase, n: int) -> None:
    print(
        f"echo ceiling: {n} connections, round trips/s {e.msgs / 2:10.1f} "
        f"= {e.msgs:.1f} msgs/s in + out, p50 {pct(e.stats.latencies, 0.5):.1f} ms, "
        f"p99 {pct(e.stats.latencies, 0.99):.1f} ms, "
        f"errors {e.stats.errors + e.stats.failures}; "
        f"CPU server {100 * e.cpu.server / e.seconds:.0f}%, "
        f"load generator {100 * e.cpu.clients / e.seconds:.0f}%"
    )


def ratios(g: GamePhase, e: EchoPhase) -> tuple[float, float]:
    """game : echo in messages a second handled, and in messages a server CPU-second."""
    per_cpu = g.msgs_per_cpu / e.msgs_per_cpu if e.msgs_per_cpu else float("nan")
    return g.msgs / e.msgs, per_cpu


def one_size(args: argparse.Namespace, n: int, seconds: float) -> tuple[float, float, float]:
    """Every round's phases with ``n`` clients; the medians over the rounds of the game's
    p99, the bare room server's p99 and the ratio of their CPU an action."""
    found: list[tuple[float, float]] = []
    p99s: list[float] = []
    room_p99s: list[float] = []
    tables: list[float] = []
    for r in range(max(1, args.rounds)):
        order = ("game", "room", "echo") if r % 2 == 0 else ("room", "echo", "game")
        order = tuple(
            p
            for p in order
            if not (p == "echo" and args.no_echo) and not (p == "room" and args.no_room)
        )
        echo: EchoPhase | None = None
        game: GamePhase | None = None
        room: EchoPhase | None = None
        for phase in order:
            if phase == "room":
                room = room_phase(args, n, seconds)
                report_room(room, n)
                room_p99s.append(pct(room.stats.latencies, 0.99))
                continue
            if phase == "game":
                game = game_phase(args, n, seconds)
                report_game(args, game, seconds)
                p99s.append(pct(game.stats.latencies, 0.99))
            else:
                echo = echo_phase(args, n, seconds)
                report_echo(echo, n)
        if game is not None and room is not None:
            table = cpu_per_action(game) / cpu_per_action(room)
            tables.append(table)
            sent = [p.stats.phase_messages / max(1, p.stats.phase_acked) for p in (game, room)]
            print(
                f"ratio server CPU an action, game : bare room server = {table:.2f}"
                f"   (messages sent an action {sent[0]:.2f} : {sent[1]:.2f})"
            )
        if game is None or echo is None:
            continue
        handled, per_cpu = ratios(game, echo)
        found.append((handled, per_cpu))
        actions_per_trip = game.stats.phase_acked / game.seconds / (echo.msgs / 2)
        print(
            f"ratio (messages/s handled, in + out) game : echo = {handled:.2f}"
            f"   per server CPU-second: {per_cpu:.2f}"
            f"   (game actions/s : echo round trips/s = {actions_per_trip:.2f})"
        )
    if len(p99s) > 1:
        print(
            f"median of {len(p99s)} rounds: latency p99 = {statistics.median(p99s):.1f} ms"
            f"   (rounds: {', '.join(f'{p:.1f}' for p in p99s)})"
        )
    if len(tables) > 1:
        print(
            f"median of {len(tables)} rounds: server CPU an action, game : bare room server ="
            f" {statistics.median(tables):.2f}"
        )
    if len(found) > 1:
        print(
            f"median of {len(found)} rounds: game : echo = "
            f"{statistics.median(h for h, _ in found):.2f}   per server CPU-second: "
            f"{statistics.median(c for _, c in found):.2f}"
        )
    return (
        statistics.median(p99s) if p99s else float("nan"),
        statistics.median(room_p99s) if room_p99s else float("nan"),
        statistics.median(tables) if tables else float("nan"),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--connections",
        default="200",
        help="Clients (at most 4,000); several sizes comma-separated (250,1000,4000) are run"
        " in turn and their p99s printed together at the end.",
    )
    parser.add_argument(
        "--client-processes",
        type=int,
        default=0,
        help="Processes that drive the game's and the bare room server's clients"
        f" (default: one per {PER_PROCESS:,} clients).",
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="Length of each phase.")
    parser.add_argument(
        "--pace", type=float, default=0.0, help="Seconds between a client's actions (0: flat out)."
    )
    parser.add_argument(
        "--jitter",
        type=float,
        default=0.5,
        help="Paced: each think time is pace x uniform[1-jitter, 1+jitter] (0: a metronome).",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=None,
        help="Seconds played before the measured phase of each run (not counted); "
        "default: 2, or three think times (3 x pace) when paced.",
    )
    parser.add_argument("--codes", default="1301,2001")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--no-echo", action="store_true")
    parser.add_argument(
        "--no-room",
        action="store_true",
        help="Leave out the bare room server (the baseline of the server's CPU an action).",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="Play the game and the echo server this many times, each round in the other"
        " order, and print each round's ratio and p99 and their medians (one run's figures"
        " move by a quarter from one run to the next on a shared machine).",
    )
    parser.add_argument(
        "--profile",
        help="Write a cProfile of the server process (CPU time) over the measured window"
        " to this file.",
    )
    args = parser.parse_args()
    sizes = [min(int(c), MAX_CONNECTIONS) for c in str(args.connections).split(",")]
    if args.warmup is None:
        args.warmup = max(2.0, 3 * args.pace)
    seconds = min(args.seconds, 120.0)
    raise_file_limit(4 * max(sizes) + 256)
    found = [(n, one_size(args, n, seconds)) for n in sizes]
    if len(found) > 1:
        print(f"p99 at {' / '.join(f'{n:,}' for n, _ in found)} connections:")
        print(f"  paiju serve        {' / '.join(f'{g:.1f}' for _, (g, _, _) in found)} ms")
        if not args.no_room:
            print(f"  bare room server   {' / '.join(f'{r:.1f}' for _, (_, r, _) in found)} ms")
            ratios_ = " / ".join(f"{t:.2f}" for _, (_, _, t) in found)
            print(f"  server CPU an action, paiju : bare room server   {ratios_}")


if __name__ == "__main__":
    main()
