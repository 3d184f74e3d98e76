"""Mahjong tiles: notation, parsing, formatting and the 136-tile set.

A :class:`Tile` is an int 0-33: 0-8 = 1-9 万 (m), 9-17 = 1-9 筒 (p), 18-26 = 1-9 条 (s),
27-33 = 东 南 西 北 白 发 中 (1-7z). A wall holds four identical copies of each tile.

Compact text: digits followed by their suit letter, ``123m456p789s1234567z``. On input
spaces are ignored, ``万 筒 条`` stand for ``m p s`` and the honour names 东南西北白发中
(also 红中 / 发财 / 白板) stand alone.

>>> format_tiles(parse_tiles("1m 2m 3m 东 中 5p"))
'123m17z5p'
>>> format_tiles(sorted(parse_tiles("中 东 9万 1万")))
'19m17z'
>>> len(WALL), len(set(WALL))
(136, 34)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Annotated, Final

from pydantic import PlainSerializer, PlainValidator

from paiju.errors import NotationError

__all__ = ["HONOR_NAMES", "TILE_SUITS", "WALL", "Tile", "TileList", "format_tiles", "parse_tiles"]

TILE_SUITS: Final = "mpsz"
HONOR_NAMES: Final = ("东", "南", "西", "北", "白", "发", "中")
_SUIT_ZH: Final = ("万", "筒", "条")
_NUM_ZH: Final = "一二三四五六七八九"
_HONOR_INPUT: Final = {
    **{name: 27 + i for i, name in enumerate(HONOR_NAMES)},
    "红中": 33,
    "发财": 32,
    "白板": 31,
    "東": 27,
    "發": 32,
}
_SUIT_INPUT: Final = {
    "m": 0,
    "p": 1,
    "s": 2,
    "z": 3,
    "万": 0,
    "萬": 0,
    "筒": 1,
    "饼": 1,
    "条": 2,
    "索": 2,
}
_HONOR_LONGEST_FIRST: Final = tuple(sorted(_HONOR_INPUT, key=len, reverse=True))
"""The honour names to try at each position, longest first (红中 before 中)."""
_SEPARATORS = re.compile(r"[\s,，、]+")
_GROUP = re.compile(r"([0-9一二三四五六七八九]+)([mpsz万萬筒饼条索])")
_ACCEPTED = (
    "digits followed by a suit m (万), p (筒), s (条) or z (1-7 = 东南西北白发中), "
    "e.g. '123m456p11z', or an honour name such as 中"
)


class Tile(int):
    """One mahjong tile, an int 0-33.

    >>> t = parse_tiles("8m")[0]
    >>> t.suit, t.number, str(t), t.zh()
    (0, 8, '8m', '八万')
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Tile:
        if not 0 <= index <= 33:
            raise NotationError(f"tile index {index} is out of range 0-33")
        return super().__new__(cls, index)

    @classmethod
    def of(cls, suit: int, number: int) -> Tile:
        """Suit 0-3 (m p s z) and number 1-9 (1-7 for honours)."""
        top = 7 if suit == 3 else 9
        if not (0 <= suit <= 3 and 1 <= number <= top):
            raise NotationError(f"no tile {number}{TILE_SUITS[suit] if 0 <= suit <= 3 else '?'}")
        return cls(suit * 9 + number - 1)

    @property
    def suit(self) -> int:
        return self // 9

    @property
    def number(self) -> int:
        return self % 9 + 1

    @property
    def is_honor(self) -> bool:
        return self >= 27

    @property
    def is_terminal(self) -> bool:
        """1 or 9 of a numbered suit (幺九 counts honours too: see :attr:`is_yaojiu`)."""
        return not self.is_honor and self.number in (1, 9)

    @property
    def is_yaojiu(self) -> bool:
        """幺九: a terminal or an honour."""
        return self.is_honor or self.number in (1, 9)

    def __str__(self) -> str:
        return f"{self.number}{TILE_SUITS[self.suit]}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Tile:
        return self  # immutable: clones of states share their tiles

    @classmethod
    def parse(cls, token: str) -> Tile:
        tiles = parse_tiles(token)
        if len(tiles) != 1:
            raise NotationError(
                f"expected one tile, got {token!r}; a tile is {_ACCEPTED}",
                reason="one_tile_expected",
                token=token,
            )
        return tiles[0]

    def zh(self) -> str:
        if self.is_honor:
            return HONOR_NAMES[self - 27]
        return _NUM_ZH[self.number - 1] + _SUIT_ZH[self.suit]


def _digit(ch: str) -> int:
    return int(ch) if ch.isdigit() else _NUM_ZH.index(ch) + 1


@lru_cache(maxsize=16384)
def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse compact tile text in order (kept for texts seen again: every 麻将 view reads
    its 听牌 help back from its own tile texts).

    >>> parse_tiles("0m")
    Traceback (most recent call last):
    ...
    paiju.errors.NotationError: bad tile '0m': no tile 0m; a tile is digits ...
    """
    s = _SEPARATORS.sub("", text)
    tiles: list[Tile] = []
    pos = 0
    while pos < len(s):
        for name in _HONOR_LONGEST_FIRST:
            if s.startswith(name, pos):
                tiles.append(Tile(_HONOR_INPUT[name]))
                pos += len(name)
                break
        else:
            m = _GROUP.match(s, pos)
            if m is None:
                raise NotationError(
                    f"bad tile text {s[pos:]!r}: a tile is {_ACCEPTED}",
                    reason="bad_tile_text",
                    token=s[pos:],
                )
            suit = _SUIT_INPUT[m[2]]
            for ch in m[1]:
                try:
                    tiles.append(Tile.of(suit, _digit(ch)))
                except NotationError as exc:
                    raise NotationError(
                        f"bad tile {m[0]!r}: {exc}; a tile is {_ACCEPTED}",
                        reason="bad_tile_text",
                        token=m[0],
                    ) from None
            pos = m.end()
    return tuple(tiles)


_SUIT_AND_DIGIT: Final[dict[int, tuple[int, str]]] = {
    i: (Tile(i).suit, str(Tile(i).number)) for i in range(34)
}
"""Each tile's suit and number text: :func:`format_tiles` looks them up per tile."""


def format_tiles(tiles: Iterable[int]) -> str:
    """Compact text in the order given; runs of one suit share their letter."""
    out: list[str] = []
    run_suit: int | None = None
    table = _SUIT_AND_DIGIT
    for t in tiles:
        entry = table.get(t)
        if entry is None:
            tile = Tile(t)  # raises for an index out of range
            entry = (tile.suit, str(tile.number))
        suit, digit = entry
        if run_suit is not None and suit != run_suit:
            out.append(TILE_SUITS[run_suit])
        out.append(digit)
        run_suit = suit
    if run_suit is not None:
        out.append(TILE_SUITS[run_suit])
    return "".join(out)


WALL: Final[tuple[Tile, ...]] = tuple(Tile(i) for i in range(34) for _ in range(4))
"""The 136 tiles (no flowers): four copies of each of the 34 tiles, in order."""


def _validate_tile_list(value: object) -> tuple[Tile, ...]:
    if isinstance(value, str):
        return parse_tiles(value)
    if isinstance(value, list | tuple) and all(isinstance(t, Tile) for t in value):
        return tuple(value)
    raise NotationError(f"expected tiles as text like '123m45p', got {value!r}")


TileList = Annotated[
    tuple[Tile, ...],
    PlainValidator(_validate_tile_list),
    PlainSerializer(format_tiles, return_type=str),
]
"""A tuple of tiles whose JSON form is its compact text."""
