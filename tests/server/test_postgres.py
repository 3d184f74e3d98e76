"""The server on PostgreSQL ("Storage goes through SQLAlchemy so that PostgreSQL is
a DSN away (``--db postgresql://...``), with migrations (Alembic)").

Each test gets a fresh database on the session's throwaway PostgreSQL server
(``tests/pg.py``, fixtures ``postgres_db`` / ``postgres_dsn`` in ``conftest.py``); the tests
skip where PostgreSQL is not installed, and fail instead in CI (``PAIJU_REQUIRE_POSTGRES=1``).
The store tests of ``test_store_verify.py`` run on both databases as well.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from server_helpers import LAUNCH, REAL_CODES, Server, check_messages
from sqlalchemy import create_engine, event, func, insert, select, text
from sqlalchemy.exc import DataError

from paiju.errors import PaijuError
from paiju.server import tables as t
from paiju.server.rows import ActionWrite, HandEnding, HandWrite
from paiju.server.store import Store, _alembic_config, database_url

HEAD = ScriptDirectory.from_config(_alembic_config()).get_current_head()
"""The newest migration: a new database is created at it."""

# -- the store ------------------------------------------------------------------------------


def test_a_dsn_without_a_driver_uses_psycopg_3(postgres_db: str) -> None:
    """``postgresql://`` and ``postgres://`` go through psycopg 3 (SQLAlchemy's own default
    is psycopg2, which paiju does not install); a named driver is kept."""
    assert postgres_db.startswith("postgresql://")
    rest = postgres_db.removeprefix("postgresql://")
    assert database_url(postgres_db) == f"postgresql+psycopg://{rest}"
    assert database_url(f"postgres://{rest}") == f"postgresql+psycopg://{rest}"
    assert database_url(f"postgresql+psycopg2://{rest}") == f"postgresql+psycopg2://{rest}"
    for dsn in (postgres_db, f"postgres://{rest}", f"postgresql+psycopg://{rest}"):
        store = Store(dsn)
        assert (store.engine.dialect.name, store.engine.driver) == ("postgresql", "psycopg")
        with store.engine.connect() as conn:
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            assert version == HEAD
        store.close()


def test_alembic_by_hand_migrates_a_postgresql_dsn(postgres_db: str) -> None:
    """``alembic -c src/paiju/server/alembic.ini -x db=postgresql://… upgrade head`` (the
    by-hand route of ``alembic.ini``) reads the DSN as ``--db`` does; the initial revision
    downgrades and upgrades again on PostgreSQL."""
    ini = Path(__file__).resolve().parents[2] / "src" / "paiju" / "server" / "alembic.ini"

    def alembic(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "alembic", "-c", str(ini), "-x", f"db={postgres_db}", *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def tables() -> set[str]:
        store_free = create_engine(database_url(postgres_db))
        with store_free.connect() as conn:
            found = conn.execute(
                text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            ).scalars()
            names = set(found)
        store_free.dispose()
        return names

    alembic("upgrade", "head")
    assert f"{HEAD} (head)" in alembic("current")
    assert {"players", "rooms", "room_seats", "hands", "actions", "ledger"} <= tables()
    alembic("downgrade", "base")
    assert tables() == {"alembic_version"}
    alembic("upgrade", "head")
    store = Store(postgres_db)  # the server finds the schema at head and plays on it
    player, _ = store.create_player("ann")
    assert store.create_room("toy", {}, {}, 2, player.id, [False, True]) == 1
    store.close()


def test_the_url_shown_hides_the_password(postgres_db: str) -> None:
    """``Store.url`` (what the server logs at start-up) never shows the password."""
    with_password = postgres_db.replace("://paiju@", "://paiju:s3cret-pw@")
    store = Store(with_password)  # the test server trusts loopback: any password will do
    assert "s3cret-pw" not in store.url
    assert store.url.startswith("postgresql+psycopg://paiju:***@127.0.0.1:")
    store.close()


def test_an_unreachable_database_is_a_clear_error(postgres_dsn: str) -> None:
    port = int(postgres_dsn.rsplit(":", 1)[1].split("/")[0])
    closed = f"postgresql://paiju:pw@127.0.0.1:{port + 1 if port < 65535 else port - 1}/x"
    with pytest.raises(PaijuError, match=r"cannot open the database postgresql\+psycopg://"):
        Store(closed)


def test_a_missing_driver_names_the_extra(
    postgres_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without psycopg installed, ``--db postgresql://…`` says what to install."""
    monkeypatch.setitem(sys.modules, "psycopg", None)  # ``import psycopg`` now fails
    with pytest.raises(PaijuError, match=r"pip install 'paiju\[postgres\]'"):
        Store(postgres_dsn)


def _hand(store: Store, room: int, hand_no: int, players: tuple[int | None, ...]) -> HandWrite:
    return HandWrite(
        id=store.new_hand_id(),
        room_id=room,
        hand_no=hand_no,
        code="toy",
        game_options={"target": 3},
        players=players,
        commitment=f"{hand_no:064d}",
        seed=f"seed-{hand_no}",
        deal={"hands": ["As Kd", "2c 大王"], "n": [1, None]},
        context={"banker": hand_no % 2},
    )


def test_group_commits_stay_on_the_connection_given_back_last(postgres_db: str) -> None:
    """The pool hands out the connection given back last: a server's group commits, each of
    which takes a connection, writes and gives it back, run on one connection while the
    pool holds others idle (a node's reads and lease renewals grow it), so that their
    statements are prepared and planned on one session, not again on each pooled one."""
    store = Store(postgres_db)
    try:
        ann, _ = store.create_player("ann")
        room = store.create_room("toy", {}, {}, 2, ann.id, [False, True])
        held = [store.engine.connect() for _ in range(3)]  # three sessions in the pool
        for conn in held:
            conn.close()
        sessions: list[int] = []
        event.listen(store.engine, "checkout", lambda dbapi, *_: sessions.append(id(dbapi)))
        hand = _hand(store, room, 1, (ann.id, None))
        store.append_actions([hand])
        for idx in range(6):
            store.append_actions([ActionWrite(hand.id, idx, idx % 2, {"n": idx}, "player")])
        assert len(sessions) == 7
        assert len(set(sessions)) == 1, "the group commits went round the pool's sessions"
    finally:
        store.close()


@pytest.mark.parametrize("node", [False, True], ids=["one server", "cluster node"])
def test_a_batch_of_play_is_stored_in_one_round_trip(
    postgres_db: str, tmp_path: Path, node: bool
) -> None:
    """A group commit of play (a hand dealt, actions, a hand settled) goes to PostgreSQL in
    one round trip: its statements pipelined, with no BEGIN or COMMIT of their own and one
    Sync after the last, the database committing them as one implicit transaction. On a
    cluster node the lease fence is checked by the database inside that transaction."""
    from paiju.server.lease import SharedStore

    store = SharedStore(postgres_db, "n", ttl=30.0) if node else Store(postgres_db)
    trace = tmp_path / "libpq.trace"
    try:
        ann, _ = store.create_player("ann")
        bob, _ = store.create_player("bob")
        first = store.create_room("toy", {}, {}, 2, ann.id, [False, False])
        second = store.create_room("toy", {}, {}, 2, bob.id, [False, False])
        old = _hand(store, first, 1, (ann.id, bob.id))
        store.append_actions([old])
        new = _hand(store, second, 1, (bob.id, ann.id))
        ending = HandEnding(first, (3, -3), (6, -6), (ann.id, bob.id), 1, {}, False)
        with trace.open("w") as out:

            def traced(dbapi: object, *_: object) -> None:
                dbapi.pgconn.trace(out.fileno())  # type: ignore[attr-defined]

            def untraced(dbapi: object, *_: object) -> None:
                dbapi.pgconn.untrace()  # type: ignore[attr-defined]

            event.listen(store.engine, "checkout", traced)
            event.listen(store.engine, "checkin", untraced)
            store.append_actions(
                [
                    new,
                    ActionWrite(old.id, 0, 0, {"play": "As"}, "player"),
                    ActionWrite(old.id, 1, 1, {"play": "Kd"}, "player", ending),
                ]
            )
            event.remove(store.engine, "checkout", traced)
            event.remove(store.engine, "checkin", untraced)
        # the commit, after the reads that built it (a server alone reads the balances
        # it has not seen yet): libpq's trace, a message a line, "time F|B length type ..."
        sent = trace.read_text()
        sent = sent[sent.index("INSERT INTO hands") :]
        messages = [line.split("\t") for line in sent.splitlines()]
        frontend = [m[3] for m in messages if len(m) > 3 and m[1] == "F"]
        backend = [m[3] for m in messages if len(m) > 3 and m[1] == "B"]
        # hands, (a server alone: its hands' sequence moved past them,) actions, settlement
        assert frontend.count("Execute") == (3 if node else 4), sent
        assert frontend.count("Sync") == 1, sent
        assert frontend.index("Sync") > max(i for i, m in enumerate(frontend) if m == "Execute")
        assert backend.count("ReadyForQuery") == 1 and backend[-1] == "ReadyForQuery", sent
        assert "BEGIN" not in sent and "COMMIT" not in sent, sent
        assert [r["delta"] for r in store.ledger(ann.id)] == [6]
        assert store.balance(bob.id) == -6
        stored_old, stored_new = store.hand(old.id), store.hand(new.id)
        assert stored_old is not None and stored_old.status == "over"
        assert len(stored_old.actions) == 2
        assert stored_new is not None and stored_new.status == "playing"
    finally:
        store.close()


def test_a_batch_the_driver_cannot_send_whole_stores_nothing(postgres_db: str) -> None:
    """A batch whose later statement the driver refuses to send (a text with a NUL byte,
    which PostgreSQL cannot hold) after its first was already queued in the round trip
    stores nothing: not the first statement's hand either, though the driver ends the
    round trip (and would so commit what it holds) whatever happened."""
    store = Store(postgres_db)
    try:
        ann, _ = store.create_player("ann")
        first = store.create_room("toy", {}, {}, 2, ann.id, [False, True])
        second = store.create_room("toy", {}, {}, 2, ann.id, [False, True])
        old = _hand(store, first, 1, (ann.id, None))
        store.append_actions([old])
        new = _hand(store, second, 1, (ann.id, None))
        with pytest.raises(DataError, match="NUL"):
            store.append_actions([new, ActionWrite(old.id, 0, 0, {"n": 1}, "bad\x00actor")])
        assert store.hand(new.id) is None
        stored = store.hand(old.id)
        assert stored is not None and stored.actions == ()
        # the session is whole: the next batch lands
        store.append_actions([new, ActionWrite(old.id, 0, 0, {"n": 1}, "player")])
        assert store.hand(new.id) is not None
    finally:
        store.close()


def test_a_match_stored_on_postgresql_reads_back_after_a_restart(postgres_db: str) -> None:
    """Players, rooms, hands and actions written in groups (one transaction each), a
    settlement written to the ledger with the action that ends the hand, running balances;
    then a new Store on the same DSN (a restarted server) finds the unfinished hand with its
    log in order, continues the balances and deals with fresh hand ids."""
    store = Store(postgres_db)
    ann, ann_token = store.create_player("ann")
    bob, _ = store.create_player("鲍勃")
    assert store.player_by_token(ann_token) == ann
    assert store.player_names([ann.id, bob.id]) == {ann.id: "ann", bob.id: "鲍勃"}
    players = (ann.id, bob.id, None)
    room = store.create_room("toy", {"stake": 2}, {"target": 3}, 3, ann.id, [False, False, True])
    other = store.create_room("toy", {}, {}, 2, bob.id, [False, True])
    store.set_seat(room, 0, ann.id, False)
    store.set_room_status(room, "playing")
    first, side = _hand(store, room, 1, players), _hand(store, other, 1, (bob.id, None))
    # one group commit: two new hands and actions of both
    store.append_actions(
        [
            first,
            side,
            ActionWrite(first.id, 0, 0, {"type": "stake", "amount": 1}, "player"),
            ActionWrite(side.id, 0, 1, {"type": "stake", "amount": 2}, "bot"),
            ActionWrite(first.id, 1, 2, {"type": "stake", "amount": 3, "note": "大王"}, "bot"),
        ]
    )
    ending = HandEnding(room, (2, -1, -1), (4, -2, -2), players, 1, {"banker": 1}, False)
    second = _hand(store, room, 2, players)
    store.append_actions([ActionWrite(first.id, 2, 1, {"type": "stop"}, "timeout", ending)])
    store.append_actions(
        [second, ActionWrite(second.id, 0, 1, {"type": "stake", "amount": 1}, "player")]
    )
    assert store.balance(ann.id) == 4 and store.balance(bob.id) == -2
    store.close()

    again = Store(postgres_db)  # the restarted server
    assert [(r.id, r.status, r.hands_played) for r in again.rooms(["playing"])] == [
        (room, "playing", 1)
    ]
    row = again.room(room)
    assert row is not None
    assert (row.options, row.game_options, row.context) == (
        {"stake": 2},
        {"target": 3},
        {"banker": 1},
    )
    assert (row.seat_players, row.seat_bots) == ((ann.id, None, None), (False, False, True))
    current = again.current_hand(room)
    assert current is not None
    assert (current.id, current.hand_no, current.status) == (second.id, 2, "playing")
    assert current.players == players and current.deal == {
        "hands": ["As Kd", "2c 大王"],
        "n": [1, None],
    }
    assert current.actions == ((1, {"type": "stake", "amount": 1}, "player"),)
    finished = again.hand(first.id)
    assert finished is not None and finished.status == "over"
    assert finished.settlement == (2, -1, -1) and finished.ended_at is not None
    assert [a[1].get("note") for a in finished.actions] == [None, "大王", None]
    assert again.ledger_of_hand(first.id) == [
        {"seat": 0, "player": ann.id, "delta": 4, "balance": 4},
        {"seat": 1, "player": bob.id, "delta": -2, "balance": -2},
        {"seat": 2, "player": None, "delta": -2, "balance": None},
    ]
    assert [h["id"] for h in again.hands(room)] == [first.id]
    # the restarted store continues the running balances from the database
    ending2 = HandEnding(room, (-1, 2, -1), (-2, 4, -2), players, 2, {}, True)
    later = again.new_hand_id()
    assert later > max(first.id, side.id, second.id)
    again.append_actions([ActionWrite(second.id, 1, 0, {"type": "stop"}, "player", ending2)])
    assert [(e["delta"], e["balance"]) for e in again.ledger(ann.id)] == [(4, 4), (-2, 2)]
    assert [(e["delta"], e["balance"]) for e in again.ledger(bob.id)] == [(-2, -2), (4, 2)]
    assert again.balance(ann.id) == 2 and again.balance(bob.id) == 2
    assert again.rooms(["playing"]) == []
    finished_room = again.room(room)
    assert finished_room is not None and finished_room.status == "finished"
    assert again.count_actions() == 6
    again.close()


def _hand_row(room: int, player: int, hand_no: int) -> dict[str, object]:
    """A ``hands`` row without an id, as another tool would insert it."""
    return {
        "room_id": room,
        "hand_no": hand_no,
        "code": "toy",
        "game_options": {},
        "seats": 2,
        "players": [player, None],
        "commitment": "c" * 64,
        "seed": "s",
        "deal": {},
        "context": {},
        "status": "playing",
        "started_at": 0.0,
    }


def test_hands_stored_with_their_ids_keep_the_sequence_ahead(postgres_db: str) -> None:
    """The store gives hand ids (game ids) itself and stores them explicitly; on PostgreSQL
    the same transaction moves ``hands.id``'s sequence past them, so a row inserted later
    without an id takes a free one; a sequence left behind (hands stored with explicit ids
    by something else) is moved past them when the store starts."""
    store = Store(postgres_db)
    player, _ = store.create_player("ann")
    room = store.create_room("toy", {}, {}, 2, player.id, [False, True])
    first = store.start_hand(room, 1, "toy", {}, (player.id, None), "c" * 64, "s", {}, {})
    group = [_hand(store, room, n, (player.id, None)) for n in (2, 3)]
    store.append_actions(group)  # the group-commit path stores hands too
    ids = [first, *(h.id for h in group)]
    assert ids == [1, 2, 3]

    def insert_without_id(s: Store, hand_no: int) -> int:
        with s.engine.begin() as conn:
            key = conn.execute(
                insert(t.hands).values(**_hand_row(room, player.id, hand_no))
            ).inserted_primary_key
        assert key is not None
        return int(key[0])

    assert insert_without_id(store, 4) == 4  # not 1: the sequence is past the stored ids
    with store.engine.begin() as conn:  # an explicit id the sequence never saw
        conn.execute(insert(t.hands).values(id=1000, **_hand_row(room, player.id, 5)))
    store.close()

    again = Store(postgres_db)  # a restart: the ids continue after every stored hand
    later = _hand(again, room, 6, (player.id, None))
    assert later.id == 1001
    again.append_actions([later])
    assert insert_without_id(again, 7) == 1002
    with again.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(t.hands)).scalar() == 7
    again.close()


# -- a real server process on PostgreSQL ------------------------------------------------------


class PostgresServer(Server):
    """``paiju serve --db postgresql://…`` (a real process, through ``launch.py``)."""

    def __init__(self, folder: Path, dsn: str) -> None:
        super().__init__(folder)
        self.db = dsn  # type: ignore[assignment]  # a DSN, handed to --db and Store as is


@pytest.mark.skipif(not REAL_CODES, reason="1301 and 2001 are not registered")
@pytest.mark.parametrize("code", REAL_CODES)
def test_full_games_on_postgresql_settle_and_verify(
    tmp_path: Path, postgres_db: str, code: str
) -> None:
    """Scripted clients and a bot play a two-hand match of ``code`` on a server running on
    PostgreSQL; every message replays, every game verifies (REST and ``paiju verify --db
    postgresql://…``), and each player's ledger is the settlements times the stake."""
    from test_games import _play_room

    server = PostgresServer(tmp_path, postgres_db).start()
    try:
        room, clients = asyncio.run(
            _play_room(server, code, humans=2, seed=5, seats=3, hands=2, stake=3)
        )
        *players, _ = clients
        games = server.call("GET", f"/api/games?room={room}").json()
        assert len(games) == 2
        expected: dict[int, list[int]] = {}
        for summary in reversed(games):  # oldest first, as the ledger
            record = server.call("GET", f"/api/games/{summary['id']}").json()
            assert server.call("GET", f"/api/games/{summary['id']}/verify").json()["ok"] is True
            assert [e["delta"] for e in record["ledger"]] == [3 * s for s in record["settlement"]]
            assert sum(record["settlement"]) == 0
            for p in players:
                assert p.seat is not None
                expected.setdefault(p.seat, []).append(3 * record["settlement"][p.seat])
        for p in players:
            assert p.seat is not None
            ledger = server.call("GET", "/api/players/me/ledger", p.token).json()
            deltas = [e["delta"] for e in ledger["entries"]]
            assert deltas == expected[p.seat]
            running = [sum(deltas[: i + 1]) for i in range(len(deltas))]
            assert [e["balance"] for e in ledger["entries"]] == running
            assert ledger["balance"] == running[-1]
        store = Store(postgres_db)
        for p in clients:
            checked, problems = check_messages(store, p)
            assert problems == [] and checked > 0
        store.close()
        local = subprocess.run(
            [sys.executable, str(LAUNCH), "verify", str(games[0]["id"]), "--db", postgres_db],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert local.returncode == 0, local.stderr
        assert "verifies" in local.stdout
    finally:
        server.stop()


def test_kill_9_mid_games_on_postgresql_then_restart_resumes_every_table(
    tmp_path: Path, postgres_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recovery test of ``test_recovery.py``, word for word, with its server on
    PostgreSQL: kill -9 in the middle of games of every code, a restart on the same DSN,
    every unfinished table resumes exactly (views, legal actions, timers, ledger) and plays
    to the end; every settled game verifies."""
    import test_recovery

    monkeypatch.setattr(test_recovery, "Server", lambda folder: PostgresServer(folder, postgres_db))
    test_recovery.test_kill_9_mid_games_then_restart_resumes_every_table(tmp_path)
    store = Store(postgres_db)  # it really ran on PostgreSQL
    assert store.count_actions() > 0 and store.hands(limit=1)
    store.close()
