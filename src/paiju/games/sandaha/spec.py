"""The parameters of a 三打哈 variant (``[variant.params]`` of its catalogue entry).

Import is cheap (pydantic only): the catalogue validates entries with :class:`SandahaParams`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["SandahaParams"]


class SandahaParams(BaseModel):
    """三打哈 rule parameters: deal, bidding (叫分), the 7-常主 duty, settlement tiers."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hand_size: int = Field(21, ge=1)
    """Cards dealt to each of the four players."""
    kitty_size: int = Field(8, ge=0)
    """底牌: the cards the declarer takes and buries."""
    bid_start: int = Field(80, ge=5)
    """最高从80分起叫: the highest (first) bid, and the contract when everybody passes."""
    bid_step: int = Field(5, ge=1)
    """每次最少降5分: a new bid is at least this much lower, in multiples of it."""
    min_bid: int = Field(5, ge=0)
    """The lowest bid allowed (the text is silent; 5 keeps a contract winnable)."""
    changzhu_duty: int = Field(7, ge=1)
    """有7张常主 (王、2和7) 必须叫到70分或者以下: how many 常主 oblige a player to bid."""
    duty_bid: int = Field(70, ge=0)
    """The bid a 常主-obliged player must reach unless the text's exceptions release it."""
    big_margin: int = 70
    """闲家得分-庄分>=70: 大光 for the defenders."""
    small_margin: int = 40
    """闲家得分-庄分>=40: 小光 for the defenders."""
    big_shutout_below: int = 5
    """闲家得分<5: 大光 for the declarer."""
    small_shutout_upto: int = 30
    """5 <= 闲家得分 <= 30: 小光 for the declarer."""
    default_stake: int = Field(10, ge=1)
    """房间底注, default 10 积分 (a room option: ``stake``)."""
    default_rule: Literal["rule1", "rule2"] = "rule1"
    """规则一 (正常) or 规则二 (双进单出: the declarer's wins doubled); room option ``rule``."""

    @model_validator(mode="after")
    def _bids_fit(self) -> SandahaParams:
        if self.min_bid > self.bid_start or (self.bid_start - self.min_bid) % self.bid_step:
            raise ValueError(
                f"min_bid {self.min_bid} must be bid_start {self.bid_start} minus a multiple"
                f" of bid_step {self.bid_step}"
            )
        return self
