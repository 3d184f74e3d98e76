"""推荐: ``State.suggestions`` gives legal advice, best first, for the seat to act."""

from __future__ import annotations

import pytest

import paiju.games as games
from paiju.engine import State
from paiju.games import game, make_bot
from paiju.games.baozi.solver import solver


def _to_phase(state: State, phase: str) -> None:
    while state.phase != phase and not state.is_over:
        seat = min(state.to_act())
        state.apply(seat, make_bot(state.game, seat).act(state, seat))


@pytest.mark.parametrize("code", ["1301", "1303", "1302", "1301-payout", "1301-2"])
def test_shisanzhang_suggestions_are_legal_and_distinct(code: str) -> None:
    for seed in range(6):
        state = game(code).new_state(4, seed=seed)
        _to_phase(state, "arranging")
        seat = min(state.to_act())
        advice = games.suggestions(state, seat)
        assert 1 <= len(advice) <= 5
        assert len(set(advice)) == len(advice)
        for action in advice:
            state.check(seat, action)


def test_shisanzhang_first_suggestion_is_the_bots_choice() -> None:
    state = game("1301").new_state(4, seed=11)
    bot = make_bot(state.game, 0)
    assert games.suggestions(state, 0)[0] == bot.act(state, 0)
    state.apply(0, games.suggestions(state, 0)[0])
    assert games.suggestions(state, 0) == []  # seat 0 has acted


def test_jiajiabao_suggestions_rank_the_groupings_by_exact_result() -> None:
    state = game("2101").new_state(4, seed=3)
    _to_phase(state, "grouping")
    advice = games.suggestions(state, 1, limit=3)
    assert len(advice) == 3  # four cards split three ways
    for action in advice:
        state.check(1, action)
    scores = {
        (s.front, s.back): s.wins - s.losses
        for s in solver(state.game.variant).scores(state.hands[1], "player")
    }
    ranked = [scores[(a.first, a.second)] for a in advice]  # type: ignore[attr-defined]
    assert ranked == sorted(ranked, reverse=True)
    assert games.suggestions(state, 1, limit=1)[0] == make_bot(state.game, 1).act(state, 1)


def test_families_without_a_solver_suggest_nothing() -> None:
    assert games.suggestions(game("2001").new_state(3, seed=1), 1) == []


def test_advice_explains_each_suggestion() -> None:
    """推荐摆法 as a player reads it: each row's 牌型 and the expected score per opponent,
    best first; 推荐分组 with both groups' readings and the chances of the split."""
    state = game("1301").new_state(4, seed=5)
    _to_phase(state, "arranging")
    advice = games.advice(state, 0)
    assert [a["type"] for a in advice] == [a.type for a in games.suggestions(state, 0)]
    arranged = [a for a in advice if a["type"] == "arrange"]
    assert arranged
    for item in arranged:
        fields = {k: v for k, v in item.items() if k not in ("categories", "score")}
        preview = state.preview(0, state.game.parse_action(fields))  # the action's fields only
        assert preview is not None and item["categories"] == preview["categories"]
        assert isinstance(item["score"], float)
    assert [a["score"] for a in arranged] == sorted((a["score"] for a in arranged), reverse=True)

    jjb = game("2101").new_state(4, seed=3)
    _to_phase(jjb, "grouping")
    groups = games.advice(jjb, 1, limit=3)
    ev = jjb.game.evaluator  # type: ignore[attr-defined]
    for item, action in zip(groups, games.suggestions(jjb, 1, limit=3), strict=True):
        assert item["first"] == action.to_json()["first"]
        assert item["readings"] == [ev.read(action.first).name, ev.read(action.second).name]  # type: ignore[attr-defined]
        assert abs(item["win"] + item["push"] + item["loss"] - 1) < 1e-3
    assert [g["expected"] for g in groups] == sorted((g["expected"] for g in groups), reverse=True)
    assert games.advice(game("2001").new_state(3, seed=1), 1) == []


def test_majiang_hint_is_the_bots_choice_then_the_ready_discards() -> None:
    """提示 in 麻将: the family bot's action first, then every other discard that keeps the
    hand ready (听), all legal; a discard's advice carries the waits it leaves."""
    from paiju.games.majiang.game import Discard

    found_ready = False
    for seed in range(30):
        state = game("anshan-majiang").new_state(4, seed=f"hint-{seed}")
        while not state.is_over:
            seat = min(state.to_act())
            advice = games.suggestions(state, seat)
            assert advice and advice[0] == make_bot(state.game, 0).act(state, seat)
            assert len(set(advice)) == len(advice)
            for action in advice:
                state.check(seat, action)
            ready = [d["tile"] for d in state.view(seat)["ting"].get("discards", [])]
            if ready and state.phase == "play":
                found_ready = True
                shown = [a.tile for a in advice if isinstance(a, Discard)]
                assert {str(t) for t in shown} >= set(ready[: len(advice) - 1])
                waits = {a["tile"]: a.get("waits") for a in games.advice(state, seat)}
                assert all(waits[t] for t in ready if t in waits)
            others = sorted(s for s in range(4) if s not in state.to_act())
            assert all(games.suggestions(state, s) == [] for s in others)
            state.apply(seat, advice[0])
        if found_ready:
            break
    assert found_ready


def test_sandaha_hint_is_the_bots_choice() -> None:
    """提示 in 三打哈: the family bot's bid, burial or play first; bids list the others."""
    state = game("sandaha").new_state(4, seed=5)
    phases = set()
    while not state.is_over:
        seat = min(state.to_act())
        advice = games.suggestions(state, seat)
        assert advice[0] == make_bot(state.game, 0).act(state, seat)
        for action in advice:
            state.check(seat, action)
        if state.phase == "bidding":
            assert len(advice) > 1
        phases.add(state.phase)
        state.apply(seat, advice[0])
    assert {"bidding", "burying", "playing"} <= phases
