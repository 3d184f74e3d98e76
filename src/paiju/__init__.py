"""paiju (牌局): Chinese regional card and tile games.

The public API; everything here is also reachable from the ``paiju`` command line.

>>> import paiju
>>> paiju.find_variant("2001").name_zh
'52张宝子1'
>>> len(paiju.variants()) >= 43
True
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from paiju.cards import Card, deck, format_cards, parse_cards
from paiju.catalog import Variant, find_variant, variants
from paiju.engine import Action, Deal, Event, Game, Match, Record, State
from paiju.errors import (
    CatalogError,
    FairnessError,
    IllegalAction,
    NotationError,
    NotImplementedFamily,
    NotYourTurn,
    PaijuError,
    ProtocolError,
    UnknownVariant,
)
from paiju.games import game, read_record, replay
from paiju.tiles import Tile, format_tiles, parse_tiles

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Card",
    "CatalogError",
    "Deal",
    "Event",
    "FairnessError",
    "Game",
    "IllegalAction",
    "Match",
    "NotImplementedFamily",
    "NotYourTurn",
    "NotationError",
    "PaijuError",
    "ProtocolError",
    "Record",
    "State",
    "Tile",
    "UnknownVariant",
    "Variant",
    "__version__",
    "arrange",
    "compare",
    "deck",
    "find_variant",
    "format_cards",
    "format_tiles",
    "game",
    "odds",
    "parse_cards",
    "parse_tiles",
    "read_record",
    "replay",
    "showdown",
    "variants",
]


def odds(code: str) -> dict[str, Any]:
    """The exact odds of a game code, as ``paiju odds CODE --json`` prints them."""
    from paiju.games import FAMILIES

    variant = find_variant(code)
    path = FAMILIES[variant.family].odds
    if path is None:
        raise NotImplementedFamily(f"the {variant.family} family has no odds yet")
    result: dict[str, Any] = import_module(path).odds(variant)
    return result


def arrange(code: str, cards: str | list[Card] | tuple[Card, ...]) -> dict[str, Any]:
    """The solver's arrangement of 13 cards under a 十三张 code (``paiju arrange --json``).

    Returns ``{"front", "middle", "back", "special", "alternatives"}``.
    """
    from paiju.games.shisanzhang.solver import arrange as solve

    return solve(code, cards)


def showdown(code: str, hands: list[str], banker: int | None = None) -> dict[str, Any]:
    """Compare and settle 十三张 hands (``paiju showdown --json``).

    A hand is an arrangement ``"f / m / b"`` or 13 cards declaring a special hand.
    """
    from paiju.games.shisanzhang.showdown import showdown as settle

    return settle(code, hands, banker=banker)


def compare(code: str, banker: str, player: str) -> dict[str, Any]:
    """Compare a banker's hand with a player's under a 宝子 or 佳佳宝 code (``paiju compare``)."""
    from paiju.games.baozi.compare import compare_text

    result: dict[str, Any] = compare_text(code, banker, player)
    return result
