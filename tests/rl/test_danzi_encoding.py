"""宁城打弹子's tribute phases as card-choice sequences, both directions, on seeded deals of
a match's later deals: 进贡 (骚贡), 还贡 and 挑选. Every completed sequence is a choice the
engine accepts (``check``), every legal choice is reachable - exhaustively where the legal
set is small (2-card choices, the picks), on samples against the engine otherwise - and the
environment plays a whole match by default, zero-sum at its end."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test
from rl_helpers import leaks, masked_choice, playthrough
from test_cardseq import completions, reachable

import paiju.rl
from paiju.cards import Card, deck, parse_cards
from paiju.engine import Action, Deal
from paiju.errors import IllegalAction
from paiju.games import game
from paiju.games.danzi.game import DanziState, Return, Tribute
from paiju.rl.cardseq import DONE, CardChoice
from paiju.rl.climbing import DanziEncoder

CODE = "ningcheng-danzi"
TRIBUTE_PHASES = ("tribute", "picking", "returning", "picking_returns")

# N51 "如果末游手中没有王、3、2，可以进贡任意牌（称为骚贡）": 末游 (seat 3) holds none.
THIRD = "RJ BJ 5s 5h 5c 5d 6s 6h 6c 6d 7s 7h 7c 7d 8s 8h 8c 8d 9s 9h 9c 9d Ts Th Tc Td Js"
LAST_FREE = "As Ah Ac Ad Ks Kh Kc Kd Qs Qh Qc Qd Jh Jc Jd 5s 5h 5c 5d 6s 6h 6c 6d 7s 7h 7c 7d"


def later(order: list[int], declarer: int | None, totals: tuple[int, int] = (0, 0)) -> Any:
    """The context of a later deal: the previous finishing order and declarer."""
    return {
        "totals": list(totals),
        "deal_number": 1,
        "previous": {"finish_order": order, "declarer": declarer},
    }


def given_deal(spec: dict[int, str]) -> Deal:
    """A 108-card deal with some seats' cards given, the rest in deck order."""
    pool = Counter(deck("108"))
    hands: list[list[int]] = [[] for _ in range(4)]
    for seat, text in spec.items():
        for c in parse_cards(text):
            pool[c] -= 1
            hands[seat].append(c)
    rest = sorted(pool.elements())
    for hand in hands:
        while len(hand) < 27:
            hand.append(rest.pop(0))
    return Deal(tuple(tuple(h) for h in hands), {}, {"start": 0})


def positions() -> list[tuple[str, DanziState]]:
    """Seeded later deals: both forms (2/2 after no 宣战, 4/2 after one), several finishing
    orders, and the 骚贡 deal in both forms."""
    g = game(CODE)
    out: list[tuple[str, DanziState]] = []
    orders = ([0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 1, 0], [3, 2, 0, 1])
    for seed, order in enumerate(orders):
        for declarer in (None, order[0], order[1]):
            state = g.new_state(4, seed=f"danzi-rl/{seed}", context=later(order, declarer))
            assert isinstance(state, DanziState)
            out.append((f"seed {seed} order {order} declarer {declarer}", state))
    for declarer in (None, 0):
        state = g.new_state(
            4, deal=given_deal({2: THIRD, 3: LAST_FREE}), context=later([0, 1, 2, 3], declarer)
        )
        assert isinstance(state, DanziState)
        out.append((f"骚贡 declarer {declarer}", state))
    return out


def fresh(enc: DanziEncoder, state: DanziState, seat: int) -> CardChoice:
    enc.mask(state, seat, None)
    choice = enc._decision(state, seat)[0]
    assert choice is not None, f"no card choice in {state.phase}"
    return choice


def hand_of(choice: CardChoice) -> list[int]:
    return [c for c, n in enumerate(choice.hand) for _ in range(n)]


def accepted(state: DanziState, seat: int, action: Action) -> bool:
    try:
        state.check(seat, action)
    except IllegalAction:
        return False
    return True


def legal_set(state: DanziState, seat: int, hand: list[int], n: int) -> set[tuple[int, ...]]:

    make = Tribute if state.phase == "tribute" else Return
    return {
        cards
        for cards in {tuple(sorted(c)) for c in combinations(hand, n)}
        if accepted(state, seat, make(tuple(Card(c) for c in cards)))
    }


def walk(enc: DanziEncoder, state: DanziState, seat: int, rng: random.Random) -> Action:
    """A random masked walk through one decision: the action it completes."""
    choice: CardChoice | None = None
    while True:
        mask = enc.mask(state, seat, choice)
        legal = np.flatnonzero(mask)
        assert len(legal), f"a dead end in {state.phase} after {choice and choice.cards}"
        result = enc.step(state, seat, int(legal[rng.randrange(len(legal))]), choice)
        if not isinstance(result, CardChoice):
            return result
        choice = result


def test_tribute_phases_both_directions() -> None:
    """N48 挑选 "两张最大的牌给头游和二游挑选", N50-N51 进贡 (骚贡), N53-N55 还贡: the masks
    complete exactly the choices the engine accepts."""
    rng = random.Random(11)
    enc = paiju.rl.env(CODE).encoder
    assert isinstance(enc, DanziEncoder)
    seen: Counter[str] = Counter()
    for name, state in positions():
        while state.phase in TRIBUTE_PHASES:
            seat = min(state.to_act())
            phase = state.phase
            seen[phase] += 1
            choice = fresh(enc, state, seat)
            hand = hand_of(choice)
            mask = enc.mask(state, seat, None)
            assert not mask[DONE + 1 :].any(), "no small decision in a tribute phase"
            if phase in ("picking", "picking_returns"):
                pairs = {tuple(sorted(a.cards)) for a in state.legal_actions(seat) or ()}
                assert pairs and completions(hand, choice.oracle) == pairs, name
                assert sorted(hand) == sorted(c for p in pairs for c in p) or len(pairs) > 1
            else:
                n = state.givers[seat][0] if phase == "tribute" else len(state.received[seat])
                assert hand == sorted(state.hands[seat])
                if n == 2:  # exhaustive: at most C(27, 2) choices
                    assert completions(hand, choice.oracle) == legal_set(state, seat, hand, n), name
                else:  # 4 cards: samples both ways
                    for _ in range(30):
                        action = walk(enc, state, seat, rng)
                        assert accepted(state, seat, action), (name, action)
                    for _ in range(30):
                        action = state.random_action(seat, rng)
                        assert accepted(state, seat, action)
                        cards = list(enc.play_cards(action) or ())
                        rng.shuffle(cards)
                        assert reachable(hand, choice.oracle, cards), (name, action)
            # a random masked walk is what the engine accepts, and encode() inverts step()
            action = walk(enc, state, seat, rng)
            assert accepted(state, seat, action), (name, action)
            indexes = enc.encode(state, seat, action)
            replay: CardChoice | None = None
            for i in indexes:
                assert enc.mask(state, seat, replay)[i] == 1
                result = enc.step(state, seat, i, replay)
                replay = result if isinstance(result, CardChoice) else None
            assert result == action
            state.apply(seat, action)
    assert min(seen[p] for p in TRIBUTE_PHASES) >= 2, seen


def test_tribute_oracle_refuses_fours_and_received_values() -> None:
    """N52 "4不能成为进贡的牌", N54 "不能还与所得贡牌相同点数的牌", N55 "4不能还贡"."""
    enc = paiju.rl.env(CODE).encoder
    assert isinstance(enc, DanziEncoder)
    state = game(CODE).new_state(
        4, deal=given_deal({2: THIRD, 3: LAST_FREE}), context=later([0, 1, 2, 3], 0)
    )
    assert isinstance(state, DanziState) and state.phase == "tribute"
    while state.phase == "tribute":
        s = min(state.to_act())
        state.apply(s, state.random_action(s, random.Random(1)))
    assert state.phase == "returning"
    checked = 0
    for seat in state.to_act():
        mask = enc.mask(state, seat, None)
        ranks = {c // 4 for c in state.received[seat]}  # both jokers are 13: one value
        for c in set(state.hands[seat]):
            refused = c // 4 == 2 or c // 4 in ranks
            checked += refused
            assert mask[c] == (not refused), c
    assert checked > 0


def test_whole_match_by_default_zero_sum() -> None:
    """The default episode is the game's own match (打弹子 settles only when it ends): the
    rewards come at the match's end, sum to zero, and the tribute phases are played."""
    env = paiju.rl.env(CODE)
    assert env.table.hands is None
    phases: Counter[str] = Counter()
    rewards = Counter[str]()
    rng = np.random.default_rng(4)
    env.reset(seed=4)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        rewards[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        state = env.table.state
        phases[state.phase] += 1
        env.step(masked_choice(obs["action_mask"], rng))
    state = env.table.state
    assert isinstance(state, DanziState) and state.match_over
    # 骚贡 (the "tribute" phase) is rare in dealt hands, and 挑选 follows a deal nobody
    # declared in (random agents mostly declare): positions() holds those
    assert env.table.played >= 2 and phases["returning"] >= env.table.played - 1
    assert sum(rewards.values()) == 0 and sorted(set(rewards.values())) == [-1.0, 1.0]
    assert [rewards[a] for a in env.possible_agents] == env.table.totals


def near_the_end() -> Any:
    """A later deal's context one deal from the match target (30): short whole matches."""
    return later([0, 1, 2, 3], None, (28, 27))


def test_api_test_whole_match() -> None:
    api_test(paiju.rl.env(CODE, context=near_the_end()), num_cycles=2000)


def test_observations_of_tribute_phases_hide_hidden_cards() -> None:
    """The face-down first 还贡 of the 2/2 form (N48 "第一个还贡的牌先暗着") stays hidden."""
    env = paiju.rl.env(CODE, context=near_the_end())
    checked = 0
    for _agent, _ in playthrough(env, seed=5):
        state = env.table.state
        if state.phase in TRIBUTE_PHASES:
            checked += 1
            for s, a in enumerate(env.possible_agents):
                assert leaks(env, s, env.observe(a)["observation"]) == []
    assert checked >= 4


@pytest.mark.parametrize("code", [CODE])
def test_one_deal_still_available(code: str) -> None:
    env = paiju.rl.env(code, hands=1)
    decisions = sum(1 for _ in playthrough(env, seed=2))
    assert decisions >= 1 and env.table.played == 1
