"""The room options of 宁城打弹子 (the reading's §14; pydantic only, cheap to import)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["DanziOptions"]


class DanziOptions(BaseModel):
    """§14: every variant knob of the reading, defaults first."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    target: Literal[30, 60] = 30
    """N61: the match ends when a side reaches 30 (or 60) points."""
    points_12: int = Field(3, ge=0, le=100)
    """N59: the 头游's side when the partner is 二游."""
    points_13: int = Field(2, ge=0, le=100)
    """N59: … when the partner is 三游."""
    points_14: int = Field(1, ge=0, le=100)
    """N59: … when the partner is 末游."""
    declare_multiplier: int = Field(2, ge=1, le=10)
    """N60: a successful 宣战 multiplies the points."""
    declare_fail_points: int = Field(3, ge=0, le=100)
    """N60: the declarer's opponents score this after a failed 宣战."""
    match_stake: int = Field(1, ge=1, le=100_000)
    """N61: what each player of the match's winning side wins (积分)."""
    lead_rule: Literal["declarer_else_first", "declarer_else_last"] = "declarer_else_first"
    """N40: without a declarer, the previous 头游 (or 末游) leads."""
    pass_is_final: bool = False
    """N37: a seat that passed sits out the rest of the trick."""
    end_after_one_two: bool = False
    """N39: after a 1-2 finish the other two are ranked by cards left instead of playing on."""
    tribute_pick: Literal["cards", "lots"] = "cards"
    """N48: pick any two shown cards, or one giver's (returner's) two cards."""
    tribute_between_partners: bool = True
    """N57: a transfer between partners is made (True) or not: in the 4/2 form it is
    skipped; in the 2/2 form the picks keep every card away from its giver's partner."""
