"""A group commit's spacing (``Journal.spacing``, a cluster node's ``--commit-spacing``):
while writes keep coming, the next commit starts no sooner than the spacing after the last
one started, so the writes of that time share one transaction, unless as many are pending
as fill one (``Journal.full``); a write after a quiet spell is stored at once, and a call
that waits for nothing is not held up by it."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from paiju.server.journal import Journal
from paiju.server.rows import ActionWrite, HandWrite
from paiju.server.store import Store


@dataclass
class _Room:
    id: int
    deferred: int = 0


class _Store:
    """What the journal asks of a store: its own connection (so a writer thread), and
    ``append_actions``, which records each batch and when it began."""

    shared_connection = False

    def __init__(self) -> None:
        self.batches: list[tuple[float, list[int]]] = []
        self.lock = threading.Lock()

    def append_actions(self, writes: Sequence[ActionWrite | HandWrite]) -> None:
        with self.lock:
            self.batches.append(
                (time.monotonic(), [w.idx for w in writes if isinstance(w, ActionWrite)])
            )


def _write(idx: int) -> ActionWrite:
    return ActionWrite(hand_id=1, idx=idx, seat=0, action={"n": idx}, actor="player")


async def _stored(journal: Journal, room: _Room, idx: int, done: list[int]) -> None:
    landed = asyncio.get_running_loop().create_future()

    def ok() -> None:
        done.append(idx)
        landed.set_result(None)

    def failed(exc: BaseException) -> None:
        landed.set_exception(exc)

    journal.add(room, _write(idx), ok, failed)
    await landed


def _journal(spacing: float) -> tuple[Journal, _Store]:
    store = _Store()
    journal = Journal(cast(Store, store))
    journal.spacing = spacing
    return journal, store


def test_writes_that_keep_coming_wait_for_the_spacing_and_share_one_commit() -> None:
    async def main() -> tuple[list[tuple[float, list[int]]], list[int]]:
        journal, store = _journal(0.4)
        rooms = [_Room(i) for i in range(3)]
        done: list[int] = []
        await _stored(journal, rooms[0], 0, done)  # the first: stored at once
        # two more rooms' writes, a little apart, while the spacing runs
        second = asyncio.ensure_future(_stored(journal, rooms[1], 1, done))
        await asyncio.sleep(0.05)
        third = asyncio.ensure_future(_stored(journal, rooms[2], 2, done))
        await asyncio.gather(second, third)
        journal.drain()
        return store.batches, done

    batches, done = asyncio.run(main())
    assert [ids for _, ids in batches] == [[0], [1, 2]]
    assert done == [0, 1, 2]
    assert batches[1][0] - batches[0][0] >= 0.39  # no sooner than the spacing


def test_a_full_batch_does_not_wait_for_the_spacing() -> None:
    """Once ``Journal.full`` writes are pending, the next commit starts without waiting
    out the spacing (a node with all of the load commits as one server does); a batch
    short of it still waits."""

    async def main() -> tuple[list[tuple[float, list[int]]], float]:
        journal, store = _journal(60.0)
        journal.full = 3
        done: list[int] = []
        await _stored(journal, _Room(0), 0, done)  # the first: stored at once
        began = time.monotonic()
        # two writes: short of a full batch, they wait for the spacing...
        short = [asyncio.ensure_future(_stored(journal, _Room(i), i, done)) for i in (1, 2)]
        await asyncio.sleep(0.05)
        assert done == [0]
        # ...until a third fills it: all three go in one commit, long before the 60 s
        await asyncio.gather(*short, _stored(journal, _Room(3), 3, done))
        took = time.monotonic() - began
        journal.drain()
        return store.batches, took

    batches, took = asyncio.run(main())
    assert [ids for _, ids in batches] == [[0], [1, 2, 3]]
    assert took < 30  # not the spacing (60 s), however loaded the machine


def test_without_spacing_each_write_after_a_commit_starts_its_own() -> None:
    async def main() -> list[tuple[float, list[int]]]:
        journal, store = _journal(0.0)
        rooms = [_Room(i) for i in range(3)]
        done: list[int] = []
        await _stored(journal, rooms[0], 0, done)
        await _stored(journal, rooms[1], 1, done)
        await _stored(journal, rooms[2], 2, done)
        journal.drain()
        return store.batches

    assert [ids for _, ids in asyncio.run(main())] == [[0], [1], [2]]


def test_a_write_after_a_quiet_spell_and_a_call_that_waits_for_nothing_go_at_once() -> None:
    async def main() -> tuple[list[tuple[float, list[int]]], float, float]:
        journal, store = _journal(2.0)
        room = _Room(1)
        done: list[int] = []
        await _stored(journal, room, 0, done)
        await asyncio.sleep(2.05)  # longer than the spacing: quiet
        began = time.monotonic()
        await _stored(journal, room, 1, done)
        quiet = time.monotonic() - began
        # a room with nothing pending: its call runs on the next turn of the loop, even
        # while another room's write waits for the spacing
        other = asyncio.ensure_future(_stored(journal, _Room(2), 2, done))
        await asyncio.sleep(0)
        called: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        asked = time.monotonic()
        journal.after(_Room(3), lambda: called.set_result(time.monotonic()))
        waited = await called - asked
        await other
        journal.drain()
        return store.batches, quiet, waited

    batches, quiet, waited = asyncio.run(main())
    assert [ids for _, ids in batches] == [[0], [1], [2]]
    # neither waited for the spacing (2 s), however loaded the machine
    assert quiet < 1.5
    assert waited < 1.5
