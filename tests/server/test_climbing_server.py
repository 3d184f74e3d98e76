"""鞍山甲乙丙 and 鞍山放羊 through a real server process and the lobby's REST calls.

Both games are opened as the lobby opens them (room options and the game's own options),
played to the end of a match by scripted WebSocket clients (the legal lists the server
sends) with a spectator watching, and checked: every message replays and names no card
its receiver may not see (the called card's holder included), the settlements sum to
zero and chain through the context (the next deal's leader or banker), a reconnecting
seat gets its full view back, and the check call names a refused play's rule."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import FAST, Player, Server, check_messages, rebuild

from paiju.games import read_record, replay
from paiju.server.store import Store

CODES = {"anshan-jiayibing": 6, "anshan-fangyang": 4}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("climbing")).start()
    yield srv
    srv.stop()


def open_room(
    server: Server, token: str, code: str, game_options: dict[str, Any], **options: Any
) -> int:
    """A room as the lobby's form opens it: ``options`` and the game's ``game_options``."""
    body = {
        "code": code,
        # bots a little paced: a scripted seat answering at once stays under the server's
        # message rate limit (20 a second) however fast the bots play around it
        "options": {**FAST, "seats": CODES[code], "bot_delay": 0.05, **options},
        "game_options": game_options,
        "seat": 0,
    }
    answer = server.call("POST", "/api/rooms", token, json=body)
    assert answer.status_code == 201, answer.text
    room: int = answer.json()["room"]["id"]
    return room


def records(server: Server, room: int) -> list[dict[str, Any]]:
    games = server.call("GET", f"/api/games?room={room}").json()
    return [server.call("GET", f"/api/games/{g['id']}").json() for g in reversed(games)]


def replayed(record: dict[str, Any]) -> list[Any]:
    actions = [{"seat": a["seat"], "action": a["action"]} for a in record["actions"]]
    return list(replay(read_record({**record, "actions": actions})))


def test_the_lobby_lists_both_games_as_playable_with_their_options(server: Server) -> None:
    """The catalogue the lobby reads: both codes playable, their params with the reading's
    defaults (J6-J12, F3-F4); a bad game option is refused with a clear error."""
    for code in CODES:
        entry = server.call("GET", f"/api/catalog/{code}").json()
        assert entry["playable"] is True, entry
    jyb = server.call("GET", "/api/catalog/anshan-jiayibing").json()["params"]
    assert (jyb["payout"], jyb["special3"], jyb["quads_beat_all"]) == (
        "first-team",
        "instance",
        False,
    )
    fy = server.call("GET", "/api/catalog/anshan-fangyang").json()["params"]
    assert (fy["call_max"], fy["next_banker"]) == ("A", "first-finisher")
    token = server.register("lobby")
    body = {
        "code": "anshan-fangyang",
        "options": {**FAST, "seats": 4, "bots": 3},
        "game_options": {"call_max": "2"},
        "seat": 0,
    }
    answer = server.call("POST", "/api/rooms", token, json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "illegal_action"
    assert "call_max" in error["message"]


@pytest.mark.parametrize(
    ("code", "game_options"),
    [
        ("anshan-jiayibing", {"payout": "team-out", "base": 2}),
        ("anshan-fangyang", {"call_max": "K", "base": 2}),
    ],
)
def test_a_match_plays_through_the_server_and_hides_every_hidden_card(
    server: Server, code: str, game_options: dict[str, Any]
) -> None:
    """A human (scripted) at seat 0 and one who joins (放羊) or bots (甲乙丙) in the other
    seats, a spectator: two deals of a room to the end. Every message of every client
    replays and shows no hidden card; the room's game options are the record's; each
    settlement sums to zero and equals the replay; the second deal is led (甲乙丙, J9) or
    banked (放羊, F3) by the first deal's 头游."""

    async def run() -> list[Player]:
        humans = 2 if code == "anshan-fangyang" else 1  # six seats' replays cost more
        tokens = [server.register(f"{code}-{i}") for i in range(humans)]
        room = open_room(server, tokens[0], code, game_options, bots=CODES[code] - humans, hands=2)
        for t in tokens[1:]:
            answer = server.call("POST", f"/api/rooms/{room}/join", t, json={})
            assert answer.status_code == 200, answer.text
        players = [Player(server, t, room, seed=7 + i) for i, t in enumerate(tokens)]
        spectator = Player(server, server.register(f"{code}-watch"), room)
        for p in players:
            await p.connect()
        await spectator.connect()
        await asyncio.gather(*(p.play(timeout=90) for p in players))
        await spectator.expect("hand_over", room_finished=True)
        for p in [*players, spectator]:
            await p.close()
        return [*players, spectator]

    clients = asyncio.run(run())
    *players, spectator = clients
    room = players[0].room
    hands = records(server, room)
    assert len(hands) == 2
    finals = []
    for record in hands:
        assert record["options"] == {**record["options"], **game_options}
        states = replayed(record)
        final = states[-1]
        assert final.is_over
        assert list(final.settlement()) == record["settlement"]
        assert sum(record["settlement"]) == 0
        finals.append(final)
    head = finals[0].finished[0]
    if code == "anshan-jiayibing":
        assert replayed(hands[1])[0].view(None)["leader"] == head  # J9
    else:
        assert replayed(hands[1])[0].view(None)["banker"] == head  # F3
    store = Store(str(server.db))
    for p in clients:
        checked, problems = check_messages(store, p)
        assert problems == []
        assert checked > 10
    store.close()
    seen = [m for m in spectator.messages if m["type"] in ("state", "update")]
    playing = [m["view"] for m in seen if m["view"]["phase"] != "over"]
    assert playing and all(v["hand"] is None for v in playing)
    assert all(h is None for v in playing for h in v["hands"])
    assert all(m.get("legal") is None for m in seen)


def test_fangyang_called_card_holder_stays_secret_until_played(server: Server) -> None:
    """F16: under 不亮 only the holder of the called card knows it until it is played: no
    other seat's or the spectator's message names the partner or the mode before then.

    rule (004): "当有抓到庄家要的牌的玩家把那张牌没打出来的时候,也就是还没分出来谁和谁一伙的
    时候" """

    async def run() -> list[Player]:
        tokens = [server.register(f"secret-{i}") for i in range(4)]
        room = open_room(server, tokens[0], "anshan-fangyang", {}, bots=0, hands=1)
        for t in tokens[1:]:
            answer = server.call("POST", f"/api/rooms/{room}/join", t, json={})
            assert answer.status_code == 200, answer.text
        players = [Player(server, t, room, seed=40 + i) for i, t in enumerate(tokens)]
        for p in players:
            await p.connect()
        # the scripted banker calls without 亮
        await asyncio.gather(*(_play_unshown(p) for p in players))
        for p in players:
            await p.close()
        return players

    players = asyncio.run(run())
    (record,) = records(server, players[0].room)
    states = replayed(record)
    called = next(s for s in states if s.phase == "playing")
    assert not called.shown
    holder = called.partner
    # the first state in which the called card has been played (or the deal's end)
    revealed_at = next((i for i, s in enumerate(states) if s.revealed), len(states) - 1)
    secret = 0
    for p in players:
        for m in p.messages:
            if m["type"] not in ("state", "update") or m["version"] >= revealed_at:
                continue
            if p.seat != holder:
                assert m["view"]["partner"] is None, (p.seat, m["version"])
                assert m["view"]["mode"] is None, (p.seat, m["version"])
                secret += 1
            elif m["view"]["phase"] == "playing":
                assert m["view"]["partner"] == holder  # the holder knows (F16)
    assert secret > 0
    store = Store(str(server.db))
    for p in players:
        assert check_messages(store, p)[1] == []
    store.close()


async def _play_unshown(p: Player) -> None:
    """Play the seat from the legal list, calling only without 亮 (shown false)."""
    while True:
        msg = await p.next(timeout=60)
        if msg.get("ref") is not None and msg.get("ref") == p.pending:
            p.pending = None
        if msg["type"] == "hand_over" and msg["room_finished"]:
            return
        if msg["type"] not in ("state", "update") or p.pending is not None:
            continue
        if p.seat not in msg["view"]["to_act"] or not msg.get("legal"):
            continue
        legal = [a for a in msg["legal"] if not a.get("shown")]
        action = p.rng.choice(legal)
        p.sent += 1
        p.pending = p.sent
        await p.send({"type": "action", "action": action, "id": p.sent, "game": msg["game"]})


def test_reconnect_mid_deal_gives_back_the_full_view(server: Server) -> None:
    """A seat that drops mid-deal and comes back gets the state of its own seat (its hand
    included), equal to the replay at that version, and plays the deal to its end."""

    async def run() -> None:
        token = server.register("again")
        room = open_room(server, token, "anshan-jiayibing", {}, bots=5, hands=1)
        me = Player(server, token, room, seed=3)
        await me.connect()
        await me.play(stop_after=2)
        await me.close()
        back = Player(server, token, room, seed=4)
        await back.connect(how="hello")
        state = await back.expect("state")
        store = Store(str(server.db))
        hand = store.hand(state["game"])
        assert hand is not None
        assert state["view"] == json.loads(json.dumps(rebuild(hand, state["version"]).view(0)))
        assert state["view"]["hand"] == state["view"]["hands"][0]
        store.close()
        if 0 in state["view"]["to_act"]:
            assert state["legal"], "the legal plays come with the state"
        await back.play()
        await back.close()

    asyncio.run(run())


def test_the_check_call_names_the_rule_a_refused_play_breaks(server: Server) -> None:
    """The check call answers a refused play with the engine's reason and parameters (for
    the table to render in the player's language) and plays nothing; a legal play passes.

    rule (004): "【牌型】单张,对,三同张,四同张" - two ranks at once is no combination;
    "后一家打出的牌必须比前一家打出的牌大" - a lower play does not beat the table."""

    async def run() -> None:
        token = server.register("checker")
        room = open_room(server, token, "anshan-jiayibing", {}, bots=5, hands=1)
        me = Player(server, token, room, seed=5)
        await me.connect()
        msg = await me.expect("state")
        while 0 not in msg["view"]["to_act"]:
            msg = await me.expect("update", timeout=20)
        view = msg["view"]
        hand = view["hand"].split()
        ranks = sorted({c[0] for c in hand if c not in ("BJ", "RJ")})
        two = [next(c for c in hand if c[0] == r) for r in ranks[:2]]
        bad = {"type": "play", "cards": " ".join(two)}
        answer = server.call("POST", f"/api/rooms/{room}/check", token, json=bad)
        assert answer.status_code == 400, answer.text
        error = answer.json()["error"]
        assert error["code"] == "illegal_action"
        assert error["reason"] == "not_a_combination"
        assert sorted(error["params"]["cards"].split()) == sorted(two)
        good = msg["legal"][-1]
        answer = server.call("POST", f"/api/rooms/{room}/check", token, json=good)
        assert answer.status_code == 200, answer.text
        if view["table"] is None:
            answer = server.call("POST", f"/api/rooms/{room}/check", token, json={"type": "pass"})
            assert answer.json()["error"]["reason"] == "must_lead"
        store = Store(str(server.db))
        current = store.current_hand(room)
        assert current is not None and len(current.actions) == msg["version"]
        store.close()
        await me.play()
        await me.close()

    asyncio.run(run())
