"""听牌 (waits): the kinds that complete a 鞍山麻将 hand, on a discard and on a self-draw.

A hand of 13 - 3 × melds concealed tiles *waits* on a kind when that tile, added, makes a win
under the room's rules (:func:`paiju.games.majiang.win.can_win`: every form and condition).
The two ways a tile arrives differ only for the 混 (wild): 「混」 drawn by oneself is a wild
and completes the hand wherever any tile would (or more), while a discarded 混 cannot be
claimed at all (R12), so a 混 kind is a wait on a self-draw only. Every other kind wins on a
discard exactly when it wins on a self-draw. A kind whose four tiles the seat holds itself
(hand and melds) cannot arrive and is no wait.

**How it is fast.** The standard form splits into the four blocks of
:mod:`~paiju.games.majiang.win` (万 筒 条 and the honours). A tile of kind ``x`` changes one
block only, so for each block ``b`` and each way to share the 混 among the blocks, the other
three blocks are combined once (their features, from the tables) and each kind of ``b`` is
then one look-up in a *near* row: the features of ``b`` with that kind added. A natural
block's near row is read from the win tables built at import (one look-up per kind), a row
with 混 is solved by the same block solver; both are cached per block on first use (building
every near row at import would cost a second of start-up for rows most tables never meet).
七对 and 十三幺 are counted directly; whether the 混 drawn as a wild completes the hand
follows from the natural waits (:func:`_wild_wins`).

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
from itertools import product
from typing import Any, Final

from paiju.errors import NotationError
from paiju.games.majiang.rules import YAOJIU, MajiangRules, hun_kinds
from paiju.games.majiang.win import (
    COMBINE,
    FEATURES,
    FINAL,
    HONOR_TABLE,
    SUIT_TABLE,
    Meld,
    can_win,
    melds_features,
    solve_block,
)
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


Row = tuple[tuple[int, ...], ...]
"""A near row: per kind of the block, the features of the block with that kind added
(``()`` when it does not complete)."""


_NEAR: dict[tuple[bool, tuple[int, ...]], Row] = {}


def _near_row(honor: bool, key: tuple[int, ...]) -> Row:
    """The near row of a natural block: one look-up per kind in the win tables built at
    import (:data:`~paiju.games.majiang.win.SUIT_TABLE`, ``HONOR_TABLE``), cached per block."""
    table = HONOR_TABLE if honor else SUIT_TABLE
    row = tuple(
        () if c >= 4 else table.get((*key[:k], c + 1, *key[k + 1 :]), ()) for k, c in enumerate(key)
    )
    _NEAR[(honor, key)] = row
    return row


_SUIT_BIT: Final = tuple(1 << (k // 9) if k < 27 else 0 for k in range(34))
"""The 门 of a kind as a bit (万 1, 筒 2, 条 4; honours none)."""
_MIDDLE: Final = tuple(k for k in range(27) if k % 9 not in (0, 8))
"""The 2-8 of the suits (no 十三幺 holds one)."""
_WILD_ROWS: dict[tuple[bool, tuple[int, ...], int], Row] = {}


def _block(honor: bool, key: tuple[int, ...], j: int) -> tuple[int, ...]:
    """The features of a block with ``j`` 混 (``()``: it does not complete)."""
    if j == 0:
        return (HONOR_TABLE if honor else SUIT_TABLE).get(key, ())
    return solve_block(honor, key, j)


def _row(honor: bool, key: tuple[int, ...], j: int) -> Row:
    """The near row of a block with ``j`` 混 (a kind held four times gets ``()``)."""
    if j == 0:
        got = _NEAR.get((honor, key))
        return _near_row(honor, key) if got is None else got
    got = _WILD_ROWS.get((honor, key, j))
    if got is None and j < 8 and not solve_block(honor, key, j + 1):
        # a kind that completes the block could be a 混 as well: none does
        got = _WILD_ROWS[(honor, key, j)] = ((),) * len(key)
    if got is None:
        row: list[tuple[int, ...]] = []
        for k, c in enumerate(key):
            if c >= 4:
                row.append(())
            else:
                row.append(_block(honor, (*key[:k], c + 1, *key[k + 1 :]), j))
        got = _WILD_ROWS[(honor, key, j)] = tuple(row)
    return got


def _shares(wilds: int) -> list[tuple[int, int, int, int]]:
    return [
        (a, b, c, wilds - a - b - c)
        for a in range(wilds + 1)
        for b in range(wilds + 1 - a)
        for c in range(wilds + 1 - a - b)
    ]


_PLANS: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, tuple[int, int, int, int]], ...]] = {}


def _plans(wilds: int, sizes: tuple[int, ...]) -> tuple[tuple[int, tuple[int, int, int, int]], ...]:
    """(block that takes the new tile, 混 per block) for which every block can complete:
    sizes 0 or 2 mod 3 and exactly one pair."""
    out = []
    for b in range(4):
        for js in _shares(wilds):
            r = [(sizes[i] + js[i] + (1 if i == b else 0)) % 3 for i in range(4)]
            if 1 not in r and r.count(2) == 1:
                out.append((b, js))
    return tuple(out)


_PLANS.update(
    ((w, sizes), _plans(w, sizes)) for w in range(5) for sizes in product(range(3), repeat=4)
)
"""Built at import for up to four 混 (a room's four 混 tiles); more (``hun = flip+next``) on
first use."""


def _standard(counts: Sequence[int], wilds: int, mf: int) -> set[int]:
    """The natural kinds that make a standard arrangement meeting conditions 1-2."""
    keys = (
        tuple(counts[0:9]),
        tuple(counts[9:18]),
        tuple(counts[18:27]),
        tuple(counts[27:34]),
    )
    sizes = (sum(keys[0]) % 3, sum(keys[1]) % 3, sum(keys[2]) % 3, sum(keys[3]) % 3)
    plan_key = (wilds, sizes)
    plans = _PLANS.get(plan_key)
    if plans is None:
        plans = _PLANS[plan_key] = _plans(wilds, sizes)
    found: set[int] = set()
    for b, js in plans:
        # the other three blocks as they are, combined once
        rest: set[int] = {mf}
        for o in range(4):
            if o == b:
                continue
            fs = _block(o == 3, keys[o], js[o])
            if not fs:
                break
            rest = {COMBINE[g * FEATURES + f] for g in rest for f in fs}
        else:
            base = 27 if b == 3 else 9 * b
            for k, fx in enumerate(_row(b == 3, keys[b], js[b])):
                if fx and base + k not in found:
                    for g in rest:
                        if any(FINAL[COMBINE[g * FEATURES + f]] >= 0 for f in fx):
                            found.add(base + k)
                            break
    return found


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
    if rules.no_258_pair or not rules.hun_may_make_dragon_pair:
        return waits_by_trial(hand, melds, hun, rules)
    counts = [0] * 34
    wilds = 0
    for t in hand:
        if t in hun:
            wilds += 1
        else:
            counts[t] += 1
    held = _held(hand, melds)
    natural = list(counts)
    for m in melds:
        for t in m.tiles:
            natural[t] += 1
    shape = _standard(counts, wilds, melds_features(melds))
    # conditions 3-4 on natural tiles, the new tile included
    yaojiu = any(natural[k] for k in YAOJIU)
    suits = (1 if any(natural[0:9]) else 0) | (2 if any(natural[9:18]) else 0)
    suits |= 4 if any(natural[18:27]) else 0
    wins = {x for x in shape if (yaojiu or x in YAOJIU) and suits | _SUIT_BIT[x] == 7}
    odd = -1
    if not melds:  # 七对: each odd count needs a 混 (four alike are two pairs)
        odd = sum(1 for c in counts if c & 1)
        if odd - 1 <= wilds:
            for x in range(34):
                if counts[x] < 4 and odd + (-1 if counts[x] & 1 else 1) <= wilds:
                    wins.add(x)
    all_yaojiu = not any(m.kind == "chi" for m in melds) and all(natural[k] == 0 for k in _MIDDLE)
    if all_yaojiu:
        wins |= _shisanyao(counts, wilds, bool(melds), rules)
    wild_wins = False
    if hun and any(held[k] < 4 for k in hun):
        wild_wins = _wild_wins(
            counts, wilds, melds, rules, bool(shape) and yaojiu and suits == 7, odd, all_yaojiu
        )
    out = []
    for x in range(34):
        if held[x] >= 4:
            continue
        if x in hun:
            if wild_wins:
                out.append(Wait(x, False, True))
        elif x in wins:
            out.append(Wait(x, True, True))
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
    """Whether a 混 drawn oneself completes the hand.

    A 混 may take the place of any tile in an arrangement (its features keep 碰/顺子/中发白
    pair), so it wins in the standard form exactly when some kind makes the shape and the
    natural tiles already meet 幺九 and 三门齐; in 七对 when the odd counts are at most the
    混 with it; in 十三幺 when every natural tile is 幺九. The one shape the near rows do not
    hold, a 混 as the fifth copy of a kind held four times, is asked of the win check.
    """
    if standard or 0 <= odd <= wilds + 1:
        return True
    if all_yaojiu and (rules.shisanyao == "all-yaojiu" or not melds):
        if rules.shisanyao == "all-yaojiu":
            return True
        if max(counts) <= 2 and counts.count(2) <= 1:
            return True
    if 4 in counts:
        return can_win(counts, wilds + 1, melds, rules)
    return False


def _shisanyao(counts: Sequence[int], wilds: int, melded: bool, rules: MajiangRules) -> set[int]:
    """The natural kinds that make 十三幺 of a hand whose natural tiles are all 幺九."""
    kinds = set(YAOJIU)
    if rules.shisanyao == "all-yaojiu":
        return kinds
    if melded:
        return set()
    out = set()
    for x in kinds:
        c = list(counts)
        c[x] += 1
        if max(c) <= 2 and c.count(2) <= 1:
            out.add(x)
    return out


def waits_by_trial(
    hand: Sequence[int],
    melds: Sequence[Meld] = (),
    hun: frozenset[int] = frozenset(),
    rules: MajiangRules = _DEFAULT,
) -> list[Wait]:
    """:func:`waits` the plain way: each of the 34 kinds added and the win check asked
    (the reference the fast one is tested against, and the path for the rarer pair rules)."""
    counts = [0] * 34
    wilds = 0
    for t in hand:
        if t in hun:
            wilds += 1
        else:
            counts[t] += 1
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
    ws = waits(concealed, meld_list, hun, rules)
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
    seen: list[int] = [*hand, Tile.parse(view["flip"])]
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
        return {"waits": waits_json(waits(hand, melds, hun, rules), unseen, as_kind=True)}
    if len(hand) == size + 1:
        ready = ready_discards(hand, melds, hun, rules)
        return {
            "discards": [
                {"tile": format_tiles([t]), "waits": waits_json(ws, unseen, as_kind=True)}
                for t, ws in ready.items()
            ]
        }
    return {}
