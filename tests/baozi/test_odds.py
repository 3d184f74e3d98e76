"""Exact odds (宝子), both-sides-solved odds (佳佳宝) and the grouping solver."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.cards import Card, deck, parse_cards
from paiju.catalog import Variant, find_variant
from paiju.games.baozi.odds import (
    RankTables,
    baozi_counts,
    baozi_odds,
    jiajiabao_odds,
    odds,
    suit_free,
)
from paiju.games.baozi.rules import evaluator
from paiju.games.baozi.solver import solver
from paiju.games.baozi.spec import BaoziParams, params_of

BAOZI = [str(c) for c in range(2001, 2022)]
CARDS_52 = list(deck("52"))


# ------------------------------------------------------------- independent references


def ref_2001(cards: tuple[Card, ...]) -> tuple[int, ...]:
    """2001 read by hand: 对A … 对2 above points (J1 Q2 K3), then the top card, the other."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    if ranks[0] == ranks[1]:
        return (1, ranks[0])
    value = {11: 1, 12: 2, 13: 3, 14: 1}
    pts = sum(value.get(r, r % 10) for r in ranks) % 10
    return (0, pts, *ranks)


def ref_2016(cards: tuple[Card, ...]) -> tuple[tuple[int, ...], bool]:
    """2016 by hand: 王王, then same-colour pairs (王 > A > … > 2), points with J Q K 王 = 1
    and 10 = 0; ties: top card (no suit), then 两红 > 一红一黑 > 两黑, then the banker."""
    ranks = sorted((15 if c.is_joker else c.rank for c in cards), reverse=True)
    reds = sum(c.is_red for c in cards)
    if ranks == [15, 15]:
        return (1, 15, reds), True
    if ranks[0] == ranks[1] and reds != 1:
        return (1, ranks[0], reds), True
    pts = sum(1 if r >= 11 else r % 10 for r in ranks) % 10
    return (0, pts, *ranks, reds), True


@settings(max_examples=300, deadline=None)
@given(st.permutations(CARDS_52))
def test_2001_matches_an_independent_reading(cards: list[Card]) -> None:
    banker, player = tuple(cards[:2]), tuple(cards[2:4])
    kb, kp = ref_2001(banker), ref_2001(player)
    expected = "player" if kp > kb else "banker" if kp < kb else "push"
    assert evaluator(find_variant("2001")).compare(banker, player) == expected


@settings(max_examples=300, deadline=None)
@given(st.permutations(list(deck("54"))))
def test_2016_matches_an_independent_reading(cards: list[Card]) -> None:
    banker, player = tuple(cards[:2]), tuple(cards[2:4])
    (kb, _), (kp, _) = ref_2016(banker), ref_2016(player)
    expected = "player" if kp > kb else "banker"  # 同点同牌同花庄大: no push in 2016
    assert evaluator(find_variant("2016")).compare(banker, player) == expected


# ---------------------------------------------------------------------------- 宝子 odds


def loop_counts(variant: Variant) -> tuple[int, int, int]:
    """(deals, wins, losses) by a plain loop over every banker/player deal."""
    ev = evaluator(variant)
    hands = [(h, ev.read(h)) for h in combinations(ev.deck, 2)]
    deals = wins = losses = 0
    for b, rb in hands:
        for p, rp in hands:
            if set(b) & set(p):
                continue
            deals += 1
            outcome = ev.outcome(rb, rp)
            wins += outcome == "player"
            losses += outcome == "banker"
    return deals, wins, losses


@pytest.mark.parametrize("code", ["2009", "2010", "2018"])
def test_numpy_enumeration_equals_a_plain_loop(code: str) -> None:
    counts = baozi_counts(find_variant(code))
    assert (counts["deals"], counts["wins"], counts["losses"]) == loop_counts(find_variant(code))


@pytest.mark.parametrize("code", BAOZI)
def test_odds_contract_and_consistency(code: str) -> None:
    v = find_variant(code)
    result = odds(v)
    assert set(result) == {"player_win", "push", "player_loss", "banker_edge", "deals"}
    n = len(deck(v.deck))
    assert result["deals"] == comb(n, 2) * comb(n - 2, 2)
    win, push, loss = (Fraction(result[k]) for k in ("player_win", "push", "player_loss"))
    assert win + push + loss == 1
    assert result["banker_edge"] == pytest.approx(float(loss - win))
    params = params_of(v)
    assert isinstance(params, BaoziParams)
    banker_rules = "banker" in params.point_ties or params.banker_points
    if not banker_rules and "banker" not in params.ladder_ties:
        assert win == loss  # the same rules for both sides: no edge
    if "banker" in params.point_ties and "banker" in params.ladder_ties:
        assert push == 0  # 同点庄家大: no tie is left


def test_known_exact_figures() -> None:
    """Pinned: the 2004 banker (对K = 对3, 同点庄家大) and 2021 (only 对10 and 对5)."""
    assert odds(find_variant("2004"))["player_win"] == "369958/812175"
    assert odds(find_variant("2021"))["player_loss"] == "57875/105417"
    assert odds(find_variant("2001"))["push"] == "29/4165"


def test_pair_payout_edge() -> None:
    v = find_variant("2003")
    c = baozi_counts(v)
    edge2 = baozi_odds(v, pair_payout=2)["banker_edge"]
    expected = Fraction(c["losses"] + c["ladder_losses"] - c["wins"] - c["ladder_wins"], c["deals"])
    assert edge2 == pytest.approx(float(expected))
    assert c["ladder_losses"] > c["ladder_wins"]  # equal pairs go to the banker


# ------------------------------------------------------------------------ the solver


def test_solver_keeps_the_aces_at_the_back() -> None:
    s = solver(find_variant("2105"))
    front, back = s.best(parse_cards("As Ad Kc 2h"), "player")
    assert back == tuple(parse_cards("As Ad")) and front == tuple(parse_cards("Kc 2h"))
    scores = s.scores(parse_cards("As Ad Kc 2h"), "player")
    assert len(scores) == 3 and all(sc.hands == comb(50, 4) for sc in scores)
    assert max(scores, key=lambda sc: sc.expected).back == back


def test_2104_has_one_grouping() -> None:
    s = solver(find_variant("2104"))
    assert len(s.candidates(parse_cards("As Kd 7c 2h"))) == 1


@pytest.mark.parametrize("code", ["2103", "2108"])
def test_rank_tables_agree_with_the_card_solver(code: str) -> None:
    """The exact odds group every rank multiset as the card-level solver groups its hands."""
    v = find_variant(code)
    tables = RankTables(v)
    s = solver(v)
    ev = s.ev
    rng = random.Random(code)
    for _ in range(12):
        hand = sorted(rng.sample(ev.deck, 4))
        index = tables.multiset_index(hand)
        for role in ("player", "banker"):
            front, back = s.best(hand, role)  # type: ignore[arg-type]
            pf, pb = tables.policy[role]
            assert (ev.rank(*front), ev.rank(*back)) == (pf[index], pb[index]), (hand, role)


def test_jiajiabao_exact_odds() -> None:
    v = find_variant("2101")
    result = jiajiabao_odds(v)
    assert result["method"] == "exact"
    assert result["deals"] == comb(40, 4) * comb(36, 4)
    win, push, loss = (Fraction(result[k]) for k in ("player_win", "push", "player_loss"))
    assert win + push + loss == 1 and win == loss  # no rule favours the banker in 2101
    assert suit_free(params_of(v)) and not suit_free(params_of(find_variant("2107")))


def test_jiajiabao_monte_carlo_reports_its_interval() -> None:
    result = jiajiabao_odds(find_variant("2107"), samples=30)
    assert result["method"] == "monte_carlo" and result["samples"] == 30
    lo, hi = result["banker_edge_ci95"]
    assert lo <= result["banker_edge"] <= hi
    assert result["player_win"] + result["push"] + result["player_loss"] == pytest.approx(
        1, abs=1e-5
    )


def test_fixed_rule_tables_match_the_rule_hand_by_hand() -> None:
    """The solver's table of 2104 groupings (vectorised) agrees with fixed_grouping."""
    from paiju.games.baozi.game import fixed_grouping

    s = solver(find_variant("2104"))
    rng = random.Random(2104)
    index = {c: i for i, c in enumerate(s.cards)}
    for _ in range(300):
        hand = sorted(rng.sample(s.cards, 4))
        row = np.flatnonzero(s.masks == np.uint64(sum(1 << index[c] for c in hand)))[0]
        front, back = fixed_grouping(s.ev, hand)
        assert (s.front[row], s.back[row]) == (s.ev.rank(*front), s.ev.rank(*back))


@pytest.mark.parametrize("code", ["2107", "2105", "2104", "2101"])
def test_counting_by_inclusion_exclusion_equals_the_scan(code: str) -> None:
    """The solver's fast count of opponent hands agrees with comparing every hand."""
    s = solver(find_variant(code))
    rng = random.Random(code)
    for _ in range(25):
        hand = rng.sample(s.cards, 4)
        for role in ("player", "banker"):
            assert s.scores(hand, role) == s.scores_by_scan(hand, role)  # type: ignore[arg-type]


@pytest.mark.parametrize("code", ["2104", "2106"])
def test_rank_table_weights_count_the_card_hands(code: str) -> None:
    """Weighted by rank multisets, one hand's wins and losses against the baseline are the
    card-level solver's exact counts (card removal included)."""
    v = find_variant(code)
    tables, s = RankTables(v), solver(v)
    base_f, base_b = tables.base
    rng = random.Random(code)
    for _ in range(10):
        hand = sorted(rng.sample(s.cards, 4))
        row = tables.multiset_index(hand)
        assert int(tables.weights[row].sum()) == comb(len(s.cards) - 4, 4)
        for score in s.scores(hand, "player"):
            f, b = s.ev.rank(*score.front), s.ev.rank(*score.back)
            won = (f > base_f) & (b > base_b)
            lost = ((f < base_f) | ((f == base_f) & s.tie_banker[f])) & (
                (b < base_b) | ((b == base_b) & s.tie_banker[b])
            )
            assert int(tables.weights[row][won].sum()) == score.wins
            assert int(tables.weights[row][lost].sum()) == score.losses
