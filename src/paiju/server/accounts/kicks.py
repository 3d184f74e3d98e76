"""Closing the sockets of ended sessions and banned players, on every node.

:class:`Kicks` knows this process's open sockets by session and by player. Ending a
session (signing out, "sign out everywhere", a recovery, a ban, an operator's reset)
drops its token from the process's cache and closes its sockets with a close code that
says why (:data:`CLOSE_ENDED` 4401 ``session_ended``, :data:`CLOSE_BANNED` 4403
``banned``).

A cluster node's :class:`ClusterKicks` also publishes the news on a Redis channel that
every node listens to, and does the same for the news of the others: an ended session's
sockets close on every node within a Redis round trip.

Every server (a single one too) also checks its open sockets' sessions against the
database every :data:`SWEEP_SECONDS` (one indexed query): a session ended by
``paiju admin`` (another process), or while Redis was away, has its sockets closed within
that time, and the caches of tokens forget a token within their few seconds
(:data:`~paiju.server.shared_limits.TOKEN_CACHE_SECONDS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import select

from paiju.server.accounts import tables as a
from paiju.server.store import Store, off_loop

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = ["CHANNEL", "CLOSE_BANNED", "CLOSE_ENDED", "SWEEP_SECONDS", "ClusterKicks", "Kicks"]

log = logging.getLogger("paiju.server")

CLOSE_ENDED = 4401
CLOSE_BANNED = 4403
CHANNEL = "paiju:sessions:ended"
SWEEP_SECONDS = 1.0
"""How often a server checks its sockets' sessions in the database."""


class Closable(Protocol):
    closed: bool

    def error(self, code: str, message: str, ref: str | int | None = None) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


class Kicks:
    """This process's sockets by session and player, and closing them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._by_session: dict[int, set[Closable]] = {}
        self._by_player: dict[int, set[Closable]] = {}
        self._tasks: list[asyncio.Task[None]] = []

    def add(self, player: int, session: int | None, client: Closable) -> None:
        self._by_player.setdefault(player, set()).add(client)
        if session is not None:
            self._by_session.setdefault(session, set()).add(client)

    def remove(self, player: int, session: int | None, client: Closable) -> None:
        for table, key in ((self._by_player, player), (self._by_session, session)):
            if key is None:
                continue
            found = table.get(key)
            if found is not None:
                found.discard(client)
                if not found:
                    del table[key]

    def open_sessions(self) -> list[int]:
        return list(self._by_session)

    def local(self, sessions: Iterable[int] = (), player: int | None = None, why: str = "") -> int:
        """Forget the tokens and close the sockets of ``sessions`` (and of every session
        of ``player``) in this process; returns how many sockets were closed."""
        ended = list(sessions)
        self.store.forget_sessions(ended, player)
        banned = why == "banned"
        code, reason = (CLOSE_BANNED, "banned") if banned else (CLOSE_ENDED, "session_ended")
        message = (
            "this account is banned" if banned else "this device was signed out: sign in again"
        )
        clients: set[Closable] = set()
        for session in ended:
            clients |= self._by_session.get(session, set())
        if player is not None:
            clients |= self._by_player.get(player, set())
        for client in clients:
            if not client.closed:
                client.error(reason, message)
                client.close(code, reason)
        return len(clients)

    async def end(
        self, sessions: Iterable[int] = (), player: int | None = None, why: str = ""
    ) -> None:
        """Close the sessions' sockets everywhere (a single server: here)."""
        self.local(sessions, player, why)

    async def start(self) -> None:
        """Start checking the open sockets' sessions (:data:`SWEEP_SECONDS`)."""
        self._tasks.append(asyncio.create_task(self._sweep()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 2.0)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            await self.sweep()

    async def sweep(self) -> int:
        """Close the sockets of sessions the database shows ended; returns how many."""
        open_now = self.open_sessions()
        if not open_now:
            return 0
        try:
            ended = await off_loop(self.store, _ended_of, self.store, open_now)
        except Exception as exc:
            log.warning("cannot check the open sockets' sessions (%r)", exc)
            return 0
        return sum(self.local([session], None, why) for session, why in ended)


class ClusterKicks(Kicks):
    """:class:`Kicks` of a cluster node: news through Redis, and a database sweep."""

    def __init__(self, store: Store, redis_url: str, node: str) -> None:
        super().__init__(store)
        self.redis_url = redis_url
        self.node = node
        self._redis: Redis | None = None

    async def start(self) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.Redis.from_url(
            self.redis_url, socket_connect_timeout=1.0, socket_timeout=None
        )
        await super().start()
        self._tasks.append(asyncio.create_task(self._listen()))

    async def stop(self) -> None:
        await super().stop()
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._redis.aclose(), 2.0)

    async def end(
        self, sessions: Iterable[int] = (), player: int | None = None, why: str = ""
    ) -> None:
        ended = list(sessions)
        self.local(ended, player, why)
        if self._redis is None:
            return
        news = json.dumps({"sessions": ended, "player": player, "why": why, "from": self.node})
        try:
            await asyncio.wait_for(self._redis.publish(CHANNEL, news), 2.0)
        except Exception as exc:  # the sweep closes them within SWEEP_SECONDS
            log.warning("node %s: cannot publish ended sessions (%r)", self.node, exc)

    async def _listen(self) -> None:
        while True:
            try:
                assert self._redis is not None
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(CHANNEL)
                async for message in pubsub.listen():
                    self._heard(message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("node %s: session news from Redis stopped (%r)", self.node, exc)
                await asyncio.sleep(1.0)

    def _heard(self, message: dict[str, Any]) -> None:
        try:
            news = json.loads(message["data"])
            sessions = [int(s) for s in news.get("sessions", [])]
            player = news.get("player")
            why = str(news.get("why", ""))
        except (ValueError, TypeError, KeyError):
            return
        if news.get("from") == self.node:
            return
        self.local(sessions, None if player is None else int(player), why)


def _ended_of(store: Store, sessions: list[int]) -> list[tuple[int, str]]:
    s = a.sessions
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(s.c.id, s.c.ended_why).where(s.c.id.in_(sessions), s.c.ended_at.is_not(None))
        ).all()
    return [(int(r.id), str(r.ended_why or "")) for r in rows]
