"""The generic card-play encoder (the climbing family's plug): a family with a small
adapter and one registry entry gets an environment that passes PettingZoo's tests, with
masks that are exactly its legal plays."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from rl_helpers import leaks, playthrough

import paiju.rl
from paiju.rl import registry
from paiju.rl.cardseq import DONE


@pytest.fixture
def toy_env(toy_variants: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.ENCODERS, "toy", "toy_rl:ToyEncoder")


@pytest.mark.usefixtures("toy_env")
def test_one_entry_makes_an_environment() -> None:
    api_test(paiju.rl.env("toy", seats=3), num_cycles=100)
    seed_test(lambda: paiju.rl.env("toy", seats=3, hands=None))


@pytest.mark.usefixtures("toy_env")
def test_plays_and_small_decisions_both_directions() -> None:
    env = paiju.rl.env("toy", seats=3, hands=None)  # the toy's match is two hands
    enc = env.encoder
    for seed in range(3):
        for agent, obs in playthrough(env, seed):
            state = env.table.state
            seat = env.possible_agents.index(agent)
            assert leaks(env, seat, obs["observation"]) == []
            if env._choice is not None:  # inside a card choice: only cards and done
                assert not obs["action_mask"][DONE + 1 :].any()
                continue
            legal = state.legal_actions(seat)
            reachable = set()
            for action in legal:
                steps = enc.encode(state, seat, action)
                reachable.add(steps[0])
                assert obs["action_mask"][steps[0]] == 1
            assert reachable == set(np.flatnonzero(obs["action_mask"]).tolist())
        assert env.table.played == 2
