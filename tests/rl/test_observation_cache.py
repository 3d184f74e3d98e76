"""The environments' observations, each seat's kept up to date between steps (its
:class:`~paiju.rl.encoding.Sight`), equal observations made from scratch by a new encoder
of the same game (:meth:`~paiju.rl.encoding.Encoder.observe` and ``mask``), for every
seat at every step of random playouts of every family, with every seat count its games
allow; and what an agent was handed stays as it was handed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import paiju.rl
from paiju.games import game
from paiju.rl.cardseq import CardChoice
from paiju.rl.encoding import Encoder, GrowingCounts
from paiju.rl.env import PaijuAEC

CODES = [
    *("1301", "1301-payout", "2001", "2101", "sandaha", "anshan-majiang"),
    *("anshan-jiayibing", "anshan-fangyang", "ningcheng-danzi"),
]
TABLES = [
    (code, seats)
    for code in CODES
    for seats in range(game(code).min_seats, game(code).max_seats + 1)
]
"""Every code with every seat count its game allows."""


def fresh_observation(env: PaijuAEC, agent: str) -> dict[str, np.ndarray]:
    """The agent's observation from a new encoder, its card choice replayed step by step."""
    table = env.table
    enc: Encoder = type(env.encoder)(table.game, table.seats)
    seat = env.possible_agents.index(agent)
    state = table.state
    acting = seat in state.to_act() and not (env.terminations[agent] or env.truncations[agent])
    choice: CardChoice | None = None
    current = env._choice if agent == env.agent_selection else None
    if current is not None:
        for card in current.cards:
            done: Any = enc.step(state, seat, card, choice)
            assert isinstance(done, CardChoice)
            choice = done
    mask = enc.mask(state, seat, choice) if acting else np.zeros(enc.action_size, np.int8)
    return {"observation": enc.observe(state, seat, choice), "action_mask": mask}


@pytest.mark.parametrize(("code", "seats"), TABLES)
def test_kept_observation_is_a_fresh_one(code: str, seats: int) -> None:
    hands = 2 if code == "ningcheng-danzi" else 1  # a second deal: its tribute and picking
    env = paiju.rl.env(code, seats=seats, hands=hands)
    rng = np.random.default_rng(7)
    handed: list[tuple[np.ndarray, np.ndarray]] = []
    for seed in (0, 1, 2):
        env.reset(seed=seed)
        for steps, _agent in enumerate(env.agent_iter()):
            obs, _, term, trunc, _ = env.last()
            for other in env.agents:  # every live agent, the acting one first asked
                got, want = env.observe(other), fresh_observation(env, other)
                for key in ("observation", "action_mask"):
                    assert np.array_equal(got[key], want[key]), (code, seats, seed, other, key)
                    handed.append((got[key], want[key]))
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            if steps > 1500:
                break
    # an agent may keep what it was handed: nothing handed out changed afterwards
    assert all(np.array_equal(got, want) for got, want in handed), code
    assert not env.encoder.idle.flags.writeable  # the one mask handed to every idle seat


def test_growing_counts_follow_their_lists() -> None:
    counts = GrowingCounts(2, 4)
    owner = object()
    played: list[int] = [1, 2]
    river: list[int] = []
    assert counts.update(owner, [played, river]).tolist() == [[0, 1, 1, 0], [0, 0, 0, 0]]
    played.append(3)
    river.append(0)
    assert counts.update(owner, [played, river]).tolist() == [[0, 1, 1, 1], [1, 0, 0, 0]]
    assert counts.seen_by(1).tolist() == [1, 0, 0, 0, 0, 1, 1, 1]  # itself first
    for seat in (0, 1):
        out = np.full(10, 7, dtype=np.float32)
        counts.put_seen_by(out, 1, seat)  # the same rows, written in place
        assert out.tolist() == [7, *counts.seen_by(seat).tolist(), 7]
    played[-1] = 0  # the last item replaced: counted afresh
    assert counts.update(owner, [played, river]).tolist()[0] == [1, 1, 1, 0]
    played.pop()  # shorter: counted afresh
    assert counts.update(owner, [played, river]).tolist()[0] == [0, 1, 1, 0]
    assert counts.update(object(), [[3], []]).tolist() == [[0, 0, 0, 1], [0, 0, 0, 0]]
    tiles = GrowingCounts(1, 4)
    discards = [(2, False)]
    assert tiles.update(owner, [discards], first=True).tolist() == [[0, 0, 1, 0]]
    discards[-1] = (2, True)  # claimed: the same tile, counted afresh
    assert tiles.update(owner, [discards], first=True).tolist() == [[0, 0, 1, 0]]
