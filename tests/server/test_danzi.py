"""宁城打弹子 through a real server process: a match's first deal, then a deal with tribute.

One scripted client and three server bots play two deals (room option ``hands = 2``): the
second deal opens with 进贡/还贡 from the first deal's finishing order. Every message each
client got is replayed and checked for hidden cards (partners' open hands and the shown
tribute allowed, nothing else), and the hands replay to the settlements the server recorded.
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
    srv = Server(tmp_path_factory.mktemp("danzi")).start()
    yield srv
    srv.stop()


async def _play(server: Server) -> tuple[int, list[Player]]:
    room, tokens = server.table("ningcheng-danzi", humans=1, hands=2)
    oracle = Oracle(server.db)
    players = [Player(server, t, room, 40 + i, oracle) for i, t in enumerate(tokens)]
    watcher = Player(server, server.register("watcher"), room)
    for p in [*players, watcher]:
        await p.connect()
    await asyncio.gather(*(p.play(timeout=240) for p in players))
    await watcher.expect("hand_over", timeout=60, room_finished=True)
    for p in [*players, watcher]:
        await p.close()
    oracle.close()
    return room, [*players, watcher]


def test_a_deal_with_tribute_through_the_server(server: Server) -> None:
    room, clients = asyncio.run(_play(server))
    games = sorted(server.call("GET", f"/api/games?room={room}").json(), key=lambda g: g["id"])
    assert len(games) == 2
    for summary in games:
        record = server.call("GET", f"/api/games/{summary['id']}").json()
        rec = read_record(
            {
                **record,
                "actions": [{"seat": a["seat"], "action": a["action"]} for a in record["actions"]],
            }
        )
        final = list(replay(rec))[-1]
        assert final.is_over and list(final.settlement()) == record["settlement"]
    second = server.call("GET", f"/api/games/{games[1]['id']}").json()
    assert second["context"]["previous"]["finish_order"]
    views = [
        m["view"]
        for m in clients[0].messages
        if m["type"] in ("state", "update") and m["game"] == games[1]["id"]
    ]
    tribute = views[-1]["tribute"]
    assert tribute is not None and tribute["form"] in ("2/2", "4/2") and tribute["log"]
    phases = {v["phase"] for v in views}
    assert "returning" in phases or "picking" in phases
    # the partner's hand is in each seat's view, the spectator sees no hand
    assert all(v["hands"][v["partner"]] is not None for v in views)
    store = Store(str(server.db))
    for p in clients:
        checked, problems = check_messages(store, p)
        assert problems == [] and checked > 0
    store.close()
