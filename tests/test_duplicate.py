"""Duplicate play (复式赛): the rotation of entrants over the sides of a deal, the rounds
that keep a person at one table at a time, and the scores against the same deal from the
same side.

The issue's words: "every table plays the same seeded deals with seats rotated so that each
entrant (or team ...) meets each deal from comparable seats; a result is scored against the
others who played the same deal from the same seat, so the luck of the deal cancels."
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.duplicate import compare, interval, lineups, rounds, sides, standings
from paiju.errors import PaijuError
from paiju.games import game


@given(st.integers(1, 6), st.integers(0, 6))
def test_every_entrant_takes_every_side_once_and_no_table_holds_one_twice(
    n_sides: int, extra: int
) -> None:
    n = n_sides + extra
    tables = lineups(n_sides, n)
    assert len(tables) == n
    for table in tables:
        assert len(set(table)) == n_sides, "no entrant twice at one table"
    for side in range(n_sides):
        assert sorted(t[side] for t in tables) == list(range(n)), (
            "on each side every entrant once: each is compared with all the others"
        )


def test_fewer_entrants_than_sides_is_refused_with_the_way_out() -> None:
    with pytest.raises(PaijuError, match="at least 4 entrants"):
        lineups(4, 3)


@given(st.integers(2, 4), st.integers(0, 5), st.sets(st.integers(0, 8)))
def test_rounds_never_seat_a_person_twice_and_place_every_table(
    n_sides: int, extra: int, bots: set[int]
) -> None:
    tables = lineups(n_sides, n_sides + extra)
    plan = rounds(tables, shared=bots)
    assert sorted(itertools.chain.from_iterable(plan)) == list(range(len(tables)))
    for group in plan:
        people = [e for i in group for e in tables[i] if e not in bots]
        assert len(people) == len(set(people))


def test_bots_only_play_in_one_round_and_people_in_as_many_as_sides() -> None:
    tables = lineups(2, 4)
    assert len(rounds(tables, shared={0, 1, 2, 3})) == 1
    assert len(rounds(tables)) == 2, "4 people, 2 per table, 4 tables: two rounds of two"


def test_the_sides_are_the_teams_where_every_seat_knows_them() -> None:
    assert sides(game("anshan-jiayibing").new_state(seed="1")) == [[0, 2, 4], [1, 3, 5]]
    assert sides(game("anshan-fangyang").new_state(seed="1")) == [[0], [1], [2], [3]]


def test_the_scores_of_one_deal_and_side_sum_to_zero() -> None:
    rng = random.Random(5)
    results = [
        (deal, side, entrant, float(rng.randint(-30, 30)))
        for deal in range(3)
        for side in range(2)
        for entrant in range(4)
    ]
    scored = compare(results)
    for deal, side in itertools.product(range(3), range(2)):
        assert sum(scored[deal, side, e] for e in range(4)) == pytest.approx(0)
    # a result against the others' mean on the same deal and side
    points = {(d, s, e): p for d, s, e, p in results}
    others = [points[0, 1, e] for e in (0, 2, 3)]
    assert scored[0, 1, 1] == pytest.approx(points[0, 1, 1] - sum(others) / 3)


def test_the_luck_of_the_deal_cancels() -> None:
    """Every entrant gets 10 points more from deal 1's side 0 (a lucky hand): the
    standings do not move."""
    base = [(0, 0, 0, 3.0), (0, 0, 1, 1.0), (0, 1, 0, -3.0), (0, 1, 1, -1.0)]
    lucky = [(d, s, e, p + (10 if s == 0 else -10)) for d, s, e, p in base]
    assert standings(base, [0, 1]) == standings(lucky, [0, 1])
    rows = {r["entrant"]: r for r in standings(base, [0, 1])}
    assert rows[0]["score"] == pytest.approx(2 - 2) and rows[0]["results"] == 2


def test_standings_count_only_what_can_be_compared_and_rank_best_first() -> None:
    results = [(0, 0, 0, 5.0), (0, 0, 1, 1.0), (1, 0, 0, 2.0), (1, 0, 1, 0.0), (2, 0, 0, 9.0)]
    rows = standings(results, [0, 1])
    assert [r["entrant"] for r in rows] == [0, 1]
    top = rows[0]
    assert top["deals"] == 2, "deal 2 has one result so far: nothing to compare it with"
    assert top["score"] == pytest.approx(4 + 2)
    assert top["mean"] == pytest.approx(3.0)
    lo, hi = top["ci95"]
    assert lo < 3.0 < hi
    assert rows[1]["score"] == pytest.approx(-6)
    assert standings([], [0, 1])[0]["deals"] == 0


def test_interval_of_one_value_is_the_value() -> None:
    assert interval([2.5]) == (2.5, [2.5, 2.5])
    mean, (lo, hi) = interval([1.0, 3.0])
    assert mean == 2.0 and lo < 1.0 and hi > 3.0
