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
from typing import Any

from paiju.engine import State
from paiju.errors import PaijuError

__all__ = ["Result", "compare", "interval", "lineups", "rounds", "sides", "standings"]

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
