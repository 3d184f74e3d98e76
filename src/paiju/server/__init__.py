"""The game server (issue #5): authoritative rooms over WebSocket, bots, an embedded
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
* :mod:`paiju.server.verify` - the fairness proof of a finished game.

``paiju serve`` runs it (:func:`serve`); ``paiju verify GAME_ID`` checks a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["create_app", "serve"]


def create_app(db: str = "paiju.db", **kwargs: Any) -> FastAPI:
    """The server's FastAPI app on database ``db`` (see :func:`paiju.server.app.create_app`)."""
    from paiju.server.app import create_app as make

    return make(db, **kwargs)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "paiju.db") -> None:
    """Run the server with uvicorn until interrupted."""
    import uvicorn

    from paiju.server.app import create_app as make

    uvicorn.run(
        make(db),
        host=host,
        port=port,
        ws_max_size=1 << 20,
        log_level="warning",
        lifespan="on",
    )
