"""The vector environment (:class:`~paiju.rl.vector.PaijuVectorEnv`): each of its games is
the AEC environment's game, step for step - the same seat to act, the same observation
and mask (and so masks as exact as the AEC environment's, checked again against a fresh
encoder's), the same rewards - through the autoreset of an ended episode; an illegal index
moves no game."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import paiju.rl
from paiju.errors import IllegalAction
from paiju.games import game
from paiju.rl.cardseq import CardChoice
from paiju.rl.encoding import Encoder
from paiju.rl.env import PaijuAEC
from paiju.rl.vector import PaijuVectorEnv

CODES = [
    *("1301", "2001", "2101", "sandaha", "anshan-majiang"),
    *("anshan-jiayibing", "anshan-fangyang", "ningcheng-danzi"),
]
GAMES = 3
STEPS = 400
"""Vector steps per test: several episodes of the short games, a good part of the long."""


def fresh_mask(env: PaijuVectorEnv, i: int) -> tuple[np.ndarray, np.ndarray]:
    """Game ``i``'s observation and mask from a new encoder of the same game, the card
    choice in progress replayed step by step (the definition, as observe and mask make it)."""
    table = env.tables[i]
    enc: Encoder = type(env.encoders[i])(table.game, table.seats)
    seat = int(env.agents[i])
    state = table.state
    choice: Any = None
    current = env._choices[i]
    for card in current.cards if current is not None else ():
        choice = enc.step(state, seat, card, choice)
        assert isinstance(choice, CardChoice)
    return enc.observe(state, seat, choice), enc.mask(state, seat, choice)


def aec_row(aec: PaijuAEC) -> tuple[int, np.ndarray, np.ndarray]:
    """The AEC environment's seat to act, its observation and mask (stepping past the final
    None steps of an ended episode and resetting it, unseeded: the next episode)."""
    obs, _, term, trunc, _ = aec.last()
    if term or trunc:
        while aec.agents:
            aec.step(None)
        aec.reset()
        obs, *_ = aec.last()
    assert obs is not None
    return aec.possible_agents.index(aec.agent_selection), obs["observation"], obs["action_mask"]


@pytest.mark.parametrize("code", CODES)
def test_each_game_is_the_aec_game(code: str) -> None:
    seats = 4 if game(code).min_seats <= 4 <= game(code).max_seats else None
    # 2101: two hands an episode (a hand ends within it); 打弹子: one deal, not a whole match
    hands = {"2101": 2, "ningcheng-danzi": 1}.get(code, "default")
    env = PaijuVectorEnv(code, GAMES, seats=seats, hands=hands)
    aecs = [paiju.rl.env(code, seats=seats, hands=hands) for _ in range(GAMES)]
    for i, aec in enumerate(aecs):
        aec.reset(seed=10 + i)
    obs, masks, agents = env.reset(seed=10)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(STEPS):
        actions = []
        for i, aec in enumerate(aecs):
            seat, want_obs, want_mask = aec_row(aec)
            assert agents[i] == seat
            assert np.array_equal(obs[i], want_obs), (code, i)
            assert np.array_equal(masks[i], want_mask), (code, i)
            fresh_obs, fresh = fresh_mask(env, i)
            assert np.array_equal(masks[i], fresh) and np.array_equal(obs[i], fresh_obs)
            legal = np.flatnonzero(masks[i])
            actions.append(int(legal[rng.integers(len(legal))]))
        got = env.step(np.array(actions))
        assert got[0] is obs and got[1] is masks and got[2] is agents  # made once, rewritten
        rewards, terminations = got[3], got[4]
        for i, aec in enumerate(aecs):
            aec.step(actions[i])
            paid = [aec.rewards[a] for a in aec.possible_agents]
            assert rewards[i].tolist() == paid, (code, i)
            assert bool(terminations[i]) == all(aec.terminations.values()), (code, i)
            ended += bool(terminations[i])
    assert env.decisions == STEPS * GAMES
    assert env.applied == sum(aec.applied for aec in aecs)
    assert ended  # an episode ended and its game went on from the next one (autoreset)


def test_an_illegal_index_moves_no_game() -> None:
    env = PaijuVectorEnv("sandaha", 2)
    env.reset(seed=1)
    lengths = [len(t.state.history) for t in env.tables]
    masks = env.action_masks.copy()
    legal = int(np.flatnonzero(masks[0])[0])
    illegal = int(np.flatnonzero(masks[1] == 0)[0])
    with pytest.raises(IllegalAction, match=r"game 1: action .* masked out"):
        env.step([legal, illegal])
    with pytest.raises(IllegalAction, match="2 indexes"):
        env.step([legal])
    with pytest.raises(IllegalAction, match="an action is an index"):
        env.step([legal, env.action_size])
    with pytest.raises(IllegalAction, match="an integer index"):
        env.step([legal, 1.5])
    with pytest.raises(IllegalAction, match="an integer index"):
        env.step([legal, True])
    assert [len(t.state.history) for t in env.tables] == lengths
    assert np.array_equal(env.action_masks, masks)
    assert env.decisions == 0
    env.step([np.int64(legal), int(np.flatnonzero(masks[1])[0])])  # numpy integers are fine
    assert env.decisions == 2


def test_reset_first_and_a_whole_number_of_games() -> None:
    with pytest.raises(IllegalAction, match="reset"):
        PaijuVectorEnv("2101", 2).step([0, 0])
    with pytest.raises(IllegalAction, match="num_envs"):
        PaijuVectorEnv("2101", 0)


def test_a_seed_deals_game_i_as_the_aec_environment_seeded_seed_plus_i() -> None:
    env = PaijuVectorEnv("1301", 2)
    env.reset(seed=5)
    again = PaijuVectorEnv("1301", 2)
    again.reset(seed=5)
    aec = paiju.rl.env("1301")
    aec.reset(seed=6)
    assert env.tables[1].state.hands == aec.table.state.hands  # type: ignore[attr-defined]
    assert [t.state.hands for t in env.tables] == [t.state.hands for t in again.tables]  # type: ignore[attr-defined]
    assert env.tables[0].state.hands != env.tables[1].state.hands  # type: ignore[attr-defined]
