"""Bad input against a real server process ("Bad input"):

"malformed JSON, unknown types, wrong seat, out of turn, illegal plays, oversized
messages, bad tokens, floods: each gets its error, nothing in the database is lost or
corrupted, other tables are unaffected."
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from server_helpers import Player, Server

from paiju.server.store import Store


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("bad")).start()
    yield srv
    srv.stop()


async def _error(p: Player, payload: Any) -> dict[str, Any]:
    await p.send(payload)
    return await p.expect("error")


async def _still_open(p: Player) -> None:
    await p.send({"type": "ping", "id": "alive"})
    pong = await p.expect("pong", id="alive")
    assert pong == {"type": "pong", "id": "alive"}


def test_each_bad_message_gets_its_error_and_the_socket_stays_open(server: Server) -> None:
    async def run() -> None:
        # a toy table for two: both stake at once, then seat `first` plays first
        room, tokens = server.table("toy", 2, seats=2)
        a, b = (Player(server, t, room) for t in tokens)
        await a.connect()
        await b.connect(how="hello")
        await a.expect("state")
        cases: list[tuple[Any, str]] = [
            ("{not json", "bad_json"),
            ("[1, 2, 3]", "bad_message"),
            ({"type": "dance"}, "unknown_type"),
            ({"type": "action"}, "bad_message"),
            ({"type": "action", "action": {"type": "fly"}}, "bad_message"),
            ({"type": "action", "action": {"type": "stake", "amount": "lots"}}, "bad_message"),
            ({"type": "action", "action": {"type": "stake", "amount": 1}, "seat": 1}, "wrong_seat"),
            ({"type": "action", "action": {"type": "stake", "amount": 1}, "game": 99999}, "stale"),
            ({"type": "action", "action": {"type": "stake", "amount": 9}}, "illegal_action"),
            ({"type": "action", "action": {"type": "play", "card": "As"}}, "illegal_action"),
            ("x" * 20_000, "too_large"),
            # a lone surrogate escape, in any string: not text (it cannot be echoed)
            ('{"type": "ping", "id": "\\ud800"}', "bad_message"),
            ('{"type": "chat", "phrase": "\\udc00x"}', "bad_message"),
            ('{"type": "action", "action": {"type": "\\ud83d"}, "id": 3}', "bad_message"),
            ('{"type": "action", "action": {"\\udfff": 1}}', "bad_message"),
        ]
        for payload, code in cases:
            error = await _error(a, payload)
            assert error["code"] == code, (payload, error)
            assert error["message"]
        await _still_open(a)
        # a pair is text: 🂡 written as its two escapes is a phrase the table does not know
        error = await _error(a, '{"type": "chat", "phrase": "\\ud83c\\udca1", "id": "ok"}')
        assert error["code"] == "bad_message" and error["ref"] == "ok"
        # 要不起 on and off: each answered
        for on in (True, False):
            await a.send({"type": "auto_pass", "on": on, "id": f"auto-{on}"})
            answer = await a.expect("auto_passing", id=f"auto-{on}")
            assert answer == {
                "type": "auto_passing",
                "room": room,
                "seat": 0,
                "on": on,
                "id": f"auto-{on}",
            }
        # a legal stake, then the same seat again: not its turn any more
        await a.send({"type": "action", "action": {"type": "stake", "amount": 2}, "id": "s1"})
        update = await a.expect("update", ref="s1")
        assert update["events"] == [{"type": "staked", "seat": 0}]
        error = await _error(
            a, {"type": "action", "action": {"type": "stake", "amount": 1}, "id": 7}
        )
        assert (error["code"], error["ref"]) == ("not_your_turn", 7)
        await _still_open(a)
        await a.close()
        await b.close()

    asyncio.run(run())


async def _refused(url: str, headers: dict[str, str], first: str | None) -> tuple[str, int]:
    """The error code a socket gets and the close code it is closed with."""
    ws = await websockets.connect(url, additional_headers=headers)
    if first is not None:
        await ws.send(first)
    refused = json.loads(await ws.recv())
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await ws.recv()
    assert closed.value.rcvd is not None
    return refused["code"], closed.value.rcvd.code


def test_bad_tokens_are_refused(server: Server) -> None:
    """An unknown token (header, query or hello) or none gets bad_token and close 4401."""
    room, _ = server.table("toy", 1, seats=2)
    url = f"{server.ws_base}/ws/rooms/{room}"
    cases: list[tuple[str, dict[str, str], str | None]] = [
        (url, {"Authorization": "Bearer nope"}, None),
        (f"{url}?token=nope", {}, None),
        (url, {}, json.dumps({"type": "hello", "token": "nope"})),
        (url, {}, json.dumps({"type": "hello"})),
        (url, {}, "not even json"),
    ]
    for target, headers, first in cases:
        assert asyncio.run(_refused(target, headers, first)) == ("bad_token", 4401)
    token = server.register("lost")
    no_room = f"{server.ws_base}/ws/rooms/424242"
    assert asyncio.run(_refused(no_room, {"Authorization": f"Bearer {token}"}, None)) == (
        "no_room",
        4404,
    )
    assert server.call("GET", "/api/players/me", "nope").status_code == 401
    assert server.call("GET", "/api/players/me", None).json()["error"]["code"] == "bad_token"
    for path in ("/api/rooms", "/api/players/me/ledger", "/api/rooms/1"):
        refused = server.call("GET", path, None)
        assert refused.status_code == 401, path
        assert refused.json()["error"]["code"] == "bad_token"
    for path in ("/api/catalog", "/api/catalog/toy", "/api/games", "/api/health"):
        assert server.call("GET", path, None).status_code == 200, path
    answer = server.call("POST", "/api/rooms", "nope", json={"code": "toy"})
    assert answer.status_code == 401


def test_a_flood_is_told_once_then_closed_and_other_tables_play_on(server: Server) -> None:
    """One client floods its socket while another table plays a whole match: the flood
    gets a rate_limited error, no answer to each dropped message, and its socket is
    closed (4429); the other table's log and ledger are complete and verify."""

    async def run() -> tuple[int, list[dict[str, Any]], int | None]:
        room, tokens = server.table("toy", 2, seats=2)
        flooder = Player(server, tokens[0], room)
        await flooder.connect()
        other_room, other_tokens = server.table("toy", 2, seats=2, hands=2)
        others = [Player(server, t, other_room, seed=i) for i, t in enumerate(other_tokens)]
        for p in others:
            await p.connect()

        async def flood() -> None:
            with contextlib.suppress(websockets.ConnectionClosed):
                for i in range(20_000):  # until the server closes it
                    await flooder.ws.send(json.dumps({"type": "ping", "id": i}))
                    if flooder.closed.is_set():
                        return

        await asyncio.gather(flood(), *(p.play() for p in others))
        await asyncio.wait_for(flooder.closed.wait(), 30)
        limited = [m for m in flooder.messages if m.get("code") == "rate_limited"]
        for p in [flooder, *others]:
            await p.close()
        return other_room, limited, flooder.ws.close_code

    other_room, limited, closed = asyncio.run(run())
    assert closed == 4429
    assert limited, "the flood was not told it was rate limited"
    assert "messages per second" in limited[0]["message"]
    # the dropped message it names by its id: the sender knows where it was cut off
    assert all(isinstance(m["ref"], int) and 0 <= m["ref"] < 20_000 for m in limited)
    games = server.call("GET", f"/api/games?room={other_room}").json()
    assert len(games) == 2
    for g in games:
        assert server.call("GET", f"/api/games/{g['id']}/verify").json()["ok"] is True
    store = Store(str(server.db))
    for g in games:
        hand = store.hand(g["id"])
        assert hand is not None and hand.status == "over"
        assert len(store.ledger_of_hand(g["id"])) == hand.seats
    store.close()


def test_rooms_per_player_limit(server: Server) -> None:
    token = server.register("hoarder")
    made = 0
    while True:
        answer = server.call(
            "POST", "/api/rooms", token, json={"code": "toy", "options": {"seats": 2}}
        )
        if answer.status_code != 201:
            break
        made += 1
        assert made <= 100
    assert answer.status_code == 429
    assert answer.json()["error"]["code"] == "too_many_rooms"
    assert made == 20
    assert server.call("GET", "/api/health").json()["ok"] is True


def test_rest_refusals_say_why(server: Server) -> None:
    token = server.register("asker")
    unknown = server.call("POST", "/api/rooms", token, json={"code": "9999"})
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "unknown_variant"
    seats = server.call("POST", "/api/rooms", token, json={"code": "toy", "options": {"seats": 9}})
    assert seats.json()["error"]["code"] == "illegal_action"
    assert "2-4 seats" in seats.json()["error"]["message"]
    bad_option = server.call(
        "POST", "/api/rooms", token, json={"code": "toy", "options": {"speed": 3}}
    )
    assert bad_option.status_code == 422
    room = server.create_room(token, "toy", seats=2)
    other = server.register("late")
    server.call("POST", f"/api/rooms/{room['room']['id']}/join", other, json={})
    full = server.call(
        "POST", f"/api/rooms/{room['room']['id']}/join", server.register("x"), json={}
    )
    assert full.status_code == 409
    assert full.json()["error"]["code"] in ("room_full", "room_started")
