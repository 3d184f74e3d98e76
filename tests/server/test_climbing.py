"""鞍山甲乙丙 and 鞍山放羊 through a real server: whole deals with scripted players and bots.

The scripted players choose among the ``legal`` actions the server sends; the rest are the
family's bots. The stored hand replays to the same settlement, verifies, and no message a
player got names a card hidden from it (the called card's holder included).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from server_helpers import Oracle, Player, Server, check_messages

from paiju.games import read_record, replay
from paiju.server.store import Store


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("climbing")).start()
    yield srv
    srv.stop()


@pytest.mark.parametrize(("code", "humans"), [("anshan-jiayibing", 2), ("anshan-fangyang", 2)])
def test_a_deal_plays_to_the_settlement_through_the_server(
    server: Server, code: str, humans: int
) -> None:
    async def run() -> tuple[int, list[Player]]:
        room, tokens = server.table(code, humans, hands=1)  # one deal
        oracle = Oracle(server.db)
        players = [Player(server, t, room, 31 + i, oracle) for i, t in enumerate(tokens)]
        for p in players:
            await p.connect()
        await asyncio.gather(*(p.play(timeout=180) for p in players))
        for p in players:
            await p.close()
        oracle.close()
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
    assert "play" in kinds
    if code == "anshan-fangyang":
        assert "call" in kinds
    assert server.call("GET", f"/api/games/{summary['id']}/verify").json()["ok"] is True
    store = Store(str(server.db))
    for p in players:
        checked, problems = check_messages(store, p)
        assert checked > 0 and problems == []
