"""Round points (每盘分数) and the match to 30 or 60 (N59-N62) of 宁城打弹子.

Teams: team 0 is seats 0 and 2, team 1 seats 1 and 3 (partners opposite, N2).

* No declaration: the 头游's side scores by where the 头游's partner finished: 二游 3,
  三游 2, 末游 1 (N59); the other side 0.
* A successful 宣战 (the declarer is 头游): twice that (N60).
* A failed one (the declarer is 末游): the declarer's opponents score 3, whoever was 头游.
* The match ends when a side's total reaches the target (30 or 60) or more (N61).

>>> deal_points([0, 2, 1, 3], None)
(3, 0)
>>> deal_points([0, 2, 1, 3], declarer=0)
(6, 0)
>>> deal_points([2, 1, 3, 0], declarer=0)
(0, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paiju.errors import IllegalAction

__all__ = ["PointRules", "deal_breakdown", "deal_points", "settle", "team_of"]


def team_of(seat: int) -> int:
    """Team 0 = seats 0 and 2, team 1 = seats 1 and 3."""
    return seat % 2


@dataclass(frozen=True)
class PointRules:
    """The §14 point options: 3/2/1 by the partner's place, ×2 declared, 3 for a failure."""

    points_12: int = 3
    points_13: int = 2
    points_14: int = 1
    declare_multiplier: int = 2
    declare_fail_points: int = 3


def check_finish_order(order: Sequence[int]) -> None:
    """Raise IllegalAction unless ``order`` is a permutation of the four seats."""
    if sorted(order) != [0, 1, 2, 3] or not all(type(s) is int for s in order):
        raise IllegalAction(
            f"finish_order must name seats 0-3 once each, got {list(order)}",
            reason="bad_finish_order",
        )


def deal_points(
    finish_order: Sequence[int], declarer: int | None, rules: PointRules | None = None
) -> tuple[int, int]:
    """The two teams' points of one deal from its finishing order (头游 … 末游)."""
    rules = rules or PointRules()
    check_finish_order(finish_order)
    points = [0, 0]
    if declarer is not None:
        if declarer not in range(4):
            raise IllegalAction(f"no seat {declarer}", reason="bad_seat", seat=declarer)
        if finish_order[3] == declarer:
            points[1 - team_of(declarer)] = rules.declare_fail_points
            return (points[0], points[1])
        if finish_order[0] != declarer:
            raise IllegalAction(
                f"the declarer (seat {declarer}) is either 头游 (success) or 末游 (failure),"
                f" not place {list(finish_order).index(declarer) + 1}",
                reason="declarer_not_first_or_last",
                seat=declarer,
            )
    head = finish_order[0]
    partner_place = list(finish_order).index((head + 2) % 4)
    base = (0, rules.points_12, rules.points_13, rules.points_14)[partner_place]
    points[team_of(head)] = base * (rules.declare_multiplier if declarer is not None else 1)
    return (points[0], points[1])


def deal_breakdown(
    finish_order: Sequence[int], declarer: int | None, rules: PointRules | None = None
) -> dict[str, Any]:
    """How :func:`deal_points` counted a deal, for the table to say it: the ``team`` that
    scored, its ``points``; ``head`` (头游) and ``partner_place`` (1-based place of the 头游's
    partner) with ``place_points`` (N59's 3/2/1) and ``multiplier`` (N60: 2 for a successful
    宣战, else 1); or, for a failed 宣战 (N60), ``failed`` with the ``declarer``.

    >>> deal_breakdown([0, 2, 1, 3], declarer=0)["multiplier"]
    2
    >>> deal_breakdown([2, 1, 3, 0], declarer=0)["failed"]
    True
    """
    rules = rules or PointRules()
    points = deal_points(finish_order, declarer, rules)
    team = 0 if points[0] else 1
    if declarer is not None and finish_order[3] == declarer:
        return {"team": team, "points": points[team], "failed": True, "declarer": declarer}
    head = finish_order[0]
    partner_place = list(finish_order).index((head + 2) % 4) + 1
    place_points = (0, 0, rules.points_12, rules.points_13, rules.points_14)[partner_place]
    return {
        "team": team_of(head),
        "points": points[team_of(head)],
        "failed": False,
        "declarer": declarer,
        "head": head,
        "partner_place": partner_place,
        "place_points": place_points,
        "multiplier": rules.declare_multiplier if declarer is not None else 1,
    }


def settle(
    finish_order: Sequence[int],
    declarer: int | None,
    totals: Sequence[int] = (0, 0),
    target: int = 30,
    rules: PointRules | None = None,
) -> dict[str, Any]:
    """The §15 ``settle`` answer: the deal's points, the new totals, and the match."""
    if len(totals) != 2 or not all(type(t) is int and t >= 0 for t in totals):
        raise IllegalAction(f"totals are two team scores, got {list(totals)}", reason="bad_totals")
    if max(totals) >= target:
        raise IllegalAction(
            f"totals {list(totals)} already reach the target {target}: the match is over",
            reason="match_already_over",
        )
    points = deal_points(finish_order, declarer, rules)
    new = [totals[0] + points[0], totals[1] + points[1]]
    winner = next((t for t in (0, 1) if new[t] >= target), None)
    return {
        "points": list(points),
        "totals": new,
        "match_over": winner is not None,
        "winner": winner,
    }
