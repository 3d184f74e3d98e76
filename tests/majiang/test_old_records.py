"""Hands logged before every 麻将 window asked every other seat (record format 1) still
replay and verify to their settlement.

The engine of format 1 asked only the seats that could claim a discard (or rob a 补杠) and
closed a window as soon as no undecided seat could outrank the best decision made; the
engine of format 2 asks every other seat (过 alone for one with nothing to claim) and
closes a window once all have decided. A format-1 log therefore lacks the 过 of those
seats, and the decisions its windows did not wait for. ``format1_hands.json`` holds six
hands played and logged by the engine of format 1 (its ``Record`` JSON, which names no
format, with its deal and settlement), picked for what closed their windows early.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from mj_helpers import stacked

from paiju.engine import Action, Record, apply_log
from paiju.errors import IllegalAction, NotYourTurn, ProtocolError
from paiju.fairness import commitment
from paiju.games import game, make_bot, read_record, replay
from paiju.games.majiang.game import Chi, Discard, MajiangState, Pass, Peng
from paiju.server.verify import verify_game
from paiju.tiles import Tile, parse_tiles

HANDS: list[dict[str, Any]] = json.loads(
    (Path(__file__).with_name("format1_hands.json")).read_text(encoding="utf-8")
)

# the hands of test_game's HANDS_A: seat 0 discards 3m, which seat 1 (the 下家) may 吃
# as 345m and seat 2 may 碰; seat 3 can claim nothing
HANDS_A = [
    "3m9m1p5p9p1s5s9s1z2z3z5z6z7z",
    "45m2p6p8p2s6s8s1z3z5z6z7z",
    "33m7m3p7p3s7s1z5z6z7z8m8p",
    "12m6m4p6p4s6s8s9s1z2z9p9m",
]


def T(text: str) -> Tile:
    return Tile.parse(text)


def _published(record: Record, deal: dict[str, Any], settlement: list[int]) -> dict[str, Any]:
    """A record as ``GET /api/games/{id}`` publishes it (no client seeds, no stake)."""
    assert isinstance(record.seed, str)
    out: dict[str, Any] = {
        "id": 1,
        "code": record.code,
        "options": dict(record.options),
        "seats": record.seats,
        "commitment": commitment(record.seed),
        "seed": record.seed,
        "client_seeds": None,
        "deal": deal,
        "context": dict(record.context),
        "actions": [{"seat": s, "action": a.to_json(), "actor": "bot"} for s, a in record.actions],
        "settlement": settlement,
        "stake": None,
        "ledger": [],
    }
    if record.format != 1:
        out["format"] = record.format
    return out


def _log_check(result: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in result["checks"] if c["name"] == "log")
    return found


@pytest.mark.parametrize("hand", HANDS, ids=[h["how"] for h in HANDS])
def test_a_format_1_hand_replays_and_verifies_to_its_settlement(hand: dict[str, Any]) -> None:
    record = read_record(hand["record"])
    assert record.format == 1  # the record does not say: written before formats were kept
    states = list(replay(record))
    assert states[-1].is_over and list(states[-1].settlement()) == hand["settlement"]
    # after each logged action the state is where the old engine was: the next logged
    # action is legal as it stands (a window that engine closed is closed)
    for state, (seat, action) in zip(states, record.actions, strict=False):
        assert state.is_legal(seat, action), (state, seat, action)
    # what the replay filled in stands in the history: the state's record is of format 2,
    # every decision in it, and replays strictly to the same end
    upgraded = states[-1].record()
    assert upgraded.format == 2 and len(upgraded.actions) > len(record.actions)
    assert list(list(replay(upgraded))[-1].settlement()) == hand["settlement"]
    # the fairness proof, from the record as a server of format 1 published it
    result = verify_game(_published(record, hand["deal"], hand["settlement"]))
    assert result["ok"] is True, result
    assert "record format 1" in _log_check(result)["detail"]
    # a log claiming the current format is replayed strictly: the missing 过 are missing
    strict = dataclasses.replace(record, format=2)
    assert verify_game(_published(strict, hand["deal"], hand["settlement"]))["ok"] is False
    with pytest.raises(IllegalAction):
        list(replay(strict))


def _played(seed: int) -> MajiangState:
    """A hand of the current engine, its rule bots playing every seat."""
    g = game("anshan-majiang")
    state = g.new_state(4, seed=f"now-{seed}")
    assert isinstance(state, MajiangState)
    bots = [make_bot(g, 10 * seed + s) for s in range(4)]
    while not state.is_over:
        seat = min(state.to_act())
        state.apply(seat, bots[seat].act(state, seat))
    return state


def _without_lone_passes(record: Record) -> tuple[Record, list[int]]:
    """The record without the 过 of the seats whose only legal action was 过, as format 1
    (as the old engine never asked them); also the indexes, in the shortened log, of the
    decisions of a seat that was the only one in its window with a claim."""
    state = game(record.code, **record.options).new_state(record.seats, seed=record.seed)
    assert isinstance(state, MajiangState)
    kept: list[tuple[int, Action]] = []
    sole: list[int] = []
    for seat, action in record.actions:
        if state.legal_actions(seat) != [Pass()]:
            claimers = [s for s, opts in state.window.items() if opts != [Pass()]]
            if state.phase in ("claim", "rob") and claimers == [seat]:
                sole.append(len(kept))
            kept.append((seat, action))
        state.apply(seat, action)
    return dataclasses.replace(record, actions=tuple(kept), format=1), sole


@pytest.mark.parametrize("seed", range(4))
def test_a_current_hand_without_the_passes_of_seats_with_nothing_to_claim_replays_the_same(
    seed: int,
) -> None:
    """The old form of a hand of today's engine: its log without the 过 of every seat that
    could only pass. It replays and verifies to the same settlement, every seat seeing at
    the end what it saw then."""
    played = _played(seed)
    record = played.record()
    old, _ = _without_lone_passes(record)
    assert len(old.actions) < len(record.actions)
    last = list(replay(old))[-1]
    assert last.is_over and last.settlement() == played.settlement()
    assert [last.view(s) for s in (0, 1, 2, 3, None)] == [
        played.view(s) for s in (0, 1, 2, 3, None)
    ]
    deal = played.deal.to_json("tiles")
    assert verify_game(_published(old, deal, list(played.settlement())))["ok"] is True
    assert verify_game(_published(record, deal, list(played.settlement())))["ok"] is True


def test_a_missing_decision_of_a_seat_that_could_claim_is_refused() -> None:
    """A format-1 log may lack a decision only where its engine did not wait for it: the
    decision of the one seat that could claim a discard cannot be missing."""
    for seed in range(8):
        old, sole = _without_lone_passes(_played(seed).record())
        sole = [i for i in sole if i < len(old.actions) - 1]  # the log goes on after it
        if sole:
            break
    else:
        pytest.fail("no hand of 8 has a window with a single seat that could claim")
    i = sole[0]
    seat = old.actions[i][0]
    broken = dataclasses.replace(old, actions=old.actions[:i] + old.actions[i + 1 :])
    with pytest.raises(IllegalAction) as refused:
        list(replay(broken))
    assert refused.value.reason == "decision_missing"
    assert refused.value.params["seats"] == [seat]
    assert f"lacks the decision of seat {seat} on" in str(refused.value)
    state = list(replay(old))[-1]
    result = verify_game(_published(broken, state.deal.to_json("tiles"), list(state.settlement())))
    assert result["ok"] is False
    detail = _log_check(result)["detail"]
    assert detail.startswith(f"action {i} ") and "which its engine waited for" in detail


def test_a_peng_closed_the_window_before_the_chi_was_decided() -> None:
    """R7 under format 1: a 碰 outranks a 吃, so the window closed at once; replayed, the
    下家 (who could 吃) and the seat with nothing to claim pass, in turn order, and the 碰
    is played."""
    state = stacked(HANDS_A)
    log = [(0, Discard(T("3m"))), (2, Peng()), (2, Discard(T("7m")))]
    for _ in apply_log(state, log, 1):
        pass
    assert state.history == [log[0], log[1], (1, Pass()), (3, Pass()), log[2]]
    assert state.melds[2][0].kind == "peng" and state.melds[1] == []
    assert state.phase == "claim" and state.last == (2, T("7m"))
    # the same log of format 2 lacks the decisions of seats 1 and 3
    with pytest.raises(NotYourTurn):
        for _ in apply_log(stacked(HANDS_A), log, 2):
            pass


@pytest.mark.parametrize(
    ("log", "waited", "could"),
    [
        ([(1, Discard(T("4m")))], [1, 2], "seat 1 could chi 345m, pass; seat 2 could peng, pass"),
        ([(1, Chi(parse_tiles("345m"))), (1, Discard(T("4m")))], [2], "seat 2 could peng, pass"),
    ],
    ids=["nobody decided", "the chi could still be outranked"],
)
def test_a_format_1_log_cannot_skip_a_window_its_engine_waited_on(
    log: list[tuple[int, Action]], waited: list[int], could: str
) -> None:
    state = stacked(HANDS_A)
    with pytest.raises(IllegalAction) as refused:
        for _ in apply_log(state, [(0, Discard(T("3m"))), *log], 1):
            pass
    assert refused.value.reason == "decision_missing"
    assert refused.value.params == {"seats": waited, "tile": "3m"}
    assert could in str(refused.value)


def test_after_the_last_action_the_passes_are_filled_in_only_if_that_ends_the_hand() -> None:
    """A log that stops in a window its engine had closed: a hand still in play waits for
    the undecided seats (the server asks them); a 胡 claimed ends the hand at once."""
    state = stacked(HANDS_A)
    for _ in apply_log(state, [(0, Discard(T("3m"))), (2, Peng())], 1):
        pass
    assert state.phase == "claim" and state.to_act() == {1, 3}
    ends = next(h for h in HANDS if "截胡" in h["how"])
    record = read_record(ends["record"])
    states = list(replay(record))
    assert not states[-2].is_over and states[-1].is_over


@pytest.mark.parametrize("hand", HANDS[:3], ids=[h["how"] for h in HANDS[:3]])
def test_a_hand_taken_up_half_way_by_the_current_engine_replays_as_stored(
    hand: dict[str, Any],
) -> None:
    """A hand in play when the server was upgraded: its stored log is the old engine's
    first half, then every decision the current engine asked for (the stored hand stays
    of format 1). It replays to where the hand went."""
    old = read_record(hand["record"])
    half = len(old.actions) // 2
    g = game(old.code, **old.options)
    state = g.new_state(old.seats, seed=old.seed)
    for _ in apply_log(state, old.actions[:half], 1):
        pass
    taken_up = len(state.history)
    bots = [make_bot(g, s) for s in range(4)]
    while not state.is_over:
        seat = min(state.to_act())
        state.apply(seat, bots[seat].act(state, seat))
    stored = dataclasses.replace(old, actions=old.actions[:half] + tuple(state.history[taken_up:]))
    last = list(replay(stored))[-1]
    assert last.is_over and last.settlement() == state.settlement()
    assert last.history == state.history


def test_the_record_format_is_written_and_read() -> None:
    """A record says its format; one that says nothing is of format 1; a bad one is refused."""
    record = _played(0).record()
    assert record.to_json()["format"] == 2
    assert read_record(record.to_json()) == record
    bare = {k: v for k, v in record.to_json().items() if k != "format"}
    assert read_record(bare).format == 1
    for bad in (0, "2", True, 1.5):
        with pytest.raises(ProtocolError):
            read_record({**record.to_json(), "format": bad})
    assert game("1301").record_format == 1 and game("anshan-majiang").record_format == 2
