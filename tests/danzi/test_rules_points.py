"""Round points and the match (N59-N61), each test quoting the text."""

from __future__ import annotations

import pytest

from paiju.errors import IllegalAction
from paiju.games.danzi.scoring import PointRules, deal_breakdown, deal_points, settle


def test_n59_round_points() -> None:
    """N59 "每盘胜负玩家会获得相应的分数": 3/2/1 by where the 头游's partner finished."""
    assert deal_points([0, 2, 1, 3], None) == (3, 0)
    assert deal_points([1, 0, 3, 2], None) == (0, 2)
    assert deal_points([2, 1, 3, 0], None) == (1, 0)
    assert deal_points([3, 0, 2, 1], None, PointRules(points_14=5)) == (0, 5)


def test_n60_declared_deals() -> None:
    """N60 "宣战的玩家必须走第一成为头游 … 宣战方自动成为末游".

    Twice N59 on success; 3 to the declarer's opponents on failure.
    """
    assert deal_points([1, 3, 0, 2], 1) == (0, 6)
    assert deal_points([1, 0, 3, 2], 1) == (0, 4)
    assert deal_points([1, 0, 2, 3], 1) == (0, 2)
    assert deal_points([2, 1, 3, 0], 0) == (0, 3)  # even when the 头游 is the partner
    with pytest.raises(IllegalAction) as err:
        deal_points([1, 0, 2, 3], 0)
    assert err.value.reason == "declarer_not_first_or_last"


def test_n61_match_to_30_or_60() -> None:
    """N61 "一方总分达到30分及以上就可结束一局游戏，并且获得积分" (and 60)."""
    out = settle([0, 2, 1, 3], 0, [27, 10], 30)
    assert out == {"points": [6, 0], "totals": [33, 10], "match_over": True, "winner": 0}
    out = settle([0, 2, 1, 3], 0, [27, 10], 60)
    assert out["match_over"] is False and out["winner"] is None
    assert settle([1, 3, 0, 2], None, [0, 27])["winner"] == 1  # exactly 30 ends it
    with pytest.raises(IllegalAction):
        settle([0, 2, 1, 3], None, [30, 0])
    with pytest.raises(IllegalAction):
        settle([0, 0, 1, 3], None)


def test_n59_n60_the_deal_says_how_its_points_were_counted() -> None:
    """N59 "3/2/1 by the 头游's partner" and N60 "宣战 … 加倍 / 末游": the breakdown names
    the 头游, the partner's place, its points, the 宣战 multiplier, or the failed 宣战."""
    plain = deal_breakdown([1, 0, 3, 2], None)
    assert plain == {
        "team": 1,
        "points": 2,
        "failed": False,
        "declarer": None,
        "head": 1,
        "partner_place": 3,
        "place_points": 2,
        "multiplier": 1,
    }
    declared = deal_breakdown([1, 3, 0, 2], 1)
    assert declared["points"] == 6 == declared["place_points"] * declared["multiplier"]
    assert declared["partner_place"] == 2
    failed = deal_breakdown([2, 1, 3, 0], 0)
    assert failed == {"team": 1, "points": 3, "failed": True, "declarer": 0}
    for order, declarer in (([0, 2, 1, 3], None), ([3, 0, 2, 1], 3), ([1, 2, 0, 3], 3)):
        b = deal_breakdown(order, declarer)
        points = deal_points(order, declarer)
        assert points[b["team"]] == b["points"] and points[1 - b["team"]] == 0
