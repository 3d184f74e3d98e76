"""One room's fault never reaches another, and a rejected action changes nothing (in
process, on the real store and group commit).

docs/protocol.md, "Limits": "a write the database refuses closes its own room (error
``storage_failure``); every other room's writes go through"; section 3: "a refused
action changes nothing: not the hand, not 托管, not the bot's pending move".
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from server_helpers import PLAYABLE
from socket_stub import SocketStub

from paiju.errors import IllegalAction
from paiju.games import game as make_game
from paiju.server.client import Client
from paiju.server.hub import Hub
from paiju.server.inbox import handle
from paiju.server.options import Limits, RoomOptions
from paiju.server.room import Room
from paiju.server.store import Store

pytestmark = pytest.mark.skipif("2001" not in PLAYABLE, reason="宝子 2001 is not registered")

BOTS = RoomOptions(
    seats=3, bots=3, time_limit=0, bot_delay=0, pause=0, hands=10_000, fill_after=None
)


def _watch(hub: Hub, room: Room, name: str) -> SocketStub:
    player = hub.store.create_player(name)[0]
    sock = SocketStub()
    client = Client(player, sock.send_text, hub.limits, sock.close)
    asyncio.get_running_loop().create_task(client.writer())
    room.attach(client)
    return sock


@pytest.mark.parametrize(
    ("code", "options", "option"),
    [
        ("2001", {"min_bet": 10**18, "max_bet": 10**18}, "min_bet"),
        ("2001", {"max_bet": 10**6}, "max_bet"),
        ("2001", {"pair_payout": 10**9}, "pair_payout"),
        ("sandaha", {"stake": 10**30}, "stake"),
        ("1301", {"stake": 10**9}, "stake"),
    ],
)
def test_huge_game_options_are_refused_by_the_games_options_model(
    code: str, options: dict[str, Any], option: str
) -> None:
    """The attack of the issue: 2001 with min_bet/max_bet 10^18, 三打哈 stake 10^30."""
    if code not in PLAYABLE:
        pytest.skip(f"{code} is not registered")
    with pytest.raises(IllegalAction) as refused:
        make_game(code, **options)
    assert refused.value.reason == "option_out_of_range"
    assert refused.value.params["option"] == option
    assert str(refused.value.params["max"]) in str(refused.value)


def test_a_write_the_database_refuses_closes_its_room_only(tmp_path: Path) -> None:
    """A settlement too large for the ledger's column fails its own room's write: that
    room is closed with an error its sockets see, and the other rooms' actions, sharing
    the same group commits, are stored and go on."""
    store = Store(str(tmp_path / "iso.db"))

    async def scenario() -> None:
        hub = Hub(store, Limits(rooms_per_player=50, bot_rooms_per_player=10, min_bot_delay=0))
        owner = store.create_player("owner")[0]
        rooms = [await hub.create_room(owner, "2001", BOTS, {}, None) for _ in range(4)]
        bad = rooms[0]
        # bypassing the options' bounds (as a room stored before them would): every
        # settlement of this room overflows the 64-bit ledger column
        bad.options = bad.options.model_copy(update={"stake": 10**19})
        watcher = _watch(hub, bad, "watcher")
        for _ in range(400):
            await asyncio.sleep(0.005)
            if bad.status == "closed" and all(r.hands_played >= 3 for r in rooms[1:]):
                break
        assert bad.status == "closed"
        errors = [m for m in watcher.sent if m.get("type") == "error"]
        assert [e["code"] for e in errors] == ["storage_failure"]
        assert "other rooms play on" in errors[0]["message"]
        closed = [m for m in watcher.sent if m.get("type") == "room"][-1]
        assert closed["room"]["status"] == "closed"
        row = store.room(bad.id)
        assert row is not None and row.status == "closed"
        hand = store.hand(bad.hand_id)
        assert hand is not None and hand.status == "void"
        for good in rooms[1:]:
            assert good.status == "playing" and good.hands_played >= 3
        stopped_at = len(store.hand(bad.hand_id).actions)  # type: ignore[union-attr]
        await asyncio.sleep(0.05)  # the closed room does not retry, the others play on
        assert len(store.hand(bad.hand_id).actions) == stopped_at  # type: ignore[union-attr]
        hub.shutdown()
        # once every pending write has landed (a hand's end is stored before its room
        # counts it, so only then), the store and the rooms agree
        for good in rooms[1:]:
            assert store.room(good.id).hands_played == good.hands_played  # type: ignore[union-attr]

    asyncio.run(scenario())
    store.close()


OPEN = RoomOptions(
    seats=3,
    time_limit=0,
    bot_delay=0.05,
    pause=0,
    hands=1,
    fill_after=None,
    ready_check=False,
    tuoguan_after=1,
    seed_wait=0,
)


def test_a_refused_action_of_a_seat_under_tuoguan_leaves_the_bot_playing(tmp_path: Path) -> None:
    """The hang of the issue: an illegal action from the only seat left to act, under
    托管, used to turn 托管 off and cancel the bot before the action was checked; with no
    decision timer the hand never ended."""
    store = Store(str(tmp_path / "hang.db"))

    async def scenario() -> None:
        hub = Hub(store, Limits(min_bot_delay=0))
        players = [store.create_player(f"p{i}")[0] for i in range(3)]
        room = await hub.create_room(players[0], "2001", OPEN, {}, 0)
        for p in players[1:]:
            room.join(p, None)
        socks, clients = [], []
        for p in players:
            sock = SocketStub()
            client = Client(p, sock.send_text, hub.limits, sock.close)
            asyncio.get_running_loop().create_task(client.writer())
            room.attach(client)
            socks.append(sock)
            clients.append(client)
        await asyncio.sleep(0.02)
        hand = room.hand_id
        assert room.acting() == frozenset({1, 2})
        bet = room.legal(1)
        assert bet
        handle(room, clients[1], json.dumps({"type": "action", "action": bet[0]}))
        await asyncio.sleep(0.02)
        assert room.acting() == frozenset({2})  # seat 2 is the only one left to act
        seat = room.seats[2]
        seat.auto = True  # under 托管 (as after a timeout)
        room._schedule()
        assert seat.pending_bot is not None
        version = len(room.state.history)  # type: ignore[union-attr]
        handle(
            room,
            clients[2],
            json.dumps({"type": "action", "action": {"type": "bet", "amount": 10**6}, "id": "x"}),
        )
        queued = [json.loads(t) for t in clients[2].outbox if t is not None]
        refused = [m for m in queued if m.get("type") == "error"]
        assert [m["ref"] for m in refused] == ["x"]
        assert seat.auto and seat.pending_bot is not None  # nothing changed
        assert len(room.state.history) == version  # type: ignore[union-attr]
        for _ in range(200):  # the bot still plays the seat: the hand ends
            await asyncio.sleep(0.005)
            if room.status == "finished":
                break
        over = store.hand(hand)
        assert over is not None and over.status == "over"
        hub.shutdown()

    asyncio.run(scenario())
    store.close()
