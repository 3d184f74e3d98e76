"""Where a cluster puts a new room (``paiju.server.cluster.Cluster.candidates``): on the least
loaded live node by the presence every node keeps in Redis - fewest open rooms, then fewest
connections, then the node that received the call, then by name - and never on a node
whose presence has gone stale (it may be dead: its key has not expired yet). A real Redis
(``tests/redis_server.py``); the nodes other than this one are presence entries only."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import redis.asyncio as aioredis

from paiju.server.cluster import Cluster, NodeConfig

TTL = 5.0


class _Room:
    def __init__(self, status: str, clients: int = 0) -> None:
        self.status = status
        self._clients = [object()] * clients

    def clients(self) -> list[object]:
        return self._clients


def _cluster(redis_url: str, rooms: list[_Room]) -> Cluster:
    hub: Any = SimpleNamespace(rooms=dict(enumerate(rooms)))
    store: Any = SimpleNamespace(fence={}, on_stale=None)
    config = NodeConfig("me", "http://127.0.0.1:9", redis_url, lease_ttl=TTL)
    return Cluster(hub, store, config)


async def _present(
    client: Any, name: str, rooms: int, connections: int = 0, age: float = 0.0
) -> None:
    """Node ``name``'s presence as its own heartbeat writes it, ``age`` seconds ago."""
    value = {"name": name, "url": f"http://127.0.0.1:9/{name}", "rooms": rooms}
    value["connections"] = connections
    await client.set(f"paiju:node:{name}", json.dumps(value), px=int((TTL - age) * 1000))
    await client.sadd("paiju:nodes", name)


def test_a_new_room_goes_to_the_least_loaded_live_node(redis_url: str) -> None:
    async def run() -> None:
        client = aioredis.from_url(redis_url)
        # this node: three open rooms (two connections), one room over (not counted)
        rooms = [_Room("playing", 2), _Room("waiting"), _Room("playing"), _Room("finished")]
        me = _cluster(redis_url, rooms)
        me.redis = aioredis.from_url(redis_url)
        try:
            await _present(client, "busy", rooms=7)
            await _present(client, "idle", rooms=1, connections=9)
            await _present(client, "idle2", rooms=1, connections=3)
            # the least loaded of all, but not renewed for 4 s (renewed every second)
            await _present(client, "ghost", rooms=0, age=4.0)
            await _present(client, "even", rooms=3, connections=2)
            assert await me.refresh()
            assert me.load()["rooms"] == 3
            order = [n.name for n in me.candidates()]
            # fewest rooms, then fewest connections; a tie with this node: this node
            assert order == ["idle2", "idle", "me", "even", "busy"]
            assert "ghost" in me.nodes, "a stale presence is still known (not yet expired)"
            # this node's own presence is written at once, with its load
            mine = json.loads(await client.get("paiju:node:me"))
            assert (mine["rooms"], mine["connections"]) == (3, 2)
            # a node that stopped (its key gone) is forgotten
            await client.delete("paiju:node:idle2", "paiju:node:idle")
            assert await me.refresh()
            assert [n.name for n in me.candidates()] == ["me", "even", "busy"]
            assert await client.sismember("paiju:nodes", "idle") == 0
            # the nodes share a random token for the calls they pass on
            assert len(me.secret) >= 32
            assert (await client.get("paiju:secret")).decode() == me.secret
            # ties between other nodes go by name
            await _present(client, "b2", rooms=0)
            await _present(client, "a2", rooms=0)
            assert await me.refresh()
            assert [n.name for n in me.candidates()][:2] == ["a2", "b2"]
        finally:
            await me.redis.aclose()
            await client.aclose()

    asyncio.run(run())
