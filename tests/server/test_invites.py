"""Invite codes (邀请码): six random letters per room, stored with it, typed in a lobby and
found by ``GET /api/invites/{code}`` (rate-limited per player and per address); they say
nothing of the room's id, and survive a restart.

The issue: "What players expect and miss: … a room invite code or link"; and "invite
codes are derived from room ids by a fixed scramble: two rooms were enough to predict 98
of 98 codes … make codes unguessable (random, stored); rate-limit lookups"."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from server_helpers import PLAYABLE, Server
from starlette.testclient import TestClient

from paiju.reasons import CODES
from paiju.server.app import create_app
from paiju.server.invites import ALPHABET, LENGTH, is_code, new_code, normalize
from paiju.server.options import Limits
from paiju.server.store import Store


@given(st.text(alphabet=ALPHABET + "0123456789ILOilo -", min_size=1, max_size=12))
def test_a_code_is_six_code_letters_however_it_is_typed(text: str) -> None:
    typed = normalize(text)
    assert is_code(typed) == (len(typed) == LENGTH and set(typed) <= set(ALPHABET))
    if is_code(typed):
        assert normalize(f" {typed[:3].lower()}-{typed[3:]} ") == typed


def test_codes_are_letters_only_random_and_not_a_function_of_the_room_id(
    tmp_path: Path,
) -> None:
    """Digits are a room number (房间号), letters a code: no look-alikes I, L, O. The same
    room ids in two databases get different codes (a code is drawn, not derived), and the
    codes of rooms that follow each other are unrelated: knowing some codes tells nothing
    of the others."""
    assert len(ALPHABET) == 23 and not set(ALPHABET) & set("ILO0123456789")
    assert not is_code("123456") and not is_code("ABCDE") and not is_code("ABCDEI")
    assert all(is_code(new_code()) for _ in range(100))
    codes = []
    for name in ("a", "b"):
        store = Store(str(tmp_path / f"{name}.db"))
        owner = store.create_player("ann")[0]
        ids = [store.create_room("toy", {}, {}, 2, owner.id, [False, False]) for _ in range(60)]
        assert ids == list(range(1, 61))
        rows = [store.room(i) for i in ids]
        codes.append([row.invite for row in rows if row is not None])
        for row in rows:
            assert row is not None and store.room_by_invite(row.invite or "") == row
        store.close()
    first, second = codes
    assert len(set(first)) == len(first) == 60 and all(is_code(c or "") for c in first)
    assert sum(a == b for a, b in zip(first, second, strict=True)) == 0
    letters = [
        sum(x == y for x, y in zip(a or "", b or "", strict=True)) for a, b in pairwise(first)
    ]
    assert sum(letters) / len(letters) < 1.5  # about 6/23 letters in common by chance


@pytest.mark.skipif("2001" not in PLAYABLE, reason="宝子 2001 is not registered")
def test_lookups_are_rate_limited_per_player_and_per_address(tmp_path: Path) -> None:
    """Past its burst a player's lookups get 429 ``too_many_lookups`` (in both languages);
    other players from the same address share the address's budget."""
    limits = Limits(min_bot_delay=0, invite_lookups_per_minute=10, invite_lookups_per_address=25)
    app = create_app(str(tmp_path / "limits.db"), limits=limits)
    with TestClient(app) as client:
        tokens = [
            client.post("/api/players", json={"name": f"查{i}"}).json()["token"] for i in range(4)
        ]
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        body = {"code": "2001", "options": {"seats": 3, "fill_after": None}}
        room = client.post("/api/rooms", json=body, headers=auth[0]).json()["room"]
        answers = [client.get(f"/api/invites/{room['invite']}", headers=auth[1]) for _ in range(5)]
        assert [a.status_code for a in answers[:2]] == [200, 200]
        assert answers[-1].status_code == 429, answers[-1].text
        error = answers[-1].json()["error"]
        assert error["code"] == "too_many_lookups" and "invite codes a minute" in error["message"]
        assert error["text"] == {
            "zh": CODES["too_many_lookups"][0],
            "en": CODES["too_many_lookups"][1],
        }
        # the address's budget (a fifth of 25 at once): the other players run into it
        seen = [
            client.get("/api/invites/QQQQQQ", headers=h).status_code
            for h in auth[2:]
            for _ in range(2)
        ]
        assert 429 in seen and seen.count(404) >= 1, seen


def test_a_lookup_refused_for_one_bucket_takes_no_token_of_the_other() -> None:
    """A lookup counts against the player and the address together, or not at all: a
    player turned away for its address's budget still has its own."""
    from paiju.server.errors import ServerError
    from paiju.server.hub import Hub

    store = Store("sqlite://")
    try:
        hub = Hub(store, Limits(invite_lookups_per_minute=5, invite_lookups_per_address=5))
        hub.invite_lookup(1, "10.0.0.1")  # burst 1 each
        with pytest.raises(ServerError) as refused:
            hub.invite_lookup(2, "10.0.0.1")
        assert refused.value.code == "too_many_lookups"
        assert str(refused.value).startswith("your address")
        hub.invite_lookup(2, "10.0.0.2")
        with pytest.raises(ServerError) as again:
            hub.invite_lookup(2, "10.0.0.3")
        assert str(again.value).startswith("you looked")
    finally:
        store.close()


# ------------------------------------------------------------------ over a real server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("invites")).start()
    yield srv
    srv.stop()


def _error(answer: object) -> dict[str, object]:
    body = answer.json()  # type: ignore[attr-defined]
    error: dict[str, object] = body["error"]
    return error


def test_an_invite_code_finds_its_room_and_a_friend_takes_a_seat(server: Server) -> None:
    owner, friend = server.register("开房"), server.register("朋友")
    created = server.create_room(owner, "toy", seats=2, bots=0)
    room = created["room"]
    code = room["invite"]
    assert is_code(code) and len(code) == 6
    answer = server.call("GET", f"/api/invites/{code.lower()[:2]}-{code[2:]}", friend)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"invite": code, "room": room["id"], "status": "waiting"}
    joined = server.call("POST", f"/api/rooms/{answer.json()['room']}/join", friend, json={})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    playing = server.call("GET", f"/api/invites/{code}", friend).json()
    assert playing["room"] == room["id"] and playing["status"] == "playing"


def test_an_unknown_code_and_a_closed_room_are_refused_in_both_languages(server: Server) -> None:
    owner = server.register("关房")
    for text in ("QQQQQQ", "12AB", "not a code at all"):
        answer = server.call("GET", f"/api/invites/{text}", owner)
        assert answer.status_code == 404, answer.text
        error = _error(answer)
        assert error["code"] == "no_invite"
        assert error["text"] == {"zh": CODES["no_invite"][0], "en": CODES["no_invite"][1]}
        assert "邀请码" in CODES["no_invite"][0]
    room = server.create_room(owner, "toy", seats=2, bots=0)["room"]
    closed = server.call("POST", f"/api/rooms/{room['id']}/close", owner)
    assert closed.status_code == 200, closed.text
    answer = server.call("GET", f"/api/invites/{room['invite']}", owner)
    assert answer.status_code == 404, answer.text
    error = _error(answer)
    assert error["code"] == "invite_closed"
    assert error["text"] == {
        "zh": "这个邀请码的房间已经结束了",
        "en": "The room of this invite code is over",
    }
    # without a token: the same refusal as the other room calls
    assert server.call("GET", f"/api/invites/{room['invite']}", None).status_code == 401


def test_the_code_survives_a_restart(tmp_path: Path) -> None:
    srv = Server(tmp_path).start()
    try:
        owner = srv.register("重启")
        room = srv.create_room(owner, "toy", seats=2, bots=0)["room"]
        srv.kill9()
        srv.start()
        answer = srv.call("GET", f"/api/invites/{room['invite']}", owner)
        assert answer.status_code == 200, answer.text
        assert answer.json()["room"] == room["id"]
        again = srv.call("GET", f"/api/rooms/{room['id']}", owner).json()
        assert again["invite"] == room["invite"]
    finally:
        srv.stop()
