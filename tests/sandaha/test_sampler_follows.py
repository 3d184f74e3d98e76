"""The 三打哈 sampler judges a candidate hand's follows by the led suit's cards only.

必须跟同花色: whether a follow was possible rests on the cards of the led suit the seat held
then; the sampler derives, once a resample, what each seat is known to have held of each
led suit, and judges a candidate hand by its cards of that suit. Here that judgement is
set against the plain one (the hand grown back trick by trick, every follow checked with
all its cards) on candidate hands drawn from real hands' unseen cards.
"""

from __future__ import annotations

import random
from collections import Counter

from sandaha_helpers import sandaha

from paiju.games import make_bot
from paiju.games.sandaha import rules
from paiju.games.sandaha.game import SandahaState
from paiju.games.sandaha.rules import order


def _plain(state: SandahaState, seat: int, part: list[int]) -> bool:
    """Every follow of ``seat`` possible from ``part`` (and what it showed), the hand
    grown back from the latest trick, all its cards checked."""
    held = Counter(part) + state.exposed[seat]
    for lead, play in state._follows([seat])[0]:
        held.update(play)
        if rules.follow_error(list(held.elements()), play, lead, state.trump_index) is not None:
            return False
    return True


def _by_suit(state: SandahaState, seat: int, part: list[int]) -> bool:
    """The sampler's judgement: each led suit's follows against that suit's cards."""
    suit = order(state.trump_index).suit
    checks = state._follow_checks(state._follows([seat])[0], seat)
    for led, follows in checks.items():
        own = [c for c in part if suit[c] == led]
        for known, play, lead in follows:
            error = rules.follow_error([*own, *known], play, lead, state.trump_index)
            if error is not None:
                return False
    return True


def _playing_states(hands: int) -> list[SandahaState]:
    """States of real hands part way through the play, bots in every seat."""
    g = sandaha()
    out: list[SandahaState] = []
    for h in range(hands):
        state = g.new_state(4, seed=f"follows {h}")
        assert isinstance(state, SandahaState)
        bots = [make_bot(g, 10 * h + s) for s in range(4)]
        steps = 0
        while not state.is_over:
            seat = sorted(state.to_act())[0]
            state.apply(seat, bots[seat].act(state, seat))
            steps += 1
            if state.phase == "playing" and steps % 7 == 0:
                out.append(state.clone())
    return out


def test_a_follow_is_judged_by_the_led_suits_cards_as_by_the_whole_hand() -> None:
    rng = random.Random(5)
    verdicts: Counter[bool] = Counter()
    states = _playing_states(6)
    assert states
    for state in states:
        for seat in range(1, 4):
            pool = sorted(state.hidden_from(0).elements())
            size = len(state.hands[seat]) - sum(state.exposed[seat].values())
            for _ in range(40):
                part = rng.sample(pool, size)
                plain = _plain(state, seat, part)
                assert _by_suit(state, seat, part) == plain, (state.history, seat, part)
                verdicts[plain] += 1
    assert verdicts[True] and verdicts[False], verdicts  # both verdicts were met
