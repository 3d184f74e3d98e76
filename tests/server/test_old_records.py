"""麻将 hands stored before every window asked every other seat (record format 1) are still
served: their record says so (``format``), ``/verify`` and ``/replay`` replay them as
their engine played them, and a hand left in play is taken up again at start-up.

The hands are tests/majiang/format1_hands.json: hands played and logged by the engine
of format 1 (see tests/majiang/test_old_records.py), stored here as a server of that
format stored them (no ``record_format``: the column's default, 1).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from paiju.engine import Action, apply_log
from paiju.fairness import commitment
from paiju.games import game, read_record, replay
from paiju.server.app import create_app
from paiju.server.options import Limits, RoomOptions
from paiju.server.rows import HandEnding
from paiju.server.store import Store

HANDS: list[dict[str, Any]] = json.loads(
    (Path(__file__).resolve().parents[1] / "majiang" / "format1_hands.json").read_text("utf-8")
)
OPTIONS = RoomOptions(
    seats=4, bots=3, time_limit=0, bot_delay=0, pause=0, seed_wait=0, claim_window=60
)
"""The longest claim window: a hand taken up in a window waits there while the test's
socket connects, however slow the machine (the window would close and the bots play on)."""


def _store_hand(
    store: Store, hand: dict[str, Any], upto: int | None = None, record_format: int = 1
) -> tuple[int, int, str]:
    """A room of one human (seat 0) and three bots with the hand's first ``upto`` logged
    actions (all of them: the hand over); its room id, hand id and the human's token."""
    record = hand["record"]
    player, token = store.create_player("老王")
    players = (player.id, None, None, None)
    room = store.create_room(
        record["code"], OPTIONS.model_dump(), record["options"], 4, player.id, [False, *[True] * 3]
    )
    store.set_seat(room, 0, player.id, False)
    seed = record["seed"]
    hand_id = store.start_hand(
        room,
        1,
        record["code"],
        record["options"],
        players,
        commitment(seed),
        seed,
        hand["deal"],
        record["context"],
        record_format=record_format,
    )
    actions = record["actions"] if upto is None else record["actions"][:upto]
    for i, item in enumerate(actions):
        last = upto is None and i == len(actions) - 1
        ending = None
        if last:
            scores = tuple(hand["settlement"])
            ending = HandEnding(room, scores, scores, players, 1, {}, True)
        actor = "player" if item["seat"] == 0 else "bot"
        store.append_action(hand_id, i, item["seat"], item["action"], actor, ending)
    return room, hand_id, token


def _upgraded(hand: dict[str, Any]) -> dict[str, Any]:
    """The hand as a server of format 2 logs it: every decision of every window."""
    states = list(replay(read_record(hand["record"])))
    return {**hand, "record": states[-1].record().to_json()}


def test_a_stored_format_1_hand_is_published_verified_and_replayed(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    store = Store(str(db))
    ids = [_store_hand(store, hand)[1] for hand in HANDS]
    new = _store_hand(store, _upgraded(HANDS[0]), record_format=2)[1]
    store.close()
    # every hand's proof and replay at once, from one client: past a player's share
    limits = Limits(min_bot_delay=0, heavy_per_minute=10_000)
    with TestClient(create_app(str(db), limits=limits)) as client:
        proof = client.get(f"/api/games/{new}/verify").json()
        assert proof["ok"] is True and client.get(f"/api/games/{new}").json()["format"] == 2
        assert (
            "record format" not in next(c for c in proof["checks"] if c["name"] == "log")["detail"]
        )
        for hand, game_id in zip(HANDS, ids, strict=True):
            record = client.get(f"/api/games/{game_id}").json()
            assert record["format"] == 1 and record["settlement"] == hand["settlement"]
            proof = client.get(f"/api/games/{game_id}/verify").json()
            assert proof["ok"] is True, proof
            log = next(c for c in proof["checks"] if c["name"] == "log")
            assert "record format 1" in log["detail"] and "the hand is over" in log["detail"]
            steps = client.get(f"/api/games/{game_id}/replay").json()["steps"]
            assert len(steps) == len(hand["record"]["actions"]) + 1
            assert steps[-1]["view"]["phase"] == "over"


def _cut_in_a_window_of_seat_0(hand: dict[str, Any]) -> int:
    """The length of the first prefix of the hand's log that, replayed, ends in a claim
    window seat 0 is in, after a window of the old engine whose 过 were filled in. The
    window cannot close without seat 0 (a human without a clock), whatever the bots do."""
    record = read_record(hand["record"])
    g = game(record.code, **record.options)
    for upto in range(1, len(record.actions)):
        state = g.new_state(4, seed=record.seed)
        for _ in apply_log(state, record.actions[:upto], 1):
            pass
        if state.phase == "claim" and 0 in state.to_act() and len(state.history) > upto:
            return upto
    raise AssertionError("no prefix ends in a window of seat 0")


def test_a_format_1_hand_left_in_play_is_taken_up_at_start_up(tmp_path: Path) -> None:
    """The server comes back with the hand where the log left it: the passes the old
    engine did not ask for stand in the state's history (the version counts them), and
    the window the log stops in waits for its seats, seat 0 among them (a hand still in
    play asks them as every window does)."""
    hand = next(h for h in HANDS if "自摸" in h["how"])
    upto = _cut_in_a_window_of_seat_0(hand)
    record = read_record(hand["record"])
    expected = game(record.code, **record.options).new_state(4, seed=record.seed)
    for _ in apply_log(expected, record.actions[:upto], 1):
        pass
    db = tmp_path / "in-play.db"
    store = Store(str(db))
    room, hand_id, token = _store_hand(store, hand, upto)
    store.close()
    with (
        TestClient(create_app(str(db), limits=Limits(min_bot_delay=0))) as client,
        client.websocket_connect(
            f"/ws/rooms/{room}", headers={"Authorization": f"Bearer {token}"}
        ) as ws,
    ):
        while (msg := ws.receive_json())["type"] != "state":
            pass
    assert msg["game"] == hand_id and msg["version"] == len(expected.history)
    assert msg["view"] == expected.view(0)
    legal: list[Action] = list(expected.legal_actions(0) or [])
    assert msg["legal"] == [a.to_json() for a in legal]
