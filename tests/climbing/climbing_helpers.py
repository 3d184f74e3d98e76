"""Real positions of the 鞍山 climbing games for the rule tests.

A position starts from a seeded deal and then sets the hands a test needs (a rule test is
about the rules, not about conservation, which the playout tests check), the turn, and for
放羊 the call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.cards import parse_cards
from paiju.engine import Action
from paiju.games import game
from paiju.games.climbing.core import ClimbingState, Pass, Play
from paiju.games.climbing.fangyang import Call, FangyangGame, FangyangState
from paiju.games.climbing.jiayibing import JiayibingGame, JiayibingState

P = parse_cards


def jiayibing(**options: Any) -> JiayibingGame:
    g = game("anshan-jiayibing", **options)
    assert isinstance(g, JiayibingGame)
    return g


def fangyang(**options: Any) -> FangyangGame:
    g = game("anshan-fangyang", **options)
    assert isinstance(g, FangyangGame)
    return g


def play(cards: str) -> Play:
    return Play(P(cards))


PASS = Pass()


def set_hands(state: ClimbingState, hands: Sequence[str]) -> None:
    state.hands = [state.rules.sort(P(h)) for h in hands]
    state.exposed = [type(e)() for e in state.exposed]


def jyb_position(hands: Sequence[str], leader: int = 0, **options: Any) -> JiayibingState:
    """A 甲乙丙 deal (after the first: no special 3) with these hands, ``leader`` to lead."""
    state = jiayibing(**options).new_state(seed="pos", context={"leader": leader})
    assert isinstance(state, JiayibingState)
    set_hands(state, hands)
    return state


def fy_position(
    hands: Sequence[str],
    banker: int = 0,
    call: str | None = "As",
    shown: bool = False,
    **options: Any,
) -> FangyangState:
    """A 放羊 deal with these hands, ``banker`` banker, the card ``call`` called."""
    state = fangyang(**options).new_state(seed="pos", context={"banker": banker})
    assert isinstance(state, FangyangState)
    set_hands(state, hands)
    assert state.banker == banker
    if call is not None:
        card = P(call)[0]
        state.apply(banker, Call.of(card, shown))
    return state


def run(state: ClimbingState, moves: Sequence[tuple[int, Action | str]]) -> None:
    """Apply (seat, action) moves; a string is a play, ``"pass"`` a pass."""
    for seat, move in moves:
        if isinstance(move, str):
            move = PASS if move == "pass" else play(move)
        state.apply(seat, move)
