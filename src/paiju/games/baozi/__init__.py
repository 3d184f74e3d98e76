"""The 宝子 (baozi) and 佳佳宝 (jiajiabao) families: two-card point games against a banker.

Both families share one two-card evaluator (:mod:`paiju.games.baozi.rules`) read from the
variant's ``[variant.params]`` (:mod:`paiju.games.baozi.spec`). 宝子: a banker (庄) and 1-8
players, two cards each, every player's hand compared with the banker's. 佳佳宝: four cards,
split into a front (前) and a back (后) group, each compared with the banker's.

Choices where the rule texts and CATALOG.md are silent (also in the module docs):

* the banker (庄家) does not bet; every player bets at once, before any card is seen; the
  bets are public; the showdown (亮牌) follows the last bet (佳佳宝: the last grouping);
* the deal starts left of the banker, the banker last, in the variant's ``dealing`` mode;
* ``pair_payout`` (宝子 room option, default 1): a hand won by a ladder hand (对子, 王+A,
  混合) pays the bet times ``pair_payout``, whichever side holds it;
* 佳佳宝 pays 1:1; a group push with a group win is a push (CATALOG: win both to win);
  2104's fixed grouping is applied by the engine (no grouping action);
* 2108's single-card order for ties is 王 > A > K > … > 2 (the text gives only the pairs);
* the 佳佳宝 solver's opponent groups by the baseline rule (see :mod:`.solver`).

This module stays cheap to import (the catalogue loads the spec from here); the evaluator,
the games, the odds and the solver are imported on use.
"""

from __future__ import annotations

# The entry points live in their modules (``compare.compare_text``, ``solver.group_text``,
# ``odds.odds``) and at the top level (``paiju.compare``, ``paiju.odds``): a function named
# like a submodule here would be replaced by that submodule once it is imported.
__all__: list[str] = []
