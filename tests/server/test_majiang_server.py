"""鞍山麻将 through the server: two scripted players and two bots play a hand to its
payments; claim windows are decisions of several seats at once; the record replays."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from server_helpers import Player, Server

from paiju.games import read_record, replay


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("majiang")).start()
    yield srv
    srv.stop()


def test_a_majiang_hand_plays_to_its_payments_through_the_server(server: Server) -> None:
    async def run() -> tuple[int, list[Player]]:
        room, tokens = server.table("anshan-majiang", 2, seats=4)
        players = [Player(server, t, room, 11 + i) for i, t in enumerate(tokens)]
        for p in players:
            await p.connect()
        await asyncio.gather(*(p.play(timeout=240) for p in players))
        for p in players:
            await p.close()
        return room, players

    room, players = asyncio.run(run())
    (summary,) = server.call("GET", f"/api/games?room={room}").json()
    record = server.call("GET", f"/api/games/{summary['id']}").json()
    rec = read_record(
        {
            **record,
            "actions": [{"seat": a["seat"], "action": a["action"]} for a in record["actions"]],
        }
    )
    final = list(replay(rec))[-1]
    assert final.is_over and list(final.settlement()) == record["settlement"]
    assert sum(record["settlement"]) == 0
    kinds = {a["action"]["type"] for a in record["actions"]}
    assert "discard" in kinds and "pass" in kinds  # claim windows were answered
    # a claim window: the seats asked all appear in one view's to_act
    views = [m["view"] for p in players for m in p.messages if m["type"] in ("state", "update")]
    assert any(v["phase"] == "claim" for v in views)
    assert all("hand" in v for v in views)
    verified = server.call("GET", f"/api/games/{summary['id']}/verify").json()
    assert verified["ok"] is True
