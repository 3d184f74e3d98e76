"""The operator's console: staff who sign in with a password and a TOTP code, roles,
moderation that reaches the table at once, a room's public view that never shows a
hidden card, announcements, and every action in the audit trail.

The issue: "Sign-in to the console needs a second factor (TOTP, with pyotp; recovery
codes as for players)"; "Every staff action is written to an audit trail that cannot be
edited unnoticed"; "no hidden card of a hand in play is shown to staff (an insider must
not be able to help a friend)".
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyotp
import pytest
from sqlalchemy import select
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from paiju.server.accounts import audit
from paiju.server.accounts import tables as a
from paiju.server.accounts.logins import Passwords
from paiju.server.admin import tables as s
from paiju.server.admin.staff import NewStaff, Staff
from paiju.server.app import create_app
from paiju.server.options import Limits

PASSWORD = "lantern-drum-93"
FAST = Passwords(time_cost=1, memory_cost=1024)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    limits = Limits(min_bot_delay=0, chat_text_max=20)
    app = create_app(str(tmp_path / "console.db"), limits=limits)
    with TestClient(app) as c:
        c.app.state.accounts.passwords = FAST  # type: ignore[attr-defined]
        yield c


def _state(client: TestClient) -> Any:
    return client.app.state  # type: ignore[attr-defined]


def _add(client: TestClient, name: str, role: str) -> NewStaff:
    return Staff(_state(client).store, FAST).add(name, role, PASSWORD)


def _sign_in(client: TestClient, made: NewStaff, code: str | None = None) -> Any:
    code = code if code is not None else pyotp.TOTP(made.secret).now()
    body = {"name": made.member.name, "password": PASSWORD, "code": code}
    return client.post("/api/admin/sessions", json=body)


def _staff(client: TestClient, name: str = "mei", role: str = "admin") -> dict[str, str]:
    answer = _sign_in(client, _add(client, name, role))
    assert answer.status_code == 201, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def _player(client: TestClient, name: str = "ann") -> tuple[int, dict[str, str]]:
    made = client.post("/api/players", json={"name": name}).json()
    return made["id"], {"Authorization": f"Bearer {made['token']}"}


def test_sign_in_needs_the_password_and_a_fresh_totp_code(client: TestClient) -> None:
    made = _add(client, "mei", "admin")
    assert made.uri.startswith("otpauth://totp/paiju:mei?secret=")
    assert len(made.codes) == 10
    wrong = _sign_in(client, made, "000000" if pyotp.TOTP(made.secret).now() != "000000" else "1")
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_staff_credentials"
    no_password = client.post(
        "/api/admin/sessions", json={"name": "mei", "password": "nope-nope-1", "code": "123456"}
    )
    assert no_password.status_code == 401
    code = pyotp.TOTP(made.secret).now()
    first = _sign_in(client, made, code)
    assert first.status_code == 201, first.text
    assert first.json()["staff"] == {"name": "mei", "role": "admin"}
    again = _sign_in(client, made, code)  # a code is good once
    assert again.status_code == 401
    # a recovery code works once
    assert _sign_in(client, made, made.codes[3]).status_code == 201
    assert _sign_in(client, made, made.codes[3]).status_code == 401
    token = first.json()["token"]
    me = client.get("/api/admin/me", headers={"Authorization": f"Bearer {token}"})
    assert me.json() == {"name": "mei", "role": "admin"}
    # the database keeps no token and no code in the clear
    with _state(client).store.engine.connect() as conn:
        kept = json.dumps([list(r) for r in conn.execute(select(s.staff_sessions)).all()])
        codes = json.dumps([list(r) for r in conn.execute(select(s.staff_codes)).all()])
    assert token not in kept and made.codes[0] not in codes
    # signing out ends the session
    client.delete("/api/admin/sessions", headers={"Authorization": f"Bearer {token}"})
    assert (
        client.get("/api/admin/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    )


def test_a_players_token_never_opens_the_console(client: TestClient) -> None:
    _, player = _player(client)
    refused = client.get("/api/admin/live", headers=player)
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "staff_only"
    assert client.get("/api/admin/live").status_code == 401


def test_roles_support_may_mute_but_not_ban(client: TestClient) -> None:
    support = _staff(client, "kefu", "support")
    pid, _ = _player(client)
    banned = client.post(
        f"/api/admin/players/{pid}/ban", json={"days": 1, "reason": "x"}, headers=support
    )
    assert banned.status_code == 403 and banned.json()["error"]["code"] == "staff_role"
    muted = client.post(
        f"/api/admin/players/{pid}/mute", json={"hours": 2, "reason": "abuse"}, headers=support
    )
    assert muted.status_code == 200, muted.text
    assert client.get("/api/admin/staff", headers=support).status_code == 403
    owner = _staff(client, "boss", "owner")
    names = [m["name"] for m in client.get("/api/admin/staff", headers=owner).json()["staff"]]
    assert names == ["kefu", "boss"]
    # an owner disables a staff member: their session stops at once
    gone = client.post("/api/admin/staff/kefu/disable", json={"reason": "left"}, headers=owner)
    assert gone.json() == {"disabled": "kefu", "sessions_ended": 1}
    assert client.get("/api/admin/me", headers=support).status_code == 401


def test_a_ban_from_the_console_closes_the_players_socket_and_is_in_the_trail(
    client: TestClient,
) -> None:
    admin = _staff(client)
    pid, player = _player(client, "bao")
    room = client.post("/api/rooms", json={"code": "2001"}, headers=player).json()
    with client.websocket_connect(f"/ws/rooms/{room['room']['id']}", headers=player) as ws:
        assert ws.receive_json()["type"] == "welcome"
        banned = client.post(
            f"/api/admin/players/{pid}/ban",
            json={"days": 3, "reason": "cheating"},
            headers=admin,
        )
        assert banned.status_code == 200, banned.text
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
        assert closed.value.code == 4403
    assert client.get("/api/players/me", headers=player).status_code == 401
    found = client.get(f"/api/admin/players/{pid}", headers=admin).json()
    assert found["ban"]["reason"] == "cheating"
    assert [e["action"] for e in found["trail"]] == ["ban"]
    assert found["trail"][0]["actor"] == "staff:mei"
    trail = client.get("/api/admin/audit", headers=admin).json()
    assert trail["broken"] is None
    ban = next(e for e in trail["entries"] if e["action"] == "ban")
    assert (ban["target"], ban["reason"], ban["address"]) == (pid, "cheating", "testclient")
    # the chain holds, and an edit of the ban's entry breaks it there
    engine = _state(client).store.engine
    assert audit.verify(engine)[1] is None
    with engine.begin() as conn:
        conn.execute(a.audit_log.update().where(a.audit_log.c.id == ban["id"]).values(actor="x"))
    assert audit.verify(engine)[1] == ban["id"]


def test_a_console_mute_stops_the_players_free_text_at_the_table(client: TestClient) -> None:
    support = _staff(client, "kefu", "support")
    pid, player = _player(client, "chen")
    room = client.post("/api/rooms", json={"code": "2001"}, headers=player).json()
    client.post(f"/api/admin/players/{pid}/mute", json={"hours": 1, "reason": "x"}, headers=support)
    with client.websocket_connect(f"/ws/rooms/{room['room']['id']}", headers=player) as ws:
        assert ws.receive_json()["type"] == "welcome"
        ws.send_json({"type": "chat", "text": "hello", "id": "c"})
        while (msg := ws.receive_json())["type"] != "error":
            pass
        assert msg["code"] == "chat_muted"
    file = client.get(f"/api/admin/players/{pid}", headers=support).json()
    assert file["mute"]["reason"] == "x"


def test_the_console_shows_a_room_as_a_spectator_sees_it_never_a_hidden_card(
    client: TestClient,
) -> None:
    """Each seat's own hand of a 4-seat 单子 hand in play is not in the console's view."""
    admin = _staff(client)
    _, player = _player(client)
    made = client.post(
        "/api/rooms",
        json={"code": "ningcheng-danzi", "options": {"bots": 3, "bot_delay": 30, "seed_wait": 0}},
        headers=player,
    ).json()
    room_id = made["room"]["id"]
    with client.websocket_connect(f"/ws/rooms/{room_id}", headers=player) as ws:
        client.post(f"/api/rooms/{room_id}/start", headers=player)
        while ws.receive_json()["type"] != "hand_started":
            pass
        shown = client.get(f"/api/admin/rooms/{room_id}", headers=admin).json()
    room = _state(client).hub.rooms[room_id]
    assert room.state is not None
    assert shown["view"] == json.loads(json.dumps(room.state.view(None)))
    text = json.dumps(shown)
    for seat in range(4):
        own = room.state.view(seat)
        assert own["hand"]  # the seat sees its cards...
        assert own["hand"] not in text  # ...the console does not
    assert shown["view"]["hands"] == [None] * 4


def test_closing_a_room_tells_the_table_why(client: TestClient) -> None:
    admin = _staff(client)
    _, player = _player(client)
    room = client.post("/api/rooms", json={"code": "2001"}, headers=player).json()
    room_id = room["room"]["id"]
    with client.websocket_connect(f"/ws/rooms/{room_id}", headers=player) as ws:
        assert ws.receive_json()["type"] == "welcome"
        done = client.post(
            f"/api/admin/rooms/{room_id}/close", json={"reason": "stuck table"}, headers=admin
        )
        assert done.json()["status"] == "closed"
        while (msg := ws.receive_json()).get("code") != "operator_notice":
            pass
        assert "stuck table" in msg["text"]["zh"] and "stuck table" in msg["text"]["en"]
    assert "close_room" in [e["action"] for e in _state(client).console_parts.console.trail()]


def test_announcements_show_between_their_times_and_notices_reach_the_table(
    client: TestClient,
) -> None:
    admin = _staff(client)
    now = time.time()
    for kind, starts, ends in (("banner", None, now + 3600), ("marquee", now + 3600, None)):
        body = {"kind": kind, "zh": "维护通知", "en": "Maintenance", "starts": starts, "ends": ends}
        assert client.post("/api/admin/announcements", json=body, headers=admin).status_code == 201
    showing = client.get("/api/announcements").json()["announcements"]
    assert [(n["kind"], n["text"]["en"]) for n in showing] == [("banner", "Maintenance")]
    _, player = _player(client)
    room = client.post("/api/rooms", json={"code": "2001"}, headers=player).json()
    room_id = room["room"]["id"]
    with client.websocket_connect(f"/ws/rooms/{room_id}", headers=player) as ws:
        assert ws.receive_json()["type"] == "welcome"
        sent = client.post(
            f"/api/admin/rooms/{room_id}/notice", json={"zh": "请文明用语"}, headers=admin
        )
        assert sent.status_code == 200, sent.text
        while (msg := ws.receive_json()).get("code") != "operator_notice":
            pass
        assert msg["text"] == {"zh": "请文明用语", "en": "请文明用语"}


def test_live_figures_count_players_rooms_and_a_stuck_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    admin = _staff(client)
    _, player = _player(client)
    made = client.post(
        "/api/rooms",
        json={"code": "ningcheng-danzi", "options": {"bots": 3, "bot_delay": 30, "seed_wait": 0}},
        headers=player,
    ).json()
    room_id = made["room"]["id"]
    with client.websocket_connect(f"/ws/rooms/{room_id}", headers=player) as ws:
        client.post(f"/api/rooms/{room_id}/start", headers=player)
        while ws.receive_json()["type"] != "hand_started":
            pass
        live = client.get("/api/admin/live", headers=admin).json()
        assert live["players_online"] == 1 and live["rooms"] == 1
        assert live["by_game"] == {"ningcheng-danzi": {"playing": 1}}
        assert live["stuck"] == [] and live["hands_per_minute"] == 1
        # one node: its own figures, the hand it dealt counted by its metrics
        assert live["nodes"] == [
            {
                "name": "single",
                "reachable": True,
                "players_online": 1,
                "rooms": 1,
                "connections": 1,
                "hands_per_minute": 1,
                "errors_per_minute": 0,
            }
        ]
        store = _state(client).store
        later = time.time() + 3600  # an hour without an action: past any timer
        monkeypatch.setattr(store, "clock", lambda: later)
        live = client.get("/api/admin/live", headers=admin).json()
        assert live["stuck"] == [room_id]
        assert live["by_game"] == {"ningcheng-danzi": {"stuck": 1}}


def test_errors_per_minute_count_the_errors_the_server_logged(client: TestClient) -> None:
    admin = _staff(client)
    metrics = _state(client).metrics
    now = [1000.0]
    metrics.error_count.count.clock = lambda: now[0]
    assert client.get("/api/admin/live", headers=admin).json()["errors_per_minute"] == 0
    log = logging.getLogger("paiju.server")
    log.error("room 7: could not store its seats: %r", OSError("disk full"))
    log.warning("a warning is no error")
    logging.getLogger("uvicorn.error").exception("Exception in ASGI application")
    logging.getLogger("elsewhere").error("another library's error is not the server's")
    live = client.get("/api/admin/live", headers=admin).json()
    assert live["errors_per_minute"] == 2 and live["nodes"][0]["errors_per_minute"] == 2
    scraped = client.get("/metrics").text
    assert 'paiju_errors_total{node="single"} 2.0' in scraped
    now[0] += 61  # a minute later: none in the last minute, two in all
    assert client.get("/api/admin/live", headers=admin).json()["errors_per_minute"] == 0
    assert 'paiju_errors_total{node="single"} 2.0' in client.get("/metrics").text


def test_a_stopped_server_counts_no_more_errors(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "stopped.db"))
    with TestClient(app):
        metrics = app.state.metrics
        logging.getLogger("paiju.server").error("counted")
    logging.getLogger("paiju.server").error("after the server stopped: not counted")
    assert metrics.error_count.count.total == 1


def test_players_are_found_by_id_login_and_name_and_exported(client: TestClient) -> None:
    admin = _staff(client)
    made = client.post("/api/accounts", json={"login": "dora", "password": PASSWORD}).json()
    pid = made["player"]["id"]
    _player(client, "doraemon")
    for q in (f"#{pid}", "DORA", "dora"):
        found = client.get("/api/admin/players", params={"q": q}, headers=admin).json()
        assert pid in [p["id"] for p in found["players"]], q
    names = client.get("/api/admin/players", params={"q": "emo"}, headers=admin).json()
    assert [p["name"] for p in names["players"]] == ["doraemon"]
    export = client.get(f"/api/admin/players/{pid}/export", headers=admin).json()
    assert export["login"] == "dora" and export["ledger"] == [] and "record" in export
    reset = client.post(f"/api/admin/players/{pid}/reset", json={"reason": "lost"}, headers=admin)
    new = reset.json()["password"]
    signed = client.post("/api/sessions", json={"login": "dora", "password": new})
    assert signed.status_code == 201
    actions = [
        e["action"] for e in client.get(f"/api/admin/players/{pid}", headers=admin).json()["trail"]
    ]
    assert actions == ["reset_password", "export"]
