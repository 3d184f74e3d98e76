"""Seats over a real server: bots, turn timers, 托管, reconnects, spectators, leaving.

Issue #5: "Bots fill empty seats and take over a seat whose player is disconnected or out
of time (托管), per room option; the player takes the seat back on return." "Turn timers
per decision; on timeout the bot decides." "Reconnect: a player who drops and returns with
its token gets the full current view and continues. Spectators see only the spectator view."
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import Player, Server, rebuild

from paiju.server.store import Store


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("seats")).start()
    yield srv
    srv.stop()


def _updates(p: Player, **fields: Any) -> list[dict[str, Any]]:
    return [
        m
        for m in p.messages
        if m["type"] == "update" and all(m.get(k) == v for k, v in fields.items())
    ]


def test_timeout_lets_the_bot_decide_and_tuoguan_until_resume(server: Server) -> None:
    async def run() -> None:
        room, tokens = server.table(
            "toy", 2, seats=2, time_limit=0.4, tuoguan="timeout", tuoguan_after=1, pause=3
        )
        a, b = Player(server, tokens[0], room), Player(server, tokens[1], room)
        await a.connect()
        await b.connect()
        first = a.latest()
        assert first is not None
        assert {t["seat"] for t in first["timers"]} == {0, 1}
        assert all(t["limit"] == 0.4 and 0 < t["remaining"] <= 0.4 for t in first["timers"])
        over = await a.expect("hand_over", timeout=15)
        timed_out = _updates(a, actor="timeout")
        assert {m["seat"] for m in timed_out} == {0, 1}
        assert _updates(a, actor="bot"), "after a timeout the seat stays in 托管"
        assert any(m["control"][0] == "tuoguan" for m in _updates(a))
        assert over["room_finished"] is False
        await a.send({"type": "resume", "id": "back"})
        back = await a.expect("state")
        assert back["control"][0] == "player"
        await a.expect("hand_started", timeout=10)
        dealt = await a.expect("state")
        assert 0 in {t["seat"] for t in dealt["timers"]}, "the player's own timer runs again"
        await a.close()
        await b.close()

    asyncio.run(run())


def test_disconnect_tuoguan_and_reconnect_with_the_full_view(server: Server) -> None:
    async def run() -> None:
        room, tokens = server.table(
            "toy", 2, seats=2, time_limit=0, tuoguan="disconnect", reconnect_grace=0.3, hands=1
        )
        a, b = Player(server, tokens[0], room, seed=1), Player(server, tokens[1], room, seed=2)
        await a.connect()
        await b.connect()
        await a.close()
        # seat 0 is away, then after the grace a bot plays it; seat 1 plays on
        await b.play(stop_after=1)
        control = await _wait_control(b, 0, "tuoguan")
        assert control[1] == "player"
        back = Player(server, tokens[0], room, seed=3)
        await back.connect(how="hello")
        state = await back.expect("state")
        assert state["control"][0] == "player", "the player takes the seat back on return"
        store = Store(str(server.db))
        hand = store.hand(state["game"])
        assert hand is not None
        replayed = rebuild(hand, state["version"])
        assert state["view"] == replayed.view(0)
        assert "hand" in state["view"], "the full current view, own cards included"
        store.close()
        await asyncio.gather(back.play(), b.play())
        await back.close()
        await b.close()

    asyncio.run(run())


async def _wait_control(p: Player, seat: int, what: str) -> list[str]:
    while True:
        msg = await p.next(timeout=10)
        if msg["type"] in ("state", "update") and msg["control"][seat] == what:
            control: list[str] = msg["control"]
            return control


def test_bots_fill_empty_seats_and_spectators_see_the_spectator_view(server: Server) -> None:
    async def run() -> None:
        token = server.register("solo")
        created = server.create_room(token, "toy", seats=3, bots=2, hands=1, bot_delay=0.05)
        room = created["room"]["id"]
        assert created["room"]["players"][1:] == ["bot", "bot"]
        me = Player(server, token, room, seed=5)
        watcher = Player(server, server.register("watcher"), room)
        await me.connect()
        await watcher.connect()
        assert watcher.seat is None
        error = await _send_error(
            watcher, {"type": "action", "action": {"type": "stake", "amount": 1}}
        )
        assert error["code"] == "spectator"
        await me.play()
        await watcher.expect("hand_over", room_finished=True)
        assert {m["seat"] for m in _updates(me, actor="bot")} == {1, 2}
        seen = [m for m in watcher.messages if m["type"] in ("state", "update")]
        assert seen and all(m["view"]["seat"] is None and "hand" not in m["view"] for m in seen)
        mine = [m for m in me.messages if m["type"] in ("state", "update")]
        assert all(m["view"]["seat"] == 0 and "hand" in m["view"] for m in mine)
        await me.close()
        await watcher.close()

    asyncio.run(run())


async def _send_error(p: Player, payload: dict[str, Any]) -> dict[str, Any]:
    await p.send(payload)
    return await p.expect("error")


def test_leaving_mid_game_hands_the_seat_to_a_bot(server: Server) -> None:
    async def run() -> None:
        room, tokens = server.table("toy", 2, seats=2, hands=1)
        a, b = Player(server, tokens[0], room, seed=1), Player(server, tokens[1], room, seed=2)
        await a.connect()
        await b.connect()
        answer = server.call("POST", f"/api/rooms/{room}/leave", tokens[0])
        assert answer.json() == {"room": room, "seat": 0}
        await b.play()
        assert {m["seat"] for m in _updates(b, actor="bot")} == {0}
        await b.close()
        await a.close()

    asyncio.run(run())
    info = server.call("GET", "/api/rooms").json()
    assert all(r["status"] in ("waiting", "playing", "finished") for r in info)


def test_ledger_keeps_every_settlement_with_a_running_balance(server: Server) -> None:
    async def run() -> tuple[list[str], int]:
        room, tokens = server.table("toy", 2, seats=2, stake=5, hands=2)
        players = [Player(server, t, room, seed=i) for i, t in enumerate(tokens)]
        for p in players:
            await p.connect()
        await asyncio.gather(*(p.play() for p in players))
        for p in players:
            await p.close()
        return tokens, room

    tokens, room = asyncio.run(run())
    games = {g["id"]: g for g in server.call("GET", f"/api/games?room={room}").json()}
    for seat, token in enumerate(tokens):
        ledger = server.call("GET", "/api/players/me/ledger", token).json()
        entries = ledger["entries"]
        assert [e["game"] for e in entries] == sorted(games)
        running = 0
        for e in entries:
            assert e["delta"] == 5 * games[e["game"]]["settlement"][seat]
            running += e["delta"]
            assert e["balance"] == running
        assert ledger["balance"] == running
        assert server.call("GET", "/api/players/me", token).json()["balance"] == running


def test_open_seats_go_to_bots_after_fill_after(server: Server) -> None:
    """`paiju serve` out of the box: a player alone at a table gets bots in the open seats."""

    async def run() -> None:
        token = server.register("alone")
        created = server.create_room(token, "toy", seats=3, hands=1, fill_after=0.3)
        room = created["room"]["id"]
        assert created["room"]["status"] == "waiting"
        me = Player(server, token, room, seed=9)
        await me.connect()
        started = await me.expect("hand_started", timeout=10)
        info = server.call("GET", f"/api/rooms/{room}").json()
        assert info["players"][1:] == ["bot", "bot"]
        assert info["game"] == started["game"]
        await me.play()
        await me.close()

    asyncio.run(run())


def test_waiting_room_changes_are_pushed_to_its_sockets(server: Server) -> None:
    """Before the first deal there is no state to send; each socket of the room gets a
    ``room`` message (its RoomInfo) when a player joins, connects, leaves, and when the
    room starts."""

    async def room_where(p: Player, **fields: Any) -> dict[str, Any]:
        """The next ``room`` message whose RoomInfo has these values."""
        while True:
            msg = await p.expect("room")
            if all(msg["room"][k] == v for k, v in fields.items()):
                info: dict[str, Any] = msg["room"]
                return info

    async def run() -> None:
        owner = server.register("owner")
        created = server.create_room(owner, "toy", seats=3, hands=1, fill_after=None)
        room = created["room"]["id"]
        me = Player(server, owner, room, seed=1)
        await me.connect()
        guest = server.register("guest")
        assert server.call("POST", f"/api/rooms/{room}/join", guest, json={}).status_code == 200
        joined = await room_where(me, players=["owner", "guest", None])
        assert joined["control"] == ["player", "away", "open"]
        other = Player(server, guest, room, seed=2)
        await other.connect()
        await room_where(me, control=["player", "player", "open"])
        await other.close()
        assert server.call("POST", f"/api/rooms/{room}/leave", guest).status_code == 200
        left = await room_where(me, players=["owner", None, None])
        assert left["control"] == ["player", "open", "open"]
        assert server.call("POST", f"/api/rooms/{room}/start", owner).status_code == 200
        started = await room_where(me, status="playing")
        assert started["players"] == ["owner", "bot", "bot"]
        await me.expect("hand_started")
        await me.play()
        await me.close()

    asyncio.run(run())
