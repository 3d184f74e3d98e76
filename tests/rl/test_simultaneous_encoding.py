"""十三张 splits and 宝子/佳佳宝 bets and groupings, both directions, on seeded deals."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

import paiju.rl
from paiju.games import make_bot
from paiju.games.baozi.game import Bet, Group
from paiju.games.shisanzhang.game import Arrange, Declare
from paiju.rl.shisanzhang import SPLITS, split_index, split_of, split_table


def test_split_table_is_pinned() -> None:
    """72,072 = C(13,3) x C(10,5) splits, each 3 front / 5 middle / 5 back, all distinct,
    in the documented order (pinned by an md5 of the whole table)."""
    table = split_table()
    assert table.shape == (SPLITS, 13) == (72_072, 13)
    counts = np.stack([(table == r).sum(axis=1) for r in range(3)], axis=1)
    assert (counts == [3, 5, 5]).all()
    assert len({row.tobytes() for row in table}) == SPLITS
    assert table[0].tolist() == [0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2]
    assert table[-1].tolist() == [2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 0, 0, 0]
    assert hashlib.md5(table.tobytes()).hexdigest() == "b55ac52bccc1c393c8c5f4a11b4f4ccc"
    for i in range(0, SPLITS, 97):
        front, middle, _back = split_of(i)
        assert [table[i][p] for p in front] == [0] * 3
        assert [table[i][p] for p in middle] == [1] * 5
        assert split_index(front, middle) == i


@pytest.mark.parametrize("code", ["1301", "1303", "1301-payout", "1304"])
def test_shisanzhang_actions_both_directions(code: str) -> None:
    env = paiju.rl.env(code, seats=4)
    enc = env.encoder
    rng = random.Random(0)
    for seed in range(6):
        env.reset(seed=seed)
        state = env.table.state
        bot = make_bot(state.game, seed)
        while not state.is_over:
            seat = min(state.to_act())
            mask = enc.mask(state, seat, None)
            act = bot.act(state, seat)
            (index,) = enc.encode(state, seat, act)
            assert mask[index] == 1
            back = enc.step(state, seat, index, None)
            if isinstance(act, Arrange):
                assert isinstance(back, Arrange)
                assert [sorted(r) for r in (back.front, back.middle, back.back)] == [
                    sorted(r) for r in (act.front, act.middle, act.back)
                ]
                i = rng.randrange(SPLITS)
                other = enc.step(state, seat, i, None)
                assert state.is_legal(seat, other)  # every split is legal (倒水 loses)
                assert enc.encode(state, seat, other) == [i]
            else:
                assert back == act
            legal = state.legal_actions(seat)
            if legal is not None:  # bets, or a hand that may only declare
                encoded = sorted(i for a in legal for i in enc.encode(state, seat, a))
                assert encoded == np.flatnonzero(mask).tolist()
            else:
                assert mask[:SPLITS].all()
                assert mask[SPLITS] == (state.specials[seat] is not None)
            state.apply(seat, act)


def test_jiajiabao_groupings_are_the_three_splits() -> None:
    """佳佳宝: "四张牌分成两组" - three ways, each reachable by one index."""
    env = paiju.rl.env("2101", seats=4)
    enc = env.encoder
    for seed in range(5):
        env.reset(seed=seed)
        state = env.table.state
        for seat in sorted(state.to_act()):
            assert enc.mask(state, seat, None)[: enc.bets].all()
            env_bet = enc.step(state, seat, 2, None)
            assert env_bet == Bet(state.game.options["min_bet"] + 2)
            state.apply(seat, env_bet)
        assert state.phase == "grouping"
        for seat in sorted(state.to_act()):
            mask = enc.mask(state, seat, None)
            assert np.flatnonzero(mask).tolist() == [enc.bets, enc.bets + 1, enc.bets + 2]
            legal = state.legal_actions(seat)
            assert legal is not None and len(legal) == 3
            assert sorted(i for a in legal for i in enc.encode(state, seat, a)) == [
                enc.bets + k for k in range(3)
            ]
            groups = [enc.step(state, seat, enc.bets + k, None) for k in range(3)]
            assert all(isinstance(g, Group) and state.is_legal(seat, g) for g in groups)
            assert len({frozenset((frozenset(g.first), frozenset(g.second))) for g in groups}) == 3
        obs = env.observe(env.agent_selection)["observation"]
        strengths = enc.layout.unpack(obs)["groupings"]
        assert strengths.shape == (3, 2) and (strengths[:, 0] <= strengths[:, 1]).all()


def test_baozi_declare_is_not_an_action_and_bets_cover_the_range() -> None:
    env = paiju.rl.env("2001", seats=3, min_bet=2, max_bet=6)
    env.reset(seed=1)
    enc = env.encoder
    state = env.table.state
    seat = min(state.to_act())
    assert enc.action_size == 5
    assert [enc.step(state, seat, i, None) for i in range(5)] == [Bet(b) for b in range(2, 7)]
    assert enc.encode(state, seat, Bet(4)) == [2]
    with pytest.raises(ValueError):
        enc.encode(state, seat, Declare())
