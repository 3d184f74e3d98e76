"""Player-facing texts of the climbing family's refusals, by ``IllegalAction.reason``, in
Chinese and English (clients render ``reason`` with its ``params``; the terminal uses these).

>>> render("not_higher", {"cards": "7s", "table": "8h", "kind": "单张", "table_kind": "单张"})
'7s 管不上 8h:要出更大的单张 / 7s does not beat 8h: play a higher 单张'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["REASONS", "render"]

REASONS: dict[str, tuple[str, str]] = {
    "not_held": ("你手里没有 {cards}", "you do not hold {cards}"),
    "empty_play": ("请选牌出牌,或者过", "choose cards to play, or pass"),
    "not_a_combination": (
        "{cards} 不是合法牌型(单张、对、三同张、四同张,同一点数)",
        "{cards} is not a combination (single, pair, triple or quad of one rank)",
    ),
    "wrong_kind": (
        "{cards} 管不上 {table}:{table_kind}只能用更大的{table_kind}管",
        "{cards} does not beat {table}: a {table_kind} is beaten only by a higher {table_kind}",
    ),
    "not_higher": (
        "{cards} 管不上 {table}:要出更大的{table_kind}",
        "{cards} does not beat {table}: play a higher {table_kind}",
    ),
    "must_lead": ("该你首出,不能过", "you lead: play any combination, you cannot pass"),
    "must_beat": ("你有管得上的牌,必须出(有牌必管)", "you can beat the table and must play"),
    "wrong_phase": ("现在不能这样做({phase})", "not now (phase {phase})"),
    "not_callable": (
        "不能叫这张牌:只能叫 4 到 {max} 之间的牌(3、2、大小王比 A 大)",
        "not callable: call a card from 4 up to {max} (3, 2 and jokers rank above A)",
    ),
    "bad_option": ("房间选项 {option} 不对", "bad room option {option}"),
    "unknown_action": ("这个游戏没有这个动作", "this game has no such action"),
    "not_your_turn": ("还没轮到你", "it is not your turn"),
    # the questions of the command line (paiju combo/beats/call/settle/jiefeng)
    "bad_field": ("输入的字段不对", "a field of the input is not valid"),
    "bad_input": ("输入不对", "the input is not valid"),
    "missing_field": ("缺少字段 {field}", "missing field {field}"),
    "repeated_seat": ("有座位重复出现", "a seat appears twice"),
    "deal_not_over": ("这一局还没打完", "the deal is not over yet"),
    "deal_over": ("这一局已经打完了", "the deal is over"),
    "finisher_holding": ("出完牌的玩家手里不能还有牌", "the player who went out cannot hold cards"),
    "unsupported": ("这个游戏没有这个问题", "this game has no such question"),
    "not_climbing": ("这不是出牌类游戏", "this is not a climbing (出牌) game"),
}


def render(reason: str | None, params: Mapping[str, Any], fallback: str = "") -> str:
    """``中文 / English`` for a refusal reason (``fallback`` when it is unknown)."""
    texts = REASONS.get(reason or "")
    if texts is None:
        return fallback or str(reason)
    zh, en = texts
    try:
        return f"{zh.format(**params)} / {en.format(**params)}"
    except (KeyError, IndexError):
        return f"{zh} / {en}"
