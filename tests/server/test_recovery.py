"""Crash recovery with a real server process and ``kill -9``:

"kill -9 of the server in the middle of many games, then a restart, resumes every
unfinished table exactly where it was (same views, same timers restarted, same ledger)."
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from server_helpers import GAME_CODES, Oracle, Player, Server

from paiju.server.store import Store

TIME_LIMIT = 120.0


async def _snapshot(players: list[Player]) -> dict[tuple[int, str], dict[str, Any]]:
    """Every seat's full state, asked with ``sync``."""
    out = {}
    for p in players:
        await p.send({"type": "sync", "id": "snap"})
        msg = await p.expect("state", ref="snap")
        out[(p.room, p.token)] = msg
    return out


def _same(before: dict[str, Any], after: dict[str, Any]) -> None:
    assert after["game"] == before["game"]
    assert after["version"] == before["version"]
    assert after["view"] == before["view"]
    assert after["legal"] == before["legal"]
    assert after["control"] == before["control"]
    # the timers of the seats to act are restarted: same seats, same limit
    assert [t["seat"] for t in after["timers"]] == [t["seat"] for t in before["timers"]]
    assert all(t["limit"] == TIME_LIMIT for t in after["timers"])
    assert all(0 < t["remaining"] <= TIME_LIMIT for t in after["timers"])


def _updates_seen(count: int) -> Callable[[dict[str, Any]], bool]:
    """A stop rule: true once this client has been sent ``count`` updates (every seat of a
    room is sent every update, so a room's clients stop at the same place)."""
    seen = [0]

    def rule(msg: dict[str, Any]) -> bool:
        seen[0] += msg["type"] == "update"
        return seen[0] >= count

    return rule


def test_kill_9_mid_games_then_restart_resumes_every_table(tmp_path: Path) -> None:
    server = Server(tmp_path).start()
    options = {"time_limit": TIME_LIMIT, "reconnect_grace": TIME_LIMIT, "tuoguan": "both"}
    tables: list[tuple[int, list[str], int]] = []
    for code in GAME_CODES:
        for partway in (1, 3):
            room, tokens = server.table(code, 2, seats=2, hands=4, **options)
            tables.append((room, tokens, partway))
    all_tokens = [t for _, tokens, _ in tables for t in tokens]

    async def reconnect(seed: int) -> list[Player]:
        oracle = Oracle(server.db)
        players = [
            Player(server, t, room, seed=seed + i, oracle=oracle)
            for room, tokens, _ in tables
            for i, t in enumerate(tokens)
        ]
        for p in players:
            await p.connect()
        return players

    async def first_half() -> tuple[dict[tuple[int, str], dict[str, Any]], list[int]]:
        players = await reconnect(0)
        stops = [partway for _, tokens, partway in tables for _ in tokens]
        await asyncio.gather(
            *(p.play(until=_updates_seen(s)) for p, s in zip(players, stops, strict=True))
        )
        finished = [m["game"] for p in players for m in p.messages if m["type"] == "hand_over"]
        for p in players:
            await p.close()
        # every seat is human and the timers are long: nothing moves now; look again
        again = await reconnect(100)
        snap = await _snapshot(again)
        for p in again:
            await p.close()
        return snap, finished

    before, finished_before = asyncio.run(first_half())
    ledgers_before = {t: server.call("GET", "/api/players/me/ledger", t).json() for t in all_tokens}
    assert any(lg["entries"] for lg in ledgers_before.values()), "no hand was settled before"
    store = Store(str(server.db))
    actions_before = store.count_actions()
    store.close()

    server.kill9()
    server.start()

    async def second_half() -> None:
        players = await reconnect(50)
        after = await _snapshot(players)
        assert after.keys() == before.keys()
        for key, msg in before.items():
            _same(msg, after[key])
        for token in all_tokens:
            assert (
                server.call("GET", "/api/players/me/ledger", token).json() == ledgers_before[token]
            )
        await asyncio.gather(*(p.play(timeout=90) for p in players))
        for p in players:
            await p.close()

    try:
        asyncio.run(second_half())
        store = Store(str(server.db))
        assert store.count_actions() > actions_before, "the games went on after the restart"
        store.close()
        for room, _, _ in tables:
            games = server.call("GET", f"/api/games?room={room}").json()
            assert games, f"room {room} settled nothing"
            for g in games:
                assert server.call("GET", f"/api/games/{g['id']}/verify").json()["ok"] is True
        assert set(finished_before) <= {
            g["id"]
            for room, _, _ in tables
            for g in server.call("GET", f"/api/games?room={room}").json()
        }
    finally:
        server.stop()
