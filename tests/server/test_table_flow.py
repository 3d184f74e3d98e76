"""What players expect of a table over a real server: the result stays until 继续, a
timeout plays the player's own arrangement, 托管 only after repeated timeouts, leaving
mid-hand leaves a bot the player can take back (回到座位), and 准备 before the first deal."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Player, Server

from paiju.cards import format_cards, parse_cards
from paiju.catalog import find_variant
from paiju.games.shisanzhang.game import greedy_arrangement
from paiju.games.shisanzhang.spec import params_of


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("flow")).start()
    yield srv
    srv.stop()


def test_the_result_stays_until_every_human_taps_continue(server: Server) -> None:
    async def run() -> None:
        room, tokens = server.table("toy", 2, seats=2, pause=120, hands=2)
        a, b = Player(server, tokens[0], room, seed=1), Player(server, tokens[1], room, seed=2)
        await a.connect()
        await b.connect()
        until_over = [
            asyncio.create_task(p.play(until=lambda m: m["type"] == "hand_over")) for p in (a, b)
        ]
        await asyncio.gather(*until_over)
        over = next(m for m in a.messages if m["type"] == "hand_over")
        assert over["next_hand_in"] == 120 and over["waiting"] == [0, 1]
        await asyncio.sleep(0.5)
        assert [m for m in a.messages if m["type"] == "hand_started"][-1]["game"] == over["game"]
        await a.send({"type": "continue"})
        again = await b.expect("hand_over", timeout=5)
        assert again["waiting"] == [1] and again["game"] == over["game"]
        started = time.monotonic()
        await b.send({"type": "continue"})
        nxt = await a.expect("hand_started", timeout=5)
        assert nxt["game"] != over["game"] and time.monotonic() - started < 5
        await a.close()
        await b.close()

    asyncio.run(run())


def _rows(hand: str) -> dict[str, Any]:
    rules = params_of(find_variant("1301")).row_rules()
    front, middle, back = greedy_arrangement(parse_cards(hand), rules)
    return {
        "type": "arrange",
        "front": format_cards(front),
        "middle": format_cards(middle),
        "back": format_cards(back),
    }


def test_a_timeout_plays_the_players_own_arrangement(server: Server) -> None:
    """13 cards placed but not confirmed (a ``draft``): at the timeout they are played as
    the player placed them, not the bot's choice, and the seat does not go 托管."""

    async def run() -> None:
        token = server.register("slow")
        # the clock leaves a loaded machine time to send the draft before it runs out
        created = server.create_room(token, "1301", seats=2, bots=1, time_limit=4.0, hands=1)
        room = created["room"]["id"]
        me = Player(server, token, room)
        await me.connect()
        state = await me.expect("state", timeout=10)
        draft = _rows(state["view"]["hand"])
        await me.send({"type": "draft", "action": draft})
        mine = await me.expect("update", timeout=10, seat=0)
        assert mine["actor"] == "player"
        assert mine["control"][0] == "player"
        await me.expect("hand_over", timeout=10)
        record = server.call("GET", f"/api/games/{mine['game']}").json()
        played = [a for a in record["actions"] if a["seat"] == 0]
        assert [a["action"] for a in played] == [draft]
        await me.close()

    asyncio.run(run())


def test_tuoguan_comes_after_repeated_timeouts_only(server: Server) -> None:
    async def run() -> None:
        room, tokens = server.table("toy", 2, seats=2, time_limit=0.3, tuoguan="timeout", pause=0)
        a = Player(server, tokens[0], room)
        b = Player(server, tokens[1], room)
        await a.connect()
        await b.connect()
        first = await a.expect("update", timeout=10, seat=0, actor="timeout")
        assert first["control"][0] == "player", "one timeout is not yet 托管 (default: 2)"
        end = time.monotonic() + 20
        while time.monotonic() < end:
            msg = await a.next(timeout=10)
            if msg["type"] in ("update", "state") and msg["control"][0] == "tuoguan":
                break
        else:
            pytest.fail("the seat never went 托管")
        timeouts = [
            m
            for m in a.messages
            if m["type"] == "update" and m["seat"] == 0 and m["actor"] == "timeout"
        ]
        assert len(timeouts) >= 2
        await a.close()
        await b.close()

    asyncio.run(run())


def test_leaving_mid_hand_leaves_a_bot_the_player_can_take_back(server: Server) -> None:
    async def run() -> None:
        room, tokens = server.table("toy", 2, seats=2, time_limit=0, hands=3, bot_delay=2)
        a, b = Player(server, tokens[0], room, seed=1), Player(server, tokens[1], room, seed=2)
        await a.connect()
        await b.connect()
        await a.expect("state")
        answer = server.call("POST", f"/api/rooms/{room}/leave", tokens[0])
        assert answer.status_code == 200
        info = server.call("GET", f"/api/rooms/{room}").json()
        assert info["control"][0] == "tuoguan" and info["seat_players"][0] is not None
        back = Player(server, tokens[0], room, seed=3)
        await back.connect()
        assert back.seat == 0, "回到座位: the seat is still the player's"
        state = await back.expect("state")
        assert state["control"][0] == "player"
        await back.close()
        await a.close()
        await b.close()

    asyncio.run(run())


def test_ready_step_before_the_first_deal(server: Server) -> None:
    """准备: a full room of two players starts when the second taps ready, not on sitting."""

    async def run() -> None:
        room, tokens = server.table("toy", 2, seats=2, hands=1, ready_check=True)
        info = server.call("GET", f"/api/rooms/{room}").json()
        assert info["status"] == "waiting" and info["ready"] == [True, False]
        a, b = Player(server, tokens[0], room, seed=1), Player(server, tokens[1], room, seed=2)
        await a.connect()
        await b.connect()
        await b.send({"type": "ready"})
        await a.expect("hand_started", timeout=10)
        await a.close()
        await b.close()

    asyncio.run(run())


def test_a_tuoguan_seat_waits_before_acting_in_a_new_hand(server: Server) -> None:
    """托管 never plays a new hand before its (connected) player could see it: the bot waits
    8 s, or the decision time when that is shorter, before its first action of the hand."""

    async def run() -> None:
        room, tokens = server.table(
            "toy", 2, seats=2, time_limit=2, tuoguan="timeout", tuoguan_after=1, hands=3
        )
        a, b = Player(server, tokens[0], room, seed=1), Player(server, tokens[1], room, seed=2)
        await a.connect()
        await b.connect()
        await a.expect("update", timeout=15, seat=0, actor="timeout")  # now 托管
        first = await a.expect("hand_started", timeout=20)
        dealt = time.monotonic()
        await b.send({"type": "continue"})
        mine = await a.expect("update", timeout=20, seat=0, game=first["game"])
        assert mine["actor"] == "bot"
        assert time.monotonic() - dealt >= 1.5, "the 托管 bot played before the player could look"
        await a.close()
        await b.close()

    asyncio.run(run())


def test_ready_marks_survive_a_restart(tmp_path: Path) -> None:
    """准备 is stored: a room waiting for its players keeps who is ready across a server
    restart, and starts when the last seat taps ready after it."""
    srv = Server(tmp_path).start()
    try:
        room, tokens = srv.table("toy", 3, seats=3, hands=1, ready_check=True)

        async def first() -> None:
            b = await Player(srv, tokens[1], room, seed=2).connect()
            await b.send({"type": "ready"})
            for _ in range(50):  # the mark is stored once the room has announced it
                if srv.call("GET", f"/api/rooms/{room}").json()["ready"][1]:
                    break
                await asyncio.sleep(0.1)
            await b.close()

        asyncio.run(first())
        assert srv.call("GET", f"/api/rooms/{room}").json()["ready"] == [True, True, False]
        srv.stop()
        srv.start()
        info = srv.call("GET", f"/api/rooms/{room}").json()
        assert info["status"] == "waiting" and info["ready"] == [True, True, False]

        async def again() -> None:
            a = await Player(srv, tokens[0], room, seed=1).connect()
            c = await Player(srv, tokens[2], room, seed=3).connect()
            await c.send({"type": "ready"})
            await a.expect("hand_started", timeout=10)
            await a.close()
            await c.close()

        asyncio.run(again())
    finally:
        srv.stop()
