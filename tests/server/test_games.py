"""Full games through a real server process, played by scripted WebSocket clients.

Issue #5: "Full games of several codes played by scripted WebSocket clients through the
server; results equal an in-process replay" and "Every message sent to a seat, over many
random games, is checked to contain no other seat's hidden cards."
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import (
    FAMILY_CODES,
    GAME_CODES,
    LAUNCH,
    Oracle,
    Player,
    Server,
    check_messages,
    rebuild,
)

from paiju.fairness import commitment
from paiju.games import read_record, replay
from paiju.server.messages import SERVER_MESSAGES
from paiju.server.store import Store


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("games")).start()
    yield srv
    srv.stop()


async def _play_room(
    server: Server, code: str, humans: int, seed: int, **options: object
) -> tuple[int, list[Player]]:
    room, tokens = server.table(code, humans, **options)  # type: ignore[arg-type]
    oracle = Oracle(server.db)
    players = [Player(server, t, room, seed * 10 + i, oracle) for i, t in enumerate(tokens)]
    spectator = Player(server, server.register("watcher"), room)
    for p in players:
        await p.connect()
    await spectator.connect()
    # (a bound, not a measure: a hand with its bots on a busy 2-core machine may take minutes)
    await asyncio.gather(*(p.play(timeout=240) for p in players))
    await spectator.expect("hand_over", room_finished=True)
    for p in [*players, spectator]:
        await p.close()
    oracle.close()
    return room, [*players, spectator]


@pytest.mark.parametrize("code", GAME_CODES)
def test_full_games_equal_in_process_replay(server: Server, code: str) -> None:
    """Every seat human (scripted): the hands the server settled replay to the same result."""
    room, clients = asyncio.run(_play_room(server, code, humans=2, seed=1, seats=2, hands=2))
    *players, spectator = clients
    games = server.call("GET", f"/api/games?room={room}").json()
    assert len(games) == 2
    store = Store(str(server.db))
    for summary in games:
        record = server.call("GET", f"/api/games/{summary['id']}").json()
        assert commitment(record["seed"]) == record["commitment"]
        rec = read_record(
            {
                **record,
                "actions": [{"seat": a["seat"], "action": a["action"]} for a in record["actions"]],
            }
        )
        states = list(replay(rec))
        final = states[-1]
        assert final.is_over
        assert list(final.settlement()) == record["settlement"]
        # what each seat was told at the end of the hand is the replay's final view
        for p in players:
            ends = [
                m for m in p.messages if m["type"] == "hand_over" and m["game"] == summary["id"]
            ]
            assert ends and ends[0]["scores"] == record["settlement"]
            assert ends[0]["seed"] == record["seed"]
            last = [m for m in p.messages if m["type"] == "update" and m["game"] == summary["id"]][
                -1
            ]
            assert last["version"] == len(record["actions"])
            assert last["view"] == json.loads(json.dumps(final.view(p.seat)))
        # the spectator's views are the spectator's view, never a seat's
        spect = [
            m for m in spectator.messages if m["type"] == "update" and m["game"] == summary["id"]
        ]
        assert spect and all(m["view"]["seat"] is None for m in spect)
        assert all(m.get("legal") is None for m in spect)
        # the ledger holds the settlement times the stake, with running balances
        assert [e["delta"] for e in record["ledger"]] == record["settlement"]
    for p in clients:
        checked, problems = check_messages(store, p)
        assert problems == []
        assert checked > 0
    store.close()
    # every message is the documented model (docs/protocol.md), field for field: the
    # server writes its hot messages as JSON text itself, not through these models
    models = {m.model_fields["type"].default: m for m in SERVER_MESSAGES}
    kinds = set()
    for p in clients:
        for m in p.messages:
            models[m["type"]].model_validate(m)
            assert list(m) == list(models[m["type"]].model_fields), m["type"]
            kinds.add(m["type"])
    assert {"welcome", "hand_started", "state", "update", "hand_over"} <= kinds


def test_no_message_leaks_a_hidden_card_over_many_games(server: Server) -> None:
    """Random games of every code: each state/update message of every seat is replayed and
    scanned for cards that seat may not see (the harness's leak rule, over the wire)."""

    async def run() -> list[Player]:
        clients: list[Player] = []
        for code in GAME_CODES:
            for seed in range(2):
                _, played = await _play_room(server, code, humans=2, seed=100 + seed, seats=3)
                clients.extend(played)
        return clients

    clients = asyncio.run(run())
    store = Store(str(server.db))
    total = 0
    for p in clients:
        checked, problems = check_messages(store, p)
        assert problems == []
        total += checked
    store.close()
    assert total > 50


@pytest.mark.parametrize("family", sorted(FAMILY_CODES))
def test_no_message_of_any_family_leaks_a_hidden_card(server: Server, family: str) -> None:
    """One hand of every family at its usual table (two scripted seats, bots, a spectator):
    every state/update each seat and the spectator got is replayed and scanned for cards or
    tiles it may not see, and its view must be the replay's view for that seat."""
    code = FAMILY_CODES[family]
    _, clients = asyncio.run(_play_room(server, code, humans=2, seed=7, hands=1))
    store = Store(str(server.db))
    for p in clients:
        checked, problems = check_messages(store, p)
        assert checked and problems == [], (code, p.seat, problems)
    store.close()


def test_verify_command_and_rest_prove_each_game(server: Server) -> None:
    """`paiju verify GAME_ID` (and GET /api/games/{id}/verify) re-deal from the revealed
    seed and check it against the commitment and the log."""
    asyncio.run(_play_room(server, "toy", humans=1, seed=7, seats=2, hands=1))
    game_id = server.call("GET", "/api/games").json()[0]["id"]
    result = server.call("GET", f"/api/games/{game_id}/verify", None).json()
    assert result["ok"] is True
    record = server.call("GET", f"/api/games/{game_id}", None).json()
    steps = server.call("GET", f"/api/games/{game_id}/replay?seat=0", None).json()["steps"]
    assert len(steps) == len(record["actions"]) + 1
    assert [s["action"] for s in steps[1:]] == [a["action"] for a in record["actions"]]
    assert steps[-1]["view"]["seat"] == 0 and steps[-1]["view"]["to_act"] == []
    assert server.call("GET", f"/api/games/{game_id}/replay?seat=9", None).status_code == 400
    assert [c["name"] for c in result["checks"]] == [
        "commitment",
        "deal",
        "log",
        "settlement",
        "ledger",
    ]
    out = subprocess.run(
        [
            sys.executable,
            str(LAUNCH),
            "verify",
            str(game_id),
            "--url",
            server.base,
            "--token",
            server.viewer,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "verifies" in out.stdout
    local = subprocess.run(
        [sys.executable, str(LAUNCH), "verify", str(game_id), "--db", str(server.db), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert local.returncode == 0, local.stderr
    missing = subprocess.run(
        [sys.executable, str(LAUNCH), "verify", "999999", "--db", str(server.db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 2
    assert "no game 999999" in missing.stderr


def test_a_game_in_play_keeps_its_seed_secret(server: Server, tmp_path: Path) -> None:
    """The seed is revealed when the hand ends, not before."""

    async def run() -> None:
        room, tokens = server.table("toy", 2, seats=2)
        p = Player(server, tokens[0], room)
        await p.connect()
        started = await p.expect("hand_started")
        answer = server.call("GET", f"/api/games/{started['game']}")
        assert answer.status_code == 409
        assert answer.json()["error"]["code"] == "in_play"
        store = Store(str(server.db))
        hand = store.hand(started["game"])
        assert hand is not None and commitment(hand.seed) == started["commitment"]
        assert rebuild(hand).seed == hand.seed
        store.close()
        await p.close()

    asyncio.run(run())


def test_a_finished_hands_review_is_served_off_the_loop_and_kept(server: Server) -> None:
    """复盘 over REST: the seat's decisions valued by the search; made once, then kept; a
    seat out of range, a game that does not exist, are refused."""
    asyncio.run(_play_room(server, "anshan-fangyang", humans=1, seed=11, seats=4, hands=1))
    game_id = next(
        g["id"] for g in server.call("GET", "/api/games").json() if g["code"] == "anshan-fangyang"
    )
    # (a review is seconds of one core's work: a busy machine may take a minute)
    first = server.call("GET", f"/api/games/{game_id}/review?seat=0", None, timeout=180)
    assert first.status_code == 200, first.text
    found = first.json()
    assert found["seat"] == 0 and found["reviewed"] == len(found["decisions"]) > 0
    for d in found["decisions"]:
        assert d["value_best"] >= d["value_played"] - 1e-9 and d["loss"] >= 0
    again = server.call("GET", f"/api/games/{game_id}/review?seat=0", None)
    assert again.content == first.content, "kept once made"
    assert server.call("GET", f"/api/games/{game_id}/review?seat=99", None).status_code == 422
    missing = server.call("GET", "/api/games/999999/review?seat=0", None)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_game"
