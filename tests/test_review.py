"""复盘: a seat's decisions valued by the 困难 bot's search, from what the seat could see.

The issue: "复盘 shows, for each of the player's own decisions, what the 困难 bot would
have done from the same view and how much the search thinks each choice is worth
(expected points for the seat, with its spread over the sampled deals); the decisions
that cost the most are marked and listed first".
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from paiju.bots import RandomBot
from paiju.fairness import deal_seed
from paiju.games import game, rule_bot
from paiju.review import review_record

import cli_run  # isort: skip


def _played_record(
    code: str, seats: int, seed: int, reviewed: int, careless: bool
) -> dict[str, Any]:
    """A finished hand of ``code`` in the published record's form: rule bots in every
    seat, or at ``reviewed`` a random mover when ``careless``."""
    g = game(code)
    server_seed = f"{seed:064x}"
    state = g.new_state(seats, seed=deal_seed(server_seed, None))
    bots = [rule_bot(g, seed + s) for s in range(seats)]
    if careless:
        bots[reviewed] = RandomBot(g, seed)
    actions = []
    pick = random.Random(seed)
    while not state.is_over:
        acting = sorted(state.to_act())
        who = acting[0] if len(acting) == 1 else pick.choice(acting)
        action = bots[who].act(state, who)
        state.apply(who, action)
        actions.append({"seat": who, "action": action.to_json(), "actor": "player"})
    return {"id": seed, "code": code, "options": {}, "seats": seats, "seed": server_seed,
            "client_seeds": None, "context": {}, "actions": actions, "format": None}  # fmt: skip


@pytest.mark.parametrize(("code", "seats"), [("anshan-fangyang", 4), ("sandaha", 4)])
def test_every_decision_is_valued_and_the_best_is_the_highest(code: str, seats: int) -> None:
    record = _played_record(code, seats, 5, 0, careless=True)
    found = review_record(record, 0, samples=3, seed=1)
    assert found["reviewed"] == len(found["decisions"]) > 0
    for d in found["decisions"]:
        values = [c["value"] for c in d["candidates"]]
        assert d["value_best"] == max(values)
        assert d["loss"] == pytest.approx(max(0.0, d["value_best"] - d["value_played"]), abs=2e-3)
        assert d["played"] in [c["action"] for c in d["candidates"]]
        assert d["mistake"] == (d["loss"] >= 0.5)
        assert record["actions"][d["index"]]["seat"] == 0
    assert found["loss_per_hand"] == pytest.approx(
        sum(d["loss"] for d in found["decisions"]), abs=0.01
    )
    ranked = [
        next(d for d in found["decisions"] if d["index"] == i)["loss"] for i in found["mistakes"]
    ]
    assert ranked == sorted(ranked, reverse=True), "the costliest listed first"
    assert review_record(record, 0, samples=3, seed=1) == found, "the same on any run"


def test_a_decision_without_a_choice_is_not_reviewed() -> None:
    record = _played_record("anshan-fangyang", 4, 9, 1, careless=False)
    found = review_record(record, 1, samples=2, seed=0)
    g = game("anshan-fangyang")
    state = g.new_state(4, seed=deal_seed(record["seed"], None))
    forced = []
    for i, item in enumerate(record["actions"]):
        legal = state.legal_actions(item["seat"])
        if item["seat"] == 1 and legal is not None and len(legal) < 2:
            forced.append(i)
        state.apply(item["seat"], g.parse_action(item["action"]))
    assert not set(forced) & {d["index"] for d in found["decisions"]}


def test_paiju_review_reads_a_replay_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _played_record("anshan-fangyang", 4, 3, 2, careless=True)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, out, err = cli_run.run(
        capsys, "review", "--file", str(path), "--seat", "2", "--samples", "2", "--json"
    )
    assert code == 0, err
    answer = json.loads(out)
    assert set(answer) >= {"decisions", "loss_per_hand"}
    assert {"index", "played", "best", "value_played", "value_best", "loss"} <= set(
        answer["decisions"][0]
    )
    code, _, err = cli_run.run(capsys, "review", "--file", str(path), "--seat", "9")
    assert code == 2 and "no seat 9" in err


def test_a_duplicate_event_plays_every_deal_from_the_same_seats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`paiju event`: "every entrant having played every deal from the same seats"; two
    entrants of the same level in a zero-sum game have the same figures, and with the
    rule bot as the field its own mean over all seats of a deal is 0."""
    code, out, err = cli_run.run(
        capsys, "event", "anshan-fangyang", "--entrants", "normal,easy", "--deals", "3",
        "--seed", "4", "--json",
    )  # fmt: skip
    assert code == 0, err
    answer = json.loads(out)
    assert answer["deals"] == 3 and answer["sides"] == 4
    rows = {r["entrant"]: r for r in answer["standings"]}
    assert set(rows) == {"normal", "easy"}
    assert rows["normal"]["mean"] == 0.0, "the field against itself, every seat: zero-sum"
    lo, hi = rows["easy"]["ci95"]
    assert lo <= rows["easy"]["mean"] <= hi
    assert rows["normal"]["vs_others"] == pytest.approx(-rows["easy"]["vs_others"])
    again = cli_run.run(
        capsys, "event", "anshan-fangyang", "--entrants", "normal,easy", "--deals", "3",
        "--seed", "4", "--json",
    )[1]  # fmt: skip
    assert json.loads(again) == answer, "the same deals and seeds: the same standings"
    code, _, err = cli_run.run(capsys, "event", "anshan-fangyang", "--entrants", "hard")
    assert code == 2 and "two or more" in err
