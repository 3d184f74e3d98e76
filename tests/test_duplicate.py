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
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.duplicate import (
    compare,
    interval,
    lineups,
    movement,
    movement_entrants,
    rounds,
    schedule,
    seat_entrants,
    sides,
    standings,
)
from paiju.errors import EventError, PaijuError
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


# -- the movement: people never see a deal twice ---------------------------------------

movements = st.integers(2, 4).flatmap(
    lambda n_sides: st.tuples(st.just(n_sides), st.integers(2, 7), st.integers(0, 6)).map(
        lambda x: (x[0], x[0] * x[1], x[1] + x[2])
    )
)
"""(sides, entrants, deals) a movement takes: entrants a multiple of the sides, at least
two tables, at least as many deals as tables."""


@given(movements)
def test_in_the_movement_no_entrant_meets_a_deal_twice_and_every_deal_is_played_once_each(
    case: tuple[int, int, int],
) -> None:
    n_sides, n, n_deals = case
    plan = movement(n_sides, n, n_deals)
    met = Counter((e, d) for s in plan for e in s.lineup for d in s.deals)
    assert max(met.values()) == 1, "no entrant plays a deal twice"
    assert set(met) == {(e, d) for e in range(n) for d in range(n_deals)}, (
        "every entrant plays every deal"
    )
    for sitting in plan:
        assert len(set(sitting.lineup)) == n_sides, "a table's sides are different entrants"


@given(movements)
def test_in_the_movement_every_deal_is_played_from_every_side_by_several_entrants(
    case: tuple[int, int, int],
) -> None:
    n_sides, n, n_deals = case
    plan = movement(n_sides, n, n_deals)
    by_side: dict[tuple[int, int], list[int]] = {}
    for sitting in plan:
        for side, entrant in enumerate(sitting.lineup):
            for deal in sitting.deals:
                by_side.setdefault((deal, side), []).append(entrant)
    assert set(by_side) == set(itertools.product(range(n_deals), range(n_sides)))
    for entrants in by_side.values():
        assert len(entrants) == n // n_sides >= 2, "compared with at least one other"
        assert len(set(entrants)) == len(entrants)


@given(movements)
def test_in_the_movement_a_person_sits_at_one_table_a_round(case: tuple[int, int, int]) -> None:
    n_sides, n, n_deals = case
    plan = movement(n_sides, n, n_deals)
    tables = n // n_sides
    assert sorted({s.round for s in plan}) == list(range(tables))
    for r in range(tables):
        seated = [e for s in plan if s.round == r for e in s.lineup]
        assert sorted(seated) == list(range(n)), "everyone plays each round, at one table"
    assert [s.round for s in plan] == sorted(s.round for s in plan)


@given(movements, st.randoms(use_true_random=False))
def test_a_movements_results_are_compared_only_on_the_same_deal_from_the_same_side(
    case: tuple[int, int, int], rng: random.Random
) -> None:
    n_sides, n, n_deals = case
    results = [
        (deal, side, entrant, float(rng.randint(-20, 20)))
        for sitting in movement(n_sides, n, n_deals)
        for side, entrant in enumerate(sitting.lineup)
        for deal in sitting.deals
    ]
    scored = compare(results)
    for deal, side, entrant, points in results:
        same = [p for d, s, e, p in results if (d, s) == (deal, side) and e != entrant]
        assert scored[deal, side, entrant] == pytest.approx(points - sum(same) / len(same))


@given(movements.filter(lambda x: x[0] == 2))
def test_a_team_keeps_its_seats_together_in_the_movement(case: tuple[int, int, int]) -> None:
    """甲乙丙's sides are its two teams of three (打弹子's the partners): a team entrant
    takes a whole side at every table."""
    for code in ("anshan-jiayibing", "ningcheng-danzi"):
        groups = sides(game(code).new_state(seed="1"))
        assert len(groups) == 2 and all(len(g) > 1 for g in groups)
        _, n, n_deals = case
        for sitting in movement(2, n, n_deals):
            seats = seat_entrants(groups, sitting.lineup)
            assert sorted(seats) == list(range(sum(len(g) for g in groups)))
            for entrant in sitting.lineup:
                mine = sorted(s for s, e in seats.items() if e == entrant)
                assert mine in [sorted(g) for g in groups], "a team sits as one side"


@given(st.integers(2, 4), st.integers(0, 20))
def test_too_few_entrants_for_the_movement_says_how_many(n_sides: int, n: int) -> None:
    needed = movement_entrants(n_sides, n)
    assert needed % n_sides == 0 and needed >= max(n, 2 * n_sides)
    assert needed - n < n_sides or n < 2 * n_sides
    if needed != n:
        with pytest.raises(EventError) as refused:
            movement(n_sides, n, 64)
        assert refused.value.reason == "too_few_entrants"
        assert refused.value.params["needed"] == needed
        assert f"{needed}, not {n}" in str(refused.value)
    assert len(movement(n_sides, needed, 64)) == (needed // n_sides) ** 2


def test_a_movement_needs_a_set_of_deals_for_each_table() -> None:
    with pytest.raises(EventError) as refused:
        movement(2, 8, 3)
    assert refused.value.reason == "too_few_deals" and refused.value.params["needed"] == 4


def test_a_movement_moves_the_entrants_so_that_they_meet_different_opponents() -> None:
    """Five tables of four sides (麻将): the groups move by steps prime to five, so two
    entrants of different groups sit at one table at most once."""
    plan = movement(4, 20, 10)
    met = Counter(pair for s in plan for pair in itertools.combinations(sorted(s.lineup), 2))
    assert max(met.values()) == 1


def test_bots_only_play_the_rotation_and_a_person_makes_it_the_movement() -> None:
    """The bot ladder: every entrant plays every deal from every side, in one round."""
    kind, plan = schedule(4, [True] * 4, 3)
    assert kind == "rotation" and {s.round for s in plan} == {0}
    assert [list(s.lineup) for s in plan] == lineups(4, 4)
    assert all(s.deals == (0, 1, 2) for s in plan)
    kind, plan = schedule(4, [False] + [True] * 7, 4)
    assert kind == "movement" and len(plan) == 4
    with pytest.raises(EventError, match="needs a multiple of 4 entrants, at least 8: 8, not 4"):
        schedule(4, [False, True, True, True], 4)
    with pytest.raises(EventError) as refused:
        schedule(4, [True] * 3, 4)
    assert refused.value.params["needed"] == 4
