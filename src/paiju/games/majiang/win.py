"""The 鞍山麻将 win check (胡牌): the three forms, the conditions, and the best reading.

A hand wins in one of three forms:

* standard (平胡): four groups (吃/碰/杠 melds and concealed 顺子/刻子) and one pair (将),
  with 「1、有碰牌(或有中发白一对) 2、有顺子 3、有幺九 4、三门齐」;
* 七对: seven pairs of the 14 concealed tiles (four alike are two pairs);
* 十三幺: every tile 幺九 (the reading's 乱幺; the classic thirteen orphans as an option).

The 混 (wild) stands for any tile in the shape, a fifth copy included, and completes a
pung, a chow, the pair or a 中发白 pair; it never supplies a 门 or a 幺九 (「混不能…不能单独
代替一门,不能单独顶幺九」: only natural tiles count there), nor 二八将 or 三叉.

**How it is fast.** The concealed tiles split into four blocks (万 筒 条 and the honours);
within a block every arrangement is summarised by its *features*, a 6-bit int:

====  ==========================================================
bit   meaning
====  ==========================================================
1     P: the block holds a 刻子 (any, 混 allowed): condition 1
2     C: the block holds a 顺子: condition 2
4     D: the pair is 中中 / 发发 / 白白 (or 中 + 混 …): condition 1
8     E: the pair is two natural 2s or 8s of one suit: 二八将
16-48 N: natural pungs (no 混), 0-3: 三叉 at 3
====  ==========================================================

A block's value is the Pareto-maximal set of the features of all its arrangements (every
feature only helps, so dominated ones are dropped). :data:`SUIT_TABLE` and
:data:`HONOR_TABLE` hold, built at import, that set for every natural block that completes
without 混; blocks with 混 are solved by the same recursion and cached on first use (the
solver is exact either way: the tables only save time). The hand's value combines the four
blocks (and the melds) through :data:`COMBINE` and reads the fan off :data:`FINAL`.
:func:`table_digest` pins the tables (a test checks its md5).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Final

from paiju.games.majiang.rules import DRAGONS, YAOJIU, MajiangRules
from paiju.tiles import Tile, format_tiles

__all__ = [
    "COMBINE",
    "FINAL",
    "HONOR_TABLE",
    "SUIT_TABLE",
    "Group",
    "HandShape",
    "Meld",
    "Reading",
    "best_reading",
    "is_standard_win",
    "solve_block",
    "table_digest",
]

P, C, D, E = 1, 2, 4, 8
N1 = 16
FEATURES = 64


def _comb(a: int, b: int) -> int:
    n = min(3, (a >> 4) + (b >> 4))
    return ((a | b) & 15) | (n << 4)


COMBINE: Final[tuple[int, ...]] = tuple(
    _comb(a, b) for a in range(FEATURES) for b in range(FEATURES)
)
"""COMBINE[a * 64 + b]: the features of two blocks together (flags or-ed, N summed, capped)."""


def _final(f: int) -> int:
    if not f & (P | D) or not f & C:
        return -1
    return (1 if f & E else 0) + (1 if f >> 4 == 3 else 0)


FINAL: Final[tuple[int, ...]] = tuple(_final(f) for f in range(FEATURES))
"""FINAL[f]: -1 if conditions 1-2 fail, else the arrangement's own fan (二八将 + 三叉)."""


def _dominated(a: int, b: int) -> bool:
    return (a & 15) & ~(b & 15) == 0 and (a >> 4) <= (b >> 4)


def _pareto(options: set[int]) -> tuple[int, ...]:
    if len(options) <= 1:
        return tuple(options)
    keep = [a for a in options if not any(b != a and _dominated(a, b) for b in options)]
    return tuple(sorted(keep))


# ------------------------------------------------------------------------ block solver

GroupT = tuple[str, tuple[int, ...], int]
"""(type, the kinds it stands for within the block, how many of them are 混);
type is ``shunzi`` 顺子, ``kezi`` 刻子 or ``jiang`` 将; kinds are () for an all-混 group."""


class _BlockSolver:
    """Arrangements of one block (a suit of 9 kinds or the 7 honours) with ``j`` 混."""

    def __init__(self, honor: bool, dragon_pair_hun: bool, no_258: bool) -> None:
        self.honor = honor
        self.dragon_pair_hun = dragon_pair_hun
        self.no_258 = no_258
        self.memo: dict[tuple[tuple[int, ...], int, bool], tuple[int, ...]] = {}

    def branches(
        self, counts: tuple[int, ...], j: int, pair: bool
    ) -> Iterator[tuple[int, tuple[int, ...], int, bool, GroupT]]:
        """Every first group: (its features, counts left, 混 left, pair still due, group).

        The group holds the lowest tile present, so every arrangement is found once per
        order of its groups and the recursion always shrinks the block.
        """
        i = next((k for k, c in enumerate(counts) if c), -1)
        if i < 0:
            yield from self._wild_only(j, pair)
            return
        c = counts[i]
        left = list(counts)
        for natural in (3, 2, 1):
            need = 3 - natural
            if c >= natural and j >= need:
                left[i] = c - natural
                f = P | (N1 if natural == 3 else 0)
                yield f, tuple(left), j - need, pair, ("kezi", (i, i, i), need)
        left[i] = c
        if pair and not (self.no_258 and not self.honor and i % 3 == 1):
            for natural in (2, 1):
                need = 2 - natural
                if c >= natural and j >= need:
                    left[i] = c - natural
                    f = 0
                    if self.honor and i + 27 in DRAGONS and (natural == 2 or self.dragon_pair_hun):
                        f |= D
                    if not self.honor and natural == 2 and i in (1, 7):
                        f |= E
                    yield f, tuple(left), j - need, False, ("jiang", (i, i), need)
            left[i] = c
        if not self.honor:
            yield from self._chows(counts, j, pair, i)

    def _chows(
        self, counts: tuple[int, ...], j: int, pair: bool, i: int
    ) -> Iterator[tuple[int, tuple[int, ...], int, bool, GroupT]]:
        for start in (i - 2, i - 1, i):
            if start < 0 or start + 2 > 8:
                continue
            others = [k for k in range(start, start + 3) if k != i]
            # a kind below i is absent: a 混 stands for it; above i, natural or 混
            choices = [(False,) if k < i or not counts[k] else (True, False) for k in others]
            for pick in product(*choices):
                wild = sum(1 for natural in pick if not natural)
                if wild > j:
                    continue
                left = list(counts)
                left[i] -= 1
                for k, natural in zip(others, pick, strict=True):
                    if natural:
                        left[k] -= 1
                kinds = (start, start + 1, start + 2)
                yield C, tuple(left), j - wild, pair, ("shunzi", kinds, wild)

    def _wild_only(
        self, j: int, pair: bool
    ) -> Iterator[tuple[int, tuple[int, ...], int, bool, GroupT]]:
        empty = (0,) * (7 if self.honor else 9)
        if pair and j >= 2:
            f = D if self.honor and self.dragon_pair_hun else 0
            yield f, empty, j - 2, False, ("jiang", (), 2)
        if j >= 3:
            yield P, empty, j - 3, pair, ("kezi", (), 3)
            if not self.honor:
                yield C, empty, j - 3, pair, ("shunzi", (), 3)

    def solve(self, counts: tuple[int, ...], j: int, pair: bool) -> tuple[int, ...]:
        """The Pareto-maximal features of every arrangement (() when there is none)."""
        key = (counts, j, pair)
        got = self.memo.get(key)
        if got is not None:
            return got
        if j == 0:
            result = self._natural(counts, pair)
        else:
            found: set[int] = set()
            for f, left, nj, npair, _ in self.branches(counts, j, pair):
                for g in self.solve(left, nj, npair):
                    found.add(COMBINE[f * FEATURES + g])
            result = _pareto(found)
        self.memo[key] = result
        return result

    def _natural(self, counts: tuple[int, ...], pair: bool) -> tuple[int, ...]:
        """:meth:`solve` without 混 (the import-time tables): the same groups, no 混 branches."""
        i = next((k for k, c in enumerate(counts) if c), -1)
        if i < 0:
            return () if pair else (0,)
        c = counts[i]
        found: set[int] = set()
        left = list(counts)
        if c >= 3:
            left[i] = c - 3
            for g in self.solve(tuple(left), 0, pair):
                found.add(COMBINE[(P | N1) * FEATURES + g])
        if pair and c >= 2 and not (self.no_258 and not self.honor and i % 3 == 1):
            left[i] = c - 2
            f = (
                D
                if self.honor and i + 27 in DRAGONS
                else E
                if not self.honor and i in (1, 7)
                else 0
            )
            for g in self.solve(tuple(left), 0, False):
                found.add(COMBINE[f * FEATURES + g])
        if not self.honor and i <= 6 and counts[i + 1] and counts[i + 2]:
            left[i] = c - 1
            left[i + 1] -= 1
            left[i + 2] -= 1
            for g in self.solve(tuple(left), 0, pair):
                found.add(COMBINE[C * FEATURES + g])
        return _pareto(found)

    def witness(
        self, counts: tuple[int, ...], j: int, pair: bool, want: int
    ) -> list[tuple[GroupT, tuple[int, ...]]]:
        """One arrangement whose features are at least ``want`` (which :meth:`solve` found):
        each group with the natural tiles it takes from ``counts`` (the rest are 混)."""
        if not any(counts) and j == 0:
            return []
        for f, left, nj, npair, group in self.branches(counts, j, pair):
            for g in self.solve(left, nj, npair):
                if _dominated(want, COMBINE[f * FEATURES + g]):
                    taken = tuple(
                        k
                        for k, (a, b) in enumerate(zip(counts, left, strict=True))
                        for _ in range(a - b)
                    )
                    return [(group, taken), *self.witness(left, nj, npair, g)]
        raise AssertionError("witness asked for features the block does not have")

    def table(self) -> dict[tuple[int, ...], tuple[int, ...]]:
        """Every natural block (counts 0-4, at most 14 tiles) that completes without 混."""
        width = 7 if self.honor else 9
        groups: list[tuple[int, ...]] = [
            tuple(3 if k == i else 0 for k in range(width)) for i in range(width)
        ]
        if not self.honor:
            groups += [tuple(1 if i <= k <= i + 2 else 0 for k in range(width)) for i in range(7)]
        shapes: set[tuple[int, ...]] = {(0,) * width}
        frontier = set(shapes)
        for _ in range(4):
            nxt = set()
            for shape in frontier:
                for g in groups:
                    s = tuple(a + b for a, b in zip(shape, g, strict=True))
                    if max(s) <= 4:
                        nxt.add(s)
            shapes |= nxt
            frontier = nxt
        with_pair = set(shapes)
        for shape in shapes:
            if sum(shape) <= 12:
                for i in range(width):
                    if shape[i] <= 2:
                        with_pair.add((*shape[:i], shape[i] + 2, *shape[i + 1 :]))
        out = {}
        for shape in sorted(with_pair):
            got = self.solve(shape, 0, sum(shape) % 3 == 2)
            if got:
                out[shape] = got
        return out


_SOLVERS: dict[tuple[bool, bool, bool], _BlockSolver] = {}


def _solver(honor: bool, rules: MajiangRules) -> _BlockSolver:
    key = (honor, rules.hun_may_make_dragon_pair, rules.no_258_pair)
    s = _SOLVERS.get(key)
    if s is None:
        s = _SOLVERS[key] = _BlockSolver(*key)
    return s


_DEFAULT = MajiangRules()
SUIT_TABLE: Final = _solver(False, _DEFAULT).table()
"""Natural suit blocks that complete, with their features (built at import)."""
HONOR_TABLE: Final = _solver(True, _DEFAULT).table()
"""Natural honour blocks that complete, with their features (built at import)."""


def table_digest() -> str:
    """md5 of both tables in key order (pinned by a test: a change in the solver shows)."""
    h = hashlib.md5()
    for name, table in (("suit", SUIT_TABLE), ("honor", HONOR_TABLE)):
        h.update(name.encode())
        for key in sorted(table):
            h.update(bytes(key) + bytes(table[key]) + b";")
    return h.hexdigest()


def _distributions(w: int, rems: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Ways to give ``w`` 混 to four blocks so that each completes (one holds the pair)."""
    out = []
    for js in product(range(w + 1), repeat=4):
        if sum(js) != w:
            continue
        r = [(a + b) % 3 for a, b in zip(rems, js, strict=True)]
        if 1 not in r and r.count(2) == 1:
            out.append(js)
    return out


_DIST: dict[tuple[int, tuple[int, ...]], list[tuple[int, ...]]] = {}


# ------------------------------------------------------------------------- melds


@dataclass(frozen=True)
class Meld:
    """A declared group: ``chi`` 吃, ``peng`` 碰, ``minggang`` 明杠 (补杠 too), ``angang`` 暗杠."""

    kind: str
    tiles: tuple[Tile, ...]

    @property
    def is_kong(self) -> bool:
        return self.kind in ("minggang", "angang")

    @property
    def is_open(self) -> bool:
        """开门: 吃, 碰 and 明杠 open the hand; a 暗杠 does not."""
        return self.kind != "angang"

    def features(self) -> int:
        if self.kind == "chi":
            return C
        return P | N1

    def text(self) -> str:
        return format_tiles(self.tiles)


def melds_features(melds: Sequence[Meld]) -> int:
    f = 0
    for m in melds:
        f = COMBINE[f * FEATURES + m.features()]
    return f


# ------------------------------------------------------------------------ the check


def _blocks(counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    return (
        tuple(counts[0:9]),
        tuple(counts[9:18]),
        tuple(counts[18:27]),
        tuple(counts[27:34]),
    )


def standard_options(
    counts: Sequence[int], wilds: int, rules: MajiangRules = _DEFAULT
) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Every (features, block features, 混 per block) of the concealed part (no melds).

    ``counts`` are the natural tiles (混 removed), ``wilds`` the 混 among them.
    """
    blocks = _blocks(counts)
    solvers = [_solver(False, rules)] * 3 + [_solver(True, rules)]
    rems = tuple(sum(b) % 3 for b in blocks)
    key = (wilds, rems)
    dists = _DIST.get(key)
    if dists is None:
        dists = _DIST[key] = _distributions(wilds, rems)
    out = []
    for js in dists:
        sets = [
            s.solve(b, j, (sum(b) + j) % 3 == 2)
            for s, b, j in zip(solvers, blocks, js, strict=True)
        ]
        if not all(sets):
            continue
        for fs in product(*sets):
            f = 0
            for x in fs:
                f = COMBINE[f * FEATURES + x]
            out.append((f, fs, js))
    return out


def is_standard_win(
    counts: Sequence[int],
    wilds: int = 0,
    meld_features: int = 0,
    rules: MajiangRules = _DEFAULT,
    first: bool = False,
) -> int:
    """The best own fan (二八将 + 三叉) of a standard arrangement meeting conditions 1-2,
    or -1 (``first``: any such arrangement's fan, as soon as one is found). Conditions 3-4
    (幺九, 三门齐) are checks on natural tiles, made by the caller.

    The hot path: without 混 it is four dict look-ups in the tables built at import.
    """
    if wilds == 0 and not rules.no_258_pair:
        a = SUIT_TABLE.get(tuple(counts[0:9]))
        if a is None:
            return -1
        b = SUIT_TABLE.get(tuple(counts[9:18]))
        if b is None:
            return -1
        c = SUIT_TABLE.get(tuple(counts[18:27]))
        if c is None:
            return -1
        kd = tuple(counts[27:34])
        d = HONOR_TABLE.get(kd)
        if d is None:
            return -1
        # 14 - 3 × melds tiles: one block holds the pair, or all four do (never a win)
        if sum(kd) % 3 == 2 and sum(counts[0:9]) % 3 == 2 and sum(counts[9:18]) % 3 == 2:
            return -1
        best = -1
        for x in a:
            fx = COMBINE[meld_features * FEATURES + x]
            for y in b:
                fy = COMBINE[fx * FEATURES + y]
                for z in c:
                    fz = COMBINE[fy * FEATURES + z]
                    for u in d:
                        v = FINAL[COMBINE[fz * FEATURES + u]]
                        if v > best:
                            best = v
        return best
    if rules.no_258_pair or not rules.hun_may_make_dragon_pair:
        best = -1
        for f, _, _ in standard_options(counts, wilds, rules):
            v = FINAL[COMBINE[meld_features * FEATURES + f]]
            if v > best:
                best = v
        return best
    return _wild_standard(counts, wilds, meld_features, first)


_BY_KEY_SUIT: dict[tuple[int, ...], list[tuple[int, ...] | None]] = {}
_BY_KEY_HONOR: dict[tuple[int, ...], list[tuple[int, ...] | None]] = {}


def _row(honor: bool, key: tuple[int, ...]) -> list[tuple[int, ...] | None]:
    """A block's cached features for 0-8 混 (None = not solved yet), default pair rules."""
    table = _BY_KEY_HONOR if honor else _BY_KEY_SUIT
    row = table.get(key)
    if row is None:
        row = table[key] = [None] * 9
    return row


def _fill(
    honor: bool, key: tuple[int, ...], row: list[tuple[int, ...] | None], j: int
) -> tuple[int, ...]:
    size = sum(key) + j
    got = () if size % 3 == 1 else _solver(honor, _DEFAULT).solve(key, j, size % 3 == 2)
    row[j] = got
    return got


def solve_block(honor: bool, key: tuple[int, ...], j: int) -> tuple[int, ...]:
    """The features of one block (natural counts ``key`` and ``j`` 混, the pair due when
    its size is 2 mod 3) under the default pair rules, ``()`` when it does not complete;
    cached per block like the win check's own rows."""
    row = _row(honor, key)
    got = row[j]
    if got is None:
        got = _fill(honor, key, row, j)
    return got


def _wild_standard(
    counts: Sequence[int], wilds: int, meld_features: int, first: bool = False
) -> int:
    """:func:`is_standard_win` with 混 under the default pair rules: per-block cached rows,
    one look-up per block; ``first`` stops at the first arrangement that meets 1-2."""
    ka = tuple(counts[0:9])
    kb = tuple(counts[9:18])
    kc = tuple(counts[18:27])
    kd = tuple(counts[27:34])
    key = (wilds, (sum(ka) % 3, sum(kb) % 3, sum(kc) % 3, sum(kd) % 3))
    dists = _DIST.get(key)
    if dists is None:
        dists = _DIST[key] = _distributions(wilds, key[1])
    ra = _row(False, ka)
    rb = _row(False, kb)
    rc = _row(False, kc)
    rd = _row(True, kd)
    best = -1
    for ja, jb, jc, jd in dists:
        a = ra[ja]
        if a is None:
            a = _fill(False, ka, ra, ja)
        if not a:
            continue
        b = rb[jb]
        if b is None:
            b = _fill(False, kb, rb, jb)
        if not b:
            continue
        c = rc[jc]
        if c is None:
            c = _fill(False, kc, rc, jc)
        if not c:
            continue
        d = rd[jd]
        if d is None:
            d = _fill(True, kd, rd, jd)
        if not d:
            continue
        for x in a:
            fx = COMBINE[meld_features * FEATURES + x]
            for y in b:
                fy = COMBINE[fx * FEATURES + y]
                for z in c:
                    fz = COMBINE[fy * FEATURES + z]
                    for u in d:
                        v = FINAL[COMBINE[fz * FEATURES + u]]
                        if v > best:
                            if first:
                                return v
                            best = v
    return best


# ------------------------------------------------------------------------- readings


@dataclass(frozen=True)
class Group:
    """One group of the winning arrangement, for the win screen."""

    type: str
    """``shunzi`` 顺子, ``kezi`` 刻子, ``jiang`` 将, ``pair`` 对子 (七对), ``single`` (十三幺)."""
    tiles: str
    """Its natural tiles (compact text), the 混 left out; '' for a group of 混 only."""
    hun: int
    """How many of its tiles are 混."""
    hun_as: tuple[int, ...] = ()
    """The kinds (0-33, as the view's ``hun``) its 混 stand for; a 混 that stands for no
    particular tile (a group of 混 only, a 十三幺 single) is not listed. Kinds, not tile
    text: a face a 混 plays is not a tile anyone holds."""

    def to_json(self) -> dict[str, object]:
        return {
            "type": self.type,
            "tiles": self.tiles,
            "hun": self.hun,
            "hun_as": list(self.hun_as),
        }


@dataclass(frozen=True)
class HandShape:
    """The winner's tiles: ``concealed`` holds the winning tile; ``hun`` the 混 kinds."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    hun: frozenset[int]

    def natural(self) -> list[int]:
        """Every natural tile of the winner (concealed and melds), 混 left out."""
        out = [t for t in self.concealed if t not in self.hun]
        for m in self.melds:
            out.extend(m.tiles)
        return out

    def natural_counts(self) -> list[int]:
        counts = [0] * 34
        for t in self.natural():
            counts[t] += 1
        return counts

    def concealed_counts(self) -> tuple[list[int], int]:
        counts = [0] * 34
        wilds = 0
        for t in self.concealed:
            if t in self.hun:
                wilds += 1
            else:
                counts[t] += 1
        return counts, wilds


@dataclass
class Reading:
    """The best reading of a hand: its form and the fans that depend on the arrangement."""

    win: bool
    form: str = ""
    """``standard``, ``七对`` or ``十三幺`` when ``win``."""
    fans: list[str] = field(default_factory=list)
    """二八将 三叉 十三幺 七对 of this form."""
    groups: list[Group] = field(default_factory=list)
    reason: str = ""
    """When not ``win``: the first condition that fails, in words."""


def _suit_missing(natural: Sequence[int]) -> str | None:
    present = {t // 9 for t in natural if t < 27}
    for suit, name in enumerate(("万", "筒", "条")):
        if suit not in present:
            return name
    return None


def _block_groups(
    fs: tuple[int, ...], js: tuple[int, ...], counts: Sequence[int], rules: MajiangRules
) -> list[Group]:
    out: list[Group] = []
    for b, (f, j) in enumerate(zip(fs, js, strict=True)):
        honor = b == 3
        start = 27 if honor else 9 * b
        block = tuple(counts[start : start + (7 if honor else 9)])
        solver = _solver(honor, rules)
        due = (sum(block) + j) % 3 == 2
        for (gtype, kinds, hun), taken in solver.witness(block, j, due, f):
            faces = list(kinds)
            for k in taken:
                faces.remove(k)
            natural = format_tiles(k + start for k in taken)
            out.append(Group(gtype, natural, hun, tuple(k + start for k in faces)))
    order = {"jiang": 1, "shunzi": 0, "kezi": 0}
    out.sort(key=lambda g: order[g.type])
    return out


def _standard(shape: HandShape, rules: MajiangRules) -> Reading:
    counts, wilds = shape.concealed_counts()
    mf = melds_features(shape.melds)
    options = standard_options(counts, wilds, rules)
    if not options:
        return Reading(False, reason="not a complete hand: no four groups and a pair")
    scored = [(FINAL[COMBINE[mf * FEATURES + f]], fs, js, f) for f, fs, js in options]
    best = max(scored, key=lambda s: s[0])
    if best[0] < 0:
        total = [COMBINE[mf * FEATURES + f] for f, _, _ in options]
        if not any(t & (P | D) for t in total):
            return Reading(False, reason="no 碰 (pung) and no 中发白 pair")
        if not any(t & C for t in total):
            return Reading(False, reason="no 顺子 (chow)")
        return Reading(False, reason="no arrangement has both a 碰 (or 中发白 pair) and a 顺子")
    natural = shape.natural()
    if not any(t in YAOJIU for t in natural):
        return Reading(
            False, reason="no 幺九: no natural 1, 9 or honour (a 混 cannot stand for it)"
        )
    missing = _suit_missing(natural)
    if missing is not None:
        return Reading(False, reason=f"三门齐 fails: no natural {missing}")
    f = COMBINE[mf * FEATURES + best[3]]
    fans = (["二八将"] if f & E else []) + (["三叉"] if f >> 4 == 3 else [])
    groups = _block_groups(best[1], best[2], counts, rules)
    return Reading(True, "standard", fans, groups)


def _qidui(shape: HandShape) -> Reading | None:
    if shape.melds or len(shape.concealed) != 14:
        return None
    counts, wilds = shape.concealed_counts()
    odd = sum(1 for c in counts if c % 2)
    if odd > wilds:
        return None
    fans = ["七对"]
    if any(counts[k] >= 2 for s in range(3) for k in (9 * s + 1, 9 * s + 7)):
        fans.append("二八将")
    groups: list[Group] = []
    left = wilds
    for k, c in enumerate(counts):
        for _ in range(c // 2):
            groups.append(Group("pair", format_tiles((k, k)), 0))
        if c % 2:
            groups.append(Group("pair", format_tiles((k,)), 1, (k,)))
            left -= 1
    groups.extend(Group("pair", "", 2) for _ in range(left // 2))
    return Reading(True, "七对", fans, groups)


def _shisanyao(shape: HandShape, rules: MajiangRules) -> Reading | None:
    if any(t not in YAOJIU for t in shape.natural()):
        return None
    if any(m.kind == "chi" for m in shape.melds):
        return None
    counts, wilds = shape.concealed_counts()
    if rules.shisanyao == "thirteen-orphans":
        if shape.melds or len(shape.concealed) != 14:
            return None
        if any(c >= 3 for c in counts) or sum(1 for c in counts if c == 2) > 1:
            return None
        return Reading(True, "十三幺", ["十三幺"], _singles(counts, wilds))
    fans = ["十三幺"]
    if _qidui(shape) is not None:
        fans.append("七对")
    natural = shape.natural_counts()
    if sum(1 for c in natural if c >= 3) >= 3:
        fans.append("三叉")
    return Reading(True, "十三幺", fans, _singles(counts, wilds))


def _singles(counts: Sequence[int], wilds: int) -> list[Group]:
    out = [Group("single", format_tiles([k] * c), 0) for k, c in enumerate(counts) if c]
    out.extend(Group("single", "", 1) for _ in range(wilds))
    return out


def best_reading(shape: HandShape, rules: MajiangRules = _DEFAULT) -> Reading:
    """The form and arrangement with the most fan (R24), or why the hand does not win."""
    candidates = [
        r
        for r in (_standard(shape, rules), _qidui(shape), _shisanyao(shape, rules))
        if r is not None and r.win
    ]
    if candidates:
        return max(candidates, key=lambda r: len(r.fans))
    return _standard(shape, rules)


_SUIT_OF = tuple(t // 9 if t < 27 else 3 for t in range(34))
_YAOJIU_LIST = tuple(sorted(YAOJIU))
_SUIT_GET = SUIT_TABLE.get
_NO_MIDDLE = [0] * 7


def can_win(
    counts: list[int],
    wilds: int,
    melds: Sequence[Meld] = (),
    rules: MajiangRules = _DEFAULT,
) -> bool:
    """Whether the concealed tiles (natural ``counts`` and ``wilds`` 混, winning tile
    included) with ``melds`` form a win in any form; the fast check behind claim windows.

    ``counts`` must hold exactly 14 - 3 × len(melds) tiles with ``wilds``; it is not changed.
    The standard shape is tried first (four table look-ups reject most hands), then the
    conditions on natural tiles, then 七对 and 十三幺 by counting.

    The hot path (a natural hand, no melds, with a single honour or a 万 block that no
    arrangement completes: most hands a claim window or a bot asks about) is a scan of the
    honours and at most one look-up, then 七对 and 十三幺 by C-level list scans: a lone honour
    or a miss in :data:`SUIT_TABLE` rules out the standard form under every pair rule,
    since the options only forbid more.
    """
    if not wilds and not melds and (1 in counts[27:34] or _SUIT_GET(tuple(counts[0:9])) is None):
        if 1 not in counts and 3 not in counts:
            return True  # 七对
        if counts[1:8] != _NO_MIDDLE or counts[10:17] != _NO_MIDDLE or counts[19:26] != _NO_MIDDLE:
            return False  # a 2-8: no 十三幺
        return rules.shisanyao == "all-yaojiu" or (max(counts) <= 2 and counts.count(2) <= 1)
    natural = counts
    mf = 0
    if melds:
        natural = list(counts)
        for m in melds:
            for t in m.tiles:
                natural[t] += 1
        mf = melds_features(melds)
    if is_standard_win(counts, wilds, mf, rules, first=True) >= 0:
        has_yaojiu = (
            natural[0] or natural[8] or natural[9] or natural[17] or natural[18] or natural[26]
        ) or max(natural[27:34])
        if has_yaojiu and sum(natural[0:9]) and sum(natural[9:18]) and sum(natural[18:27]):
            return True
    if not melds:
        odd = counts.count(1)
        if odd <= wilds and odd + counts.count(3) <= wilds:
            return True  # 七对
    if max(natural[1:8]) or max(natural[10:17]) or max(natural[19:26]):
        return False  # a 2-8: no 十三幺
    if not any(m.kind == "chi" for m in melds):  # 十三幺: every tile 幺九
        if rules.shisanyao == "all-yaojiu":
            return True
        if not melds and max(counts) <= 2 and counts.count(2) <= 1:
            return True
    return False
