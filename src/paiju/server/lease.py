"""Room ownership in a cluster of server nodes: a fenced lease per room in PostgreSQL.

A room is played by one node at a time, the holder of its lease, a row of ``room_leases``
(room, node, epoch, expiry). The holder renews its leases every second or so; a lease not
renewed for :attr:`Leases.ttl` seconds has expired and any node may take it, which bumps its
**epoch** (the lease number). Times are the database server's clock, never a node's.

The epoch fences every write: :class:`SharedStore` starts each transaction that stores a
hand or an action, a seat, a 准备 mark, a room's status or its closing by locking the lease
rows of the rooms it writes (``FOR KEY SHARE``) and comparing their epochs with the ones
this node holds; a stale epoch refuses the whole transaction (:class:`StaleLease`) before
anything is written. A new room and its lease are stored in one transaction. A node
taking a room over first locks that row ``FOR UPDATE`` (the one row lock that conflicts
with ``FOR KEY SHARE``), skipping it while such a transaction of the old holder is in
flight: it takes the room at a next claim, once that write has committed, and replays the
room's log with it - a room is never played on two nodes at once, even when the old holder
is paused, partitioned or slow rather than dead. A holder frozen inside a transaction has
its session ended by the database once it has idled there past the lease's time, so its
row locks never hold a room for good. The holder's renewals (an ``UPDATE`` of the expiry
alone) neither wait for its writes nor hold them up.

:class:`SharedStore` is also what makes one database safe for many nodes: hand ids come from
the database's sequence (a single server counts them itself), and the running ledger
balance of a player is read under a per-player transaction lock (two nodes may settle hands
of the same player at the same moment).
"""

from __future__ import annotations

import collections
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import Connection, Row
from sqlalchemy.pool import NullPool

from paiju.errors import PaijuError
from paiju.server import tables as t
from paiju.server.batches import Call, Fence
from paiju.server.errors import ServerError
from paiju.server.rows import ActionWrite, HandWrite
from paiju.server.store import Store, database_url

log = logging.getLogger("paiju.server")

__all__ = ["Lease", "Leases", "Nodes", "Presence", "SharedStore", "StaleLease"]

_NOW = "extract(epoch from clock_timestamp())"
"""The database server's clock (seconds), the only clock leases are compared with."""

_NODE = "CAST(:node AS varchar)"
_TTL = "CAST(:ttl AS float8)"

_MIGRATION_LOCK = 0x7061_696A_7502
"""The advisory lock nodes take around their start-up migration (one at a time)."""

_BALANCE_LOCKS = 0x7061
"""The namespace of the per-player advisory transaction locks of ledger balances."""

_NODE_LOCKS = 0x7062
"""The namespace of the session advisory locks of node names (one process a name)."""

_NAME_LOCK = """l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
    AND l.classid = CAST(:ns AS oid) AND l.objid = CAST(hashtext(:node) AS oid)"""
"""The row of ``pg_locks l`` of node ``:node``'s name lock, granted (a lock of two int4
keys shows them as ``classid`` and ``objid``, with ``objsubid`` 2)."""

_TAKE_NAME = """SELECT pg_try_advisory_lock(:ns, hashtext(:node)) AS got, pg_backend_pid() AS pid,
    (SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()) AS started"""
"""Take node ``:node``'s name lock if it is free; and the session's identity (its pid and
start: a pid alone may be another session's later)."""

_NAME_HELD = f"""SELECT EXISTS (SELECT 1 FROM pg_locks l
    WHERE {_NAME_LOCK} AND l.pid = pg_backend_pid())"""
"""Whether the session asking holds node ``:node``'s name lock."""

_NAME_HOLDER = f"""SELECT l.pid, a.backend_start AS started
    FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid WHERE {_NAME_LOCK}"""
"""The session holding node ``:node``'s name lock (none while it is free)."""


HAND_IDS = 32
"""Hand ids a node takes from the database's sequence at a time, at first."""
HAND_IDS_MAX = 1024
"""The most hand ids a node takes at a time: its block doubles up to this each time a deal
finds none left (the node deals faster than its tick tops the block up)."""


class StaleLease(PaijuError):
    """This node no longer holds the lease of these rooms: their writes were refused."""

    code = "stale_lease"

    def __init__(self, rooms: Iterable[int]) -> None:
        self.rooms = frozenset(rooms)
        super().__init__(
            f"rooms {sorted(self.rooms)} are no longer held by this node (their lease moved on);"
            " nothing of them was written"
        )


@dataclass(frozen=True)
class Lease:
    """A room's lease as stored."""

    room: int
    node: str
    epoch: int
    expires_at: float
    live: bool
    """Not expired (by the database's clock)."""


def _lock_for_takeover(conn: Connection, rooms: Sequence[int]) -> list[int]:
    """Lock the lease rows of ``rooms`` ``FOR UPDATE`` before a statement bumps their
    epochs: the one row lock that conflicts with the ``FOR KEY SHARE`` of a holder's write
    (:meth:`SharedStore._fence`), so that no write of the old holder is in flight when the
    epoch moves on (an ``UPDATE`` of the epoch alone would not conflict: it is not a key's
    change). A row locked by another transaction is skipped, not waited for (``SKIP
    LOCKED``): the old holder's write in flight finishes first and the room is taken at a
    next claim, and a holder frozen inside its transaction (a stopped process, its
    connection open) never holds up the takeovers of the other rooms - its session is ended
    by the database once it has idled in the transaction past its lease's time
    (:class:`SharedStore`'s ``idle_in_transaction_session_timeout``). The rooms that may
    be taken now: those whose row is locked, and those that have no row yet."""
    wanted = sorted(set(rooms))
    rows = "SELECT room_id FROM room_leases WHERE room_id = ANY(CAST(:rooms AS integer[]))"
    locked = set(
        conn.execute(
            text(f"{rows} ORDER BY room_id FOR UPDATE SKIP LOCKED"), {"rooms": wanted}
        ).scalars()
    )
    skipped = [r for r in wanted if r not in locked]
    # of the rooms not locked, those without a row yet may be taken too
    existing = set(conn.execute(text(rows), {"rooms": skipped}).scalars()) if skipped else set()
    return [r for r in wanted if r in locked or r not in existing]


class Leases:
    """The ``room_leases`` table, for node ``node`` (PostgreSQL only)."""

    def __init__(self, store: Store, node: str, ttl: float = 3.0) -> None:
        self.store = store
        self.node = node
        self.ttl = ttl

    def acquire(self, room: int) -> int | None:
        """Take the lease of ``room`` (free, expired, or held by an earlier run of this
        node); its new epoch, or None while another node holds it."""
        with self.store.engine.begin() as conn:
            if not _lock_for_takeover(conn, [room]):
                return None  # a write of its holder is in flight: the holder is live
            got = conn.execute(
                text(
                    f"""INSERT INTO room_leases (room_id, node, epoch, expires_at)
                    VALUES (:room, {_NODE}, 1, {_NOW} + {_TTL})
                    ON CONFLICT (room_id) DO UPDATE SET node = EXCLUDED.node,
                        epoch = room_leases.epoch + 1, expires_at = EXCLUDED.expires_at
                    WHERE room_leases.expires_at < {_NOW} OR room_leases.node = EXCLUDED.node
                    RETURNING epoch"""
                ),
                {"room": room, "node": self.node, "ttl": self.ttl},
            ).scalar()
        return None if got is None else int(got)

    def claim(
        self,
        limit: int,
        grace: float = 10.0,
        own: bool = False,
        full: bool = False,
        held: Iterable[int] = (),
    ) -> list[tuple[int, int]]:
        """Take up to ``limit`` open rooms nobody holds; (room, epoch) pairs.

        By default only rooms whose lease expired: the query walks the index of lease
        expiry times (``room_leases_expires``) from the oldest, so its cost is the number of
        expired leases, not of open rooms (every node runs it every second). With ``full``
        also the open rooms without any lease row, created more than ``grace`` seconds ago
        (rooms a single server made before the cluster started: a node stores a room and
        its lease in one transaction), and with ``own`` (at start-up) the leases of an
        earlier run of this node; that query reads every open room. The rooms of ``held``
        (those this run holds already) are never claimed again: a start-up that claims
        in batches until nothing is left ends."""
        with self.store.engine.begin() as conn:
            chosen, params = self._claim_query(conn, limit, grace, own, full)
            params["held"] = sorted(set(held))
            rooms = [int(r) for r in conn.execute(text(chosen), params).scalars()]
            rows: Sequence[Row[Any]] = []
            rooms = _lock_for_takeover(conn, rooms) if rooms else []
            if rooms:
                again = "OR (:own AND room_leases.node = EXCLUDED.node)" if full else ""
                rows = conn.execute(
                    text(
                        f"""INSERT INTO room_leases (room_id, node, epoch, expires_at)
                        SELECT c.room_id, {_NODE}, 1, {_NOW} + {_TTL}
                        FROM unnest(CAST(:rooms AS integer[])) AS c(room_id)
                        ON CONFLICT (room_id) DO UPDATE SET node = EXCLUDED.node,
                            epoch = room_leases.epoch + 1, expires_at = EXCLUDED.expires_at
                        WHERE room_leases.expires_at < {_NOW} {again}
                        RETURNING room_id, epoch"""
                    ),
                    {**params, "rooms": rooms},
                ).all()
            if not full:
                # leases of rooms over: nobody writes them again (keeps the index small)
                conn.execute(
                    text(
                        """DELETE FROM room_leases AS l USING rooms AS r
                        WHERE l.room_id = r.id AND l.expires_at < CAST(:now AS float8)
                          AND r.status NOT IN ('waiting', 'playing')"""
                    ),
                    {"now": params["now"]},
                )
        return [(int(r.room_id), int(r.epoch)) for r in rows]

    def _claim_query(
        self, conn: Connection, limit: int, grace: float, own: bool, full: bool
    ) -> tuple[str, dict[str, Any]]:
        """The query choosing the rooms :meth:`claim` takes, and its parameters. The
        database's time is a parameter (read first), so that the planner sees a constant
        and uses the index. The rooms chosen are taken by one upsert after their lease rows
        are locked (:func:`_lock_for_takeover`), which checks the expiry again."""
        now = _now_of(conn)
        params: dict[str, Any] = {"node": self.node, "ttl": self.ttl, "limit": limit, "now": now}
        if full:
            params.update(own=own, created_before=now - grace)
            chosen = f"""SELECT r.id AS room_id
                FROM rooms r LEFT JOIN room_leases l ON l.room_id = r.id
                WHERE r.status IN ('waiting', 'playing')
                  AND r.id <> ALL(CAST(:held AS integer[]))
                  AND ((l.room_id IS NULL AND r.created_at < CAST(:created_before AS float8))
                       OR l.expires_at < CAST(:now AS float8) OR (:own AND l.node = {_NODE}))
                ORDER BY r.id LIMIT :limit"""
        else:
            chosen = """SELECT l.room_id
                FROM room_leases l JOIN rooms r ON r.id = l.room_id
                WHERE l.expires_at < CAST(:now AS float8) AND r.status IN ('waiting', 'playing')
                  AND l.room_id <> ALL(CAST(:held AS integer[]))
                ORDER BY l.expires_at LIMIT :limit"""
        return chosen, params

    def explain_claim(self, limit: int = 20, full: bool = False) -> str:
        """The query plan of :meth:`claim`'s choice (PostgreSQL's ``EXPLAIN``; nothing is
        taken)."""
        with self.store.engine.begin() as conn:
            sql, params = self._claim_query(conn, limit, 10.0, False, full)
            params["held"] = []
            lines = conn.execute(text("EXPLAIN " + sql), params).scalars().all()
            conn.rollback()
        return "\n".join(str(line) for line in lines)

    def renew(
        self, held: Mapping[int, int], presence: tuple[Nodes, str, int, int] | None = None
    ) -> set[int]:
        """Extend the leases this node holds (room -> epoch); the rooms still held. With
        ``presence`` (the nodes' table, this node's URL, rooms, connections) this node's
        presence is written in the same transaction."""
        rooms, epochs = list(held), [held[r] for r in held]
        with self.store.engine.begin() as conn:
            if presence is not None:
                nodes, url, count, connections = presence
                nodes.write(conn, url, count, connections)
            if not held:
                return set()
            rows = conn.execute(
                text(
                    f"""UPDATE room_leases AS l SET expires_at = {_NOW} + {_TTL}
                    FROM unnest(CAST(:rooms AS integer[]), CAST(:epochs AS bigint[]))
                        AS h(room_id, epoch)
                    WHERE l.room_id = h.room_id AND l.epoch = h.epoch AND l.node = {_NODE}
                    RETURNING l.room_id"""
                ),
                {"ttl": self.ttl, "rooms": rooms, "epochs": epochs, "node": self.node},
            ).all()
        return {int(r.room_id) for r in rows}

    def release(self, held: Mapping[int, int]) -> None:
        """Give leases up now (a node shutting down): other nodes may take them at once."""
        if not held:
            return
        rooms, epochs = list(held), [held[r] for r in held]
        with self.store.engine.begin() as conn:
            # a room over is written no more: its lease row goes
            conn.execute(
                text(
                    """DELETE FROM room_leases AS l
                    USING unnest(CAST(:rooms AS integer[]), CAST(:epochs AS bigint[]))
                        AS h(room_id, epoch), rooms AS r
                    WHERE l.room_id = h.room_id AND l.epoch = h.epoch AND r.id = l.room_id
                      AND r.status NOT IN ('waiting', 'playing')"""
                ),
                {"rooms": rooms, "epochs": epochs},
            )
            conn.execute(
                text(
                    """UPDATE room_leases AS l SET expires_at = 0
                    FROM unnest(CAST(:rooms AS integer[]), CAST(:epochs AS bigint[]))
                        AS h(room_id, epoch)
                    WHERE l.room_id = h.room_id AND l.epoch = h.epoch"""
                ),
                {"rooms": rooms, "epochs": epochs},
            )

    def holders(self, rooms: Sequence[int] | None = None) -> dict[int, Lease]:
        """The leases of ``rooms`` (all of them by default), by room."""
        where = "" if rooms is None else "WHERE room_id = ANY(CAST(:rooms AS integer[]))"
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                text(
                    f"""SELECT room_id, node, epoch, expires_at,
                        expires_at >= {_NOW} AS live FROM room_leases {where}"""
                ),
                {"rooms": list(rooms or [])},
            ).all()
        return {
            int(r.room_id): Lease(
                int(r.room_id), str(r.node), int(r.epoch), float(r.expires_at), bool(r.live)
            )
            for r in rows
        }


@dataclass(frozen=True)
class Presence:
    """A live node as the database shows it: its public URL, its load, and how long ago it
    wrote them (seconds, by the database server's clock)."""

    name: str
    url: str
    rooms: int
    connections: int
    age: float


class Nodes:
    """The ``cluster_nodes`` and ``cluster_secrets`` tables: each node's presence, written
    with its lease renewals and live for :attr:`ttl` seconds of the database's clock, and
    the cluster's secret of the calls one node passes to another (PostgreSQL only). The
    database is authenticated; a node is what it says, and nothing a client of Redis
    writes names a node."""

    SECRET = "forward"

    def __init__(self, store: Store, node: str, ttl: float) -> None:
        self.store = store
        self.node = node
        self.ttl = ttl

    def write(self, conn: Connection, url: str, rooms: int, connections: int) -> None:
        """This node's presence, in the caller's transaction."""
        conn.execute(
            text(
                f"""INSERT INTO cluster_nodes (name, url, rooms, connections, seen_at, expires_at)
                VALUES ({_NODE}, :url, :rooms, :connections, {_NOW}, {_NOW} + {_TTL})
                ON CONFLICT (name) DO UPDATE SET url = EXCLUDED.url, rooms = EXCLUDED.rooms,
                    connections = EXCLUDED.connections, seen_at = EXCLUDED.seen_at,
                    expires_at = EXCLUDED.expires_at"""
            ),
            {
                "node": self.node,
                "url": url,
                "rooms": rooms,
                "connections": connections,
                "ttl": self.ttl,
            },
        )

    def present(self, url: str, rooms: int, connections: int) -> list[Presence]:
        """Write this node's presence and read every live node's (this one's too)."""
        with self.store.engine.begin() as conn:
            self.write(conn, url, rooms, connections)
            rows = conn.execute(
                text(
                    f"""SELECT name, url, rooms, connections, {_NOW} - seen_at AS age
                    FROM cluster_nodes WHERE expires_at >= {_NOW} ORDER BY name"""
                )
            ).all()
        return [
            Presence(str(r.name), str(r.url), int(r.rooms), int(r.connections), float(r.age))
            for r in rows
        ]

    def leave(self) -> None:
        """This node's presence goes (a node stopping)."""
        with self.store.engine.begin() as conn:
            conn.execute(text("DELETE FROM cluster_nodes WHERE name = :node"), {"node": self.node})

    def forget(self, after: float = 3600.0) -> None:
        """Delete the presence of nodes gone for ``after`` seconds."""
        with self.store.engine.begin() as conn:
            conn.execute(
                text(f"DELETE FROM cluster_nodes WHERE expires_at < {_NOW} - :after"),
                {"after": after},
            )

    def secret(self) -> str:
        """The cluster's secret of calls passed between nodes: made by the first node that
        asks (random, 256 bits), the same for every node after."""
        with self.store.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO cluster_secrets (name, value) VALUES (:name, :value)"
                    " ON CONFLICT (name) DO NOTHING"
                ),
                {"name": self.SECRET, "value": secrets.token_urlsafe(32)},
            )
            value = conn.execute(
                text("SELECT value FROM cluster_secrets WHERE name = :name"),
                {"name": self.SECRET},
            ).scalar()
        return str(value)


def _discard(conn: Connection) -> None:
    """Close a connection and its session (not back to the pool)."""
    with contextlib.suppress(Exception):
        conn.invalidate()
    with contextlib.suppress(Exception):
        conn.close()


def _now_of(conn: Connection) -> float:
    return float(conn.execute(text(f"SELECT {_NOW}")).scalar() or 0.0)


class SharedStore(Store):
    """The store of one node of a cluster: one PostgreSQL database shared by many nodes.

    Every transaction that writes a room (hands, actions, seats, status) is fenced by the
    epochs in :attr:`fence` (room -> the epoch of the lease this node holds); hand ids come from the
    database's sequence; ledger balances are counted by the database under a per-player
    lock, never cached.
    """

    counts_balances = True

    def __init__(self, db: str, node: str, ttl: float = 3.0) -> None:
        url = database_url(db)
        if not url.startswith("postgresql"):
            raise PaijuError(
                "a cluster of nodes (--redis) shares a PostgreSQL database:"
                f" --db postgresql://…, not {db}"
            )
        # nodes starting together migrate one at a time
        gate = create_engine(url, poolclass=NullPool)
        try:
            with gate.connect() as conn:
                conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _MIGRATION_LOCK})
                conn.commit()
                try:
                    # a session idle inside a transaction past the lease's time is a node
                    # frozen mid-write (a stopped process, its connection open): the
                    # database ends it, and with it the row locks that keep its rooms
                    # from being taken over
                    idle = max(1000, round(ttl * 1000))
                    super().__init__(
                        db, settings={"idle_in_transaction_session_timeout": str(idle)}
                    )
                finally:
                    conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _MIGRATION_LOCK})
                    conn.commit()
        except PaijuError:
            raise
        except Exception as exc:
            raise PaijuError(f"cannot open the database {db}: {exc}") from None
        finally:
            gate.dispose()
        self.fence: dict[int, int] = {}
        """The rooms this node holds: room -> lease epoch (kept by the cluster)."""
        self._hand_rooms: dict[int, int] = {}
        """hand id -> room id of the hands this node wrote or looked up."""
        self.leases = Leases(self, node, ttl)
        self.nodes = Nodes(self, node, ttl)
        self.on_stale: Callable[[StaleLease], None] | None = None
        """Told of a room write (a seat, a status, a closing) refused for a stale lease,
        before :class:`StaleLease` is raised to the caller (the cluster drops the room)."""
        self._new_leases: dict[int, int] = {}
        self._name_lock: Connection | None = None
        self._name_session: tuple[int, Any] | None = None
        """The database session that took the name's lock last: (pid, start)."""
        self.displaced = False
        """Another process took this node's name after this one lost its lock
        (:meth:`keep_name`): this one writes no room, and makes none, any more."""
        self._hand_ids: collections.deque[int] = collections.deque()
        """Hand ids taken from the sequence and not given yet."""
        self.hand_block = HAND_IDS
        """How many hand ids this node takes at a time (it grows with the node's pace)."""
        self._offset = 0.0
        """The database server's clock less this host's (seconds, :meth:`sync_clock`)."""
        self.sync_clock()

    def clock(self) -> float:
        """Now by the database server's clock (this host's and the offset last measured):
        token expiry, a room's creation, a hand's times - as the leases count time, so a
        node whose clock is wrong neither refuses valid tokens nor gives long ones."""
        return time.time() + self._offset

    def sync_clock(self) -> float:
        """Measure the offset of the database server's clock from this host's (the middle
        of the round trip); the offset."""
        with self.engine.connect() as conn:
            before = time.time()
            remote = _now_of(conn)
            after = time.time()
        self._offset = remote - (before + after) / 2
        return self._offset

    def hold_name(self) -> bool:
        """Take this node's name for this process: a session advisory lock, held on a
        connection of its own until :meth:`close` (PostgreSQL ends it with the process's
        connection: a node killed with ``kill -9`` frees its name at once). A node's
        leases are its name's, and a start-up takes back the leases of its name's earlier
        run: two processes under one name would both play its rooms. False while another
        process holds the name. The lock ends with its session too (the database
        restarting, the connection cut): :meth:`keep_name` finds that out and takes it
        again."""
        if self._name_lock is not None:
            return True
        if self.displaced:
            return False
        conn = self.engine.connect()
        try:
            row = conn.execute(text(_TAKE_NAME), self._name_params()).one()
            conn.commit()
        except BaseException:
            _discard(conn)  # (never back to the pool: it may hold the lock)
            raise
        if not row.got:
            conn.close()
            return False
        self._name_lock = conn
        self._name_session = (int(row.pid), row.started)
        return True

    def _name_params(self) -> dict[str, Any]:
        return {"ns": _NODE_LOCKS, "node": self.leases.node}

    def keep_name(self) -> Literal["held", "again", "taken"]:
        """Make sure this process still holds its node's name (:meth:`hold_name`); the
        cluster asks before each renewal of its leases, never on a room's write. One
        query on the lock's own connection: whether its session holds the lock. A lock
        lost with its session (the database restarted, the connection was cut, its
        backend was terminated) is taken again at once on a new connection.

        ``"held"``: held all along - by the lock's connection, or by the session this
        process lost on its side only (a connection cut halfway: the database has not
        seen it end), which keeps the name from any other process while it lasts; it is
        ended, and the lock taken again on a new connection at a next call.
        ``"again"``: it was lost and is held again. ``"taken"``: it was lost and another
        process holds the name now - this process is :attr:`displaced` for good (it
        writes no room, makes none, and never takes the name again: the other process
        took back the name's leases at its start-up). Raises while the database does
        not answer (the next call tries again)."""
        if self.displaced:
            return "taken"
        conn = self._name_lock
        if conn is not None:
            try:
                held = bool(conn.execute(text(_NAME_HELD), self._name_params()).scalar())
                conn.commit()
            except Exception:
                held = False  # the connection is gone (and its session, or soon)
            if held:
                return "held"
            self._name_lock = None
            _discard(conn)
        for _ in range(3):
            if self.hold_name():
                return "again"
            with self.engine.connect() as probe:
                holder = probe.execute(text(_NAME_HOLDER), self._name_params()).first()
                if holder is None:
                    continue  # freed just now: take it
                if (int(holder.pid), holder.started) != self._name_session:
                    self.displaced = True
                    return "taken"
                # this process's own session, lost on its side only: ended (if this
                # database role may), the lock is taken again at the next call
                with contextlib.suppress(Exception):
                    probe.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": holder.pid})
                    probe.commit()
                return "held"
        raise PaijuError(f"node {self.leases.node}: its name's lock is changing hands")

    def close(self) -> None:
        if self._name_lock is not None:
            with contextlib.suppress(Exception):
                self._name_lock.close()
            self._name_lock = None
        super().close()

    def _refuse_displaced(self) -> None:
        """A displaced node's writes are refused by its leases' fence instead
        (:class:`StaleLease`: the cluster gives the rooms up)."""

    def opened(self, room_id: int) -> None:
        """This node plays the room it made (:meth:`paiju.server.cluster.Cluster.place`
        chose it): the lease taken with the room goes into the fence (on the event loop,
        which alone reads the fence)."""
        self.fence[room_id] = self._new_leases.pop(room_id)

    def _room_created(self, conn: Connection, room_id: int) -> None:
        """Store a new room's lease in the room's transaction; none (and no room) once
        this process is :attr:`displaced`."""
        if self.displaced:
            raise ServerError(
                "unavailable",
                f"this server process no longer runs as node {self.leases.node} (another"
                " process does): it makes no rooms; try again in a few seconds",
                503,
            )
        epoch = conn.execute(
            text(
                f"""INSERT INTO room_leases (room_id, node, epoch, expires_at)
                VALUES (:room, {_NODE}, 1, {_NOW} + {_TTL}) RETURNING epoch"""
            ),
            {"room": room_id, "node": self.leases.node, "ttl": self.leases.ttl},
        ).scalar()
        self._new_leases[room_id] = int(epoch or 1)

    @contextlib.contextmanager
    def _room_write(self, room_id: int) -> Iterator[Connection]:
        try:
            with super()._room_write(room_id) as conn:
                yield conn
        except StaleLease as exc:
            if self.on_stale is not None:
                self.on_stale(exc)
            raise

    def _fence_room(self, conn: Connection, room_id: int) -> None:
        """A seat, a room's status or its closing is written only under the lease this
        node holds: the lease row is locked (``FOR KEY SHARE``, so a takeover waits for
        this transaction) and its epoch compared; :class:`StaleLease` before anything is
        written."""
        held = self.fence.get(room_id)
        if held is None or self.displaced:
            raise StaleLease([room_id])
        stored = conn.execute(
            text("SELECT epoch FROM room_leases WHERE room_id = :room FOR KEY SHARE"),
            {"room": room_id},
        ).scalar()
        if stored is None or int(stored) != held:
            raise StaleLease([room_id])

    def new_hand_id(self) -> int:
        """The next hand id from the database's sequence (many nodes give ids), taken a
        block (:attr:`hand_block`) at a time: one round trip per block of deals, not per deal, and
        that trip made ahead of need off the event loop (:meth:`top_up_hand_ids`) unless
        the node deals faster than its tick. The ids are unique, as every value of a
        sequence is; a node's block may run a little behind another's (ids count hands,
        not their order in time), and a node that stops leaves the rest of its block
        unused."""
        if not self._hand_ids:
            # the tick fell behind this node's deals: the round trip is made here, on the
            # event loop, and the node takes twice as many ids from now on, so that at
            # this pace the tick keeps ahead of its deals
            self.hand_block = min(2 * self.hand_block, HAND_IDS_MAX)
            log.info("hand ids ran out between two ticks: %d at a time", self.hand_block)
            self._hand_ids.extend(self._take_hand_ids())
        return self._hand_ids.popleft()

    def hand_ids_low(self) -> bool:
        """Whether less than half a block of hand ids is left (:meth:`top_up_hand_ids`
        would take the next block)."""
        return len(self._hand_ids) < self.hand_block // 2

    def top_up_hand_ids(self) -> None:
        """Take the next block of hand ids when less than half a block is left (the
        cluster's tick calls it from a worker thread when :meth:`hand_ids_low`)."""
        if self.hand_ids_low():
            self._hand_ids.extend(self._take_hand_ids())

    def _take_hand_ids(self) -> list[int]:
        sequence = self._hand_sequence
        if sequence is None:
            raise PaijuError("the database has no sequence for hands.id")
        with self.engine.connect() as conn:
            got = conn.execute(
                text("SELECT nextval(:s) FROM generate_series(1, :n)"),
                {"s": sequence, "n": self.hand_block},
            ).scalars()
            ids = sorted(int(i) for i in got)
            conn.commit()
        return ids

    def _sequence_call(self, last_id: int) -> Call | None:
        """None: a cluster node's hand ids come from the sequence itself."""
        return None

    def _fence(
        self,
        conn: Connection,
        hands: Sequence[HandWrite],
        actions: Sequence[ActionWrite],
        rooms: Set[int],
    ) -> Fence | None:
        """The :class:`~paiju.server.store.Fence` of the rooms written, which the
        transaction's first write checks (the lease rows locked and their epochs compared:
        :class:`StaleLease` before anything is written), and in which it then takes the
        locks of the players whose hands end in this transaction (in id order: no
        deadlock): the statement that settles them, after it, counts their balances from
        what is stored (:attr:`counts_balances`). ``rooms`` (whose seats it writes) are
        fenced too."""
        for h in hands:
            self._hand_rooms[h.id] = h.room_id
        unknown = [w.hand_id for w in actions if w.hand_id not in self._hand_rooms]
        if unknown:
            found = conn.execute(
                select(t.hands.c.id, t.hands.c.room_id).where(t.hands.c.id.in_(set(unknown)))
            ).all()
            self._hand_rooms.update({int(r.id): int(r.room_id) for r in found})
        rooms = {*rooms, *(h.room_id for h in hands)}
        rooms.update(self._hand_rooms.get(w.hand_id, -1) for w in actions)
        if self.displaced or any(r not in self.fence for r in rooms):
            raise StaleLease({r for r in rooms if self.displaced or r not in self.fence})
        if not rooms:
            return None
        players = {
            p for w in actions if w.ending is not None for p in w.ending.players if p is not None
        }
        return Fence(
            {r: self.fence[r] for r in rooms},
            self._verify_leases,
            locks=tuple(sorted(players)),
            lock_ns=_BALANCE_LOCKS,
        )

    def _verify_leases(self, conn: Connection, epochs: Mapping[int, int]) -> None:
        """The leases of a batch looked at on their own (a fenced write wrote nothing, or
        none carried the check): their rows locked, :class:`StaleLease` for those whose
        epoch is no longer this node's."""
        rows = conn.execute(
            text(
                "SELECT room_id, epoch FROM room_leases"
                " WHERE room_id = ANY(CAST(:rooms AS integer[])) ORDER BY room_id FOR KEY SHARE"
            ),
            {"rooms": sorted(epochs)},
        ).all()
        stored = {int(r.room_id): int(r.epoch) for r in rows}
        stale = {r for r, epoch in epochs.items() if stored.get(r) != epoch}
        if stale:
            raise StaleLease(stale)
