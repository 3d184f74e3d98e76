"""The store, the runtime's storage rule and the fairness proof, in process.

Issue #5: "every accepted action is appended to the game's event log in the database, in
a transaction, before it is acknowledged or broadcast. Settlements go to the ledger in the
same transaction as the action that ends the hand." "Fair deals: before each hand the
server publishes sha256 of the hand's seed ...; `paiju verify GAME_ID` ... re-deals from
the revealed seed and checks it against the commitment and the log."
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from hypothesis import given, settings
from hypothesis import strategies as st
from socket_stub import SocketStub

from paiju.fairness import commitment
from paiju.server.client import Client
from paiju.server.hub import Hub
from paiju.server.inbox import handle
from paiju.server.options import Limits, RoomOptions
from paiju.server.rows import ActionWrite, HandEnding, HandWrite
from paiju.server.store import Store
from paiju.server.tables import metadata
from paiju.server.verify import game_record, verify_game

FAST = RoomOptions(time_limit=0, bot_delay=0, pause=0, seed_wait=0)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The ``--db`` of a fresh database: a SQLite file, or a new PostgreSQL database on the
    session's throwaway server (``postgres_db``; skipped where PostgreSQL is missing)."""
    if request.param == "sqlite":
        return str(tmp_path / "store.db")
    dsn: str = request.getfixturevalue("postgres_db")
    return dsn


def test_alembic_migrations_build_exactly_the_declared_schema(db: str) -> None:
    store = Store(db)
    with store.engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), metadata)
    store.close()
    assert diffs == []


def test_a_failed_settlement_stores_neither_the_action_nor_the_ledger(db: str) -> None:
    """The last action and its settlement commit together or not at all."""
    store = Store(db)
    player, _ = store.create_player("ann")
    room = store.create_room("toy", {}, {}, 2, player.id, [False, True])
    hand = store.start_hand(room, 1, "toy", {}, (player.id, None), "c" * 64, "s", {}, {})
    store.append_action(hand, 0, 0, {"type": "stake", "amount": 1}, "player")
    broken = HandEnding(
        room_id=room,
        scores=(1, -1),
        deltas=(1,),  # one delta for two seats: the ledger write fails half-way
        players=(player.id, None),
        hands_played=1,
        context={},
        room_finished=True,
    )
    with pytest.raises(ValueError):
        store.append_action(hand, 1, 1, {"type": "stake", "amount": 1}, "bot", broken)
    row = store.hand(hand)
    assert row is not None
    assert len(row.actions) == 1 and row.status == "playing"
    assert store.ledger(player.id) == []
    after = store.room(room)
    assert after is not None
    assert (after.status, after.hands_played) == ("playing", 0)
    store.close()


async def _play_in_process(store: Store, seed: int, stake: int = 1) -> int:
    """One toy hand against a bot through the runtime; returns the game id."""
    hub = Hub(store, Limits(min_bot_delay=0))
    player, _ = store.create_player(f"p{seed}")
    options = FAST.model_copy(update={"seats": 2, "bots": 1, "hands": 1, "stake": stake})
    room = await hub.create_room(player, "toy", options, {}, 0)
    sock = SocketStub()
    client = Client(player, sock.send_text, hub.limits, sock.close)
    writer = asyncio.create_task(client.writer())
    room.attach(client)
    for _ in range(20):
        await asyncio.sleep(0.01)
        legal = room.legal(0)
        if legal:
            handle(room, client, json.dumps({"type": "action", "action": legal[seed % len(legal)]}))
        if room.status == "finished":
            break
    client.close(1000, "bye")
    await writer
    assert room.status == "finished"
    hub.shutdown()
    return room.hand_id


def _record(store: Store, game_id: int, stake: int = 1) -> dict[str, Any]:
    hand = store.hand(game_id)
    assert hand is not None
    return game_record(hand, store.ledger_of_hand(game_id), stake)


def test_storage_failure_leaves_the_table_where_it_was(db: str) -> None:
    """An action the database refuses is not applied, not broadcast, and the client is told."""
    store = Store(db)

    async def run() -> None:
        hub = Hub(store, Limits(min_bot_delay=0))
        player, _ = store.create_player("ann")
        options = FAST.model_copy(update={"seats": 2, "bots": 1})
        room = await hub.create_room(player, "toy", options, {}, 0)
        await asyncio.sleep(0.05)  # the bot stakes
        sock = SocketStub()
        client = Client(player, sock.send_text, hub.limits, sock.close)
        writer = asyncio.create_task(client.writer())
        room.attach(client)
        assert room.state is not None
        version, view = len(room.state.history), room.state.view(0)

        def refuse(*args: Any, **kwargs: Any) -> None:
            raise OSError("disk full")

        store.append_actions = refuse  # type: ignore[method-assign]
        handle(
            room, client, json.dumps({"type": "action", "action": {"type": "stake", "amount": 2}})
        )
        # the refused write, then the room's stored hand read back in the writer thread (the
        # room holds the action in memory until that read lands), then the error's frame
        await asyncio.sleep(0.05)
        await room.settled()
        for _ in range(100):
            errors = [m for m in sock.sent if m.get("type") == "error"]
            if errors:
                break
            await asyncio.sleep(0.05)
        assert [e["code"] for e in errors] == ["storage_failure"]
        assert not [m for m in sock.sent if m.get("type") == "update" and m["seat"] == 0]
        assert len(room.state.history) == version
        assert room.state.view(0) == view
        client.close(1000, "bye")
        await writer
        hub.shutdown()

    asyncio.run(run())
    store.close()


def test_verify_accepts_an_honest_game_and_names_each_forgery(db: str) -> None:
    store = Store(db)
    game_id = asyncio.run(_play_in_process(store, 3, stake=4))
    honest = _record(store, game_id, stake=4)
    assert verify_game(honest)["ok"] is True

    def failed(record: dict[str, Any]) -> str:
        result = verify_game(record)
        assert result["ok"] is False
        return str(next(c["name"] for c in result["checks"] if not c["ok"]))

    other_seed = copy.deepcopy(honest)
    other_seed["seed"] = "0" * 64
    assert failed(other_seed) == "commitment"

    other_deal = copy.deepcopy(honest)  # a consistent seed/commitment pair, another deal
    other_deal["seed"], other_deal["commitment"] = "forged", commitment("forged")
    assert failed(other_deal) == "deal"

    bad_log = copy.deepcopy(honest)
    bad_log["actions"][0]["action"] = {"type": "stake", "amount": 99}
    assert failed(bad_log) == "log"

    short_log = copy.deepcopy(honest)
    short_log["actions"] = short_log["actions"][:-1]
    assert failed(short_log) == "log"

    bad_score = copy.deepcopy(honest)
    bad_score["settlement"] = [
        x + (1 if i == 0 else -1) for i, x in enumerate(bad_score["settlement"])
    ]
    assert failed(bad_score) == "settlement"

    bad_ledger = copy.deepcopy(honest)
    bad_ledger["ledger"][0]["delta"] += 4
    assert failed(bad_ledger) == "ledger"
    store.close()


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_every_served_toy_hand_verifies(seed: int) -> None:
    store = Store(":memory:")
    game_id = asyncio.run(_play_in_process(store, seed))
    record = _record(store, game_id)
    assert verify_game(record)["ok"] is True
    assert commitment(record["seed"]) == record["commitment"]
    store.close()


def _store_and_read(folder: Path, db: str | None = None) -> tuple[Any, ...]:
    """A hand stored, played and settled through one database's path (SQLite's, or that of
    the database ``db``); what reads back."""
    store = Store(db if db is not None else str(folder / "paths.db"))
    assert store._qmark is (db is None)
    ann, _ = store.create_player("ann")
    bob, _ = store.create_player("鲍勃")
    room = store.create_room("toy", {"stake": 3}, {}, 3, ann.id, [False, False, True])
    first = store.start_hand(room, 1, "toy", {}, (ann.id, bob.id, None), "c" * 64, "s", {}, {})
    action = {"type": "play", "card": "As", "note": "大王 RJ", "n": [1, 2]}
    store.append_action(first, 0, 1, action, "bot")
    ending = HandEnding(room, (2, -1, -1), (6, -3, -3), (ann.id, bob.id, None), 1, {"b": 2}, False)
    second = store.new_hand_id()
    store.append_actions(
        [
            ActionWrite(first, 1, 0, {"type": "stop"}, "player", ending),
            HandWrite(
                second,
                room,
                2,
                "toy",
                {},
                (ann.id, bob.id, None),
                "d" * 64,
                "t",
                {"hands": ["As Kd", "2c"]},
                {"b": 2},
                record_format=2,
            ),
        ]
    )
    ending2 = HandEnding(room, (-1, 2, -1), (-3, 6, -3), (ann.id, bob.id, None), 2, {}, True)
    store.append_actions([ActionWrite(second, 0, 2, {"type": "stop"}, "timeout", ending2)])
    # two rooms' hands end in one batch, the same players at both: the running balances
    # count them in the batch's order, and each room has its own progress
    others = [store.create_room("toy", {}, {}, 2, ann.id, [False, False]) for _ in range(2)]
    dealt = [
        store.start_hand(r, 1, "toy", {}, (ann.id, bob.id), "e" * 64, "u", {}, {}) for r in others
    ]
    ends = [
        HandEnding(others[0], (1, -1), (1, -1), (ann.id, bob.id), 1, {}, False),
        HandEnding(others[1], (-1, 1), (-2, 2), (ann.id, bob.id), 1, {"c": 1}, True),
    ]
    store.append_actions(
        [
            ActionWrite(h, 0, k, {"type": "stop"}, "player", e)
            for k, (h, e) in enumerate(zip(dealt, ends, strict=True))
        ]
    )
    hands = [store.hand(h) for h in (first, second, *dealt)]
    out = (
        [
            None
            if h is None
            else (h.status, h.settlement, h.actions, h.deal, h.players, h.record_format)
            for h in hands
        ],
        [store.ledger_of_hand(h) for h in (first, second, *dealt)],
        [(e["delta"], e["balance"]) for e in store.ledger(ann.id)],
        store.balance(bob.id),
        [
            dataclasses.replace(row, invite=None) if (row := store.room(r)) else None
            for r in (room, *others)
        ],
    )  # (the invite code is random: no path stores the same)
    store.close()
    return out


def test_the_sqlite_path_stores_hands_logs_settlements_and_the_ledger(tmp_path: Path) -> None:
    """SQLite's path (prepared statements, executemany) stores hands, action logs,
    settlements, the ledger with its running balances and the room's progress as they
    were played; PostgreSQL's (arrays, one statement a table) reads back the same (below)."""
    hands, ledgers, ann_ledger, bob_balance, rooms = _store_and_read(tmp_path)
    assert hands[0][0] == "over" and hands[0][1] == (2, -1, -1)
    assert hands[0][2][0] == (
        1,
        {"type": "play", "card": "As", "note": "大王 RJ", "n": [1, 2]},
        "bot",
    )
    assert hands[1][3] == {"hands": ["As Kd", "2c"]}
    assert (hands[0][5], hands[1][5]) == (1, 2)  # the format: start_hand's default, and 2
    assert [e["delta"] for e in ledgers[0]] == [6, -3, -3]
    assert sorted(ann_ledger) == sorted([(6, 6), (-3, 3), (1, 4), (-2, 2)])
    assert bob_balance == 3 - 1 + 2
    assert [(r.status, r.hands_played, r.context) for r in rooms if r is not None] == [
        ("finished", 2, {}),
        ("playing", 1, {}),
        ("finished", 1, {"c": 1}),
    ]


def test_postgresql_stores_the_same_hands_as_sqlite(tmp_path: Path, postgres_db: str) -> None:
    """PostgreSQL (the portable path, psycopg 3, JSON columns, serial ids) reads back the
    same hands, logs, settlements, ledger and room progress as SQLite's fast path."""
    store = Store(postgres_db)
    assert store.engine.dialect.name == "postgresql" and store.engine.driver == "psycopg"
    assert store._qmark is False
    store.close()
    assert _store_and_read(tmp_path, postgres_db) == _store_and_read(tmp_path)
