"""What a family's own 复盘 hands back: each candidate of one decision with its value for
the seat, and how the values were found (:mod:`paiju.review` turns it into the review's
decision).

A family whose decisions can be valued exactly, or against the whole field rather than by
the search's rollouts (十三张's arrangement, 佳佳宝's grouping, every bet of 宝子 and 佳佳宝),
names an ``appraise`` hook in its :class:`~paiju.games.Family` (a module of this
package: :mod:`.shisanzhang`, :mod:`.baozi`; they sit above the games and their bots)::

    appraise(state, seat, played, rng, worlds) -> Appraisal | None

``state`` is the position as the seat saw it (already a resample of the hidden cards), and
the hook reads nothing of it that the seat's view does not show. ``None`` leaves the
decision to the search.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from paiju.engine import Action

__all__ = ["Appraisal", "Valued"]

Method = Literal["exact", "field"]
"""``exact``: every deal the seat could face counted (the value is an exact expectation);
``field``: the other hands sampled (``worlds`` of them), each settled exactly."""


@dataclass(frozen=True)
class Valued:
    """One candidate: its expected points for the seat, their spread over the deals the
    seat could face (the standard deviation), and facts for the reader (chances, rows)."""

    action: Action
    value: float
    spread: float = 0.0
    facts: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Appraisal:
    """Every candidate of a decision, the bot's choice among them, and the method."""

    method: Method
    candidates: tuple[Valued, ...]
    bot: Action
    played: Action
    """The played action as it stands among the candidates (the same move, written as the
    hook writes it: 佳佳宝's groups in either order are one grouping)."""
    worlds: int = 0
    """Sampled deals each candidate was settled in (0 where the value is exact)."""
    facts: Mapping[str, Any] = field(default_factory=dict)
    """What the whole decision's values rest on (the model of the others, the hands counted,
    the standard error of a loss)."""
