"""``paiju compare CODE BANKER PLAYER``: one banker hand against one player hand.

宝子: each side is two cards (``"As Kd"``). 佳佳宝: each side is two groups
(``"As Kd / 5c 5h"``, either order: the stronger group is the back, 后); for a code with
the fixed grouping rule (2104) the four cards may be given without ``/`` and must, when
split, follow the rule. The two sides must not share a card.

>>> compare_text("2008", "Kd 6h", "As 8c")["winner"]
'player'
>>> compare_text("2004", "Kd Kh", "3c 3s")["winner"]  # 对K = 对3, 同点庄家大
'banker'
"""

from __future__ import annotations

from typing import Any

from paiju.cards import Card, format_cards, parse_cards
from paiju.catalog import find_variant
from paiju.errors import IllegalAction
from paiju.games.baozi.game import group_winner
from paiju.games.baozi.groups import Groups, fixed_grouping, groups_text, order_groups
from paiju.games.baozi.rules import Evaluator, evaluator, symbol
from paiju.games.baozi.spec import JiajiabaoParams, params_of

__all__ = ["compare_text"]


def _groups(ev: Evaluator, fixed: bool, text: str, side: str) -> Groups:
    parts = text.split("/")
    if len(parts) == 1:
        cards = parse_cards(text)
        if len(cards) == 4 and fixed:
            return fixed_grouping(ev, cards)
        raise IllegalAction(
            f"the {side}'s hand {text!r}: give two groups of two cards, like 'As Kd / 5c 5h'"
        )
    if len(parts) != 2:
        raise IllegalAction(f"the {side}'s hand {text!r}: exactly two groups, one '/' between")
    first, second = parse_cards(parts[0]), parse_cards(parts[1])
    if len(first) != 2 or len(second) != 2:
        raise IllegalAction(f"the {side}'s hand {text!r}: each group is two cards")
    ev.read(first), ev.read(second)  # the cards belong to the deck, no card twice
    groups = order_groups(ev, first, second)
    if fixed:
        rule = fixed_grouping(ev, first + second)
        if _ranks_of(groups) != _ranks_of(rule):
            raise IllegalAction(
                f"the {side}'s groups {text!r} break the fixed grouping rule "
                f"(有对则组队, 大牌领头): they must be {groups_text(rule)}"
            )
    return groups


def _ranks_of(groups: Groups) -> frozenset[tuple[str, ...]]:
    """The two groups as ranks only: a grouping that equals the fixed one up to cards of
    equal rank (7s 7h / 7c 2d for 7s 2d / 7h 7c) is that grouping."""
    return frozenset(tuple(sorted(symbol(c) for c in g)) for g in groups)


def _distinct(banker: tuple[Card, ...], player: tuple[Card, ...]) -> None:
    shared = sorted(set(banker) & set(player))
    if shared:
        raise IllegalAction(
            f"{format_cards(shared)} cannot be in both hands: the deck has one of each card"
        )


def compare_text(code: str, banker: str, player: str) -> dict[str, Any]:
    """The winner and how each hand was read (see the module docs)."""
    variant = find_variant(code)
    if variant.family not in ("baozi", "jiajiabao"):
        raise IllegalAction(f"{variant.code} is not a 宝子 or 佳佳宝 code")
    ev = evaluator(variant)
    if variant.family == "baozi":
        b, p = ev.read(parse_cards(banker)), ev.read(parse_cards(player))
        _distinct(b.cards, p.cards)
        return {"winner": ev.outcome(b, p), "banker": b.to_json(), "player": p.to_json()}
    params = params_of(variant)
    assert isinstance(params, JiajiabaoParams)
    fixed = params.grouping == "fixed"
    bg = _groups(ev, fixed, banker, "banker")
    pg = _groups(ev, fixed, player, "player")
    _distinct(bg[0] + bg[1], pg[0] + pg[1])
    per = (ev.compare(bg[0], pg[0]), ev.compare(bg[1], pg[1]))

    def side(groups: Groups) -> dict[str, Any]:
        return {
            "groups": groups_text(groups),
            "front": ev.read(groups[0]).to_json(),
            "back": ev.read(groups[1]).to_json(),
        }

    return {
        "winner": group_winner(per),
        "banker": side(bg),
        "player": side(pg),
        "groups": {"front": per[0], "back": per[1]},
    }
