"""Does the bot see my cards? No: every family's bot, at every level, decides the same on any
two states its seat cannot tell apart.

Hypothesis picks a seeded playout and a moment in it; the state there and a resample of it
for the seat to act (the same view for that seat, the other hands, the kitty, the wall
dealt again) are handed to two bots made with the same seed: the decisions must be equal.
A bot that read one hidden card would sooner or later decide differently.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import paiju
from paiju.bots import Bot, SeatOnly
from paiju.engine import Game, State
from paiju.games import make_bot, rule_bot
from paiju.search import Budget, SearchBot

CODES = [
    "1301",
    "2001",
    "2101",
    "sandaha",
    "anshan-jiayibing",
    "anshan-fangyang",
    "ningcheng-danzi",
    "anshan-majiang",
]


def bot_at(game: Game, seed: int, level: str) -> Bot:
    """The level's bot; the search with a budget in samples only, so that it is the same
    however fast the machine is."""
    if level == "hard" and isinstance(make_bot(game, seed, "hard"), SearchBot):
        return SearchBot(game, seed, rule_bot, Budget(ms=1e9, samples=2, min_samples=2))
    return make_bot(game, seed, level)


def moment(game: Game, seed: int, step: int) -> State:
    """The state after ``step`` decisions of a normal-bot playout (or the last before the end)."""
    state = game.new_state(seed=f"seat-only/{seed}")
    bots = [make_bot(game, s) for s in range(state.seats)]
    rng = random.Random(seed)
    for _ in range(step):
        seat = rng.choice(sorted(state.to_act()))
        after = state.clone()
        after.apply(seat, bots[seat].act(state, seat))
        if after.is_over:
            break
        state = after
    return state


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("code", CODES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), step=st.integers(0, 60), salt=st.integers(0, 2**16))
def test_same_view_same_decision(code: str, level: str, seed: int, step: int, salt: int) -> None:
    game = paiju.game(code)
    state = moment(game, seed, step)
    seat = min(state.to_act())
    other = state.resample(seat, random.Random(salt))
    assert other.view(seat) == state.view(seat)
    first = bot_at(game, seed, level).act(state, seat)
    second = bot_at(game, seed, level).act(other, seat)
    assert first == second, f"{code} {level}: {first!r} on the true deal, {second!r} on a sample"


def test_seat_only_bot_decides_on_a_sample_not_on_the_deal() -> None:
    """The server's wrapper hands its bot a resampled state: the bot never gets the true
    deal's object, and the action is legal on the true state."""
    game = paiju.game("sandaha")
    state = moment(game, 3, 20)
    seat = min(state.to_act())
    seen: list[State] = []

    class Spy:
        def act(self, s: State, who: int) -> paiju.engine.Action:
            seen.append(s)
            return make_bot(game, 0).act(s, who)

    action = SeatOnly(Spy(), 1).act(state, seat)
    assert seen and seen[0] is not state and seen[0].deal != state.deal
    assert seen[0].view(seat) == state.view(seat)
    assert state.is_legal(seat, action)


def test_a_peeking_bot_is_caught() -> None:
    """The check has teeth: a bot that reads the next seat's hand decides differently on
    the samples of one state."""
    game = paiju.game("anshan-jiayibing")
    state = moment(game, 1, 10)
    seat = min(state.to_act())

    def peek(s: State) -> paiju.engine.Action:
        legal = list(s.legal_actions(seat) or [])
        hidden = s.hands[(seat + 1) % s.seats]  # type: ignore[attr-defined]
        return legal[sum(hidden) % len(legal)]

    decisions = {peek(state.resample(seat, random.Random(k))) for k in range(10)}
    assert len(legal := list(state.legal_actions(seat) or [])) > 1
    assert len(decisions) > 1, legal
