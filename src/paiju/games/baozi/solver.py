"""The 佳佳宝 grouping solver (组牌): the best split of four cards against a random banker.

Four cards split three ways into two groups of two; the engine puts the stronger group at
the back (后). The solver scores each split by its exact expected result against every
possible opponent hand dealt from the rest of the deck (all C(n-4, 4) of them, enumerated
with numpy), where the opponent groups its cards by the *baseline* rule: the split whose
two groups beat the most two-card hands in total (each group's strength is the share of
all two-card hands of the deck it beats, ties counting half). A player's split wins when
both groups win, loses when both lose, and pushes otherwise; ties of a group go to the
banker where the code says 庄家大. The banker uses the same solver with the roles swapped.

Counting is exact and fast: the opponents' (front, back) ranks are tabulated once per
variant as 2D cumulative counts, and the hands that share a card with the solver's own
four are taken out by inclusion-exclusion (:meth:`Solver._build_counting`), so one hand
is scored in about a millisecond; :meth:`Solver.scores_by_scan` is the plain reference.

Codes with the fixed grouping rule (2104) have one legal split; the solver returns it.

>>> from paiju.catalog import find_variant
>>> s = solver(find_variant("2105"))
>>> front, back = s.best(parse_cards("As Ad Kc 2h"), "player")
>>> format_cards(front), format_cards(back)
('Kc 2h', 'As Ad')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import chain, combinations
from math import comb
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from paiju.cards import Card, format_cards, parse_cards
from paiju.catalog import find_variant
from paiju.errors import IllegalAction
from paiju.games.baozi.groups import Groups, fixed_grouping, groupings, order_groups
from paiju.games.baozi.rules import Evaluator, evaluator
from paiju.games.baozi.spec import JiajiabaoParams, params_of

if TYPE_CHECKING:
    from paiju.catalog import Variant

__all__ = ["GroupingScore", "Solver", "group_text", "solver"]

Role = Literal["player", "banker"]
IntArray = npt.NDArray[np.integer[Any]]

SPLITS = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2))
"""The three splits of four cards (by position): (a b | c d), (a c | b d), (a d | b c)."""


def _frac(value: Fraction) -> str:
    """A fraction as ``p/q`` (``0/1``, ``1/1`` too), like the odds contract."""
    return f"{value.numerator}/{value.denominator}"


@dataclass(frozen=True)
class GroupingScore:
    """A split's exact result against every opponent hand (counts of opponent hands)."""

    front: tuple[Card, Card]
    back: tuple[Card, Card]
    wins: int
    pushes: int
    losses: int

    @property
    def hands(self) -> int:
        return self.wins + self.pushes + self.losses

    @property
    def expected(self) -> Fraction:
        """Expected result per unit bet (win +1, push 0, loss -1)."""
        return Fraction(self.wins - self.losses, self.hands)

    def to_json(self) -> dict[str, Any]:
        return {
            "groups": f"{format_cards(self.front)} / {format_cards(self.back)}",
            "win": _frac(Fraction(self.wins, self.hands)),
            "push": _frac(Fraction(self.pushes, self.hands)),
            "loss": _frac(Fraction(self.losses, self.hands)),
            "expected": float(self.expected),
            "expected_exact": _frac(self.expected),
        }


def group_outcomes(
    mine: IntArray, theirs: IntArray, tie_banker: npt.NDArray[np.bool_], role: Role
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """(won, lost) of one group against the opponent's, elementwise, from ``role``'s side."""
    tie = mine == theirs
    if role == "player":
        return mine > theirs, (mine < theirs) | (tie & tie_banker[mine])
    return (mine > theirs) | (tie & tie_banker[mine]), mine < theirs


class Solver:
    """The grouping solver of one 佳佳宝 variant (tables built once, see the module docs)."""

    def __init__(self, variant: Variant) -> None:
        params = params_of(variant)
        assert isinstance(params, JiajiabaoParams)
        self.variant = variant
        self.fixed = params.grouping == "fixed"
        self.ev: Evaluator = evaluator(variant)
        cards = self.ev.deck
        self.cards = cards
        n = len(cards)
        self.index = {c: i for i, c in enumerate(cards)}
        ranks = np.full((n, n), -1, dtype=np.int64)
        for i in range(n):
            for j in range(i + 1, n):
                ranks[i, j] = ranks[j, i] = self.ev.rank(cards[i], cards[j])
        self.pair_rank = ranks
        top = self.ev.top_rank + 1
        tie = np.zeros(top, dtype=bool)
        for i in range(n):
            for j in range(i + 1, n):
                tie[ranks[i, j]] = self.ev.read((cards[i], cards[j])).banker_ties
        self.tie_banker = tie
        self.strength = self._strengths(ranks[np.triu_indices(n, 1)], top)
        quads = np.fromiter(
            chain.from_iterable(combinations(range(n), 4)), dtype=np.int64, count=comb(n, 4) * 4
        ).reshape(-1, 4)
        self.masks = np.bitwise_or.reduce(np.left_shift(np.uint64(1), quads.astype(np.uint64)), 1)
        self.front, self.back = self._baseline(quads)
        self._build_counting(quads, top)

    @staticmethod
    def _strengths(pair_ranks: IntArray, top: int) -> npt.NDArray[np.float64]:
        """Share of all two-card hands each rank beats, ties counting half."""
        counts = np.bincount(pair_ranks, minlength=top).astype(np.float64)
        below = np.concatenate(([0.0], np.cumsum(counts)[:-1]))
        result: npt.NDArray[np.float64] = (below + counts / 2) / counts.sum()
        return result

    def split_ranks(self, quads: IntArray) -> list[tuple[IntArray, IntArray]]:
        """(front, back) ranks of each of the three splits of every hand (rows of indices)."""
        out = []
        for a, b, c, d in SPLITS:
            r1 = self.pair_rank[quads[:, a], quads[:, b]]
            r2 = self.pair_rank[quads[:, c], quads[:, d]]
            out.append((np.minimum(r1, r2), np.maximum(r1, r2)))
        return out

    def _baseline(self, quads: IntArray) -> tuple[IntArray, IntArray]:
        """The opponent model: each hand's split with the strongest two groups (or 2104's rule)."""
        splits = self.split_ranks(quads)
        if self.fixed:
            return self._fixed_ranks(quads)
        scores = np.stack([self.strength[f] + self.strength[b] for f, b in splits])
        choice = np.argmax(scores, axis=0)
        fronts = np.stack([f for f, _ in splits])
        backs = np.stack([b for _, b in splits])
        rows = np.arange(len(quads))
        return fronts[choice, rows], backs[choice, rows]

    def _fixed_ranks(self, quads: IntArray) -> tuple[IntArray, IntArray]:
        """2104's rule for every hand at once (:func:`~paiju.games.baozi.game.fixed_grouping`):
        cards ordered high to low, the first pair in that order stays together, otherwise
        highest + lowest and second + third."""
        from paiju.games.baozi.rules import symbol

        cards = self.cards
        level = np.array([self.ev.card_level[symbol(c)] for c in cards], dtype=np.int64)
        sym = np.array(["23456789TJQKAW".index(symbol(c)) for c in cards], dtype=np.int64)
        key = level[quads] * 64 + np.array(cards, dtype=np.int64)[quads]
        hand = np.take_along_axis(quads, np.argsort(-key, axis=1), axis=1)
        rows = np.arange(len(quads))
        firsts = [
            (0, 1, 2, 3),
            (0, 2, 1, 3),
            (0, 3, 1, 2),
            (1, 2, 0, 3),
            (1, 3, 0, 2),
            (2, 3, 0, 1),
        ]
        choice = np.full(len(quads), -1, dtype=np.int64)
        for k, (i, j, _, _) in enumerate(firsts):
            pair = (sym[hand[:, i]] == sym[hand[:, j]]) & (choice < 0)
            choice[pair] = k
        layout = np.array([*firsts, (0, 3, 1, 2)], dtype=np.int64)[choice]  # -1: no pair
        pos = [layout[:, m] for m in range(4)]
        r1 = self.pair_rank[hand[rows, pos[0]], hand[rows, pos[1]]]
        r2 = self.pair_rank[hand[rows, pos[2]], hand[rows, pos[3]]]
        return np.minimum(r1, r2), np.maximum(r1, r2)

    # -- one hand ----------------------------------------------------------------------

    def _hand(self, hand: tuple[Card, ...] | list[Card]) -> list[Card]:
        cards = [Card(c) for c in hand]
        if len(cards) != 4 or len(set(cards)) != 4:
            raise IllegalAction(
                f"a {self.variant.code} hand is four different cards, got {format_cards(cards)!r}"
            )
        for c in cards:
            if c not in self.index:
                raise IllegalAction(f"{c} is not a card of the {self.variant.code} deck")
        return sorted(cards)

    def candidates(self, hand: tuple[Card, ...] | list[Card]) -> list[Groups]:
        """The legal splits of a hand as (front, back): three, or 2104's one."""
        cards = self._hand(hand)
        if self.fixed:
            return [fixed_grouping(self.ev, cards)]
        return [order_groups(self.ev, first, second) for first, second in groupings(cards)]

    # -- counting opponent hands (inclusion-exclusion over the four cards) -------------

    def _build_counting(self, quads: IntArray, top: int) -> None:
        """Tables to count opponent hands by their (front, back) ranks without a full scan.

        ``cum_all`` and ``cum_card[c]`` are 2D cumulative counts over (front, back) of all
        hands and of the hands holding card ``c``; ``pair_hands`` lists, pair by pair, the
        hands holding both cards of the pair. The hands that avoid four given cards are
        then all hands, minus those holding each card, plus those holding each pair, minus
        each triple, plus the four (inclusion-exclusion): a few thousand hands to look at
        instead of every hand of the deck.
        """
        n = len(self.cards)
        f, b = self.front, self.back
        hist = np.zeros((top, top), dtype=np.int64)
        np.add.at(hist, (f, b), 1)
        self.cum_all = hist.cumsum(0).cumsum(1)
        per_card = np.zeros((n, top, top), dtype=np.int32)
        for pos in range(4):
            np.add.at(per_card, (quads[:, pos], f, b), 1)
        self.cum_card = per_card.cumsum(1).cumsum(2)
        ids = np.concatenate([quads[:, p] * n + quads[:, q] for p, q in combinations(range(4), 2)])
        hands = np.tile(np.arange(len(quads), dtype=np.int64), 6)
        order = np.argsort(ids, kind="stable")
        self.pair_hands = hands[order]
        self.pair_start = np.searchsorted(ids[order], np.arange(n * n + 1))

    def _holding(self, i: int, j: int) -> IntArray:
        """The hands holding both cards ``i < j`` (deck indices)."""
        n = len(self.cards)
        start, stop = self.pair_start[i * n + j], self.pair_start[i * n + j + 1]
        result: IntArray = self.pair_hands[start:stop]
        return result

    def _rectangles(self, f: int, b: int, role: Role) -> tuple[tuple[int, int], tuple[int, int]]:
        """(win corner, loss corner): the opponent wins F' <= x, B' <= y (lower left) and the
        losses F' >= x, B' >= y (upper right) of a split with ranks ``f`` <= ``b``."""
        tie_f, tie_b = bool(self.tie_banker[f]), bool(self.tie_banker[b])
        if role == "player":
            return (f - 1, b - 1), (f if tie_f else f + 1, b if tie_b else b + 1)
        return (f if tie_f else f - 1, b if tie_b else b - 1), (f + 1, b + 1)

    def scores(self, hand: tuple[Card, ...] | list[Card], role: Role) -> list[GroupingScore]:
        """Each legal split's exact result against every opponent hand from the rest."""
        cards = self._hand(hand)
        idx = sorted(self.index[c] for c in cards)
        bits = [np.uint64(1 << i) for i in idx]
        pieces: list[IntArray] = []
        signs: list[int] = []
        for i, j in combinations(range(4), 2):
            pieces.append(self._holding(idx[i], idx[j]))
            signs.append(1)
        for i, j, k in combinations(range(4), 3):
            pair = self._holding(idx[i], idx[j])
            pieces.append(pair[(self.masks[pair] & bits[k]) != 0])
            signs.append(-1)
        pair = self._holding(idx[0], idx[1])
        pieces.append(pair[(self.masks[pair] & (bits[2] | bits[3])) == (bits[2] | bits[3])])
        signs.append(1)
        sign = np.repeat(np.array(signs, dtype=np.int64), [len(p) for p in pieces])
        chosen = np.concatenate(pieces)
        their_f, their_b = self.front[chosen], self.back[chosen]
        top = len(self.tie_banker) - 1

        def lower_left(x: int, y: int) -> int:
            if x < 0 or y < 0:
                return 0
            x, y = min(x, top), min(y, top)
            held = sum(int(self.cum_card[c, x, y]) for c in idx)
            explicit = int(sign[(their_f <= x) & (their_b <= y)].sum())
            return int(self.cum_all[x, y]) - held + explicit

        def upper_right(x: int, y: int) -> int:
            return (
                lower_left(top, top)
                - lower_left(x - 1, top)
                - lower_left(top, y - 1)
                + lower_left(x - 1, y - 1)
            )

        hands = lower_left(top, top)
        out = []
        for front, back in self.candidates(cards):
            win, loss = self._rectangles(self.ev.rank(*front), self.ev.rank(*back), role)
            wins, losses = lower_left(*win), upper_right(*loss)
            out.append(GroupingScore(front, back, wins, hands - wins - losses, losses))
        return out

    def scores_by_scan(
        self, hand: tuple[Card, ...] | list[Card], role: Role
    ) -> list[GroupingScore]:
        """:meth:`scores` the plain way: every opponent hand compared (the reference)."""
        cards = self._hand(hand)
        mask = np.uint64(sum(1 << self.index[c] for c in cards))
        free = (self.masks & mask) == 0
        their_front, their_back = self.front[free], self.back[free]
        out = []
        for front, back in self.candidates(cards):
            f = np.int64(self.ev.rank(*front))
            b = np.int64(self.ev.rank(*back))
            won_f, lost_f = group_outcomes(np.full(1, f), their_front, self.tie_banker, role)
            won_b, lost_b = group_outcomes(np.full(1, b), their_back, self.tie_banker, role)
            wins = int(np.count_nonzero(won_f & won_b))
            losses = int(np.count_nonzero(lost_f & lost_b))
            out.append(GroupingScore(front, back, wins, len(their_front) - wins - losses, losses))
        return out

    def best(self, hand: tuple[Card, ...] | list[Card], role: Role = "player") -> Groups:
        """The split with the best expected result (the first such in split order)."""
        scores = self.scores(hand, role)
        best = max(range(len(scores)), key=lambda i: (scores[i].wins - scores[i].losses, -i))
        return scores[best].front, scores[best].back


_SOLVERS: dict[str, tuple[Variant, Solver]] = {}


def solver(variant: Variant) -> Solver:
    """The (cached) solver of a 佳佳宝 variant."""
    if variant.family != "jiajiabao":
        raise IllegalAction(
            f"{variant.code} is a {variant.family} code; the grouping solver is for 佳佳宝 codes"
        )
    cached = _SOLVERS.get(variant.code)
    if cached is None or cached[0] is not variant:
        cached = _SOLVERS[variant.code] = (variant, Solver(variant))
    return cached[1]


def group_text(code: str, cards: str, role: Role = "player") -> dict[str, Any]:
    """``paiju group CODE "4 cards"``: every legal split scored, the best first."""
    variant = find_variant(code)
    s = solver(variant)
    scores = s.scores(list(parse_cards(cards)), role)
    best = s.best(list(parse_cards(cards)), role)
    ranked = sorted(scores, key=lambda sc: -(sc.wins - sc.losses))
    return {
        "code": variant.code,
        "cards": format_cards(parse_cards(cards)),
        "role": role,
        "best": f"{format_cards(best[0])} / {format_cards(best[1])}",
        "opponent_hands": scores[0].hands,
        "groupings": [sc.to_json() for sc in ranked],
    }
