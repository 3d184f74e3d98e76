"""复盘 of 宝子 and 佳佳宝, exactly: the bet against the exact odds, the grouping against
every hand the banker (or the players) may hold.

* A bet (下注) is made before any card is seen, so its chances are the game's own: a
  player's result against the banker over every deal of the deck
  (:mod:`paiju.games.baozi.odds`). 宝子: all C(n,2)·C(n-2,2) banker/player deals
  counted, the pair payout (``pair_payout``) included, an exact fraction. 佳佳宝: both
  sides grouping with the solver, counted exactly over rank multisets where the code
  never looks at suits, and estimated by Monte Carlo (its samples and 95% interval
  given) where it does (2107). A bet of ``b`` is worth ``b`` times the expected result
  per unit, so the best bet is the table's highest when that expectation is positive,
  its lowest when negative (every bet is as good when it is 0, or when a Monte Carlo
  estimate's 95% interval holds 0: ``sign_unknown``).
* A grouping (分组) is valued against every hand of four the banker may hold from the
  cards the seat does not see (all C(n-4, 4) of them), the banker grouping as the bot
  groups: where the code never looks at suits, counted by rank multisets, each with the
  bot's grouping of it and weighted by its card hands left beside the seat's four
  (:class:`paiju.games.baozi.odds.RankTables`); where it does (2107), counted card by
  card (:meth:`paiju.games.baozi.solver.Solver.scores`) with the banker grouping by the
  solver's baseline rule (the split whose groups beat the most two-card hands). The
  banker's own grouping is valued likewise against one player's hand, times the
  players' total bet (each player's four cards are as random as any other's, so the
  sum's expectation is exact).

Nothing here reads another seat's cards: the bets are public, the seat's own cards its
own, and every other card is counted over, not looked at.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from paiju.appraisal import Appraisal, Valued
from paiju.cards import Card
from paiju.catalog import Variant, find_variant
from paiju.engine import Action, State
from paiju.games.baozi.game import BaoziState, Bet, Group, JiajiabaoState
from paiju.games.baozi.odds import RankTables, baozi_counts, jiajiabao_odds, suit_free
from paiju.games.baozi.solver import GroupingScore, Role, group_outcomes, solver
from paiju.games.baozi.spec import JiajiabaoParams, params_of

__all__ = ["appraise", "bet_odds"]


def _frac(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


@cache
def _baozi(code: str, pair_payout: int) -> dict[str, Any]:
    counts = baozi_counts(find_variant(code))
    deals = counts["deals"]
    extra = (pair_payout - 1) * (counts["ladder_wins"] - counts["ladder_losses"])
    expected = Fraction(counts["wins"] - counts["losses"] + extra, deals)
    return {
        "method": "exact",
        "deals": deals,
        "win": _frac(Fraction(counts["wins"], deals)),
        "push": _frac(Fraction(counts["pushes"], deals)),
        "loss": _frac(Fraction(counts["losses"], deals)),
        "expected": float(expected),
        "expected_exact": _frac(expected),
    }


@cache
def _jiajiabao(code: str) -> dict[str, Any]:
    found = jiajiabao_odds(find_variant(code))
    out = {
        "method": found["method"],
        "win": found["player_win"],
        "push": found["push"],
        "loss": found["player_loss"],
        "expected": 0.0 - float(found["banker_edge"]),
    }
    if found["method"] == "exact":
        out["deals"] = found["deals"]
    else:
        out["samples"] = found["samples"]
        low, high = found["banker_edge_ci95"]
        out["expected_ci95"] = [-high, -low]
    return out


def bet_odds(variant: Variant, pair_payout: int = 1) -> dict[str, Any]:
    """A player's chances against the banker before any card is seen, and its expected
    result per unit bet (``expected``)."""
    if variant.family == "jiajiabao":
        return dict(_jiajiabao(variant.code))
    return dict(_baozi(variant.code, pair_payout))


def _bet(state: BaoziState, seat: int, played: Bet) -> Appraisal:
    game = state.game
    odds = bet_odds(game.variant, int(game.options.get("pair_payout", 1)))
    low, high = game.options["min_bet"], game.options["max_bet"]
    per_unit = float(odds["expected"])
    low_ci, high_ci = odds.get("expected_ci95", (per_unit, per_unit))
    if low_ci <= 0 <= high_ci and per_unit != 0:
        per_unit = 0.0  # an estimate that cannot tell its sign: every bet is as good
        odds["sign_unknown"] = True
    amounts = dict.fromkeys([low, high, played.amount])
    candidates = tuple(Valued(Bet(a), a * per_unit) for a in amounts)
    if per_unit > 0:
        best: Action = Bet(high)
    elif per_unit < 0:
        best = Bet(low)
    else:
        best = played
    return Appraisal("exact", candidates, best, played, facts={"odds": odds})


@cache
def _rank_tables(code: str) -> RankTables:
    return RankTables(find_variant(code))


def _against_the_bot(
    code: str, hand: Sequence[Card], scores: list[GroupingScore], role: Role
) -> list[GroupingScore]:
    """Each split's counts against every hand the other side may hold, grouped as the bot
    groups it: by rank multisets, each weighted by its card hands left beside ``hand``
    (exact where the code never looks at suits)."""
    tables = _rank_tables(code)
    ev = solver(find_variant(code)).ev
    mine = tables.multiset_index(hand)
    weights = tables.weights[mine].astype(np.int64)
    their_f, their_b = tables.policy["banker" if role == "player" else "player"]
    out = []
    for sc in scores:
        f, b = ev.rank(*sc.front), ev.rank(*sc.back)
        won_f, lost_f = group_outcomes(np.full(their_f.shape, f), their_f, tables.tie_banker, role)
        won_b, lost_b = group_outcomes(np.full(their_b.shape, b), their_b, tables.tie_banker, role)
        wins = int(np.sum(weights, where=won_f & won_b))
        losses = int(np.sum(weights, where=lost_f & lost_b))
        hands = int(weights.sum())
        out.append(GroupingScore(sc.front, sc.back, wins, hands - wins - losses, losses))
    return out


def _grouping(state: JiajiabaoState, seat: int, played: Group) -> Appraisal | None:
    game = state.game
    banker = seat == state.banker
    role: Role = "banker" if banker else "player"
    players = state.players if banker else [seat]
    stake = sum(state.bets[s] or 0 for s in players)
    sol = solver(game.variant)
    hand = state.hands[seat]
    scores = sol.scores(hand, role)
    params = params_of(game.variant)
    exact_bot = not sol.fixed and isinstance(params, JiajiabaoParams) and suit_free(params)
    if exact_bot:
        scores = _against_the_bot(game.variant.code, hand, scores, role)
    candidates: list[Valued] = []
    for sc in scores:
        facts = {
            "win": _frac(Fraction(sc.wins, sc.hands)),
            "push": _frac(Fraction(sc.pushes, sc.hands)),
            "loss": _frac(Fraction(sc.losses, sc.hands)),
            "expected_exact": _frac(sc.expected * stake),
        }
        candidates.append(Valued(Group(sc.front, sc.back), float(sc.expected * stake), 0, facts))
    front, back = sol.best(hand, role)
    split = _split(played.first, played.second)
    mine = next((c.action for c in candidates if _split(*_groups(c.action)) == split), None)
    if mine is None:
        return None
    about: dict[str, Any] = {
        "hands": scores[0].hands if scores else 0,
        "stake": stake,
        "others": "bot" if exact_bot else "baseline",
        "against": "each player" if banker else "the banker",
    }
    return Appraisal("exact", tuple(candidates), Group(front, back), mine, facts=about)


def _groups(action: Action) -> tuple[Sequence[int], Sequence[int]]:
    assert isinstance(action, Group)
    return action.first, action.second


def _split(first: Sequence[int], second: Sequence[int]) -> frozenset[frozenset[int]]:
    """A grouping as the split it makes, whatever the order of its groups and cards."""
    return frozenset((frozenset(first), frozenset(second)))


def appraise(
    state: State, seat: int, played: Action, rng: random.Random, worlds: int
) -> Appraisal | None:
    """The exact values of a 宝子 or 佳佳宝 decision (see the module)."""
    if isinstance(played, Bet) and isinstance(state, BaoziState) and state.phase == "betting":
        return _bet(state, seat, played)
    if isinstance(played, Group) and isinstance(state, JiajiabaoState):
        return _grouping(state, seat, played)
    return None
