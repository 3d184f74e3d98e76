"""听牌 (waits): the kinds that complete a 鞍山麻将 hand, on a discard and on a self-draw.

A hand of 13 - 3 × melds concealed tiles *waits* on a kind when that tile, added, makes a win
under the room's rules (:func:`paiju.games.majiang.win.can_win`: every form and condition).
The two ways a tile arrives differ only for the 混 (wild): 「混」 drawn by oneself is a wild
and completes the hand wherever any tile would (or more), while a discarded 混 cannot be
claimed at all (R12), so a 混 kind is a wait on a self-draw only. Every other kind wins on a
discard exactly when it wins on a self-draw. A kind whose four tiles the seat holds itself
(hand and melds) cannot arrive and is no wait.

**How it is fast.** Whether a hand wins in the standard form (conditions 1-2: a 刻子 or 中发白
pair, and a 顺子) asks no more of the 混 than their number: a 混 plays any tile, a fifth
copy included, and these conditions do not ask which tiles are 混 (二八将 and 三叉 do, but
they make fan, not a win). So each block (万 筒 条 and the honours, as in
:mod:`~paiju.games.majiang.win`) is summed up by its :data:`Need`: the fewest 混 that
complete it, with the pair or without, per condition it meets; the hand completes when the
Needs of its four blocks, joined, ask for no more 混 than it holds. A tile of kind ``x``
changes one block only, so the other three are joined once (a :data:`Plan`, cached by
their Needs: fewer than a hundred Needs occur in the bench's 50,000 hands) and each kind of
a block is one entry of its *near row*, the Needs of the block with each kind added, cached
per block. A Need is found by a recursion on the block's lowest tile, its sub-blocks cached;
a suit cut by two absent kinds in a row is two blocks joined. Blocks that cannot take the
tile (not even as a 混) are skipped, and so are kinds that cannot meet 幺九 and 三门齐. 七对
and 十三幺 are counted directly; whether the 混 drawn as a wild completes the hand is the
same join with one more 混 (:func:`_wild_wins`).

>>> from paiju.tiles import parse_tiles, format_tiles
>>> ws = waits(parse_tiles("123m456p789s1112z"))
>>> [(format_tiles([w.kind]), w.discard, w.self_drawn) for w in ws]
[('2z', True, True)]
>>> ws = waits(parse_tiles("234m456p78s11122z"))  # 78s: 6s or 9s
>>> [(format_tiles([w.kind]), w.discard, w.self_drawn) for w in ws]
[('6s', True, True), ('9s', True, True)]
>>> ws = waits(parse_tiles("123m456p78s11145z"), hun=frozenset({30}))  # flip 西: 混 = 北
>>> [(format_tiles([w.kind]), w.discard, w.self_drawn) for w in ws]
[('6s', True, True), ('9s', True, True), ('4z', False, True), ('5z', True, True)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import add, itemgetter
from typing import Any, Final

from paiju.errors import NotationError
from paiju.games.majiang.rules import YAOJIU, MajiangRules, hun_kinds, kind_counts
from paiju.games.majiang.win import Meld, can_win
from paiju.tiles import Tile, format_tiles, parse_tiles

__all__ = [
    "Wait",
    "help_from_view",
    "ready_discards",
    "ting",
    "unseen_counts",
    "waits",
    "waits_by_trial",
    "waits_json",
]

_DEFAULT = MajiangRules()


@dataclass(frozen=True)
class Wait:
    """One kind the hand waits on (听): ``kind`` 0-33 and how it may arrive."""

    kind: int
    discard: bool
    """A discard of this kind wins (点炮, or robbing a 补杠); never a 混 kind."""
    self_drawn: bool
    """Drawing it oneself wins (自摸)."""


Need = tuple[int, ...]
"""What a block lacks, eight ints: at index ``4 × pair + mask``, the fewest 混 that complete
it into groups (and the pair when ``pair`` is 1) whose features hold ``mask`` (bit 1: a 刻子
or a 中发白 pair, condition 1; bit 2: a 顺子, condition 2); :data:`_NO` or more when none do.
Other counts of 混 complete it too when they are more by a multiple of three (a 刻子 of 混)."""

_NO: Final = 99
"""More 混 than any hand holds: the block cannot complete that way."""
_PUNG_OR_DRAGONS, _CHOW = 1, 2

_EMPTY_SUIT: Final[Need] = (0, 3, 3, 6, 2, 5, 5, 8)
"""An empty suit: nothing, or a 刻子 or 顺子 of 混 (3 each), the pair of 混 (2) besides."""
_EMPTY_HONOR: Final[Need] = (0, 3, _NO, _NO, 2, 2, _NO, _NO)
"""An empty honour block: no 顺子; two 混 are a 中发白 pair (R22)."""

_AFTER_PUNG: Final = itemgetter(0, 0, 2, 2, 4, 4, 6, 6)
"""Per entry of a :data:`Need`, the entry of the rest after a 刻子 (bit 1 given)."""
_AFTER_CHOW: Final = itemgetter(0, 1, 0, 1, 4, 5, 4, 5)
_AFTER_PAIR: Final = itemgetter(8, 8, 8, 8, 0, 1, 2, 3)
"""After the pair, on the rest's :data:`Need` and :data:`_NO`: no pair left to give."""
_AFTER_DRAGON_PAIR: Final = itemgetter(8, 8, 8, 8, 0, 0, 2, 2)
_PLUS: Final = tuple((w,) * 8 for w in range(4))
"""The 混 a group takes, added to every entry."""

_NEEDS: Final[tuple[dict[int, Need], dict[int, Need]]] = ({0: _EMPTY_SUIT}, {0: _EMPTY_HONOR})
"""Per block (suits, honours) and key, its :data:`Need`; filled on first use."""
_ONE: Final[dict[Need, Need]] = {}
"""One copy of each Need (a few dozen occur, held by every key that has it)."""


_UNIT: Final = tuple(1 << 3 * k for k in range(34))
"""A tile of each kind in a hand's key: three bits a kind, 0-33 upwards; the blocks are
bits 0-26 (万), 27-53 (筒), 54-80 (条) and 81-101 (honours)."""
_BLOCK_BITS: Final = (1 << 27) - 1

_CHOWS: Final = tuple(
    tuple(_UNIT[first : first + 3] for first in range(max(0, i - 2), min(i, 6) + 1))
    for i in range(9)
)
"""Per lowest kind of a suit, the 顺子 that hold it (a tile of each of their kinds)."""


_LOW_BITS: Final = sum(1 << 3 * k for k in range(9))


def _gapped(key: int) -> bool:
    """Whether two kinds in a row are absent between a suit's lowest and highest kinds."""
    present = (key | key >> 1 | key >> 2) & _LOW_BITS
    absent = ~present & ~present >> 3 & _LOW_BITS
    return bool(absent & ((1 << present.bit_length()) - (present & -present)))


def _apart(key: int) -> list[int]:
    """A suit's key cut where two kinds or more in a row are absent."""
    parts = []
    part = 0
    last = -3
    for k in range(9):
        c = key >> 3 * k & 7
        if c:
            if k - last > 2 and part:
                parts.append(part)
                part = 0
            part |= c << 3 * k
            last = k
    parts.append(part)
    return parts


def _need(key: int, honor: bool) -> Need:
    """The :data:`Need` of a block (its natural counts, three bits a kind: :data:`_UNIT`).

    A 混 plays any tile, a fifth copy included, and the features the win check reads
    (:mod:`~paiju.games.majiang.win`) do not ask which tiles of a group are 混 for
    conditions 1-2 (二八将 and 三叉 do, but no waits depend on them); so a block completes
    with ``j`` 混 exactly when adding ``j`` tiles of its kinds, as many copies as needed, makes
    it groups and a pair. Recursion on the lowest kind present, whose first copy lies in a
    刻子, the pair or one of three 顺子 (its missing tiles 混; a natural tile in a group in
    place of a 混 changes nothing, so each group takes the natural tiles there are).
    """
    memo = _NEEDS[honor]
    got = memo.get(key)
    if got is not None:
        return got
    if not honor and _gapped(key):  # no group holds tiles of both sides
        parts = _apart(key)
        if len(parts) > 1:
            got = memo.get(parts[0]) or _need(parts[0], False)
            for part in parts[1:]:
                got = _join(got, memo.get(part) or _need(part, False))
            got = memo[key] = _ONE.setdefault(got, got)
            return got
    shift = ((key & -key).bit_length() - 1) // 3 * 3  # the lowest kind present
    i = shift // 3
    unit = 1 << shift
    c = key >> shift & 7
    # a 刻子 of kind i (sets bit 1), its missing copies 混
    take = c if c < 3 else 3
    left = key - take * unit
    s = memo.get(left) or _need(left, honor)
    best = map(add, _AFTER_PUNG(s), _PLUS[3 - take])
    # the pair of kind i (a 中发白 pair sets bit 1)
    take = c if c < 2 else 2
    left = key - take * unit
    s = memo.get(left) or _need(left, honor)
    pair = _AFTER_DRAGON_PAIR if honor and i >= 4 else _AFTER_PAIR
    best = map(min, best, map(add, pair((*s, _NO)), _PLUS[2 - take]))
    if not honor:  # the 顺子 holding kind i (sets bit 2)
        for chow in _CHOWS[i]:
            w = 0
            left = key
            for u in chow:
                if key & 7 * u:
                    left -= u
                else:
                    w += 1
            s = memo.get(left) or _need(left, False)
            best = map(min, best, map(add, _AFTER_CHOW(s), _PLUS[w]))
    got = tuple(best)
    got = memo[key] = _ONE.setdefault(got, got)
    return got


def _join(a: Need, b: Need) -> Need:
    """The :data:`Need` of two blocks together (one pair between them at most)."""
    a0, a1, a2, a3, a4, a5, a6, a7 = a
    b0, b1, b2, b3, b4, b5, b6, b7 = b
    return (
        a0 + b0,
        min(a1 + b0, a0 + b1),
        min(a2 + b0, a0 + b2),
        min(a3 + b0, a0 + b3, a1 + b2, a2 + b1),
        min(a4 + b0, a0 + b4),
        min(a5 + b0, a4 + b1, a1 + b4, a0 + b5),
        min(a6 + b0, a4 + b2, a2 + b4, a0 + b6),
        min(a7 + b0, a4 + b3, a5 + b2, a6 + b1, a3 + b4, a0 + b7, a1 + b6, a2 + b5),
    )


_PICK: Final = tuple(
    itemgetter(
        *(4 * (1 - q) + (goal & ~m) if m & ~goal == 0 else 8 for q in (0, 1) for m in range(4))
    )
    for goal in range(4)
)


def _against(rest: Need, goal: int) -> Need:
    """``rest`` (the other blocks) laid against a block's :data:`Need` ``n``: the 混 the
    hand needs for a win whose features hold ``goal`` is ``min(map(add, n, out))``."""
    if goal == 3:
        return rest[::-1]
    return _PICK[goal]((*rest, _NO))  # type: ignore[no-any-return]


_NEAR: Final[tuple[dict[int, tuple[tuple[Need, int], ...]], ...]] = ({}, {})
"""Per block (suits, honours) and key, its near row: each :data:`Need` of the block with one
natural tile added and the kinds (a bit mask) that give it; filled on first use."""


def _near(key: int, honor: bool) -> tuple[tuple[Need, int], ...]:
    row = _NEAR[honor].get(key)
    if row is None:
        by_need: dict[Need, int] = {}
        for k in range(7 if honor else 9):
            if (key >> 3 * k) & 7 < 4:
                n = _need(key + (1 << 3 * k), honor)
                by_need[n] = by_need.get(n, 0) | 1 << k
        row = _NEAR[honor][key] = tuple(by_need.items())
    return row


_LOWER: Final[dict[Need, Need]] = {}


def _lower(n: Need) -> Need:
    """At least what a block lacks once a tile is added to it (a tile, natural or 混, of
    :data:`Need` ``n``): one less, and two when it was complete (the 混 counted mod 3)."""
    got = _LOWER[n] = tuple(v - 1 if v else 2 for v in n)
    return got


Plan = tuple[int, tuple[Need, Need, Need, Need], tuple[int, int, int, int]]
"""How four blocks stand (:func:`_plan`): the 混 a win lacks with one more tile anywhere; per
block, the other three laid against it (:func:`_against`) and the 混 lacking with one more
tile in that block (at least)."""

_PLANS: Final[dict[tuple[Need, Need, Need, Need, int], Plan]] = {}
"""Per four :data:`Need` and goal, its :data:`Plan`; few Needs occur (under a hundred in
hands of every kind), so this fills fast."""


def _plan(n0: Need, n1: Need, n2: Need, n3: Need, goal: int) -> Plan:
    first, last = _join(n0, n1), _join(n2, n3)
    total = min(map(add, first, _against(last, goal)))
    against = (
        _against(_join(n1, last), goal),
        _against(_join(n0, last), goal),
        _against(_join(first, n3), goal),
        _against(_join(first, n2), goal),
    )
    lower = (
        min(map(add, _LOWER.get(n0) or _lower(n0), against[0])),
        min(map(add, _LOWER.get(n1) or _lower(n1), against[1])),
        min(map(add, _LOWER.get(n2) or _lower(n2), against[2])),
        min(map(add, _LOWER.get(n3) or _lower(n3), against[3])),
    )
    got = _PLANS[(n0, n1, n2, n3, goal)] = (total, against, lower)
    return got


def _standard(key: int, wilds: int, goal: int, allowed: int) -> tuple[int, bool]:
    """The natural kinds among ``allowed`` (a bit mask over 0-33) that make a standard
    arrangement meeting conditions 1-2 (``goal``: the features the melds do not give) with
    the concealed tiles (natural ``key``, :data:`_UNIT`) and ``wilds`` 混, and whether one
    more 混 does (the 混 drawn: it plays any kind, or a fifth copy).

    A kind of block ``b`` changes that block only: the other three are joined once (the
    :data:`Plan`) and each distinct :data:`Need` of ``b``'s near row is laid against them.
    """
    k0 = key & _BLOCK_BITS
    k1 = key >> 27 & _BLOCK_BITS
    k2 = key >> 54 & _BLOCK_BITS
    k3 = key >> 81
    suit = _NEEDS[0]
    n0 = suit.get(k0) or _need(k0, False)
    n1 = suit.get(k1) or _need(k1, False)
    n2 = suit.get(k2) or _need(k2, False)
    n3 = _NEEDS[1].get(k3) or _need(k3, True)
    # the 混 lacking for groups and a pair, conditions 1-2 left aside: a bound
    bare = n0[0] + n1[0] + n2[0] + n3[0]
    if bare + min(n0[4] - n0[0], n1[4] - n1[0], n2[4] - n2[0], n3[4] - n3[0]) > wilds + 1:
        return 0, False
    plan = _PLANS.get((n0, n1, n2, n3, goal)) or _plan(n0, n1, n2, n3, goal)
    if plan[0] > wilds + 1:
        return 0, False  # no tile completes it, so no natural one does
    found = 0
    for b, block in enumerate((k0, k1, k2, k3)):
        here = allowed >> 9 * b & 0x1FF
        if not here or plan[2][b] > wilds:
            continue  # not even a 混 in this block completes it
        against = plan[1][b]
        for n, kinds in _near(block, b == 3):
            if kinds & here and min(map(add, n, against)) <= wilds:
                found |= (kinds & here) << 9 * b
    return found, True


_SUITS_MISSING: Final = tuple(
    sum(1 << x for x in range(27) if suits | 1 << (x // 9) == 7) for suits in range(8)
)
"""Per 门 present (万 1, 筒 2, 条 4), the kinds (a bit mask) that make 三门齐 with them."""
_YAOJIU_BITS: Final = sum(1 << x for x in YAOJIU)
_ALL_KINDS: Final = (1 << 34) - 1


def _fields(kinds: Iterable[int]) -> int:
    """The bits of ``kinds`` in a key (:data:`_UNIT`)."""
    return sum(7 << 3 * k for k in kinds)


_SUIT_FIELDS: Final = (_fields(range(9)), _fields(range(9, 18)), _fields(range(18, 27)))
_YAOJIU_FIELDS: Final = _fields(YAOJIU)
_MIDDLE_FIELDS: Final = _fields(k for k in range(27) if k % 9 not in (0, 8))
"""The 2-8 of the suits (no 十三幺 holds one)."""


def _held(hand: Iterable[int], melds: Sequence[Meld]) -> list[int]:
    held = [0] * 34
    for t in hand:
        held[t] += 1
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    return held


def waits(
    hand: Sequence[int],
    melds: Sequence[Meld] = (),
    hun: frozenset[int] = frozenset(),
    rules: MajiangRules = _DEFAULT,
) -> list[Wait]:
    """Every kind that completes ``hand`` (13 - 3 × melds concealed tiles, 混 included) with
    ``melds`` under ``rules``, in kind order; ``[]`` when the hand is not ready (不听)."""
    if rules.no_258_pair or not rules.hun_may_make_dragon_pair or len(hand) + 3 * len(melds) != 13:
        return waits_by_trial(hand, melds, hun, rules)
    counts = [0] * 34
    wilds = 0
    key = 0
    for t in hand:
        if t in hun:
            wilds += 1
        else:
            counts[t] += 1
            key += _UNIT[t]
    goal = _PUNG_OR_DRAGONS | _CHOW
    natural = key  # the melds' tiles too
    for m in melds:
        goal &= ~(_CHOW if m.kind == "chi" else _PUNG_OR_DRAGONS)
        for t in m.tiles:
            natural += _UNIT[t]
    # conditions 3-4 on natural tiles, the new tile included
    yaojiu = bool(natural & _YAOJIU_FIELDS)
    suits = (
        (1 if natural & _SUIT_FIELDS[0] else 0)
        | (2 if natural & _SUIT_FIELDS[1] else 0)
        | (4 if natural & _SUIT_FIELDS[2] else 0)
    )
    allowed = _ALL_KINDS if suits == 7 else _SUITS_MISSING[suits]
    if not yaojiu:
        allowed &= _YAOJIU_BITS
    shape = 0
    wild_shape = False  # the 混 drawn, as any tile: the natural tiles meet 3-4 already
    if allowed:
        shape, wild_shape = _standard(key, wilds, goal, allowed)
    wins = shape
    odd = -1
    if not melds:  # 七对: each odd count needs a 混 (four alike are two pairs)
        odd = counts.count(1) + counts.count(3)
        if odd - 1 <= wilds:
            for x in range(34):
                if counts[x] < 4 and odd + (-1 if counts[x] & 1 else 1) <= wilds:
                    wins |= 1 << x
    all_yaojiu = not natural & _MIDDLE_FIELDS and not any(m.kind == "chi" for m in melds)
    if all_yaojiu:
        wins |= _shisanyao(counts, bool(melds), rules)
    held = natural  # and the 混 in hand: a kind held four times cannot arrive
    for k in hun:
        held += _UNIT[k] * hand.count(k)
    wild_wins = False
    if hun and any(not held >> 3 * k & 4 for k in hun):
        wild_wins = _wild_wins(
            counts, wilds, melds, rules, wild_shape and allowed == _ALL_KINDS, odd, all_yaojiu
        )
    for k in hun:
        wins &= ~(1 << k)
        if wild_wins:
            wins |= 1 << k
    out = []
    while wins:
        low = wins & -wins
        x = low.bit_length() - 1
        wins ^= low
        if not held >> 3 * x & 4:
            out.append(Wait(x, x not in hun, True))
    return out


def _wild_wins(
    counts: list[int],
    wilds: int,
    melds: Sequence[Meld],
    rules: MajiangRules,
    standard: bool,
    odd: int,
    all_yaojiu: bool,
) -> bool:
    """Whether a 混 drawn oneself completes the hand: in the standard form when one more 混
    makes the shape (:func:`_standard`, a fifth copy included) and the natural tiles already
    meet 幺九 and 三门齐; in 七对 when the odd counts are at most the 混 with it; in 十三幺
    when every natural tile is 幺九."""
    if standard or 0 <= odd <= wilds + 1:
        return True
    if all_yaojiu and (rules.shisanyao == "all-yaojiu" or not melds):
        if rules.shisanyao == "all-yaojiu":
            return True
        if max(counts) <= 2 and counts.count(2) <= 1:
            return True
    return False


def _shisanyao(counts: Sequence[int], melded: bool, rules: MajiangRules) -> int:
    """The natural kinds (a bit mask) that make 十三幺 of a hand whose natural tiles are all
    幺九."""
    if rules.shisanyao == "all-yaojiu":
        return _YAOJIU_BITS
    if melded or max(counts) > 2:
        return 0
    pairs = counts.count(2)
    out = 0
    for x in YAOJIU:
        if pairs + (counts[x] == 1) <= 1 and counts[x] < 2:
            out |= 1 << x
    return out


def waits_by_trial(
    hand: Sequence[int],
    melds: Sequence[Meld] = (),
    hun: frozenset[int] = frozenset(),
    rules: MajiangRules = _DEFAULT,
) -> list[Wait]:
    """:func:`waits` the plain way: each of the 34 kinds added and the win check asked
    (the reference the fast one is tested against, and the path for the rarer pair rules)."""
    counts, wilds = kind_counts(hand, hun)
    held = _held(hand, melds)
    out = []
    wild_wins: bool | None = None
    for x in range(34):
        if held[x] >= 4:
            continue
        if x in hun:
            if wild_wins is None:
                wild_wins = can_win(counts, wilds + 1, melds, rules)
            if wild_wins:
                out.append(Wait(x, False, True))
            continue
        counts[x] += 1
        if can_win(counts, wilds, melds, rules):
            out.append(Wait(x, True, True))
        counts[x] -= 1
    return out


def ready_discards(
    hand: Sequence[int],
    melds: Sequence[Meld] = (),
    hun: frozenset[int] = frozenset(),
    rules: MajiangRules = _DEFAULT,
) -> dict[int, list[Wait]]:
    """打哪张听哪张: for a hand of 14 - 3 × melds concealed tiles (one's turn), each kind
    whose discard leaves the hand ready, with the waits it leaves."""
    out: dict[int, list[Wait]] = {}
    rest = list(hand)
    for t in sorted(set(hand)):
        i = rest.index(t)
        left = rest[:i] + rest[i + 1 :]
        got = waits(left, melds, hun, rules)
        if got:
            out[t] = got
    return out


def can_come(
    ws: Sequence[Wait], hand: Iterable[int], melds: Sequence[Meld], flip: int
) -> list[Wait]:
    """The waits of ``ws`` whose kind can still come to the seat: a kind whose four copies
    are its own (its concealed hand and melds) and the flip (set aside face up, out of play:
    R5) is no wait, as ``paiju hu`` refuses a fifth copy. A kind whose copies are all seen
    elsewhere (discards, another seat's melds) stays a wait, with 0 unseen: the hand is
    ready on it in form (空听, shown with 0 left as 雀魂 shows it)."""
    held = _held(hand, melds)
    held[flip] += 1
    return [w for w in ws if held[w.kind] < 4]


def unseen_counts(seen: Iterable[int]) -> list[int]:
    """Per kind, the copies a seat has not seen: four less those in ``seen`` (its own hand,
    混 included, every meld shown, every discard on the table, the flip)."""
    out = [4] * 34
    for t in seen:
        out[t] -= 1
    return [max(0, n) for n in out]


def waits_json(
    ws: Sequence[Wait], unseen: Sequence[int], as_kind: bool = False
) -> list[dict[str, object]]:
    """The waits in the command-line contract's form, ``unseen`` per kind given; with
    ``as_kind`` each names its kind as an int 0-33 (``"kind"``), as a view names a kind that
    is no tile on the table, instead of tile text (``"tile"``)."""
    return [
        {
            ("kind" if as_kind else "tile"): w.kind if as_kind else format_tiles([w.kind]),
            "discard": w.discard,
            "self_drawn": w.self_drawn,
            "unseen": unseen[w.kind],
        }
        for w in ws
    ]


def ting(
    hand: str, *, flip: str, melds: str = "", options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``paiju ting``: ``{"waits": [{"tile", "discard", "self_drawn", "unseen"}, …]}`` for a
    hand of 13 - 3 × melds tiles, ``unseen`` counted from what the seat sees (its hand,
    its melds and the flip).

    >>> ting("123m456p78s11145z", flip="3z")["waits"][:2]  # doctest: +NORMALIZE_WHITESPACE
    [{'tile': '6s', 'discard': True, 'self_drawn': True, 'unseen': 4},
     {'tile': '9s', 'discard': True, 'self_drawn': True, 'unseen': 4}]

    Raises NotationError for bad input: a bad tile, a wrong tile count, five of a kind
    (counting the flip), a 混 inside a meld; IllegalAction for a bad room option.
    """
    from paiju.games.majiang.hu import check_melds_without_hun, parse_melds

    rules = MajiangRules.from_options(dict(options or {}))
    concealed = parse_tiles(hand)
    flip_tile = Tile.parse(flip)
    meld_list = parse_melds(melds)
    want = 13 - 3 * len(meld_list)
    if len(concealed) != want:
        raise NotationError(
            f"--hand has {len(concealed)} tiles; with {len(meld_list)} meld(s) a hand "
            f"waiting on its next tile holds {want}"
        )
    hun = hun_kinds(flip_tile, rules)
    check_melds_without_hun(meld_list, hun)
    seen = [*concealed, flip_tile, *(t for m in meld_list for t in m.tiles)]
    every = Counter(seen)
    five = sorted(t for t, n in every.items() if n > 4)
    if five:
        raise NotationError(f"more than four {format_tiles(five)} (hand, melds and flip)")
    ws = can_come(waits(concealed, meld_list, hun, rules), concealed, meld_list, flip_tile)
    return {"waits": waits_json(ws, unseen_counts(seen))}


def help_from_view(view: Mapping[str, Any], rules: MajiangRules = _DEFAULT) -> dict[str, Any]:
    """听牌 help for a seat, read from that seat's view alone (nothing hidden can leak in):

    * ``{"waits": [...]}`` when the seat holds a hand one tile short (after its discard, or
      while others play): each kind that completes it (``"kind"``, an int 0-33: a wait is no
      tile on the table), with ``discard``/``self_drawn`` and how many the seat has not
      seen (its hand, 混 included, every meld shown, every discard on the table, the flip);
    * ``{"discards": [{"tile": "9m", "waits": [...]}, ...]}`` on its own turn with a tile to
      discard: each discard that leaves the hand ready, and what it would then wait on.

    Empty lists when nothing is ready; ``{}`` for a spectator or a finished hand.
    """
    if view.get("seat") is None or view.get("phase") == "over":
        return {}
    seat = view["seat"]
    hand = list(parse_tiles(view["hand"]))
    if view.get("drawn"):
        hand.append(Tile.parse(view["drawn"]))
    hun = frozenset(view["hun"])
    flip = Tile.parse(view["flip"])
    seen: list[int] = [*hand, flip]
    melds: list[Meld] = []
    for p in view["players"]:
        claimed = set(p["claimed"])
        seen.extend(t for i, t in enumerate(parse_tiles(p["discards"])) if i not in claimed)
        for m in p["melds"]:
            if m["tiles"] is None:
                continue  # another seat's 暗杠: its tiles are hidden
            tiles = tuple(sorted(parse_tiles(m["tiles"])))
            seen.extend(tiles)
            if p["seat"] == seat:
                melds.append(Meld(m["kind"], tiles))
    last = view.get("last_discard")
    if last and last.get("kong"):
        seen.append(Tile.parse(last["tile"]))  # the 补杠 tile on offer, not yet in a meld
    unseen = unseen_counts(seen)
    size = 13 - 3 * len(melds)
    if len(hand) == size:
        ws = can_come(waits(hand, melds, hun, rules), hand, melds, flip)
        return {"waits": waits_json(ws, unseen, as_kind=True)}
    if len(hand) == size + 1:
        out = []
        for t, ws in ready_discards(hand, melds, hun, rules).items():
            rest: list[int] = list(hand)
            rest.remove(t)
            if come := can_come(ws, rest, melds, flip):
                out.append(
                    {"tile": format_tiles([t]), "waits": waits_json(come, unseen, as_kind=True)}
                )
        return {"discards": out}
    return {}
