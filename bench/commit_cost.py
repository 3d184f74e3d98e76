"""What one group commit costs PostgreSQL, by its size: a cluster node's against one server's.

    .venv/bin/python bench/commit_cost.py
    .venv/bin/python bench/commit_cost.py --sizes 5,10,20,40 --commits 1500 --rounds 3

A group commit stores the writes of many rooms in one transaction: new hands, actions and
the settlements they end. Part of its cost to PostgreSQL is its own (each statement's
set-up, a node's lease fence, the commit) and part is each write's. This bench starts a
throwaway PostgreSQL (``tests/pg.py``) with two databases of the same rooms and players,
and stores the same batches through the real stores: a single server's :class:`Store`
(the baseline) and a cluster node's :class:`SharedStore` (its writes fenced by its room
leases, its ledger balances counted by the database). A batch of size k holds one write
of each of k rooms (a room has one write in flight), each room going round a deal and
four actions, the last of which ends the hand (about the shape of ``server_load``'s
games: a fifth of the writes are deals, a fifth settle a hand).

Printed, for each size, the median over ``--rounds`` of PostgreSQL's CPU (all of its
processes) per commit and per write, and the node's against the single server's; then a
straight line fitted over the sizes (microseconds a commit costs of its own, and each write
adds), and the cost per write of a node whose commits are half the size of a single
server's against that server's: a cluster of two nodes splits one load in two, and each
room has one action in flight, so each node gathers about half the writes a commit.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from cluster_load import STEADY, add_pg_setting, cpu_of, pg_pids  # noqa: E402
from paiju.server.lease import SharedStore  # noqa: E402
from paiju.server.rows import ActionWrite, HandEnding, HandWrite, Write  # noqa: E402
from paiju.server.store import Store  # noqa: E402
from pg import PostgresCluster, find_bindir  # noqa: E402

SEATS = 4
ROUND = 5
"""Writes of a room's hand: its deal, then actions, the last of which ends it."""


@dataclass
class Table:
    """One room's state as the batches move it on."""

    room: int
    players: tuple[int, ...]
    step: int = 0
    hand: int = 0
    played: int = 0
    idx: int = 0
    seed: random.Random = field(default_factory=random.Random)


def next_write(store: Store, table: Table) -> Write:
    """The room's next write: a deal, an action, or the action that ends its hand."""
    step, table.step = table.step, (table.step + 1) % ROUND
    if step == 0:
        table.hand, table.idx = store.new_hand_id(), 0
        return HandWrite(
            id=table.hand,
            room_id=table.room,
            hand_no=table.played + 1,
            code="1301",
            game_options={},
            players=table.players,
            commitment="c" * 64,
            seed=f"{table.seed.getrandbits(128):032x}",
            deal={"hands": [[table.seed.randrange(52) for _ in range(13)] for _ in range(SEATS)]},
            context={},
        )
    table.idx += 1
    ending = None
    if step == ROUND - 1:
        table.played += 1
        scores = tuple(table.seed.randrange(-6, 7) for _ in range(SEATS - 1))
        scores += (-sum(scores),)
        ending = HandEnding(
            room_id=table.room,
            scores=scores,
            deltas=scores,
            players=table.players,
            hands_played=table.played,
            context={"scores": list(scores)},
            room_finished=False,
        )
    action = {"arrange": [table.seed.randrange(52) for _ in range(13)]}
    return ActionWrite(table.hand, table.idx, step % SEATS, action, "player", ending)


def open_tables(store: Store, rooms: int) -> list[Table]:
    """``rooms`` rooms of four players each, as the store makes them."""
    tables = []
    for r in range(rooms):
        players = tuple(store.create_player(f"p{r}-{s}")[0].id for s in range(SEATS))
        room = store.create_room("1301", {}, {}, SEATS, players[0], [False] * SEATS)
        tables.append(Table(room, players, seed=random.Random(r)))
    return tables


def batches(store: Store, tables: list[Table], size: int, count: int) -> list[list[Write]]:
    """``count`` batches of one write of each of ``size`` rooms drawn at random."""
    draw = random.Random(size * 7919 + count)
    return [[next_write(store, t) for t in draw.sample(tables, size)] for _ in range(count)]


def cost(store: Store, pg: PostgresCluster, work: list[list[Write]]) -> float:
    """PostgreSQL's CPU seconds to store ``work``, batch after batch."""
    pids = pg_pids(pg)
    before = cpu_of(pids)
    for batch in work:
        store.append_actions(batch)
    after = cpu_of(pids)
    return sum(after[p] - t for p, t in before.items() if p in after)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5,10,20,40", help="writes a commit, comma-separated")
    parser.add_argument("--commits", type=int, default=1000, help="commits measured a size")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--rooms", type=int, default=120)
    parser.add_argument(
        "--warmup", type=int, default=600, help="commits stored before any is measured"
    )
    add_pg_setting(parser)
    args = parser.parse_args()
    sizes = sorted({int(s) for s in args.sizes.split(",")})
    if len(sizes) < 2:
        parser.error("give two sizes or more: a straight line is fitted over them")
    if sizes[0] < 1 or sizes[-1] > args.rooms:
        parser.error(f"sizes go from 1 to --rooms ({args.rooms})")
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("needs PostgreSQL (initdb, pg_ctl) installed")
    pg = PostgresCluster(bindir, [*STEADY, *args.pg_setting]).start()
    try:
        single = Store(pg.create_database())
        node = SharedStore(pg.create_database(), "bench", ttl=24 * 3600.0)
        stores = {"single server": single, "node": node}
        tables = {kind: open_tables(store, args.rooms) for kind, store in stores.items()}
        for kind, store in stores.items():  # a history: hands, actions and a ledger
            for batch in batches(store, tables[kind], min(20, args.rooms), args.warmup):
                store.append_actions(batch)
        time.sleep(2)  # autovacuum analyzes the tables the warm-up filled
        spent: dict[tuple[str, int], list[float]] = {}
        for r in range(args.rounds):
            kinds = list(stores) if r % 2 == 0 else list(stores)[::-1]
            for size, kind in itertools.product(sizes, kinds):
                store = stores[kind]
                work = batches(store, tables[kind], size, args.commits)
                spent.setdefault((kind, size), []).append(cost(store, pg, work) / args.commits)
        for store in stores.values():
            store.close()
    finally:
        pg.stop()
    us = {key: statistics.median(values) * 1e6 for key, values in spent.items()}
    print(
        f"paiju commit cost: PostgreSQL's CPU per group commit (all its processes),"
        f" {args.commits} commits a size, median of {args.rounds} round"
        f"{'s' * (args.rounds > 1)}; load average {os.getloadavg()[0]:.1f}"
        f" ({os.cpu_count()} cores, shared)"
        + "".join(f"; {setting}" for setting in args.pg_setting)
    )
    print(
        "  writes   single server µs/commit (µs/write)    node µs/commit (µs/write)   node/single"
    )
    for size in sizes:
        s, n = us["single server", size], us["node", size]
        print(
            f"  {size:6d}   {s:10.0f} ({s / size:6.1f})"
            f"                  {n:10.0f} ({n / size:6.1f})          {n / s:5.2f}x"
        )
    for kind in stores:
        each, own = statistics.linear_regression(sizes, [us[kind, k] for k in sizes])
        print(f"  fitted, {kind}: {own:.0f} µs a commit of its own + {each:.1f} µs a write")
    for size in sizes:
        if 2 * size in sizes:
            s, n = us["single server", 2 * size] / (2 * size), us["node", size] / size
            print(
                f"  a node at {size} writes a commit against one server at {2 * size}:"
                f" {n:.1f} against {s:.1f} µs a write ({n / s:.2f}x)"
            )


if __name__ == "__main__":
    main()
