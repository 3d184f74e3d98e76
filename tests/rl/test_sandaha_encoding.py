"""三打哈 plays as card-choice sequences, both directions, on seeded positions.

Every completed sequence is a legal 扣底, lead or follow; every legal play is reachable; and
where the hand is small enough to list every candidate, the completions are exactly the
plays the engine accepts (跟牌: "有对必须跟对，有拖拉机必须跟拖拉机", 只能甩主牌).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import product
from math import prod

import numpy as np
import pytest
from test_cardseq import completions, reachable

import paiju.rl
from paiju.cards import Card
from paiju.games import game, make_bot
from paiju.games.sandaha.game import Bury, Play, SandahaState
from paiju.rl.cardseq import DONE, CardChoice
from paiju.rl.sandaha import FIRST_BID, PASS, SandahaEncoder, oracle


def positions(seeds: range) -> Iterator[tuple[SandahaState, int]]:
    """Every card decision (扣底, lead, follow) of bot-played hands."""
    g = game("sandaha")
    for seed in seeds:
        state = g.new_state(4, seed=f"rl-positions/{seed}")
        assert isinstance(state, SandahaState)
        bots = [make_bot(g, seed * 10 + s) for s in range(4)]
        while not state.is_over:
            seat = state.turn
            if state.phase in ("burying", "playing"):
                yield state.clone(), seat
            state.apply(seat, bots[seat].act(state, seat))


def legal_plays(state: SandahaState, seat: int, sizes: set[int]) -> set[tuple[int, ...]] | None:
    """Every sub-multiset of the hand of the given sizes that the engine accepts (None when
    there are too many candidates to list)."""
    held = Counter(state.hands[seat])
    cards = sorted(held)
    if prod(held[c] + 1 for c in cards) > 6000:
        return None
    found = set()
    for counts in product(*(range(held[c] + 1) for c in cards)):
        play = tuple(c for c, k in zip(cards, counts, strict=True) for _ in range(k))
        if len(play) in sizes and state.is_legal(seat, Play(tuple(map(Card, play)))):
            found.add(play)
    return found


def test_plays_both_directions_on_seeded_positions() -> None:
    rng = random.Random(0)
    bot_game = game("sandaha")
    exhaustive = 0
    for state, seat in positions(range(4)):
        hand = list(state.hands[seat])
        orc = oracle(state, seat)
        # every legal play the family bot and the random player choose is reachable
        for act in (
            make_bot(bot_game, 1).act(state, seat),
            state.random_action(seat, rng),
        ):
            assert isinstance(act, Bury | Play)
            cards = [int(c) for c in act.cards]
            assert reachable(hand, orc, cards)
            assert reachable(hand, orc, cards[::-1])
        # random walks through the masks always complete a legal play
        for _ in range(5):
            choice = CardChoice(hand, orc)
            while True:
                legal = np.flatnonzero(choice.mask())
                done = choice.step(int(rng.choice(legal)))
                if done is not None:
                    break
            action = (
                Bury(tuple(map(Card, done)))
                if state.phase == "burying"
                else Play(tuple(map(Card, done)))
            )
            assert state.is_legal(seat, action), (state, done)
        if state.phase == "playing" and rng.random() < 0.3:
            n = sum(len(c.cards) for c in state.lead)
            sizes = {n} if state.trick else set(range(1, len(hand) + 1))
            expected = legal_plays(state, seat, sizes)
            if expected is not None:
                assert completions(hand, orc) == expected
                exhaustive += 1
    assert exhaustive >= 20  # the exact check ran on enough positions


def test_bury_is_exactly_the_kitty_size() -> None:
    """扣底: "庄家 … 埋8张底牌": done only after 8 cards, any 8 of the hand."""
    state, seat = next((s, t) for s, t in positions(range(1)) if s.phase == "burying")
    choice = CardChoice(state.hands[seat], oracle(state, seat))
    for k in range(8):
        mask = choice.mask()
        assert mask[DONE] == 0
        held = [c for c in set(state.hands[seat]) if choice.chosen[c] < state.hands[seat].count(c)]
        assert sorted(np.flatnonzero(mask[:DONE]).tolist()) == sorted(held)
        choice.step(held[k % len(held)])
    assert choice.mask()[DONE] == 1 and choice.mask()[:DONE].sum() == 0


def test_encoder_round_trips_bids_trumps_and_plays() -> None:
    env = paiju.rl.env("sandaha")
    enc = env.encoder
    assert isinstance(enc, SandahaEncoder)
    assert enc.bid_values[:3] == [80, 75, 70] and enc.bid_values[-1] == 5
    assert enc.action_size == FIRST_BID + 16 + 5
    for state, seat in positions(range(1)):
        act = make_bot(game("sandaha"), 2).act(state, seat)
        indexes = enc.encode(state, seat, act)
        assert indexes[-1] == DONE
        choice = None
        for i in indexes:
            assert enc.mask(state, seat, choice)[i] == 1
            result = enc.step(state, seat, i, choice)
            if isinstance(result, CardChoice):
                choice = result
        assert result == act
    env.reset(seed=4)
    state = env.table.state
    seat = state.turn
    mask = enc.mask(state, seat, None)
    legal = state.legal_actions(seat)
    assert legal is not None
    assert sorted(i for a in legal for i in enc.encode(state, seat, a)) == sorted(
        np.flatnonzero(mask).tolist()
    )
    assert (PASS in np.flatnonzero(mask)) == (state.must_bid(seat) is None)


def test_failed_throws_expose_a_card_once() -> None:
    """甩牌失败 shows the thrown cards; throwing them again does not show them twice: a
    seat's exposed cards are always cards it holds (or every view would leak the card's
    other copy)."""
    env = paiju.rl.env("sandaha")
    for seed in range(3):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        while not env.table.state.is_over:
            state = env.table.state
            for s in range(4):
                assert not state.exposed[s] - Counter(state.hands[s])
            mask = env.observe(env.agent_selection)["action_mask"]
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.integers(len(legal))]))


@pytest.mark.parametrize("phase", ["bidding", "naming"])
def test_small_decisions_mask_exactly_the_legal_actions(phase: str) -> None:
    env = paiju.rl.env("sandaha")
    env.reset(seed=9)
    bots = [make_bot(env.table.game, s) for s in range(4)]
    while env.table.state.phase != phase:
        state = env.table.state
        env.apply_action(bots[state.turn].act(state, state.turn))
    state = env.table.state
    seat = state.turn
    legal = state.legal_actions(seat)
    assert legal
    encoded = sorted(i for a in legal for i in env.encoder.encode(state, seat, a))
    assert encoded == np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist()
