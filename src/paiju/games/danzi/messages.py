"""Player-facing texts of 宁城打弹子 in Chinese and English, by reason code.

:class:`~paiju.errors.IllegalAction` carries a ``reason`` and JSON ``params``; a surface
renders them with :func:`render` in the player's language. The climbing core's play
refusals (``not_held``, ``wrong_kind``, ``not_higher``) are here, and the reasons of
:func:`paiju.games.danzi.combos.beats` (:data:`BEATS`, the ``why`` of ``does_not_beat``).

>>> render("does_not_beat", {"why": "equal", "table": "5s"}, "zh")
'管不上桌面的 5s：一样大'
>>> render("four_in_tribute", {"cards": "4s"}, "en")
'4s: a 4 is never tribute'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

__all__ = ["BEATS", "REASONS", "render"]

REASONS: Final[dict[str, tuple[str, str]]] = {
    "empty_play": ("请选择要出的牌", "choose the cards to play"),
    "not_a_combination": ("{cards} 不成牌型", "{cards} is no combination"),
    "cards_not_in_hand": ("{cards} 不在手中", "{cards} is not in your hand"),
    "does_not_beat": ("管不上桌面的 {table}：{why}", "does not beat {table} on the table: {why}"),
    "must_lead": ("该你出牌，不能不要", "you lead: you cannot pass"),
    "not_held": ("{cards} 不在手中", "you do not hold {cards}"),
    "wrong_kind": ("{kind} 管不了桌面的 {table_kind}", "a {kind} does not beat the {table_kind}"),
    "not_higher": ("{cards} 不比桌面的 {table} 大", "{cards} is not higher than {table}"),
    "bad_deal": ("这副牌没有大王", "the deal holds no 大王"),
    "wrong_phase": ("现在不能这样做", "not now"),
    "tribute_wrong_count": ("要进贡 {count} 张", "the tribute is {count} cards"),
    "tribute_not_biggest": (
        "须进贡最大的牌（{ranks}）：手中有王、3 或 2，不能骚贡",
        "the tribute must be the biggest cards ({ranks}): with a joker, 3 or 2 no free choice",
    ),
    "tribute_too_few_cards": ("手中除 4 外的牌不够进贡", "too few cards other than 4s"),
    "four_in_tribute": ("{cards}：4 不能进贡", "{cards}: a 4 is never tribute"),
    "return_wrong_count": ("要还贡 {count} 张", "return {count} cards"),
    "return_same_value": (
        "{cards} 与贡牌数值相同，不能还贡（大小王算同一数值）",
        "{cards} has the value of a tribute card (both jokers count as one value)",
    ),
    "four_in_return": ("{cards}：4 不能还贡", "{cards}: a 4 is never returned"),
    "return_others_first": (
        "手中与贡牌数值不同的牌只有 {free} 张：须全部还出，只可补 {short} 张与贡牌同值的牌",
        "only {free} cards of other values than the tribute: return them all, and only"
        " {short} of a tribute card's value",
    ),
    "pick_wrong_count": ("请挑选 {count} 张", "pick {count} cards"),
    "pick_not_shown": ("{cards} 不在明牌中", "{cards} is not among the shown cards"),
    "pick_one_lot": ("请挑选同一家的两张", "pick one giver's two cards"),
    "bad_rank_text": (
        "「{token}」看不懂：按点数写（33、10 10、大王）或写成牌（3s）",
        "'{token}': name cards by rank (33, 10 10) or as cards (3s)",
    ),
    "no_more_of_rank": ("你没有更多的 {rank} 了", "you hold no more {rank}"),
    "pick_from_partner": (
        "{cards} 会在一伙之间进贡（本房间不允许），请挑对方的牌",
        "{cards} would pass between partners (not in this room): pick the other side's cards",
    ),
    "unknown_option": ("未知的房间选项 {options}", "unknown room options {options}"),
    "bad_option": ("房间选项 {option} 的值不对", "bad value for room option {option}"),
    "bad_finish_order": ("名次须是 0-3 四个座位各一次", "the order names seats 0-3 once each"),
    "bad_seat": ("没有座位 {seat}", "there is no seat {seat}"),
    "bad_totals": ("总分须是两方的分数", "totals are the two sides' scores"),
    "declarer_not_first_or_last": (
        "宣战方只能是头游（成功）或末游（失败）",
        "the declarer is 头游 (success) or 末游 (failure)",
    ),
    "match_already_over": ("这一局已经结束", "the match is already over"),
}
"""Reason code -> (Chinese, English) templates with the params in braces."""

BEATS: Final[dict[str, tuple[str, str]]] = {
    "take": ("取牌", "a take with 4s"),
    "higher": ("更大", "higher"),
    "higher_bomb": ("更大的牌型", "a higher bomb kind"),
    "bomb_over_plain": ("炸弹管普通牌", "a bomb over a plain play"),
    "equal": ("一样大", "equal"),
    "lower": ("更小", "lower"),
    "lower_bomb": ("牌型更小", "a lower bomb kind"),
    "different_kind": ("牌型不同", "a different kind"),
    "different_length": ("张数不同", "a different length"),
    "plain_not_over_bomb": ("普通牌管不了炸弹", "a plain play never beats a bomb"),
    "zhazi3_not_over_joker": ("3个砟子不可管单王", "a 3-card 砟子 does not beat a single joker"),
    "zhazi3_not_over_shuanglong": ("3个砟子不可管双龙", "a 3-card 砟子 does not beat a 双龙"),
    "not_a_combination": ("不成牌型", "no combination"),
}
"""The reasons of :func:`~paiju.games.danzi.combos.beats` -> (Chinese, English)."""


def render(reason: str, params: Mapping[str, Any], lang: str = "zh") -> str:
    """The player's sentence for a refusal (``lang`` ``zh`` or ``en``)."""
    k = 0 if lang == "zh" else 1
    values = {name: str(value) for name, value in params.items()}
    if "why" in values and values["why"] in BEATS:
        values["why"] = BEATS[values["why"]][k]
    template = REASONS.get(reason, (reason, reason))[k]
    try:
        return template.format(**values)
    except KeyError:
        return template
