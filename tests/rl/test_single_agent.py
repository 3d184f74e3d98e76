"""One learning seat against the family bots (Gymnasium), and the numpy example."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import paiju.rl
from paiju.bots import RandomBot
from paiju.errors import IllegalAction
from paiju.games.baozi.bot import BaoziBot
from paiju.games.sandaha.bot import SandahaBot

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_jiajiabao.py"


def test_opponents_are_the_family_bots() -> None:
    assert all(isinstance(b, SandahaBot) for b in paiju.rl.opponents("sandaha"))
    assert len(paiju.rl.opponents("2101", seats=5)) == 5
    assert all(isinstance(b, BaoziBot) for b in paiju.rl.opponents("2101"))
    assert all(isinstance(b, RandomBot) for b in paiju.rl.opponents("2001", kind="random"))


@pytest.mark.parametrize("code", ["2101", "sandaha", "1301"])
def test_single_agent_env(code: str) -> None:
    # gymnasium's checker steps with unmasked samples: an illegal one ends the episode
    check_env(paiju.rl.SingleAgentEnv(code, seat=1, seats=4, illegal="terminate"))
    env = paiju.rl.SingleAgentEnv(code, seat=1, seats=4)
    rng = np.random.default_rng(0)
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            assert env.aec.agent_selection == "seat_1"
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
            total += reward
            done = terminated or truncated
        assert total == env.aec.table.state.settlement()[1]


def test_a_seat_without_decisions_is_refused() -> None:
    """宝子: the banker (seat 0 of a single hand) never bets."""
    env = paiju.rl.SingleAgentEnv("2001", seat=0, seats=3)
    with pytest.raises(IllegalAction, match="no decision"):
        env.reset(seed=1)


def test_example_trains_a_policy_that_beats_random() -> None:
    spec = importlib.util.spec_from_file_location("train_jiajiabao", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    trained, random_ = module.train(episodes=600, compare=200, seed=0)
    assert trained > random_ + 0.5, (trained, random_)
