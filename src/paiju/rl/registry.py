"""The registry of per-family encoders: adding a family's environment is one entry here.

Each entry maps a family name (as in :data:`paiju.games.FAMILIES`) to the
``"module:Class"`` path of its :class:`~paiju.rl.encoding.Encoder`, imported only when
an environment of that family is made.
"""

from __future__ import annotations

from importlib import import_module

from paiju.errors import NotImplementedFamily

__all__ = ["ENCODERS", "encoder_class"]

ENCODERS: dict[str, str] = {
    "shisanzhang": "paiju.rl.shisanzhang:ShisanzhangEncoder",
    "baozi": "paiju.rl.baozi:BaoziEncoder",
    "jiajiabao": "paiju.rl.baozi:BaoziEncoder",
    "sandaha": "paiju.rl.sandaha:SandahaEncoder",
    "majiang": "paiju.rl.majiang:MajiangEncoder",
    "jiayibing": "paiju.rl.climbing:JiayibingEncoder",
    "fangyang": "paiju.rl.climbing:FangyangEncoder",
    "danzi": "paiju.rl.climbing:DanziEncoder",
}


def encoder_class(family: str) -> type:
    """The encoder class of a family; NotImplementedFamily when it has none yet."""
    path = ENCODERS.get(family)
    if path is None:
        raise NotImplementedFamily(f"the {family} family has no RL environment yet")
    module, _, attr = path.partition(":")
    cls: type = getattr(import_module(module), attr)
    return cls
