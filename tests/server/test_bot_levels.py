"""Bot levels in a room: the level option (简单/普通/困难), 托管 at 普通, and a 困难 bot that
thinks off the event loop, so that its room still answers its sockets (in process, on the
real store)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from pydantic import ValidationError
from socket_stub import SocketStub

from paiju.search import SearchBot
from paiju.server.client import Client
from paiju.server.hub import Hub
from paiju.server.inbox import handle
from paiju.server.options import Limits, RoomOptions
from paiju.server.store import Store


def test_the_level_option_takes_english_and_chinese_names() -> None:
    assert RoomOptions().level == "normal"
    assert RoomOptions(level="困难").level == "hard"
    assert RoomOptions(level="简单").level == "easy"
    with pytest.raises(ValidationError):
        RoomOptions(level="master")


def test_a_thinking_hard_bot_leaves_the_room_answering(tmp_path: Path) -> None:
    """While a 困难 bot's decision is being thought (its future pending), a ping to the room
    is answered: the loop is free. The bot's action then comes, and is legal."""
    store = Store(str(tmp_path / "levels.db"))
    options = RoomOptions(
        seats=4,
        bots=3,
        level="hard",
        bot_delay=0,
        pause=0,
        hands=1,
        fill_after=None,
        ready_check=False,
        time_limit=0,
    )

    async def scenario() -> None:
        hub = Hub(store, Limits(min_bot_delay=0))
        ann = store.create_player("ann")[0]
        room = await hub.create_room(ann, "sandaha", options, {}, 0)
        sock = SocketStub()
        client = Client(ann, sock.send_text, hub.limits, sock.close)
        asyncio.get_running_loop().create_task(client.writer())
        room.attach(client)
        bots = [room.seats[s] for s in (1, 2, 3)]
        answered_while_thinking = 0
        sent: int | None = None  # the id of seat 0's last action, until it is answered
        for tick in range(4000):
            await asyncio.sleep(0.002)
            thinking = next((rt.thinking for rt in bots if rt.thinking is not None), None)
            if thinking is not None and not thinking.done():
                pongs = len(sock.of("pong"))
                handle(room, client, json.dumps({"type": "ping", "id": tick}))
                while len(sock.of("pong")) == pongs and not thinking.done():
                    await asyncio.sleep(0.001)
                if len(sock.of("pong")) > pongs and not thinking.done():
                    answered_while_thinking += 1
                    assert isinstance(bots[0].engine or bots[1].engine or bots[2].engine, SearchBot)
                    if answered_while_thinking >= 2:
                        break
            state = room.state
            if sent is not None and any(m.get("ref") == sent for m in sock.sent):
                sent = None
            # (an action waits for the room's last commit: the turn still shows meanwhile,
            # and a second action sent for it would be refused as out of turn)
            if state is not None and 0 in state.to_act() and sent is None:
                sent = 10_000 + tick
                handle(
                    room,
                    client,
                    json.dumps(
                        {
                            "type": "action",
                            "action": state.random_action(0, random.Random(tick)).to_json(),
                            "game": room.hand_id,
                            "id": sent,
                        }
                    ),
                )
        assert answered_while_thinking >= 2
        assert not [e for e in sock.of("error") if e.get("code") != "stale"]
        room.seats[0].auto = True
        assert not isinstance(room._bot(0), SearchBot)  # 托管 plays the rule bot (普通)

    asyncio.run(scenario())
