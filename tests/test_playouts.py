"""Random playouts of every playable variant of the catalogue (OpenSpiel's random_sim_test).

Each family is covered as soon as it is registered in ``paiju.games.FAMILIES``: the harness
checks conservation, zero-sum settlement, replay, hidden views, clean rejections and JSON
round-trips on every action of every hand.
"""

from __future__ import annotations

import pytest

from paiju.catalog import catalog
from paiju.games import FAMILIES, game
from paiju.harness import check_game, playout

PLAYABLE = [v.code for v in catalog() if FAMILIES[v.family].game is not None]
MATCH_SEEDS = {"ningcheng-danzi": 2, "anshan-majiang": 6, "anshan-jiayibing": 6}
"""Fewer seeds where one playout is a long match (打弹子: ~10 deals of 108 cards to 30) or a
hand is long to check (麻将, 甲乙丙: every state resampled from its replay); their own
family tests play more."""


@pytest.mark.parametrize("code", PLAYABLE)
def test_random_playouts_keep_every_invariant(code: str) -> None:
    g = game(code)
    seeds = range(MATCH_SEEDS.get(code, 12))
    failures = check_game(g, seeds)
    assert failures == []


@pytest.mark.parametrize("code", PLAYABLE)
def test_every_seat_count_plays(code: str) -> None:
    g = game(code)
    for seats in range(g.min_seats, g.max_seats + 1):
        result = playout(g, seats, seed=f"seats-{seats}", deep=False)
        assert result.failures == []
        assert result.hands, "no hand was played"
        assert len(result.totals) == seats
        assert sum(result.totals) == 0
