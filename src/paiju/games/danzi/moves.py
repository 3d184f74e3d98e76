"""Every legal play of a 宁城打弹子 hand against the table (出牌, 管牌, 取牌).

A play is a :class:`~paiju.games.danzi.combos.Combo`; suits never count (N4), so the
generator works on count vectors and a hand of 27 cards has at most a few hundred
distinct plays. The windows of every sequence shape (N6) are built once at import.

:func:`legal_plays` is the generator the game and the bots use; :func:`brute_force_plays`
classifies every sub-multiset of the hand and is the reference it is checked against (in
the tests and in ``bench/danzi_moves.py``).

>>> from paiju.cards import parse_cards
>>> from paiju.games.danzi.combos import counts_of, combo_of
>>> hand = counts_of(parse_cards("4s 4h 4c 5s 5h 5c 5d RJ"))
>>> sorted(p.name_zh for p in legal_plays(hand, combo_of("3s 3h 3c")))
['4张砟子', '对牌']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import product
from typing import Final

from paiju.games.danzi.combos import (
    BJ,
    FOUR,
    LADDER,
    NRANKS,
    RJ,
    SEQUENCE_SHAPES,
    SINGLE,
    Combo,
    Counts,
    beats,
    classify,
    position_index,
    take_size,
)

__all__ = ["all_plays", "bombs", "brute_force_plays", "legal_plays", "sub_multisets"]

_SEQ_KIND: Final = {
    (1, 0): "单龙",
    (2, 0): "双龙",
    (3, 0): "连蛋",
    (4, 2): "假8",
    (4, 3): "三减",
    (4, 4): "四减",
    (4, 5): "五减",
    (4, 6): "六减",
    (5, 2): "假10",
    (5, 3): "假15",
    (6, 2): "假12",
    (7, 2): "假14",
    (8, 2): "假16",
}


def _seq_kind(per: int, groups: int) -> str:
    return _SEQ_KIND.get((per, groups)) or _SEQ_KIND[(per, 0)]


# (per, groups) -> [(top, rank indexes of the window)], every window of that shape (N6).
_WINDOWS: Final[dict[tuple[int, int], tuple[tuple[int, tuple[int, ...]], ...]]] = {
    (per, groups): tuple(
        (top, tuple(position_index(p) for p in range(top - groups + 1, top + 1)))
        for top in range(groups, 15)
        if groups < 13 or top == 14  # all 13 ranks count as 2…A (N6)
    )
    for per, groups in SEQUENCE_SHAPES
}
_SHAPES_BY_PER: Final = {
    per: tuple(g for p, g in SEQUENCE_SHAPES if p == per) for per in range(1, 9)
}
assert all(list(g) == sorted(g) for g in _SHAPES_BY_PER.values())  # shorter first
_ROW: Final = {
    (per, groups): (0 if per <= 2 else LADDER[(_seq_kind(per, groups), groups)])
    for per, groups in SEQUENCE_SHAPES
}
_SAME_KIND: Final = ("", "单牌", "对牌", "砟子", "砟子", "砟子", "砟子", "真7", "真8")
_SAME_ROW: Final = (0, 0, 0, 1, 2, 3, 4, LADDER[("真7", 1)], LADDER[("真8", 1)])
_JOKER_ROW: Final = {2: LADDER[("双王", 1)], 3: LADDER[("三王", 1)], 4: LADDER[("四王", 1)]}
_ZERO: Final = (0,) * NRANKS


def _make_same_rank(i: int, n: int) -> Combo:
    c = list(_ZERO)
    c[i] = n
    return Combo(_SAME_KIND[n], tuple(c), n, 1, n, SINGLE[i], _SAME_ROW[n])


def _make_jokers(b: int, r: int) -> Combo:
    c = list(_ZERO)
    c[BJ] = b
    c[RJ] = r
    n = b + r
    if n == 1:
        return Combo("单牌", tuple(c), 1, 1, 1, SINGLE[RJ if r else BJ], 0)
    kind = ("", "", "双王", "三王", "四王")[n]
    return Combo(kind, tuple(c), n, 1, n, r if n == 2 else 0, _JOKER_ROW[n])


# Every same-rank and joker combination, made once (a Combo is frozen): ``_SAME[i][n]`` is
# ``n`` cards of plain rank index ``i``, ``_JOKERS[b][r]`` ``b`` black and ``r`` red jokers.
_SAME: Final = tuple((None, *(_make_same_rank(i, n) for n in range(1, 9))) for i in range(13))
_JOKERS: Final = tuple(
    tuple(_make_jokers(b, r) if b + r else None for r in range(3)) for b in range(3)
)


def _same_rank(i: int, n: int) -> Combo:
    combo = _SAME[i][n]
    assert combo is not None
    return combo


def _jokers(b: int, r: int) -> Combo:
    combo = _JOKERS[b][r]
    assert combo is not None
    return combo


# (per, groups) -> [(window's rank bits, top, combination)]: the windows of _WINDOWS as bit
# sets of rank indexes with their combination made once, so a window is tested with one ``&``.
_WINDOW_BITS: Final = {
    shape: tuple(
        (
            sum(1 << i for i in window),
            top,
            Combo(
                _seq_kind(*shape),
                tuple(shape[0] if i in window else 0 for i in range(NRANKS)),
                shape[0] * shape[1],
                shape[1],
                shape[0],
                top,
                _ROW[shape],
            ),
        )
        for top, window in windows
    )
    for shape, windows in _WINDOWS.items()
}


def _held(hand: Counts, per: int) -> int:
    """The bit set of the 13 plain rank indexes ``hand`` holds at least ``per`` of."""
    bits = 0
    for i in range(13):
        if hand[i] >= per:
            bits |= 1 << i
    return bits


def _sequences(
    hand: Counts, per: int, groups: int, above: int = 0, held: int | None = None
) -> Iterator[Combo]:
    if held is None:
        held = _held(hand, per)
    if held.bit_count() < groups:
        return
    for bits, top, combo in _WINDOW_BITS[(per, groups)]:
        if top > above and bits & held == bits:
            yield combo


def bombs(hand: Counts) -> list[Combo]:
    """Every bomb (砟子 up to 四王, N13-N19) the hand holds."""
    return list(_bombs(tuple(hand)))


@lru_cache(maxsize=1 << 14)
def _bombs(hand: Counts) -> tuple[Combo, ...]:
    """:func:`bombs`, once per hand: a hand that passed is asked again at its next turn."""
    out: list[Combo] = []
    for i in range(13):
        for n in range(3, hand[i] + 1):
            out.append(_same_rank(i, n))
    jb, jr = hand[BJ], hand[RJ]
    for b in range(jb + 1):
        for r in range(jr + 1):
            if b + r >= 2:
                out.append(_jokers(b, r))
    for per in range(3, 9):
        held = _held(hand, per)
        have = held.bit_count()
        if have < 2:  # every sequence has two ranks or more
            break  # and fewer ranks hold more copies
        for groups in _SHAPES_BY_PER[per]:  # shorter first
            if groups > have:
                break
            out.extend(_sequences(hand, per, groups, held=held))
    return tuple(out)


def _single_candidates(size: int, above: int) -> tuple[tuple[int, Combo], ...]:
    """The singles (``size`` 1) or pairs (2) above ``above`` a hand may hold, in the
    generator's order: each with the rank index whose count it needs."""
    out = [(i, _same_rank(i, size)) for i in range(13) if SINGLE[i] > above]
    if size == 1:
        out += [(i, _jokers(int(i == BJ), int(i == RJ))) for i in (BJ, RJ) if SINGLE[i] > above]
    return tuple(out)


_ABOVE: Final = range(-1, max(SINGLE) + 1)
# size -> above + 1 -> the candidates of _singles_and_pairs, made once
_CANDIDATES: Final = {
    size: tuple(_single_candidates(size, above) for above in _ABOVE) for size in (1, 2)
}


def _singles_and_pairs(hand: Counts, size: int, above: int) -> list[Combo]:
    if above in _ABOVE:
        return [combo for i, combo in _CANDIDATES[size][above + 1] if hand[i] >= size]
    return [combo for i, combo in _single_candidates(size, above) if hand[i] >= size]


_RUNS: Final[dict[tuple[int, int], tuple[Combo, ...]]] = {}
"""The sequences of :func:`_runs`, by (copies per rank, held ranks' bits)."""


def _runs(per: int, held: int) -> tuple[Combo, ...]:
    """Every plain sequence of ``per`` cards a rank (单龙, 双龙) on the ranks ``held``
    (bits of rank indexes), shorter first, each length low to high; made once a set."""
    found = _RUNS.get((per, held))
    if found is None:
        out: list[Combo] = []
        have = held.bit_count()
        for groups in _SHAPES_BY_PER[per]:  # shorter first
            if groups > have:
                break
            for bits, _, combo in _WINDOW_BITS[(per, groups)]:
                if bits & held == bits:
                    out.append(combo)
        found = _RUNS[(per, held)] = tuple(out)
    return found


def all_plays(hand: Counts) -> list[Combo]:
    """Every combination the hand can lead (N9-N21), each count vector once."""
    once = twice = 0  # the ranks held at least once, twice
    for i in range(13):
        n = hand[i]
        if n:
            once |= 1 << i
            if n >= 2:
                twice |= 1 << i
    out = _singles_and_pairs(hand, 1, -1)
    out += _singles_and_pairs(hand, 2, -1)
    out += _runs(1, once)
    out += _runs(2, twice)
    out += _bombs(tuple(hand))
    return out


def legal_plays(hand: Counts, table: Combo | None) -> list[Combo]:
    """Every play of ``hand`` that may go on ``table`` (all of them on a lead), takes included.

    Passing is not a play; the game adds it.
    """
    if table is None:
        return all_plays(hand)
    out: list[Combo] = []
    if table.plain:
        if table.kind in ("单牌", "对牌"):
            out.extend(_singles_and_pairs(hand, table.cards, table.top))
        else:
            out.extend(_sequences(hand, table.per_rank, table.groups, table.top))
        joker_single = table.kind == "单牌" and table.top >= SINGLE[BJ]
        no_zhazi3 = joker_single or table.kind == "双龙"
        for bomb in _bombs(tuple(hand)):
            if not (no_zhazi3 and bomb.row == 1):
                out.append(bomb)
        return out
    need = take_size(table)
    if need is not None and hand[FOUR] >= need:
        out.append(_same_rank(FOUR, need))  # 取牌 (N32, N33)
    key = table.key
    out.extend(b for b in _bombs(tuple(hand)) if b.key > key)
    return out


def sub_multisets(hand: Sequence[int]) -> Iterator[Counts]:
    """Every non-empty sub-multiset of a count vector (the brute force's search space)."""
    for counts in product(*(range(c + 1) for c in hand)):
        if any(counts):
            yield counts


def brute_force_plays(hand: Counts, table: Combo | None) -> list[Combo]:
    """The reference generator: classify every sub-multiset and keep what may be played."""
    out: list[Combo] = []
    for counts in sub_multisets(hand):
        combo = classify(counts)
        if combo is not None and (table is None or beats(table, combo).beats):
            out.append(combo)
    return out
