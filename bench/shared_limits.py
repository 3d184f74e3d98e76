"""What counting the limits in Redis costs a cluster node's hot path (one message).

    .venv/bin/python bench/shared_limits.py --players 200 --messages 20

It starts a throwaway Redis (``tests/redis_server.py``) and times, in one process:

* the baseline: a single server's check of a message, the player's bucket in memory
  (:meth:`paiju.server.client.Bucket.take`);
* a cluster node's (:meth:`paiju.server.shared_limits.SharedGuard.admit`): the node's own
  bucket, then the player's shared bucket in Redis (one Lua script, one round trip), one
  message at a time (the latency a message waits) and from ``--players`` players at once
  (what one node's event loop admits per second).

Limits high enough that nothing is refused. Figures on this shared 2-core machine move
with its load: compare the ratios of one run, not runs.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "tests")]

from paiju.server.client import Bucket  # noqa: E402
from paiju.server.hub import Hub  # noqa: E402
from paiju.server.options import Limits  # noqa: E402
from paiju.server.shared_limits import SharedGuard  # noqa: E402
from paiju.server.store import Store  # noqa: E402
from redis_server import RedisServer, find_redis_server  # noqa: E402


async def shared(url: str, players: int, messages: int) -> tuple[float, float]:
    """(µs per message one at a time, messages/s from every player at once)."""
    limits = Limits(messages_per_second=1e6, burst=1_000_000)
    store = Store("sqlite://")
    hub = Hub(store, limits)
    config = SimpleNamespace(name="bench", redis_url=url, lease_ttl=5.0, renew_every=1.0)
    guard = SharedGuard(hub, SimpleNamespace(config=config, nodes={}))  # type: ignore[arg-type]
    await guard.start()
    try:
        n = players * messages
        began = time.perf_counter()
        for i in range(n):
            assert await guard.admit(i % players)
        one = (time.perf_counter() - began) / n * 1e6

        async def player(pid: int) -> None:
            for _ in range(messages):
                assert await guard.admit(pid)

        began = time.perf_counter()
        await asyncio.gather(*(player(p) for p in range(players)))
        many = n / (time.perf_counter() - began)
    finally:
        await guard.stop()
        store.close()
    return one, many


def local(players: int, messages: int) -> float:
    buckets = [Bucket(1e6, 1_000_000) for _ in range(players)]
    n = players * messages
    began = time.perf_counter()
    for i in range(n):
        assert buckets[i % players].take()
    return (time.perf_counter() - began) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--messages", type=int, default=20, help="per player")
    args = parser.parse_args()
    binary = find_redis_server()
    if binary is None:
        sys.exit("no redis-server binary (Debian: apt-get install redis-server)")
    server = RedisServer(binary).start()
    try:
        base = local(args.players, args.messages)
        one, many = asyncio.run(shared(server.fresh_url(), args.players, args.messages))
    finally:
        server.stop()
    print(f"{args.players} players x {args.messages} messages")
    print(f"single server (bucket in memory): {base:8.2f} µs a message")
    print(f"cluster node, one at a time:      {one:8.2f} µs a message ({one / base:,.0f}x)")
    print(f"cluster node, all players at once: {many:8,.0f} messages/s admitted")


if __name__ == "__main__":
    main()
