"""Where a cluster puts a new room (``paiju.server.cluster.Cluster.candidates``): on the least
loaded live node by the presence every node keeps in the shared database - fewest open
rooms, then fewest connections, then the node that received the call, then by name - and
never on a node whose presence has gone stale (it may be dead: its row has not expired
yet). A real PostgreSQL (``tests/pg.py``); the nodes other than this one are presence rows
only, written as a node writes its own."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from sqlalchemy import text

from paiju.server.cluster import Cluster, NodeConfig
from paiju.server.lease import SharedStore

TTL = 5.0


class _Room:
    def __init__(self, status: str, clients: int = 0) -> None:
        self.status = status
        self._clients = [object()] * clients

    def clients(self) -> list[object]:
        return self._clients


def _present(
    store: SharedStore, name: str, rooms: int, connections: int = 0, age: float = 0.0
) -> None:
    """Node ``name``'s presence as its own renewal writes it, ``age`` seconds ago."""
    with store.engine.begin() as conn:
        conn.execute(
            text(
                """INSERT INTO cluster_nodes (name, url, rooms, connections, seen_at, expires_at)
                SELECT :name, :url, :rooms, :connections, t - :age, t - :age + :ttl
                FROM (SELECT extract(epoch from clock_timestamp()) AS t) AS now
                ON CONFLICT (name) DO UPDATE SET rooms = EXCLUDED.rooms,
                    connections = EXCLUDED.connections, seen_at = EXCLUDED.seen_at,
                    expires_at = EXCLUDED.expires_at"""
            ),
            {
                "name": name,
                "url": f"http://127.0.0.1:9/{name}",
                "rooms": rooms,
                "connections": connections,
                "age": age,
                "ttl": TTL,
            },
        )


def test_a_new_room_goes_to_the_least_loaded_live_node(postgres_db: str) -> None:
    store = SharedStore(postgres_db, "me", TTL)
    # this node: three open rooms (two connections), one room over (not counted)
    rooms = [_Room("playing", 2), _Room("waiting"), _Room("playing"), _Room("finished")]
    hub: Any = SimpleNamespace(rooms=dict(enumerate(rooms)))
    me = Cluster(hub, store, NodeConfig("me", "http://127.0.0.1:9", "", lease_ttl=TTL))

    async def run() -> None:
        _present(store, "busy", rooms=7)
        _present(store, "idle", rooms=1, connections=9)
        _present(store, "idle2", rooms=1, connections=3)
        # the least loaded of all, but not renewed for 4 s (renewed every second)
        _present(store, "ghost", rooms=0, age=4.0)
        _present(store, "even", rooms=3, connections=2)
        assert await me.refresh()
        assert me.load()["rooms"] == 3
        order = [n.name for n in me.candidates()]
        # fewest rooms, then fewest connections; a tie with this node: this node
        assert order == ["idle2", "idle", "me", "even", "busy"]
        assert "ghost" in me.nodes, "a stale presence is still known (not yet expired)"
        # this node's own presence is written at once, with its load
        with store.engine.connect() as conn:
            mine = conn.execute(
                text("SELECT rooms, connections, url FROM cluster_nodes WHERE name = 'me'")
            ).one()
        assert tuple(mine) == (3, 2, "http://127.0.0.1:9")
        # a node whose presence expired is forgotten
        _present(store, "idle2", rooms=1, age=TTL + 1)
        _present(store, "idle", rooms=1, age=TTL + 1)
        assert await me.refresh()
        assert [n.name for n in me.candidates()] == ["me", "even", "busy"]
        # the nodes share a random secret for the calls they pass on, from the database
        secret = store.nodes.secret()
        other = SharedStore(postgres_db, "other", TTL)
        assert len(secret) >= 32 and secret == other.nodes.secret()
        other.close()
        # ties between other nodes go by name
        _present(store, "b2", rooms=0)
        _present(store, "a2", rooms=0)
        assert await me.refresh()
        assert [n.name for n in me.candidates()][:2] == ["a2", "b2"]

    try:
        asyncio.run(run())
    finally:
        store.close()
