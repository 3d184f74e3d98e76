"""The group commit (:class:`Journal`): the accepted actions of many rooms go to the
database in one transaction, in a thread of its own; each is broadcast only after it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from paiju.server.ports import Writer
from paiju.server.rows import ActionWrite, HandWrite, Write
from paiju.server.store import Store

__all__ = ["SLOW_COMMIT", "After", "Journal"]


log = logging.getLogger("paiju.server")

T = TypeVar("T")


@dataclass(eq=False)
class _Pending:
    room: Writer
    write: Write | None
    """What to store (None: a read, :meth:`Journal.read`)."""
    done: Callable[[], None]
    failed: Callable[[BaseException], None]
    landed: bool = False
    read: Callable[[], Any] | None = None
    """What to read after the batch's writes (its answer goes to ``result``)."""
    result: Any = None


@dataclass(eq=False)
class _Flight:
    """A batch being stored by the writer thread."""

    batch: list[_Pending]
    future: concurrent.futures.Future[_Outcome]


@dataclass
class _Outcome:
    """What the writer thread did with a batch: one error (or None: stored) per write, and
    the seconds, hands and actions of what it stored."""

    errors: list[BaseException | None]
    seconds: float = 0.0
    hands: int = 0
    actions: int = 0


@dataclass(eq=False)
class After:
    """A call that waits for a room's writes to be stored (:meth:`Journal.after`); it can be
    cancelled as a timer is."""

    fn: Callable[[], None]
    _cancelled: bool = field(default=False, init=False)

    def cancel(self) -> None:
        self._cancelled = True

    def cancelled(self) -> bool:
        return self._cancelled


SLOW_COMMIT = 0.05
"""Seconds after which a group commit is logged as slow."""


class Journal:
    """Group commit of accepted actions: the actions of many rooms go to the database in one
    transaction; each is broadcast only after it.

    The transaction runs in one writer thread (a database of its own connection: a file or a
    server), so that the event loop answers every socket while the database works; the
    actions accepted meanwhile wait for the next transaction, which starts as soon as this
    one is stored (one commit in flight at a time: the log keeps its order). An in-memory
    SQLite database, one connection for all, is written on the loop.

    A room never has two actions in flight: its client messages, bots and timers wait
    for its write (:meth:`later`, :meth:`after`), and code that must read its state at once
    waits in place (:meth:`settle`, rare).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.pending: list[_Pending] = []
        """Writes not yet handed to the writer thread."""
        self.rooms: set[int] = set()
        """The rooms with a write pending or in flight."""
        self.waiting: list[tuple[Writer, Callable[[], None]]] = []
        """Client messages of rooms with an action in flight, handled after the commit."""
        self.observe: Callable[[float, int, int], None] | None = None
        """Told (seconds, hands, actions) after each group commit that stored its writes
        (``/metrics``)."""
        self.threaded = not store.shared_connection
        self._writer: concurrent.futures.ThreadPoolExecutor | None = None
        self._flight: _Flight | None = None
        self._after: dict[int, list[After]] = {}
        self._kicked = False
        self.spacing = 0.0
        """Seconds at least between the starts of two group commits while writes keep
        coming (0: the next starts as soon as one is stored). Under a steady load the
        writes of that time share one transaction, whose cost to the database is mostly
        its own, not its rows': a cluster node, which has a share of the load and so
        smaller commits of its own, makes fewer and larger ones. A write after a quiet
        spell is stored at once."""
        self.full = 32
        """Pending writes at which the next group commit no longer waits for
        :attr:`spacing`: a transaction of that many spreads its own cost thin already
        (about what one server with the whole of the bench's load gathers), and waiting
        longer would only delay them. A node with all of a cluster's load thus commits as
        one server does; one with a share of it, whose commits are smaller, waits."""
        self._began = -math.inf
        """When the last group commit started (``time.monotonic()``)."""
        self._timer: asyncio.TimerHandle | None = None
        """The spaced start of the next group commit, while one is waited for."""

    # -- what rooms hand in ------------------------------------------------------------

    def add(
        self,
        room: Writer,
        write: Write,
        done: Callable[[], None],
        failed: Callable[[BaseException], None],
    ) -> None:
        """Store ``write`` in the next group commit; then ``done()``, or ``failed(exc)``."""
        self.pending.append(_Pending(room, write, done, failed))
        self.rooms.add(room.id)
        self._kick()

    def read(
        self,
        room: Writer,
        fn: Callable[[], T],
        done: Callable[[T], None],
        failed: Callable[[BaseException], None],
    ) -> None:
        """Call ``fn()`` in the writer thread after the room's writes before it (a read of
        what they left stored); then ``done(answer)`` on the loop, or ``failed(exc)``. The
        room is held meanwhile as by a write: its messages, bots and timers wait for it."""

        def answered() -> None:
            done(pending.result)

        pending = _Pending(room, None, answered, failed, read=fn)
        self.pending.append(pending)
        self.rooms.add(room.id)
        self._kick()

    def later(self, room: Writer, handle: Callable[[], None]) -> None:
        """Handle a client message of ``room`` (``handle()``) after the next commit, in
        arrival order."""
        self.waiting.append((room, handle))
        self._kick()

    def after(self, room: Writer, fn: Callable[[], None]) -> After:
        """Call ``fn`` once the room's writes now pending or in flight are stored and their
        callbacks have run (before the client messages that waited for them)."""
        call = After(fn)
        self._after.setdefault(room.id, []).append(call)
        if not self.holds(room):  # nothing to wait for: the next turn of the loop
            asyncio.get_running_loop().call_soon(self._release)
        return call

    def holds(self, room: Writer) -> bool:
        return room.id in self.rooms

    async def settled(self, room: Writer) -> None:
        """Wait until the room has no write in flight (its callbacks have run)."""
        while self.holds(room):
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.after(room, functools.partial(_resolve, done))
            await done

    def settle(self, room: Writer) -> None:
        """Store the room's writes now, blocking the loop until they are (the fallback of
        code that must read the room's state at once, and of a shutdown)."""
        target = [p for p in (*self._flown(), *self.pending) if p.room is room]
        while any(not p.landed for p in target):
            flight = self._flight
            if flight is not None:
                concurrent.futures.wait([flight.future])
                self._landed(flight)
            else:
                self._start()

    def drain(self) -> None:
        """Store everything pending (blocking), and handle what waited for it: a shutdown."""
        for _ in range(100):  # messages that waited for a commit may act: store them too
            flight = self._flight
            if flight is not None:
                concurrent.futures.wait([flight.future])
                self._landed(flight)
            elif self.pending:
                self._start()
            elif self.waiting or self._after:
                self._release()
            else:
                break
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None

    # -- the commit --------------------------------------------------------------------

    def flush(self) -> None:
        """Start the next group commit (a turn of the loop after writes came in)."""
        self._kicked = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._flight is None:
            self._start()

    def _kick(self) -> None:
        if self._flight is not None:
            return
        loop = asyncio.get_running_loop()
        if self._kicked:
            if self._timer is not None and len(self.pending) >= self.full:
                self._timer.cancel()  # a full batch goes now, not at the spaced time
                self._timer = None
                loop.call_soon(self.flush)
            return
        self._kicked = True
        wait = 0.0
        if self.pending and len(self.pending) < self.full:
            wait = self._began + self.spacing - time.monotonic()
        if wait > 0:
            self._timer = loop.call_later(wait, self.flush)
        else:
            loop.call_soon(self.flush)

    def _flown(self) -> list[_Pending]:
        return [] if self._flight is None else self._flight.batch

    def _start(self) -> None:
        batch, self.pending = self.pending, []
        if not batch:
            self._release()
            return
        if not self.threaded:
            self._land(batch, self._store(batch))
            return
        self._began = time.monotonic()
        if self._writer is None:
            self._writer = concurrent.futures.ThreadPoolExecutor(1, "paiju-commit")
        future = self._writer.submit(self._store, batch)
        self._flight = _Flight(batch, future)
        # the callback names the future, not the flight: a flight holding its future holding
        # a callback holding the flight would be a cycle, left to the cyclic collector at
        # every commit (its pauses are what the players feel)
        future.add_done_callback(functools.partial(self._done, asyncio.get_running_loop()))

    def _done(
        self, loop: asyncio.AbstractEventLoop, future: concurrent.futures.Future[_Outcome]
    ) -> None:
        """In the writer thread: a batch is stored; the loop lands it."""
        with contextlib.suppress(RuntimeError):  # a closed loop: a shutdown drains in place
            loop.call_soon_threadsafe(self._landed_future, future)

    def _landed_future(self, future: concurrent.futures.Future[_Outcome]) -> None:
        flight = self._flight
        if flight is not None and flight.future is future:
            self._landed(flight)
        # else: landed already (waited for in place)

    def _landed(self, flight: _Flight) -> None:
        if self._flight is not flight:
            return  # landed already (waited for in place)
        self._flight = None
        self._land(flight.batch, flight.future.result())

    def _land(self, batch: list[_Pending], outcome: _Outcome) -> None:
        """On the loop: the batch's callbacks, then the calls and messages that waited."""
        for p in batch:
            p.landed = True
        self.rooms = {p.room.id for p in self.pending}
        if self.observe is not None and (outcome.hands or outcome.actions):
            _run(self.observe, outcome.seconds, outcome.hands, outcome.actions)
        for p, error in zip(batch, outcome.errors, strict=True):
            if error is None:
                _run(p.done)
            else:
                _run(p.failed, error)
        self._release()
        if self.pending or self.waiting:
            self._kick()

    def _release(self) -> None:
        """The calls and client messages of rooms whose writes are stored."""
        for room_id in [r for r in self._after if r not in self.rooms]:
            for call in self._after.pop(room_id):
                if not call.cancelled():
                    _run(call.fn)
        waiting, self.waiting = self.waiting, []
        again: set[int] = set()
        for room, handle in waiting:
            room.deferred -= 1
            if room.id in again or self.holds(room):
                # an earlier message of the room acted: this one waits for that commit
                again.add(room.id)
                room.deferred += 1
                self.waiting.append((room, handle))
            else:
                _run(handle)
        if self.waiting and not self.rooms:
            self._kick()

    def _store(self, batch: list[_Pending]) -> _Outcome:
        """In the writer thread: the batch's writes (:meth:`_write`), then its reads, each
        answer or error kept with its own pending entry."""
        writes = [p for p in batch if p.read is None]
        if len(writes) == len(batch):
            return self._write(writes)
        outcome = self._write(writes) if writes else _Outcome([])
        errors = dict(zip(map(id, writes), outcome.errors, strict=True))
        for p in batch:
            if p.read is not None:
                try:
                    p.result = p.read()
                except Exception as exc:
                    errors[id(p)] = exc
                else:
                    errors[id(p)] = None
        outcome.errors = [errors[id(p)] for p in batch]
        return outcome

    def _write(self, batch: list[_Pending]) -> _Outcome:
        """In the writer thread: the writes in one transaction; if that fails, each in a
        transaction of its own, so that a write the database refuses (a settlement it
        cannot hold) fails its own room only, and every other room's write still goes
        through."""
        began = time.perf_counter()
        try:
            self.store.append_actions([p.write for p in batch if p.write is not None])
        except Exception as exc:
            if len(batch) == 1:
                return _Outcome([exc])
            log.warning(
                "group commit of %d writes failed (%r); storing them one by one", len(batch), exc
            )
        else:
            took = time.perf_counter() - began
            if took > SLOW_COMMIT:
                log.warning("slow commit: %d writes took %.0f ms", len(batch), took * 1000)
            hands = sum(isinstance(p.write, HandWrite) for p in batch)
            actions = sum(isinstance(p.write, ActionWrite) for p in batch)
            return _Outcome([None] * len(batch), took, hands, actions)
        outcome = _Outcome([])
        for p in batch:
            began = time.perf_counter()
            try:
                self.store.append_actions([] if p.write is None else [p.write])
            except Exception as own:
                outcome.errors.append(own)
            else:
                outcome.errors.append(None)
                outcome.seconds += time.perf_counter() - began
                outcome.hands += isinstance(p.write, HandWrite)
                outcome.actions += isinstance(p.write, ActionWrite)
        return outcome


def _run(fn: Callable[..., Any], *args: Any) -> None:
    try:
        fn(*args)
    except Exception:
        log.exception("server callback failed")


def _resolve(done: asyncio.Future[None]) -> None:
    if not done.done():
        done.set_result(None)
