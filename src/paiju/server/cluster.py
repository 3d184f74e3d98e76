"""A cluster of server nodes: ``paiju serve --db postgresql://… --redis redis://… --node NAME``.

Each room lives on one node (the holder of its lease, :mod:`paiju.server.lease`); any node
answers the lobby and every REST call from the shared PostgreSQL database, and passes a
call that acts on a room it does not hold to the node that holds it. The database also
holds the nodes' presence - name, public URL, load, live until when by its own clock -
and the secret of the calls the nodes pass on (:class:`paiju.server.lease.Nodes`): a node
is known by what the authenticated database says. Redis counts the limits only
(:mod:`paiju.server.shared_limits`); without it the rooms play on.

Every :attr:`NodeConfig.renew_every` seconds a node:

1. checks that it still holds its name's lock (:meth:`SharedStore.keep_name`: the lock
   ends with its database session, when PostgreSQL restarts or the connection is cut),
   taking it again as soon as the database answers, then writes its presence and renews
   its leases, in one transaction, from a thread of its own (:meth:`Cluster._renew_loop`:
   a busy event loop does not hold it up). A node that cannot reach the database stops
   renewing and drops its rooms before their leases can expire (its sockets are told; the
   epoch fence refuses its writes anyway). A node that finds its name held by another
   process gives every room up and takes no new work (:meth:`Cluster._displaced`);
2. reads the other nodes' presence (:meth:`Cluster.tick`), and takes over rooms whose
   lease has expired (a node died, or was cut off), the least loaded nodes first, and
   recovers each one from its event log exactly as a restarted single server does
   (:meth:`paiju.server.hub.Hub.resume_room`): the hand in play is replayed from its seed
   and log, the decision timers restart, the players reconnect.

A socket that reaches a node which does not hold its room is refused with ``wrong_node``
(close code 4308), its message naming the WebSocket URL of the node that does, or saying
that the room is moving; the room's info (``GET /api/rooms/{id}``, from any node) says the
same in ``node`` and ``ws``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import random
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import TYPE_CHECKING, Any, TypeVar

import httpx
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError, OperationalError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from paiju.errors import PaijuError
from paiju.server.journal import Journal
from paiju.server.lease import Lease, SharedStore, StaleLease
from paiju.server.messages import RoomInfo
from paiju.server.metrics import CONTENT_TYPE, NodeMetrics
from paiju.server.net import keep_alive_seconds, replayed
from paiju.server.ports import Writer
from paiju.server.rows import HandRow, RoomRow, Write, seated
from paiju.server.spread import to_give_up
from paiju.server.store import token_status

if TYPE_CHECKING:
    from paiju.server.hub import Hub
    from paiju.server.room import Room

__all__ = ["Cluster", "FencedJournal", "NodeConfig", "install"]

log = logging.getLogger("paiju.server")

T = TypeVar("T")

GIVEN_UP_FOR = 5.0
"""Seconds a room a node gave up to spread the load is left to the other nodes' claims."""

WRONG_NODE_CLOSE = 4308
"""The close code of a socket that reached a node which does not hold its room."""

FORWARDED = "x-paiju-forwarded"
"""The header of a REST call one node passed to another (never passed on again): the
cluster's secret, which the nodes share through the database; the call's client address
(:data:`CLIENT`) is believed only with it."""

CLIENT = "x-paiju-client"
"""The address of the client of a call passed on by a node."""
_ROOM_PATH = re.compile(r"^/api/rooms/([0-9]{1,19})(?:/([a-z]+))?$")
"""A call on one room: ``/api/rooms/{id}`` or ``/api/rooms/{id}/{route}`` (the path as
the app sees it, percent-decoded: a ``..%2F`` is a ``../`` here and matches nothing)."""

_CONSOLE_ROOM_PATH = re.compile(r"^/api/admin/rooms/([0-9]{1,19})(?:/([a-z]+))?$")
"""A console call on one room: ``/api/admin/rooms/{id}`` (its public view) or
``/api/admin/rooms/{id}/{route}`` (:data:`CONSOLE_ROUTES`)."""

CONSOLE_ROUTES = frozenset({"close", "notice"})
"""The console's calls on a room that are passed to its node (with the staff member's
session, which every node reads from the shared database)."""

ROOM_ROUTES = frozenset(
    {"join", "leave", "start", "close", "spectate", "suggestions", "check"}
    | {"invite", "summary", "again"}  # 邀请牌友, the 总结算, 再来一局
)
"""The calls on a room that are passed to its node; the call passed on is built from the
parsed room id and one of these, never from the path the client sent."""

ROOM_ID_MAX = 2**31 - 1
"""The largest room id the shared database holds (PostgreSQL's ``integer``)."""

_NOT_PASSED_ON = frozenset(
    {"host", "content-length", "connection", "forwarded", "x-forwarded-for", "x-real-ip"}
    | {"x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", FORWARDED, CLIENT}
)
"""Headers a node does not pass on: the hop's own, and every claim about the client's
address (the node that passes a call names its client in :data:`CLIENT`, itself)."""

FORWARD_TIMEOUT = 10.0
"""Seconds a call passed on to another node may take (connecting, writing, reading)."""

FULL_CLAIM_EVERY = 60
"""Ticks between two takeover queries that also look for open rooms without any lease
(the others walk the expired leases only, :meth:`paiju.server.lease.Leases.claim`)."""


CLOCK_EVERY = 30
"""Renewal rounds between two measures of the database's clock (:meth:`SharedStore.clock`)."""

OPEN = ("waiting", "playing")
"""The statuses ``GET /api/rooms`` lists when it is not given one: the open rooms."""

FINISHED_LISTED = 100
"""The newest finished rooms ``GET /api/rooms?status=finished`` lists (a single server
lists those of its last minute, still in memory; the database keeps them all)."""


@dataclass(frozen=True)
class NodeConfig:
    """One node of a cluster."""

    name: str
    public_url: str
    """The node's own address as clients reach it, e.g. ``http://10.0.0.2:8000`` or
    ``https://games.example/node/a`` behind a proxy; its sockets are under it."""
    redis_url: str
    lease_ttl: float = 5.0
    """Seconds a lease lasts unless renewed: a dead node's rooms wait this long. A node
    renews every second from its event loop, which a heavy load can hold up for a second
    or more: the lease outlasts several missed renewals."""
    renew_every: float = 1.0
    claim_batch: int = 20
    """Rooms a node takes over at a time: a tick takes batch after batch while they come
    full, for half a tick at most."""
    commit_spacing: float = 0.016
    """Seconds at least between the starts of this node's group commits under a steady
    load (:attr:`Journal.spacing`): a node with a share of the cluster's load gathers more
    writes per transaction than it would without (fewer commits for the database, whose
    cost is mostly per commit), though not as many as one server with all of the load.
    An action after a quiet spell is stored at once; under load one waits this long at
    most for its commit."""

    @property
    def ws_base(self) -> str:
        url = self.public_url.rstrip("/")
        if url.startswith("https://"):
            return "wss://" + url[len("https://") :]
        if url.startswith("http://"):
            return "ws://" + url[len("http://") :]
        return url


@dataclass
class NodeInfo:
    """A live node as its presence in the database shows it."""

    name: str
    url: str
    rooms: int = 0
    connections: int = 0
    seen: float = field(default_factory=time.monotonic)
    """Monotonic time (of this node) of the node's last presence write, by its age in the
    database (the database's clock, never another host's)."""

    @property
    def ws_base(self) -> str:
        return NodeConfig(self.name, self.url, "").ws_base


@dataclass(frozen=True)
class _Facts:
    """What the infos of rooms other nodes play take from the database."""

    names: dict[int, str]
    """player -> name"""
    hands: dict[int, int]
    """room -> its latest hand's id"""
    leases: dict[int, Lease]
    """room -> its lease"""


class FencedJournal(Journal):
    """The group commit of a node: a write refused for a stale lease drops its room from
    this node (the room is played elsewhere now) instead of failing the action. The
    callbacks of a room object this node no longer plays (dropped while its write or read
    was in flight, and perhaps taken again since as a new object) are not run: it would
    act beside the room's new object, or drop it."""

    def __init__(self, store: SharedStore, cluster: Cluster) -> None:
        super().__init__(store)
        self.cluster = cluster

    def _plays(self, room: Writer) -> bool:
        return self.cluster.hub.rooms.get(room.id) is room

    def add(
        self,
        room: Writer,
        write: Write,
        done: Callable[[], None],
        failed: Callable[[BaseException], None],
    ) -> None:
        cluster = self.cluster

        def stored() -> None:
            if self._plays(room):
                done()

        def refused(exc: BaseException) -> None:
            if not self._plays(room):
                return
            if isinstance(exc, StaleLease) or room.id not in cluster.store.fence:
                cluster.drop(room.id, "its lease moved to another node")
            elif _already_stored(exc):
                # a commit whose answer was lost (the database went away in between) and
                # was made again: the log holds the write, the room resumes from it
                cluster.drop(room.id, "its last write is in the log already", release=True)
            else:
                try:
                    failed(exc)  # the room goes back to its last stored state (:meth:`read`)
                except Exception as again:
                    log.error("room %s: its failed write not handled: %r", room.id, again)
                    cluster.drop(room.id, "its failed write was not handled", release=True)

        if room.id not in cluster.store.fence or time.monotonic() >= cluster.valid_until:
            # not (or no longer surely) this node's room: refused before the database
            asyncio.get_running_loop().call_soon(refused, StaleLease([room.id]))
            return
        super().add(room, write, stored, refused)

    def read(
        self,
        room: Writer,
        fn: Callable[[], T],
        done: Callable[[T], None],
        failed: Callable[[BaseException], None],
    ) -> None:
        """A room's read after its writes (its stored hand, after a write failed): the
        database not answering, the room is given up here and resumed from its log at the
        next claim (by any node, this one too) instead of waiting for it."""
        cluster = self.cluster

        def answered(value: T) -> None:
            if self._plays(room):
                done(value)

        def unread(exc: BaseException) -> None:
            if self._plays(room):
                log.error("room %s: cannot read its stored state: %r", room.id, exc)
                cluster.drop(room.id, "the database does not answer", release=True)

        super().read(room, fn, answered, unread)


class Cluster:
    """This node's part in the cluster: presence, leases, takeovers, placement."""

    def __init__(self, hub: Hub, store: SharedStore, config: NodeConfig) -> None:
        self.hub = hub
        self.store = store
        self.config = config
        self.nodes: dict[str, NodeInfo] = {}
        self.valid_until = 0.0
        """Monotonic time until which this node's leases are surely its own."""
        self.db_ok = False
        """Whether the last renewal reached the database."""
        self.adopted = 0
        self.dropped = 0
        self._task: asyncio.Task[None] | None = None
        self._started = time.time()
        self.metrics: NodeMetrics | None = None
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None
        self._load = (0, 0)
        """This node's load (open rooms, sockets), counted by the loop, sent by the renewer."""
        self.secret = ""
        """The cluster's shared secret of calls passed between nodes (from the database)."""
        self._ticks = 0
        self._named = False
        """Whether this process took its node's name (its presence is its own to delete)."""
        self._telling: set[asyncio.Task[None]] = set()
        """Dropped rooms' sockets waiting to be told where their room went."""
        self._http: httpx.AsyncClient | None = None
        self._given_up: dict[int, float] = {}
        """Rooms this node gave up to spread them (:meth:`_spread`), not to be claimed
        back by it until when (monotonic)."""
        store.on_stale = self._refused

    # -- life ---------------------------------------------------------------------------

    async def start(self) -> int:
        """Join the cluster: this node's name, its presence, then every room it can take
        now (its own earlier run's, expired ones, unowned ones). Returns how many rooms
        it took. Needs the database, not Redis (which only counts the limits)."""
        await self._hold_name()
        self._named = True
        self.secret = await asyncio.to_thread(self.store.nodes.secret)
        if not await self.refresh():
            raise PaijuError(f"node {self.config.name}: cannot write its presence")
        self.db_ok = True
        self.valid_until = time.monotonic() + self.config.lease_ttl
        taken = 0
        while True:
            claimed = self.store.leases.claim(
                self.config.claim_batch, own=True, full=True, held=list(self.store.fence)
            )
            if not claimed:
                break
            taken += await self._adopt(claimed)
        self._load = self._count()
        self._task = asyncio.create_task(self._run())
        self._renewer = threading.Thread(
            target=self._renew_loop, args=(asyncio.get_running_loop(),), daemon=True
        )
        self._renewer.start()
        return taken

    async def _hold_name(self) -> None:
        """Take this node's name (:meth:`SharedStore.hold_name`), waiting up to a lease
        time for an earlier process of the name to end; raises if it does not."""
        end = time.monotonic() + self.config.lease_ttl
        while not self.store.hold_name():
            if time.monotonic() >= end:
                raise PaijuError(
                    f"another process is running as node {self.config.name} on this"
                    " database; stop it first, or give this one another --node"
                )
            await asyncio.sleep(0.25)

    @property
    def http(self) -> httpx.AsyncClient:
        """The client of the calls this node passes on to the others: one for the node's
        life, its connections kept open between calls (a client a call would build a TLS
        context each time, the most of a forwarded call's cost)."""
        if self._http is None:
            self._http = forwarding_client(self.hub.limits.keep_alive)
        return self._http

    async def stop(self) -> None:
        """Leave the cluster: hand the leases back (other nodes take the rooms at once)."""
        self._stop.set()
        if self._http is not None:
            with contextlib.suppress(Exception):
                await self._http.aclose()
            self._http = None
        if self._renewer is not None:
            await asyncio.to_thread(self._renewer.join, 5.0)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._telling:  # dropped rooms' sockets are told before the node goes
            await asyncio.wait(set(self._telling), timeout=5.0)
        with contextlib.suppress(Exception):
            self.store.leases.release(dict(self.store.fence))
        self.store.fence.clear()
        if self._named and not self.store.displaced:
            # (the presence of a name another process holds is that process's)
            with contextlib.suppress(Exception):
                self.store.nodes.leave()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.config.renew_every)
            try:
                await self.tick()
            except Exception:
                log.exception("cluster tick failed")

    async def tick(self) -> None:
        """Presence of the others, releases, takeovers (see the module's description);
        the renewals run in a thread of their own (:meth:`_renew_loop`). Nothing once
        another process holds this node's name."""
        if self.store.displaced:
            return
        ok = await self.refresh()
        fence = self.store.fence
        # the finished rooms that left memory: their leases go back, in one statement
        gone = {r: fence.pop(r) for r in [r for r in fence if r not in self.hub.rooms]}
        if gone:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.leases.release, gone)
        # the renewals fell behind: give the rooms up while the leases still hold
        if time.monotonic() + self.config.renew_every >= self.valid_until - 1.0:
            for room_id in list(fence):
                self.drop(room_id, "this node lost touch with the database")
            return
        if not ok or not self.db_ok:
            return
        if self.store.hand_ids_low():
            with contextlib.suppress(Exception):  # the next deals' ids, taken off the loop
                await asyncio.to_thread(self.store.top_up_hand_ids)
        self._spread()
        given_up = [r for r, until in self._given_up.items() if until > time.monotonic()]
        self._given_up = {r: self._given_up[r] for r in given_up}
        held = [*fence, *given_up]  # a room this node gave up goes to another
        # the least loaded live nodes take over first
        mine = (len(self.hub.rooms), self.config.name)
        rank = sum(1 for n in self.nodes.values() if (n.rooms, n.name) < mine)
        if rank:
            await asyncio.sleep(min(0.5, 0.15 * rank) + random.random() * 0.05)
        self._ticks += 1
        full = self._ticks % FULL_CLAIM_EVERY == 0  # rooms without a lease: once a minute
        if full:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.nodes.forget)
        batch = self.config.claim_batch
        until = time.monotonic() + self.config.renew_every / 2
        claimed = await asyncio.to_thread(self.store.leases.claim, batch, full=full, held=held)
        while claimed:
            await self._adopt(claimed)
            # a full batch: more rooms wait (a dead node held many); take them a batch at
            # a time for half a tick, as the other live nodes do in theirs (a claim skips
            # the rooms another holds or is taking), so that a node of a thousand rooms is
            # taken over in seconds, not in a tick for every batch of them
            if len(claimed) < batch or time.monotonic() >= until or self.store.displaced:
                break
            claimed = await asyncio.to_thread(
                self.store.leases.claim, batch, held=[*fence, *given_up]
            )

    def _spread(self) -> None:
        """Give rooms up, between hands, while this node plays more than its share of the
        live nodes' (:func:`~paiju.server.spread.to_give_up`): after a PostgreSQL restart
        the first node back took nearly all of them. Their leases are released, so the
        least loaded node takes them over from their logs; their sockets are told to
        reconnect there."""
        me = self.config.name
        others = sorted(n.rooms for n in self.nodes.values() if n.name != me)
        if others:  # the rooms given up lately count as taken, by the least loaded
            now = time.monotonic()
            others[0] += sum(1 for until in self._given_up.values() if until > now)
        count = to_give_up(len(self.hub.rooms), others)
        if not count:
            return
        movable = [r for r in self.hub.rooms.values() if r.between_hands()][:count]
        for room in movable:
            self._given_up[room.id] = time.monotonic() + GIVEN_UP_FOR
            self.drop(room.id, "spread over the live nodes between hands", release=True)
        if movable:
            log.info("node %s: gave %d rooms up to the others", me, len(movable))

    def _renew_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """The renewals, in a thread: a busy event loop does not hold them up. Each
        second, one transaction writes this node's presence and extends its leases (in
        the database, which alone decides who plays a room: Redis may be away, the rooms
        play on); the rooms whose lease was lost are dropped on the loop. Before it, the
        name's lock is checked (one query on its own connection) and taken again if its
        session ended; if another process holds the name by then, this node renews
        nothing more and gives every room up (:meth:`_displaced`)."""
        nodes = self.store.nodes
        rounds = 0
        while not self._stop.wait(self.config.renew_every):
            rounds += 1
            if rounds % CLOCK_EVERY == 0:
                with contextlib.suppress(Exception):
                    self.store.sync_clock()
            began = time.monotonic()
            held = dict(self.store.fence)
            rooms, connections = self._load
            try:
                name = self.store.keep_name()
                if name == "taken":
                    self.valid_until = 0.0  # the journal refuses every write from now on
                    given = dict(self.store.fence)
                    loop.call_soon_threadsafe(self._displaced)
                    with contextlib.suppress(Exception):
                        self.store.leases.release(given)  # any node may take them at once
                    return
                if name == "again":
                    log.warning(
                        "node %s: its name's lock had ended with its database session (the"
                        " database restarted, or the connection was cut); taken again",
                        self.config.name,
                    )
                kept = self.store.leases.renew(
                    held, (nodes, self.config.public_url, rooms, connections)
                )
            except Exception as exc:
                if self.db_ok:
                    log.error("node %s: cannot renew its leases: %r", self.config.name, exc)
                self.db_ok = False
                continue
            if not self.db_ok:
                log.warning("node %s: the database answers again", self.config.name)
            self.db_ok = True
            self.valid_until = began + self.config.lease_ttl
            lost = {r: e for r, e in held.items() if r not in kept}
            if lost:
                loop.call_soon_threadsafe(self._lost, lost)

    def _displaced(self) -> None:
        """Another process holds this node's name (this one's lock ended with its
        database session, and the other took the name before this one could again): it
        has taken, or will take, the name's leases back as its own. Every room is given
        up as on a stale lease (the sockets are told ``wrong_node``; the store and the
        journal refuse every write of this process already), and nothing new is taken:
        no takeovers, no presence, no new rooms. For good: a restart of this process
        waits for the name, and refuses to start while the other holds it."""
        rooms = list(self.store.fence)
        log.error(
            "node %s: another process runs as node %s now (this one's lock on the name"
            " ended with its database session): this process gives up its %d rooms, takes"
            " no new work and no longer counts as node %s; stop it",
            self.config.name,
            self.config.name,
            len(rooms),
            self.config.name,
        )
        for room_id in rooms:
            self.drop(room_id, f"another process runs as node {self.config.name}")

    def _refused(self, stale: StaleLease) -> None:
        """A room write was refused for a stale lease: the room is another node's now."""
        for room_id in stale.rooms:
            self.drop(room_id, "its lease moved to another node")

    def _lost(self, lost: dict[int, int]) -> None:
        for room_id, epoch in lost.items():
            if self.store.fence.get(room_id) == epoch:
                self.drop(room_id, "its lease was taken by another node")

    async def _adopt(self, claimed: list[tuple[int, int]]) -> int:
        """Play the rooms whose leases this node just took (room, epoch): their rows and
        latest hands are read in a worker thread first, and each room is resumed on the
        loop from them (the rooms this node plays already go on meanwhile); a room over
        since gives its lease back."""
        fence = self.store.fence
        try:
            found, names = await asyncio.to_thread(self._taken, [r for r, _ in claimed])
        except Exception:
            for room_id, epoch in claimed:  # held: the next tick gives them back
                fence.setdefault(room_id, epoch)
            raise
        count = 0
        over: dict[int, int] = {}
        for room_id, epoch in claimed:
            if room_id in fence:  # pragma: no cover - the claim skips held rooms
                log.error("node %s: claimed room %d it holds", self.config.name, room_id)
                fence[room_id] = epoch
                continue
            row, hand = found.get(room_id, (None, None))
            if row is None or row.status not in ("waiting", "playing"):
                over[room_id] = epoch
                continue
            fence[room_id] = epoch
            old = self.hub.rooms.pop(room_id, None)
            if old is not None:
                _silence(old)
            if self.hub.resume_room(row, hand, names) is not None:
                count += 1
                self.adopted += 1
                log.info("node %s: took over room %d (lease %d)", self.config.name, room_id, epoch)
            else:
                fence.pop(room_id, None)
        if over:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.leases.release, over)
        return count

    def _taken(
        self, room_ids: list[int]
    ) -> tuple[dict[int, tuple[RoomRow, HandRow | None]], dict[int, str]]:
        """The rows of rooms just taken over, the latest hand of each one in play, and the
        names of their players (in a worker thread: queries of the database)."""
        rows = self.store.rooms_by_id(room_ids)
        found = {
            r.id: (r, self.store.current_hand(r.id) if r.status == "playing" else None)
            for r in rows.values()
        }
        return found, self.store.player_names(seated(rows.values()))

    def drop(self, room_id: int, why: str, release: bool = False) -> None:
        """Stop playing a room here: its sockets are told where it went (or that it is
        moving: to ask again in a few seconds). Never raises: the database may be away,
        and the sockets are told all the same. With ``release`` the lease goes back at
        once (if the database answers), so that the room is taken - by any node, this
        one too - and resumed from its log at the next claim.

        The room stops at once; the database (releasing the lease, reading where the
        room went) is asked in a worker thread, and the sockets are told after it, so
        that a database slow to answer holds up no other room of the node."""
        epoch = self.store.fence.pop(room_id, None)
        room = self.hub.rooms.pop(room_id, None)
        if room is not None:
            self.dropped += 1
            log.warning("node %s: dropped room %d: %s", self.config.name, room_id, why)
            try:
                _silence(room)
            except Exception:
                log.exception("room %s: not silenced", room_id)
        freed = epoch if release else None
        if room is None and freed is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a shutdown): in place
            self._tell_dropped(room, room_id, why, self._away(room_id, freed))
            return
        task = loop.create_task(self._drop_later(room, room_id, why, freed))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def _drop_later(
        self, room: Room | None, room_id: int, why: str, freed: int | None
    ) -> None:
        where = await asyncio.to_thread(self._away, room_id, freed)
        self._tell_dropped(room, room_id, why, where)

    def _away(self, room_id: int, freed: int | None) -> tuple[str, str] | None:
        """In a worker thread (or in place): the lease of epoch ``freed`` given back, or,
        none given back, where the room is played now. Never raises."""
        if freed is not None:
            try:
                self.store.leases.release({room_id: freed})
            except Exception as exc:
                log.warning(
                    "node %s: room %d's lease not released: %r", self.config.name, room_id, exc
                )
            return None
        try:
            return self.locate(room_id)
        except Exception:
            return None

    def _tell_dropped(
        self, room: Room | None, room_id: int, why: str, where: tuple[str, str] | None
    ) -> None:
        if room is None:
            return
        message = (
            f"room {room_id} moved ({why}); reconnect to {where[1]}"
            if where is not None
            else f"room {room_id} is moving to another node ({why}); GET /api/rooms/{room_id}"
            " in a few seconds says where to reconnect"
        )
        for client in room.clients():
            with contextlib.suppress(Exception):
                client.error("wrong_node", message)
                client.close(WRONG_NODE_CLOSE, "wrong_node")

    # -- calls other nodes passed on --------------------------------------------------

    def trusts(self, passed: str) -> bool:
        """Whether ``passed`` (the :data:`FORWARDED` header of a call) is the cluster's
        secret: the call was passed on by a node, and its :data:`CLIENT` is believed."""
        return bool(self.secret) and hmac.compare_digest(passed.encode(), self.secret.encode())

    async def ask_others(
        self, path: str, headers: dict[str, str], timeout: float
    ) -> dict[str, dict[str, Any] | None]:
        """``GET path`` of every other live node at once (with ``headers``, a staff
        member's session, say): each node's JSON answer, or None for a node that did not
        answer with 200 within ``timeout`` seconds."""
        now = time.monotonic()
        me = self.config.name
        live = [
            n for n in self.nodes.values() if n.name != me and now - n.seen <= self.stale_after()
        ]

        async def ask(node: NodeInfo) -> dict[str, Any] | None:
            try:
                answer = await self.http.get(
                    node.url.rstrip("/") + path, headers=headers, timeout=timeout
                )
                found = answer.json() if answer.status_code == 200 else None
            except (httpx.HTTPError, ValueError) as exc:
                log.warning("node %s: node %s did not answer %s: %r", me, node.name, path, exc)
                return None
            return found if isinstance(found, dict) else None

        answers = await asyncio.gather(*(ask(n) for n in live))
        return {n.name: a for n, a in zip(live, answers, strict=True)}

    # -- where new rooms go ------------------------------------------------------------

    def candidates(self) -> list[NodeInfo]:
        """The live nodes a new room may go to, the least loaded first: fewest open rooms,
        then fewest connections, then this node (no hop), then by name. A node whose
        presence was not renewed for :meth:`stale_after` seconds is left out (it may be
        dead; its presence key has not expired yet); this node is always a candidate."""
        now = time.monotonic()
        me = self.config.name
        own = self.load()
        found = [NodeInfo(me, self.config.public_url, own["rooms"], own["connections"], now)]
        found += [
            n for n in self.nodes.values() if n.name != me and now - n.seen <= self.stale_after()
        ]
        return sorted(found, key=lambda n: (n.rooms, n.connections, n.name != me, n.name))

    def stale_after(self) -> float:
        """Seconds without a presence write after which a node is not given new rooms."""
        return min(self.config.lease_ttl, 2.5 * self.config.renew_every)

    # -- where rooms are ---------------------------------------------------------------

    def counts(self) -> tuple[int, int, int, int]:
        """(leases held, live nodes seen, rooms taken over, rooms dropped): the node's
        metrics read them at each scrape."""
        return len(self.store.fence), len(self.nodes), self.adopted, self.dropped

    def placement(self, room_id: int) -> dict[str, str]:
        """``node`` and ``ws`` of a room's info: who plays it, where its socket is. For a
        room this node no longer plays (its object asked after it left), nothing: the
        database is not asked on the loop, and the room's sockets were told where it went
        when it left (a socket to it here is told again, :meth:`refusal`)."""
        if room_id in self.hub.rooms:
            return {"node": self.config.name, "ws": self._ws(self.config.ws_base, room_id)}
        return {}

    def _holder(self, room_id: int) -> NodeInfo | None:
        """The live node holding the room's lease, if another one does (as far as this
        node has seen the others' presence)."""
        return self._holding(self.store.leases.holders([room_id]).get(room_id))

    def _holding(self, lease: Lease | None) -> NodeInfo | None:
        """The node of ``lease`` if it is live and another node's (as far as this node has
        seen the others' presence)."""
        if lease is None or not lease.live or lease.node == self.config.name:
            return None
        return self.nodes.get(lease.node)

    async def _see_nodes_of(self, leases: Iterable[Lease]) -> None:
        """Read the nodes' presence again if a live lease names a node this one has not
        seen yet (it joined since this node's last tick), so that what this node answers
        about its rooms names it."""
        me = self.config.name
        if any(x.live and x.node != me and x.node not in self.nodes for x in leases):
            await self.refresh()

    def locate(self, room_id: int) -> tuple[str, str] | None:
        """(node, WebSocket URL) of the live node holding the room, if another one does."""
        node = self._holder(room_id)
        return None if node is None else (node.name, self._ws(node.ws_base, room_id))

    async def holder(self, room_id: int) -> NodeInfo | None:
        """The live node holding the room's lease, if another one does: the lease read in
        a worker thread (the event loop plays on meanwhile), and the nodes' presence read
        again first if it names a node this one has not seen yet (it joined since this
        node's last tick), so that a forwarded call or a socket's redirect names it."""
        leases = await asyncio.to_thread(self.store.leases.holders, [room_id])
        await self._see_nodes_of(leases.values())
        return self._holding(leases.get(room_id))

    async def refusal(self, room_id: int) -> tuple[str, str, int]:
        """What a socket to a room this node does not play is told: (error code, message,
        close code). ``wrong_node`` (4308) naming the node that plays the room, or saying
        that it is moving (its node is not known now, or the database does not answer);
        ``no_room`` (4404) only when the database shows no such open room."""
        moving = (
            "wrong_node",
            f"room {room_id} is moving to another node; GET /api/rooms/{room_id} in a few"
            " seconds says where to reconnect",
            WRONG_NODE_CLOSE,
        )
        if not 1 <= room_id <= ROOM_ID_MAX:
            return "no_room", f"no open room {room_id}", 4404
        try:
            holder = await self.holder(room_id)
            if holder is not None:
                url = self._ws(holder.ws_base, room_id)
                message = f"room {room_id} is played on node {holder.name}: connect to {url}"
                return "wrong_node", message, WRONG_NODE_CLOSE
            row = await asyncio.to_thread(self.store.room, room_id)
        except Exception as exc:
            log.warning("node %s: cannot tell where room %d is: %r", self.config.name, room_id, exc)
            return moving
        if row is not None and row.status in ("waiting", "playing"):
            return moving
        return "no_room", f"no open room {room_id}", 4404

    @staticmethod
    def _ws(base: str, room_id: int) -> str:
        return f"{base}/ws/rooms/{room_id}"

    async def room_infos(self, rows: Sequence[RoomRow]) -> list[RoomInfo]:
        """The infos of rooms: those this node plays from memory, the others from the
        database - their players' names, latest hands and leases in three queries however
        many rooms there are, in a worker thread (the event loop keeps playing the node's
        rooms meanwhile). A lease naming a node this one has not seen yet (it joined since
        this node's last tick) reads the nodes' presence again first, so that the infos
        name it."""
        remote = [r for r in rows if r.id not in self.hub.rooms]
        facts = await asyncio.to_thread(self._facts, remote) if remote else _Facts({}, {}, {})
        await self._see_nodes_of(facts.leases.values())
        out = []
        for row in rows:
            local = self.hub.rooms.get(row.id)
            out.append(local.info() if local is not None else self._info_of(row, facts))
        return out

    def _facts(self, rows: Sequence[RoomRow]) -> _Facts:
        """What the infos of rooms other nodes play take from the database (blocking)."""
        humans = sorted({p for r in rows for p in r.seat_players if p is not None})
        started = [r.id for r in rows if r.status != "waiting"]
        return _Facts(
            names=self.store.player_names(humans),
            hands=self.store.latest_hand_ids(started),
            leases=self.store.leases.holders([r.id for r in rows]),
        )

    def _info_of(self, row: RoomRow, facts: _Facts) -> RoomInfo:
        """A room's info from the database (a room another node plays, or none does)."""
        from paiju.catalog import find_variant
        from paiju.server.options import RoomOptions

        variant = find_variant(row.code)
        names = facts.names
        control: list[Any] = [
            "bot" if b else ("open" if p is None else "player")
            for p, b in zip(row.seat_players, row.seat_bots, strict=True)
        ]
        held = self._holding(facts.leases.get(row.id))
        where = {} if held is None else {"node": held.name, "ws": self._ws(held.ws_base, row.id)}
        return RoomInfo(
            id=row.id,
            code=row.code,
            name_zh=variant.name_zh,
            name_en=variant.name_en,
            status=row.status,
            seats=row.seats,
            players=[
                "bot" if b else (None if p is None else names.get(p))
                for p, b in zip(row.seat_players, row.seat_bots, strict=True)
            ],
            control=control,
            options=RoomOptions.model_validate(row.options).model_dump(),
            game_options=dict(row.game_options),
            hands_played=row.hands_played,
            game=facts.hands.get(row.id),
            owner=row.owner_id,
            seat_players=list(row.seat_players),
            ready=[b or r for b, r in zip(row.seat_bots, row.ready_marks(), strict=True)],
            invite=row.invite if row.status in ("waiting", "playing") else None,
            **where,
        )

    # -- presence ----------------------------------------------------------------------

    def open_rooms(self) -> int:
        """The rooms this node plays now (waiting or playing; not those just over)."""
        return sum(1 for r in self.hub.rooms.values() if r.status in ("waiting", "playing"))

    def _count(self) -> tuple[int, int]:
        """This node's load: open rooms, open sockets."""
        sockets = sum(len(r.clients()) for r in self.hub.rooms.values())
        return self.open_rooms(), sockets

    def load(self) -> dict[str, Any]:
        rooms, connections = self._count()
        return {
            "name": self.config.name,
            "url": self.config.public_url,
            "rooms": rooms,
            "connections": connections,
            "pid": os.getpid(),
            "started": self._started,
        }

    async def refresh(self) -> bool:
        """Write this node's presence and read every live node's now (in the database,
        off the event loop); False when the database does not answer, and once another
        process holds this node's name (whose presence it is)."""
        if self.store.displaced:
            return False
        self._load = self._count()
        rooms, connections = self._load
        try:
            found = await asyncio.to_thread(
                self.store.nodes.present, self.config.public_url, rooms, connections
            )
        except Exception as exc:
            log.debug("node %s: presence not read: %r", self.config.name, exc)
            return False
        read = time.monotonic()
        self.nodes = {
            p.name: NodeInfo(p.name, p.url, p.rooms, p.connections, read - max(0.0, p.age))
            for p in found
        }
        return True


def _already_stored(exc: BaseException) -> bool:
    """Whether a write failed on a unique key (PostgreSQL's ``unique_violation``): what
    it adds is in the database already."""
    orig = getattr(exc, "orig", None)
    return isinstance(exc, IntegrityError) and getattr(orig, "sqlstate", None) == "23505"


def _silence(room: Room) -> None:
    """Cancel everything a room would do on its own (timers, bots, the next deal, the
    fill), and make the object inert: it is no longer this node's to play."""
    room.stop_clocks()
    for s in room.seats:
        if s.away_handle is not None:
            s.away_handle.cancel()
            s.away_handle = None
    if room.next_hand is not None:
        room.next_hand.cancel()
        room.next_hand = None
    room.status = "finished"  # in memory only: a late callback (fill, start) does nothing


# -- the REST side ---------------------------------------------------------------------


def install(app: FastAPI, cluster: Callable[[], Cluster | None]) -> None:
    """The cluster's part of the REST API: the lobby and room infos from the database, and
    calls on a room another node holds passed on to it, and ``GET /metrics``.
    ``cluster()`` is the running one."""

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        """This node's series in the Prometheus text format (:mod:`paiju.server.metrics`)."""
        node = cluster()
        if node is None or node.metrics is None:
            return Response("", media_type=CONTENT_TYPE)
        return Response(node.metrics.render(), media_type=CONTENT_TYPE)

    app.add_middleware(RoomsAnywhere, cluster=cluster)


APP = "app"
"""What :func:`_rooms_anywhere` answers when the call is the app's own to answer."""
CREATE = "create"
"""What it answers when the app is to create a room here: the node's presence counts the
room before the answer goes out."""


class RoomsAnywhere:
    """The cluster's part of every ``/api/rooms`` call and of the console's calls on a
    room (``/api/admin/rooms/…``), an ASGI middleware (plain ASGI: a call of any other
    path, and every WebSocket, goes straight to the app): the lobby from the database, a
    room another node holds passed on to that node, a new room placed on the least
    loaded node. The request's body, read here (within the server's body limit,
    a middleware outside this one), is handed on to the app."""

    def __init__(self, app: ASGIApp, cluster: Callable[[], Cluster | None]) -> None:
        self.app, self.cluster = app, cluster

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        node = self.cluster()
        path = scope["path"] if scope["type"] == "http" else ""
        console = path.startswith("/api/admin/rooms/")
        if node is None or not (path.startswith("/api/rooms") or console):
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        body = await request.body()
        answer: Response | str
        try:
            if console:
                answer = await _console_room(node, request)
            else:
                answer = await _rooms_anywhere(node, request)
        except OperationalError as exc:  # the database does not answer
            log.warning("node %s: %s: %r", node.config.name, scope["path"], exc)
            answer = _unreachable(
                "the server cannot reach its database just now; try again in a few seconds",
                "unavailable",
            )
        if isinstance(answer, Response):
            await answer(scope, receive, send)
            return
        replay = replayed(body, receive)
        if answer == CREATE:

            async def counted(message: Message) -> None:
                if message["type"] == "http.response.start" and message["status"] == 201:
                    await node.refresh()  # the next placement, by any node, counts the room
                await send(message)

            await self.app(scope, replay, counted)
        else:
            await self.app(scope, replay, send)


def _passed_on(node: Cluster, request: Request) -> bool:
    """Whether another node passed the call on (its :data:`FORWARDED` header is the
    cluster's secret); its client's address is then the one it names."""
    passed = request.headers.get(FORWARDED)
    trusted = passed is not None and node.trusts(passed)
    if trusted:
        address = request.headers.get(CLIENT)
        if address:
            request.scope["client"] = (address, 0)
    return trusted


async def _console_room(node: Cluster, request: Request) -> Response | str:
    """A console call on one room (``/api/admin/rooms/{id}``, ``…/close``, ``…/notice``)
    on a cluster node: the app's own (:data:`APP`) when this node plays the room or
    none does (its 404), else passed on to the node that plays it, so that staff see
    and close any room from whichever node their console reached."""
    trusted = _passed_on(node, request)
    found = _CONSOLE_ROOM_PATH.match(request.url.path)
    if found is None or trusted:
        return APP
    room_id, route = int(found.group(1)), found.group(2) or ""
    if route and route not in CONSOLE_ROUTES:
        return APP
    if not 1 <= room_id <= ROOM_ID_MAX or room_id in node.hub.rooms:
        return APP
    holder = await node.holder(room_id)
    if holder is None:
        return APP
    target = f"/api/admin/rooms/{room_id}" + (f"/{route}" if route else "")
    return await _forward(node, request, holder.url.rstrip("/") + target)


async def _rooms_anywhere(node: Cluster, request: Request) -> Response | str:
    """A call under ``/api/rooms`` on a cluster node (see :class:`RoomsAnywhere`): its
    answer, or :data:`APP` / :data:`CREATE` for the app's own."""
    path = request.url.path
    trusted = _passed_on(node, request)
    if path == "/api/rooms" and request.method == "POST":
        return await _place(node, request) if not trusted else CREATE
    if path == "/api/rooms" and request.method == "GET":
        if await _player(node, request) is None:
            return APP  # the app's own 401
        # the open rooms (as a single server lists them), or those of one status; of the
        # finished ones only the newest: the database keeps every room ever played
        status = request.query_params.get("status")
        statuses = [status] if status in ("waiting", "playing", "finished") else OPEN
        newest = FINISHED_LISTED if status == "finished" else None
        rows = await asyncio.to_thread(node.store.rooms, statuses, newest)
        rows = [r for r in rows if r.options.get("listed", True)]  # not a club's tables
        return JSONResponse([i.model_dump() for i in await node.room_infos(rows)])
    found = _ROOM_PATH.match(path)
    if found is None:
        return APP  # not a room's call: the app's own answer
    room_id, route = int(found.group(1)), found.group(2) or ""
    if route and route not in ROOM_ROUTES:
        return APP  # the app's own 404
    if not 1 <= room_id <= ROOM_ID_MAX:
        return APP if room_id < 1 else _no_room(room_id)
    if room_id in node.hub.rooms:
        return APP
    if route == "" and request.method == "GET":
        if await _player(node, request) is None:
            return APP
        row = await asyncio.to_thread(node.store.room, room_id)
        if row is None:
            return APP
        return JSONResponse((await node.room_infos([row]))[0].model_dump())
    holder = await node.holder(room_id)
    if holder is None or trusted:
        row = await asyncio.to_thread(node.store.room, room_id)
        if row is not None and row.status in ("waiting", "playing"):
            return _unreachable(
                f"room {room_id} is moving to another node; try again in a few seconds"
            )
        return APP
    target = f"/api/rooms/{room_id}" + (f"/{route}" if route else "")
    return await _forward(node, request, holder.url.rstrip("/") + target)


def _no_room(room_id: int) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": "no_room", "message": f"no open room {room_id}"}}, status_code=404
    )


async def _player(node: Cluster, request: Request) -> Any:
    header = request.headers.get("authorization") or ""
    if not header.lower().startswith("bearer "):
        return None
    return (await token_status(node.store, header[7:].strip()))[0]


async def _place(node: Cluster, request: Request) -> Response | str:
    """``POST /api/rooms`` on a cluster node: the room is created on the least loaded live
    node (:meth:`Cluster.candidates`) - here (:data:`CREATE`), or by passing the call on to
    that node, which then stores the room and its lease in one transaction and plays it. A
    node that cannot be reached (it died since its last presence) is skipped for the next
    one; the call is never passed on twice."""
    if await _player(node, request) is None:
        return APP  # the app's own 401
    await node.refresh()  # the nodes' load now, not as of the last tick
    for target in node.candidates():
        if target.name == node.config.name:
            return CREATE
        try:
            url = target.url.rstrip("/") + "/api/rooms"
            answer = await _send(node.http, node.secret, request, url)
        except httpx.ConnectError as exc:
            log.warning("node %s: cannot reach node %s: %r", node.config.name, target.name, exc)
            continue
        except httpx.HTTPError as exc:
            # the call may have reached it: not made again elsewhere
            return _unreachable(f"node {target.name} did not answer: {exc}")
        return answer
    return CREATE  # every other node failed


def _unreachable(message: str, code: str = "room_moving") -> JSONResponse:
    return JSONResponse(
        {"error": {"code": code, "message": message}},
        status_code=503,
        headers={"Retry-After": "2"},
    )


async def _forward(node: Cluster, request: Request, url: str) -> Response:
    """Pass a REST call to ``url`` (another node's) and its answer back."""
    try:
        return await _send(node.http, node.secret, request, url)
    except httpx.HTTPError as exc:
        return _unreachable(f"the room's node is unreachable: {exc}")


def forwarding_client(peer_keep_alive: float) -> httpx.AsyncClient:
    """A client for calls passed on between nodes: it keeps no cookie (one player's answer
    must not season the next player's call) and gives up after :data:`FORWARD_TIMEOUT`.
    The other nodes close a connection idle for ``peer_keep_alive`` (the operator's
    ``keep_alive``, the same on every node); a call sent on it just as it closes would be
    lost, so the client gives an idle connection up after half of that."""
    return httpx.AsyncClient(
        timeout=FORWARD_TIMEOUT,
        limits=httpx.Limits(keepalive_expiry=keep_alive_seconds(peer_keep_alive) / 2),
        cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])),
        follow_redirects=False,
    )


async def _send(client: httpx.AsyncClient, secret: str, request: Request, url: str) -> Response:
    """The call passed on to ``url`` (another node's route, built by this node, never the
    client's path) through ``client``, marked as passed on by the cluster's ``secret``,
    with its client's address; that node's answer. Raises :class:`httpx.HTTPError`."""
    headers = {k: v for k, v in request.headers.items() if k.lower() not in _NOT_PASSED_ON}
    headers[FORWARDED] = secret or "1"
    if request.client is not None:
        headers[CLIENT] = request.client.host
    body = await request.body()
    if request.url.query:
        url += f"?{request.url.query}"
    answer = await client.request(request.method, url, headers=headers, content=body)
    kept = {
        k: v
        for k, v in answer.headers.items()
        if k.lower() in ("content-type", "retry-after", "cache-control")
    }
    return Response(answer.content, status_code=answer.status_code, headers=kept)


async def start_node(db: str, limits: Any, node: NodeConfig) -> Cluster:
    """Open the shared database, join the cluster and take the rooms free now: a cluster
    node (its hub's rooms placed by it, its journal fenced)."""
    from paiju.server.hub import Hub

    store = SharedStore(db, node.name, node.lease_ttl)
    hub = Hub(store, limits)
    cluster = Cluster(hub, store, node)
    hub.placements = cluster.placement
    hub.journal = FencedJournal(store, cluster)
    hub.journal.spacing = node.commit_spacing
    metrics = NodeMetrics(hub, node.name, cluster.counts)
    hub.journal.observe = metrics.committed
    cluster.metrics = metrics
    try:
        await cluster.start()
    except BaseException:
        await cluster.stop()
        store.close()
        raise
    return cluster
