"""Player-facing texts of the 鞍山麻将 refusals, by ``IllegalAction.reason``, in Chinese and
English (clients render ``reason`` with its ``params``; the terminal table uses these).

>>> render("tile_not_held", {"tile": "5m"})
'你没有 5m 这张牌 / you do not hold 5m'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["REASONS", "render"]

REASONS: dict[str, tuple[str, str]] = {
    "tile_not_held": ("你没有 {tile} 这张牌", "you do not hold {tile}"),
    "kong_not_allowed": (
        "现在不能杠 {tile}(暗杠要四张,补杠要有碰;吃碰后先出牌;牌墙空了不能杠)",
        "you cannot kong {tile} now",
    ),
    "not_a_win": ("不能胡:{why}", "not a win: {why}"),
    "no_claim_window": ("现在没有可以吃碰杠胡的牌", "there is no discard to claim now"),
    "claim_not_allowed": ("对 {tile} 现在不能这样做", "you cannot do that on {tile} now"),
    "decision_missing": (
        "记录里缺少 {seats} 号座位对 {tile} 的决定",
        "the record lacks the decision of seat {seats} on {tile}",
    ),
    "unknown_option": ("没有这个房间选项:{options}", "unknown room option: {options}"),
    "bad_option": ("房间选项 {option} 不能是 {value}", "room option {option} cannot be {value}"),
    "bad_context": ("上一局的信息有误:{field}", "bad carried context: {field}"),
}


def render(reason: str, params: Mapping[str, Any]) -> str:
    """``中文 / English`` for a refusal reason (the reason itself when it is unknown)."""
    texts = REASONS.get(reason)
    if texts is None:
        return reason
    zh, en = texts
    try:
        return f"{zh.format(**params)} / {en.format(**params)}"
    except (KeyError, IndexError):
        return f"{zh} / {en}"
