"""The fast win check against a slow brute-force reference (Hypothesis).

The reference knows nothing of blocks, tables or features: it gives each 混 every kind
that could matter, then splits the whole hand into groups by plain recursion, tracking
which tiles are 混, and reads the conditions and the arrangement fans off every split.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.games.majiang.rules import DRAGONS, YAOJIU, MajiangRules, pred, succ
from paiju.games.majiang.win import HandShape, Meld, best_reading, can_win
from paiju.tiles import Tile, parse_tiles

Item = tuple[int, bool]  # (kind, is 混)


def _groups_of(items: tuple[Item, ...]) -> list[list[tuple[str, tuple[Item, ...]]]]:
    """Every split of the sorted items into groups and one pair (a list of splits)."""
    if not items:
        return []

    @cache
    def split(
        rest: tuple[Item, ...], pair_done: bool
    ) -> tuple[tuple[tuple[str, tuple[Item, ...]], ...], ...]:
        if not rest:
            return ((),) if pair_done else ()
        first = rest[0]
        out: list[tuple[tuple[str, tuple[Item, ...]], ...]] = []
        k = first[0]
        shapes: list[tuple[str, tuple[int, ...]]] = [("kezi", (k, k, k))]
        if not pair_done:
            shapes.append(("jiang", (k, k)))
        if k < 27 and k % 9 <= 6:
            shapes.append(("shunzi", (k, k + 1, k + 2)))
        for name, kinds in shapes:
            for taken in _take(rest, kinds):
                left = list(rest)
                for it in taken:
                    left.remove(it)
                for tail in split(tuple(left), pair_done or name == "jiang"):
                    out.append(((name, taken), *tail))
        return tuple(out)

    return [list(s) for s in split(items, False)]


def _take(rest: tuple[Item, ...], kinds: tuple[int, ...]) -> list[tuple[Item, ...]]:
    """Ways to take one item of each kind (natural or 混 standing for it); the first is rest[0]."""
    avail = Counter(rest)
    ways: list[tuple[Item, ...]] = []

    def go(i: int, chosen: tuple[Item, ...]) -> None:
        if i == len(kinds):
            ways.append(chosen)
            return
        options = [rest[0]] if i == 0 else [(kinds[i], False), (kinds[i], True)]
        for it in options:
            if Counter(chosen)[it] < avail[it]:
                go(i + 1, (*chosen, it))

    go(0, ())
    return ways


def reference(
    tiles: list[int],
    hun: frozenset[int],
    rules: MajiangRules,
    melds: tuple[tuple[str, tuple[int, ...]], ...] = (),
) -> tuple[bool, int]:
    """(win, the best number of form fans) by brute force (standard form, 七对, 十三幺)."""
    natural = [t for t in tiles if t not in hun]
    everything = natural + [t for _, ts in melds for t in ts]
    w = len(tiles) - len(natural)
    best = -1
    c = Counter(natural)
    every = Counter(everything)
    seven = not melds and sum(1 for n in c.values() if n % 2) <= w
    if seven:  # 七对
        best = max(best, 1 + (1 if any(c[k] >= 2 for k in (1, 7, 10, 16, 19, 25)) else 0))
    # 十三幺 (every tile 幺九, no 吃)
    if all(t in YAOJIU for t in everything) and all(kind != "chi" for kind, _ in melds):
        sancha = 1 if sum(1 for n in every.values() if n >= 3) >= 3 else 0
        best = max(best, 1 + int(seven) + sancha)
    # standard: the conditions on natural tiles, then every substitution of the 混
    has_yaojiu = any(t in YAOJIU for t in everything)
    suits = {t // 9 for t in everything if t < 27}
    if has_yaojiu and suits == {0, 1, 2}:
        near = {k for t in natural for k in range(t - 2, t + 3) if 0 <= k < 34}
        candidates = sorted(near | DRAGONS | {0, 9, 18, 27})
        for subst in _assignments(candidates, w):
            items = tuple(sorted([(t, False) for t in natural] + [(k, True) for k in subst]))
            for groups in _groups_of(items):
                shown = [
                    ("shunzi" if kind == "chi" else "kezi", tuple((t, False) for t in ts[:3]))
                    for kind, ts in melds
                ]
                best = max(best, _score(groups + shown, rules))
    return best >= 0, best


def _assignments(candidates: list[int], w: int) -> list[tuple[int, ...]]:
    if w == 0:
        return [()]
    return [(k, *rest) for k in candidates for rest in _assignments(candidates, w - 1)]


def _score(groups: list[tuple[str, tuple[Item, ...]]], rules: MajiangRules) -> int:
    pung = any(name == "kezi" for name, _ in groups)
    chow = any(name == "shunzi" for name, _ in groups)
    pair = next(items for name, items in groups if name == "jiang")
    kind = pair[0][0]
    natural_pair = not any(h for _, h in pair)
    dragon_pair = kind in DRAGONS and (natural_pair or rules.hun_may_make_dragon_pair)
    if not (pung or dragon_pair) or not chow:
        return -1
    erba = natural_pair and kind < 27 and kind % 9 in (1, 7)
    natural_pungs = sum(1 for n, its in groups if n == "kezi" and not any(h for _, h in its))
    return int(erba) + int(natural_pungs >= 3)


def _group_kinds(draw: st.DrawFn) -> list[int]:
    """Four groups and a pair, or two groups and four pairs, or seven pairs (14 tiles)."""
    groups, pairs = draw(st.sampled_from([(4, 1), (4, 1), (2, 4), (0, 7)]))
    tiles: list[int] = []
    for _ in range(pairs - 1):
        k = draw(st.integers(0, 33))
        tiles += [k, k]
    for _ in range(groups):
        if draw(st.booleans()):
            suit = draw(st.integers(0, 2))
            start = suit * 9 + draw(st.integers(0, 6))
            tiles += [start, start + 1, start + 2]
        else:
            k = draw(st.integers(0, 33))
            tiles += [k, k, k]
    p = draw(st.integers(0, 33))
    return [*tiles, p, p]


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], frozenset[int]]:
    """Near-winning 14-tile hands: four groups and a pair, some tiles then changed, and
    up to two of them turned into the 混 kind; never more than four of a kind."""
    flip = draw(st.integers(0, 33))
    hun = succ(flip)
    tiles = _group_kinds(draw)
    for _ in range(draw(st.integers(0, 2))):
        tiles[draw(st.integers(0, 13))] = draw(st.integers(0, 33))
    for _ in range(draw(st.integers(0, 2))):
        tiles[draw(st.integers(0, 13))] = hun
    counts = Counter(tiles)
    extra = counts[hun] - 2
    if extra > 0:  # keep at most two 混 so the reference stays quick
        for i, t in enumerate(tiles):
            if t == hun and extra > 0:
                tiles[i] = 0 if hun != 0 else 1
                extra -= 1
    counts = Counter(tiles)
    tiles = [t for t in tiles if counts[t] <= 4] + [
        t for t in range(34) if counts[t] == 0 and t != hun
    ][: sum(1 for t in tiles if counts[t] > 4)]
    return sorted(tiles[:14]), frozenset({hun})


@settings(max_examples=150, deadline=None)
@given(hands())
def test_fast_check_matches_brute_force(hand: tuple[list[int], frozenset[int]]) -> None:
    tiles, hun = hand
    rules = MajiangRules()
    want_win, want_fans = reference(tiles, hun, rules)
    got = best_reading(HandShape(tuple(tiles), (), hun), rules)
    assert got.win == want_win, (tiles, got.reason)
    if want_win:
        assert len(got.fans) == want_fans, (tiles, got.fans)
        if got.form == "standard":  # the arrangement shown covers the hand exactly
            shown: Counter[int] = Counter()
            for g in got.groups:
                kinds = parse_tiles(g.tiles)
                shown.update(kinds)
                # a group is its natural tiles and the faces its 混 play (none: 混 only)
                assert len(g.hun_as) == (g.hun if kinds else 0), g
                assert len(kinds) + g.hun in (2, 3), g
                if g.type == "shunzi" and kinds:
                    faces = sorted([*kinds, *g.hun_as])
                    assert faces == list(range(faces[0], faces[0] + 3)), g
                elif kinds:
                    assert len({*kinds, *g.hun_as}) == 1, g
            natural = Counter(t for t in tiles if t not in hun)
            assert shown == natural, (tiles, got.groups)
            assert sum(g.hun for g in got.groups) == sum(1 for t in tiles if t in hun)
    counts = [0] * 34
    for t in tiles:
        if t not in hun:
            counts[t] += 1
    wilds = sum(1 for t in tiles if t in hun)
    assert can_win(counts, wilds, (), rules) == want_win


@st.composite
def hands_with_melds(
    draw: st.DrawFn,
) -> tuple[list[int], frozenset[int], tuple[tuple[str, tuple[int, ...]], ...]]:
    """A near-winning hand whose first one or two groups are declared (吃 / 碰 / 明杠)."""
    tiles, hun = draw(hands())
    n = draw(st.integers(1, 2))
    melds: list[tuple[str, tuple[int, ...]]] = []
    rest = list(tiles)
    for _ in range(n):
        if draw(st.booleans()):
            s = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
            meld = ("chi", (s, s + 1, s + 2))
        else:
            k = draw(st.integers(0, 33))
            meld = ("peng", (k, k, k)) if draw(st.booleans()) else ("minggang", (k,) * 4)
        if any(t in hun for t in meld[1]):
            continue
        melds.append(meld)
        del rest[:3]
    every = Counter(rest) + Counter(t for _, ts in melds for t in ts)
    if not melds or max(every.values()) > 4:
        return tiles, hun, ()  # not a possible hand: the test skips it
    return rest, hun, tuple(melds)


@settings(max_examples=100, deadline=None)
@given(hands_with_melds())
def test_fast_check_with_melds_matches_brute_force(
    hand: tuple[list[int], frozenset[int], tuple[tuple[str, tuple[int, ...]], ...]],
) -> None:
    tiles, hun, melds = hand
    if not melds:
        return
    rules = MajiangRules()
    want_win, want_fans = reference(tiles, hun, rules, melds)
    meld_objs = tuple(Meld(kind, tuple(Tile(t) for t in ts)) for kind, ts in melds)
    got = best_reading(HandShape(tuple(tiles), meld_objs, hun), rules)
    assert got.win == want_win, (tiles, melds, got.reason)
    if want_win:
        assert len(got.fans) == want_fans, (tiles, melds, got.fans)
    counts = [0] * 34
    for t in tiles:
        if t not in hun:
            counts[t] += 1
    wilds = sum(1 for t in tiles if t in hun)
    assert can_win(counts, wilds, meld_objs, rules) == want_win


OPTION_RULES = [
    MajiangRules(no_258_pair=True),
    MajiangRules(hun_may_make_dragon_pair=False),
    MajiangRules(shisanyao="thirteen-orphans"),
    MajiangRules(hun="flip+next"),
]


@settings(max_examples=150, deadline=None)
@given(hands_with_melds(), st.sampled_from(OPTION_RULES))
def test_fast_check_agrees_with_the_full_reading_under_every_option(
    hand: tuple[list[int], frozenset[int], tuple[tuple[str, tuple[int, ...]], ...]],
    rules: MajiangRules,
) -> None:
    """The claim-window check and the scored reading never disagree (a legal 胡 always
    scores), whatever the room's switches."""
    tiles, hun, melds = hand
    if rules.hun == "flip+next":  # the flipped kind is 混 too
        hun = hun | {pred(next(iter(hun)))}
        if any(t in hun for _, ts in melds for t in ts):
            return
    meld_objs = tuple(Meld(kind, tuple(Tile(t) for t in ts)) for kind, ts in melds)
    counts = [0] * 34
    for t in tiles:
        if t not in hun:
            counts[t] += 1
    wilds = sum(1 for t in tiles if t in hun)
    reading = best_reading(HandShape(tuple(tiles), meld_objs, hun), rules)
    assert can_win(counts, wilds, meld_objs, rules) == reading.win, (tiles, melds, rules)


@settings(max_examples=60, deadline=None)
@given(
    st.tuples(st.integers(0, 8), st.integers(9, 17), st.integers(18, 26), st.integers(27, 33)),
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 6)), min_size=2, max_size=2),
)
def test_a_pair_in_every_block_is_no_standard_hand(
    pairs: tuple[int, int, int, int], chows: list[tuple[int, int]]
) -> None:
    """Two chows and four pairs, one pair in each of 万 筒 条 字: every block's size fits a
    pair, yet a hand has one pair only (it may still be 七对 when the chows pair up)."""
    tiles = [k for p in pairs for k in (p, p)]
    for suit, start in chows:
        tiles += [suit * 9 + start + i for i in range(3)]
    if max(Counter(tiles).values()) > 4:
        return
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    want, _ = reference(tiles, frozenset(), MajiangRules())
    assert can_win(counts, 0, (), MajiangRules()) == want
    reading = best_reading(HandShape(tuple(tiles), (), frozenset()))
    assert reading.win == want and (not want or reading.form != "standard")
