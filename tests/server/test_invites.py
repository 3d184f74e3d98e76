"""Invite codes (邀请码): six letters per room, typed in a lobby, found by
``GET /api/invites/{code}``; derived from the room id, so they survive a restart.

The issue: "What players expect and miss: … a room invite code or link"."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from server_helpers import Server

from paiju.reasons import CODES
from paiju.server.invites import ALPHABET, LENGTH, invite_code, invite_room

MAX_ID = 2**63 - 1


@given(st.integers(min_value=0, max_value=MAX_ID))
def test_every_room_id_has_one_code_and_back(room_id: int) -> None:
    code = invite_code(room_id)
    assert set(code) <= set(ALPHABET)
    assert (len(code) == LENGTH) == (room_id < len(ALPHABET) ** LENGTH)
    assert invite_room(code) == room_id
    # as a person types it: small letters, a dash or spaces in the middle
    assert invite_room(f" {code[:3].lower()}-{code[3:]} ") == room_id


@given(st.text(alphabet=ALPHABET + "0123456789ILOilo", min_size=1, max_size=12))
def test_a_text_names_at_most_one_room_and_that_room_has_it_as_its_code(text: str) -> None:
    room_id = invite_room(text)
    if room_id is not None:
        assert invite_code(room_id) == text.upper()


def test_codes_are_letters_only_and_a_one_letter_typo_finds_no_early_room() -> None:
    """Digits are a room number (房间号), letters a code: no look-alikes I, L, O. Rooms that
    follow each other get unrelated codes, and a code mistyped by one letter names a room
    far beyond the first hundred thousand (checked on the first 300 rooms)."""
    assert len(ALPHABET) == 23 and not set(ALPHABET) & set("ILO0123456789")
    assert invite_room("123456") is None and invite_room("ABCDE") is None
    assert invite_room("ABCDEI") is None  # I is not a code letter
    codes = [invite_code(i) for i in range(1, 301)]
    assert len(set(codes)) == 300
    same = [sum(a == b for a, b in zip(x, y, strict=True)) for x, y in pairwise(codes)]
    assert max(same) <= 3, max(same)
    near = 0
    for room_id, code in enumerate(codes, start=1):
        for at in range(LENGTH):
            for letter in ALPHABET:
                if letter != code[at]:
                    typo = invite_room(code[:at] + letter + code[at + 1 :])
                    assert typo is not None and typo != room_id
                    near += typo < 100_000
    assert near <= 0.01 * 300 * LENGTH * 22, near


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
    assert code == invite_code(room["id"]) and len(code) == 6
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
