"""邀请牌友 on a real server: a seated player's invitation waits for the invitee (with the
room, the game, the invite code and who sent it) until the invitee joins, the room starts or
ten minutes pass; it is kept in the database, so a restart loses none (and every node of a
cluster sees it: ``test_shared_limits``); one's own invitation, an invitation by a player
without a seat and the eleventh of a minute are refused with their codes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from server_helpers import Server

from paiju.reasons import CODES

WAITING = {"seats": 3, "bots": 0}
"""A room that waits for its other players (no bots fill in)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("invitations")).start()
    yield srv
    srv.stop()


def invites(server: Server, token: str) -> list[dict[str, object]]:
    answer = server.call("GET", "/api/players/me/invites", token)
    assert answer.status_code == 200, answer.text
    found: list[dict[str, object]] = answer.json()["invites"]
    return found


def test_an_invitation_waits_until_it_is_taken_and_outlives_a_restart(server: Server) -> None:
    host, guest, other = (server.register(n) for n in ("东家", "客人", "路人"))
    guest_id = server.call("GET", "/api/players/me", guest).json()["id"]
    room = server.create_room(host, "1301", **WAITING)["room"]
    sent = server.call("POST", f"/api/rooms/{room['id']}/invite", host, json={"player": guest_id})
    assert sent.status_code == 200, sent.text
    # inviting again renews it: still one
    server.call("POST", f"/api/rooms/{room['id']}/invite", host, json={"player": guest_id})
    (waiting,) = invites(server, guest)
    assert waiting["room"] == room["id"] and waiting["code"] == "1301"
    assert waiting["from"] == "东家" and waiting["invite"] == room["invite"]
    assert invites(server, other) == []
    # the server restarts: the invitation is still there
    server.stop()
    server.start()
    assert [i["room"] for i in invites(server, guest)] == [room["id"]]
    joined = server.call("POST", f"/api/rooms/{room['id']}/join", guest, json={})
    assert joined.status_code == 200, joined.text
    assert invites(server, guest) == []


def test_an_invitation_to_a_room_that_started_is_not_shown(server: Server) -> None:
    host, guest = server.register("开局"), server.register("晚到")
    guest_id = server.call("GET", "/api/players/me", guest).json()["id"]
    room = server.create_room(host, "1301", seats=2, bots=0)["room"]
    server.call("POST", f"/api/rooms/{room['id']}/invite", host, json={"player": guest_id})
    assert len(invites(server, guest)) == 1
    third = server.register("第三")
    server.call("POST", f"/api/rooms/{room['id']}/join", third, json={})  # the room is full
    assert invites(server, guest) == []


def test_bad_invitations_are_refused_with_their_codes(server: Server) -> None:
    host, idle = server.register("邀请者"), server.register("旁人")
    host_id = server.call("GET", "/api/players/me", host).json()["id"]
    room = server.create_room(host, "1301", **WAITING)["room"]
    path = f"/api/rooms/{room['id']}/invite"
    own = server.call("POST", path, host, json={"player": host_id})
    assert own.status_code == 400 and own.json()["error"]["code"] == "bad_request"
    unseated = server.call("POST", path, idle, json={"player": host_id})
    assert unseated.status_code == 403 and unseated.json()["error"]["code"] == "not_seated"
    nobody = server.call("POST", path, host, json={"player": 10**9})
    assert nobody.status_code == 404 and nobody.json()["error"]["code"] == "no_player"
    guests = [server.register(f"客{i}") for i in range(11)]
    ids = [server.call("GET", "/api/players/me", g).json()["id"] for g in guests]
    codes = [server.call("POST", path, host, json={"player": p}).status_code for p in ids]
    assert codes == [200] * 10 + [429]
    late = server.call("POST", path, host, json={"player": ids[-1]})
    assert late.json()["error"]["code"] == "too_many_invites"
    assert late.json()["error"]["text"] == {
        "zh": CODES["too_many_invites"][0],
        "en": CODES["too_many_invites"][1],
    }
    assert invites(server, guests[-1]) == [] and len(invites(server, guests[0])) == 1
