"""Odds for operators: ``paiju odds CODE`` and ``paiju odds --family baozi|jiajiabao``.

宝子: exact enumeration of every banker/player deal, C(n,2)·C(n-2,2) of them (1,624,350 for
52 cards, 1,897,506 for 54): every two-card hand of the deck is ranked once, then numpy
compares all pairs of disjoint hands. One player against the banker is the whole story:
the other players' cards are as random as the undealt stock. Results are exact fractions.

佳佳宝: the player's result when both sides group with the solver
(:mod:`paiju.games.baozi.solver`). Where the code's rules never look at suits or colours,
the deal is exact: hands are compressed to rank multisets (2,380 four-card multisets
for 54 cards instead of 316,251 hands), each weighted by how many card hands it stands
for given the other side's cards, and every (player, banker) multiset pair is counted. A
code with suit tie-breaks (2107) is estimated by Monte Carlo, with its 95% interval.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, sqrt
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from paiju.cards import Card
from paiju.errors import IllegalAction
from paiju.games.baozi.rules import evaluator, symbol
from paiju.games.baozi.spec import JiajiabaoParams, TwoCardRules, params_of

if TYPE_CHECKING:
    from paiju.catalog import Variant
    from paiju.games.baozi.solver import Role

__all__ = ["baozi_counts", "family_report", "format_odds", "jiajiabao_odds", "odds"]

IntArray = npt.NDArray[np.integer[Any]]
SUIT_STEPS = {"red_count", "suit_top", "best_suit"}
MC_SAMPLES = 4000


def _frac(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


# ------------------------------------------------------------------------------ 宝子


def baozi_counts(variant: Variant, pair_payout: int = 1) -> dict[str, int]:
    """Counts of banker/player deals: player wins, pushes, losses, and the wins and
    losses decided by a ladder hand (a pair …, paid ``pair_payout``)."""
    ev = evaluator(variant)
    cards = ev.deck
    n = len(cards)
    i, j = np.triu_indices(n, 1)
    rank = np.array([ev.rank(cards[a], cards[b]) for a, b in zip(i, j, strict=True)])
    readings = [ev.read((cards[a], cards[b])) for a, b in zip(i, j, strict=True)]
    ladder = np.array([r.is_ladder for r in readings])
    tie_banker = np.array([r.banker_ties for r in readings])
    one = np.uint64(1)
    masks = (one << i.astype(np.uint64)) | (one << j.astype(np.uint64))
    disjoint = (masks[:, None] & masks[None, :]) == 0  # rows: banker hand, columns: player
    rb, rp = rank[:, None], rank[None, :]
    win = disjoint & (rp > rb)
    loss = disjoint & ((rp < rb) | ((rp == rb) & tie_banker[:, None]))
    wins, losses = int(win.sum()), int(loss.sum())
    deals = int(disjoint.sum())
    return {
        "deals": deals,
        "wins": wins,
        "losses": losses,
        "pushes": deals - wins - losses,
        "ladder_wins": int((win & ladder[None, :]).sum()),
        "ladder_losses": int((loss & ladder[:, None]).sum()),
    }


def baozi_odds(variant: Variant, pair_payout: int = 1) -> dict[str, Any]:
    """The contract of ``paiju odds CODE --json`` for a 宝子 code (exact fractions)."""
    c = baozi_counts(variant)
    deals = c["deals"]
    edge = Fraction(
        c["losses"] - c["wins"] + (pair_payout - 1) * (c["ladder_losses"] - c["ladder_wins"]),
        deals,
    )
    return {
        "player_win": _frac(Fraction(c["wins"], deals)),
        "push": _frac(Fraction(c["pushes"], deals)),
        "player_loss": _frac(Fraction(c["losses"], deals)),
        "banker_edge": float(edge),
        "deals": deals,
    }


# ---------------------------------------------------------------------------- 佳佳宝


def suit_free(rules: TwoCardRules) -> bool:
    """Whether the code's two-card rules never look at a suit or a colour."""
    steps = set(rules.ladder_ties) | set(rules.point_ties)
    return not rules.same_colour_pairs and not (steps & SUIT_STEPS)


class RankTables:
    """佳佳宝 by rank multisets: the solver's grouping of every multiset and the exact odds."""

    def __init__(self, variant: Variant) -> None:
        from paiju.games.baozi.groups import fixed_grouping
        from paiju.games.baozi.solver import SPLITS, Solver, group_outcomes

        params = params_of(variant)
        assert isinstance(params, JiajiabaoParams)
        if not suit_free(params):
            raise IllegalAction(f"{variant.code} compares suits: no rank-multiset enumeration")
        ev = evaluator(variant)
        self.variant = variant
        by_sym: dict[str, list[Card]] = {}
        for card in ev.deck:  # deck order = card order: symbols 2..A then W
            by_sym.setdefault(symbol(card), []).append(card)
        syms = list(by_sym)
        k = len(syms)
        counts = np.array([len(by_sym[s]) for s in syms], dtype=np.int64)
        self.counts = counts
        multisets = [
            m
            for m in combinations_with_replacement(range(k), 4)
            if all(m.count(x) <= counts[x] for x in set(m))
        ]
        vec = np.zeros((len(multisets), k), dtype=np.int64)
        for row, m in enumerate(multisets):
            for x in m:
                vec[row, x] += 1
        self.multisets = multisets
        self.symbols = syms
        self.vectors = vec
        sym_rank = np.full((k, k), -1, dtype=np.int64)
        for x in range(k):
            for y in range(k):
                cx, cy = by_sym[syms[x]], by_sym[syms[y]]
                if x != y:
                    sym_rank[x, y] = ev.rank(cx[0], cy[0])
                elif len(cx) > 1:
                    sym_rank[x, y] = ev.rank(cx[0], cx[1])
        quads = np.array(multisets, dtype=np.int64)
        splits = []
        for a, b, c, d in SPLITS:
            r1, r2 = sym_rank[quads[:, a], quads[:, b]], sym_rank[quads[:, c], quads[:, d]]
            splits.append((np.minimum(r1, r2), np.maximum(r1, r2)))
        self.fronts = np.stack([f for f, _ in splits]).astype(np.int16)
        self.backs = np.stack([b for _, b in splits]).astype(np.int16)
        card_solver_strength = Solver._strengths(
            np.array(
                [ev.rank(a, b) for x, a in enumerate(ev.deck) for b in ev.deck[x + 1 :]],
                dtype=np.int64,
            ),
            ev.top_rank + 1,
        )
        self.tie_banker = np.zeros(ev.top_rank + 1, dtype=bool)
        for x, a in enumerate(ev.deck):
            for b in ev.deck[x + 1 :]:
                self.tie_banker[ev.rank(a, b)] = ev.read((a, b)).banker_ties
        rows = np.arange(len(multisets))
        if params.grouping == "fixed":
            fixed = []
            for m in multisets:
                used: dict[int, int] = {}
                hand = []
                for x in m:
                    hand.append(by_sym[syms[x]][used.get(x, 0)])
                    used[x] = used.get(x, 0) + 1
                front, back = fixed_grouping(ev, hand)
                fixed.append((ev.rank(*front), ev.rank(*back)))
            base_f = np.array([f for f, _ in fixed], dtype=np.int64)
            base_b = np.array([b for _, b in fixed], dtype=np.int64)
        else:
            score = np.stack([card_solver_strength[f] + card_solver_strength[b] for f, b in splits])
            choice = np.argmax(score, axis=0)
            base_f, base_b = self.fronts[choice, rows], self.backs[choice, rows]
        self.base = (base_f.astype(np.int16), base_b.astype(np.int16))
        # ways[P] card hands per multiset; weights[P, B] banker hands per multiset given P
        binom = np.array([[comb(a, b) for b in range(5)] for a in range(5)], dtype=np.int32)
        self.ways = np.prod(binom[counts[None, :], vec], axis=1)
        weights = np.ones((len(multisets), len(multisets)), dtype=np.int32)
        for x in range(k):  # C(left, b) is 0 where the banker needs more than is left
            cols = np.flatnonzero(vec[:, x])  # C(left, 0) = 1: only hands holding x change
            weights[:, cols] *= binom[(counts[x] - vec[:, x])[:, None], vec[cols, x][None, :]]
        self.weights = weights
        self._group_outcomes = group_outcomes
        self.policy: dict[str, tuple[IntArray, IntArray]]
        if params.grouping == "fixed":
            self.policy = {"player": self.base, "banker": self.base}
        else:
            self.policy = {"player": self._solve("player"), "banker": self._solve("banker")}

    def multiset_index(self, cards: Sequence[Card]) -> int:
        """The row of a four-card hand's rank multiset."""
        a, b, c, d = sorted(self.symbols.index(symbol(card)) for card in cards)
        return self.multisets.index((a, b, c, d))

    def _solve(self, role: Role) -> tuple[IntArray, IntArray]:
        """The solver's split of every multiset, for ``role``, against the baseline opponent."""
        base_f, base_b = self.base
        values = []
        for g in range(3):
            f, b = self.fronts[g][:, None], self.backs[g][:, None]
            won_f, lost_f = self._group_outcomes(f, base_f[None, :], self.tie_banker, role)
            won_b, lost_b = self._group_outcomes(b, base_b[None, :], self.tie_banker, role)
            wins = np.sum(self.weights, axis=1, where=won_f & won_b, dtype=np.int64)
            values.append(
                wins - np.sum(self.weights, axis=1, where=lost_f & lost_b, dtype=np.int64)
            )
        choice = np.argmax(np.stack(values), axis=0)
        rows = np.arange(len(self.multisets))
        return self.fronts[choice, rows], self.backs[choice, rows]

    def counts_both_solved(self) -> dict[str, int]:
        """Exact counts of player wins, pushes and losses over every deal (both solved)."""
        pf, pb = self.policy["player"]
        bf, bb = self.policy["banker"]
        won_f, lost_f = self._group_outcomes(pf[:, None], bf[None, :], self.tie_banker, "player")
        won_b, lost_b = self._group_outcomes(pb[:, None], bb[None, :], self.tie_banker, "player")
        weight = self.ways[:, None] * self.weights.astype(np.int64)
        wins = int(np.sum(weight, where=won_f & won_b))
        losses = int(np.sum(weight, where=lost_f & lost_b))
        deals = int(weight.sum())
        return {"deals": deals, "wins": wins, "losses": losses, "pushes": deals - wins - losses}


def _monte_carlo(variant: Variant, samples: int, seed: int) -> dict[str, Any]:
    from paiju.fairness import DealRng
    from paiju.games.baozi.game import group_winner
    from paiju.games.baozi.solver import solver

    s = solver(variant)
    ev = s.ev
    rng = DealRng(f"odds/{variant.code}/{seed}")
    results = []
    for _ in range(samples):
        cards = rng.shuffled(ev.deck)
        player = s.best(cards[:4], "player")
        banker = s.best(cards[4:8], "banker")
        per = [ev.compare(banker[g], player[g]) for g in (0, 1)]
        results.append({"player": 1, "push": 0, "banker": -1}[group_winner(per)])
    arr = np.array(results, dtype=np.float64)
    mean = float(arr.mean())
    half = 1.96 * float(arr.std(ddof=1)) / sqrt(samples)
    win, loss = float((arr > 0).mean()), float((arr < 0).mean())
    return {
        "method": "monte_carlo",
        "samples": samples,
        "player_win": round(win, 6),
        "push": round(1 - win - loss, 6),
        "player_loss": round(loss, 6),
        "banker_edge": round(-mean, 6),
        "banker_edge_ci95": [round(-mean - half, 6), round(-mean + half, 6)],
    }


def jiajiabao_odds(variant: Variant, samples: int = MC_SAMPLES, seed: int = 0) -> dict[str, Any]:
    """The player's result when both sides group with the solver (exact or Monte Carlo)."""
    params = params_of(variant)
    assert isinstance(params, JiajiabaoParams)
    if not suit_free(params):
        return _monte_carlo(variant, samples, seed)
    c = RankTables(variant).counts_both_solved()
    deals = c["deals"]
    return {
        "method": "exact",
        "player_win": _frac(Fraction(c["wins"], deals)),
        "push": _frac(Fraction(c["pushes"], deals)),
        "player_loss": _frac(Fraction(c["losses"], deals)),
        "banker_edge": float(Fraction(c["losses"] - c["wins"], deals)),
        "deals": deals,
    }


# --------------------------------------------------------------------------- the CLI


def odds(variant: Variant) -> dict[str, Any]:
    """``paiju odds CODE``: exact 宝子 odds, or 佳佳宝 odds with both sides solved."""
    if variant.family == "jiajiabao":
        return jiajiabao_odds(variant)
    return baozi_odds(variant)


def _line(name: str, value: Any) -> str:
    if isinstance(value, str) and "/" in value:
        return f"  {name:<14} {value:>24} = {float(Fraction(value)):.6f}"
    return f"  {name:<14} {value:>24}"


def format_odds(variant: Variant, result: dict[str, Any]) -> str:
    """The odds as a small table, exact fractions beside their decimals."""
    head = f"{variant.code} {variant.name_zh} — {variant.name_en}"
    if result.get("method") == "monte_carlo":
        lo, hi = result["banker_edge_ci95"]
        return "\n".join(
            [
                head,
                f"Monte Carlo over {result['samples']} deals, both sides grouped by the solver",
                f"  player wins    {result['player_win']:.4f}",
                f"  push           {result['push']:.4f}",
                f"  player loses   {result['player_loss']:.4f}",
                f"  banker edge    {result['banker_edge']:+.4f} per unit bet"
                f" (95% interval {lo:+.4f} .. {hi:+.4f})",
            ]
        )
    what = (
        "both sides grouped by the solver"
        if variant.family == "jiajiabao"
        else "one player against the banker, 1:1"
    )
    edge = Fraction(result["player_loss"]) - Fraction(result["player_win"])
    return "\n".join(
        [
            head,
            f"exact over {result['deals']:,} deals ({what})",
            _line("player wins", result["player_win"]),
            _line("push", result["push"]),
            _line("player loses", result["player_loss"]),
            _line("banker edge", _frac(edge)) + " per unit bet",
        ]
    )


def write_chart(rows: Sequence[tuple[str, float]], path: Path, title: str) -> None:
    """A bar chart of the banker's edge by code (PNG, matplotlib's Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    codes = [code for code, _ in rows]
    edges = [100 * edge for _, edge in rows]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.5 * len(rows) + 2), 4.0))
    colours = ["tab:red" if e > 0 else "tab:blue" if e < 0 else "tab:gray" for e in edges]
    ax.bar(codes, edges, color=colours)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("code")
    ax.set_ylabel("banker edge, % of the bet")
    ax.set_title(title)
    ax.tick_params(axis="x", labelrotation=60)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def family_report(
    variants: Sequence[Variant], chart_path: Path | None
) -> tuple[dict[str, Any], str]:
    """``paiju odds --family``: every code's odds, a table, and the bar chart of the edge."""
    family = variants[0].family if variants else "baozi"
    path = Path(chart_path) if chart_path is not None else Path(f"{family}-edge.png")
    started = time.perf_counter()
    results = {v.code: odds(v) for v in variants}
    seconds = time.perf_counter() - started
    lines = [f"{'code':<6} {'name':<16} {'player win':>10} {'push':>8} {'loss':>8} {'edge':>9}"]
    for v in variants:
        r = results[v.code]
        win, push, loss = (
            float(Fraction(str(r[k]))) for k in ("player_win", "push", "player_loss")
        )
        mark = "" if r.get("method", "exact") == "exact" else " (Monte Carlo)"
        lines.append(
            f"{v.code:<6} {v.name_zh:<16} {win:>10.5f} {push:>8.5f} {loss:>8.5f}"
            f" {r['banker_edge']:>+9.5f}{mark}"
        )
    title = f"{variants[0].family if variants else family}: banker edge by code"
    write_chart([(v.code, results[v.code]["banker_edge"]) for v in variants], path, title)
    lines.append(f"{len(variants)} codes in {seconds:.2f} s; chart written to {path}")
    return {"codes": results, "chart": str(path)}, "\n".join(lines)
