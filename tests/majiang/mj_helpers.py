"""Helpers for the 鞍山麻将 tests: hands from text, states from a stacked wall."""

from __future__ import annotations

from collections import Counter
from typing import Any

from paiju.engine import Deal
from paiju.games import game
from paiju.games.majiang.game import MajiangState
from paiju.games.majiang.hu import hu
from paiju.tiles import WALL, parse_tiles


def verdict(hand: str, win: str, flip: str = "3z", **kw: Any) -> dict[str, Any]:
    """``paiju hu``'s answer (flip 西 by default: 混 = 北 4z, 明枪 = 南 2z)."""
    return hu(hand, win=win, flip=flip, **kw)


def stacked(
    hands: list[str],
    *,
    draws: str = "",
    tail: str = "",
    flip: str = "3z",
    dealer: int = 0,
    **options: Any,
) -> MajiangState:
    """A hand dealt as given: ``draws`` are the next wall tiles in order, ``tail`` the kong
    replacements in order; the remaining tiles fill the middle of the wall."""
    g = game("anshan-majiang", **options)
    hand_tiles = [parse_tiles(h) for h in hands]
    front = list(parse_tiles(draws))
    back = list(parse_tiles(tail))
    flip_tile = parse_tiles(flip)
    used = Counter(t for h in hand_tiles for t in h) + Counter(front + back + list(flip_tile))
    rest = list((Counter(WALL) - used).elements())
    assert sum(used.values()) + len(rest) == 136, "a tile is used more than four times"
    wall = tuple(front + rest + back[::-1])
    deal = Deal(tuple(hand_tiles), {"wall": wall, "flip": flip_tile}, {"dealer": dealer})
    state = g.new_state(4, deal=deal)
    assert isinstance(state, MajiangState)
    return state
