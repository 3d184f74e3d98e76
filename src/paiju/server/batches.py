"""The statements of a group commit: how one batch of the journal's writes (actions, and
the hands they start and end) is stored in one transaction.

SQLite takes plain statements with their rows as ``executemany`` parameters. PostgreSQL
takes one statement a table, its rows as arrays (``unnest``); the hands a batch ends are
settled by one statement (their settlements, their rooms after them and the ledger's rows,
each a data-modifying ``WITH`` clause), and the batch goes to the server in one round trip
(:func:`pipelined`). A cluster node's batch is written under its room leases
(:class:`Fence`): the batch's first write checks them itself and fails when one is stale,
which rolls the whole transaction back.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.elements import TextClause

from paiju.errors import PaijuError

__all__ = [
    "FENCE_REFUSED",
    "INSERT_ACTIONS_FENCED_PG",
    "INSERT_ACTIONS_PG",
    "INSERT_ACTION_QMARK",
    "INSERT_HANDS_FENCED_PG",
    "INSERT_HANDS_PG",
    "INSERT_HAND_QMARK",
    "INSERT_LEDGER_QMARK",
    "LEDGER_BALANCE_QMARK",
    "ROOM_AFTER_HAND_QMARK",
    "SETTLE_COUNTED_PG",
    "SETTLE_HAND_QMARK",
    "SETTLE_PG",
    "Call",
    "Fence",
    "call",
    "pipelined",
    "pipelines",
    "refused_by_fence",
    "run",
]

INSERT_ACTION_QMARK = (
    "INSERT INTO actions (hand_id, idx, seat, action, actor, at) VALUES (?, ?, ?, ?, ?, ?)"
)
INSERT_HAND_QMARK = (
    "INSERT INTO hands (id, room_id, hand_no, code, game_options, seats, players, commitment,"
    " seed, client_seeds, deal, context, status, settlement, started_at, ended_at,"
    " record_format) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
SETTLE_HAND_QMARK = "UPDATE hands SET status = 'over', settlement = ?, ended_at = ? WHERE id = ?"
INSERT_LEDGER_QMARK = (
    "INSERT INTO ledger (player_id, room_id, hand_id, seat, delta, balance, at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
ROOM_AFTER_HAND_QMARK = "UPDATE rooms SET hands_played = ?, context = ?, status = ? WHERE id = ?"
LEDGER_BALANCE_QMARK = "SELECT balance FROM ledger WHERE player_id = ? ORDER BY id DESC LIMIT 1"
ACTIONS_PG = """INSERT INTO actions (hand_id, idx, seat, action, actor, at)
    SELECT u.hand, u.idx, u.seat, CAST(u.action AS json), u.actor, CAST(:at AS float8)
    FROM unnest(CAST(:hand AS integer[]), CAST(:idx AS integer[]), CAST(:seat AS integer[]),
        CAST(:action AS text[]), CAST(:actor AS text[])) AS u(hand, idx, seat, action, actor)"""
HANDS_PG = """INSERT INTO hands (id, room_id, hand_no, code, game_options, seats, players,
        commitment, seed, client_seeds, deal, context, status, settlement, started_at,
        ended_at, record_format)
    SELECT u.id, u.room, u.no, u.code, CAST(u.options AS json), u.seats, CAST(u.players AS json),
        u.commitment, u.seed, CAST(u.client_seeds AS json), CAST(u.deal AS json),
        CAST(u.context AS json), 'playing', CAST('null' AS json), CAST(:at AS float8), NULL,
        u.format
    FROM unnest(CAST(:id AS integer[]), CAST(:room AS integer[]), CAST(:no AS integer[]),
        CAST(:code AS text[]), CAST(:options AS text[]), CAST(:seats AS integer[]),
        CAST(:players AS text[]), CAST(:commitment AS text[]), CAST(:seed AS text[]),
        CAST(:client_seeds AS text[]), CAST(:deal AS text[]), CAST(:context AS text[]),
        CAST(:format AS integer[]))
        AS u(id, room, no, code, options, seats, players, commitment, seed, client_seeds, deal,
            context, format)"""
FENCE_PG = """WITH fence AS (
        SELECT l.room_id FROM room_leases AS l
        WHERE l.room_id = ANY(CAST(:fence_rooms AS integer[]))
            AND l.epoch = (CAST(:fence_epochs AS bigint[]))[
                array_position(CAST(:fence_rooms AS integer[]), l.room_id)]
        ORDER BY l.room_id FOR KEY SHARE OF l
    ), locks AS (
        SELECT pg_advisory_xact_lock(:lock_ns, p)
        FROM unnest(CAST(:lock_players AS integer[])) AS p
        WHERE (SELECT count(*) FROM fence) = :fence_n
        ORDER BY p)
    """
"""The lease rows of a batch's rooms at the epochs the node holds, locked (``FOR KEY
SHARE``: a takeover waits for the transaction), then - only once they all hold - the
advisory locks of the players whose ledger balances the batch moves (in id order: no
deadlock): the first write of a cluster node's transaction is made only if every lease
is there and every lock is taken, and fails otherwise (:data:`FENCED_WHERE`,
:class:`Fence`). The lease rows are found by ``= ANY``
(an index scan of their key, whose plan is kept: a join with ``unnest`` is planned anew at
each write) and each epoch by its room's position in the array; a row that a takeover
changed meanwhile is compared again as it is locked (its new epoch fails)."""
FENCED_WHERE = (
    " WHERE paiju_fence("
    "(SELECT count(*) FROM fence) = :fence_n AND (SELECT count(*) FROM locks) = :lock_n)"
)
"""A fenced write's condition: the database function ``paiju_fence`` raises (SQLSTATE
:data:`FENCE_REFUSED`) unless every lease held and every lock was taken. Its argument is
made of subqueries alone, so it is checked once a statement, before any row (a one-time
filter). Failing, not writing nothing, rolls the transaction back at the database itself:
the batch's statements need no answer between them (:func:`pipelined`)."""
FENCE_REFUSED = "PJ001"
"""The SQLSTATE of a fenced write whose leases or locks did not all hold."""
INSERT_ACTIONS_PG = text(ACTIONS_PG)
INSERT_HANDS_PG = text(HANDS_PG)
INSERT_ACTIONS_FENCED_PG = text(FENCE_PG + ACTIONS_PG + FENCED_WHERE)
INSERT_HANDS_FENCED_PG = text(FENCE_PG + HANDS_PG + FENCED_WHERE)
SETTLE_SQL = """WITH settled AS (
        UPDATE hands SET status = 'over', ended_at = CAST(:at AS float8),
            settlement = CAST((CAST(:settlement AS text[]))[
                array_position(CAST(:ended AS integer[]), hands.id)] AS json)
        WHERE hands.id = ANY(CAST(:ended AS integer[]))
        RETURNING 1
    ), after_hand AS (
        UPDATE rooms SET
            hands_played =
                (CAST(:played AS integer[]))[array_position(CAST(:rooms AS integer[]), id)],
            context = CAST(
                (CAST(:context AS text[]))[array_position(CAST(:rooms AS integer[]), id)]
                AS json),
            status = (CAST(:status AS text[]))[array_position(CAST(:rooms AS integer[]), id)]
        WHERE id = ANY(CAST(:rooms AS integer[]))
        RETURNING 1
    )
    INSERT INTO ledger (player_id, room_id, hand_id, seat, delta, balance, at)
    SELECT u.player, u.room, u.hand, u.seat, u.delta, {balance}, CAST(:at AS float8)
    FROM unnest(CAST(:player AS integer[]), CAST(:room AS integer[]), CAST(:hand AS integer[]),
        CAST(:seat AS integer[]), CAST(:delta AS integer[]), CAST(:balance AS integer[]))
        WITH ORDINALITY AS u(player, room, hand, seat, delta, balance, n)
    ORDER BY u.n"""
SETTLE_PG = text(SETTLE_SQL.format(balance="u.balance"))
"""The hands a batch ends, settled: the hands' settlements, their rooms after them and the
ledger's rows, in one statement (each part a data-modifying WITH clause)."""
SETTLE_COUNTED_PG = text(
    SETTLE_SQL.format(
        balance="""CASE WHEN u.player IS NOT NULL THEN
            COALESCE((SELECT l.balance FROM ledger AS l WHERE l.player_id = u.player
                ORDER BY l.id DESC LIMIT 1), 0)
            + sum(u.delta) OVER (PARTITION BY u.player ORDER BY u.n) END"""
    )
)
"""The same, each ledger row's running balance counted by the statement itself: the
player's last stored balance and the deltas of the batch up to the row. Its snapshot is
taken after the players' locks were (by the transaction's first write), so it sees every
balance another node committed before (``balance`` is passed as NULLs)."""
"""PostgreSQL's statements of a batch: one a table, its rows as arrays (the updates find
their rows by ``= ANY``, an index scan, and their values by position: a join with
``unnest`` would be planned as a scan of the whole table)."""


@dataclass(frozen=True)
class Fence:
    """The room leases a cluster node's transaction is written under (room -> the epoch
    this node holds), checked by the transaction's first write itself: that statement
    locks the lease rows, then takes the advisory locks ``locks`` (namespace ``lock_ns``)
    of the players whose balances the transaction moves, and writes nothing unless every
    epoch is still there (one round trip, not queries of their own before it).
    ``verify(conn, epochs)`` is called when that write wrote nothing, or when the transaction has
    no write to carry the check: it looks at the leases (``epochs``) and raises if one is
    stale."""

    epochs: Mapping[int, int]
    verify: Callable[[Connection, Mapping[int, int]], None]
    locks: Sequence[int] = ()
    lock_ns: int = 0

    def params(self) -> dict[str, Any]:
        rooms = sorted(self.epochs)
        return {
            "fence_rooms": rooms,
            "fence_epochs": [self.epochs[r] for r in rooms],
            "fence_n": len(rooms),
            "lock_ns": self.lock_ns,
            "lock_players": sorted(self.locks),
            "lock_n": len(self.locks),
        }

    def check(self, conn: Connection, passed: bool | None) -> None:
        """After the first write: ``passed`` whether it wrote every row (None: there was
        none; a fenced write that did not pass failed in the database)."""
        if passed:
            return
        self.verify(conn, self.epochs)
        if passed is False:  # written under the fence and nothing written: never silently
            raise PaijuError("a fenced write wrote nothing, yet its room leases are held")


@dataclass(frozen=True)
class Call:
    """One statement of a batch and its parameters; a fenced write names its ``fence`` and
    the ``rows`` it writes."""

    statement: TextClause
    params: Mapping[str, Any]
    fence: Fence | None = None
    rows: int = 0


def call(
    statements: tuple[TextClause, TextClause],
    params: dict[str, Any],
    rows: int,
    fence: Fence | None,
) -> Call:
    """An insert of ``rows`` rows: the plain statement, or the fenced one with ``fence``."""
    plain, fenced = statements
    if fence is None:
        return Call(plain, params)
    return Call(fenced, {**params, **fence.params()}, fence, rows)


def run(conn: Connection, calls: Sequence[Call]) -> None:
    """The calls one after the other in ``conn``'s open transaction, each fenced write
    checked (:meth:`Fence.check`) before the next statement."""
    for c in calls:
        written = conn.execute(c.statement, c.params)
        if c.fence is not None:
            c.fence.check(conn, written.rowcount == c.rows)


@functools.lru_cache(maxsize=64)
def _compiled(statement: TextClause, dialect: Dialect) -> str:
    """The SQL of a batch's statement as the driver takes it, compiled once a statement
    object (they are module constants: a few)."""
    return str(statement.compile(dialect=dialect))


ABANDON = (
    "DO $$ BEGIN RAISE EXCEPTION 'a group commit given up before its end' USING ERRCODE = 'PJ002';"
    " END $$"
)
"""A statement that fails: queued after the statements of a batch that could not all be
queued (a parameter the driver cannot send), it rolls back what was (:func:`pipelined`)."""


def pipelines(conn: Connection) -> bool:
    """Whether ``conn`` can send a batch in one round trip (:func:`pipelined`): psycopg 3
    on a libpq with pipeline mode (14 or later; psycopg's binary package has it). Other
    drivers write a batch statement by statement in one transaction."""
    if conn.dialect.driver != "psycopg":
        return False
    import psycopg

    return psycopg.Pipeline.is_supported()


def pipelined(conn: Connection, calls: Sequence[Call]) -> None:
    """The calls in one transaction and one round trip (``conn`` in autocommit mode, on
    psycopg): pipelined with no answer awaited between them, they form one implicit
    transaction that the database commits at their end, or rolls back at the first that
    fails (a fenced write fails on its own when a lease is stale: :data:`FENCED_WHERE`;
    a batch that could not be queued whole is rolled back: :data:`ABANDON`). A failure is
    raised as SQLAlchemy raises it (:class:`~sqlalchemy.exc.DBAPIError`'s
    kind), a lost connection invalidated. Only where :func:`pipelines`."""
    import psycopg  # PostgreSQL's driver, installed with the server's postgres extra

    driver = conn.connection.driver_connection
    assert isinstance(driver, psycopg.Connection), "a pipelined batch needs psycopg"
    statement: str = ""
    params: Mapping[str, Any] = {}
    try:
        with driver.pipeline():
            try:
                for c in calls:
                    statement, params = _compiled(c.statement, conn.dialect), c.params
                    driver.execute(statement, params)
            except BaseException:
                # psycopg syncs the pipeline even when its block fails, which would commit
                # the statements queued so far: one that fails on purpose goes after them
                with contextlib.suppress(Exception):
                    driver.execute(ABANDON)
                raise
    except psycopg.Error as exc:
        lost = conn.dialect.is_disconnect(exc, conn.connection, None)  # type: ignore[arg-type]
        if lost:
            conn.invalidate(exc)
        raise DBAPIError.instance(
            statement, params, exc, psycopg.Error, connection_invalidated=lost, dialect=conn.dialect
        ) from exc


def refused_by_fence(exc: BaseException) -> bool:
    """Whether a batch failed because a fenced write found a lease stale or a lock not
    taken (:data:`FENCE_REFUSED`)."""
    orig = getattr(exc, "orig", exc)
    return getattr(orig, "sqlstate", None) == FENCE_REFUSED
