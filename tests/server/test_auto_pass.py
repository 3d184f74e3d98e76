"""要不起 (auto-pass) on a real server: a seat whose player turned it on is passed for whenever
pass is its only legal action, its decision clock running as on any turn (the table sees
nothing it would not see of a seat that could beat); with the room's ``quick_pass`` it is
passed for after a short beat with no clock; with auto-pass off (the default for a protocol
client) the clock runs and nothing passes for it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import FAST, Player, Server

from paiju.server.turns import AUTO_PASS_BEAT

CODE = "anshan-jiayibing"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("autopass")).start()
    yield srv
    srv.stop()


def room_with_bots(server: Server, name: str, **options: Any) -> tuple[str, int]:
    token = server.register(name)
    body = {
        "code": CODE,
        "options": {
            **FAST,
            "seats": 6,
            "bots": 5,
            "bot_delay": 0.05,
            "time_limit": 30,
            **options,
        },
        "seat": 0,
    }
    answer = server.call("POST", "/api/rooms", token, json=body)
    assert answer.status_code == 201, answer.text
    return token, int(answer.json()["room"]["id"])


def only_pass(msg: dict[str, Any], seat: int) -> bool:
    return (
        msg["type"] in ("state", "update")
        and seat in msg["view"]["to_act"]
        and msg["legal"] == [{"type": "pass"}]
    )


def smallest_play(msg: dict[str, Any]) -> dict[str, Any]:
    plays = [a for a in msg["legal"] if a["type"] == "play"]
    return min(plays, key=lambda a: len(a["cards"]))


async def until_forced_pass(player: Player, timeout: float = 60.0) -> dict[str, Any]:
    """Play the smallest legal play at each own turn until a turn where pass is all the
    seat may do, in this deal or a later one of the room; returns that message."""
    assert player.seat is not None
    end = time.monotonic() + timeout
    msg = player.latest()
    sent = 0
    while True:
        if msg is not None and only_pass(msg, player.seat):
            return msg
        if (
            msg is not None
            and msg["type"] in ("state", "update")
            and player.seat in msg["view"]["to_act"]
            and msg["legal"]
            and msg.get("ref") is None
        ):
            sent += 1
            await player.send(
                {"type": "action", "action": smallest_play(msg), "id": sent, "game": msg["game"]}
            )
        msg = await player.next(max(0.01, end - time.monotonic()))
        if msg["type"] == "error" and msg.get("code") == "not_your_turn" and msg.get("ref"):
            # an answer to a turn already played (a second update of it came first on a
            # loaded machine): the seat waits for its next turn
            msg = None
            continue
        assert msg["type"] != "error", msg
        if msg["type"] == "hand_over":
            # a deal can end without the seat ever facing a turn it cannot beat: the room
            # (no pause between hands) deals the next one, and the search goes on there
            assert not msg["room_finished"], "the room ended before a forced pass"
            msg = None


def test_auto_pass_passes_for_the_seat_with_its_clock_shown_as_on_any_turn(
    server: Server,
) -> None:
    """The option on: at a turn whose only legal action is pass the seat's clock runs, and
    a spectator sees it as it sees every seat's clock; the server passes for the seat, as
    the player's own action; the log stores it like any pass."""

    async def run() -> None:
        token, room = room_with_bots(server, "要不起")
        player = await Player(server, token, room).connect()
        watcher = await Player(server, server.register("看客"), room).connect()
        await player.send({"type": "auto_pass", "on": True, "id": "ap"})
        await player.expect("auto_passing", id="ap")
        forced = await until_forced_pass(player)
        seat = player.seat
        clocks = [t for t in forced["timers"] if t["seat"] == seat]
        assert len(clocks) == 1 and clocks[0]["limit"] == 30.0, forced["timers"]
        seen = await watcher.expect(forced["type"], game=forced["game"], version=forced["version"])
        assert [t["seat"] for t in seen["timers"]] == [seat], seen["timers"]
        msg = await player.expect("update", timeout=15, seat=seat)
        assert [e["type"] for e in msg["events"]][:1] == ["passed"], msg["events"]
        assert msg["actor"] == "player" and msg["ref"] is None
        await player.close()
        await watcher.close()

    asyncio.run(run())


def test_quick_pass_passes_after_a_beat_without_a_clock(server: Server) -> None:
    """The room's ``quick_pass``: the 要不起 turn shows no clock and the pass comes after
    the beat, the faster way that tells the table who cannot beat."""

    async def run() -> None:
        token, room = room_with_bots(server, "快过", quick_pass=True)
        player = await Player(server, token, room).connect()
        await player.send({"type": "auto_pass", "on": True})
        forced = await until_forced_pass(player)
        seat = player.seat
        assert [t for t in forced["timers"] if t["seat"] == seat] == []
        msg = await player.expect("update", timeout=AUTO_PASS_BEAT + 10, seat=seat)
        assert [e["type"] for e in msg["events"]][:1] == ["passed"], msg["events"]
        assert msg["actor"] == "player"
        await player.close()

    asyncio.run(run())


def test_without_the_option_the_clock_runs_and_the_player_passes(server: Server) -> None:
    """The option off (a protocol client that never sent it, or turned it off): the
    forced turn has the seat's clock running, nothing is played for it during the beat.
    Turning the option on there passes for it, the clock running on meanwhile."""

    async def run() -> None:
        token, room = room_with_bots(server, "手动不出")
        player = await Player(server, token, room).connect()
        await player.send({"type": "auto_pass", "on": False})
        forced = await until_forced_pass(player)
        seat = player.seat
        clocks = [t for t in forced["timers"] if t["seat"] == seat]
        assert len(clocks) == 1 and clocks[0]["limit"] == 30.0, forced["timers"]
        with pytest.raises(TimeoutError):
            while True:
                msg = await player.next(AUTO_PASS_BEAT + 0.6)
                assert not (msg["type"] == "update" and msg["seat"] == seat), msg
        await player.send({"type": "auto_pass", "on": True, "id": "on"})
        while (msg := await player.next(15))["type"] != "update":
            assert msg["type"] == "auto_passing", msg  # no state: nothing shown changed
        assert msg["seat"] == seat and msg["events"][0]["type"] == "passed"
        await player.close()

    asyncio.run(run())


def test_a_spectator_cannot_ask_for_auto_pass(server: Server) -> None:
    async def run() -> None:
        _, room = room_with_bots(server, "主人")
        watcher = await Player(server, server.register("看客"), room).connect()
        assert watcher.seat is None
        await watcher.send({"type": "auto_pass", "on": True, "id": 5})
        err = await watcher.expect("error", timeout=5)
        assert (err["code"], err["ref"]) == ("spectator", 5)
        await watcher.close()

    asyncio.run(run())
