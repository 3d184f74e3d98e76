"""The harness's fast paths read exactly what the plain reading reads.

The hidden-card check walks every view of every state: ``_collect`` (the fast walk) must
find the texts ``_strings`` (the plain walk) yields, in order, and the per-text cache must
name the cards or tiles that parsing each text anew names. ``format_tiles``' lookup table
must write what :class:`Tile` writes.
"""

from __future__ import annotations

import contextlib
from collections import Counter, OrderedDict
from enum import StrEnum
from typing import Any

import pytest

from paiju.cards import parse_cards
from paiju.errors import NotationError
from paiju.games import game, make_bot
from paiju.harness import _collect, _leaks, _named, _named_shared, _Shared, _strings, view_items
from paiju.tiles import WALL, Tile, format_tiles, parse_tiles


class _Suit(StrEnum):
    SPADES = "As Ks"


def _plain_items(view: Any, kind: str) -> Counter[int]:
    """The harness's reading before the fast paths: parse every text anew."""
    found: Counter[int] = Counter()
    for text in _strings(view):
        if kind == "tiles":
            with contextlib.suppress(NotationError):
                found.update(parse_tiles(text))
            continue
        for token in text.replace("/", " ").split():
            with contextlib.suppress(NotationError):
                found.update(parse_cards(token))
    return found


ODD_VIEWS: list[Any] = [
    {"hand": "As Kd / Qh", "rows": [["2c 3c"], {"4d": "x"}], "label": "pass 10 AK"},
    {1: "As", False: "Kd", None: "Qh", 2.5: ("Jc", ["Tc", None, 3, 1.5, False])},
    OrderedDict([("Ah", "2d"), ("x", OrderedDict([("3s", "4s")]))]),
    {"enum": _Suit.SPADES, _Suit.SPADES: [_Suit.SPADES]},
    ("123m 5z", ["东 中", "not tiles", "红中 1m"], {"9s": "7z"}),
    "",
    [],
    {},
    12,
]


@pytest.mark.parametrize("view", ODD_VIEWS)
def test_the_fast_walk_finds_the_plain_walks_texts(view: Any) -> None:
    texts: list[str] = []
    _collect(view, texts)
    assert texts == list(_strings(view))
    for kind in ("cards", "tiles"):
        assert view_items(view, kind) == _plain_items(view, kind)
        assert list(_named(view, kind)) == list(_plain_items(view, kind))
        assert list(_named_shared(view, _Shared(kind))) == list(_named(view, kind))


@pytest.mark.parametrize("code", ["anshan-majiang", "anshan-jiayibing", "sandaha", "1301"])
def test_real_views_read_the_same_both_ways(code: str) -> None:
    g = game(code)
    state = g.new_state(g.seat_count(None), seed="fast-paths")
    bot_moves = 0
    bots = [make_bot(g, s) for s in range(state.seats)]
    while not state.is_over and bot_moves < 30:
        observers = (*range(state.seats), None)
        shared = _Shared(g.items)
        for seat, together in zip(observers, state.views(observers), strict=True):
            view = state.view(seat)
            assert view_items(view, g.items) == _plain_items(view, g.items)
            assert _leaks(state, seat, view) == _leaks(state, seat, view, Counter(g.full_set()))
            assert list(_named_shared(together, shared)) == list(_named(view, g.items))
        seat = sorted(state.to_act())[0]
        state.apply(seat, bots[seat].act(state, seat))
        bot_moves += 1
    assert bot_moves > 0


def test_format_tiles_table_writes_what_tile_writes() -> None:
    for t in range(34):
        assert format_tiles([t]) == f"{Tile(t).number}{'mpsz'[Tile(t).suit]}"
    assert format_tiles(WALL) == "".join(
        "".join(str(n) * 4 for n in range(1, 10 if s < 3 else 8)) + "mpsz"[s] for s in range(4)
    )
    assert parse_tiles(format_tiles(WALL)) == WALL
    for bad in (-1, 34):
        with pytest.raises(NotationError):
            format_tiles([bad])


def test_honour_names_match_longest_first() -> None:
    assert parse_tiles("红中发财白板中") == (Tile(33), Tile(32), Tile(31), Tile(33))
