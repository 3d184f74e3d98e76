"""Every playable code has an environment that passes PettingZoo's own tests.

PettingZoo's ``api_test``, ``seed_test``, ``parallel_api_test``, ``parallel_seed_test``,
``max_cycles_test`` and ``render_test``; rewards are the settlement and sum to zero;
observations never show a card hidden from the observer.
"""

from __future__ import annotations

import io
import types
from functools import partial
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)
from rich.console import Console
from rl_helpers import leaks, playthrough

import paiju.rl
from paiju.catalog import catalog
from paiju.engine import replay
from paiju.errors import IllegalAction, PaijuError
from paiju.games import FAMILIES, game, resolve
from paiju.rl.registry import ENCODERS

PLAYABLE = [v.code for v in catalog() if FAMILIES[v.family].game is not None]
ONE_PER_FAMILY = [
    *("1301", "1302", "1304", "1301-payout", "2001", "2101", "2104", "sandaha"),
    *("anshan-majiang", "anshan-jiayibing", "anshan-fangyang", "ningcheng-danzi"),
]
SIMULTANEOUS = ["1301", "1304", "1303-2", "2001", "2101", "anshan-majiang"]


NEAR_THE_END = {
    "totals": [28, 27],
    "deal_number": 1,
    "previous": {"finish_order": [0, 1, 2, 3], "declarer": None},
}
"""打弹子's episodes are whole matches: started one deal from the target they stay short."""
SHORT: dict[str, dict[str, Any]] = {"ningcheng-danzi": {"context": NEAR_THE_END}}


def seats_for(code: str) -> int | None:
    """Four seats where the game allows them (the default otherwise: 甲乙丙 is six)."""
    g = game(code)
    return 4 if g.min_seats <= 4 <= g.max_seats else None


def test_every_playable_family_has_an_encoder() -> None:
    missing = sorted(
        {v.family for v in catalog() if FAMILIES[v.family].game is not None} - set(ENCODERS)
    )
    assert missing == [], f"playable families without an RL environment: {missing}"


@pytest.mark.parametrize("code", PLAYABLE)
def test_every_playable_code_plays_an_episode(code: str) -> None:
    env = paiju.rl.env(code)
    decisions = sum(1 for _ in playthrough(env, seed=3))
    assert decisions >= 1
    state = env.table.state
    assert state.is_over
    assert sum(state.settlement()) == 0


@pytest.mark.parametrize("code", ONE_PER_FAMILY)
def test_api_test(code: str) -> None:
    api_test(paiju.rl.env(code, seats=seats_for(code), **SHORT.get(code, {})), num_cycles=400)


@pytest.mark.parametrize("code", ONE_PER_FAMILY)
def test_seed_test(code: str) -> None:
    seed_test(
        partial(paiju.rl.env, code, seats=seats_for(code), **SHORT.get(code, {})), num_cycles=300
    )


@pytest.mark.parametrize("code", SIMULTANEOUS)
def test_parallel_api_and_seed(code: str) -> None:
    parallel_api_test(paiju.rl.parallel_env(code, seats=4, hands=3), num_cycles=50)
    # the seed test samples actions without their masks: illegal ones end the episode
    parallel_seed_test(partial(paiju.rl.parallel_env, code, seats=4, hands=3, illegal="terminate"))


def test_parallel_env_refuses_a_game_played_in_turns() -> None:
    with pytest.raises(PaijuError, match="played in turns"):
        paiju.rl.parallel_env("sandaha")


def test_max_cycles() -> None:
    """A cycle is one pass around the table: in 十三张 every seat arranges once a hand."""
    mod = types.SimpleNamespace(  # 50 hands: longer than the cycles
        env=partial(paiju.rl.env, "1301", seats=4, hands=50),
        parallel_env=partial(paiju.rl.parallel_env, "1301", seats=4, hands=50),
    )
    max_cycles_test(mod)


@pytest.mark.parametrize("code", ["1301", "2101", "sandaha", "anshan-majiang"])
def test_render_ansi_and_human(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(partial(paiju.rl.env, code, seats=4))
    env = paiju.rl.env(code, seats=4, render_mode="ansi")
    env.reset(seed=5)
    text = env.render()
    assert isinstance(text, str) and "\x1b[" in text  # ANSI colours, as in a terminal
    # the same table ``paiju play`` shows the seat to act
    console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False)
    seat = env.possible_agents.index(env.agent_selection)
    resolve(FAMILIES[env.table.game.variant.family].terminal or "")(env.table.game, console).show(
        env.table.state, seat
    )
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert shown.strip() and shown == env.table.render(seat, color=False)
    human = paiju.rl.env(code, seats=4, render_mode="human")
    human.reset(seed=5)
    capsys.readouterr()
    assert human.render() is None
    assert capsys.readouterr().out == shown


def test_rewards_are_the_settlement_and_sum_to_zero() -> None:
    for code in ("1301-payout", "2001", "2101", "sandaha", "anshan-majiang"):
        env = paiju.rl.env(code, seats=4, hands=3)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        rng = np.random.default_rng(1)
        env.reset(seed=11)
        hands_seen = []
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            if env.table.state is not (hands_seen[-1] if hands_seen else None):
                hands_seen.append(env.table.state)
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
        assert env.table.played == 3
        assert sum(totals.values()) == 0
        assert [totals[a] for a in env.possible_agents] == env.table.totals


@pytest.mark.parametrize(
    "code",
    [
        *("1301", "1303-2", "2001", "2101", "sandaha", "anshan-majiang"),
        *("anshan-jiayibing", "anshan-fangyang", "ningcheng-danzi"),
    ],
)
def test_observations_never_show_hidden_cards(code: str) -> None:
    env = paiju.rl.env(code, seats=seats_for(code), **SHORT.get(code, {}))
    for seed in range(3 if code in ("1301", "1303-2", "2001", "2101") else 1):
        for _agent, _ in playthrough(env, seed):
            for s, a in enumerate(env.possible_agents):
                assert leaks(env, s, env.observe(a)["observation"]) == []


def test_bad_actions_get_clear_errors() -> None:
    env = paiju.rl.env("sandaha")
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalAction, match="masked out"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(IllegalAction, match="an action is an index"):
        env.step(10_000)
    with pytest.raises(IllegalAction, match="hands must be"):
        paiju.rl.env("2001", hands=0)


@pytest.mark.parametrize(
    "code",
    [
        *("1301", "1301-payout", "1302", "1304", "sandaha"),
        *("anshan-jiayibing", "anshan-fangyang", "ningcheng-danzi"),
    ],
)
def test_an_environment_that_applies_unchecked_plays_only_legal_actions(code: str) -> None:
    # These encoders apply an action their mask let through by the engine's unchecked
    # path: the hand's log replays through the engine's checked apply to the same end.
    env = paiju.rl.env(code, seats=seats_for(code), hands=1, **SHORT.get(code, {}))
    for seed in range(4):
        for _ in playthrough(env, seed):
            pass
        state = env.state_
        assert state.is_over and state.history
        *_, replayed = replay(state.record(), env.table.game)
        assert replayed.history == state.history
        assert replayed.view(None) == state.view(None)
        assert replayed.settlement() == state.settlement()


def test_docs_name_every_observation_field() -> None:
    """docs/rl.md documents each family's layout: every field of every encoder is named."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    codes = ("1301-payout", "2101", "sandaha", "anshan-majiang", "anshan-fangyang")
    for code in (*codes, "ningcheng-danzi"):
        for name in paiju.rl.env(code, seats=4).encoder.layout.fields:
            assert f"`{name}`" in text, f"docs/rl.md does not name {code}'s field {name}"
    sizes = {"1301": 72_073, "1301-payout": 72_078, "sandaha": 77, "anshan-majiang": 75}
    for code, size in sizes.items():
        assert paiju.rl.env(code).encoder.action_size == size
