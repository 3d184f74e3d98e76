"""Advice and whole hands of the families over a real server.

Issue #6: "the solver's suggestions as one-tap choices" (十三张) and "佳佳宝 (choose the two
groups, with the suggested grouping)" need the server to answer
``GET /api/rooms/{id}/suggestions`` for a seated player. Issue #7: "A full hand plays to the
settlement through the terminal, the server and the browser".
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import Oracle, Player, Server, rebuild

import paiju.games as games
from paiju.games import read_record, replay
from paiju.server.store import Store


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("advice")).start()
    yield srv
    srv.stop()


async def _until_to_act(p: Player, phase: str) -> dict[str, Any]:
    while True:
        msg = await p.next(timeout=20)
        if msg["type"] in ("state", "update"):
            view = msg["view"]
            if view["phase"] == phase and p.seat in view["to_act"]:
                return msg
            if view["phase"] != phase and p.seat in view["to_act"] and msg.get("legal"):
                await p.decide(msg)  # bets and the like, on the way to ``phase``
        if msg.get("ref") is not None and msg.get("ref") == p.pending:
            p.pending = None


@pytest.mark.parametrize(
    ("code", "phase", "kind", "fields"),
    [
        ("1301", "arranging", "arrange", {"front", "middle", "back"}),
        ("2101", "grouping", "group", {"first", "second"}),
    ],
)
def test_suggestions_are_the_engines_advice_and_can_be_played(
    server: Server, code: str, phase: str, kind: str, fields: set[str]
) -> None:
    async def run() -> None:
        room, tokens = server.table(code, 1, seats=4, hands=1)
        p = Player(server, tokens[0], room)
        await p.connect()
        msg = await _until_to_act(p, phase)
        answer = server.call("GET", f"/api/rooms/{room}/suggestions", tokens[0])
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert (body["room"], body["game"], body["seat"]) == (room, msg["game"], p.seat)
        advice = body["suggestions"]
        assert advice and all(a["type"] == kind and fields <= set(a) for a in advice)
        hand = Store(str(server.db)).current_hand(room)
        assert hand is not None
        state = rebuild(hand)
        expected = games.advice(state, p.seat or 0)  # the actions, with what a player reads of them
        assert advice == expected
        p.sent += 1
        p.pending = p.sent
        # only the action's fields go back (docs/protocol.md); what it reads as stays here
        action = {k: v for k, v in advice[0].items() if k in fields | {"type"}}
        await p.send({"type": "action", "action": action, "id": p.sent, "game": msg["game"]})
        while True:
            reply = await p.next(timeout=20)
            assert reply["type"] != "error", reply
            if reply.get("ref") == p.sent:
                break
        after = server.call("GET", f"/api/rooms/{room}/suggestions", tokens[0]).json()
        assert after["suggestions"] == []  # the seat has acted
        await p.close()

    asyncio.run(run())


def test_check_gives_the_exact_foul_verdict_without_playing(server: Server) -> None:
    """docs/client-needs.md #5: the 倒水 verdict before confirming, from the server's own
    row rules (1303 has suit tie-breaks the browser's evaluator leaves out)."""

    async def run() -> None:
        room, tokens = server.table("1303", 1, seats=4)
        p = Player(server, tokens[0], room)
        await p.connect()
        msg = await _until_to_act(p, "arranging")
        seat = p.seat or 0
        hand = Store(str(server.db)).current_hand(room)
        assert hand is not None
        state = rebuild(hand)
        advice = server.call("GET", f"/api/rooms/{room}/suggestions", tokens[0]).json()
        best = next(a for a in advice["suggestions"] if a["type"] == "arrange")
        good = {k: best[k] for k in ("type", "front", "middle", "back")}  # the action's fields
        # the solver's rows with the back and the middle swapped: a weaker back is 倒水
        swapped = {**good, "middle": good["back"], "back": good["middle"]}
        verdicts = []
        for action in (good, swapped):
            answer = server.call("POST", f"/api/rooms/{room}/check", tokens[0], json=action)
            assert answer.status_code == 200, answer.text
            body = answer.json()
            assert (body["room"], body["game"], body["seat"]) == (room, msg["game"], seat)
            assert body["preview"] == state.preview(seat, state.game.parse_action(action))
            verdicts.append(body["preview"])
        assert [v["foul"] for v in verdicts] == [False, True]
        assert verdicts[1]["middle"] == good["back"]
        # a card the seat does not hold: the error the socket would give
        mine = set(" ".join((good["front"], good["middle"], good["back"])).split())
        foreign = next(c for c in ("2s", "2h", "2c", "2d", "3s") if c not in mine)
        bad = {**good, "front": " ".join([foreign, *good["front"].split()[1:]])}
        refused = server.call("POST", f"/api/rooms/{room}/check", tokens[0], json=bad)
        assert refused.status_code == 400
        assert refused.json()["error"]["code"] == "illegal_action"
        assert foreign in refused.json()["error"]["message"]
        outsider = server.register("checker")
        elsewhere = server.call("POST", f"/api/rooms/{room}/check", outsider, json=good)
        assert elsewhere.status_code == 403
        # nothing was played or stored: no action of the seat in the log, the seat still acts
        after = Store(str(server.db)).current_hand(room)
        assert after is not None and all(who != seat for who, _, _ in after.actions)
        await p.send({"type": "sync", "id": "s"})
        synced = await p.expect("state")
        assert seat in synced["view"]["to_act"] and synced["view"]["mine"] is None
        await p.close()

    asyncio.run(run())


def test_suggestions_need_a_seat_and_rooms_name_their_owner(server: Server) -> None:
    room, tokens = server.table("1301", 1, seats=4)
    outsider = server.register("outsider")
    refused = server.call("GET", f"/api/rooms/{room}/suggestions", outsider)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "not_seated"
    me = server.call("GET", "/api/players/me", tokens[0]).json()
    assert server.call("GET", f"/api/rooms/{room}").json()["owner"] == me["id"]


def test_a_sandaha_hand_plays_to_the_settlement_through_the_server(server: Server) -> None:
    """三打哈 with two scripted players and two bots: bidding, the kitty, trumps, 21 tricks."""

    async def run() -> int:
        room, tokens = server.table("sandaha", 2, seats=4, hands=1)
        oracle = Oracle(server.db)
        players = [Player(server, t, room, 7 + i, oracle) for i, t in enumerate(tokens)]
        for p in players:
            await p.connect()
        await asyncio.gather(*(p.play(timeout=120) for p in players))
        for p in players:
            await p.close()
        oracle.close()
        return room

    room = asyncio.run(run())
    (summary,) = server.call("GET", f"/api/games?room={room}").json()
    record = server.call("GET", f"/api/games/{summary['id']}").json()
    rec = read_record(
        {
            **record,
            "actions": [{"seat": a["seat"], "action": a["action"]} for a in record["actions"]],
        }
    )
    final = list(replay(rec))[-1]
    assert final.is_over and final.phase == "over"
    assert list(final.settlement()) == record["settlement"]
    assert sum(record["settlement"]) == 0 and any(record["settlement"])
    kinds = {a["action"]["type"] for a in record["actions"]}
    assert {"bury", "name_trump", "play"} <= kinds
    assert sum(1 for a in record["actions"] if a["action"]["type"] == "play") >= 21 * 4 // 2
    verified = server.call("GET", f"/api/games/{summary['id']}/verify").json()
    assert verified["ok"] is True
