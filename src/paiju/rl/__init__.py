"""paiju.rl: PettingZoo environments for every playable game, with exact action masks.

>>> import paiju.rl
>>> env = paiju.rl.env("sandaha")
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs)
['action_mask', 'observation']

* :func:`env` - the AEC environment of a catalogue code (:class:`~paiju.rl.env.PaijuAEC`);
* :func:`parallel_env` - the parallel environment where seats decide at once (十三张, 宝子,
  佳佳宝; :class:`~paiju.rl.env.PaijuParallel`);
* :func:`vector_env` - N games of one code stepped together, observations and masks
  written into arrays made once (:class:`~paiju.rl.vector.PaijuVectorEnv`);
* :func:`opponents` and :class:`SingleAgentEnv` - the family bots, and one learning seat
  against them as a Gymnasium environment;
* :mod:`paiju.rl.cardseq` - the generic card-choice sequence encoding (choose a multiset
  of cards, then done or pass), and :mod:`paiju.rl.registry`, one encoder per family.

Options of both constructors: ``seats``, ``hands`` (1, N, None for the game's match, or
``"default"``: one hand, 打弹子's whole match),
``context`` (the first hand's context: banker, first bidder), ``max_cycles``,
``render_mode`` (``ansi`` or ``human``); any other keyword is a room option of the game
(``stake``, ``min_bet`` …). See ``docs/rl.md`` for every family's observation and actions.
"""

from __future__ import annotations

from typing import Any

from paiju.rl.env import PaijuAEC, PaijuParallel
from paiju.rl.registry import ENCODERS
from paiju.rl.single import SingleAgentEnv, opponents
from paiju.rl.vector import PaijuVectorEnv

__all__ = [
    "ENCODERS",
    "PaijuAEC",
    "PaijuParallel",
    "PaijuVectorEnv",
    "SingleAgentEnv",
    "env",
    "opponents",
    "parallel_env",
    "vector_env",
]


def env(code: str, **options: Any) -> PaijuAEC:
    """The PettingZoo AEC environment of a catalogue code (see the module docs)."""
    return PaijuAEC(code, **options)


def parallel_env(code: str, **options: Any) -> PaijuParallel:
    """The PettingZoo parallel environment of a code whose seats decide at once."""
    return PaijuParallel(code, **options)


def vector_env(code: str, num_envs: int, **options: Any) -> PaijuVectorEnv:
    """``num_envs`` games of a code stepped together (:class:`PaijuVectorEnv`)."""
    return PaijuVectorEnv(code, num_envs, **options)
