"""When few deals fit a seat's view, every one of them, each once, with its probability.

:func:`paiju.sampling.all_deals` is checked against a brute force over every deal of the
cards told apart (the set of deals complete, each once, each weighed by how many deals of
the told-apart cards give it); :func:`paiju.sampling.all_samples` on late positions of
三打哈 and a climbing game against the sampler's own random draws (every draw is one of
the worlds, and each world comes up as often as its probability says).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import permutations

import pytest

import paiju
from paiju.engine import State
from paiju.games import make_bot
from paiju.sampling import Check, all_deals, all_samples
from paiju.search import Budget, SearchBot

Deals = dict[tuple[tuple[int, ...], ...], int]


def brute_force(
    cards: Sequence[int],
    sizes: Sequence[int],
    allowed: Mapping[int, frozenset[int]],
    accept: Check | None = None,
) -> Deals:
    """Every order of the cards told apart, cut into places: the deals that fit, counted."""
    out: Counter[tuple[tuple[int, ...], ...]] = Counter()
    for order in permutations(range(len(cards))):
        parts, at = [], 0
        for n in sizes:
            parts.append(sorted(cards[i] for i in order[at : at + n]))
            at += n
        if any(
            p not in allowed.get(c, frozenset({p})) for p, part in enumerate(parts) for c in part
        ):
            continue
        if accept is not None and not accept(parts):
            continue
        out[tuple(tuple(p) for p in parts)] += 1
    # an order within a place is the same deal: count each deal of the cards told apart once
    for deal in out:
        for part in deal:
            for n in range(2, len(part) + 1):
                out[deal] //= n
    return dict(out)


def exact(
    cards: Sequence[int],
    sizes: Sequence[int],
    allowed: Mapping[int, frozenset[int]],
    accept: Check | None = None,
    limit: int = 10_000,
) -> Deals | None:
    found = all_deals(cards, sizes, allowed, accept, limit=limit)
    if found is None:
        return None
    deals = [tuple(tuple(p) for p in parts) for parts, _ in found]
    assert len(deals) == len(set(deals))  # each deal once
    return {tuple(tuple(p) for p in parts): w for parts, w in found}


CASES = [
    # cards (copies repeat), sizes, where some cards may go
    ([1, 2, 3, 4, 5, 6], [3, 3], {}),
    ([1, 1, 2, 2, 3], [2, 2, 1], {}),
    ([1, 1, 2, 3, 3, 4], [2, 2, 2], {1: frozenset({0, 1}), 4: frozenset({2})}),
    ([5, 5, 5, 6, 7], [2, 3], {6: frozenset({1}), 7: frozenset({1})}),
    ([1, 2, 3, 4], [1, 1, 2], {1: frozenset({0}), 2: frozenset({0, 1})}),
]


@pytest.mark.parametrize(("cards", "sizes", "allowed"), CASES)
def test_all_deals_is_the_brute_force_set_with_its_weights(
    cards: list[int], sizes: list[int], allowed: dict[int, frozenset[int]]
) -> None:
    truth = brute_force(cards, sizes, allowed)
    assert truth  # the case has deals to find
    assert exact(cards, sizes, allowed) == truth


def test_all_deals_keeps_only_what_the_check_accepts() -> None:
    """A place that may not hold two copies of a card (a seat that did not play a pair)."""
    cards = [1, 1, 2, 2, 3, 3]

    def no_pair_in_first(parts: list[list[int]]) -> bool:
        return len(set(parts[0])) == len(parts[0])

    truth = brute_force(cards, [3, 3], {}, no_pair_in_first)
    assert exact(cards, [3, 3], {}, no_pair_in_first) == truth
    assert ((1, 2, 3), (1, 2, 3)) in truth and ((1, 1, 2), (2, 3, 3)) not in truth


def test_all_deals_weighs_copies_as_a_uniform_deal_does() -> None:
    """Two 7s and one 8 into places of two and one: both 7s together is one deal of the
    cards told apart, a 7 with the 8 two."""
    assert exact([7, 7, 8], [2, 1], {}) == {((7, 7), (8,)): 1, ((7, 8), (7,)): 2}


def test_all_deals_says_when_more_than_the_limit_fit_or_none_does() -> None:
    assert exact(list(range(8)), [4, 4], {}, limit=69) is None  # 70 deals
    assert exact(list(range(8)), [4, 4], {}, limit=70) is not None
    assert exact([1, 2], [1, 1], {1: frozenset({0}), 2: frozenset({0})}) == {}


def late(code: str, seat: int, hidden: int, seed: int, choices: int = 1) -> State:
    """A hand of ``code`` played by rule bots until ``seat`` is to act with at most
    ``hidden`` cards it cannot see (and at least ``choices`` legal actions, or too many to list)."""
    game = paiju.game(code)
    state = game.new_state(seed=f"exact:{seed}")
    bots = [make_bot(game, 100 + s, "normal") for s in range(state.seats)]
    while not state.is_over:
        acting = sorted(state.to_act())
        if (
            seat in acting
            and sum(state.hidden_from(seat).values()) <= hidden
            and len(state.legal_actions(seat) or range(choices)) >= choices
        ):
            return state
        who = acting[0]
        state.apply(who, bots[who].act(state, who))
    raise AssertionError("the hand ended first")


def holdings(state: State, seat: int) -> tuple[tuple[int, ...], ...]:
    """Where each card hidden from ``seat`` is: every place's sorted cards."""
    hidden = state.hidden_from(seat)
    return tuple(
        tuple(sorted(c for c in cards if c in hidden))
        for _, cards in sorted(state.locations().items())
    )


@pytest.mark.parametrize(("code", "seed"), [("sandaha", 1), ("anshan-jiayibing", 0)])
def test_all_samples_are_every_world_once_with_the_draws_frequencies(code: str, seed: int) -> None:
    state = late(code, 0, 8, seed)
    worlds, complete = all_samples(state, 0, random.Random(0), 64)
    assert complete and len(worlds) >= 2
    assert abs(sum(p for _, p in worlds) - 1) < 1e-9
    for world, _ in worlds:
        assert world.view(0) == state.view(0)
    chance = {holdings(w, 0): p for w, p in worlds}
    assert len(chance) == len(worlds)  # each world once
    assert holdings(state, 0) in chance  # the true deal is one of them
    draws = Counter(holdings(state.resample(0, random.Random(k)), 0) for k in range(600))
    assert set(draws) <= set(chance)  # the sampler never deals a world left out
    # and each world as often as its probability says (a chi-square bound, loose)
    chi2 = sum((draws[h] - 600 * p) ** 2 / (600 * p) for h, p in chance.items())
    assert chi2 < 3 * len(chance) + 30


def test_all_samples_gives_one_world_when_many_fit() -> None:
    state = paiju.game("sandaha").new_state(seed="exact:many")
    seat = min(state.to_act())
    worlds, complete = all_samples(state, seat, random.Random(0), 64)
    assert not complete and len(worlds) == 1 and worlds[0][1] == 1.0


def test_hard_bot_searches_every_world_when_few_fit() -> None:
    """The 困难 bot averages over exactly the worlds that can be: with the race off, its
    worlds are all of them, each rolled out the same number of times, weighed by their
    probabilities."""
    state = late("anshan-fangyang", 0, 8, 1, choices=2)
    worlds, complete = all_samples(state, 0, random.Random(0), 64)
    assert complete
    bot = make_bot(state.game, 0, "hard")
    assert isinstance(bot, SearchBot)
    bot.budget = Budget(ms=600_000, samples=120)
    bot.race_after = 10**6
    choices = bot.choices(state, 0, bot.policy.act(state, 0))
    assert len(choices) >= 2
    diffs = bot.search(state, 0, choices)
    passes = 120 // len(worlds)
    assert passes >= 2
    assert bot.last_exact == len(worlds) and bot.last_samples == passes * len(worlds)
    assert all(len(d) == passes * len(worlds) for d in diffs)
    assert sorted(bot.last_weights) == sorted(p for _, p in worlds for _ in range(passes))
