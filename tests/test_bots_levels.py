"""The levels' own moves: 简单's slips are its family's beginner's mistakes (legal, never a
win let go, never a random card), and 困难 weighs plans the rule bot names besides its own."""

from __future__ import annotations

import random

import pytest

import paiju
from paiju.bots import EasyBot
from paiju.engine import Action, Game, State
from paiju.games import make_bot, rule_bot
from paiju.search import SearchBot

CODES = ["sandaha", "anshan-jiayibing", "anshan-fangyang", "ningcheng-danzi", "anshan-majiang"]


def states(game: Game, hands: int) -> list[tuple[State, int]]:
    """Every decision of a few rule-bot hands, with the seat to decide."""
    out: list[tuple[State, int]] = []
    for h in range(hands):
        state = game.new_state(seed=f"levels/{h}")
        bots = [make_bot(game, s) for s in range(state.seats)]
        rng = random.Random(h)
        while not state.is_over:
            seat = rng.choice(sorted(state.to_act()))
            out.append((state.clone(), seat))
            state.apply(seat, bots[seat].act(state, seat))
    return out


@pytest.mark.parametrize("code", CODES)
def test_easy_mistakes_are_legal_and_the_familys_own(code: str) -> None:
    game = paiju.game(code)
    rule = make_bot(game, 1)
    mistake = getattr(rule, "mistake")  # noqa: B009 - every searched family names one
    rng = random.Random(0)
    slips = 0
    for state, seat in states(game, 2):
        best = rule.act(state, seat)
        wrong: Action | None = mistake(state, seat, best, rng)
        if wrong is None:
            continue
        assert state.is_legal(seat, wrong), f"{code}: {wrong!r} in {state.phase}"
        assert wrong.type != "win"
        slips += wrong != best
    assert slips > 10, f"{code}: only {slips} slips open"


def test_easy_slips_at_its_rate_and_not_twice_in_a_row() -> None:
    game = paiju.game("anshan-jiayibing")
    easy = EasyBot(game, 3, make_bot(game, 3))
    rule = make_bot(game, 3)
    previous = False
    slipped = 0
    seen = 0
    for state, seat in states(game, 3):
        if state.phase != "playing":
            continue
        action = easy.act(state, seat)
        slip = action != rule.act(state, seat)
        assert not (slip and previous), "two slips in a row"
        previous = slip
        slipped += slip
        seen += 1
    assert 0 < slipped < seen * EasyBot.slip


def test_sandaha_easy_leads_a_side_card_and_ducks_what_it_could_take() -> None:
    from paiju.games.sandaha.bot import SandahaBot
    from paiju.games.sandaha.game import Play, SandahaState
    from paiju.games.sandaha.rules import TRUMP, order

    game = paiju.game("sandaha")
    bot = SandahaBot(game, 0)
    rng = random.Random(0)
    for state, seat in states(game, 2):
        assert isinstance(state, SandahaState)
        if state.phase != "playing":
            continue
        best = bot.act(state, seat)
        wrong = bot.mistake(state, seat, best, rng)
        if wrong is None or not state.trick:
            if wrong is not None:
                assert isinstance(wrong, Play) and len(wrong.cards) == 1
                assert order(state.trump_index).suit[wrong.cards[0]] != TRUMP
            continue
        duck = bot.alternatives(state, seat)
        assert wrong in duck or sorted(wrong.cards) in [sorted(getattr(a, "cards")) for a in duck]  # noqa: B009


def test_climbing_easy_passes_a_trick_the_rule_bot_takes() -> None:
    from paiju.games.climbing.core import Pass, Play

    game = paiju.game("anshan-fangyang")
    rule = make_bot(game, 0)
    found = 0
    for state, seat in states(game, 2):
        table = getattr(state, "table", None)
        if state.phase != "playing" or table is None:
            continue
        best = rule.act(state, seat)
        if isinstance(best, Play) and state.is_legal(seat, Pass()):
            assert getattr(rule, "mistake")(state, seat, best, random.Random(0)) == Pass()  # noqa: B009
            found += 1
    assert found


def test_search_weighs_the_rule_bots_alternatives_first() -> None:
    game = paiju.game("sandaha")
    bot = SearchBot(game, 0, rule_bot)
    policy = make_bot(game, 0)
    checked = 0
    for state, seat in states(game, 1):
        if state.phase != "playing":
            continue
        base = bot.policy.act(state, seat)
        choices = bot.choices(state, seat, base)
        assert choices[0] == base
        assert all(state.is_legal(seat, a) for a in choices)
        named = [base, *getattr(policy, "alternatives")(state, seat)]  # noqa: B009
        keys = {repr(sorted(a.to_json().items())) for a in named if state.is_legal(seat, a)}
        if len(keys) >= bot.candidates:
            assert all(repr(sorted(a.to_json().items())) in keys for a in choices)
            checked += 1
    assert checked


@pytest.mark.parametrize("code", ["anshan-jiayibing", "anshan-fangyang", "anshan-majiang"])
def test_climbing_and_majiang_name_legal_alternatives_the_search_takes(code: str) -> None:
    game = paiju.game(code)
    bot = SearchBot(game, 0, rule_bot)
    named = 0
    for state, seat in states(game, 1):
        alternatives = getattr(bot.policy, "alternatives")(state, seat)  # noqa: B009
        assert all(state.is_legal(seat, a) for a in alternatives)
        if alternatives:
            named += 1
            base = bot.policy.act(state, seat)
            choices = bot.choices(state, seat, base)
            assert choices[0] == base
            assert all(state.is_legal(seat, a) for a in choices)
    assert named


def test_the_race_drops_a_candidate_that_changes_nothing_or_is_clearly_worse() -> None:
    from paiju.search import _running

    def running(d: list[float], quiet_after: int) -> bool:  # every world weighs the same
        return _running(d, [1.0] * len(d), quiet_after)

    assert not running([0.0, 0.0, 0.0, 0.0], 4)
    assert not running([-10.0, -12.0, -9.0, -11.0], 4)
    assert running([0.0, 5.0, 0.0, 0.0], 4)
    assert running([-5.0, 5.0, -5.0, 6.0], 4)
    # where the cap on worlds is high, a quiet candidate keeps its place a while longer
    assert running([0.0, 0.0, 0.0, 0.0], 33)
    assert not running([0.0] * 33, 33)
    assert not running([-10.0, -12.0, -9.0, -11.0], 33)
