"""Reviews are made in a bounded pool of worker processes (``paiju.server.heavy``), not in
the threads that share the interpreter lock with the tables.

The issue: "The review runs off the event loop in a bounded worker pool with a budget per
decision ... A queue that is full says so and when to come back." A job held in a worker
(it waits for a file the test writes) keeps the pool full for as long as the test needs:
no clock is raced.
"""

from __future__ import annotations

import asyncio
import functools
import os
import time
from pathlib import Path

import pytest

from paiju.server.errors import ServerError
from paiju.server.heavy import HeavyWork
from paiju.server.options import Limits


def _pid(source: int) -> dict[str, int]:
    return {"pid": os.getpid(), "source": source}


def _held(gate: str, started: str, source: int) -> dict[str, int]:
    """A job that says it started, then waits (a minute at most) for ``gate`` to exist."""
    Path(started).touch()
    for _ in range(6000):
        if os.path.exists(gate):
            break
        time.sleep(0.01)
    return {"pid": os.getpid(), "source": source}


def _dies(source: int) -> None:
    os._exit(3)  # the worker process dies, as a killed one would


def _heavy(workers: int = 1, queue: int = 0) -> HeavyWork:
    return HeavyWork(Limits(review_workers=workers, review_queue=queue))


async def _load_one() -> int:
    return 1


async def _until(path: Path) -> None:
    for _ in range(6000):
        if path.exists():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{path} never appeared")


def test_a_review_is_made_in_another_process() -> None:
    heavy = _heavy()

    async def run() -> bytes:
        try:
            return await heavy.body(None, "k", _load_one, _pid, False, process=True)
        finally:
            heavy.shutdown()

    body = asyncio.run(run())
    assert b'"source":1' in body
    assert f'"pid":{os.getpid()}'.encode() not in body, "not made in the server's process"
    assert heavy.processes_started == 1 and heavy.jobs == 0, "the thread pool was not used"


def test_a_full_process_pool_answers_503_with_retry_after(tmp_path: Path) -> None:
    """One worker and one job waiting: a third job is refused at once, with when to come
    back; once the held job ends, the pool takes work again."""
    heavy = _heavy(workers=1, queue=1)
    gate, started = tmp_path / "gate", tmp_path / "started"

    async def run() -> None:
        held = functools.partial(_held, str(gate), str(started))
        first = asyncio.create_task(heavy.body(None, "a", _load_one, held, False, process=True))
        await _until(started)
        second = asyncio.create_task(heavy.body(None, "b", _load_one, held, False, process=True))
        while heavy.process_jobs < 2:
            await asyncio.sleep(0.01)
        with pytest.raises(ServerError) as refused:
            await heavy.body(None, "c", _load_one, _pid, False, process=True)
        assert refused.value.status == 503 and refused.value.code == "server_busy"
        assert refused.value.params["retry_after"] >= 1
        gate.touch()
        await first
        await second
        assert b'"source":1' in await heavy.body(None, "c", _load_one, _pid, False, process=True)

    try:
        asyncio.run(run())
    finally:
        heavy.shutdown()


def test_the_pool_survives_a_worker_that_dies() -> None:
    heavy = _heavy()

    async def run() -> None:
        with pytest.raises(ServerError) as lost:
            await heavy.body(None, "dies", _load_one, _dies, False, process=True)
        assert lost.value.status == 503 and lost.value.code == "worker_lost"
        assert lost.value.params["retry_after"] == 1
        assert heavy.process_jobs == 0
        body = await heavy.body(None, "after", _load_one, _pid, False, process=True)
        assert b'"source":1' in body

    try:
        asyncio.run(run())
    finally:
        heavy.shutdown()
    assert heavy.processes_started == 2, "a fresh pool after the broken one"
