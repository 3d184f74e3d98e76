"""The game server: authoritative rooms over WebSocket, bots, an embedded
database, crash recovery and fair deals.

* :mod:`paiju.server.app` - the FastAPI app (:func:`create_app`): REST, sockets, web client;
* :mod:`paiju.server.hub` - every open room (:class:`Hub`), crash recovery;
* :mod:`paiju.server.room` - one table: seats, bots, timers, 托管 (:class:`Room`);
* :mod:`paiju.server.journal` - the group commit of every room's writes;
* :mod:`paiju.server.client` - one socket: its outbox and rate bucket;
* :mod:`paiju.server.options` - room options and the server's limits;
  (:mod:`paiju.server.runtime` re-exports them all);
* :mod:`paiju.server.messages` - the WebSocket protocol as Pydantic models;
* :mod:`paiju.server.store` - SQLAlchemy storage and Alembic migrations;
* :mod:`paiju.server.cluster`, :mod:`paiju.server.lease`, :mod:`paiju.server.metrics` - many
  nodes on one PostgreSQL and Redis: fenced room leases, takeovers, ``/metrics`` (a single
  server serves it too);
* :mod:`paiju.server.shared_limits` - where the limits are counted: in this process, or
  (a cluster node) with every other node in Redis and the shared database;
* :mod:`paiju.server.verify` - the fairness proof of a finished game.

``paiju serve`` runs it (:func:`serve`); ``paiju verify GAME_ID`` checks a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

    from paiju.server.cluster import NodeConfig
    from paiju.server.options import Limits

__all__ = ["create_app", "serve"]


def create_app(db: str = "paiju.db", **kwargs: Any) -> FastAPI:
    """The server's FastAPI app on database ``db`` (see :func:`paiju.server.app.create_app`)."""
    from paiju.server.app import create_app as make

    return make(db, **kwargs)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "paiju.db",
    limits: Limits | None = None,
    admin_token: str | None = None,
    allow_rollback: bool = False,
    node: NodeConfig | None = None,
) -> None:
    """Run the server with uvicorn until interrupted (with ``node``: one node of a
    cluster, whose shared database takes no single server's lock).

    The database is opened first (its lock taken, its watermark checked: a second server
    on it, or a database gone back in time, stops here with a clear error); the open
    file limit is raised to the hard limit and uvicorn refuses connections past what it
    allows (503), with the request-head deadline and per-address cap of
    :mod:`paiju.server.net`."""
    import os
    import resource

    import uvicorn

    from paiju.server.app import create_app as make
    from paiju.server.net import (
        GuardedHttp,
        NetLimits,
        PerClient,
        keep_alive_seconds,
        trusted_proxies,
    )
    from paiju.server.options import Limits
    from paiju.server.sockets import DirectWebSocket
    from paiju.server.store import Store

    limits = limits or Limits()
    store = None if node is not None else Store(db, owner=True, allow_rollback=allow_rollback)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > 65_536:
        hard = 65_536
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    NetLimits.header_timeout = limits.header_timeout
    NetLimits.connections_per_address = limits.connections_per_address
    NetLimits.proxies = trusted_proxies(os.environ.get("FORWARDED_ALLOW_IPS"))
    uvicorn.run(
        PerClient(make(db, limits=limits, admin_token=admin_token, opened=store, node=node)),
        host=host,
        port=port,
        http=GuardedHttp,
        ws=DirectWebSocket,
        ws_max_size=1 << 20,
        ws_per_message_deflate=limits.ws_compression,
        ws_ping_interval=limits.ws_ping_interval,
        ws_ping_timeout=limits.ws_ping_interval,
        timeout_keep_alive=keep_alive_seconds(limits.keep_alive),
        limit_concurrency=max(64, soft - 128),
        log_level="warning",
        lifespan="on",
    )
