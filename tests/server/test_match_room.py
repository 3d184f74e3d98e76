"""A room is a match: it plays the game's set of hands, ends with a 总结算 that every seat
and spectator gets (and REST keeps), and 再来一局 opens the next match at the same table."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import FAST, Player, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("match")).start()
    yield srv
    srv.stop()


def _room(
    server: Server, code: str, tokens: list[str], game_options: dict[str, Any], **options: Any
) -> dict[str, Any]:
    body = {
        "code": code,
        "options": {**FAST, "ready_check": False, **options},
        "game_options": game_options,
        "seat": 0,
    }
    answer = server.call("POST", "/api/rooms", tokens[0], json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    for token in tokens[1:]:
        joined = server.call("POST", f"/api/rooms/{created['room']['id']}/join", token, json={})
        assert joined.status_code == 200, joined.text
    return created


async def _play_to_the_end(
    players: list[Player], spectator: Player, connect: bool = True
) -> dict[str, Any]:
    if connect:
        for p in [*players, spectator]:
            await p.connect()
    await asyncio.gather(*(p.play(timeout=60) for p in players))
    summary: dict[str, Any] = await spectator.expect("match_summary", timeout=20)
    for p in players:
        mine = await p.expect("match_summary", timeout=20)
        assert mine == summary
    return summary


def test_a_room_plays_its_match_and_sends_the_summary(server: Server) -> None:
    """The toy's match is 2 hands, the room's game option ``hands`` makes it 3: three
    results, then the 总结算 to both seats and the spectator - each seat's total (积分, the
    stake applied), hands won, the 大赢家 - the same by REST, after the room has ended."""
    tokens = [server.register("amy"), server.register("bo")]
    created = _room(server, "toy", tokens, {"hands": 3}, seats=3, bots=1, stake=5)
    room = created["room"]
    assert room["match"]["option"] == "hands" and room["match"]["length"] == 3
    assert room["match"]["hand_word"] == ["局", "hand"] and room["game_options"]["hands"] == 3
    players = [Player(server, t, room["id"], seed=i) for i, t in enumerate(tokens)]
    spectator = Player(server, server.register("watcher"), room["id"])

    async def run() -> dict[str, Any]:
        summary = await _play_to_the_end(players, spectator)
        for p in [*players, spectator]:
            await p.close()
        return summary

    summary = asyncio.run(run())
    overs = {m["game"]: m for m in spectator.messages if m["type"] == "hand_over"}
    assert len(overs) == 3 and [o["room_finished"] for o in overs.values()] == [False, False, True]
    totals = [sum(o["deltas"][s] for o in overs.values()) for s in range(3)]
    won = [sum(o["scores"][s] > 0 for o in overs.values()) for s in range(3)]
    assert summary["hands"] == 3 and summary["stake"] == 5
    assert [line["total"] for line in summary["seats"]] == totals
    assert [line["won"] for line in summary["seats"]] == won
    assert [line["name"] for line in summary["seats"]] == ["amy", "bo", "bot"]
    top = max(totals)
    assert summary["winners"] == [s for s in range(3) if totals[s] == top and top > 0]
    assert [line["winner"] for line in summary["seats"]] == [
        s in summary["winners"] for s in range(3)
    ]
    assert summary["cut_short"] is False and summary["next_room"] is None
    answer = server.call("GET", f"/api/rooms/{room['id']}/summary", tokens[0])
    assert answer.status_code == 200 and answer.json() == summary
    info = server.call("GET", f"/api/rooms/{room['id']}", tokens[0]).json()
    assert info["status"] == "finished" and info["hands_played"] == 3


def test_the_match_length_is_validated_and_the_room_hands_cut_it(server: Server) -> None:
    token = server.register("carl")
    for bad in (0, 1000, "8"):
        body = {"code": "toy", "options": {**FAST, "seats": 2}, "game_options": {"hands": bad}}
        answer = server.call("POST", "/api/rooms", token, json=body)
        assert answer.status_code in (400, 422), answer.text
        assert "hands" in answer.text
    majiang = _room(server, "anshan-majiang", [token], {}, seats=4, bots=3, fill_after=None)
    match = majiang["room"]["match"]
    assert (match["option"], match["length"], match["hand_word"]) == ("quan", 1, ["局", "hand"])
    close = server.call("POST", f"/api/rooms/{majiang['room']['id']}/close", token)
    assert close.status_code == 200
    danzi = _room(server, "ningcheng-danzi", [token], {}, seats=4, bots=3, fill_after=None)
    match = danzi["room"]["match"]
    assert (match["option"], match["hand_word"], match["match_word"]) == (
        None,
        ["盘", "deal"],
        ["局", "match"],
    )
    server.call("POST", f"/api/rooms/{danzi['room']['id']}/close", token)

    async def cut() -> dict[str, Any]:
        room = _room(server, "toy", [token], {}, seats=2, bots=1, hands=1)["room"]
        me = Player(server, token, room["id"])
        await me.connect()
        await me.play(timeout=30)
        summary: dict[str, Any] = await me.expect("match_summary", timeout=20)
        await me.close()
        return summary

    summary = asyncio.run(cut())
    # the toy's match is 2 hands, the room's count says 1: played out, not cut short (only
    # a match that ends by itself, 打弹子's to 30, is cut short by a room's count)
    assert summary["hands"] == 1 and summary["cut_short"] is False


def test_again_opens_the_next_match_at_the_same_table(server: Server) -> None:
    """再来一局 from a seated player: a new room with the same game, options, players in
    their seats and the bot in its seat; every socket hears of it (``next_room``); the
    other player asking gets the same room; a spectator may not ask, nor anyone before
    the match is over."""
    tokens = [server.register("dee"), server.register("eve")]
    created = _room(server, "toy", tokens, {}, seats=3, bots=1, stake=2, ready_check=True)
    room = created["room"]["id"]
    early = server.call("POST", f"/api/rooms/{room}/again", tokens[0])
    assert early.status_code == 409 and early.json()["error"]["code"] == "match_not_over"
    players = [Player(server, t, room, seed=i) for i, t in enumerate(tokens)]
    watcher_token = server.register("fay")
    spectator = Player(server, watcher_token, room)

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        for p in [*players, spectator]:
            await p.connect()
        await players[1].send({"type": "ready", "ready": True})  # 准备 (the owner is)
        await _play_to_the_end(players, spectator, connect=False)
        await spectator.send({"type": "again", "id": 1})
        refused = await spectator.expect("error", timeout=10)
        assert refused["code"] == "spectator"
        await players[1].send({"type": "again", "id": 2})
        moved = await players[0].expect("match_summary", timeout=10)
        info = await spectator.expect("room", timeout=10)
        for p in [*players, spectator]:
            await p.close()
        return moved, info

    moved, info = asyncio.run(run())
    new = moved["next_room"]
    assert new is not None and new != room and info["room"]["next_room"] == new
    again = server.call("POST", f"/api/rooms/{room}/again", tokens[0])
    assert again.status_code == 201 and again.json()["room"]["id"] == new
    assert again.json()["seat"] == 0
    table = server.call("GET", f"/api/rooms/{new}", tokens[0]).json()
    old = server.call("GET", f"/api/rooms/{room}", tokens[0]).json()
    assert table["code"] == "toy" and table["status"] == "waiting"
    assert table["players"] == old["players"] == ["dee", "eve", "bot"]
    same = {k: v for k, v in old["options"].items() if k != "bots"}  # bots: seated by seat
    assert {k: table["options"][k] for k in same} == same
    assert table["game_options"] == old["game_options"] and table["control"][2] == "bot"
    assert table["owner"] == server.call("GET", "/api/players/me", tokens[1]).json()["id"]
    assert table["ready"] == [False, True, True]  # the asker is ready, dee taps 准备
    outsider = server.call("POST", f"/api/rooms/{room}/again", watcher_token)
    assert outsider.status_code == 403 and outsider.json()["error"]["code"] == "not_seated"
