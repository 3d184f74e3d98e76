"""The climbing games' plays as card-choice sequences, both directions, on seeded deals:
the completions of the masks are exactly the core's legal plays ("压过桌上的牌或者过"), and
the small decisions (放羊's 叫牌, 打弹子's 宣战) are masked exactly."""

from __future__ import annotations

import numpy as np
import pytest
from test_cardseq import completions

import paiju.rl
from paiju.games import make_bot
from paiju.games.climbing.core import ClimbingState
from paiju.rl.cardseq import DONE, CardChoice, EnumeratedPlays


@pytest.mark.parametrize("code", ["anshan-jiayibing", "anshan-fangyang", "ningcheng-danzi"])
def test_plays_both_directions(code: str) -> None:
    env = paiju.rl.env(code)
    enc = env.encoder
    env.reset(seed=7)
    state = env.table.state
    assert isinstance(state, ClimbingState)
    bots = [make_bot(state.game, s) for s in range(state.seats)]
    checked = 0
    while not state.is_over and checked < 40:
        seat = min(state.to_act())
        legal = list(state.legal_actions(seat) or [])
        mask = enc.mask(state, seat, None)
        plays = {tuple(sorted(c)) for a in legal if (c := enc.play_cards(a)) is not None}
        smalls = {enc.encode(state, seat, a)[0] for a in legal if enc.play_cards(a) is None}
        assert smalls == {i for i in np.flatnonzero(mask) if i > DONE}
        if plays:
            hand = list(enc.hand(state, seat))
            assert completions(hand, EnumeratedPlays(plays)) == plays
            assert mask[DONE] == (() in plays)
            first = {c for p in plays for c in p}
            assert first == {i for i in np.flatnonzero(mask) if i < DONE}
        action = bots[seat].act(state, seat)
        choice: CardChoice | None = None
        for i in enc.encode(state, seat, action):
            assert enc.mask(state, seat, choice)[i] == 1
            result = enc.step(state, seat, i, choice)
            choice = result if isinstance(result, CardChoice) else None
        assert result == action or sorted(result.cards) == sorted(action.cards)  # type: ignore[union-attr]
        env.apply_action(action)
        state = env.table.state
        assert isinstance(state, ClimbingState)
        checked += 1
    assert checked >= 10
