"""The actions of a 麻将 seat: 打牌, 杠, 胡, and the claims of a window (吃 碰 杠 过).

The engine (:mod:`paiju.games.majiang.game`) plays them and re-exports them; the sampler
(:mod:`paiju.games.majiang.sample`) reads them in a hand's history without the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from pydantic import PlainSerializer, PlainValidator

from paiju.engine import Action
from paiju.errors import NotationError
from paiju.tiles import Tile, TileList

__all__ = ["Chi", "Discard", "Gang", "Kong", "OneTile", "Pass", "Peng", "Win"]


def _one_tile(value: object) -> Tile:
    if isinstance(value, Tile):
        return value
    if isinstance(value, str):
        return Tile.parse(value)
    raise NotationError(f"expected a tile as text like '5m', got {value!r}")


OneTile = Annotated[Tile, PlainValidator(_one_tile), PlainSerializer(str, return_type=str)]
"""A tile whose JSON form is its text (``"5m"``)."""


@dataclass(frozen=True)
class Discard(Action):
    """打牌: discard ``tile`` from the hand."""

    type: ClassVar[str] = "discard"
    tile: OneTile


@dataclass(frozen=True)
class Kong(Action):
    """暗杠 (four in hand) or 补杠 (the fourth added to one's 碰) of ``tile``, on one's turn."""

    type: ClassVar[str] = "kong"
    tile: OneTile


@dataclass(frozen=True)
class Win(Action):
    """胡: 自摸 on one's turn, or on the discard (点炮) or the added kong tile (抢杠)."""

    type: ClassVar[str] = "win"


@dataclass(frozen=True)
class Chi(Action):
    """吃: the 下家 takes the discard into ``chow`` (three in a row, the discard among them)."""

    type: ClassVar[str] = "chi"
    chow: TileList


@dataclass(frozen=True)
class Peng(Action):
    """碰: take the discard with two of it from the hand."""

    type: ClassVar[str] = "peng"


@dataclass(frozen=True)
class Gang(Action):
    """明杠: take the discard with three of it from the hand, then draw a replacement."""

    type: ClassVar[str] = "gang"


@dataclass(frozen=True)
class Pass(Action):
    """过: let the discard (or the kong tile) go."""

    type: ClassVar[str] = "pass"
