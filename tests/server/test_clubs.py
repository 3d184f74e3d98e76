"""Clubs (亲友圈): founding and joining, roles, presets and their tables, the club lobby,
the club's 战绩, 回放码, and points that move only by a settled hand.

The issue: "Any signed-in player can found a club ... Others join by the club's code or
link, as the owner sets: at once, or by request that an admin approves." and "There is
no transfer of points between players or from a club, no 上下分 ... Tests assert that no
endpoint moves points except a settled hand."
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, insert, select
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from paiju.server import tables as t
from paiju.server.app import create_app
from paiju.server.clubs import tables as c
from paiju.server.options import Limits

ROOT = Path(__file__).resolve().parents[2]
QUICK = {"min_bot_delay": 0}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "clubs.db"), limits=Limits(**QUICK))) as c_:
        yield c_


def _player(client: TestClient, name: str) -> dict[str, str]:
    token = client.post("/api/players", json={"name": name}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def _me(client: TestClient, who: dict[str, str]) -> int:
    found: int = client.get("/api/players/me", headers=who).json()["id"]
    return found


def _club(client: TestClient, owner: dict[str, str], **extra: Any) -> dict[str, Any]:
    made = client.post("/api/clubs", json={"name": "周三麻将", **extra}, headers=owner)
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def test_a_club_is_founded_and_joined_by_its_code(client: TestClient) -> None:
    owner, ann, stranger = (_player(client, n) for n in ("老王", "ann", "路人"))
    club = _club(client, owner, notice="每晚八点")
    assert re.fullmatch(r"[2-9A-Z]{6}", club["code"])
    joined = client.post("/api/clubs/join", json={"code": club["code"].lower()}, headers=ann)
    assert joined.json() == {"club": club["id"], "status": "member"}
    lobby = client.get(f"/api/clubs/{club['id']}", headers=ann).json()
    assert lobby["notice"] == "每晚八点" and lobby["role"] == "member"
    assert [(m["name"], m["role"]) for m in lobby["members"]] == [
        ("老王", "owner"),
        ("ann", "member"),
    ]
    assert all(m["online"] for m in lobby["members"])
    hidden = client.get(f"/api/clubs/{club['id']}", headers=stranger)
    assert hidden.status_code == 403 and hidden.json()["error"]["code"] == "not_member"
    assert client.get(f"/api/clubs/{club['id']}/record", headers=stranger).status_code == 403
    mine = client.get("/api/clubs", headers=ann).json()["clubs"]
    assert [(x["name"], x["members"]) for x in mine] == [("周三麻将", 2)]
    wrong = client.post("/api/clubs/join", json={"code": "ZZZZZZ"}, headers=stranger)
    assert wrong.status_code == 404 and wrong.json()["error"]["code"] == "no_club"


def test_joining_by_approval_roles_removal_and_bans(client: TestClient) -> None:
    owner, admin, bob, eve = (_player(client, n) for n in ("own", "adm", "bob", "eve"))
    club = _club(client, owner, approval=True)
    cid = club["id"]
    for who in (admin, bob, eve):
        asked = client.post("/api/clubs/join", json={"code": club["code"]}, headers=who)
        assert asked.json()["status"] == "requested"
    requests = client.get(f"/api/clubs/{cid}", headers=owner).json()["requests"]
    assert [r["name"] for r in requests] == ["adm", "bob", "eve"]
    for who in (admin, bob, eve):
        done = client.post(
            f"/api/clubs/{cid}/requests/{_me(client, who)}", json={"accept": True}, headers=owner
        )
        assert done.status_code == 200, done.text
    named = client.post(
        f"/api/clubs/{cid}/members/{_me(client, admin)}/role", json={"role": "admin"}, headers=owner
    )
    assert named.status_code == 200
    # a member cannot remove another; an admin can, and a ban keeps the player out
    refused = client.post(
        f"/api/clubs/{cid}/members/{_me(client, eve)}/remove", json={}, headers=bob
    )
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "club_role"
    banned = client.post(
        f"/api/clubs/{cid}/members/{_me(client, eve)}/remove", json={"ban": True}, headers=admin
    )
    assert banned.status_code == 200
    back = client.post("/api/clubs/join", json={"code": club["code"]}, headers=eve)
    assert back.status_code == 403 and back.json()["error"]["code"] == "club_banned"
    # an admin cannot remove the owner, nor another admin
    owner_id = _me(client, owner)
    assert (
        client.post(
            f"/api/clubs/{cid}/members/{owner_id}/remove", json={}, headers=admin
        ).status_code
        == 400
    )
    muted = client.post(
        f"/api/clubs/{cid}/members/{_me(client, bob)}/mute", json={"minutes": 30}, headers=admin
    )
    assert muted.json()["muted_until"] is not None
    # handing over: the old owner is an admin
    handed = client.post(
        f"/api/clubs/{cid}/members/{_me(client, admin)}/role", json={"role": "owner"}, headers=owner
    )
    assert handed.status_code == 200
    roles = {
        m["name"]: m["role"] for m in client.get(f"/api/clubs/{cid}", headers=bob).json()["members"]
    }
    assert roles == {"own": "admin", "adm": "owner", "bob": "member"}
    assert client.delete(f"/api/clubs/{cid}", headers=owner).status_code == 403
    assert client.delete(f"/api/clubs/{cid}", headers=admin).status_code == 200
    assert client.get(f"/api/clubs/{cid}", headers=bob).status_code == 404


def test_a_preset_opens_a_table_in_one_tap_unlisted_and_for_members(client: TestClient) -> None:
    owner, ann, stranger = (_player(client, n) for n in ("own", "ann", "stranger"))
    club = _club(client, owner)
    cid = club["id"]
    client.post("/api/clubs/join", json={"code": club["code"]}, headers=ann)
    preset = client.post(
        f"/api/clubs/{cid}/presets",
        json={"name": "宝子 两人", "code": "2001", "options": {"seats": 2, "fill_after": None}},
        headers=owner,
    )
    assert preset.status_code == 201, preset.text
    pid = preset.json()["id"]
    not_admin = client.post(
        f"/api/clubs/{cid}/presets", json={"name": "x", "code": "2001"}, headers=ann
    )
    assert not_admin.status_code == 403
    first = client.post(f"/api/clubs/{cid}/presets/{pid}/table", headers=owner)
    assert first.status_code == 200, first.text
    room = first.json()["room"]
    assert first.json()["seat"] == 0 and room["options"]["listed"] is False
    second = client.post(f"/api/clubs/{cid}/presets/{pid}/table", headers=ann).json()
    assert second["room"]["id"] == room["id"] and second["seat"] == 1, "快速开始 joins it"
    public = client.get("/api/rooms", headers=stranger).json()
    assert room["id"] not in [r["id"] for r in public], "a club's table is not in the lobby"
    lobby = client.get(f"/api/clubs/{cid}", headers=ann).json()
    tables = lobby["tables"]
    assert [(x["room"], x["seats"]) for x in tables] == [(room["id"], ["own", "ann"])]
    # the club's pages show who sits where, never a seat's cards
    assert set(tables[0]) == {"room", "code", "status", "seats", "hands_played", "hands",
                              "preset", "opened"}  # fmt: skip
    with (
        client.websocket_connect(f"/ws/rooms/{room['id']}", headers=stranger) as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        assert ws.receive_json()["code"] == "not_member"
        ws.receive_json()
    assert closed.value.code == 4403
    refused = client.post(f"/api/clubs/{cid}/presets/{pid}/table", headers=stranger)
    assert refused.status_code == 403


def test_a_keep_waiting_preset_always_has_a_table(client: TestClient) -> None:
    owner = _player(client, "own")
    cid = _club(client, owner)["id"]
    client.post(
        f"/api/clubs/{cid}/presets",
        json={"name": "甲乙丙", "code": "anshan-jiayibing", "keep_waiting": True,
              "options": {"fill_after": None}},
        headers=owner,
    )  # fmt: skip
    lobby = client.get(f"/api/clubs/{cid}", headers=owner).json()
    waiting = [x for x in lobby["tables"] if x["status"] == "waiting"]
    assert len(waiting) == 1 and waiting[0]["seats"] == [None] * 6
    again = client.get(f"/api/clubs/{cid}", headers=owner).json()
    assert len([x for x in again["tables"] if x["status"] == "waiting"]) == 1


def _settled(store: Any, room: int, hand: int, deltas: dict[int, int], at: float) -> None:
    """A settled hand of ``room`` as the server writes one (its ledger rows)."""
    with store.engine.begin() as conn:
        conn.execute(
            insert(t.hands).values(
                id=hand, room_id=room, hand_no=hand, code="2001", game_options={}, seats=2,
                players=list(deltas), commitment="c", seed="s", deal={}, context={},
                status="over", started_at=at, ended_at=at,
            )
        )  # fmt: skip
        for seat, (player, delta) in enumerate(deltas.items()):
            conn.execute(
                insert(t.ledger).values(
                    player_id=player, room_id=room, hand_id=hand, seat=seat, delta=delta,
                    balance=None, at=at,
                )
            )  # fmt: skip


def test_the_clubs_record_ranks_members_by_points(client: TestClient) -> None:
    owner, ann = _player(client, "own"), _player(client, "ann")
    club = _club(client, owner)
    cid = club["id"]
    client.post("/api/clubs/join", json={"code": club["code"]}, headers=ann)
    pid = client.post(
        f"/api/clubs/{cid}/presets", json={"name": "p", "code": "2001", "options": {"seats": 2}},
        headers=owner,
    ).json()["id"]  # fmt: skip
    room = client.post(f"/api/clubs/{cid}/presets/{pid}/table", headers=owner).json()["room"]["id"]
    store = client.app.state.store  # type: ignore[attr-defined]
    o, a_ = _me(client, owner), _me(client, ann)
    now = store.clock()
    _settled(store, room, 901, {o: 5, a_: -5}, now)
    _settled(store, room, 902, {o: -2, a_: 2}, now)
    _settled(store, room, 903, {o: 9, a_: -9}, now - 40 * 86_400)  # last month or before
    week = client.get(f"/api/clubs/{cid}/record?period=week", headers=ann).json()
    rows = [
        (m["name"], m["hands"], m["rooms"], m["points"], m["winner"], m["rank"])
        for m in week["members"]
    ]
    assert rows == [("own", 2, 1, 3, 1, 1), ("ann", 2, 1, -3, 0, 2)]
    assert week["members"][0]["best_hand"] == {"game": 901, "points": 5}
    assert week["members"][0]["games"] == {"2001": {"hands": 2, "points": 3}}
    every = client.get(f"/api/clubs/{cid}/record?period=all", headers=ann).json()
    assert every["members"][0]["points"] == 12
    csv_text = client.get(f"/api/clubs/{cid}/record.csv?period=week", headers=ann).text
    assert csv_text.splitlines()[1].startswith("1,") and ",own,2,1,3,1,5,901" in csv_text
    bad = client.get(f"/api/clubs/{cid}/record?period=year", headers=ann)
    assert bad.status_code == 422


def test_replay_codes_only_for_what_is_over(client: TestClient) -> None:
    owner = _player(client, "own")
    cid = _club(client, owner)["id"]
    pid = client.post(
        f"/api/clubs/{cid}/presets", json={"name": "p", "code": "2001", "options": {"seats": 2}},
        headers=owner,
    ).json()["id"]  # fmt: skip
    room = client.post(f"/api/clubs/{cid}/presets/{pid}/table", headers=owner).json()["room"]["id"]
    early = client.post("/api/replays", json={"kind": "room", "id": room})
    assert early.status_code == 409 and early.json()["error"]["code"] == "in_play"
    store = client.app.state.store  # type: ignore[attr-defined]
    _settled(store, room, 77, {_me(client, owner): 1}, store.clock())
    code = client.post("/api/replays", json={"kind": "game", "id": 77}).json()["code"]
    assert re.fullmatch(r"[2-9A-Z]{7}", code)
    assert client.post("/api/replays", json={"kind": "game", "id": 77}).json()["code"] == code
    assert client.get(f"/api/replays/{code.lower()}").json() == {
        "code": code, "kind": "game", "game": 77,
    }  # fmt: skip
    assert client.get("/api/replays/NOSUCH1").status_code == 404


def test_no_call_moves_points_but_a_settled_hand(client: TestClient) -> None:
    """Only the settlement of a hand writes the ledger: the one statement that inserts
    its rows is the batch of a settled hand, and a whole club's life through the API
    leaves the ledger as it was."""
    writes = []
    for path in (ROOT / "src" / "paiju").rglob("*.py"):
        text_ = path.read_text(encoding="utf-8")
        for pattern in (r"INSERT INTO ledger", r"UPDATE ledger", r"DELETE FROM ledger",
                        r"insert\(t\.ledger", r"update\(t\.ledger", r"delete\(t\.ledger",
                        r"ledger\.(insert|update|delete)\("):  # fmt: skip
            writes += [(path.name, m.group(0)) for m in re.finditer(pattern, text_)]
    assert writes == [("batches.py", "INSERT INTO ledger")] * 2, writes
    routes = {getattr(r, "path", "") for r in client.app.routes}  # type: ignore[attr-defined]
    for word in ("transfer", "points", "balance/", "cash", "topup", "redpacket", "fee"):
        assert not [r for r in routes if word in r.lower()], (word, routes)
    owner, ann = _player(client, "own"), _player(client, "ann")
    club = _club(client, owner)
    cid = club["id"]
    client.post("/api/clubs/join", json={"code": club["code"]}, headers=ann)
    pid = client.post(
        f"/api/clubs/{cid}/presets", json={"name": "p", "code": "2001", "options": {"seats": 2}},
        headers=owner,
    ).json()["id"]  # fmt: skip
    client.post(f"/api/clubs/{cid}/presets/{pid}/table", headers=owner)
    client.post(f"/api/clubs/{cid}/presets/{pid}/table", headers=ann)
    client.get(f"/api/clubs/{cid}/record", headers=owner)
    client.post(f"/api/clubs/{cid}/members/{_me(client, ann)}/remove", json={}, headers=owner)
    client.delete(f"/api/clubs/{cid}", headers=owner)
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(t.ledger)).scalar() == 0
        assert conn.execute(select(func.count()).select_from(c.club_tables)).scalar() == 1
    assert client.get("/api/players/me", headers=ann).json()["balance"] == 0


def test_the_operators_club_limits_hold(tmp_path: Path) -> None:
    limits = Limits(min_bot_delay=0, members_per_club=2, clubs_founded_per_player=1)
    with TestClient(create_app(str(tmp_path / "l.db"), limits=limits)) as client:
        owner, ann, bob = (_player(client, n) for n in ("own", "ann", "bob"))
        club = _club(client, owner)
        assert client.post("/api/clubs", json={"name": "二"}, headers=owner).status_code == 409
        client.post("/api/clubs/join", json={"code": club["code"]}, headers=ann)
        full = client.post("/api/clubs/join", json={"code": club["code"]}, headers=bob)
        assert full.status_code == 409 and full.json()["error"]["code"] == "club_full"
