"""Accounts that follow a player: claiming a guest, signing in on any device, sessions
one per device, recovery codes, the limits on attempts, bans, and no secret kept in the
clear.

The issue: "A guest can claim the account at any time with a login name and a password,
keeping every hand, the 战绩, the balance and the mates; nothing of a guest's history is
lost by signing up, and the device that claims stays signed in."
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from paiju.server.accounts import audit
from paiju.server.accounts import tables as a
from paiju.server.accounts.attempts import Attempts
from paiju.server.accounts.logins import Passwords, check_password, clean_login, login_key
from paiju.server.app import create_app
from paiju.server.errors import ServerError
from paiju.server.options import Limits

PASSWORD = "tile-river-7qz"
FAST = Passwords(time_cost=1, memory_cost=1024)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "accounts.db"), limits=Limits(min_bot_delay=0))
    with TestClient(app) as c:
        c.app.state.accounts.passwords = FAST  # type: ignore[attr-defined]
        yield c


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _guest(client: TestClient, name: str = "ann") -> str:
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token


def _sign_in(client: TestClient, login: str, password: str = PASSWORD, **extra: Any) -> Any:
    return client.post("/api/sessions", json={"login": login, "password": password, **extra})


def test_a_guest_claims_its_account_and_keeps_its_history(client: TestClient) -> None:
    """The claiming device stays signed in; another device signs in as the same player
    and sees the same room, balance and record."""
    guest = _guest(client, "安")
    me = client.get("/api/players/me", headers=_auth(guest)).json()
    room = client.post("/api/rooms", json={"code": "2001"}, headers=_auth(guest))
    assert room.status_code == 201, room.text
    claimed = client.post(
        "/api/accounts", json={"login": "Ann", "password": PASSWORD}, headers=_auth(guest)
    )
    assert claimed.status_code == 201, claimed.text
    body = claimed.json()
    assert body["token"] is None and body["player"]["id"] == me["id"]
    assert len(body["codes"]) == 10 and len(set(body["codes"])) == 10
    assert client.get("/api/players/me", headers=_auth(guest)).status_code == 200
    # another device: the same player, with its history
    other = _sign_in(client, "ＡＮＮ", device="phone")  # NFKC and case folded: the same login
    assert other.status_code == 201, other.text
    second = other.json()["token"]
    assert other.json()["player"] == {"id": me["id"], "name": "安"}
    assert client.get("/api/players/me", headers=_auth(second)).json() == me
    record_a = client.get("/api/players/me/record", headers=_auth(guest)).json()
    assert client.get("/api/players/me/record", headers=_auth(second)).json() == record_a
    account = client.get("/api/accounts/me", headers=_auth(second)).json()
    assert account["guest"] is False and account["login"] == "Ann"
    assert account["codes_left"] == 10
    # a second device does not sign the first one out
    assert client.get("/api/players/me", headers=_auth(guest)).status_code == 200
    again = client.post(
        "/api/accounts", json={"login": "ann2", "password": PASSWORD}, headers=_auth(guest)
    )
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_claimed"


def test_a_new_account_without_a_guest_and_unique_logins(client: TestClient) -> None:
    made = client.post("/api/accounts", json={"login": "bob", "password": PASSWORD})
    assert made.status_code == 201, made.text
    assert made.json()["token"] and made.json()["player"]["name"] == "bob"
    taken = client.post("/api/accounts", json={"login": "ＢＯＢ", "password": PASSWORD})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "login_taken"
    assert taken.json()["error"]["text"]["zh"]


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("short1", "at least 8"),
        ("password", "common"),
        ("12345678", "common"),
        ("5201314", "at least"),
        ("woaini1314", "common"),
        ("aaaaaaaaaa", "common"),
        ("carol.lee", "login"),
    ],
)
def test_weak_passwords_are_refused_with_the_reason(password: str, why: str) -> None:
    with pytest.raises(ServerError, match=why) as refused:
        check_password(password, "carol.lee")
    assert refused.value.code == "weak_password"


@pytest.mark.parametrize(
    "login", ["ab", "a b c", "admin", "ｂｏｔ", "x" * 40, "ann\u200b", "ann\x00", "a/b"]
)
def test_bad_logins_are_refused(login: str) -> None:
    with pytest.raises(ServerError) as refused:
        clean_login(login)
    assert refused.value.code in ("bad_login",)


def test_login_keys_fold_case_and_width() -> None:
    assert login_key("Straße") == login_key("STRASSE")
    assert login_key("ｍａｊｉａｎｇ") == login_key("MaJiang")
    assert clean_login(" 雀友_01 ") == "雀友_01"


def test_wrong_login_and_wrong_password_answer_alike_after_the_same_work(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'wrong name and wrong password give the same answer and take the same time': both
    make exactly one Argon2id check (no timing in the test: the work is counted)."""
    client.post("/api/accounts", json={"login": "dora", "password": PASSWORD})
    checks: list[str] = []
    real = FAST._hash.verify

    def counted(password: str, stored: str) -> bool:
        checks.append(stored)
        return real(password, stored)

    monkeypatch.setattr(FAST._hash, "verify", counted)
    wrong_password = _sign_in(client, "dora", "not-her-password")
    wrong_login = _sign_in(client, "nobody-here", "not-her-password")
    assert wrong_password.status_code == wrong_login.status_code == 401
    assert wrong_password.json() == wrong_login.json()
    assert len(checks) == 2 and all(c.startswith("$argon2id$") for c in checks)


def test_passwords_are_argon2id_with_the_recommended_parameters() -> None:
    stored = Passwords().hash(PASSWORD)
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,")
    assert Passwords().verify(PASSWORD, stored) and not Passwords().verify("other-pw-1", stored)


def test_sign_in_attempts_are_limited_per_login_and_per_address(client: TestClient) -> None:
    client.post("/api/accounts", json={"login": "eve", "password": PASSWORD})
    codes = [_sign_in(client, "eve", f"wrong-{i}-pw").status_code for i in range(10)]
    assert codes == [401] * 10
    limited = _sign_in(client, "eve", PASSWORD)
    assert limited.status_code == 429
    assert limited.json()["error"]["code"] == "too_many_attempts"
    assert int(limited.headers["Retry-After"]) > 0
    # the buckets, clock driven by the test
    now = [0.0]
    attempts = Attempts(per_login=2, per_address=3, window=60.0, clock=lambda: now[0])
    attempts.take("x", "1.2.3.4")
    attempts.take("x", "1.2.3.4")
    with pytest.raises(ServerError) as login_full:
        attempts.take("x", "1.2.3.4")
    assert login_full.value.params["retry_after"] == 30
    attempts.take("y", "1.2.3.4")
    with pytest.raises(ServerError):
        attempts.take("z", "1.2.3.4")  # the address's bucket is empty
    now[0] = 30.0
    attempts.take("x", "5.6.7.8")  # a login's token back after half the window


def test_sessions_are_listed_and_ended_one_or_all_others(client: TestClient) -> None:
    made = client.post("/api/accounts", json={"login": "fay", "password": PASSWORD}).json()
    first = made["token"]
    second = _sign_in(client, "fay", device="Fay's phone").json()["token"]
    third = client.post(
        "/api/sessions",
        json={"login": "fay", "password": PASSWORD},
        headers={"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)"},
    ).json()["token"]
    listed = client.get("/api/sessions", headers=_auth(first)).json()["sessions"]
    assert len(listed) == 3 and sum(s["current"] for s in listed) == 1
    assert {"Fay's phone"} <= {s["device"] for s in listed}
    assert any("iOS" in s["device"] for s in listed)
    second_id = next(s["id"] for s in listed if s["device"] == "Fay's phone")
    ended = client.delete(f"/api/sessions/{second_id}", headers=_auth(first))
    assert ended.status_code == 200 and ended.json() == {"ended": [second_id]}
    assert client.get("/api/players/me", headers=_auth(second)).status_code == 401
    again = client.delete(f"/api/sessions/{second_id}", headers=_auth(first))
    assert again.status_code == 404 and again.json()["error"]["code"] == "no_session"
    everywhere = client.delete("/api/sessions", headers=_auth(first))
    assert len(everywhere.json()["ended"]) == 1
    assert client.get("/api/players/me", headers=_auth(third)).status_code == 401
    assert client.get("/api/players/me", headers=_auth(first)).status_code == 200
    # signing out: ending one's own session
    mine = client.get("/api/sessions", headers=_auth(first)).json()["sessions"]
    assert [s["current"] for s in mine] == [True]
    client.delete(f"/api/sessions/{mine[0]['id']}", headers=_auth(first))
    assert client.get("/api/players/me", headers=_auth(first)).status_code == 401


def test_an_ended_sessions_socket_is_closed_with_a_clear_code(client: TestClient) -> None:
    made = client.post("/api/accounts", json={"login": "gus", "password": PASSWORD}).json()
    token = made["token"]
    other = _sign_in(client, "gus").json()["token"]
    room = client.post("/api/rooms", json={"code": "2001"}, headers=_auth(token)).json()
    room_id = room["room"]["id"]
    with client.websocket_connect(f"/ws/rooms/{room_id}", headers=_auth(token)) as ws:
        assert ws.receive_json()["type"] == "welcome"
        assert client.delete("/api/sessions", headers=_auth(other)).status_code == 200
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                codes.append(ws.receive_json().get("code"))
        assert closed.value.code == 4401
        assert "session_ended" in codes


def test_a_token_in_the_socket_url_is_not_accepted(client: TestClient) -> None:
    token = _guest(client)
    room = client.post("/api/rooms", json={"code": "2001"}, headers=_auth(token)).json()
    with client.websocket_connect(f"/ws/rooms/{room['room']['id']}?token={token}") as ws:
        ws.send_text('{"type": "ping"}')  # not a hello: the socket has no token
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "bad_token"


def test_recovery_codes_set_a_new_password_once_and_end_every_session(
    client: TestClient,
) -> None:
    made = client.post("/api/accounts", json={"login": "hal", "password": PASSWORD}).json()
    codes, token = made["codes"], made["token"]
    new = "new-password-of-hal"
    recovered = client.post(
        "/api/accounts/recover",
        json={"login": "HAL", "code": codes[3].upper(), "password": new},
    )
    assert recovered.status_code == 200, recovered.text
    assert recovered.json()["player"]["id"] == made["player"]["id"]
    assert client.get("/api/players/me", headers=_auth(token)).status_code == 401
    assert _sign_in(client, "hal", PASSWORD).status_code == 401
    assert _sign_in(client, "hal", new).status_code == 201
    reused = client.post(
        "/api/accounts/recover", json={"login": "hal", "code": codes[3], "password": "x-y-z-w-v"}
    )
    assert reused.status_code == 401 and reused.json()["error"]["code"] == "bad_recovery"
    # a new set: the old codes stop working
    fresh = recovered.json()["token"]
    renewed = client.post("/api/accounts/me/codes", headers=_auth(fresh)).json()["codes"]
    assert len(renewed) == 10
    old = client.post(
        "/api/accounts/recover", json={"login": "hal", "code": codes[4], "password": new + "!"}
    )
    assert old.status_code == 401
    assert client.get("/api/accounts/me", headers=_auth(fresh)).json()["codes_left"] == 10


def test_the_database_keeps_no_secret_in_the_clear(client: TestClient) -> None:
    guest = _guest(client)
    made = client.post(
        "/api/accounts", json={"login": "ivy", "password": PASSWORD}, headers=_auth(guest)
    ).json()
    token = _sign_in(client, "ivy").json()["token"]
    secrets_given = [PASSWORD, guest, token, *made["codes"]]
    store = client.app.state.store  # type: ignore[attr-defined]
    dumped = []
    with store.engine.connect() as conn:
        for table in ("players", "accounts", "sessions", "recovery_codes", "audit_log"):
            dumped += [repr(tuple(r)) for r in conn.execute(text(f"SELECT * FROM {table}"))]
    everything = "\n".join(dumped)
    for secret in secrets_given:
        assert secret not in everything
        assert secret.replace("-", "") not in everything
    assert hashlib.sha256(token.encode()).hexdigest() in everything  # kept hashed


def test_a_ban_ends_sessions_and_sign_in_says_until_when(client: TestClient) -> None:
    made = client.post("/api/accounts", json={"login": "jon", "password": PASSWORD}).json()
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    ban, ended = accounts.ban(made["player"]["id"], 3, "abuse in chat")
    assert ended == [made["session"]]
    assert client.get("/api/players/me", headers=_auth(made["token"])).status_code == 401
    refused = _sign_in(client, "jon")
    assert refused.status_code == 403
    error = refused.json()["error"]
    assert error["code"] == "banned" and "abuse in chat" in error["message"]
    assert error["params"]["until"] == pytest.approx(ban.until)
    assert accounts.unban(made["player"]["id"], "appeal") == 1
    assert _sign_in(client, "jon").status_code == 201
    count, broken, _ = audit.verify(accounts.store.engine)
    assert (count, broken) == (2, None)


def test_a_guest_from_a_banned_players_browser_is_flagged(client: TestClient) -> None:
    first = client.post("/api/players", json={"name": "kai", "mark": "m4rk0001"}).json()
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    accounts.ban(first["id"], 1, "cheating")
    client.post("/api/players", json={"name": "kai2", "mark": "m4rk0001"})
    flagged = accounts.flags()
    assert [f["kind"] for f in flagged] == ["after_ban"]
    assert str(first["id"]) in flagged[0]["detail"]


def test_the_audit_chain_names_the_first_broken_entry(client: TestClient) -> None:
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    ids = [_guest_id(client, f"p{i}") for i in range(3)]
    for pid in ids:
        accounts.ban(pid, 1, f"reason {pid}")
    engine = accounts.store.engine
    assert audit.verify(engine)[:2] == (3, None)
    with engine.begin() as conn:
        second = conn.execute(select(a.audit_log.c.id).order_by(a.audit_log.c.id)).all()[1][0]
        conn.execute(a.audit_log.update().where(a.audit_log.c.id == second).values(reason="edited"))
    assert audit.verify(engine)[1] == second


def _guest_id(client: TestClient, name: str) -> int:
    found: int = client.post("/api/players", json={"name": name}).json()["id"]
    return found
