"""Load benchmark of a cluster: the load of ``bench/server_load.py`` against 1, 2 and 4 nodes.

    .venv/bin/python bench/cluster_load.py --connections 200 --seconds 15
    .venv/bin/python bench/cluster_load.py --connections 400 --seconds 15 --nodes 1,2,4
    .venv/bin/python bench/cluster_load.py --connections 200 --seconds 10 --nodes 1,2 --rounds 3
    .venv/bin/python bench/cluster_load.py --connections 500 --pace 2 --nodes 1,2 --scale-out

It starts a throwaway PostgreSQL and Redis (``tests/pg.py``, ``tests/redis_server.py``),
then for each run a fresh database and: the baseline, one ``paiju serve --db postgresql://…``
(a single process, no ``--redis``); then 1, 2, 4 cluster nodes (``--redis``). The same
clients (``server_load.game_client``: one player per connection, all human, flat out or
``--pace``) sit at tables of 1301 and 2001 created round-robin through the nodes, each
client on its room's node (its ``ws``). Printed per run: actions/s, p50/p99 latency from an
action to its broadcast, errors, lost actions (sent, neither refused nor in the action
log), the ratio of actions/s per node against the single process of the same run, and the
CPU per action of the nodes (all of them together) and of PostgreSQL (its postmaster and
backends), each as a ratio against the single process of the same run.
With two or more nodes it then times a call passed on between nodes (the CPU the passing
node spends on it: a room's 总结算 asked of a node that does not hold the room; beside it,
the holder's CPU for the same call asked of it directly), and
kills one node (``kill -9``) and times the failover: from the kill to every room of that
node held by a live node again.

A process's CPU per action grows as its load shrinks (fewer messages share each turn of
its loop and each group commit), and a cluster of N nodes splits the same clients N ways.
``--per-node`` also runs the single process at the load one node carries (connections / N)
and prints each cluster's CPU per action against it too: what a node costs beyond a
process of its own load, apart from the split.
``--scale-out`` instead gives N nodes N times the connections, each node carrying the single
process's load, as when nodes are added for more players. On one host the nodes share its
cores: flat out, N nodes have no more CPU than one, so each serves a share of the actions
and gathers that share of the writes a commit; at a human pace (``--pace``), where the host
has CPU to spare, each node serves as many actions as the single process (what one group
commit costs by its size: ``bench/commit_cost.py``).

On a shared two-core machine one run's CPU per action moves by a third from one run to the
next (three runs of one node in a row measured 1.50x, 1.11x and 0.96x the single process,
the first run after the single process the slowest): ``--rounds R`` plays everything R
times, each round in the other order, and prints the medians beside every run.

Each run starts on a fresh database, and its tables grow by hundreds of hands a second. A
plan PostgreSQL caches while a table is small stays until the table is analyzed again: the
settle statement's cached plan seq-scans ``hands`` on a fresh database, and a run of
seconds ends before the default autovacuum (a minute apart) analyzes it. The server runs
with :data:`STEADY` (autovacuum every second, analyzing a table after 5% of it changed), so
that the plans are those of a database in service, not of the first minute of a new one.
``--pg-setting NAME=VALUE`` sets more (or other) settings of the throwaway PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import uvloop

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import server_load as sl  # noqa: E402
from pg import PostgresCluster, find_bindir  # noqa: E402
from redis_server import RedisServer, find_redis_server  # noqa: E402

PAIJU = str(Path(sys.executable).parent / "paiju")
STEADY = ["autovacuum_naptime=1", "autovacuum_analyze_scale_factor=0.05"]
"""PostgreSQL's settings for plans of a database in service (see the module docs)."""


def add_pg_setting(parser: argparse.ArgumentParser) -> None:
    """The option ``--pg-setting NAME=VALUE`` (repeatable): settings of the bench's
    throwaway PostgreSQL, after its own (:data:`STEADY`)."""
    parser.add_argument(
        "--pg-setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting of the throwaway PostgreSQL (repeatable), after the bench's own (STEADY)",
    )


def start_nodes(
    count: int | None, dsn: str, redis: str | None, folder: Path, spacing: float | None = None
) -> list[tuple[Any, int, str]]:
    """``count`` cluster nodes (None: one single server): (process, port, name); a node's
    ``--commit-spacing`` is ``spacing`` (None: the server's default)."""
    out = []
    for i in range(count or 1):
        port = sl.free_port()
        name = f"n{i}"
        cmd = [PAIJU, "serve", "--port", str(port), "--db", dsn]
        # every client comes from 127.0.0.1: server_load's operator limits
        cmd += [f"--limit={name}={value}" for name, value in sl.BENCH_LIMITS.items()]
        if count is not None and redis is not None:
            cmd += ["--redis", redis, "--node", name]
            if spacing is not None:
                cmd += ["--commit-spacing", str(spacing)]
        proc = sl.start(cmd, port, folder, name)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                if httpx.get(f"http://{sl.HOST}:{port}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        out.append((proc, port, name))
    return out


def seat_everyone(
    ports: list[int], n: int, codes: list[str], seats: int
) -> list[tuple[str, str, int]]:
    """Tables made through each node in turn: (socket URL, token, room) per client."""
    seated: list[tuple[str, str, int]] = []
    per = max(seats, (n // len(ports)) // seats * seats)
    for i, port in enumerate(ports):
        base = f"http://{sl.HOST}:{port}"
        want = per if i < len(ports) - 1 else n - len(seated)
        for room, token in sl.setup_tables(base, want, codes, seats):
            info = httpx.get(
                f"{base}/api/rooms/{room}", headers={"Authorization": f"Bearer {token}"}
            ).json()
            url = info.get("ws") or f"ws://{sl.HOST}:{port}/ws/rooms/{room}"
            seated.append((url, token, room))
    return seated


def pg_pids(pg: PostgresCluster) -> list[int]:
    """The PostgreSQL server's processes: its postmaster and every child it has now."""
    master = int((pg.data / "postmaster.pid").read_text().split()[0])
    pids = [master]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            pids.append(int(stat.parent.name))
    return pids


def pg_kinds(pids: list[int]) -> dict[str, list[int]]:
    """PostgreSQL's processes by kind, as their titles name them: ``backend`` for every
    client connection, else the background process's own name (walwriter, checkpointer,
    autovacuum launcher...)."""
    kinds: dict[str, list[int]] = {}
    for pid in pids:
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        rest = title.split("postgres: ", 1)[1].strip() if "postgres: " in title else "postmaster"
        kind = "backend" if "(" in rest or "[local]" in rest else rest
        kinds.setdefault(f"pg {kind}", []).append(pid)
    return kinds


def cpu_of(pids: list[int]) -> dict[int, float]:
    out: dict[int, float] = {}
    for pid in pids:
        try:
            out[pid] = sl.cpu_seconds(pid)
        except OSError:  # a backend that ended
            continue
    return out


async def cpu_over(
    warmup: float,
    seconds: float,
    groups: dict[str, list[int]] | Any,
    profile: Path | None = None,
) -> dict[str, float]:
    """CPU seconds each group of processes used over the measured window (the processes
    alive at both ends: PostgreSQL's pooled backends live through a run)."""
    await asyncio.sleep(warmup)
    named = groups()
    spies = [spy(pid, seconds, profile) for pid in named["nodes"]] if profile else []
    before = {name: cpu_of(pids) for name, pids in named.items()}
    await asyncio.sleep(seconds)
    after = {name: cpu_of(pids) for name, pids in groups().items()}
    for process in spies:
        await asyncio.to_thread(process.wait)
    return {
        name: sum(now[pid] - t for pid, t in before[name].items() if pid in now)
        for name in before
        for now in [after.get(name, {})]  # a kind of process may end (an autovacuum worker)
    }


def spy(pid: int, seconds: float, folder: Path) -> subprocess.Popen[bytes]:
    """``py-spy record`` of one server process over the measured window (``--py-spy``):
    its stacks, 200 samples a second, as folded lines. Without blocking the process,
    py-spy cannot tell a wait from work: the samples count the loop's waits for sockets
    and the commit thread's for the database too, so compare runs frame by frame, not as
    CPU time."""
    command = [str(Path(sys.executable).with_name("py-spy")), "record", "--nonblocking"]
    command += ["-r", "200", "-f", "raw", "-d", str(math.ceil(seconds)), "-p", str(pid)]
    command += ["-o", str(folder / f"{pid}.txt")]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def play(
    seated: list[tuple[str, str, int]],
    seconds: float,
    pace: float,
    warmup: float,
    pid: int,
    groups: Any,
    metrics: tuple[str, ...],
    profile: Path | None = None,
) -> tuple[sl.Stats, dict[str, float], sl.Cpu]:
    stats = sl.Stats()
    clock = sl.Clock(asyncio.Event())
    factories = [
        (lambda u=url, t=token, i=i: sl.game_client(u, t, stats, clock, pace, 0.5, i))
        for i, (url, token, _) in enumerate(seated)
    ]
    tasks = await sl.connect_all(factories)
    deadline = time.monotonic() + 120
    while clock.connected < len(seated) and time.monotonic() < deadline:
        if all(t.done() for t in tasks):
            break
        await asyncio.sleep(0.1)
    counted = sl.Cpu()  # what the nodes' /metrics counted over the phase
    measuring = asyncio.create_task(clock.run(warmup, seconds, pid, counted, metrics))
    cpu = asyncio.create_task(cpu_over(warmup, seconds, groups, profile))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [r for r in results if isinstance(r, BaseException)]
    stats.error_samples.extend(f"client failed: {f!r}" for f in failures[:3])
    stats.failures += len(failures)
    await measuring
    return stats, await cpu, counted


def stored_player_actions(dsn: str) -> int:
    import psycopg

    with psycopg.connect(dsn) as conn:
        row = conn.execute("select count(*) from actions where actor = 'player'").fetchone()
        return int(row[0]) if row else 0


STATEMENTS = """SELECT calls, plans, total_exec_time, total_plan_time, rows, query
    FROM pg_stat_statements
    WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
    ORDER BY total_exec_time + total_plan_time DESC LIMIT %s"""


def reset_statements(dsn: str) -> None:
    """Start counting the statements of ``dsn`` from nothing (``--statements``)."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        conn.execute("SELECT pg_stat_statements_reset()")


def top_statements(dsn: str, limit: int, actions: int) -> list[str]:
    """The statements that took PostgreSQL the longest in ``dsn``, per action of the run
    (warm-up included: the counts start before it): calls and milliseconds per 1,000
    actions (executing it, and planning it), the share of its calls that were planned (a
    prepared statement's kept plan is not), rows per call, and the statement's first
    words."""
    import psycopg

    with psycopg.connect(dsn) as conn:
        rows = conn.execute(STATEMENTS, (limit,)).fetchall()
    per = 1000 / max(actions, 1)
    return [
        f"    {calls * per:8.1f} calls {ms * per:8.1f} ms +{plan * per:6.1f} planning /1k actions"
        f" {plans / max(calls, 1):4.0%} planned {n / max(calls, 1):6.1f} rows a call   "
        + " ".join(str(query).split())[:80]
        for calls, plans, ms, plan, n, query in rows
    ]


PASSED_ON = 100
"""Calls a run passes from one node to another to time (:func:`passed_on_cost`)."""


def passed_on_cost(
    nodes: list[tuple[Any, int, str]], seated: list[tuple[str, str, int]]
) -> tuple[float, float]:
    """Milliseconds of CPU a call passed on to another node costs the passing node, and the
    same call answered by the holder itself costs the holder (the baseline): :data:`PASSED_ON`
    calls of a room's 总结算 (``GET /api/rooms/R/summary``) made to the first node for a
    room the second one holds (the first passes each on), then as many made to the second
    node, one after another, after the play."""
    other = f":{nodes[1][1]}/"
    room, token = next((r, t) for url, t, r in seated if other in url)
    headers = {"Authorization": f"Bearer {token}"}
    spent = []
    with httpx.Client(timeout=10) as client:
        for proc, port, _ in nodes[:2]:
            url = f"http://{sl.HOST}:{port}/api/rooms/{room}/summary"
            assert client.get(url, headers=headers).status_code == 200  # a warm path
            before = sl.cpu_seconds(proc.pid)
            for _ in range(PASSED_ON):
                answer = client.get(url, headers=headers)
                assert answer.status_code == 200, answer.text
            spent.append((sl.cpu_seconds(proc.pid) - before) / PASSED_ON * 1000)
    return spent[0], spent[1]


def failover(nodes: list[tuple[Any, int, str]], seated: list[tuple[str, str, int]]) -> float:
    """kill -9 of the first node; seconds until each of its rooms is held by another."""
    proc, _, victim = nodes[0]
    token = seated[0][1]
    mine = {room for url, _, room in seated if f":{nodes[0][1]}/" in url}
    live = nodes[1][1]
    proc.kill()
    proc.wait(10)
    killed = time.monotonic()
    while time.monotonic() - killed < 60:
        rooms = httpx.get(
            f"http://{sl.HOST}:{live}/api/rooms",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        ).json()
        held = {r["id"]: r.get("node") for r in rooms if r["id"] in mine}
        if all(node not in (None, victim) for node in held.values()):
            return time.monotonic() - killed
        time.sleep(0.1)
    return float("nan")


Run = tuple[str, int, sl.Stats, int, float, dict[str, float], sl.Cpu, tuple[float, float]]
"""One run: its label, nodes, the clients' counts, lost actions, the failover's seconds
(NaN without one), CPU seconds of the nodes and of PostgreSQL, what the nodes counted,
the passing node's CPU milliseconds a call passed on and the holder's answering it itself
(NaN with one node)."""


def run_once(
    args: argparse.Namespace,
    n: int,
    count: int | None,
    pg: PostgresCluster,
    redis: RedisServer,
    folder: Path,
    statements: dict[str, list[list[str]]],
) -> Run:
    """The single process (``count`` None) or ``count`` nodes on a fresh database, played
    by ``n`` clients."""
    label = "single process" if count is None else f"{count} node{'s' * (count > 1)}"
    if count is None and n != min(args.connections, sl.MAX_CONNECTIONS):
        label = f"single at {n}"  # the load one node of a cluster carries (--per-node)
    dsn = pg.create_database()
    nodes = start_nodes(count, dsn, redis.fresh_url(), folder, args.commit_spacing)
    try:
        seated = seat_everyone([p for _, p, _ in nodes], n, args.codes.split(","), args.seats)
        node_pids = [proc.pid for proc, _, _ in nodes]
        if args.statements:
            reset_statements(dsn)

        def groups(node_pids: list[int] = node_pids) -> dict[str, list[int]]:
            everything = pg_pids(pg)
            kinds = pg_kinds(everything) if args.pg_processes else {}
            return {"nodes": node_pids, "postgres": everything, **kinds}

        metrics = tuple(f"http://{sl.HOST}:{port}/metrics" for _, port, _ in nodes)
        profile = None
        if args.py_spy is not None:
            profile = args.py_spy / label.replace(" ", "-")
            profile.mkdir(parents=True, exist_ok=True)
        stats, cpu, counted = uvloop.run(
            play(
                seated,
                args.seconds,
                args.pace,
                args.warmup,
                nodes[0][0].pid,
                groups,
                metrics,
                profile,
            )
        )
        lost = stats.sent - stored_player_actions(dsn) - stats.refused
        if args.statements:
            everything = stored_player_actions(dsn)
            lines = top_statements(dsn, args.statements, everything)
            statements.setdefault(label, []).append(lines)  # one list a round
        several = bool(count and count >= 2)
        passed = passed_on_cost(nodes, seated) if several else (float("nan"), float("nan"))
        took = failover(nodes, seated) if several else float("nan")
    finally:
        for proc, _, _ in nodes:
            sl.stop(proc)
    return (label, count or 1, stats, lost, took, cpu, counted, passed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--pace", type=float, default=0.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--nodes", default="1,2,4")
    parser.add_argument("--codes", default="1301,2001")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="play the single process and every node count this many times, each round"
        " in the other order, and print the medians (the machine's noise between runs"
        " is often larger than the difference measured)",
    )
    parser.add_argument(
        "--commit-spacing",
        type=float,
        metavar="SECONDS",
        help="the nodes' --commit-spacing (default: the server's own)",
    )
    parser.add_argument(
        "--per-node",
        action="store_true",
        help="also run the single process at the load one node of each cluster carries"
        " (connections / nodes) and print each cluster's CPU per action against it: what a"
        " node costs beyond a process of its own load, apart from the load being split",
    )
    parser.add_argument(
        "--scale-out",
        action="store_true",
        help="give a cluster of N nodes N times the connections (each node carries the"
        " single process's load, as when nodes are added for more players) instead of"
        " splitting the same connections N ways",
    )
    parser.add_argument(
        "--statements",
        type=int,
        default=0,
        metavar="N",
        help="print each run's N statements that took PostgreSQL longest (pg_stat_statements)",
    )
    parser.add_argument(
        "--pg-processes",
        action="store_true",
        help="split PostgreSQL's CPU per action by process (the backends serving the nodes,"
        " and each background process)",
    )
    parser.add_argument(
        "--py-spy",
        type=Path,
        metavar="DIR",
        help="record each server process's stacks over the measured window with py-spy (not"
        " a dependency: pip install py-spy) into DIR/<run>/<pid>.txt, folded",
    )
    add_pg_setting(parser)
    args = parser.parse_args()
    if args.scale_out and args.per_node:
        parser.error("--per-node measures the split of one load; --scale-out does not split it")
    n = min(args.connections, sl.MAX_CONNECTIONS)
    counts = [int(c) for c in args.nodes.split(",")]
    most = min(n * max(counts), sl.MAX_CONNECTIONS) if args.scale_out else n
    sl.raise_file_limit(4 * most + 512)
    bindir, redis_bin = find_bindir(), find_redis_server()
    if bindir is None or redis_bin is None:
        raise SystemExit("needs PostgreSQL (initdb, pg_ctl) and redis-server installed")
    preload = (
        ["shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track_planning=on"]
        if args.statements
        else []
    )
    pg = PostgresCluster(bindir, [*preload, *STEADY, *args.pg_setting]).start()
    redis = RedisServer(redis_bin).start()
    folder = Path(tempfile.mkdtemp(prefix="paiju-cluster-bench-"))
    runs: list[Run] = []
    statements: dict[str, list[list[str]]] = {}
    order: list[tuple[int | None, int]] = [(None, n)]
    order += [(c, min(n * c, sl.MAX_CONNECTIONS) if args.scale_out else n) for c in counts]
    if args.per_node:
        order += [(None, n // c) for c in counts if c > 1]
    try:
        for r in range(args.rounds):
            for count, clients in order if r % 2 == 0 else order[::-1]:
                runs.append(run_once(args, clients, count, pg, redis, folder, statements))
    finally:
        redis.stop()
        pg.stop()
    paced = f"pace {args.pace:g} s" if args.pace else "flat out"
    load = f"{n} connections a node (scaled out)" if args.scale_out else f"{n} connections"
    print(
        f"paiju cluster load: {load}, {paced}, {args.seconds:g} s measured after"
        f" {args.warmup:g} s; PostgreSQL and Redis on this host; load average"
        f" {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores, shared)"
    )
    singles = [r for r in runs if r[0] == "single process"]
    base = statistics.median(r[2].phase_acked for r in singles) / args.seconds or float("nan")
    base_node = statistics.median(per_action(r, "nodes") for r in singles)
    base_pg = statistics.median(per_action(r, "postgres") for r in singles)
    print(
        f"each run below; the ratios are against the median single process of the"
        f" {args.rounds} round{'s' * (args.rounds > 1)} (rounds alternate their order)"
    )
    for run in runs:
        label, count, stats, lost, took, _, counted, passed = run
        rate = stats.phase_acked / args.seconds
        fail = "" if took != took else f"   failover {took:.1f} s"
        if passed[0] == passed[0]:
            fail += (
                f"   a call passed on {passed[0]:.2f} ms CPU ({passed[0] / passed[1]:.2f}x the"
                f" holder answering it, {passed[1]:.2f} ms)"
            )
        actions = stats.phase_acked or 1
        node_ms = per_action(run, "nodes") * 1000  # every node's CPU, per action of the cluster
        pg_ms = per_action(run, "postgres") * 1000
        print(
            f"  {label:15s} actions/s {rate:8.1f}  per node {rate / count:8.1f}"
            f" ({rate / count / base:.2f}x the single process)   p50/p99"
            f" {sl.pct(stats.latencies, 0.5):6.1f} / {sl.pct(stats.latencies, 0.99):6.1f} ms"
            f"   errors {stats.errors + stats.failures}   lost {lost}{fail}"
        )
        print(
            f"  {'':15s} CPU per action: nodes {node_ms:.2f} ms"
            f" ({node_ms / 1000 / base_node:.2f}x the single process),"
            f" PostgreSQL {pg_ms:.2f} ms ({pg_ms / 1000 / base_pg:.2f}x);"
            f" {counted.per_commit():.1f} writes a commit; cyclic garbage"
            f" {counted.counted['python_gc_objects_collected_total'] / actions:.2f}"
            " objects an action"
        )
        alone = at_one_nodes_load(runs, n, count)
        if alone is not None:
            print(
                f"  {'':15s} against a single process at one node's load ({n // count}"
                f" connections, median): nodes {node_ms / 1000 / alone[0]:.2f}x,"
                f" PostgreSQL {pg_ms / 1000 / alone[1]:.2f}x"
            )
        kinds = sorted((k for k in run[5] if k.startswith("pg ")), key=lambda k: -run[5][k])
        if kinds:
            print(
                f"  {'':15s} PostgreSQL's CPU per action by process: "
                + ", ".join(f"{k[3:]} {per_action(run, k) * 1e6:.1f} µs" for k in kinds)
            )
        rounds = statements.get(label, [])
        for line in rounds.pop(0) if rounds else []:
            print(line)
    if args.rounds > 1:
        print(f"median of {args.rounds} rounds, CPU per action against the single process:")
        for label in dict.fromkeys(r[0] for r in runs):
            mine = [r for r in runs if r[0] == label]
            node = statistics.median(per_action(r, "nodes") for r in mine)
            pg_ = statistics.median(per_action(r, "postgres") for r in mine)
            line = (
                f"  {label:15s} nodes {node * 1000:.2f} ms ({node / base_node:.2f}x),"
                f" PostgreSQL {pg_ * 1000:.2f} ms ({pg_ / base_pg:.2f}x)"
            )
            alone = at_one_nodes_load(runs, n, mine[0][1])
            if alone is not None:
                line += (
                    f"; against the single process at one node's load: nodes"
                    f" {node / alone[0]:.2f}x, PostgreSQL {pg_ / alone[1]:.2f}x"
                )
            print(line)


def at_one_nodes_load(runs: list[Run], n: int, count: int) -> tuple[float, float] | None:
    """The median CPU seconds per action of the nodes and of PostgreSQL of the single
    process's runs at the load one node of ``count`` carries (``--per-node``; None
    without them)."""
    alone = [r for r in runs if r[0] == f"single at {n // count}"] if count > 1 else []
    if not alone:
        return None
    return (
        statistics.median(per_action(r, "nodes") for r in alone),
        statistics.median(per_action(r, "postgres") for r in alone),
    )


def per_action(run: Run, group: str) -> float:
    """CPU seconds of ``group`` (the nodes, PostgreSQL) per action of the run's cluster."""
    return run[5][group] / (run[2].phase_acked or 1)


if __name__ == "__main__":
    main()
