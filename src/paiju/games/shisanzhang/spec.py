"""The rule parameters of a 十三张 code: the ``[variant.params]`` table of its catalogue entry.

Everything that differs between the codes of the family is data here, never a branch on the
code: the straight order, suit tie-breaks, the settlement (计分), which special hands (特殊牌型)
the code knows and in which order (its ladder), whether they are declared (报到), do not
arrange (免摆) or replace arranging altogether (绍兴13张1), and the point tables.

>>> p = ShisanzhangParams(scoring="points", ladder=(("一条龙",),), special_mode="optional")
>>> p.scorings_offered, p.special_names
(('points',), ('一条龙',))
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, model_validator

from paiju.games.shisanzhang.categories import CATEGORY_NAMES

if TYPE_CHECKING:
    from paiju.catalog import Variant
    from paiju.games.shisanzhang.rows import RowRules

__all__ = [
    "CATEGORY_NAMES",
    "SCORINGS",
    "SPECIAL_NAMES",
    "Scoring",
    "ShisanzhangParams",
    "SpecialMode",
    "params_of",
]

Scoring = Literal["majority", "points", "payout", "multiplier", "back"]
"""How a hand is settled (计分):

* ``majority`` - 1301's literal rule: between two players, whoever wins 2 or 3 rows takes 1;
* ``points`` - the 积分规则 of file 001: 1/2/3 per row, 打枪, 全垒打, bonuses, specials;
* ``payout`` - the 赔率 banker table of file 001 (a won row pays its multiplier);
* ``multiplier`` - 报到13张2: row multipliers and ×7/×4 specials against the banker;
* ``back`` - 宝马会 (比大小13张2): only the back row (尾墩) is compared.
"""
SCORINGS: tuple[Scoring, ...] = ("majority", "points", "payout", "multiplier", "back")

SpecialMode = Literal["none", "optional", "exempt", "all"]
"""What a special hand does in the game:

* ``none`` - the code knows no special hand; everybody arranges;
* ``optional`` - 报到: a player holding one may declare it instead of arranging;
* ``exempt`` - 免摆: a player holding one does not arrange (its only action is to show it);
* ``all`` - 不摆牌 (绍兴13张1): nobody arranges, every hand is placed on the ladder.
"""

SPECIAL_NAMES: tuple[str, ...] = (
    "同花十三水",
    "一条龙",
    "全黑一张红",
    "全红一张黑",
    "五对三条",
    "六对半",
    "三顺子",
    "三花色",
    "全大",
    "全小",
    "半大",
    "半小",
    "同花顺",
    "炸弹",
    "三条",
    "对子",
)
"""Every 13-card hand shape a ladder may name (see :mod:`paiju.games.shisanzhang.specials`).
``同花顺``, ``炸弹`` and ``三条`` mean "contains one" (免摆 and 绍兴 tiers); ``对子`` is the
绍兴 bottom tier (any hand: pairs, then high cards)."""

RANGE_HANDS = ("全大", "全小", "半大", "半小")

Triple = tuple[int, int, int]


class ShisanzhangParams(BaseModel):
    """The ``[variant.params]`` of a 十三张 code (frozen; unknown keys are errors)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # -- rows ---------------------------------------------------------------------------
    straight_a2345: Literal["second", "lowest"] = "second"
    """Where A2345 ranks among straights: ``second`` (TJQKA > A2345 > 9TJQK, 1301/1303)
    or ``lowest`` (宝马会 and the 积分规则)."""
    suit_ties: bool = False
    """1303: suits break ties of 同花顺, 同花, 顺子, 两对, 对子 (黑桃>红心>梅花>方块), and of
    two 同花十三水."""

    # -- settlement -----------------------------------------------------------------------
    scoring: Scoring = "majority"
    """The code's default settlement."""
    scorings: tuple[Scoring, ...] = ()
    """Other settlements a room may choose (the ``scoring`` room option)."""
    banker: bool = False
    """A banker game (庄家): every player settles with the banker only; the banker rotates."""
    ties_to_banker: bool = False
    """Identical rows and equal specials go to the banker (报到13张2: 同样的牌，庄家比闲家大)."""
    bets: tuple[int, ...] = ()
    """A banker game's bets (下注: 开牌前，各闲家向庄家下注): the amounts a player may stake
    against the banker before arranging; empty = no betting phase (every player stakes 1)."""
    both_special_banker_pays: bool = False
    """赔率: when banker and player both declare a special, the banker pays the player's."""
    row_points: Triple = (1, 1, 1)
    """Stakes of a row won, front/middle/back (积分规则: 1, 2, 3)."""
    gun_bonus: int = 0
    """打枪: what a player who loses all three rows to one opponent pays it on top."""
    homerun_bonus: int = 0
    """全垒打: what each opponent pays on top to a player who 打枪s all of them."""
    homerun_opponents: int = 3
    """How many opponents a 全垒打 needs (the rule speaks of a 4-player table)."""
    row_bonuses: dict[str, Triple] = {}
    """Points: extra stakes to the winner of a row by its category at front/middle/back
    (冲三 三条 front +6, 四梅 炸弹 +8, 同花顺 middle/back +10)."""
    row_multipliers: dict[str, Triple] = {}
    """Payout/multiplier: a row won with this category at front/middle/back pays this
    many stakes instead of 1 (三条 in front 3, 葫芦 middle 2, 炸弹 8/4, 同花顺 10/5)."""

    # -- special hands ----------------------------------------------------------------------
    special_mode: SpecialMode = "none"
    ladder: tuple[tuple[str, ...], ...] = ()
    """The special hands the code knows, best tier first; names in one tier are equal."""
    special_scorings: tuple[Scoring, ...] = ()
    """Settlements under which the ladder applies (empty = all). 1301 knows 一条龙 and
    同花十三水 only through the points settlement."""
    special_values: dict[str, int] = {}
    """What a declared special takes from each loser (points, payout, multiplier); majority
    settlement always takes 1."""
    three_flush_suits: Literal["shared", "distinct"] = "shared"
    """三花色: whether two of its rows may share a suit (CATALOG.md: 13 hearts split 3/5/5 is
    三花色) or the three rows are of three different suits (file 001 rule 五, 绍兴:
    "三花色（只要是3个不同的花色…）")."""
    range_ranks: dict[str, tuple[int, ...]] = {
        "全大": (6, 7, 8, 9, 10, 11, 12, 13),
        "全小": (2, 3, 4, 5, 6, 7, 8, 9, 10),
        "半大": (6, 7, 8, 9, 10, 11, 12, 13, 14),
        "半小": (14, 2, 3, 4, 5, 6, 7, 8, 9, 10),
    }
    """The ranks (2..14, ace 14) all 13 cards of 全大/全小/半大/半小 must lie in (不能缺 read
    as "no card outside the range")."""

    @model_validator(mode="after")
    def _consistent(self) -> ShisanzhangParams:
        names = [n for tier in self.ladder for n in tier]
        unknown = [n for n in names if n not in SPECIAL_NAMES]
        if unknown:
            raise ValueError(
                f"unknown special hand {', '.join(unknown)} in ladder; known: "
                + ", ".join(SPECIAL_NAMES)
            )
        if len(set(names)) != len(names):
            raise ValueError("a special hand appears twice in the ladder")
        if (self.special_mode == "none") != (not self.ladder):
            raise ValueError("special_mode 'none' goes with an empty ladder, and only with it")
        if self.special_mode == "all" and "对子" not in names:
            raise ValueError("special_mode 'all' needs the bottom tier 对子 in the ladder")
        extra = set(self.special_values) - set(names)
        if extra:
            raise ValueError(f"special_values names hands not in the ladder: {sorted(extra)}")
        bad = set(self.range_ranks) - set(RANGE_HANDS)
        if bad:
            raise ValueError(f"range_ranks keys must be among {RANGE_HANDS}, got {sorted(bad)}")
        for table in (self.row_bonuses, self.row_multipliers):
            wrong = set(table) - set(CATEGORY_NAMES)
            if wrong:
                raise ValueError(f"unknown row category {sorted(wrong)}; known {CATEGORY_NAMES}")
        if self.bets and (not self.banker or min(self.bets) < 1):
            raise ValueError("bets are positive amounts, and only in banker games")
        if self.banker and self.scoring in ("majority", "points", "back"):
            raise ValueError("banker games settle by 'payout' or 'multiplier'")
        return self

    @property
    def scorings_offered(self) -> tuple[Scoring, ...]:
        """Every settlement a room of this code may choose, the default first."""
        return (self.scoring, *(s for s in self.scorings if s != self.scoring))

    @property
    def special_names(self) -> tuple[str, ...]:
        """The names of the ladder, best first."""
        return tuple(n for tier in self.ladder for n in tier)

    @property
    def specials_forced(self) -> bool:
        """Whether a seat holding a special shows it instead of arranging (免摆, or every
        hand of 绍兴13张1: special modes ``exempt`` and ``all``)."""
        return self.special_mode in ("exempt", "all")

    def specials_apply(self, scoring: Scoring | None = None) -> bool:
        """Whether the ladder is in play under ``scoring`` (default: the code's own)."""
        if not self.ladder:
            return False
        chosen = self.scoring if scoring is None else scoring
        return not self.special_scorings or chosen in self.special_scorings

    def row_rules(self) -> RowRules:
        """The row evaluation rules of the code (straight order, suit tie-breaks)."""
        return _row_rules(self.straight_a2345, self.suit_ties)


@cache
def _row_rules(straight_a2345: Literal["second", "lowest"], suit_ties: bool) -> RowRules:
    """One RowRules per distinct rule pair (every arrangement asks for them)."""
    from paiju.games.shisanzhang.rows import RowRules

    return RowRules(straight_a2345=straight_a2345, suit_ties=suit_ties)


def params_of(variant: Variant) -> ShisanzhangParams:
    """The validated params of a 十三张 variant (CatalogError when they do not fit)."""
    return variant.params_as(ShisanzhangParams)
