"""Duplicate play (复式赛): the same deals at several tables, seats rotated, each result
scored against the others who played the same deal from the same side.

The pieces shared by the offline event (:func:`paiju.duel.event`, bot levels against a
field) and the server's events (:mod:`paiju.server.events`, entrants against each other):

- :func:`sides`: the sides of a deal - each seat alone, or the fixed teams (甲乙丙's two
  sides, 打弹子's partners) every seat knows from the start. An entrant takes one side:
  one seat, or a team's seats.
- :func:`lineups`: which entrant takes which side at each table of a deal. With ``E``
  entrants and ``S`` sides (``E >= S``) there are ``E`` tables per deal, table ``t``
  giving side ``g`` to entrant ``(t + g) mod E`` (a cyclic Latin rectangle): every
  entrant plays every deal once from every side, like every other entrant.
- :func:`rounds`: the tables grouped so that no person sits at two tables at once (bot
  entrants may).
- :func:`movement`: the tables of an event of people, where no one may see a deal twice:
  a Mitchell-like movement of ``T = E / S`` tables over ``T`` rounds, the deals cut in
  ``T`` sets that move from table to table. Every entrant plays every deal exactly once,
  and every deal is played from every side by ``T`` different entrants.
- :func:`schedule`: which of the two an event plays - the rotation where every entrant
  is a bot (the bot ladder: every deal from every side), the movement as soon as one
  entrant is a person.
- :func:`compare`: a result minus the mean of the others' results on the same deal from
  the same side - what the luck of the deal leaves out. The comparisons of one deal and
  side sum to zero.
- :func:`interval`: a mean with its 95% interval.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from paiju.engine import State
from paiju.errors import EventError, PaijuError

__all__ = [
    "Result",
    "Sitting",
    "compare",
    "interval",
    "lineups",
    "movement",
    "movement_entrants",
    "rotation",
    "rounds",
    "schedule",
    "seat_entrants",
    "sides",
    "standings",
]

Result = tuple[int, int, int, float]
"""One entrant's result on one deal from one side: ``(deal, side, entrant, points)``
(points: the mean over the side's seats)."""


def sides(state: State) -> list[list[int]]:
    """The fixed sides of a hand, as every seat knows them from the start (甲乙丙, 打弹子),
    else every seat alone."""
    known: Callable[[int | None], list[int | None]] | None = getattr(state, "teams_known_to", None)
    if known is not None:
        teams = known(None)
        if None not in teams and len(set(teams)) == 2:
            return [[s for s, t in enumerate(teams) if t == team] for team in sorted(set(teams))]  # type: ignore[type-var]
    return [[s] for s in range(state.seats)]


def lineups(n_sides: int, n_entrants: int) -> list[list[int]]:
    """The tables of one deal: ``lineups[t][g]`` is the entrant (an index) on side ``g``
    at table ``t``. Each entrant takes each side exactly once, and no table holds an
    entrant twice; this needs at least as many entrants as sides."""
    if n_sides < 1:
        raise PaijuError("a deal has at least one side")
    if n_entrants < n_sides:
        raise PaijuError(
            f"a duplicate event of {n_sides} sides needs at least {n_sides} entrants,"
            f" not {n_entrants} (a bot level can be an entrant)"
        )
    return [[(t + g) % n_entrants for g in range(n_sides)] for t in range(n_entrants)]


def rounds(tables: Sequence[Sequence[int]], shared: Collection[int] = ()) -> list[list[int]]:
    """The tables (indices of ``tables``, each a list of entrants) grouped in rounds, in
    order: a table joins the first round where none of its entrants sits already, but an
    entrant in ``shared`` (a bot level) may sit at any number of tables at once."""
    out: list[list[int]] = []
    busy: list[set[int]] = []
    for i, table in enumerate(tables):
        people = {e for e in table if e not in shared}
        for r, taken in enumerate(busy):
            if not people & taken:
                out[r].append(i)
                taken |= people
                break
        else:
            out.append([i])
            busy.append(set(people))
    return out


@dataclass(frozen=True)
class Sitting:
    """One table of one round: ``lineup[g]`` is the entrant (an index) on side ``g``, and
    ``deals`` the deals it plays, in order (its hand ``k + 1`` is deal ``deals[k]``)."""

    round: int
    lineup: tuple[int, ...]
    deals: tuple[int, ...]


def rotation(
    n_sides: int, n_entrants: int, n_deals: int, shared: Collection[int] = ()
) -> list[Sitting]:
    """The rotation (:func:`lineups`): table ``t`` (the list's index) plays every deal,
    in the round :func:`rounds` gives it. Every entrant plays every deal from every side:
    fit for bots, who forget a deal; a person would see it again."""
    tables = lineups(n_sides, n_entrants)
    round_of = {t: r for r, group in enumerate(rounds(tables, shared)) for t in group}
    every = tuple(range(n_deals))
    return [Sitting(round_of[t], tuple(x), every) for t, x in enumerate(tables)]


def movement_entrants(n_sides: int, n_entrants: int) -> int:
    """How many entrants a :func:`movement` of ``n_sides`` sides needs with ``n_entrants``
    entered: the least multiple of ``n_sides`` that is at least ``n_entrants`` and at
    least two tables' worth (a deal and side is compared only between two entrants)."""
    tables = max(2, -(-n_entrants // n_sides))
    return tables * n_sides


def _steps(n_groups: int, n_tables: int) -> list[int]:
    """How far each group of entrants moves at each round (group 0 stays). A group that
    moves by ``c`` while the deals move by one meets the same deals again unless ``1 - c``
    is prime to the number of tables, so only such steps are taken; among them, steps not
    taken yet and prime to the others' (so that two groups' entrants meet at most once)
    come first."""
    units = [c for c in range(n_tables) if math.gcd((1 - c) % n_tables, n_tables) == 1]
    chosen = [0]
    for _ in range(1, n_groups):
        chosen.append(
            max(
                units,
                key=lambda c: (
                    c not in chosen,
                    sum(math.gcd((c - d) % n_tables, n_tables) == 1 for d in chosen),
                    -c,
                ),
            )
        )
    return chosen


def movement(n_sides: int, n_entrants: int, n_deals: int) -> list[Sitting]:
    """The movement of an event of people (复式赛的轮转, after duplicate bridge's Mitchell
    movement): no entrant meets a deal twice.

    With ``S`` sides and ``E = S * T`` entrants (``T >= 2``, :func:`movement_entrants`)
    there are ``T`` tables and ``T`` rounds; the deals are cut in ``T`` sets of
    consecutive deals (``n_deals >= T``). Entrant ``e`` is member ``e // S`` of group
    ``e % S``. In round ``r`` table ``t`` plays set ``(t + r) mod T``; group ``g`` sits on
    side ``(g + r) mod S`` (so the sides turn round the groups), its member
    ``(t + c_g r) mod T`` at table ``t``, where ``c_g`` (:func:`_steps`) keeps ``1 - c_g``
    prime to ``T``: a member plays set ``m + (1 - c_g) r``, a different one each round.
    So every entrant plays every deal exactly once, and each deal is played from each
    side by ``T`` different entrants. The list is ordered by round, then table."""
    needed = movement_entrants(n_sides, n_entrants)
    if n_entrants != needed:
        raise EventError(
            f"a duplicate event of people with {n_sides} sides needs a multiple of"
            f" {n_sides} entrants, at least {2 * n_sides}: {needed}, not {n_entrants}"
            " (a bot level can be an entrant)",
            reason="too_few_entrants",
            needed=needed,
            entrants=n_entrants,
        )
    n_tables = n_entrants // n_sides
    if n_deals < n_tables:
        raise EventError(
            f"{n_entrants} entrants sit at {n_tables} tables over {n_tables} rounds, each"
            f" round on a set of deals: at least {n_tables} deals, not {n_deals}",
            reason="too_few_deals",
            needed=n_tables,
        )
    sets = [
        tuple(range(b * n_deals // n_tables, (b + 1) * n_deals // n_tables))
        for b in range(n_tables)
    ]
    steps = _steps(n_sides, n_tables)
    out = []
    for r in range(n_tables):
        for t in range(n_tables):
            lineup = [0] * n_sides
            for g in range(n_sides):
                member = (t + steps[g] * r) % n_tables
                lineup[(g + r) % n_sides] = g + n_sides * member
            out.append(Sitting(r, tuple(lineup), sets[(t + r) % n_tables]))
    return out


def schedule(n_sides: int, bots: Sequence[bool], n_deals: int) -> tuple[str, list[Sitting]]:
    """The tables of an event whose entrants are bots or not (``bots``, in their order):
    ``("rotation", …)`` where every entrant is a bot (one round: bots sit at every table
    at once), else ``("movement", …)``; an :class:`~paiju.errors.EventError` says how many
    entrants or deals the movement needs."""
    if all(bots):
        if len(bots) < max(2, n_sides):
            raise EventError(
                f"this event needs at least {max(2, n_sides)} entrants (one per side; a bot"
                " level can be one)",
                reason="too_few_entrants",
                needed=max(2, n_sides),
                entrants=len(bots),
            )
        return "rotation", rotation(n_sides, len(bots), n_deals, shared=range(len(bots)))
    return "movement", movement(n_sides, len(bots), n_deals)


def seat_entrants(sides: Sequence[Sequence[int]], lineup: Sequence[int]) -> dict[int, int]:
    """Each seat's entrant at a table: every seat of side ``g`` is ``lineup[g]``'s (a team
    keeps its seats together)."""
    return {seat: entrant for side, entrant in zip(sides, lineup, strict=True) for seat in side}


def compare(results: Sequence[Result]) -> dict[tuple[int, int, int], float]:
    """Each result's duplicate score: its points minus the mean of the others who played
    the same deal from the same side (0 when it is alone there). The scores of one deal
    and side sum to zero."""
    groups: dict[tuple[int, int], list[tuple[int, float]]] = {}
    for deal, side, entrant, points in results:
        groups.setdefault((deal, side), []).append((entrant, points))
    out: dict[tuple[int, int, int], float] = {}
    for (deal, side), rows in groups.items():
        total = sum(p for _, p in rows)
        for entrant, points in rows:
            others = len(rows) - 1
            out[deal, side, entrant] = points - (total - points) / others if others else 0.0
    return out


def interval(values: Sequence[float]) -> tuple[float, list[float]]:
    """The mean of ``values`` and its 95% interval (normal, ``1.96 s / sqrt(n)``; a single
    value's interval is the value itself), rounded to 4 places."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return round(mean, 4), [round(mean - half, 4), round(mean + half, 4)]


def standings(results: Sequence[Result], entrants: Sequence[int]) -> list[dict[str, Any]]:
    """The standings of an event so far, best first: for each entrant its ``score`` (the
    sum of its duplicate scores), ``mean`` per deal played (a deal's figure: the mean of
    its scores over the sides played) with its ``ci95``, and how many ``deals`` and
    ``results`` are behind it. Only complete comparisons count: a deal and side scores
    once at least two entrants played it."""
    scored = compare(results)
    players = Counter(key[:2] for key in scored)
    counted = {key: value for key, value in scored.items() if players[key[:2]] > 1}
    per_deal: dict[int, dict[int, list[float]]] = {e: {} for e in entrants}
    for (deal, _side, entrant), value in counted.items():
        per_deal.setdefault(entrant, {}).setdefault(deal, []).append(value)
    rows: list[dict[str, Any]] = []
    for entrant in entrants:
        deals = per_deal.get(entrant, {})
        figures = [statistics.fmean(v) for _, v in sorted(deals.items())]
        mean, ci = interval(figures) if figures else (0.0, [0.0, 0.0])
        rows.append(
            {
                "entrant": entrant,
                "score": round(sum(sum(v) for v in deals.values()), 4),
                "mean": mean,
                "ci95": ci,
                "deals": len(figures),
                "results": sum(len(v) for v in deals.values()),
            }
        )
    rows.sort(key=lambda row: (-float(row["mean"]), -float(row["score"]), row["entrant"]))
    return rows
