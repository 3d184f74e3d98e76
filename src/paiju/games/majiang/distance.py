"""How far a 鞍山麻将 hand is from 胡, as the rule bot counts it (:mod:`.bot`) and a search
values a hand it cuts short (:meth:`~paiju.games.majiang.game.MajiangState.estimate`).

:func:`evaluate` is the 向听数 with the text's conditions (a missing 门 or no natural 幺九
costs a step; 七对 needs neither); :func:`distance` takes off a fraction under one step
for the hand's 进张, so that of two hands as many steps away the one with more ways on is
nearer.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence

from paiju.games.majiang.rules import kind_counts
from paiju.games.majiang.shanten import qidui_shanten, shanten

__all__ = ["distance", "evaluate"]


def evaluate(counts: Sequence[int], wilds: int, melds: int, meld_tiles: Sequence[int]) -> int:
    """向听数 plus a step per missing 门 and one for no natural 幺九 (七对 needs neither).

    A pure function of its arguments, cached: the discard search asks about the same
    hands over and over (each discard, then each tile it could draw).
    """
    return _evaluate(tuple(counts), wilds, melds, tuple(meld_tiles))


@functools.lru_cache(maxsize=1 << 16)
def _evaluate(counts: tuple[int, ...], wilds: int, melds: int, meld_tiles: tuple[int, ...]) -> int:
    s = shanten(counts, wilds, melds, qidui=False)
    suits = {t // 9 for t in meld_tiles if t < 27}
    suits |= {k for k in range(3) if any(counts[9 * k : 9 * k + 9])}
    penalty = 3 - len(suits)
    yaojiu = any(counts[k] for k in (0, 8, 9, 17, 18, 26)) or any(counts[27:34])
    yaojiu = yaojiu or any(t in (0, 8, 9, 17, 18, 26) or t >= 27 for t in meld_tiles)
    if not yaojiu:
        penalty += 1
    best = s + penalty
    if melds == 0:
        best = min(best, qidui_shanten(counts, wilds))
    return best


def distance(
    tiles: Sequence[int],
    hun: Collection[int],
    melds: int,
    meld_tiles: Sequence[int],
    unseen: Sequence[int],
) -> float:
    """:func:`evaluate` of the concealed ``tiles`` (the ``hun`` kinds wild) with ``melds``
    melds of ``meld_tiles``, less ``u / (u + 20)`` for its ``u`` 进张: the copies in
    ``unseen`` (per kind, what the seat has not seen) that would take a step off."""
    counts, wilds = kind_counts(tiles, hun)
    value = evaluate(counts, wilds, melds, meld_tiles)
    gain = 0
    for k in range(34):
        if not unseen[k]:
            continue
        if k in hun:
            gain += unseen[k]
            continue
        counts[k] += 1
        if evaluate(counts, wilds, melds, meld_tiles) < value:
            gain += unseen[k]
        counts[k] -= 1
    return value - gain / (gain + 20)
