"""The params and room options of the climbing games (cheap to import: pydantic only).

The catalogue entry's ``[variant.params]`` hold a game's defaults; a room option of the same
name overrides one for a room. Every option of the reading is here, with its bounds.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ClimbingOptions",
    "FangyangOptions",
    "FangyangParams",
    "JiayibingOptions",
    "JiayibingParams",
]


class ClimbingOptions(BaseModel):
    """Options every 鞍山 climbing game has (J6, J7, F9)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base: int = Field(1, ge=1, le=100_000)
    """基础分: the room's base stake; every payout is a multiple of it."""
    quads_beat_all: bool = False
    """四同张 as a bomb: a quad beats every single, pair and triple (J6 reading: default no)."""
    must_beat: bool = False
    """有牌必管: a player holding a beating play may not pass (J7 reading: default no)."""


class JiayibingOptions(ClimbingOptions):
    """鞍山甲乙丙 room options (J6-J9, J12)."""

    special3: Literal["instance", "first-dealt"] = "instance"
    """J8: ``instance`` marks one of the eight physical 3s at random; ``first-dealt`` draws
    only a suit and the seat dealt the first 3 of that suit leads (千变双扣's wording)."""
    next_lead: Literal["first-finisher", "special3"] = "first-finisher"
    """J9: who leads later deals: the previous 头游, or the special-3 draw every deal."""
    payout: Literal["first-team", "team-out", "catalog-v1"] = "first-team"
    """J12: ``first-team`` (the first finisher's team must complete first, else 和),
    ``team-out`` (the completing team always wins), ``catalog-v1`` (1 each, 2 if no
    opponent went out)."""


class JiayibingParams(JiayibingOptions):
    """鞍山甲乙丙 variant params: the option defaults (the deal is fixed: 6 x 18 = 108)."""


class FangyangOptions(ClimbingOptions):
    """鞍山放羊 room options (F3, F4)."""

    next_banker: Literal["first-finisher", "heart4", "rotate"] = "first-finisher"
    """F3: the banker of later deals: the previous 头游, the ♥4 holder, or the next seat."""
    call_max: Literal["A", "K"] = "A"
    """F4: the highest rank the banker may call (A以下: A included by default)."""


class FangyangParams(FangyangOptions):
    """鞍山放羊 variant params: the option defaults."""
