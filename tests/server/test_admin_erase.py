"""Erasing a player from the console: their login, sessions, passkeys, recovery codes and
memberships go, their name is replaced, and their hands stay in the records under an
anonymous seat, so that the fairness proof and the other players' histories hold.

The issue: "export a player's data (JSON) and erase a player (their hands stay in the
records under an anonymous seat so that proofs and others' histories hold)".
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyotp
import pytest
from click.testing import CliRunner
from sqlalchemy import func, insert, select
from starlette.testclient import TestClient

from paiju.cli import cli
from paiju.server import tables as t
from paiju.server.accounts import audit
from paiju.server.accounts import tables as a
from paiju.server.accounts.logins import Passwords
from paiju.server.admin.staff import Staff
from paiju.server.app import create_app
from paiju.server.options import Limits

PASSWORD = "lantern-drum-93"
FAST = Passwords(time_cost=1, memory_cost=1024)
QUICK = {"seats": 2, "bots": 1, "bot_delay": 0, "pause": 0, "seed_wait": 0, "hands": 1}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "erase.db"), limits=Limits(min_bot_delay=0))
    with TestClient(app) as c:
        c.app.state.accounts.passwords = FAST  # type: ignore[attr-defined]
        yield c


def _state(client: TestClient) -> Any:
    return client.app.state  # type: ignore[attr-defined]


def _staff(client: TestClient, role: str = "admin") -> dict[str, str]:
    made = Staff(_state(client).store, FAST).add("mei", role, PASSWORD)
    body = {"name": "mei", "password": PASSWORD, "code": pyotp.TOTP(made.secret).now()}
    token = client.post("/api/admin/sessions", json=body).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def _account(client: TestClient, login: str) -> tuple[int, dict[str, str]]:
    guest = client.post("/api/players", json={"name": f"{login}-name"}).json()
    me = {"Authorization": f"Bearer {guest['token']}"}
    made = client.post(
        "/api/accounts", json={"login": login, "password": "quiet-harbour-71"}, headers=me
    )
    assert made.status_code == 201, made.text
    return int(guest["id"]), me


def _finished_hand(client: TestClient, me: dict[str, str]) -> int:
    """A hand of 宝子 the player sat in and a bot finished for them (the player left)."""
    body = {"code": "2001", "options": QUICK, "game_options": {}, "seat": 0}
    room = client.post("/api/rooms", json=body, headers=me).json()["room"]["id"]
    assert client.post(f"/api/rooms/{room}/leave", headers=me).status_code == 200
    for _ in range(600):  # a bound, not a timing: the bot plays the hand out
        games = client.get(f"/api/games?room={room}").json()
        if games:
            return int(games[0]["id"])
        time.sleep(0.05)
    raise AssertionError("the bot did not finish the hand")


def _count(client: TestClient, table: Any, player: int) -> int:
    with _state(client).store.engine.connect() as conn:
        return int(
            conn.execute(
                select(func.count()).select_from(table).where(table.c.player_id == player)
            ).scalar()
            or 0
        )


def test_an_erased_players_hands_stay_under_an_anonymous_seat_and_still_prove(
    client: TestClient,
) -> None:
    staff = _staff(client)
    ann, ann_me = _account(client, "ann")
    hand = _finished_hand(client, ann_me)
    before = client.get(f"/api/games/{hand}").json()
    with _state(client).store.engine.begin() as conn:  # a passkey of hers
        conn.execute(
            insert(a.passkeys).values(
                player_id=ann,
                credential_id=b"cred",
                public_key=b"key",
                sign_count=0,
                name="phone",
                created_at=1.0,
            )
        )
    assert _count(client, a.recovery_codes, ann) == 10
    done = client.post(
        f"/api/admin/players/{ann}/erase", json={"reason": "asked to be forgotten"}, headers=staff
    )
    assert done.status_code == 200, done.text
    body = done.json()
    assert body["name"] == f"已注销#{ann}" and body["hands_kept"] == 1
    assert len(body["sessions_ended"]) == 1
    # no way in: the token, the login, the passkey and the codes are gone
    assert client.get("/api/players/me", headers=ann_me).status_code == 401
    signed = client.post("/api/sessions", json={"login": "ann", "password": "quiet-harbour-71"})
    assert signed.status_code == 401
    for table in (a.accounts, a.passkeys, a.recovery_codes):
        assert _count(client, table, ann) == 0
    with _state(client).store.engine.connect() as conn:
        session = conn.execute(select(a.sessions).where(a.sessions.c.player_id == ann)).one()
    assert (session.device, session.address, session.ended_why) == ("", None, "erased")
    # the hand is as it was, the proof holds, the ledger still sums to zero
    after = client.get(f"/api/games/{hand}").json()
    assert before["names"] == ["ann-name", None]
    assert after == {**before, "names": [f"已注销#{ann}", None]}  # the seat, anonymous
    assert client.get(f"/api/games/{hand}/verify").json()["ok"] is True
    with _state(client).store.engine.connect() as conn:
        deltas = conn.execute(select(t.ledger.c.delta).where(t.ledger.c.hand_id == hand)).all()
    assert len(deltas) == 2 and sum(d.delta for d in deltas) == 0
    found = client.get(f"/api/admin/players/{ann}", headers=staff).json()
    assert found["name"] == f"已注销#{ann}" and found["login"] is None and found["hands"] == 1
    # in the trail, once; a second erasure is refused
    _, broken, _ = audit.verify(_state(client).store.engine)
    assert broken is None
    assert [e["action"] for e in found["trail"]].count("erase") == 1
    again = client.post(f"/api/admin/players/{ann}/erase", json={"reason": "x"}, headers=staff)
    assert again.status_code == 409 and again.json()["error"]["code"] == "erased"


def test_a_club_owner_is_not_erased_until_the_club_is_handed_over(client: TestClient) -> None:
    staff = _staff(client)
    bo, bo_me = _account(client, "bob")
    made = client.post("/api/clubs", json={"name": "Bo's table"}, headers=bo_me)
    assert made.status_code == 201, made.text
    refused = client.post(f"/api/admin/players/{bo}/erase", json={"reason": "x"}, headers=staff)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "owns_club"
    assert client.get("/api/players/me", headers=bo_me).status_code == 200  # nothing done


def test_support_staff_may_not_erase(client: TestClient) -> None:
    support = _staff(client, "support")
    cy, _ = _account(client, "cyd")
    answer = client.post(f"/api/admin/players/{cy}/erase", json={"reason": "x"}, headers=support)
    assert answer.status_code == 403


def test_paiju_admin_erase_by_login(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    app = create_app(db, limits=Limits(min_bot_delay=0))
    with TestClient(app) as client:
        _state(client).accounts.passwords = FAST
        dee, _ = _account(client, "dee")
    runner = CliRunner()
    done = runner.invoke(
        cli, ["admin", "erase", "dee", "--reason", "request", "--yes", "--db", db, "--json"]
    )
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["name"] == f"已注销#{dee}"
    gone = runner.invoke(cli, ["admin", "sessions", "dee", "--db", db])
    assert gone.exit_code != 0  # the login is no more
