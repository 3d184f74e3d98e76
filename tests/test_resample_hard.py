"""Samples where consistent deals are rare: found at once, every time, never the true deal.

Positions are built so that a random deal of the hidden cards fits what the seat has seen
about once in a million tries or less (the fraction is counted exactly here, from where
each card may go); the sampler deals by constraint and finds one on every call. Where no
sample is found, no bot is handed the true deal: the seat plays a random legal action.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache

import pytest

import paiju
from paiju import sampling
from paiju.bots import SeatOnly
from paiju.cards import parse_cards
from paiju.engine import Action, Deal, State
from paiju.games import make_bot
from paiju.games.sandaha.game import SandahaState, is_changzhu
from paiju.games.sandaha.rules import order
from paiju.harness import playout
from paiju.sampling import ResampleFailed, deal_hidden
from paiju.search import Budget, SearchBot
from paiju.server import seat_bots


def fit_fraction(
    cards: Sequence[int], sizes: Sequence[int], allowed: Mapping[int, frozenset[int]]
) -> float:
    """The share of uniform deals of ``cards`` (each copy its own) into places of ``sizes``
    that put every card where ``allowed`` lets it go: counted exactly, kind by kind."""
    everywhere = frozenset(range(len(sizes)))
    kinds = list(Counter(allowed.get(c, everywhere) for c in cards).items())

    @cache
    def ways(k: int, room: tuple[int, ...]) -> int:
        if k == len(kinds):
            return int(not any(room))
        places, n = sorted(kinds[k][0]), kinds[k][1]
        total = 0

        def split(i: int, left: int, room: tuple[int, ...], factor: int) -> None:
            nonlocal total
            if i == len(places):
                if left == 0:
                    total += factor * ways(k + 1, room)
                return
            p = places[i]
            for take in range(min(left, room[p]) + 1):
                rest = (*room[:p], room[p] - take, *room[p + 1 :])
                split(i + 1, left - take, rest, factor * math.comb(left, take))

        split(0, n, room, 1)
        return total

    every = math.factorial(len(cards))
    for size in sizes:
        every //= math.factorial(size)
    return ways(0, tuple(sizes)) / every


def test_fit_fraction_counts_by_hand() -> None:
    # two cards, places of one each: card 0 only in place 0 fits one deal of two
    assert fit_fraction([0, 1], [1, 1], {0: frozenset({0})}) == 0.5
    assert fit_fraction([0, 1, 2], [1, 2], {}) == 1.0
    assert fit_fraction([0, 1, 2], [2, 1], {0: frozenset({1}), 1: frozenset({1})}) == 0.0


def test_deal_hidden_finds_a_one_in_a_million_deal_every_time() -> None:
    """Four places of 10: 32 cards each allowed in one place, 8 in two: a shuffle fits about
    once in 10^20 deals; every call deals one that fits, and the free cards reach both of
    their places."""
    cards = list(range(40))
    allowed = {c: frozenset({c % 4}) for c in range(32)}
    allowed |= {c: frozenset({c % 4, (c + 1) % 4}) for c in range(32, 40)}
    assert fit_fraction(cards, [10] * 4, allowed) < 1e-6
    landed = Counter[tuple[int, int]]()
    for k in range(100):
        parts = deal_hidden(random.Random(k), cards, [10] * 4, allowed)
        assert sorted(len(p) for p in parts) == [10] * 4
        for place, part in enumerate(parts):
            assert all(place in allowed[c] for c in part)
            landed.update((c, place) for c in part if c >= 32)
    assert all(landed[c, p] > 0 for c in range(32, 40) for p in allowed[c])


def test_deal_hidden_search_cuts_with_a_monotone_check() -> None:
    """A check of the whole deal that a shuffle passes once in 10^11 (places 0 and 1 hold
    none of the cards 0-19, so places 2 and 3 hold exactly those): found at once when the
    check also judges partial deals."""

    def fits(parts: list[list[int]]) -> bool:
        return not any(c < 20 for c in parts[0] + parts[1])

    same = {c: frozenset({2, 3}) for c in range(20)}  # the check as where cards may go
    assert fit_fraction(range(40), [10] * 4, same) < 1e-6
    for k in range(50):
        parts = deal_hidden(random.Random(k), range(40), [10] * 4, accept=fits, prune=fits)
        assert fits(parts)


def test_deal_hidden_says_when_no_deal_exists() -> None:
    def never(parts: list[list[int]]) -> bool:
        return not any(c < 11 for c in parts[0] + parts[1] + parts[2])

    with pytest.raises(ResampleFailed, match="no deal"):
        deal_hidden(random.Random(0), range(40), [10] * 4, accept=never, prune=never)


@pytest.mark.parametrize("card", [0, 4, 8])
def test_search_spread_is_near_the_uniform_one(monkeypatch: pytest.MonkeyPatch, card: int) -> None:
    """The search's stated bias: a card placed early is not told what the later cards need
    (alone, the search put card 4 below in place 1 a third of the time where a uniform
    deal does so a fifth of the time); the swaps after it take the deal most of the way
    back. Here (places of 2, 4 and 6; cards 0-3 only in places 0-1, cards 4-5 only in
    places 1-2) the search and its swaps (no shuffles) land each card within 0.05 of the
    uniform chances, in total variation, over 1,500 deals (measured: 0.003 for card 0,
    0.015 for card 4, 0.009 for card 8; the sampling noise alone is about 0.01)."""
    monkeypatch.setattr(sampling, "SHUFFLE_TRIES", 0)
    cards, sizes = list(range(12)), [2, 4, 6]
    allowed = {c: frozenset({0, 1}) for c in range(4)} | {c: frozenset({1, 2}) for c in (4, 5)}
    every = fit_fraction(cards, sizes, allowed)
    where = allowed.get(card, frozenset(range(3)))
    exact = [fit_fraction(cards, sizes, allowed | {card: where & {p}}) / every for p in range(3)]
    landed = Counter[int]()
    rng = random.Random(card)
    runs = 1500
    for _ in range(runs):
        parts = deal_hidden(rng, cards, sizes, allowed)
        landed.update(p for p, part in enumerate(parts) if card in part)
    distance = sum(abs(landed[p] / runs - exact[p]) for p in range(3)) / 2
    assert distance < 0.05, (card, exact, landed)


# A 三打哈 hand built so that seats 1-3 each lack two suits, then played by the rule bots:
# after 33 actions seat 0 (to act) has seen voids that leave about 5 in 10^7 deals of the
# cards it cannot see fitting, before the follows of pairs and the 常主 duty are counted.
HANDS = (
    "2h 5s 5c 5c 5d 6h 7h 8h 8c 9h 9c Ts Tc Td Jh Jd Qh Qc Kc Ad RJ",
    "2c 2d 5d 7c 7c 7d 8c 8d 9c 9d Tc Jc Jc Jd Qd Kd Ac Ad BJ BJ RJ",
    "2s 2d 5s 6s 6d 6d 7d 8s 8d 9s 9s Ts Td Js Qs Qd Ks Ks Kd As As",
    "2s 2h 5h 6s 6h 7s 7s 7h 8s 8h 9h Th Th Js Jh Qs Qh Kh Kh Ah Ah",
)
KITTY = "2c 5h 6c 6c 9d Qc Kc Ac"
ACTIONS = [
    (0, {"type": "pass"}),
    (1, {"type": "bid", "points": 80}),
    (2, {"type": "bid", "points": 75}),
    (3, {"type": "bid", "points": 70}),
    (1, {"type": "bid", "points": 65}),
    (2, {"type": "pass"}),
    (3, {"type": "bid", "points": 60}),
    (1, {"type": "pass"}),
    (3, {"type": "bury", "cards": "9d 6s 8s Js Qs Qc 6c 6c"}),
    (3, {"type": "name_trump", "trump": "h"}),
    *(
        (seat, {"type": "play", "cards": cards})
        for seat, cards in [
            (3, "7s 7s"), (0, "6h 8h"), (1, "7c 7c"), (2, "2s 2d"),
            (3, "6h"), (0, "9h"), (1, "2c"), (2, "7d"),
            (2, "As As Ks Ks"), (3, "Ah Ah Kh Kh"), (0, "5s Ts 8c 9c"), (1, "8c 8d 9c 9d"),
            (3, "8h"), (0, "Jh"), (1, "2d"), (2, "Ts"),
            (1, "BJ BJ RJ"), (2, "Td Kd 5s"), (3, "5h 5h 9h"), (0, "Qh 2h 7h"),
            (1, "Ad"), (2, "6d"), (3, "Th"),
        ]
    ),
]  # fmt: skip


def rare_position() -> SandahaState:
    game = paiju.game("sandaha")
    hands = tuple(tuple(parse_cards(h)) for h in HANDS)
    deal = Deal(hands, {"kitty": tuple(parse_cards(KITTY))}, {"first_bidder": 0})
    state = game.new_state(deal=deal)
    for seat, action in ACTIONS:
        state.apply(seat, game.parse_action(action))
    assert isinstance(state, SandahaState)
    return state


def void_fit(state: SandahaState, seat: int) -> float:
    """The share of random deals of what ``seat`` cannot see that respect the voids shown."""
    others = [s for s in range(state.seats) if s != seat]
    sizes = [len(state.hands[s]) - sum(state.exposed[s].values()) for s in others]
    sizes.append(len(state.kitty))
    suit = order(state.trump_index).suit
    voids = state.voids()
    pool = sorted(state.hidden_from(seat).elements())
    allowed = {
        c: frozenset(i for i, s in enumerate(others) if suit[c] not in voids[s]) | {len(others)}
        for c in pool
    }
    return fit_fraction(pool, sizes, allowed)


def test_sandaha_rare_position_is_sampled_at_once_every_time() -> None:
    """必须跟同花色: with three seats void in suits, one random deal in about two million
    fits seat 0's view; every resample returns one (its view is seat 0's, its deal not the
    true one)."""
    state = rare_position()
    assert state.to_act() == {0} and state.phase == "playing"
    assert void_fit(state, 0) < 1e-6
    deals = set()
    for k in range(40):
        sample = state.resample(0, random.Random(k))
        assert sample.view(0) == state.view(0)
        assert sample.deal != state.deal
        deals.add(sample.deal.hands)
    assert len(deals) > 20  # fresh guesses, not one deal found again and again


def test_sandaha_rare_samples_depend_only_on_what_the_seat_knows() -> None:
    """The search reads only the seat's knowledge: a sample of a sample, and a sample of
    the true state, drawn with the same seed, are the same hand."""
    state = rare_position()
    for k in range(5):
        sample = state.resample(0, random.Random(k))
        again = sample.resample(0, random.Random(100 + k))
        direct = state.resample(0, random.Random(100 + k))
        assert again.record().to_json() == direct.record().to_json()


def test_hard_bot_searches_the_rare_position() -> None:
    """The 困难 bot plays the rare position on samples: it searched (worlds rolled out),
    and no search was cut short for want of a sample."""
    state = rare_position()
    game = state.game
    bot = make_bot(game, 0, "hard")
    assert isinstance(bot, SearchBot)
    bot.budget = Budget(ms=60_000, samples=12, min_samples=12)
    choices = bot.choices(state, 0, bot.policy.act(state, 0))
    assert len(choices) >= 2
    action = bot.act(state, 0)
    assert state.is_legal(0, action)
    assert bot.last_samples >= 4 and bot.resample_failures == 0


class NoSample(SandahaState):
    """A state whose sampler finds nothing, as a sampler must say when no deal exists."""

    def resample(self, seat: int, rng: random.Random) -> NoSample:
        raise ResampleFailed("no deal (a test)")


def no_sample_state() -> SandahaState:
    state = rare_position()
    state.__class__ = NoSample
    return state


class Spy:
    def __init__(self) -> None:
        self.handed: list[State] = []

    def act(self, state: State, seat: int) -> Action:
        self.handed.append(state)
        raise AssertionError("a bot was asked without a sample")


def test_seat_only_never_hands_the_true_deal_when_no_sample_is_found() -> None:
    state = no_sample_state()
    spy = Spy()
    wrapper = SeatOnly(spy, 0)
    action = wrapper.act(state, 0)
    assert spy.handed == [] and wrapper.failures == 1
    assert state.is_legal(0, action)


def test_server_bot_is_not_asked_without_a_sample() -> None:
    state = no_sample_state()
    spy = Spy()
    assert seat_bots.seen(state, 0, room=1) is None
    action = seat_bots.choose_now(spy, False, state, 0, room=1)
    assert spy.handed == []
    assert state.is_legal(0, action)


def test_a_hard_bot_past_its_wall_deadline_plays_the_rule_bot_at_once() -> None:
    """The room's cap on a bot's turn: a search whose deadline has passed (here before it
    starts: no clock is raced) rolls out no world and plays the rule bot's action."""
    state = rare_position()
    bot = make_bot(state.game, 0, "hard")
    assert isinstance(bot, SearchBot)
    bot.deadline = time.monotonic() - 1.0
    action = seat_bots.think(bot, state, 0, bot.deadline)
    assert bot.last_samples == 0
    assert action == bot.policy.act(state, 0)


def test_sandaha_seats_that_passed_under_the_duty_hold_fewer_than_seven_changzhu() -> None:
    """有7张常主（王、2和7）必须叫到70分或者以下: a seat that passed before anyone bid 70 held at
    most six 常主 when dealt, in every sample too (the cause of the sampler's old misses)."""
    game = paiju.game("sandaha")
    for seed in range(6):
        state = game.new_state(seed=f"duty/{seed}")
        bots = [make_bot(game, s) for s in range(state.seats)]
        while state.phase in ("bidding", "burying", "naming"):
            seat = min(state.to_act())
            state.apply(seat, bots[seat].act(state, seat))
        assert isinstance(state, SandahaState)
        caps = state.duty_caps()
        viewer = next(s for s in range(4) if s != state.declarer)
        for k in range(5):
            sample = state.resample(viewer, random.Random(k))
            for s, most in caps.items():
                held = sum(1 for c in sample.deal.hands[s] if is_changzhu(c))
                assert held <= most, (seed, s, held)


def test_the_soak_seed_that_missed_a_sample_plays_clean() -> None:
    """``paiju simulate sandaha --games 20 --seed 3``'s 20th match once found no sample for
    seat 1 in its 8th hand; every invariant holds on it now."""
    assert playout(paiju.game("sandaha"), seed="3:19").failures == []


def test_must_beat_samples_count_the_cards_a_seat_played_after_passing() -> None:
    """有牌必管 (``must_beat``): a seat that passed held no play that beat the table, in its
    hand of then: its hand now and the cards it has played since. Every sample of three
    甲乙丙 hands, at every decision, is found (the check once forgot the cards played
    since, and the replay refused most of its deals)."""
    game = paiju.game("anshan-jiayibing", must_beat=True)
    n = 0
    for seed in range(3):
        state = game.new_state(seed=f"mb{seed}")
        bots = [make_bot(game, s) for s in range(state.seats)]
        while not state.is_over:
            seat = min(state.to_act())
            sample = state.resample(seat, random.Random(n))
            assert sample.view(seat) == state.view(seat)
            n += 1
            state.apply(seat, bots[seat].act(state, seat))
