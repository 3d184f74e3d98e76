"""State.resample: samples keep what a seat sees and spread what it does not as they should.

The harness checks every family's samples on its playouts (view, conservation, replay,
blindness); here fixed positions are sampled many times and the places the hidden cards
land in are compared with what a uniform deal behind the seat's view gives (a chi-square
test at the 0.1% level, seeded, so it is deterministic).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

import paiju
from paiju.engine import State
from paiju.games import make_bot
from paiju.harness import playout
from paiju.sampling import ResampleFailed, deal_hidden

SAMPLES = 400


def chi2_sf(stat: float, df: int) -> float:
    """P(X > stat) for X chi-square with ``df`` degrees (upper regularized gamma, by series)."""
    k = df / 2
    x = stat / 2
    if x == 0:
        return 1.0
    term = total = 1.0 / k
    n = 1
    while term > 1e-12 * total:
        term *= x / (k + n)
        total += term
        n += 1
    lower = math.exp(k * math.log(x) - x - math.lgamma(k)) * total
    return max(0.0, 1.0 - lower)


def chi2_pvalue(observed: Sequence[float], expected: Sequence[float]) -> float:
    """The chi-square goodness-of-fit test's p-value."""
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    return chi2_sf(stat, len(observed) - 1)


def test_chi2_matches_the_tables() -> None:
    # the 5% points of the chi-square table: df 1 at 3.841, df 4 at 9.488, df 5 at 11.070
    assert chi2_sf(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert chi2_sf(9.488, 4) == pytest.approx(0.05, abs=1e-3)
    assert chi2_sf(11.070, 5) == pytest.approx(0.05, abs=1e-3)
    assert chi2_pvalue([10, 10, 10], [10, 10, 10]) == 1.0


def played_to(game_code: str, seed: int, until: Callable[[State], bool]) -> State:
    """The first state of a bot playout (seeded) for which ``until`` holds."""
    game = paiju.game(game_code)
    state = game.new_state(seed=seed)
    bots = [make_bot(game, s) for s in range(state.seats)]
    while not until(state):
        assert not state.is_over, "the hand ended before the position was reached"
        seat = min(state.to_act())
        state.apply(seat, bots[seat].act(state, seat))
    return state


def landing(state: State, seat: int, card: int, places: Callable[[State], list[Counter[int]]]):
    """How often ``card`` lands in each place over SAMPLES resamples for ``seat``."""
    counts = Counter[int]()
    for k in range(SAMPLES):
        sample = state.resample(seat, random.Random(k))
        for i, place in enumerate(places(sample)):
            counts[i] += place[card]
    return counts


def test_jiayibing_cards_spread_evenly_over_the_five_other_hands() -> None:
    """At the start, a card seat 0 does not hold is in each other hand with a chance
    proportional to the hand's unknown cards (the special 3 shown to all is fixed)."""
    state = paiju.game("anshan-jiayibing").new_state(seed=3)
    assert isinstance(state, paiju.games.climbing.core.ClimbingState)
    card = max(state.hidden_from(0))
    others = [1, 2, 3, 4, 5]
    sizes = [len(state.hands[s]) - sum(state.exposed[s].values()) for s in others]
    counts = landing(state, 0, card, lambda s: [Counter(s.hands[o]) for o in others])  # type: ignore[attr-defined]
    copies = state.hidden_from(0)[card]
    observed = [counts[i] for i in range(5)]
    expected = [SAMPLES * copies * n / sum(sizes) for n in sizes]
    assert chi2_pvalue(observed, expected) > 0.001, (observed, expected)


def test_sandaha_void_seat_gets_none_of_the_suit_and_the_rest_spread_by_size() -> None:
    """必须跟同花色: a seat that did not follow a suit holds none of it in any sample; a card of
    that suit is elsewhere (another hand or the buried kitty) in proportion to the room."""
    from paiju.games.sandaha.game import SandahaState
    from paiju.games.sandaha.rules import order

    def one_void(state: State) -> bool:
        """Between tricks, one seat void in one suit, whose cards a third seat cannot see."""
        assert isinstance(state, SandahaState)
        voids = state.voids()
        if sum(len(v) for v in voids.values()) != 1 or state.trick:
            return False
        ((void_seat, (led,)),) = [(s, tuple(v)) for s, v in voids.items() if v]
        suit = order(state.trump_index).suit
        return any(
            suit[c] == led
            for s in range(4)
            if s not in (void_seat, state.declarer)
            for c in state.hidden_from(s)
        )

    state = played_to("sandaha", 0, one_void)
    assert isinstance(state, SandahaState)
    (void_seat, suits), *_ = [(s, v) for s, v in state.voids().items() if v]
    suit = order(state.trump_index).suit
    (led,) = suits
    viewer, card = next(
        (s, c)
        for s in range(4)
        if s not in (void_seat, state.declarer)
        for c in sorted(state.hidden_from(s))
        if suit[c] == led
    )
    hidden = state.hidden_from(viewer)
    others = [s for s in range(4) if s != viewer]
    places = [*others, "kitty"]

    def where(sample: State) -> list[Counter[int]]:
        assert isinstance(sample, SandahaState)
        return [Counter(sample.hands[o]) for o in others] + [Counter(sample.kitty)]

    counts = landing(state, viewer, card, where)
    assert counts[others.index(void_seat)] == 0
    room = [len(state.hands[o]) - sum(state.exposed[o].values()) for o in others]
    room.append(len(state.kitty))
    open_ = [i for i, p in enumerate(places) if p != void_seat]
    observed = [counts[i] for i in open_]
    expected = [SAMPLES * hidden[card] * room[i] / sum(room[j] for j in open_) for i in open_]
    assert chi2_pvalue(observed, expected) > 0.001, (observed, expected)


def test_majiang_unknown_copies_spread_over_the_hands_and_the_wall() -> None:
    """The unknown copies of a tile are in the other hands and the wall in proportion to
    their sizes (the wall's order unknown), the flip and its 混 unchanged."""
    state = paiju.game("anshan-majiang").new_state(seed=5)
    seat = (state.dealer + 1) % 4  # type: ignore[attr-defined]
    hidden = state.hidden_from(seat)
    tile = max(hidden, key=lambda t: (hidden[t], t))
    others = [s for s in range(4) if s != seat]

    def where(sample: State) -> list[Counter[int]]:
        assert sample.view(seat)["flip"] == state.view(seat)["flip"]
        return [Counter(sample.hands[o]) for o in others] + [Counter(sample.wall)]  # type: ignore[attr-defined]

    counts = landing(state, seat, tile, where)
    sizes = [len(state.hands[o]) for o in others] + [len(state.wall)]  # type: ignore[attr-defined]
    observed = [counts[i] for i in range(len(sizes))]
    expected = [SAMPLES * hidden[tile] * n / sum(sizes) for n in sizes]
    assert chi2_pvalue(observed, expected) > 0.001, (observed, expected)


def test_fangyang_first_deal_banker_keeps_heart_4() -> None:
    """F2: 第一局红桃4为庄 - the banker of a first deal holds ♥4 in every sample, and the
    called card (不亮, not played yet) is with somebody other than the seat."""
    from paiju.games.climbing.fangyang import HEART4, FangyangState

    state = played_to("anshan-fangyang", 2, lambda s: s.phase == "playing")
    assert isinstance(state, FangyangState)
    viewer = next(s for s in range(4) if s != state.banker and HEART4 not in state.hands[s])
    for k in range(50):
        sample = state.resample(viewer, random.Random(k))
        assert isinstance(sample, FangyangState)
        if HEART4 not in sample.played:
            assert HEART4 in sample.hands[state.banker]
        assert sample.banker == state.banker


def test_danzi_partner_hand_is_kept_and_opponents_dealt_again() -> None:
    """明牌: a seat sees its partner's hand, so a sample keeps it; the opponents' change."""
    from paiju.games.danzi.game import DanziState

    state = played_to("ningcheng-danzi", 4, lambda s: len(s.history) >= 6)
    assert isinstance(state, DanziState)
    changed = 0
    for k in range(20):
        sample = state.resample(0, random.Random(k))
        assert isinstance(sample, DanziState)
        assert sample.hands[0] == state.hands[0] and sample.hands[2] == state.hands[2]
        changed += sample.hands[1] != state.hands[1]
    assert changed >= 18


def test_shisanzhang_others_hidden_arrangement_is_chosen_again() -> None:
    """Another seat's arrangement is hidden until the showdown: a sample re-arranges its new
    cards, and the seat's own arrangement stays."""
    game = paiju.game("1301")
    state = game.new_state(seed=1)
    bot = make_bot(game, 0)
    for seat in (1, 2):
        state.apply(seat, bot.act(state, seat))
    sample = state.resample(0, random.Random(0))
    assert sample.view(0) == state.view(0)
    assert sample.hands[1] != state.hands[1]  # type: ignore[attr-defined]
    assert sorted(sample.to_act()) == sorted(state.to_act())


def test_deal_hidden_respects_where_cards_may_go() -> None:
    rng = random.Random(7)
    cards = list(range(20))
    allowed = {c: frozenset({0}) for c in range(8)}  # eight cards only in place 0 (size 8)
    for _ in range(20):
        parts = deal_hidden(rng, cards, [8, 6, 6], allowed)
        assert sorted(parts[0]) == list(range(8))
    with pytest.raises(ResampleFailed):
        deal_hidden(rng, cards, [7, 7, 6], allowed)


def test_deal_hidden_places_one_by_one_when_shuffles_rarely_fit() -> None:
    """Tight constraints (a shuffle fits once in ~10^5): the one-by-one placement still finds
    deals that fit, and spreads a free card over every place."""
    rng = random.Random(1)
    cards = list(range(30))
    allowed = {c: frozenset({c % 3}) for c in range(24)}
    seen = Counter[int]()
    for _ in range(30):
        parts = deal_hidden(rng, cards, [10, 10, 10], allowed)
        for place, part in enumerate(parts):
            assert all(c >= 24 or c % 3 == place for c in part)
            seen.update(place for c in part if c == 29)
    assert set(seen) == {0, 1, 2}


def test_playouts_check_resample_in_every_family() -> None:
    """The harness's resample check runs on the families' playouts and finds nothing."""
    for code in ("sandaha", "anshan-fangyang", "anshan-majiang", "2101"):
        result = playout(paiju.game(code), seed=9)
        assert result.failures == [], result.failures[:3]


def test_resample_of_a_finished_hand_is_the_hand() -> None:
    game = paiju.game("anshan-jiayibing")
    result = playout(game, seed=1, deep=False)
    state = game.new_state(seed=result.hands[0].record.seed)
    for seat, action in result.hands[0].record.actions:
        state.apply(seat, action)
    assert state.is_over
    assert state.resample(0, random.Random(0)).view(None) == state.view(None)
