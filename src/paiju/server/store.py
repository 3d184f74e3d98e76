"""Storage of the server: players, rooms, hands, the action log and the ledger (积分).

Everything goes through SQLAlchemy, so the default SQLite file and PostgreSQL (``--db
postgresql://user@host/dbname``, through the psycopg 3 driver: ``pip install
'paiju[postgres]'``) behave alike (the group commit's hot paths use the driver's
connection from SQLAlchemy's pool directly, their failures raised as SQLAlchemy's); the
schema is created and upgraded by Alembic (:func:`migrate`). The writes that matter for
crash recovery are single transactions:

* :meth:`Store.start_hand` records the hand's commitment, secret seed and deal before
  anyone sees a card;
* :meth:`Store.append_action` appends one accepted action to the hand's log and, when it
  ends the hand, writes the settlement to the ledger and the room's carried context in
  the same transaction - before the server acknowledges or broadcasts anything.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed transaction survives the
server process being killed (``kill -9``); only a power loss may drop the last commits.
On PostgreSQL the database server keeps what was committed. Hand ids (game ids) are
counted by the store, and the transaction that stores a hand moves the ``hands.id``
sequence past it, so a row inserted without an id never takes one already in use.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import functools
import hashlib
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Engine,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    make_url,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DatabaseError, DataError, DBAPIError, IntegrityError, StatementError
from sqlalchemy.pool import PoolProxiedConnection, StaticPool
from sqlalchemy.sql.elements import TextClause

from paiju.errors import PaijuError
from paiju.server import batches as sql
from paiju.server import tables as t
from paiju.server.accounts import tables as a
from paiju.server.errors import ServerError
from paiju.server.invites import new_code
from paiju.server.rows import (
    ActionWrite,
    ClosingWrite,
    HandEnding,
    HandRow,
    HandWrite,
    PlayerRow,
    RoomRow,
    SeatsWrite,
    VotesWrite,
    Write,
)
from paiju.server.watermark import Watermark

__all__ = [
    "Store",
    "database_url",
    "hash_token",
    "migrate",
]


_POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_PG_LOCK = 0x7061_696A_7500
"""The PostgreSQL advisory lock key of the serving paiju server ("paiju")."""

_PG_LOCK_HELD = """SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'
    AND granted AND objsubid = 1 AND classid = CAST(:high AS oid)
    AND objid = CAST(:low AS oid) AND pid = pg_backend_pid())"""
"""Whether the session asking holds :data:`_PG_LOCK` (a lock of one bigint key shows its
high and low halves as ``classid`` and ``objid``, with ``objsubid`` 1)."""

LOCK_CHECK_SECONDS = 2.0
"""How often a single server on PostgreSQL makes sure it still holds its database's lock
(:meth:`Store.keep_lock`)."""

log = logging.getLogger("paiju.server")

T = TypeVar("T")


def _sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None: in memory, or not SQLite)."""
    if not url.startswith("sqlite:///"):
        return None
    return Path(url.removeprefix("sqlite:///").split("?", 1)[0])


def session_options(url: str, settings: Mapping[str, str]) -> str:
    """libpq's ``options`` of a PostgreSQL session: the DSN's own, then ``settings``.

    >>> session_options("postgresql+psycopg://db/p?options=-c%20search_path%3Dx",
    ...                 {"lock_timeout": "2s"})
    '-c search_path=x -c lock_timeout=2s'
    """
    given = make_url(url).query.get("options", "")
    own = given if isinstance(given, str) else " ".join(given)
    return " ".join([*([own] if own else []), *(f"-c {k}={v}" for k, v in settings.items())])


def database_url(db: str) -> str:
    """A SQLAlchemy URL from ``--db``: a DSN as is, anything else is a SQLite file path.

    A PostgreSQL DSN that names no driver (``postgresql://`` or ``postgres://``) uses
    psycopg 3 (SQLAlchemy's own default would be psycopg2); ``postgresql+driver://`` is
    kept as given.

    >>> database_url("postgres://ann@db.example/paiju")
    'postgresql+psycopg://ann@db.example/paiju'
    >>> database_url("postgresql+psycopg2://ann@localhost/paiju")
    'postgresql+psycopg2://ann@localhost/paiju'
    >>> database_url(":memory:")
    'sqlite://'
    """
    for scheme in _POSTGRES_SCHEMES:
        if db.startswith(scheme):
            return "postgresql+psycopg://" + db[len(scheme) :]
    if "://" in db:
        return db
    if db == ":memory:":
        return "sqlite://"
    return f"sqlite:///{Path(db).expanduser().resolve()}"


def hash_token(token: str) -> str:
    """What the database keeps of a bearer token: its sha256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def _alembic_config() -> Config:
    ini = resources.files("paiju.server") / "alembic.ini"
    config = Config(str(ini))
    config.set_main_option("script_location", str(resources.files("paiju.server") / "migrations"))
    return config


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest Alembic revisions (every branch's head)."""
    config = _alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "heads")


def _sqlite_pragmas(dbapi_conn: Any, record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


async def off_loop(store: Store, call: Callable[..., T], *args: Any) -> T:
    """``call(*args)``, a call that queries ``store``, made so that it holds up no room:
    against a database server (PostgreSQL) in a worker thread, as a query is a round trip
    (or several); against an SQLite file in place (a query is a read of a local file)."""
    if store.remote:
        return await asyncio.to_thread(call, *args)
    return call(*args)


async def token_status(store: Store, token: str) -> tuple[PlayerRow | None, bool]:
    """:meth:`Store.token_status` without holding up the event loop: from this process's
    cache, else :func:`off_loop` (a node that takes rooms over is asked for every moved
    player's token at once; the rooms it plays meanwhile go on)."""
    known = store.known_token_status(token)
    if known is not None:
        return known
    return await off_loop(store, store.token_status, token)


def _disk_full(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the disk (or the user's quota) is full."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    return exc is not None and "disk is full" in str(exc)


def _no_space(where: str) -> PaijuError:
    """The one-line error of a server that cannot start for a full disk."""
    return PaijuError(
        f"the disk is full: cannot write {where}; free some space on its disk, then start"
        " the server again"
    )


INTEGER_MAX = 2**31 - 1
"""The largest id PostgreSQL's ``integer`` columns hold (the schema's ids are ``integer``)."""


# Statements built once: the hot path (one action, one settlement) re-uses them.
class Store:
    """The server's database (synchronous; the server calls it from its event loop, and
    through :func:`off_loop` where a database server's round trips would hold it up)."""

    _play: PoolProxiedConnection | None = None
    """The connection the group commits of play keep checked out (a SQLite file):
    checked out and given back at each commit, it cost more than the commit's own
    statements at a human pace (:meth:`_append_sqlite_play`)."""

    counts_balances = False
    """Whether the ledger's running balances are counted by the statement that writes them
    (many writers of one player's ledger: :class:`paiju.server.lease.SharedStore`), not
    from this process's own (a single server is the ledger's only writer)."""

    def __init__(
        self,
        db: str,
        *,
        owner: bool = False,
        allow_rollback: bool = False,
        settings: Mapping[str, str] | None = None,
    ) -> None:
        """Open (and migrate) the database. ``owner``: this is the server that serves
        from it - it takes the database's lock (a second server refuses to start) and keeps
        the id watermark that detects a database gone back in time (:class:`Watermark`);
        ``allow_rollback`` starts on such a database anyway, loudly, ids still unique.
        ``settings``: PostgreSQL settings of every session this store opens (added to
        any ``options`` the DSN gives)."""
        url = database_url(db)
        self._lock: Any = None
        self._play_lock = threading.Lock()
        self._watermark: Watermark | None = None
        self.displaced = False
        """Another server took this database's lock while this one had lost it (a database
        restart ended its session): this one writes nothing more (:meth:`keep_lock`)."""
        path = _sqlite_path(url)
        kwargs: dict[str, Any] = {}
        self.shared_connection = url == "sqlite://"
        """One connection serves every caller (an in-memory database): no second thread
        may write while the loop does (:class:`paiju.server.journal.Journal`)."""
        if url == "sqlite://":
            kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        if url.startswith("postgresql"):
            if settings:
                kwargs["connect_args"] = {"options": session_options(url, settings)}
            # the session given back last is handed out first: the group commits (which
            # take one, write and give it back) keep to one warm session, whose prepared
            # statements and plans are made once, while the sessions that reads and lease
            # renewals added to the pool wait idle (round the pool, each session would
            # prepare and plan every statement of a commit anew)
            kwargs["pool_use_lifo"] = True
        elif url != "sqlite://":
            # a SQLite file likewise: the group commits keep to one connection, whose page
            # cache is warm (round the pool, each connection would find its cache stale,
            # another having written since, and read the pages a commit touches again)
            kwargs["pool_use_lifo"] = True
        self.url = url
        """The database's URL, password hidden (fit for logs)."""
        self.remote = not url.startswith("sqlite")
        """Whether the database is a server of its own (a query is a network round trip,
        kept off the event loop where it is not on a room's path: :func:`off_loop`)."""
        if self.remote:
            self.url = make_url(url).render_as_string(hide_password=True)
        try:
            self.engine = create_engine(url, **kwargs)
        except ModuleNotFoundError as exc:
            hint = " (pip install 'paiju[postgres]')" if url.startswith("postgresql") else ""
            raise PaijuError(
                f"the database driver for {self.url} is not installed: {exc}{hint}"
            ) from None
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        fresh = path is not None and (not path.exists() or path.stat().st_size == 0)
        if owner:
            try:
                self._take_lock(path)
            except BaseException:
                self.engine.dispose()
                raise
        try:
            migrate(self.engine)
        except DatabaseError as exc:
            self.close()
            if _disk_full(exc.orig):
                raise _no_space(self.url) from None
            raise PaijuError(
                f"cannot open the database {self.url}: {exc.orig} (a damaged or truncated"
                " file? restore it from a backup; the server does not start on it)"
            ) from None
        self._qmark = (
            self.engine.dialect.name == "sqlite" and self.engine.dialect.paramstyle == "qmark"
        )
        self._hand_sequence: str | None = None
        """PostgreSQL: the sequence of ``hands.id``, kept past the ids the store gives."""
        with self.engine.begin() as conn:
            self._next_hand = int(conn.execute(select(func.max(t.hands.c.id))).scalar() or 0)
            if self.engine.dialect.name == "postgresql":
                self._hand_sequence = self._catch_up_sequence(conn, self._next_hand)
            players = int(conn.execute(select(func.count()).select_from(t.players)).scalar() or 0)
        if owner and path is not None:
            self._watermark = Watermark(path.with_name(path.name + ".ids"))
            try:
                self._next_hand = self._watermark.check(
                    self._next_hand, players, fresh, allow_rollback, str(path)
                )
            except BaseException as exc:
                if _disk_full(exc):  # nothing more is written: the message says why
                    self._watermark = None
                    self.close()
                    raise _no_space(str(path.with_name(path.name + ".ids"))) from None
                self.close()
                raise
        self._players: dict[str, tuple[PlayerRow, float | None, float]] = {}
        """Token digest -> (player, expiry time or None, when it was read: monotonic)."""
        self.token_ttl: float | None = None
        """Seconds a cached token is trusted before it is read again (None: until it
        expires; a cluster node sets a few seconds, since another node may rotate it)."""
        self._balances: dict[int, int] = {}
        """Running ledger balances by player (this process is the only writer)."""

    @staticmethod
    def refused(exc: BaseException) -> bool:
        """Whether a failed write was refused for what it holds (a value the database
        cannot hold, a broken constraint: the room's next write would be refused too)
        rather than failed with the database (locked, disk full, I/O, away: try again)."""
        if isinstance(exc, DataError | IntegrityError):
            return True
        if isinstance(exc, StatementError) and exc.orig is not None:
            exc = exc.orig
        return isinstance(exc, OverflowError | ValueError | TypeError)

    def clock(self) -> float:
        """Now, as the times stored in the database count it (Unix time): this host's clock
        for a single server; a cluster node's store counts by the database server's."""
        return time.time()

    def close(self) -> None:
        if self._watermark is not None:
            self._watermark.save(force=True)
        play, self._play = self._play, None
        if play is not None:
            with contextlib.suppress(Exception):
                play.close()
        self.engine.dispose()
        if self._lock is not None:
            with contextlib.suppress(Exception):
                self._lock.close()  # releases the flock / the advisory lock's connection
            self._lock = None

    def _take_lock(self, path: Path | None) -> None:
        """One server a database: an exclusive ``flock`` on ``<db>.lock`` (SQLite) or a
        session advisory lock (PostgreSQL), held until :meth:`close`."""
        if path is not None:
            handle = open(path.with_name(path.name + ".lock"), "a+")  # noqa: SIM115
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.seek(0)
                holder = handle.read().strip() or "unknown"
                handle.close()
                raise PaijuError(
                    f"another paiju server (pid {holder}) is serving the database {path};"
                    " two servers on one file would disagree about every hand. Stop that"
                    " server first, or give this one another --db"
                ) from None
            handle.seek(0)
            handle.truncate()
            handle.write(str(os.getpid()))
            handle.flush()
            self._lock = handle
        elif self.engine.dialect.name == "postgresql":
            conn = self.engine.connect()
            got = conn.execute(
                text("SELECT pg_try_advisory_lock(:key)"), {"key": _PG_LOCK}
            ).scalar()
            conn.commit()
            if not got:
                conn.close()
                raise PaijuError(
                    f"another paiju server is serving the database {self.url}; stop it first"
                )
            self._lock = conn

    def keep_lock(self) -> Literal["held", "again", "taken", "none"]:
        """Make sure this server still holds its PostgreSQL database's lock (the server
        asks every :data:`LOCK_CHECK_SECONDS`, off its event loop; never per action). The
        lock ends with its session - a database restart, a cut connection - and is taken
        again at once on a new connection, so a second server still cannot start on the
        database. ``"taken"``: another server took it first; this one is :attr:`displaced`
        for good and writes nothing more (two servers would disagree about every hand).
        ``"none"``: no such lock to keep (SQLite's ``flock`` lasts as long as the process,
        or this store does not serve). Raises while the database does not answer."""
        if self.displaced:
            return "taken"
        conn = self._lock
        if not isinstance(conn, Connection):
            return "none"
        params = {"high": _PG_LOCK >> 32, "low": _PG_LOCK & 0xFFFF_FFFF}
        try:
            held = bool(conn.execute(text(_PG_LOCK_HELD), params).scalar())
            conn.commit()
        except Exception:
            held = False  # the connection is gone, and its session with it (or soon)
        if held:
            return "held"
        self._lock = None
        with contextlib.suppress(Exception):
            conn.invalidate()
        with contextlib.suppress(Exception):
            conn.close()
        again = self.engine.connect()
        try:
            got = bool(
                again.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": _PG_LOCK}).scalar()
            )
            again.commit()
        except BaseException:
            again.close()
            raise
        if got:
            self._lock = again
            log.warning("the database's lock was lost with its session and is held again")
            return "again"
        again.close()
        self.displaced = True
        log.error(
            "another paiju server serves the database %s now: this one writes nothing more;"
            " stop it",
            self.url,
        )
        return "taken"

    def _refuse_displaced(self) -> None:
        if self.displaced:
            raise ServerError(
                "unavailable",
                "another server serves this database now; this one writes nothing more",
                503,
            )

    # -- players ------------------------------------------------------------------

    def create_player(self, name: str, lifetime: float | None = None) -> tuple[PlayerRow, str]:
        """Register a display name; returns the player and its bearer token (shown once),
        valid for ``lifetime`` seconds (None: for ever)."""
        player, token, _ = self.register(name, lifetime)
        return player, token

    def register(
        self,
        name: str,
        lifetime: float | None = None,
        device: str = "browser",
        address: str | None = None,
    ) -> tuple[PlayerRow, str, float | None]:
        """A new guest player and its first session: the player, the session's bearer
        token (shown once) and the time it expires (None: never)."""
        now = self.clock()
        with self.engine.begin() as conn:
            pid = conn.execute(
                insert(t.players).values(
                    name=name,
                    token_hash="moved:" + secrets.token_hex(16),
                    created_at=now,
                    token_expires=None,
                )
            ).inserted_primary_key
            assert pid is not None
            player = PlayerRow(int(pid[0]), name)
            player, token, expires = self.open_session(conn, player, lifetime, device, address)
        if self._watermark is not None:
            self._watermark.player_added()
        return player, token, expires

    def open_session(
        self,
        conn: Connection,
        player: PlayerRow,
        lifetime: float | None,
        device: str,
        address: str | None,
    ) -> tuple[PlayerRow, str, float | None]:
        """A new session of ``player`` (a device signing in), written in ``conn``'s
        transaction: the player as its token names it, the token, its expiry."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        expires = None if lifetime is None else now + lifetime
        sid = conn.execute(
            insert(a.sessions).values(
                player_id=player.id,
                token_hash=hash_token(token),
                device=device[:120],
                address=address,
                created_at=now,
                last_seen=now,
                expires=expires,
            )
        ).inserted_primary_key
        assert sid is not None
        player = PlayerRow(player.id, player.name, int(sid[0]))
        self._cache(hash_token(token), player, expires)
        return player, token, expires

    def _cache(self, digest: str, player: PlayerRow, expires: float | None) -> None:
        if len(self._players) > 100_000:
            self._players.clear()
        self._players[digest] = (player, expires, time.monotonic())

    def forget_sessions(self, sessions: Iterable[int] = (), player: int | None = None) -> None:
        """Drop ended sessions (or every session of ``player``) from this process's cache
        of tokens: their tokens stop working here at once."""
        ended = set(sessions)
        # (a copy made at once: a lookup in a worker thread may add to the cache meanwhile)
        for digest, (p, _, _) in list(self._players.items()):
            if p.session in ended or (player is not None and p.id == player):
                self._players.pop(digest, None)

    def player_by_token(self, token: str) -> PlayerRow | None:
        """The player of a valid token (None for an unknown or expired one)."""
        return self.token_status(token)[0]

    def token_expired(self, token: str) -> bool:
        """Whether ``token`` is a player's token that has expired."""
        return self.token_status(token)[1]

    def token_status(self, token: str) -> tuple[PlayerRow | None, bool]:
        """The player of a valid token (its :attr:`~PlayerRow.session` set), and whether
        the token is one that expired: (the player, False), (None, True) for an expired
        token, (None, False) for an unknown or ended one. Asks the database unless this
        process knows the token (:meth:`known_token_status`)."""
        digest = hash_token(token)
        found = self._cached(digest)
        if found is None:
            found = self._token_row(digest)
        return self._status(found)

    def known_token_status(self, token: str) -> tuple[PlayerRow | None, bool] | None:
        """:meth:`token_status` if this process knows the token already, else None (the
        answer would need the database)."""
        found = self._cached(hash_token(token))
        return None if found is None else self._status(found)

    def _status(
        self, found: tuple[PlayerRow, float | None] | None
    ) -> tuple[PlayerRow | None, bool]:
        if found is None:
            return None, False
        player, expires = found
        if expires is not None and expires <= self.clock():
            return None, True
        return player, False

    def _cached(self, digest: str) -> tuple[PlayerRow, float | None] | None:
        cached = self._players.get(digest)
        if cached is None:
            return None
        ttl = self.token_ttl
        if ttl is not None and time.monotonic() - cached[2] >= ttl:
            self._players.pop(digest, None)
            return None
        return cached[0], cached[1]

    def _token_row(self, digest: str) -> tuple[PlayerRow, float | None] | None:
        s = a.sessions
        with self.engine.connect() as conn:
            row = conn.execute(
                select(s.c.id, s.c.player_id, t.players.c.name, s.c.expires)
                .join(t.players, t.players.c.id == s.c.player_id)
                .where(s.c.token_hash == digest, s.c.ended_at.is_(None))
            ).first()
        if row is None:
            return None
        player = PlayerRow(int(row.player_id), str(row.name), int(row.id))
        expires = None if row.expires is None else float(row.expires)
        self._cache(digest, player, expires)
        return player, expires

    def rotate_token(
        self, player: PlayerRow, lifetime: float | None = None
    ) -> tuple[str, float | None]:
        """A new bearer token for the player's session (its old token stops working at
        once) and the time it expires."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        expires = None if lifetime is None else now + lifetime
        with self.engine.begin() as conn:
            conn.execute(
                update(a.sessions)
                .where(a.sessions.c.id == player.session, a.sessions.c.player_id == player.id)
                .values(token_hash=hash_token(token), expires=expires, last_seen=now)
            )
        if player.session is not None:
            self.forget_sessions([player.session])
        self._cache(hash_token(token), player, expires)
        return token, expires

    def player_names(self, ids: Sequence[int]) -> dict[int, str]:
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(t.players.c.id, t.players.c.name).where(t.players.c.id.in_(list(ids)))
            )
            return {int(r.id): str(r.name) for r in rows}

    # -- rooms --------------------------------------------------------------------

    def create_room(
        self,
        code: str,
        options: Mapping[str, Any],
        game_options: Mapping[str, Any],
        seats: int,
        owner_id: int,
        bots: Sequence[bool],
    ) -> int:
        """Store a new room (its seats empty but for the bots'); its id. The room is this
        process's from now on (:meth:`opened`)."""
        room_id = self.new_room(code, options, game_options, seats, owner_id, bots).id
        self.opened(room_id)
        return room_id

    def new_room(
        self,
        code: str,
        options: Mapping[str, Any],
        game_options: Mapping[str, Any],
        seats: int,
        owner_id: int,
        bots: Sequence[bool],
    ) -> RoomRow:
        """Store a new room and read it back, in any thread: the room is not this
        process's until :meth:`opened` is called on the event loop."""
        self._refuse_displaced()
        for attempt in range(8):  # a random invite code taken already: draw another
            try:
                with self.engine.begin() as conn:
                    key = conn.execute(
                        insert(t.rooms).values(
                            invite=new_code(),
                            code=code,
                            options=dict(options),
                            game_options=dict(game_options),
                            seats=seats,
                            owner_id=owner_id,
                            status="waiting",
                            hands_played=0,
                            context={},
                            created_at=self.clock(),
                        )
                    ).inserted_primary_key
                    assert key is not None
                    room_id = int(key[0])
                    conn.execute(
                        insert(t.room_seats),
                        [
                            {"room_id": room_id, "seat": s, "player_id": None, "is_bot": bots[s]}
                            for s in range(seats)
                        ],
                    )
                    self._room_created(conn, room_id)
                break
            except IntegrityError:
                if attempt == 7:
                    raise
        row = self.room(room_id)
        if row is None:
            raise PaijuError(f"room {room_id} was stored and cannot be read back")
        return row

    def opened(self, room_id: int) -> None:
        """A room just stored is played by this process: nothing to note here; a cluster
        node holds its lease from now on (:class:`paiju.server.lease.SharedStore`)."""

    def _room_created(self, conn: Connection, room_id: int) -> None:
        """Last statement of the transaction that stores a new room: nothing here; a
        cluster node's store takes the room's lease in it
        (:class:`paiju.server.lease.SharedStore`)."""

    @contextlib.contextmanager
    def _room_write(self, room_id: int) -> Iterator[Connection]:
        """The transaction of a write of one room (a seat, its status, its closing),
        fenced first (:meth:`_fence_room`)."""
        with self.engine.begin() as conn:
            self._fence_room(conn, room_id)
            yield conn

    def _fence_room(self, conn: Connection, room_id: int) -> None:
        """First statement of every room write: nothing here; a cluster node's store
        checks the room's lease epoch here and raises before anything is written."""

    def set_seat(self, room_id: int, seat: int, player_id: int | None, is_bot: bool) -> None:
        with self._room_write(room_id) as conn:
            conn.execute(
                update(t.room_seats)
                .where(t.room_seats.c.room_id == room_id, t.room_seats.c.seat == seat)
                .values(player_id=player_id, is_bot=is_bot, is_ready=False)
            )

    def set_ready(self, room_id: int, seat: int, ready: bool) -> None:
        """A seat's 准备 mark while its room waits (a new occupant starts not ready)."""
        with self._room_write(room_id) as conn:
            conn.execute(
                update(t.room_seats)
                .where(t.room_seats.c.room_id == room_id, t.room_seats.c.seat == seat)
                .values(is_ready=ready)
            )

    def set_room_status(self, room_id: int, status: str) -> None:
        with self._room_write(room_id) as conn:
            conn.execute(update(t.rooms).where(t.rooms.c.id == room_id).values(status=status))

    def close_room(self, room_id: int, void_hand: int | None) -> None:
        """Mark a room ``closed`` and its unfinished hand (if any) ``void``."""
        with self._room_write(room_id) as conn:
            _write_rooms(conn, [ClosingWrite(room_id, void_hand)])

    def _room_rows(self, conn: Connection, where: Any) -> list[RoomRow]:
        rooms = conn.execute(select(t.rooms).where(where).order_by(t.rooms.c.id)).all()
        if not rooms:
            return []
        ids = [r.id for r in rooms]
        seats: dict[int, list[tuple[int, int | None, bool, bool]]] = {i: [] for i in ids}
        for s in conn.execute(select(t.room_seats).where(t.room_seats.c.room_id.in_(ids))):
            seats[s.room_id].append((s.seat, s.player_id, bool(s.is_bot), bool(s.is_ready)))
        out = []
        for r in rooms:
            ordered = sorted(seats[r.id])
            out.append(
                RoomRow(
                    id=int(r.id),
                    code=str(r.code),
                    options=dict(r.options),
                    game_options=dict(r.game_options),
                    seats=int(r.seats),
                    owner_id=int(r.owner_id),
                    status=str(r.status),
                    hands_played=int(r.hands_played),
                    context=dict(r.context),
                    seat_players=tuple(p for _, p, _, _ in ordered),
                    seat_bots=tuple(b for _, _, b, _ in ordered),
                    seat_ready=tuple(r for _, _, _, r in ordered),
                    invite=r.invite,
                )
            )
        return out

    def rooms(
        self, status: Sequence[str] | None = None, newest: int | None = None
    ) -> list[RoomRow]:
        """The rooms of these statuses (all by default), in id order; only the ``newest``
        of them when given."""
        with self.engine.connect() as conn:
            where = t.rooms.c.status.in_(list(status)) if status else t.rooms.c.id.is_not(None)
            if newest is not None:
                last = select(t.rooms.c.id).where(where).order_by(t.rooms.c.id.desc())
                where = t.rooms.c.id.in_(last.limit(newest))
            return self._room_rows(conn, where)

    def holds_id(self, row_id: int) -> bool:
        """Whether ``row_id`` is an id the database's id columns can hold (``integer``:
        up to 2**31 - 1 on PostgreSQL, 2**63 - 1 on SQLite): one past it names nothing,
        and is never sent to a database that would refuse the query."""
        return 1 <= row_id <= (INTEGER_MAX if self.remote else 2**63 - 1)

    def room(self, room_id: int) -> RoomRow | None:
        if not self.holds_id(room_id):
            return None
        with self.engine.connect() as conn:
            rows = self._room_rows(conn, t.rooms.c.id == room_id)
        return rows[0] if rows else None

    def rooms_by_id(self, room_ids: Sequence[int]) -> dict[int, RoomRow]:
        """The rooms of these ids (those that exist), in one query."""
        if not room_ids:
            return {}
        with self.engine.connect() as conn:
            return {r.id: r for r in self._room_rows(conn, t.rooms.c.id.in_(list(room_ids)))}

    def room_by_invite(self, code: str) -> RoomRow | None:
        """The room whose invite code is ``code`` (as stored: normalized), if any."""
        with self.engine.connect() as conn:
            rows = self._room_rows(conn, t.rooms.c.invite == code)
        return rows[0] if rows else None

    # -- hands --------------------------------------------------------------------

    def start_hand(
        self,
        room_id: int,
        hand_no: int,
        code: str,
        game_options: Mapping[str, Any],
        players: Sequence[int | None],
        commitment: str,
        seed: str,
        deal: Mapping[str, Any],
        context: Mapping[str, Any],
        record_format: int = 1,
    ) -> int:
        """Record a new hand (and the room as playing) in one transaction; the hand's id;
        ``record_format`` is the format its log is written in."""
        with self._room_write(room_id) as conn:
            key = conn.execute(
                insert(t.hands).values(
                    id=self.new_hand_id(),
                    room_id=room_id,
                    hand_no=hand_no,
                    code=code,
                    game_options=dict(game_options),
                    seats=len(players),
                    players=list(players),
                    commitment=commitment,
                    seed=seed,
                    deal=dict(deal),
                    context=dict(context),
                    status="playing",
                    settlement=None,
                    started_at=self.clock(),
                    ended_at=None,
                    record_format=record_format,
                )
            ).inserted_primary_key
            assert key is not None
            self._advance_sequence(conn, int(key[0]))
            conn.execute(update(t.rooms).where(t.rooms.c.id == room_id).values(status="playing"))
        return int(key[0])

    def append_action(
        self,
        hand_id: int,
        idx: int,
        seat: int,
        action: Mapping[str, Any],
        actor: str,
        ending: HandEnding | None = None,
    ) -> None:
        """Append action ``idx`` to the hand's log; with ``ending``, settle the hand too."""
        self.append_actions([ActionWrite(hand_id, idx, seat, action, actor, ending)])

    def new_hand_id(self) -> int:
        """The id of the next hand (this process is the database's only writer). No
        database round trip: the transaction that stores the hand also moves PostgreSQL's
        ``hands.id`` sequence past it. The serving store reserves ids in blocks in its
        watermark first, so an id once given is never given again, even by a database
        that lost its last commits."""
        self._next_hand += 1
        if self._watermark is not None:
            self._watermark.reserve(self._next_hand)
        return self._next_hand

    @staticmethod
    def _catch_up_sequence(conn: Connection, last_id: int) -> str | None:
        """The ``hands.id`` sequence, moved past ``last_id`` if it is behind (hands stored
        with explicit ids by a server that did not move it)."""
        name = conn.execute(text("SELECT pg_get_serial_sequence('hands', 'id')")).scalar()
        if name is None:
            return None
        sequence = str(name)
        # the name comes from the catalogue, already quoted where it needs to be
        last, called = conn.execute(text(f"SELECT last_value, is_called FROM {sequence}")).one()
        upcoming = int(last) + 1 if called else int(last)
        if upcoming <= last_id:
            conn.execute(select(func.setval(sequence, last_id)))
        return sequence

    def _advance_sequence(self, conn: Connection, last_id: int) -> None:
        """PostgreSQL: after storing hands with explicit ids up to ``last_id``, the
        ``hands.id`` sequence's next value is past them (never moved back)."""
        advance = self._sequence_call(last_id)
        if advance is not None:
            conn.execute(advance.statement, advance.params)

    def _sequence_call(self, last_id: int) -> sql.Call | None:
        """The statement of :meth:`_advance_sequence` (None: none is needed)."""
        sequence = self._hand_sequence
        if sequence is None:
            return None
        return sql.Call(_setval(sequence), {"sequence": sequence, "last": last_id})

    def append_actions(self, writes: Sequence[Write]) -> None:
        """Store new hands and append actions (of any hands) in one transaction, settling
        the hands the actions end, and the seats, status and closing of rooms. New hands go
        first: a hand's actions never share a batch with a hand dealt before them (the next
        hand is dealt after a commit); the seats and closings go last (they are other rows:
        a room's seats and status never change with a settlement of the same room's hand in
        one batch, and a closing voids only a hand its batch left in play)."""
        self._refuse_displaced()
        now = self.clock()
        balances: dict[int, int] = {}
        hands = [w for w in writes if isinstance(w, HandWrite)]
        actions = [w for w in writes if isinstance(w, ActionWrite)]
        rooms = [w for w in writes if isinstance(w, SeatsWrite | ClosingWrite | VotesWrite)]
        if self._qmark:
            if rooms:  # seats, votes and closings (rare): with SQLAlchemy's statements
                with self.engine.begin() as conn:
                    balances = self._append_sqlite(conn.connection.cursor(), hands, actions, now)
                    _write_rooms(conn, rooms)
            else:
                balances = self._append_sqlite_play(hands, actions, now)
            self._balances.update(balances)  # only once the transaction is committed
            if hands and self._watermark is not None:
                self._watermark.stored_up_to(max(h.id for h in hands))
            return
        balances = self._append_postgres_batch(hands, actions, rooms, now)
        self._balances.update(balances)  # only once the transaction is committed
        if hands and self._watermark is not None:
            self._watermark.stored_up_to(max(h.id for h in hands))

    def _append_postgres_batch(
        self,
        hands: Sequence[HandWrite],
        actions: Sequence[ActionWrite],
        rooms: Sequence[SeatsWrite | ClosingWrite | VotesWrite],
        now: float,
    ) -> dict[int, int]:
        """PostgreSQL: a batch in one transaction; the running balances it stored. A batch
        of play (hands and actions) goes in one round trip (its statements pipelined:
        :func:`~paiju.server.batches.pipelined`); one with seats or closings, rarer, or
        on a driver that cannot pipeline, statement by statement. A fenced write that the
        database refused is told as :class:`~paiju.server.lease.StaleLease` (the leases
        looked at again)."""
        fence: sql.Fence | None = None
        with self.engine.connect() as conn:
            pipeline = not rooms and sql.pipelines(conn)
            if pipeline:
                conn.execution_options(isolation_level="AUTOCOMMIT")
            try:
                with contextlib.nullcontext() if pipeline else conn.begin():
                    fence = self._fence(conn, hands, actions, {w.room_id for w in rooms})
                    calls, unchecked = self._hand_calls(hands, now, fence)
                    more, balances = self._action_calls(conn, actions, now, unchecked)
                    calls.extend(more)
                    if pipeline:
                        if calls:  # the fence, if any, is checked by the first
                            sql.pipelined(conn, calls)
                    else:
                        if unchecked is not None and not more:  # only seats to carry it
                            unchecked.check(conn, None)
                        sql.run(conn, calls)
                        _write_rooms(conn, rooms)
                return balances
            except DatabaseError as exc:
                if fence is None or not sql.refused_by_fence(exc):
                    raise
                fence.verify(conn, fence.epochs)  # raises StaleLease with the stale rooms
                raise PaijuError(
                    "a fenced write was refused, yet its room leases are held"
                ) from exc

    def _hand_calls(
        self, hands: Sequence[HandWrite], now: float, fence: sql.Fence | None
    ) -> tuple[list[sql.Call], sql.Fence | None]:
        """The statements storing a batch's new hands (fenced with ``fence``, the batch's
        first write), and the fence still to check (None once a hand's statement checks it)."""
        if not hands:
            return [], fence
        calls = [self._hands_call(hands, now, fence)]
        advance = self._sequence_call(max(h.id for h in hands))
        if advance is not None:
            calls.append(advance)
        return calls, None

    def _fence(
        self,
        conn: Connection,
        hands: Sequence[HandWrite],
        actions: Sequence[ActionWrite],
        rooms: Set[int],
    ) -> sql.Fence | None:
        """Called first in every transaction of :meth:`append_actions` (not on the SQLite
        hot path): nothing here; a cluster node's store answers the
        :class:`~paiju.server.batches.Fence` of its room leases that the transaction's
        first write checks (:class:`paiju.server.lease.SharedStore`); ``rooms`` are the
        rooms whose seats the transaction writes besides its hands' and actions'."""
        return None

    def _hands_call(
        self, hands: Sequence[HandWrite], now: float, fence: sql.Fence | None
    ) -> sql.Call:
        """The batch's new hands in one statement (arrays unnested), fenced when asked."""
        dumps = json.dumps
        params: dict[str, Any] = {
            "id": [h.id for h in hands],
            "room": [h.room_id for h in hands],
            "no": [h.hand_no for h in hands],
            "code": [h.code for h in hands],
            "options": [dumps(dict(h.game_options)) for h in hands],
            "seats": [len(h.players) for h in hands],
            "players": [dumps(list(h.players)) for h in hands],
            "commitment": [h.commitment for h in hands],
            "seed": [h.seed for h in hands],
            "client_seeds": [
                None if h.client_seeds is None else dumps(list(h.client_seeds)) for h in hands
            ],
            "deal": [dumps(dict(h.deal)) for h in hands],
            "context": [dumps(dict(h.context)) for h in hands],
            "format": [h.record_format for h in hands],
            "at": now,
        }
        return sql.call(
            (sql.INSERT_HANDS_PG, sql.INSERT_HANDS_FENCED_PG), params, len(hands), fence
        )

    def _append_sqlite_play(
        self, hands: Sequence[HandWrite], actions: Sequence[ActionWrite], now: float
    ) -> dict[int, int]:
        """A batch of play (hands and actions) on SQLite, in one transaction of the pool's
        DBAPI connection itself, with none of SQLAlchemy's execution layers between: at a
        human pace a group commit holds an action or two, and through those layers (the
        connection's checkout and reset, an execution context a statement, the
        transaction's events) the writer thread spent several times the statements' own
        work. A SQLite file's connection stays checked out for the next commit
        (:attr:`_play`; an in-memory database's one connection is given back). A failure
        is raised as SQLAlchemy raises it (:class:`DBAPIError`'s kind)."""
        with self._play_lock:
            raw = self._play
            if raw is None:
                raw = self.engine.raw_connection()
            try:
                balances = self._commit_play(raw, hands, actions, now)
            except BaseException:
                self._play = None
                raw.close()  # back to the pool (or let go, if it was invalidated)
                raise
            if self.shared_connection:
                raw.close()
            else:
                self._play = raw
            return balances

    def _commit_play(
        self,
        raw: PoolProxiedConnection,
        hands: Sequence[HandWrite],
        actions: Sequence[ActionWrite],
        now: float,
    ) -> dict[int, int]:
        dialect = self.engine.dialect
        error = dialect.loaded_dbapi.Error
        cursor = raw.cursor()
        try:
            balances = self._append_sqlite(cursor, hands, actions, now)
            raw.commit()
        except BaseException as exc:
            with contextlib.suppress(Exception):
                raw.rollback()
            if not isinstance(exc, error):
                raise
            lost = dialect.is_disconnect(exc, raw, cursor)
            if lost:
                raw.invalidate(exc)
            raise DBAPIError.instance(
                None, None, exc, error, connection_invalidated=lost, dialect=dialect
            ) from exc
        finally:
            with contextlib.suppress(Exception):
                cursor.close()
        return balances

    def _append_sqlite(
        self,
        cursor: Any,
        hands: Sequence[HandWrite],
        actions: Sequence[ActionWrite],
        now: float,
    ) -> dict[int, int]:
        """The hot path on SQLite, on a DBAPI cursor: prepared statements, one
        ``executemany`` a table, JSON written as the JSON type writes it (``json.dumps``),
        no SQL compiled per batch."""
        dumps = json.dumps
        if hands:
            cursor.executemany(
                sql.INSERT_HAND_QMARK,
                [
                    (
                        h.id,
                        h.room_id,
                        h.hand_no,
                        h.code,
                        dumps(dict(h.game_options)),
                        len(h.players),
                        dumps(list(h.players)),
                        h.commitment,
                        h.seed,
                        None if h.client_seeds is None else dumps(list(h.client_seeds)),
                        dumps(dict(h.deal)),
                        dumps(dict(h.context)),
                        "playing",
                        dumps(None),
                        now,
                        None,
                        h.record_format,
                    )
                    for h in hands
                ],
            )
        if actions:
            cursor.executemany(
                sql.INSERT_ACTION_QMARK,
                [(w.hand_id, w.idx, w.seat, dumps(dict(w.action)), w.actor, now) for w in actions],
            )
        balances: dict[int, int] = {}
        settled, ledger, rooms = [], [], []
        for w in actions:
            ending = w.ending
            if ending is None:
                continue
            settled.append((dumps(list(ending.scores)), now, w.hand_id))
            for seat, (player, delta) in enumerate(zip(ending.players, ending.deltas, strict=True)):
                balance = None
                if player is not None:
                    balance = balances[player] = self._balance_of(cursor, player, balances) + delta
                ledger.append((player, ending.room_id, w.hand_id, seat, delta, balance, now))
            status = "finished" if ending.room_finished else "playing"
            rooms.append((ending.hands_played, dumps(dict(ending.context)), status, ending.room_id))
        if settled:
            cursor.executemany(sql.SETTLE_HAND_QMARK, settled)
            cursor.executemany(sql.INSERT_LEDGER_QMARK, ledger)
            cursor.executemany(sql.ROOM_AFTER_HAND_QMARK, rooms)
        return balances

    def _balance_of(self, cursor: Any, player: int, batch: Mapping[int, int]) -> int:
        """:meth:`_balance_in` on SQLite's DBAPI cursor."""
        known = self._known_balance(player, batch)
        if known is not None:
            return known
        row = cursor.execute(sql.LEDGER_BALANCE_QMARK, (player,)).fetchone()
        return int(row[0] or 0) if row is not None else 0

    def _known_balance(self, player: int, batch: Mapping[int, int]) -> int | None:
        """The player's running balance as this batch or an earlier commit left it, if
        this process knows it (None: read it from the ledger)."""
        if player in batch:
            return batch[player]
        return self._balances.get(player)

    def _action_calls(
        self, conn: Connection, actions: Sequence[ActionWrite], now: float, fence: sql.Fence | None
    ) -> tuple[list[sql.Call], dict[int, int]]:
        """The hot path on PostgreSQL: the batch's actions, settlements, ledger rows and
        rooms in one statement a table (arrays unnested), not one a row; the ledger rows
        in the batch's order, as their ids and running balances count them; and the
        running balances they store. The actions' statement checks ``fence`` when one is
        given (no hand was written before)."""
        if not actions:
            return [], {}
        dumps = json.dumps
        params: dict[str, Any] = {
            "hand": [w.hand_id for w in actions],
            "idx": [w.idx for w in actions],
            "seat": [w.seat for w in actions],
            "action": [dumps(dict(w.action)) for w in actions],
            "actor": [w.actor for w in actions],
            "at": now,
        }
        statements = (sql.INSERT_ACTIONS_PG, sql.INSERT_ACTIONS_FENCED_PG)
        calls = [sql.call(statements, params, len(actions), fence)]
        endings = [(w.hand_id, w.ending) for w in actions if w.ending is not None]
        if not endings:
            return calls, {}
        balances: dict[int, int] = {}
        ledger: dict[str, list[Any]] = {k: [] for k in ("player", "room", "hand", "seat", "delta")}
        ledger["balance"] = []
        rooms: dict[int, HandEnding] = {}
        for hand_id, ending in endings:
            for seat, (player, delta) in enumerate(zip(ending.players, ending.deltas, strict=True)):
                balance = None
                if player is not None and not self.counts_balances:
                    balance = balances[player] = self._balance_in(conn, player, balances) + delta
                for key, value in zip(
                    ledger, (player, ending.room_id, hand_id, seat, delta, balance), strict=True
                ):
                    ledger[key].append(value)
            rooms[ending.room_id] = ending  # a room's next hand is dealt after a commit
        settle = sql.Call(
            sql.SETTLE_COUNTED_PG if self.counts_balances else sql.SETTLE_PG,
            {
                **ledger,
                "ended": [h for h, _ in endings],
                "settlement": [dumps(list(e.scores)) for _, e in endings],
                "rooms": list(rooms),
                "played": [e.hands_played for e in rooms.values()],
                "context": [dumps(dict(e.context)) for e in rooms.values()],
                "status": ["finished" if e.room_finished else "playing" for e in rooms.values()],
                "at": now,
            },
        )
        return [*calls, settle], balances

    def _balance_in(self, conn: Connection, player: int, batch: Mapping[int, int]) -> int:
        known = self._known_balance(player, batch)
        if known is not None:
            return known
        previous = conn.execute(
            select(t.ledger.c.balance)
            .where(t.ledger.c.player_id == player)
            .order_by(t.ledger.c.id.desc())
            .limit(1)
        ).scalar()
        return int(previous or 0)

    def _hand_row(self, conn: Connection, row: Any) -> HandRow:
        log = conn.execute(
            select(t.actions.c.seat, t.actions.c.action, t.actions.c.actor)
            .where(t.actions.c.hand_id == row.id)
            .order_by(t.actions.c.idx)
        ).all()
        return HandRow(
            id=int(row.id),
            room_id=int(row.room_id),
            hand_no=int(row.hand_no),
            code=str(row.code),
            game_options=dict(row.game_options),
            seats=int(row.seats),
            players=tuple(row.players),
            commitment=str(row.commitment),
            seed=str(row.seed),
            client_seeds=None if row.client_seeds is None else tuple(row.client_seeds),
            deal=dict(row.deal),
            context=dict(row.context),
            status=str(row.status),
            settlement=None if row.settlement is None else tuple(row.settlement),
            actions=tuple((int(a.seat), dict(a.action), str(a.actor)) for a in log),
            started_at=float(row.started_at),
            ended_at=None if row.ended_at is None else float(row.ended_at),
            record_format=int(row.record_format),
        )

    def hand(self, hand_id: int) -> HandRow | None:
        if not self.holds_id(hand_id):
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(t.hands).where(t.hands.c.id == hand_id)).first()
            return None if row is None else self._hand_row(conn, row)

    def current_hand(self, room_id: int) -> HandRow | None:
        """The room's latest hand (in play or just over)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(t.hands)
                .where(t.hands.c.room_id == room_id)
                .order_by(t.hands.c.hand_no.desc())
                .limit(1)
            ).first()
            return None if row is None else self._hand_row(conn, row)

    def latest_hand_ids(self, room_ids: Sequence[int]) -> dict[int, int]:
        """room -> the id of its latest hand (in play or just over), for many rooms in one
        query (their logs are not read). Latest by the room's hand number: a cluster's
        hand ids need not grow with time."""
        if not room_ids:
            return {}
        h = t.hands
        latest = (
            select(h.c.room_id, func.max(h.c.hand_no).label("hand_no"))
            .where(h.c.room_id.in_(list(room_ids)))
            .group_by(h.c.room_id)
            .subquery()
        )
        query = select(h.c.room_id, h.c.id).join(
            latest, (h.c.room_id == latest.c.room_id) & (h.c.hand_no == latest.c.hand_no)
        )
        with self.engine.connect() as conn:
            return {int(r.room_id): int(r.id) for r in conn.execute(query)}

    def hands(self, room_id: int | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Summaries of finished hands (newest first), each with the context it started
        from and the names its seats had at the table (null: a bot), as its record says."""
        if room_id is not None and not self.holds_id(room_id):
            return []
        query = select(
            t.hands.c.id,
            t.hands.c.room_id,
            t.hands.c.hand_no,
            t.hands.c.code,
            t.hands.c.players,
            t.hands.c.settlement,
            t.hands.c.context,
            t.hands.c.ended_at,
        ).where(t.hands.c.status == "over")
        if room_id is not None:
            query = query.where(t.hands.c.room_id == room_id)
        query = query.order_by(t.hands.c.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = list(conn.execute(query))
        names = self.player_names(sorted({p for r in rows for p in r.players if p is not None}))
        return [
            {
                "id": r.id,
                "room": r.room_id,
                "hand_no": r.hand_no,
                "code": r.code,
                "names": [None if p is None else names.get(p) for p in r.players],
                "settlement": r.settlement,
                "context": r.context,
                "ended_at": r.ended_at,
            }
            for r in rows
        ]

    # -- ledger -------------------------------------------------------------------

    def ledger(self, player_id: int, limit: int = 1000) -> list[dict[str, Any]]:
        """The player's ledger entries, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(t.ledger, t.hands.c.code)
                .join(t.hands, t.hands.c.id == t.ledger.c.hand_id)
                .where(t.ledger.c.player_id == player_id)
                .order_by(t.ledger.c.id.desc())
                .limit(limit)
            ).all()
        return [
            {
                "id": r.id,
                "room": r.room_id,
                "game": r.hand_id,
                "code": r.code,
                "seat": r.seat,
                "delta": r.delta,
                "balance": r.balance,
                "at": r.at,
            }
            for r in reversed(rows)
        ]

    def ledger_of_hand(self, hand_id: int) -> list[dict[str, Any]]:
        """The ledger entries a hand's settlement wrote, by seat."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(t.ledger).where(t.ledger.c.hand_id == hand_id).order_by(t.ledger.c.seat)
            ).all()
        return [
            {"seat": r.seat, "player": r.player_id, "delta": r.delta, "balance": r.balance}
            for r in rows
        ]

    def balance(self, player_id: int) -> int:
        with self.engine.connect() as conn:
            total = conn.execute(
                select(func.coalesce(func.sum(t.ledger.c.delta), 0)).where(
                    t.ledger.c.player_id == player_id
                )
            ).scalar()
        return int(total or 0)

    def count_actions(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(t.actions)).scalar() or 0)


_SET_SEAT = (
    update(t.room_seats)
    .where(
        t.room_seats.c.room_id == bindparam("w_room"), t.room_seats.c.seat == bindparam("w_seat")
    )
    .values(
        player_id=bindparam("w_player"), is_bot=bindparam("w_bot"), is_ready=bindparam("w_ready")
    )
)
_SET_STATUS = (
    update(t.rooms)
    .where(t.rooms.c.id == bindparam("w_room"), t.rooms.c.status.in_(["waiting", "playing"]))
    .values(status=bindparam("w_status"))
)
"""A room's status as its seats move it (waiting, playing): never over the end of its match
or its closing, which the settlement and the closing write."""


_VOTES = (
    update(t.rooms)
    .where(t.rooms.c.id == bindparam("w_room"), t.rooms.c.status.in_(["waiting", "playing"]))
    .values(
        context=bindparam("w_context", type_=t.rooms.c.context.type),
        status=bindparam("w_status"),
    )
)
"""A room's votes to end it (in its context), and its end when they ended it between hands."""

_CLOSE = update(t.rooms).where(t.rooms.c.id == bindparam("w_room")).values(status="closed")
_VOID = (
    update(t.hands)
    .where(t.hands.c.id == bindparam("w_hand"), t.hands.c.status == "playing")
    .values(status="void")
)
"""A room's closing: its status, and its hand only if still in play (a hand its batch
settled stays finished)."""


@functools.lru_cache(maxsize=4)
def _setval(sequence: str) -> TextClause:
    """The statement moving ``sequence`` (a name from the catalogue, quoted where it needs
    to be) past a given id, never back; one object a sequence (its SQL compiled once)."""
    return text(f"SELECT setval(:sequence, GREATEST(:last, (SELECT last_value FROM {sequence})))")


def _write_rooms(
    conn: Connection, writes: Sequence[SeatsWrite | ClosingWrite | VotesWrite]
) -> None:
    """The seats, statuses, votes to end and closings of a group commit, in that order (one
    statement a table, its rows as ``executemany`` parameters): a closing is the last word
    on a room."""
    seats = [
        {"w_room": w.room_id, "w_seat": i, "w_player": p, "w_bot": b, "w_ready": r}
        for w in writes
        if isinstance(w, SeatsWrite)
        for i, p, b, r in w.seats
    ]
    if seats:
        conn.execute(_SET_SEAT, seats)
    statuses = [
        {"w_room": w.room_id, "w_status": w.status}
        for w in writes
        if isinstance(w, SeatsWrite) and w.status
    ]
    if statuses:
        conn.execute(_SET_STATUS, statuses)
    votes = [
        {
            "w_room": w.room_id,
            "w_context": dict(w.context),
            "w_status": "finished" if w.finished else "playing",
        }
        for w in writes
        if isinstance(w, VotesWrite)
    ]
    if votes:
        conn.execute(_VOTES, votes)
    closings = [w for w in writes if isinstance(w, ClosingWrite)]
    if closings:
        conn.execute(_CLOSE, [{"w_room": w.room_id} for w in closings])
        voids = [{"w_hand": w.void_hand} for w in closings if w.void_hand is not None]
        if voids:
            conn.execute(_VOID, voids)
