"""How far a 鞍山麻将 hand is from 胡, and what it is worth to its seat.

:func:`evaluate` is the 向听数 as the rule bot (普通, :mod:`.bot`) counts it, with the text's
conditions 3-4: a missing 门 or no natural 幺九 costs a step (七对 needs neither).
:func:`steps` counts conditions 1-2 as well (a 刻子 or a 中发白 pair, and a 顺子:
:func:`~paiju.games.majiang.shanten.shanten_to_win`), so a hand 听 in shape that can win on
nothing is a step short of 听, as it is.

:func:`worth` is what a hand is worth to its seat in settlement points, the measure the
困难 bot's search values a hand by where it cuts a rollout short
(:meth:`~paiju.games.majiang.game.MajiangState.estimate`) and ranks its discards by: the
chance the hand wins, from its :func:`steps` and 进张, times what a win pays (twice as much
for each fan the hand already holds: 枪, 站立, 穷胡, 大哥大, 杠), less what the seat pays when
another seat wins (twice as much while it stays closed: 闭门).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from paiju.games.majiang.rules import DRAGONS, YAOJIU, kind_counts
from paiju.games.majiang.shanten import qidui_shanten, shanten, shanten_to_win
from paiju.games.majiang.win import Meld

__all__ = ["Stakes", "evaluate", "steps", "worth"]


def evaluate(counts: Sequence[int], wilds: int, melds: int, meld_tiles: Sequence[int]) -> int:
    """向听数 plus a step per missing 门 and one for no natural 幺九 (七对 needs neither).

    A pure function of its arguments, cached: the discard search asks about the same
    hands over and over (each discard, then each tile it could draw).
    """
    return _evaluate(tuple(counts), wilds, melds, tuple(meld_tiles))


def _missing(counts: Sequence[int], meld_tiles: Sequence[int]) -> int:
    """The steps conditions 3-4 add: one per missing 门, one for no natural 幺九."""
    suits = {t // 9 for t in meld_tiles if t < 27}
    suits |= {k for k in range(3) if any(counts[9 * k : 9 * k + 9])}
    yaojiu = any(counts[k] for k in YAOJIU) or any(t in YAOJIU for t in meld_tiles)
    return 3 - len(suits) + (0 if yaojiu else 1)


@functools.lru_cache(maxsize=1 << 16)
def _evaluate(counts: tuple[int, ...], wilds: int, melds: int, meld_tiles: tuple[int, ...]) -> int:
    best = shanten(counts, wilds, melds, qidui=False) + _missing(counts, meld_tiles)
    if melds == 0:
        best = min(best, qidui_shanten(counts, wilds))
    return best


def steps(counts: Sequence[int], wilds: int, melds: Sequence[Meld]) -> int:
    """:func:`evaluate` with conditions 1-2 counted: how many tiles the hand lacks of 听
    (0), or -1 when it is complete. Cached like :func:`evaluate`."""
    meld_tiles = tuple(t for m in melds for t in m.tiles)
    pung = any(m.kind != "chi" for m in melds)
    chow = any(m.kind == "chi" for m in melds)
    return _steps(tuple(counts), wilds, len(melds), meld_tiles, pung, chow)


@functools.lru_cache(maxsize=1 << 16)
def _steps(
    counts: tuple[int, ...],
    wilds: int,
    melds: int,
    meld_tiles: tuple[int, ...],
    pung: bool,
    chow: bool,
) -> int:
    best = shanten_to_win(counts, wilds, melds, pung, chow) + _missing(counts, meld_tiles)
    if melds == 0:
        best = min(best, qidui_shanten(counts, wilds))
    return best


READY_WINS = 0.4
"""The chance a hand 听 on a few tiles goes on to win (the rule bot's self-play: about half
its 听 hands win)."""
STEP_ODDS = 2.5
"""How many times less likely a hand a step further from 听 is to win."""
WAYS = 20
"""The 进张 at which a hand is half a step nearer (``u / (u + WAYS)`` of a step)."""
MOST_LIKELY = 0.65
"""The chance no hand is given beyond: a win on offer pays more than the hand is worth
waiting on (自摸 doubles every payment; a seat that lets a 点炮 go by wins half as often,
过胡)."""
WIN_PAY = 2.0
"""What each loser pays on average per 2^(fans the hand holds for sure, 庄, 闭门): 点炮 and
自摸 double a payment half the time, and a hand picks up a fan on its way a third of the
time (二八将, 三叉, 七对 …)."""
LOSS_PAY = 3.5
"""What the seat pays on average when another seat wins, per 2^(that seat's fans in view:
站立, 枪 in its melds, its kongs; and 庄), an open seat (a closed one pays twice): the fans
out of view, about one, and 点炮 and 自摸 as for :data:`WIN_PAY`."""


@dataclass(frozen=True)
class Stakes:
    """What a hand's end is worth to its seat at this table, before its own fans:
    ``win``, the sum over the other seats of 2^(庄 + 闭门) (what they pay per 2^fan of
    its win, ×:data:`WIN_PAY`); ``loss``, the mean over them of 2^(their fans in view +
    庄) (what it pays, open, per :data:`LOSS_PAY`, when one of them wins)."""

    win: float
    loss: float


def sure_fans(
    counts: Sequence[int], wilds: int, melds: Sequence[Meld], qiang: Collection[int]
) -> int:
    """The fans a hand holds whatever it wins with: each 枪 tile, 站立 (no open meld),
    穷胡 (no 混), 大哥大 (three of a dragon, natural) and each kong."""
    fans = sum(counts[q] for q in qiang) + sum(1 for m in melds for t in m.tiles if t in qiang)
    fans += not any(m.is_open for m in melds)
    fans += wilds == 0
    shown = [m.tiles[0] for m in melds if m.kind != "chi"]
    fans += sum(1 for d in DRAGONS if counts[d] >= 3 or d in shown)
    return fans + sum(1 for m in melds if m.is_kong)


def worth(
    tiles: Sequence[int],
    hun: Collection[int],
    melds: Sequence[Meld],
    qiang: Collection[int],
    unseen: Sequence[int],
    stakes: Stakes,
    passed: bool = False,
) -> float:
    """What the concealed ``tiles`` (the ``hun`` kinds wild) with ``melds`` are worth to
    their seat (see the module docs): ``p × (win + loss) - loss``, where ``p`` is the
    chance the hand wins, :data:`READY_WINS` × :data:`STEP_ODDS` to the power of minus its
    distance (its :func:`steps` less ``u / (u + WAYS)`` for its ``u`` 进张, the copies in
    ``unseen`` that take a step off), ``win`` what its win pays (:data:`WIN_PAY` ×
    ``stakes.win`` × 2^:func:`sure_fans`, ``qiang`` the 枪 kinds) and ``loss`` what it
    pays when another wins (:data:`LOSS_PAY` × ``stakes.loss``, twice closed). ``passed``:
    the seat has let a win go by (过胡) and wins on no discard until its next draw, so half
    as often."""
    counts, wilds = kind_counts(tiles, hun)
    far = steps(counts, wilds, melds)
    ways = 0
    for k in range(34):
        if not unseen[k]:
            continue
        if k in hun:
            ways += unseen[k]
            continue
        counts[k] += 1
        if steps(counts, wilds, melds) < far:
            ways += unseen[k]
        counts[k] -= 1
    chance = min(MOST_LIKELY, READY_WINS * math.pow(STEP_ODDS, ways / (ways + WAYS) - far))
    if passed:
        chance /= 2
    win = WIN_PAY * stakes.win * (1 << sure_fans(counts, wilds, melds, qiang))
    loss = LOSS_PAY * stakes.loss * (1 if any(m.is_open for m in melds) else 2)
    return chance * (win + loss) - loss
