"""Every client message gets an answer or an error, in every phase of a room (in process).

docs/protocol.md section 3: "Every message gets an answer or an error". Each client message
type (and a bad JSON text, an unknown type, an action with an unknown field) is sent by a
seated player and by a spectator while the room waits for its players, while a hand is in
play, while a result is shown between hands, and after the room's last hand; each time
the sender's socket must receive a reply, with nothing else going on at the table (no
bots, no clocks) that could send it something anyway.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from server_helpers import PLAYABLE
from socket_stub import SocketStub

from paiju.server.client import Client
from paiju.server.hub import Hub
from paiju.server.inbox import handle
from paiju.server.options import Limits, RoomOptions
from paiju.server.room import Room
from paiju.server.store import Store

pytestmark = pytest.mark.skipif("2001" not in PLAYABLE, reason="宝子 2001 is not registered")

OPTIONS = RoomOptions(
    seats=2,
    time_limit=0,
    bot_delay=0,
    pause=600,
    hands=2,
    fill_after=None,
    seed_wait=0,
    tuoguan="off",
)

MESSAGES: list[tuple[str, str]] = [
    ("hello", json.dumps({"type": "hello", "token": "x"})),
    ("action", json.dumps({"type": "action", "action": {"type": "bet", "amount": 10**6}})),
    (
        "unknown field",
        json.dumps({"type": "action", "action": {"type": "bet", "amount": 1, "x": 1}}),
    ),
    ("resume", json.dumps({"type": "resume", "id": 3})),
    ("continue", json.dumps({"type": "continue", "id": 4})),
    ("ready", json.dumps({"type": "ready", "ready": False, "id": 5})),
    ("draft", json.dumps({"type": "draft", "action": None, "id": 6})),
    ("sync", json.dumps({"type": "sync", "id": 7})),
    ("ping", json.dumps({"type": "ping", "id": 8})),
    ("client_seed", json.dumps({"type": "client_seed", "seed": "abc", "id": 9})),
    ("auto_pass", json.dumps({"type": "auto_pass", "on": True, "id": 11})),
    ("dissolve", json.dumps({"type": "dissolve", "id": 12})),
    ("dissolve_vote", json.dumps({"type": "dissolve_vote", "agree": False, "id": 13})),
    ("unknown type", json.dumps({"type": "nonsense", "id": 10})),
    ("bad json", "{not json"),
]


async def _sweep(room: Room, phase: str, who: dict[str, tuple[Client, SocketStub]]) -> list[str]:
    """Send every message from each socket; the problems (a message left unanswered)."""
    problems = []
    for name, (client, sock) in who.items():
        for kind, text in MESSAGES:
            if kind == "ready" and phase == "waiting" and name == "seat":
                continue  # sent on its own below: it is the one that starts the room
            before = len(sock.sent)
            handle(room, client, text)
            await asyncio.sleep(0.03)
            replies = sock.sent[before:]
            if not replies:
                problems.append(f"{phase}: {name}'s {kind} got no answer")
            elif kind == "unknown field" and phase == "in play" and name == "seat":
                (error,) = replies  # refused, not played: the bet is legal but for "x"
                assert error["code"] == "bad_message" and error["reason"] == "unknown_field"
                allowed = ["type", "amount"]
                assert error["params"] == {"field": "x", "kind": "bet", "allowed": allowed}
                assert error["text"]["zh"] and error["text"]["en"], error
    return problems


async def _hand_over(room: Room) -> None:
    """The players' legal actions until the hand is settled."""
    for _ in range(100):
        state = room.state
        if state is None or state.is_over:
            return
        for seat in sorted(room.acting()):
            room.act(seat, next(iter(state.legal_actions(seat) or [])), "player")
            await room.settled()
        await asyncio.sleep(0.01)


def test_every_message_type_gets_an_answer_in_every_phase(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "answers.db"))
    problems: list[str] = []

    async def scenario() -> None:
        hub = Hub(store, Limits(min_bot_delay=0, messages_per_second=1000, burst=1000))
        ann, bob, eve = (store.create_player(n)[0] for n in ("ann", "bob", "eve"))
        room = await hub.create_room(ann, "2001", OPTIONS, {}, 0)
        loop = asyncio.get_running_loop()
        who: dict[str, tuple[Client, SocketStub]] = {}
        tasks = []
        room.join(bob, 1)  # bob is not ready yet (ready_check): the room waits
        for name, player in (("owner", ann), ("seat", bob), ("spectator", eve)):
            sock = SocketStub()
            client = Client(player, sock.send_text, hub.limits, sock.close)
            tasks.append(loop.create_task(client.writer()))
            room.attach(client)
            who[name] = (client, sock)
        await asyncio.sleep(0.02)
        assert room.status == "waiting"
        sweep = {k: v for k, v in who.items() if k != "owner"}
        problems.extend(await _sweep(room, "waiting", sweep))
        seat_client, seat_sock = who["seat"]
        before = len(seat_sock.sent)
        handle(room, seat_client, json.dumps({"type": "ready", "ready": True, "id": 1}))
        await asyncio.sleep(0.05)
        assert seat_sock.sent[before:], "ready before the start got no answer"
        assert room.status == "playing" and room.state is not None
        problems.extend(await _sweep(room, "in play", sweep))
        errors = [m for m in seat_sock.sent if m.get("type") == "error"]
        assert {"room_playing", "no_result"} <= {e["code"] for e in errors}
        await _hand_over(room)
        await asyncio.sleep(0.05)
        assert room.over is not None and room.next_hand is not None  # the result is shown
        problems.extend(await _sweep(room, "result shown", sweep))
        for client, _ in who.values():
            handle(room, client, json.dumps({"type": "continue"}))
        await asyncio.sleep(0.1)
        await _hand_over(room)
        await asyncio.sleep(0.05)
        assert room.status == "finished"
        problems.extend(await _sweep(room, "finished", sweep))
        hub.shutdown()
        for task in tasks:
            task.cancel()

    asyncio.run(scenario())
    store.close()
    assert problems == []
