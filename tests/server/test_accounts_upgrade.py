"""The accounts' migration and the operator's commands.

The issue: "an Alembic migration turns every existing player into a guest account with
its history, on SQLite and PostgreSQL" and "``paiju admin ban|unban|sessions|
reset-password …`` work against the same ``--db`` as ``paiju serve``".
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import pytest
import websockets
from alembic import command
from server_helpers import Server
from sqlalchemy import create_engine, text

from paiju.server.store import Store, _alembic_config, database_url, hash_token
from paiju.server.tables import metadata  # noqa: F401  (the schema of today)

import cli_run  # isort: skip


def _database_of_yesterday(url: str) -> None:
    """A database at revision 0160 (the schema before accounts) with two players, one with
    a token that expires, and a room and a ledger entry of the first."""
    engine = create_engine(url)
    config = _alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0160")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO players (id, name, token_hash, created_at, token_expires) VALUES"
                " (1, 'ann', :a, 100.0, NULL), (2, 'bob', :b, 200.0, :late)"
            ),
            {"a": hash_token("ann-token"), "b": hash_token("bob-token"), "late": 4e9},
        )
        conn.execute(
            text(
                "INSERT INTO rooms (id, code, options, game_options, seats, owner_id, status,"
                " hands_played, context, created_at) VALUES (1, '2001', '{}', '{}', 4, 1,"
                " 'finished', 1, '{}', 150.0)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO hands (id, room_id, hand_no, code, game_options, seats, players,"
                " commitment, seed, deal, context, status, started_at) VALUES (1, 1, 1,"
                " '2001', '{}', 4, '[1, 2, null, null]', 'c', 's', '{}', '{}', 'over', 155.0)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO ledger (player_id, room_id, hand_id, seat, delta, balance, at)"
                " VALUES (1, 1, 1, 0, 7, 7, 160.0)"
            )
        )
    engine.dispose()


def _check_upgraded(db: str) -> None:
    store = Store(db)
    try:
        ann, expired = store.token_status("ann-token")
        assert ann is not None and not expired and (ann.id, ann.name) == (1, "ann")
        assert ann.session is not None
        bob = store.player_by_token("bob-token")
        assert bob is not None and bob.id == 2
        assert store.balance(1) == 7, "the guest keeps its ledger"
        with store.engine.connect() as conn:
            rows = conn.execute(
                text("SELECT player_id, expires, device FROM sessions ORDER BY player_id")
            ).all()
            kept = conn.execute(text("SELECT token_hash FROM players ORDER BY id")).scalars()
            assert all(not h.startswith(hash_token("ann-token")[:8]) for h in kept)
            assert conn.execute(text("SELECT count(*) FROM accounts")).scalar() == 0
        assert [(r[0], r[1]) for r in rows] == [(1, None), (2, 4e9)]
    finally:
        store.close()


def test_players_of_yesterday_become_guests_with_their_tokens_on_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    _database_of_yesterday(database_url(str(db)))
    _check_upgraded(str(db))


def test_players_of_yesterday_become_guests_with_their_tokens_on_postgres(
    postgres_db: str,
) -> None:
    _database_of_yesterday(database_url(postgres_db))
    _check_upgraded(postgres_db)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Server:
    srv = Server(tmp_path_factory.mktemp("admin")).start()
    yield srv  # type: ignore[misc]
    srv.stop()


async def _closed_by_ban(ws_url: str, token: str, ban: asyncio.Future[None]) -> int:
    auth = {"Authorization": f"Bearer {token}"}
    async with websockets.connect(ws_url, additional_headers=auth) as ws:
        while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "welcome":
            pass
        ban.set_result(None)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), 20)
        assert closed.value.rcvd is not None
        return closed.value.rcvd.code


def test_admin_ban_against_a_running_servers_database(
    server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ban ends the player's sessions and closes its socket on the running server
    (4403); sign-in says until when; unban lets the player in again; reset-password
    hands over a new password; the audit trail holds."""
    made = httpx.post(
        f"{server.base}/api/accounts",
        json={"login": "mallory", "password": "a-long-pass-77"},
        timeout=10,
    ).json()
    token, pid = made["token"], made["player"]["id"]
    room = server.create_room(token, "2001")
    db = str(server.db)

    async def scenario() -> int:
        ban: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        url = f"{server.ws_base}/ws/rooms/{room['room']['id']}"
        watcher = asyncio.create_task(_closed_by_ban(url, token, ban))
        await asyncio.wait_for(asyncio.shield(ban), 30)
        code, out, err = await asyncio.to_thread(
            cli_run.run, capsys, "admin", "ban", "mallory", "--days", "2", "--reason",
            "spam", "--db", db, "--json",
        )  # fmt: skip
        assert code == 0, err
        assert json.loads(out)["sessions_ended"] == [made["session"]]
        return await watcher

    assert asyncio.run(scenario()) == 4403
    refused = httpx.post(
        f"{server.base}/api/sessions",
        json={"login": "mallory", "password": "a-long-pass-77"},
        timeout=10,
    )
    assert refused.status_code == 403 and "spam" in refused.json()["error"]["message"]
    assert refused.json()["error"]["params"]["until"] > time.time() + 86_400
    code, out, _ = cli_run.run(capsys, "admin", "sessions", f"#{pid}", "--db", db)
    assert code == 0 and "banned until" in out and "(banned)" in out
    assert cli_run.run(capsys, "admin", "unban", "mallory", "--db", db)[0] == 0
    code, out, _ = cli_run.run(
        capsys, "admin", "reset-password", "mallory", "--reason", "asked by phone",
        "--db", db, "--json",
    )  # fmt: skip
    new = json.loads(out)["password"]
    signed = httpx.post(
        f"{server.base}/api/sessions", json={"login": "mallory", "password": new}, timeout=10
    )
    assert signed.status_code == 201, signed.text
    code, out, _ = cli_run.run(capsys, "admin", "audit", "verify", "--db", db)
    assert code == 0 and "3 entries" in out
    code, _, err = cli_run.run(capsys, "admin", "ban", "nobody-at-all", "--days", "1",
                               "--reason", "x", "--db", db)  # fmt: skip
    assert code == 2 and "no player" in err
