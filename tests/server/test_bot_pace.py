"""A 困难 bot's decision time shown to the table is drawn from one distribution whatever
it holds: a seat that can only pass is not shown quicker than one that weighs its
choices (its search thinks from the turn's start; the decision is shown at a moment
drawn then, ``paiju.server.turns.bot_pace``).

The search is stood in for by one that answers a seat that can only pass at once and
thinks a quarter of a second over a choice - the way the real search's time told the
table who held nothing bigger. Over many turns of 甲乙丙 (6 seats, every one a 困难 bot),
no decision of either kind is shown before the drawn pace's least value: a lower bound
only, which a busy machine cannot break (it can only make a turn later).
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from pydantic import BaseModel
from socket_stub import SocketStub

from paiju.engine import Action, State
from paiju.search import SearchBot
from paiju.server import room as room_module
from paiju.server import turns
from paiju.server.client import Client
from paiju.server.hub import Hub
from paiju.server.options import Limits, RoomOptions
from paiju.server.rows import PlayerRow
from paiju.server.store import Store

CODE = "anshan-jiayibing"
BOT_DELAY = 0.05
PACE = (0.3, 0.4)
SEED = "0000000000000000000000000000000000000000000000000000000000005ccd"
OPTIONS = RoomOptions(
    seats=6,
    bots=6,
    level="hard",
    bot_delay=BOT_DELAY,
    time_limit=0,
    pause=0,
    hands=1,
    fill_after=None,
    seed_wait=0,
)


class TimedClient(Client):
    """A spectator's socket that notes the loop's time each message is handed to it (as
    the room sends it, right after it took the turn's next steps)."""

    def __init__(self, player: PlayerRow, sock: SocketStub, limits: Limits) -> None:
        super().__init__(player, sock.send_text, limits, sock.close)
        self.at: list[tuple[float, BaseModel | str]] = []

    def send(self, msg: BaseModel | str) -> None:
        self.at.append((asyncio.get_running_loop().time(), msg))
        super().send(msg)


def test_a_hard_bot_that_can_only_pass_is_shown_no_quicker_than_one_with_choices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    forced: dict[tuple[int, int], bool] = {}

    def think(self: SearchBot, state: State, seat: int) -> Action:
        legal = list(state.legal_actions(seat) or [])
        only_pass = all(a.to_json().get("type") == "pass" for a in legal)
        forced[seat, len(state.history)] = only_pass
        if not only_pass:
            time.sleep(0.25)  # weighing its choices, as the search does
        return self.policy.act(state, seat)

    monkeypatch.setattr(SearchBot, "act", think)
    monkeypatch.setattr(turns, "HARD_PACE", PACE, raising=False)
    # one fixed deal, whose first turns have both kinds (a random deal may give a seat
    # that can only pass too seldom to tell)
    monkeypatch.setattr(room_module, "new_seed", lambda: SEED)
    store = Store(str(tmp_path / "pace.db"))

    async def scenario() -> TimedClient:
        hub = Hub(store, Limits(min_bot_delay=0, bot_rooms_per_player=5))
        owner, eve = (store.create_player(n)[0] for n in ("owner", "eve"))
        room = await hub.create_room(owner, CODE, OPTIONS, {}, None)
        sock = SocketStub()
        client = TimedClient(eve, sock, hub.limits)
        asyncio.get_running_loop().create_task(client.writer())
        room.attach(client)
        for _ in range(3000):  # the hand (a few dozen turns), at most ten minutes
            if room.status == "finished" or len(sock.of("update")) >= 40:
                break
            await asyncio.sleep(0.2)
        hub.shutdown()
        return client

    client = asyncio.run(scenario())
    store.close()
    shown: dict[bool, list[float]] = {True: [], False: []}
    began: dict[int, float] = {}  # the version a turn starts from: when it was sent
    for at, sent in client.at:
        msg = json.loads(sent if isinstance(sent, str) else sent.model_dump_json())
        if msg.get("type") not in ("state", "update"):
            continue
        version = msg["version"]
        kind = forced.get((msg["seat"], version - 1)) if msg["type"] == "update" else None
        if kind is not None and version - 1 in began:
            shown[kind].append(at - began[version - 1])
        began.setdefault(version, at)
    least = BOT_DELAY + PACE[0] - 0.03  # less the room's own work between two sends
    assert len(shown[True]) >= 5 and len(shown[False]) >= 5, {k: len(v) for k, v in shown.items()}
    for only_pass, gaps in shown.items():
        early = [round(g, 3) for g in gaps if g < least]
        assert early == [], (only_pass, early)
