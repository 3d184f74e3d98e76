"""A finished hand's replay and proof, and the solver's suggestions, are worked out off the
event loop in a bounded pool (``paiju.server.heavy``): a finished hand's answer is made
once and kept, one client past its rate gets 429 ``too_many_requests`` with
``Retry-After``, and a full pool answers 503 ``server_busy`` with ``Retry-After`` at once,
while the loop answers everything else.

DESIGN.md: "Heavy work a request can ask for (replays, proofs, suggestions, reviews,
reports) runs off the event loop in a bounded pool, is cached where it cannot change, and
is limited per client." The hand served is a stored 麻将 hand (tests/majiang/
format1_hands.json, as a server of record format 2 logs it); the app runs in this process.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from paiju.fairness import commitment
from paiju.games import read_record, replay
from paiju.server import app as app_module
from paiju.server.app import create_app
from paiju.server.options import Limits, RoomOptions
from paiju.server.rows import HandEnding
from paiju.server.store import Store

HANDS: list[dict[str, Any]] = json.loads(
    (Path(__file__).resolve().parents[1] / "majiang" / "format1_hands.json").read_text("utf-8")
)
OPTIONS = RoomOptions(seats=4, bots=3, time_limit=0, bot_delay=0, pause=0, seed_wait=0)


def _finished_hand(db: Path) -> int:
    """A finished 麻将 hand stored in ``db``; its id."""
    return stored_hand(db)[0]


def stored_hand(db: Path) -> tuple[int, int, str]:
    """A finished 麻将 hand stored in ``db`` with a player (老王) at seat 0: the hand's id,
    the player's and their bearer token."""
    hand = HANDS[0]
    record = list(replay(read_record(hand["record"])))[-1].record().to_json()
    store = Store(str(db))
    player, token = store.create_player("老王")
    players = (player.id, None, None, None)
    room = store.create_room(
        record["code"], OPTIONS.model_dump(), record["options"], 4, player.id, [False, *[True] * 3]
    )
    store.set_seat(room, 0, player.id, False)
    hand_id = store.start_hand(
        room,
        1,
        record["code"],
        record["options"],
        players,
        commitment(record["seed"]),
        record["seed"],
        hand["deal"],
        record["context"],
        record_format=2,
    )
    actions = record["actions"]
    for i, item in enumerate(actions):
        ending = None
        if i == len(actions) - 1:
            scores = tuple(hand["settlement"])
            ending = HandEnding(room, scores, scores, players, 1, {}, True)
        store.append_action(hand_id, i, item["seat"], item["action"], "bot", ending)
    store.close()
    return hand_id, player.id, token


def _serve(db: Path, limits: Limits, calls: Callable[[httpx.AsyncClient], Any]) -> Any:
    app = create_app(str(db), limits)

    async def run() -> Any:
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://paiju") as http,
        ):
            return await calls(http)

    return asyncio.run(run())


def test_a_finished_hands_replay_and_proof_are_made_off_the_loop_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "heavy.db"
    game_id = _finished_hand(db)
    threads: list[str] = []
    steps, proof = app_module.game_steps, app_module.verify_game

    def counted_steps(record: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
        threads.append(threading.current_thread().name)
        return steps(record, seat)

    def counted_proof(record: dict[str, Any]) -> dict[str, Any]:
        threads.append(threading.current_thread().name)
        return proof(record)

    monkeypatch.setattr(app_module, "game_steps", counted_steps)
    monkeypatch.setattr(app_module, "verify_game", counted_proof)

    async def calls(http: httpx.AsyncClient) -> list[httpx.Response]:
        return [
            await http.get(f"/api/games/{game_id}/replay"),
            await http.get(f"/api/games/{game_id}/replay"),
            await http.get(f"/api/games/{game_id}/replay?seat=1"),
            await http.get(f"/api/games/{game_id}/verify"),
            await http.get(f"/api/games/{game_id}/verify"),
        ]

    answers = _serve(db, Limits(min_bot_delay=0), calls)
    assert [a.status_code for a in answers] == [200] * 5
    first, again, seat_1, proved, proved_again = (a.json() for a in answers)
    assert first == again and first["seat"] is None and seat_1["seat"] == 1
    assert first["steps"][-1]["view"]["phase"] == "over"
    assert proved == proved_again and proved["ok"] is True
    # made once each (the spectator's replay, seat 1's, the proof), never on the loop
    assert len(threads) == 3
    assert all(name.startswith("paiju-heavy") for name in threads), threads


def test_one_client_past_its_rate_is_told_when_to_come_back(tmp_path: Path) -> None:
    db = tmp_path / "rate.db"
    game_id = _finished_hand(db)

    async def calls(http: httpx.AsyncClient) -> list[httpx.Response]:
        return [await http.get(f"/api/games/{game_id}/replay") for _ in range(3)]

    # one a minute, one at once: the second and third come too soon whatever the machine
    answers = _serve(db, Limits(min_bot_delay=0, heavy_per_minute=1), calls)
    assert [a.status_code for a in answers] == [200, 429, 429]
    refused = answers[1]
    error = refused.json()["error"]
    assert error["code"] == "too_many_requests" and error["params"]["retry_after"] == 60
    assert refused.headers["Retry-After"] == "60"
    assert error["text"]["zh"] and error["text"]["en"]


def test_a_full_pool_answers_503_at_once_and_the_loop_serves_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One thread, no queue: while it works on a proof, another replay is refused (503,
    ``Retry-After``) at once, the same proof asked again waits for the one being made,
    and the health check is answered."""
    db = tmp_path / "full.db"
    game_id = _finished_hand(db)
    started, release = threading.Event(), threading.Event()
    proofs: list[int] = []
    proof = app_module.verify_game

    def held_proof(record: dict[str, Any]) -> dict[str, Any]:
        proofs.append(1)
        started.set()
        release.wait()
        return proof(record)

    monkeypatch.setattr(app_module, "verify_game", held_proof)

    async def calls(http: httpx.AsyncClient) -> tuple[list[httpx.Response], httpx.Response]:
        first = asyncio.create_task(http.get(f"/api/games/{game_id}/verify"))
        await asyncio.to_thread(started.wait)
        same = asyncio.create_task(http.get(f"/api/games/{game_id}/verify"))
        busy = await http.get(f"/api/games/{game_id}/replay")
        health = await http.get("/api/health")
        release.set()
        return [await first, await same, busy], health

    limits = Limits(min_bot_delay=0, heavy_workers=1, heavy_queue=0, heavy_per_client=3)
    (first, same, busy), health = _serve(db, limits, calls)
    assert health.status_code == 200
    assert busy.status_code == 503, busy.text
    assert busy.json()["error"]["code"] == "server_busy"
    assert int(busy.headers["Retry-After"]) >= 1
    assert first.status_code == same.status_code == 200
    assert first.json() == same.json() and first.json()["ok"] is True
    assert len(proofs) == 1


def test_a_client_holds_at_most_its_share_of_the_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "share.db"
    game_id = _finished_hand(db)
    started, release = threading.Event(), threading.Event()
    proof = app_module.verify_game

    def held_proof(record: dict[str, Any]) -> dict[str, Any]:
        started.set()
        release.wait()
        return proof(record)

    monkeypatch.setattr(app_module, "verify_game", held_proof)

    async def calls(http: httpx.AsyncClient) -> list[httpx.Response]:
        first = asyncio.create_task(http.get(f"/api/games/{game_id}/verify"))
        await asyncio.to_thread(started.wait)
        second = await http.get(f"/api/games/{game_id}/replay")
        release.set()
        return [await first, second]

    limits = Limits(min_bot_delay=0, heavy_workers=2, heavy_per_client=1)
    first, second = _serve(db, limits, calls)
    assert first.status_code == 200
    assert second.status_code == 429 and second.json()["error"]["code"] == "too_many_requests"
    assert second.headers["Retry-After"] == "1"
