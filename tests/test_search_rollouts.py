"""A search's rollouts skip the engine's checks only where that changes nothing.

Where a family sets :attr:`~paiju.engine.State.search_unchecked`, the 困难 bot's rollouts
apply the rule bots' actions with :meth:`~paiju.engine.State.apply_unchecked`. That is
sound only if every action a rule bot picks in a rollout is legal and the checks leave the
state as it was: rolled out with the checked :meth:`~paiju.engine.State.apply` (which
raises on an illegal action), every candidate of every world must come to the same value.
"""

from __future__ import annotations

import random

import pytest

import paiju
from paiju.engine import State
from paiju.games import make_bot, rule_bot
from paiju.search import SearchBot

UNCHECKED = ("sandaha", "ningcheng-danzi", "anshan-jiayibing", "anshan-fangyang")


def positions(code: str, seed: str, every: int) -> list[tuple[State, int]]:
    """Every ``every``-th decision of a hand played by rule bots, as (state, seat)."""
    game = paiju.game(code)
    state = game.new_state(seed=seed)
    bots = [rule_bot(game, 40 + s) for s in range(state.seats)]
    out: list[tuple[State, int]] = []
    step = 0
    while not state.is_over:
        seat = min(state.to_act())
        if step % every == 0:
            out.append((state.clone(), seat))
        state.apply(seat, bots[seat].act(state, seat))
        step += 1
    return out


@pytest.mark.parametrize("code", UNCHECKED)
def test_unchecked_rollouts_value_as_checked_ones(
    code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = paiju.game(code)
    cls = type(game.new_state(seed="rollouts"))
    assert cls.search_unchecked
    compared = 0
    for state, seat in positions(code, "rollouts", 5):
        bot = make_bot(game, 3, "hard")
        assert isinstance(bot, SearchBot)
        base = bot.policy.act(state, seat)
        choices = bot.choices(state, seat, base)
        world = state.resample(seat, random.Random(compared))
        unchecked = [bot.value(world, seat, a, 11) for a in choices]
        monkeypatch.setattr(cls, "search_unchecked", False)
        checked = [bot.value(world, seat, a, 11) for a in choices]
        monkeypatch.setattr(cls, "search_unchecked", True)
        assert unchecked == checked, (code, state.phase, seat)
        compared += len(choices)
    assert compared >= 10
