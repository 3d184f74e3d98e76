"""鞍山麻将 rule switches and the tile cycles that name the 混 (wild) and the 枪.

Tiles are :class:`paiju.tiles.Tile` ints: 0-8 万, 9-17 筒, 18-26 条, 27-30 东南西北,
31 白, 32 发, 33 中. The kind after a tile (:func:`succ`) runs 1 → 9 → 1 inside a suit,
东 → 南 → 西 → 北 → 东, and 中 → 发 → 白 → 中 (the text's own order 「中发白」).

>>> from paiju.tiles import Tile
>>> [str(Tile(succ(Tile.parse(t)))) for t in ("8m", "9m", "4z", "7z", "5z")]
['9m', '1m', '1z', '6z', '7z']
>>> [str(Tile(pred(Tile.parse(t)))) for t in ("8m", "1m", "1z", "5z")]
['7m', '9m', '4z', '6z']
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from paiju.errors import IllegalAction

__all__ = [
    "DRAGONS",
    "OPTION_CHOICES",
    "YAOJIU",
    "MajiangRules",
    "hun_kinds",
    "kind_counts",
    "pred",
    "succ",
]

WHITE, GREEN, RED = 31, 32, 33
DRAGONS = frozenset({WHITE, GREEN, RED})
"""中发白 (三元牌)."""
YAOJIU = frozenset([k for s in range(3) for k in (9 * s, 9 * s + 8)] + list(range(27, 34)))
"""幺九: the 1 and 9 of each suit and the seven honours."""

_DRAGON_NEXT = {RED: GREEN, GREEN: WHITE, WHITE: RED}
_DRAGON_PREV = {v: k for k, v in _DRAGON_NEXT.items()}


def succ(kind: int) -> int:
    """The kind after ``kind`` (混 = succ(flip)): 9 → 1 in a suit, winds and dragons cycle."""
    if kind < 27:
        return kind - 8 if kind % 9 == 8 else kind + 1
    if kind < 31:
        return 27 if kind == 30 else kind + 1
    return _DRAGON_NEXT[kind]


def pred(kind: int) -> int:
    """The kind before ``kind`` (上滚: 明枪 = pred(flip)), the inverse of :func:`succ`."""
    if kind < 27:
        return kind + 8 if kind % 9 == 0 else kind - 1
    if kind < 31:
        return 30 if kind == 27 else kind - 1
    return _DRAGON_PREV[kind]


OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "qiang": ("ming", "an"),
    "hun": ("next", "flip+next"),
    "dealer_rotation": ("winner", "next"),
    "multiple_winners": (False, True),
    "zhuang": ("both", "winner-only"),
    "qionghu": ("no-hun-held", "no-wild-use"),
    "shisanyao": ("all-yaojiu", "thirteen-orphans"),
    "hun_may_make_dragon_pair": (True, False),
    "no_258_pair": (False, True),
}
"""Room options (§6 of the reading), default first."""


@dataclass(frozen=True)
class MajiangRules:
    """The rule switches of a room (defaults are the reading's).

    * ``qiang`` - 明枪 (the kind before the flip, seen from the start) or 暗枪 (the tile
      after the win and the kind after it);
    * ``hun`` - only the kind after the flip is 混 (``next``), or the flip kind too (本溪);
    * ``dealer_rotation`` - the winner deals next (``winner``) or the deal passes to the
      dealer's 下家 when another seat wins (``next``); after 流局 the dealer stays;
    * ``multiple_winners`` - 一炮多响: every seat that claims 胡 on a discard wins;
    * ``zhuang`` - 庄 adds a fan to every payment between dealer and winner (``both``) or
      only when the dealer wins;
    * ``qionghu`` - 穷胡 = no 混 held at all, or no 混 used as a wild;
    * ``shisanyao`` - 十三幺 = every tile 幺九, or the classic thirteen orphans;
    * ``hun_may_make_dragon_pair`` - 中 + 混 and 混混 may be the 中发白 pair of condition 1;
    * ``no_258_pair`` - the 本溪 rule: a 2, 5 or 8 may not be the pair.
    """

    qiang: Literal["ming", "an"] = "ming"
    hun: Literal["next", "flip+next"] = "next"
    dealer_rotation: Literal["winner", "next"] = "winner"
    multiple_winners: bool = False
    zhuang: Literal["both", "winner-only"] = "both"
    qionghu: Literal["no-hun-held", "no-wild-use"] = "no-hun-held"
    shisanyao: Literal["all-yaojiu", "thirteen-orphans"] = "all-yaojiu"
    hun_may_make_dragon_pair: bool = True
    no_258_pair: bool = False

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> MajiangRules:
        """Check room options against :data:`OPTION_CHOICES`; IllegalAction names a bad one."""
        unknown = sorted(set(options) - set(OPTION_CHOICES))
        if unknown:
            raise IllegalAction(
                f"anshan-majiang: unknown room option {', '.join(unknown)}; "
                f"options are {', '.join(OPTION_CHOICES)}",
                reason="unknown_option",
                options=unknown,
            )
        for name, value in options.items():
            choices = OPTION_CHOICES[name]
            if value not in choices or type(value) is not type(choices[0]):
                raise IllegalAction(
                    f"room option {name} must be one of "
                    f"{', '.join(repr(c) for c in choices)}, got {value!r}",
                    reason="bad_option",
                    option=name,
                    value=str(value),
                )
        return cls(**options)

    def as_options(self) -> dict[str, Any]:
        """Every switch by name (the room options with their defaults filled in)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def kind_counts(tiles: Iterable[int], hun: Collection[int]) -> tuple[list[int], int]:
    """How many of each of the 34 kinds ``tiles`` hold, and how many 混 (the ``hun`` kinds:
    wild, so counted apart and not by kind)."""
    counts = [0] * 34
    wilds = 0
    for t in tiles:
        if t in hun:
            wilds += 1
        else:
            counts[t] += 1
    return counts, wilds


def hun_kinds(flip: int, rules: MajiangRules) -> frozenset[int]:
    """The 混 kinds named by the flip: succ(flip), and the flip kind too under ``flip+next``."""
    if rules.hun == "flip+next":
        return frozenset({flip, succ(flip)})
    return frozenset({succ(flip)})
