"""复盘 of 十三张: the arrangement (or declaration) against the field.

The seat sees its own 13 cards and nothing of the others' until the showdown. Its
candidates are the solver's best arrangements
(:func:`paiju.games.shisanzhang.solver.solve`, the ``ALTERNATIVES`` best that no better
one dominates), its special hand where it may declare one, the bot's choice and the move
played. Each is settled against the same ``worlds`` fields: the other
seats' hands dealt anew from the cards the seat does not see (:meth:`State.resample`), each
arranged (or declared) by the 十三张 bot (the 困难 level's), the bets as they were; every
candidate is then played into that field and the hand settled by the game's own
settlement (specials, 打枪, 全垒打, bonuses, the stake), so a field's score is exact and
only the fields are sampled. The same fields for every candidate (common random numbers)
make the comparison far sharper than the values: the loss carries its own standard error,
from the paired differences.

Exhaustive enumeration is out of reach (one opponent alone may hold C(39, 13) ≈ 8.1·10⁹
hands, and each must be arranged); what is exact is each field's settlement and the
choice among the solver's candidates, what is sampled is the field.
"""

from __future__ import annotations

import math
import random

from paiju.appraisal import Appraisal, Valued
from paiju.engine import Action, State
from paiju.games.shisanzhang.bot import ShisanzhangBot
from paiju.games.shisanzhang.game import Arrange, Bet, Declare, ShisanzhangState

__all__ = ["ALTERNATIVES", "appraise"]

ALTERNATIVES = 6
"""The solver's arrangements valued besides the bot's, the declaration and the move played."""


def _rows(action: Action) -> Action:
    """An arrangement with each row's cards in one order (the rows are sets)."""
    if isinstance(action, Arrange):
        return Arrange(*(tuple(sorted(row)) for row in (action.front, action.middle, action.back)))
    return action


def _field(root: ShisanzhangState, seat: int, rng: random.Random) -> ShisanzhangState:
    """The other hands dealt anew, each arranged by the bot; the seat yet to act."""
    world = root.resample(seat, rng)
    fresh = root.game.new_state(root.seats, deal=world.deal, context=world.context)
    assert isinstance(fresh, ShisanzhangState)
    for who, action in world.history:
        if isinstance(action, Bet):
            fresh.apply(who, action)
    bot = ShisanzhangBot(root.game)
    for other in sorted(fresh.to_act() - {seat}):
        fresh.apply(other, bot.act(fresh, other))
    return fresh


def _stats(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((x - mean) ** 2 for x in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var)


def appraise(
    state: State, seat: int, played: Action, rng: random.Random, worlds: int
) -> Appraisal | None:
    """The arrangement's and its rivals' expected points against ``worlds`` fields."""
    if not isinstance(state, ShisanzhangState) or state.betting:
        return None
    if not isinstance(played, (Arrange, Declare)) or worlds < 1:
        return None
    bot = _rows(ShisanzhangBot(state.game).act(state, seat))
    mine = _rows(played)
    advised = [_rows(a) for a in state.suggestions(seat, ALTERNATIVES + 1)]
    choices = list(dict.fromkeys([bot, *advised, mine]))
    outcomes: list[list[float]] = [[] for _ in choices]
    for _ in range(worlds):
        field = _field(state, seat, rng)
        for i, action in enumerate(choices):
            sim = field.clone()
            sim.apply(seat, action)
            outcomes[i].append(sim.payoff(seat))
    stats = [_stats(o) for o in outcomes]
    candidates = tuple(
        Valued(a, mean, spread, {"stderr": round(spread / math.sqrt(worlds), 3)})
        for a, (mean, spread) in zip(choices, stats, strict=True)
    )
    best = max(range(len(choices)), key=lambda i: (stats[i][0], -i))
    mine_at = choices.index(mine)
    diffs = [b - p for b, p in zip(outcomes[best], outcomes[mine_at], strict=True)]
    facts = {
        "others": "bot",
        "loss_stderr": round(_stats(diffs)[1] / math.sqrt(worlds), 3),
    }
    return Appraisal("field", candidates, bot, mine, worlds, facts)
