"""The names of a 十三张 row's categories (牌型), weakest first.

Both the rules of a code (:mod:`paiju.games.shisanzhang.spec`, whose point tables are keyed
by them) and the row evaluator (:mod:`paiju.games.shisanzhang.rows`, whose category numbers
index them) read these names; neither imports the other for them.
"""

from __future__ import annotations

__all__ = ["CATEGORY_NAMES"]

CATEGORY_NAMES: tuple[str, ...] = (
    "散牌",
    "对子",
    "两对",
    "三条",
    "顺子",
    "同花",
    "葫芦",
    "炸弹",
    "同花顺",
)
"""Row categories, weakest first (the same names as ``rows.CATEGORIES``)."""
