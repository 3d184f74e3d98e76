"""Heavy work a request can ask for - a finished hand's replay and fairness proof, the
solver's suggestions - done off the event loop, so that no client can hold up the rooms
the loop plays.

:class:`HeavyWork` runs each job in a small, bounded pool of worker threads
(``heavy_workers`` running, ``heavy_queue`` more waiting) and answers its JSON as bytes
serialised there too, so that the loop only hands the bytes to the socket:

* what cannot change - a finished hand's replay and proof - is kept (a cache bounded by
  ``heavy_cache_bytes``, least recently used first out) and served again from memory;
  requests for a job already running wait for it instead of starting it again;
* each client (its address) may ask ``heavy_per_minute`` such requests a minute (a
  fifth of them at once) and have ``heavy_per_client`` of them running: past either,
  429 ``too_many_requests`` with ``Retry-After``;
* a full pool answers 503 ``server_busy`` with ``Retry-After`` at once, instead of
  queueing without end.

Work that is long and all Python (a 复盘 review: seconds of search) runs instead in a pool
of worker *processes* (``process=True``: ``review_workers`` running, ``review_queue``
more waiting, full answered as above), so that it never holds the interpreter lock the
tables' loop needs. A worker that dies (killed, out of memory) breaks only its job: the
request is answered 503 ``worker_lost`` with ``Retry-After``, the broken pool is dropped and
the next job starts a fresh one.
"""

from __future__ import annotations

import asyncio
import collections
import math
import multiprocessing
import sys
import time
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from fastapi.responses import Response
from pydantic_core import to_json

from paiju.server.client import Bucket
from paiju.server.errors import ServerError
from paiju.server.options import Limits

__all__ = ["SWITCH_INTERVAL", "HeavyWork", "json_bytes"]

T = TypeVar("T")

SWITCH_INTERVAL = 0.001
"""Seconds a thread holds the GIL while another waits for it, once the pool works."""

_FORGET = 100_000
"""Clients whose buckets are kept at most; past it the full (idle) ones are forgotten."""


class HeavyWork:
    """The pool, the cache and the per-client limits of heavy requests (see the module)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._pool: ThreadPoolExecutor | None = None
        self._processes: ProcessPoolExecutor | None = None
        self.jobs = 0
        """Jobs handed to the pool and not done (running or waiting)."""
        self.process_jobs = 0
        """Jobs handed to the process pool and not done (running or waiting)."""
        self.processes_started = 0
        """Process pools started (a new one after a worker died)."""
        self._running: dict[Hashable, asyncio.Future[bytes]] = {}
        self._cache: collections.OrderedDict[Hashable, bytes] = collections.OrderedDict()
        self.cached_bytes = 0
        self._buckets: dict[str, Bucket] = {}
        self._per_client: collections.Counter[str] = collections.Counter()
        self._seconds = 0.5
        """A running mean of a job's seconds: what a full pool's ``Retry-After`` says."""

    @property
    def capacity(self) -> int:
        """Jobs the pool takes at once: running and waiting."""
        return self.limits.heavy_workers + self.limits.heavy_queue

    def pool(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.limits.heavy_workers, "paiju-heavy")
            # a worker's job holds the GIL; the loop, waking from each system call, takes
            # it back after at most this interval (Python's default: 5 ms, which made every
            # turn of the loop wait while a replay was made)
            sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        return self._pool

    @property
    def process_capacity(self) -> int:
        """Jobs the process pool takes at once: running and waiting."""
        return self.limits.review_workers + self.limits.review_queue

    def processes(self) -> ProcessPoolExecutor:
        if self._processes is None:
            # forkserver: a worker starts from a clean process, not a fork of the server's
            # threads and loop
            context = multiprocessing.get_context("forkserver")
            self._processes = ProcessPoolExecutor(self.limits.review_workers, context)
            self.processes_started += 1
        return self._processes

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
            self._processes = None

    def admit(self, client: str | None) -> None:
        """Count a heavy request of ``client``: 429 ``too_many_requests`` past its
        rate (``heavy_per_minute``, a fifth at once) or with ``heavy_per_client``
        requests of it under way."""
        if client is None:
            return
        limits = self.limits
        if self._per_client[client] >= limits.heavy_per_client:
            raise ServerError(
                "too_many_requests",
                f"your address has {limits.heavy_per_client} replays, proofs or suggestions"
                " under way (the limit); try again when they are answered",
                429,
                retry_after=1,
            )
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) > _FORGET:
                self._buckets.clear()
            per_minute = limits.heavy_per_minute
            bucket = self._buckets[client] = Bucket(per_minute / 60, max(1, per_minute // 5))
        if not bucket.take():
            wait = max(1, math.ceil(60 / limits.heavy_per_minute))
            raise ServerError(
                "too_many_requests",
                f"your address asked more than {limits.heavy_per_minute} replays, proofs or"
                f" suggestions a minute (the limit); try again in {wait} s",
                429,
                retry_after=wait,
            )

    async def answer(
        self,
        client: str | None,
        key: Hashable,
        load: Callable[[], Awaitable[T]],
        work: Callable[[T], Any],
        keep: bool,
        process: bool = False,
    ) -> Response:
        """The JSON answer of ``work(await load())`` for ``client``: from the cache under
        ``key`` where it is kept, else computed in the pool (and kept where ``keep``: the
        answer never changes). ``load`` runs on the loop, first (a read of the database,
        whose refusals - 404, 409 - come before any work is queued)."""
        body = await self.body(client, key, load, work, keep, process)
        return Response(body, media_type="application/json")

    async def body(
        self,
        client: str | None,
        key: Hashable,
        load: Callable[[], Awaitable[T]],
        work: Callable[[T], Any],
        keep: bool,
        process: bool = False,
    ) -> bytes:
        """:meth:`answer`'s JSON bytes (``process``: made in the process pool, ``work``
        and what ``load`` gives being picklable)."""
        self.admit(client)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        running = self._running.get(key)
        if running is not None:
            return await asyncio.shield(running)
        if client is not None:
            self._per_client[client] += 1
        try:
            source = await load()
            return await self._run(key, work, source, keep, process)
        finally:
            if client is not None:
                self._per_client[client] -= 1
                if self._per_client[client] <= 0:
                    del self._per_client[client]

    async def _run(
        self, key: Hashable, work: Callable[[T], Any], source: T, keep: bool, process: bool
    ) -> bytes:
        running = self._running.get(key)  # started while this one loaded
        if running is not None:
            return await asyncio.shield(running)
        jobs = self.process_jobs if process else self.jobs
        capacity = self.process_capacity if process else self.capacity
        if jobs >= capacity:
            workers = self.limits.review_workers if process else self.limits.heavy_workers
            wait = max(1, min(30, math.ceil(self._seconds * jobs / workers)))
            raise ServerError(
                "server_busy",
                f"the server is busy with {jobs} replays, proofs, suggestions and reviews;"
                f" try again in {wait} s",
                503,
                retry_after=wait,
            )
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bytes] = loop.create_future()
        self._running[key] = done
        pool: Executor = self.processes() if process else self.pool()
        if process:
            self.process_jobs += 1
        else:
            self.jobs += 1
        started = time.monotonic()
        try:
            body = await loop.run_in_executor(pool, json_bytes, work, source)
        except asyncio.CancelledError:
            done.cancel()
            raise
        except BrokenProcessPool:
            self._drop(pool)
            lost = ServerError(
                "worker_lost",
                "the worker making this answer stopped; try again in 1 s",
                503,
                retry_after=1,
            )
            done.set_exception(lost)
            done.exception()
            raise lost from None
        except Exception as exc:
            done.set_exception(exc)
            done.exception()  # retrieved: a request that waited for it re-raises it
            raise
        finally:
            if process:
                self.process_jobs -= 1
            else:
                self.jobs -= 1
            del self._running[key]
            self._seconds = 0.8 * self._seconds + 0.2 * (time.monotonic() - started)
        done.set_result(body)
        if keep:
            self._keep(key, body)
        return body

    def _drop(self, pool: Executor) -> None:
        """Forget a process pool a worker of which died (the next job starts another)."""
        if pool is self._processes:
            self._processes = None
            pool.shutdown(wait=False, cancel_futures=True)

    def _keep(self, key: Hashable, body: bytes) -> None:
        limit = self.limits.heavy_cache_bytes
        if len(body) > limit:
            return
        self._cache[key] = body
        self.cached_bytes += len(body)
        while self.cached_bytes > limit:
            _, old = self._cache.popitem(last=False)
            self.cached_bytes -= len(old)


def json_bytes(work: Callable[[T], Any], source: T) -> bytes:
    """``work(source)`` as JSON bytes (run in the pool: the serialising too is off the
    loop)."""
    return to_json(work(source))
