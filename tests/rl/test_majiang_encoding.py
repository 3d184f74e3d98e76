"""鞍山麻将 actions both directions on seeded hands: the mask is exactly the engine's legal
actions (打牌, 杠, 胡, and in a claim window 吃/碰/杠/胡/过), and each index decodes to the
action it stands for."""

from __future__ import annotations

import numpy as np

import paiju.rl
from paiju.games import make_bot
from paiju.games.majiang.game import Chi, MajiangState
from paiju.rl.majiang import CHI


def test_masks_are_the_legal_actions_both_ways() -> None:
    env = paiju.rl.env("anshan-majiang")
    enc = env.encoder
    seen_kinds: set[str] = set()
    for seed in range(4):
        env.reset(seed=seed)
        state = env.table.state
        assert isinstance(state, MajiangState)
        bots = [make_bot(state.game, seed * 4 + s) for s in range(4)]
        while not state.is_over:
            for seat in sorted(state.to_act()):
                legal = state.legal_actions(seat) or []
                mask = enc.mask(state, seat, None)
                indexes = [i for a in legal for i in enc.encode(state, seat, a)]
                assert sorted(indexes) == np.flatnonzero(mask).tolist()
                assert len(set(indexes)) == len(indexes)
                for action, i in zip(legal, indexes, strict=True):
                    assert enc.step(state, seat, i, None) == action
                    seen_kinds.add(type(action).__name__)
                    if isinstance(action, Chi):
                        assert i - CHI == sorted(action.chow).index(state.window_tile())
            seat = min(state.to_act())
            env.apply_action(bots[seat].act(state, seat))
            state = env.table.state
            assert isinstance(state, MajiangState)
    assert {"Discard", "Pass", "Peng"} <= seen_kinds
