"""The climbing games' observations against a plain reference computed from the state: the
generic fields and the climbing core's (``table`` … ``scores``), every seat, every step of a
few seeded random games (a card choice in progress included); and the first step's mask of
listed plays (made without the count table) against the table-based one."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paiju.rl
from paiju.games.climbing.core import ClimbingState
from paiju.rl.cardseq import CARD_SLOTS, DONE, EnumeratedPlays
from paiju.rl.plays import PlayEncoder


def reference(enc: PlayEncoder, state: ClimbingState, seat: int, cards: list[int]) -> np.ndarray:
    """The observation field by field, straight from the state (``cards``: chosen so far)."""
    n = enc.seats
    fields = {name: np.zeros(f.shape, dtype=np.float32) for name, f in enc.layout.fields.items()}

    def rel(s: int) -> int:
        return (s - seat) % n

    if state.phase in enc.phases:
        fields["phase"][enc.phases.index(state.phase)] = 1
    for c in state.hands[seat]:
        fields["hand"][c] += 1
    for c in cards:
        fields["chosen"][c] += 1
    for s in range(n):
        fields["hand_sizes"][rel(s)] = len(state.hands[s]) / 54
    if state.table is not None and state.table_seat is not None:
        for c in state.table.cards:
            fields["table"][c] += 1
        fields["table_seat"][rel(state.table_seat)] = 1
    for s in state.passed:
        fields["passed"][rel(s)] = 1
    for s, played in state.trick:
        for c in played or ():  # None: a pass
            fields["trick"][rel(s), c] += 1
    over = state.phase == "over"
    for s in range(n):
        for c in state.played_by[s]:
            fields["played_by"][rel(s), c] += 1
        if over or state.sees_hand(seat, s):
            for c in state.hands[s]:
                fields["seen"][rel(s), c] += 1
    for place, s in enumerate(state.finished, 1):
        fields["places"][rel(s)] = place / n
    if over:
        for s, x in enumerate(state.settlement()):
            fields["scores"][rel(s)] = x
    return np.concatenate([a.ravel() for a in fields.values()])


@pytest.mark.parametrize("code", ["anshan-jiayibing", "anshan-fangyang", "ningcheng-danzi"])
def test_observations_match_the_reference(code: str) -> None:
    env = paiju.rl.env(code)
    enc = env.encoder
    assert isinstance(enc, PlayEncoder)
    climbing = enc.layout.size if code != "ningcheng-danzi" else enc.layout["pool"].start
    for seed in range(2):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for steps, _agent in enumerate(env.agent_iter()):
            state = env.table.state
            assert isinstance(state, ClimbingState)
            for s, a in enumerate(env.possible_agents):
                choice = env._choice if a == env.agent_selection else None
                got = env.observe(a)["observation"]
                want = reference(enc, state, s, list(choice.cards) if choice else [])
                np.testing.assert_array_equal(got[:climbing], want[:climbing])
            obs, _, term, trunc, _ = env.last()
            if term or trunc or steps > 600:
                break
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, CARD_SLOTS - 1), max_size=6), max_size=12))
def test_first_step_mask_matches_the_table(plays: list[list[int]]) -> None:
    oracle = EnumeratedPlays(plays)
    hand = [4] * CARD_SLOTS
    first = oracle.options(hand, [0] * CARD_SLOTS, 0)
    want = np.zeros(CARD_SLOTS + 1, dtype=np.int8)
    if plays:
        want[:CARD_SLOTS] = (oracle.table > 0).any(axis=0)
        want[DONE] = bool((oracle.sizes == 0).any())
    np.testing.assert_array_equal(first, want)
