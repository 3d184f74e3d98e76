"""The same deal at two tables of a duplicate event, side by side: both replays from one
seat's view (:func:`paiju.server.verify.game_steps`), aligned step by step, and the seat's
own decisions paired (its first decision at one table beside its first at the other, and
so on), where the two tables parted ways."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.errors import PaijuError
from paiju.server.verify import game_steps

__all__ = ["side_by_side"]


def side_by_side(
    records: tuple[Mapping[str, Any], Mapping[str, Any]], seat: int = 0
) -> dict[str, Any]:
    """``{"seat", "games", "names", "settlements", "rows", "decisions"}``: ``rows[k]`` holds
    each table's step ``k`` (None past its end); ``decisions[k]`` the indices of the
    seat's ``k``-th decision at each table and whether they differ."""
    a, b = records
    if a.get("deal") != b.get("deal"):
        raise PaijuError("two tables of one deal are dealt the same cards")
    steps = [game_steps(r, seat)["steps"] for r in (a, b)]
    rows = [
        {"a": steps[0][k] if k < len(steps[0]) else None,
         "b": steps[1][k] if k < len(steps[1]) else None}
        for k in range(max(len(s) for s in steps))
    ]  # fmt: skip
    mine = [
        [i for i, st in enumerate(s) if st["seat"] == seat and not st.get("only")] for s in steps
    ]
    decisions = [
        {
            "a": mine[0][k] if k < len(mine[0]) else None,
            "b": mine[1][k] if k < len(mine[1]) else None,
            "same": k < len(mine[0])
            and k < len(mine[1])
            and steps[0][mine[0][k]]["action"] == steps[1][mine[1][k]]["action"],
        }
        for k in range(max(len(m) for m in mine))
    ]
    return {
        "seat": seat,
        "code": a["code"],
        "games": [a.get("id"), b.get("id")],
        "names": [a.get("names"), b.get("names")],
        "settlements": [a.get("settlement"), b.get("settlement")],
        "rows": rows,
        "decisions": decisions,
    }
