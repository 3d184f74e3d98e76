"""The group commit (:class:`Journal`): the accepted actions of many rooms go to the
database in one transaction; each is broadcast only after it."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from paiju.server.client import Client
from paiju.server.store import ActionWrite, HandWrite, Store

__all__ = ["SLOW_COMMIT", "Journal", "Writer"]


class Writer(Protocol):
    """What the journal knows of a room that writes through it (:class:`paiju.server.room.Room`):
    its id, how many of its client messages wait for a commit, and how to handle one."""

    id: int
    deferred: int

    def handle_now(self, client: Client, text: str) -> None:
        """Handle a client message now (its room has no action in flight)."""


log = logging.getLogger("paiju.server")


@dataclass
class _Pending:
    room: Writer
    write: ActionWrite | HandWrite
    done: Callable[[], None]
    failed: Callable[[BaseException], None]


SLOW_COMMIT = 0.05
"""Seconds after which a group commit is logged as slow (it holds up every room)."""


class Journal:
    """Group commit of accepted actions: the actions of one event-loop turn (from many
    rooms) go to the database in one transaction; each is broadcast only after it.

    A room never has two actions in flight: a second action, or anything that reads the
    room's state for a socket, commits the pending one first (:meth:`Room.settle_writes`).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.pending: list[_Pending] = []
        self.rooms: set[int] = set()
        self.waiting: list[tuple[Writer, Client, str]] = []
        """Client messages of rooms with an action in flight, handled after the commit."""
        self.observe: Callable[[float, int, int], None] | None = None
        """Told (seconds, hands, actions) after each group commit that stored its writes
        (``/metrics`` of a single server)."""

    def later(self, room: Writer, client: Client, text: str) -> None:
        """Handle a client message of ``room`` after the next commit (in arrival order)."""
        if not self.pending and not self.waiting:
            asyncio.get_running_loop().call_soon(self.flush)
        self.waiting.append((room, client, text))

    def holds(self, room: Writer) -> bool:
        return room.id in self.rooms

    def add(
        self,
        room: Writer,
        write: ActionWrite | HandWrite,
        done: Callable[[], None],
        failed: Callable[[BaseException], None],
    ) -> None:
        if not self.pending:
            asyncio.get_running_loop().call_soon(self.flush)
        self.pending.append(_Pending(room, write, done, failed))
        self.rooms.add(room.id)

    def flush(self) -> None:
        """Store every pending action in one transaction, run their callbacks, then the
        client messages that waited for it."""
        batch, self.pending = self.pending, []
        self.rooms.clear()
        if batch:
            began = time.perf_counter()
            try:
                self.store.append_actions([p.write for p in batch])
                took = time.perf_counter() - began
                if took > SLOW_COMMIT:
                    log.warning("slow commit: %d writes took %.0f ms", len(batch), took * 1000)
            except Exception as exc:
                self._one_by_one(batch, exc)
            else:
                if self.observe is not None:
                    hands = sum(isinstance(p.write, HandWrite) for p in batch)
                    _run(self.observe, took, hands, len(batch) - hands)
                for p in batch:
                    _run(p.done)
        waiting, self.waiting = self.waiting, []
        again: set[int] = set()
        for room, client, text in waiting:
            room.deferred -= 1
            if room.id in again or self.holds(room):
                # an earlier message of the room acted: this one waits for that commit
                again.add(room.id)
                room.deferred += 1
                self.later(room, client, text)
            else:
                _run(room.handle_now, client, text)

    def _one_by_one(self, batch: list[_Pending], exc: BaseException) -> None:
        """The batch's transaction failed: store each room's write in a transaction of its
        own, so that a write that cannot be stored (a settlement the database refuses)
        fails its own room only, and every other room's write still goes through."""
        if len(batch) == 1:
            _run(batch[0].failed, exc)
            return
        log.warning(
            "group commit of %d writes failed (%r); storing them one by one", len(batch), exc
        )
        for p in batch:
            began = time.perf_counter()
            try:
                self.store.append_actions([p.write])
            except Exception as own:
                _run(p.failed, own)
            else:
                if self.observe is not None:
                    hand = isinstance(p.write, HandWrite)
                    _run(self.observe, time.perf_counter() - began, int(hand), int(not hand))
                _run(p.done)


def _run(fn: Callable[..., None], *args: Any) -> None:
    try:
        fn(*args)
    except Exception:
        log.exception("server callback failed")
