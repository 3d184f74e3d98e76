"""三打哈 (Sandaha, three against one): bidding, kitty, tractors and throws, a bot, a table.

The family's pieces: :mod:`.spec` (variant params, cheap to import: the catalogue loads it),
:mod:`.rules` (card order and combinations), :mod:`.game` (the Game protocol),
:mod:`.bot` and :mod:`.terminal`. The names below are imported on first use, so loading the
catalogue does not build the rule tables.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = [
    "Bid",
    "Bury",
    "NameTrump",
    "Pass",
    "Play",
    "SandahaBot",
    "SandahaGame",
    "SandahaParams",
    "SandahaState",
    "decompose",
    "order",
    "settle",
    "trick_winner",
]

_HOME = {
    "SandahaParams": "spec",
    "decompose": "rules",
    "order": "rules",
    "trick_winner": "rules",
    "SandahaBot": "bot",
}


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOME.get(name, 'game')}"), name)
