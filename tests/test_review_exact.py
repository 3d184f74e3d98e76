"""复盘 of 十三张, 佳佳宝 and 宝子: "For 十三张 and 佳佳宝 the best arrangement or grouping and
its exact expected value against the field; for 宝子 the bet against the exact odds."

The values are checked on hands worked out by hand (宝子's push chance, a 一条龙 declared),
against the grouping solver's plain scan of every banker hand, and - as the bots' tests
do - on two states the seat cannot tell apart, which must be valued alike: the review
never reads a card the seat could not see.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, prod
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju.appraisal.baozi import appraise as appraise_baozi
from paiju.appraisal.shisanzhang import appraise as appraise_13
from paiju.cards import Card, parse_cards
from paiju.catalog import find_variant
from paiju.engine import Deal, State
from paiju.games import game
from paiju.games.baozi.game import Bet, Group, group_winner, order_groups
from paiju.games.baozi.rules import symbol
from paiju.games.baozi.solver import solver
from paiju.games.shisanzhang.game import Arrange, Declare
from paiju.review import review_record

import cli_run  # isort: skip
from test_review import _played_record  # isort: skip


def _decision(found: dict[str, Any], index: int) -> dict[str, Any]:
    return next(d for d in found["decisions"] if d["index"] == index)


def test_baozi_bet_against_the_exact_odds_2001() -> None:
    """2001: a push needs the same two ranks on both sides (same points, same top card,
    same other card). Counted by hand: a pair of rank r held by the banker (6 ways) leaves
    the player 1 way to hold the same pair; two ranks r, s (16 ways) leave 3·3 = 9. Pushes
    = 13·6·1 + C(13,2)·16·9 = 11,310 of C(52,2)·C(50,2) = 1,624,350 deals = 29/4165; the
    rest is split evenly (the game is symmetric), so every bet is worth 0."""
    g = game("2001")
    state = g.new_state(2, seed="b")
    odds = appraise_baozi(state, 1, Bet(7), random.Random(0), 1)
    assert odds is not None and odds.method == "exact"
    facts = odds.facts["odds"]
    assert facts["deals"] == 1_624_350
    assert facts["push"] == "29/4165"
    assert facts["win"] == facts["loss"] == "2068/4165"
    assert all(c.value == 0 for c in odds.candidates)
    assert odds.bot == Bet(7), "every bet is as good: the one played is a best one"


def test_baozi_bet_where_ties_go_to_the_banker_is_lowest_best() -> None:
    """2003: "ties: banker" - the banker's edge makes every unit bet lose on average, so the
    table's lowest bet is best and a bet of b gives up (b - low) times that edge."""
    g = game("2003", min_bet=2, max_bet=9)
    state = g.new_state(3, seed="c")
    found = appraise_baozi(state, 1, Bet(9), random.Random(0), 1)
    assert found is not None
    per_unit = Fraction(found.facts["odds"]["expected_exact"])
    win, loss = Fraction(found.facts["odds"]["win"]), Fraction(found.facts["odds"]["loss"])
    assert per_unit == win - loss < 0
    assert found.bot == Bet(2)
    values = {c.action: c.value for c in found.candidates}
    assert values[Bet(9)] - values[Bet(2)] == pytest.approx(float(7 * per_unit))


def _against_every_hand(
    code: str, hand: tuple[Card, ...], split: Any, banker: bool = False
) -> Fraction:
    """The reference, counted by hand: every rank multiset the other side (the banker, or
    one player where ``banker``) may hold from the cards the seat does not see, weighted by
    its card hands (the product of C(left, k) over its ranks), grouped as the bot groups
    one such hand, compared group by group; the seat's expected result."""
    sol = solver(find_variant(code))
    ev = sol.ev
    left: dict[str, list[Card]] = {}
    for card in ev.deck:
        if card not in hand:
            left.setdefault(symbol(card), []).append(card)
    total = result = 0
    for ranks in combinations_with_replacement(sorted(left), 4):
        need = {r: ranks.count(r) for r in set(ranks)}
        if any(n > len(left[r]) for r, n in need.items()):
            continue
        weight = prod(comb(len(left[r]), n) for r, n in need.items())
        cards = [c for r, n in need.items() for c in left[r][:n]]
        theirs = sol.best(cards, "player" if banker else "banker")
        mine = order_groups(ev, *split)
        pair = (mine, theirs) if banker else (theirs, mine)  # (the banker's, the player's)
        won = group_winner([ev.compare(pair[0][i], pair[1][i]) for i in (0, 1)])
        sign = -1 if banker else 1
        result += sign * weight * {"player": 1, "banker": -1, "push": 0}[won]
        total += weight
    return Fraction(result, total)


@pytest.mark.parametrize("code", ["2101", "2105"])
def test_jiajiabao_grouping_against_every_hand_the_banker_may_hold(code: str) -> None:
    """Where the code never looks at suits, a player's grouping is valued against every
    hand of four the banker may hold, grouped as the bot groups it: the count by hand
    (one hand of each rank multiset, weighted) gives the same expectations, times the bet."""
    g = game(code)
    state = g.new_state(2, seed=f"g{code}")
    state.apply(1, Bet(3))
    seat = 1
    legal = state.legal_actions(seat)
    assert legal
    played = legal[-1]
    assert isinstance(played, Group)
    flipped = Group(played.second, played.first)  # the same grouping, groups the other way
    found = appraise_baozi(state, seat, flipped, random.Random(0), 1)
    assert found is not None and found.method == "exact" and found.facts["others"] == "bot"
    assert found.played in [c.action for c in found.candidates]
    for c in found.candidates:
        assert isinstance(c.action, Group)
        reference = _against_every_hand(code, state.hands[seat], (c.action.first, c.action.second))
        assert Fraction(c.facts["expected_exact"]) == 3 * reference


def test_jiajiabao_grouping_where_suits_count_is_the_solver_s_scan_of_every_hand() -> None:
    """2107 compares suits: the grouping is counted card by card against every hand of the
    banker, grouped by the solver's baseline rule; the plain scan of them all agrees."""
    code = "2107"
    g = game(code)
    state = g.new_state(3, seed=f"g{code}")
    for seat in (1, 2):
        state.apply(seat, Bet(3 if seat == 1 else 5))
    seat = 1
    legal = state.legal_actions(seat)
    assert legal
    found = appraise_baozi(state, seat, legal[0], random.Random(0), 1)
    assert found is not None and found.facts["others"] == "baseline"
    scan = solver(find_variant(code)).scores_by_scan(state.hands[seat], "player")
    by_split = {frozenset((frozenset(s.front), frozenset(s.back))): s for s in scan}
    for c in found.candidates:
        assert isinstance(c.action, Group)
        ref = by_split[frozenset((frozenset(c.action.first), frozenset(c.action.second)))]
        assert c.value == pytest.approx(3 * float(ref.expected))
        assert Fraction(c.facts["win"]) == Fraction(ref.wins, ref.hands)


def test_jiajiabao_banker_grouping_counts_every_player_s_bet() -> None:
    """The banker meets each player: its expected result is the players' total bet times its
    expectation against one hand (each player's four cards are as random as any other's)."""
    g = game("2101")
    state = g.new_state(4, seed="banker")
    for seat, amount in ((1, 2), (2, 3), (3, 4)):
        state.apply(seat, Bet(amount))
    legal = state.legal_actions(0)
    assert legal
    found = appraise_baozi(state, 0, legal[0], random.Random(0), 1)
    assert found is not None and found.facts["stake"] == 9
    for c in found.candidates:
        assert isinstance(c.action, Group)
        split = (c.action.first, c.action.second)
        reference = _against_every_hand("2101", state.hands[0], split, banker=True)
        assert Fraction(c.facts["expected_exact"]) == 9 * reference


def _one_dragon_state() -> State:
    """1301 (points) heads-up: seat 0 holds 一条龙, "takes 36 from each other player"."""
    g = game("1301", scoring="points")
    mine = parse_cards("As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s")
    rest = sorted(set(parse_cards(" ".join(f"{r}{s}" for r in "AKQJT98765432" for s in "shcd")))
                  - set(mine))  # fmt: skip
    deal = Deal((tuple(mine), tuple(rest[:13])), {"undealt": tuple(rest[13:])})
    return g.new_state(2, deal=deal)


def test_shisanzhang_declaring_a_dragon_is_worth_36_and_arranging_it_loses() -> None:
    """一条龙 "takes 36 from each other player (108) and is not compared": declared, it is
    worth 36 in every field (the other hand would need 13 distinct ranks too, which none of
    the sampled fields holds); arranged, it is compared row by row and is worth less."""
    state = _one_dragon_state()
    arranged = Arrange(
        tuple(parse_cards("As Kd Qc")),
        tuple(parse_cards("Jh Ts 9d 8c 7h")),
        tuple(parse_cards("6s 5d 4c 3h 2s")),
    )
    found = appraise_13(state, 0, arranged, random.Random(4), 40)
    assert found is not None and found.method == "field" and found.worlds == 40
    values = {c.action: c for c in found.candidates}
    assert values[Declare()].value == 36 and values[Declare()].spread == 0
    assert found.bot == Declare()
    assert max(c.value for c in found.candidates) == 36
    assert next(c for c in found.candidates if c.action == found.played).value < 36


@pytest.mark.parametrize(("code", "seats"), [("1301", 4), ("1303", 3), ("2001", 4), ("2105", 3)])
def test_the_review_of_a_careless_seat_lists_its_exact_values(code: str, seats: int) -> None:
    record = _played_record(code, seats, 11, 1, careless=True)
    found = review_record(record, 1, seed=2, worlds=8)
    assert found["decisions"], "the bet, the grouping or the arrangement is reviewed"
    for d in found["decisions"]:
        assert d["method"] in ("exact", "field")
        values = [c["value"] for c in d["candidates"]]
        assert d["value_best"] == max(values)
        assert d["loss"] == pytest.approx(d["value_best"] - d["value_played"], abs=2e-3)
        assert d["played"] in [c["action"] for c in d["candidates"]]
    assert review_record(record, 1, seed=2, worlds=8) == found, "the same on any run"


def _moment(code: str, seats: int, seed: int, bets: bool) -> State:
    g = game(code)
    state = g.new_state(seats, seed=f"exact/{seed}")
    if bets:
        return state
    rng = random.Random(seed)
    for seat in sorted(state.to_act()):
        if state.phase == "betting":
            state.apply(seat, Bet(rng.randint(1, 5)))
    return state


@pytest.mark.parametrize(
    ("code", "seats", "bets"),
    [("1301", 4, False), ("1303", 2, False), ("2001", 3, True), ("2101", 4, True),
     ("2101", 4, False), ("2108", 3, False)],
)  # fmt: skip
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), salt=st.integers(0, 2**16))
def test_the_same_view_is_valued_the_same(code: str, seats: int, bets: bool, seed: int,
                                          salt: int) -> None:  # fmt: skip
    """A state and a resample of it for the seat to act (the same view for it, every other
    hand dealt again): the family's review values them alike."""
    state = _moment(code, seats, seed, bets)
    seat = max(state.to_act())
    other = state.resample(seat, random.Random(salt))
    assert other.view(seat) == state.view(seat)
    g = state.game
    appraise = appraise_13 if g.variant.family == "shisanzhang" else appraise_baozi
    legal = state.legal_actions(seat)
    played = legal[0] if legal else state.random_action(seat, random.Random(seed))
    first = appraise(state, seat, played, random.Random(seed), 3)
    second = appraise(other, seat, played, random.Random(seed), 3)
    assert first is not None
    assert first == second


def test_paiju_review_takes_the_fields_of_a_shisanzhang_arrangement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`paiju review --file … --worlds N --json`: the arrangement settled against N fields."""
    record = _played_record("1301", 3, 5, 0, careless=True)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    args = ("review", "--file", str(path), "--seat", "0", "--worlds", "6", "--json")
    code, out, err = cli_run.run(capsys, *args)
    assert code == 0, err
    (decision,) = json.loads(out)["decisions"]
    assert decision["method"] == "field" and decision["worlds"] == 6
    assert {"index", "played", "best", "value_played", "value_best", "loss"} <= set(decision)


def test_an_estimated_edge_whose_interval_holds_zero_makes_every_bet_as_good() -> None:
    """2107's odds are a Monte Carlo estimate (it compares suits): where its 95% interval
    holds 0 the sign of the edge is unknown, and no bet is marked worse than another."""
    g = game("2107")
    state = g.new_state(2, seed="mc")
    found = appraise_baozi(state, 1, Bet(7), random.Random(0), 1)
    assert found is not None
    odds = found.facts["odds"]
    low, high = odds["expected_ci95"]
    assert low <= 0 <= high, "the shipped estimate's interval holds 0"
    assert odds["sign_unknown"] and found.bot == Bet(7)
    assert {c.value for c in found.candidates} == {0.0}
