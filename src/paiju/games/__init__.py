"""The game families and the registry that turns a catalogue code into a :class:`Game`.

Each family is a package under ``paiju.games``. :data:`FAMILIES` names, for each family of
the catalogue, where its pieces live, as ``"module:attribute"`` paths imported only when
needed (a family's rule tables are not built by merely loading the catalogue):

* ``spec`` - the pydantic model of the family's ``[variant.params]``;
* ``game`` - the :class:`~paiju.engine.Game` subclass, called as ``cls(variant, options)``;
* ``bot`` - the family's bot class, called as ``cls(game, seed)``; without one the
  random legal bot plays;
* ``terminal`` - the family's terminal table for ``paiju play`` (a class called as
  ``cls(game, console)`` with ``show(state, seat)`` and ``ask(state, seat) -> Action``);
  without one ``paiju play`` shows the view and numbers the legal actions;
* ``odds`` - ``odds(variant) -> dict`` for ``paiju odds CODE`` and :func:`paiju.odds`,
  and ``format_odds`` beside it (same module) for the human-readable table.

A family whose ``game`` is None is catalogued but not playable yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from paiju.errors import NotImplementedFamily

if TYPE_CHECKING:
    from paiju.bots import Bot
    from paiju.engine import Game

__all__ = ["FAMILIES", "Family", "family_spec", "game", "make_bot", "resolve"]


@dataclass(frozen=True)
class Family:
    """Where a family's spec model, game class and bot live."""

    name_zh: str
    name_en: str
    spec: str | None = None
    game: str | None = None
    bot: str | None = None
    terminal: str | None = None
    odds: str | None = None


FAMILIES: dict[str, Family] = {
    "shisanzhang": Family(
        "十三张",
        "Thirteen cards",
        spec="paiju.games.shisanzhang.spec:ShisanzhangParams",
        game="paiju.games.shisanzhang.game:ShisanzhangGame",
        bot="paiju.games.shisanzhang.bot:ShisanzhangBot",
        terminal="paiju.games.shisanzhang.terminal:ShisanzhangTable",
        odds="paiju.games.shisanzhang.odds",
    ),
    "baozi": Family(
        "宝子",
        "Baozi (two-card points)",
        spec="paiju.games.baozi.spec:BaoziParams",
        game="paiju.games.baozi.game:BaoziGame",
        bot="paiju.games.baozi.bot:BaoziBot",
        terminal="paiju.games.baozi.terminal:BaoziTable",
        odds="paiju.games.baozi.odds",
    ),
    "jiajiabao": Family(
        "佳佳宝",
        "Jiajiabao (four cards, two groups)",
        spec="paiju.games.baozi.spec:JiajiabaoParams",
        game="paiju.games.baozi.game:JiajiabaoGame",
        bot="paiju.games.baozi.bot:BaoziBot",
        terminal="paiju.games.baozi.terminal:BaoziTable",
        odds="paiju.games.baozi.odds",
    ),
    "danzi": Family("打弹子", "Danzi (climbing, 2 vs 2)"),
    "sandaha": Family(
        "三打哈",
        "Sandaha (three against one)",
        spec="paiju.games.sandaha.spec:SandahaParams",
        game="paiju.games.sandaha.game:SandahaGame",
        bot="paiju.games.sandaha.bot:SandahaBot",
        terminal="paiju.games.sandaha.terminal:SandahaTable",
    ),
    "jiayibing": Family("甲乙丙", "Jiayibing (six players, 3 vs 3)"),
    "fangyang": Family("放羊", "Fangyang (called partner)"),
    "majiang": Family(
        "麻将",
        "Mahjong",
        game="paiju.games.majiang.game:MajiangGame",
    ),
}


def resolve(path: str) -> Any:
    """Import ``"package.module:attribute"`` and return the attribute."""
    module, _, attr = path.partition(":")
    return getattr(import_module(module), attr)


@cache
def family_spec(family: str) -> type[BaseModel] | None:
    """The pydantic model of a family's variant params, None until the family has one."""
    path = FAMILIES[family].spec
    if path is None:
        return None
    spec: type[BaseModel] = resolve(path)
    return spec


def game(code: str, /, **options: Any) -> Game:
    """The playable game of a catalogue code, with room options.

    Raises UnknownVariant for an unknown code and NotImplementedFamily for a family whose
    engine is not built yet.
    """
    from paiju.catalog import find_variant

    variant = find_variant(code)
    family = FAMILIES[variant.family]
    if family.game is None:
        raise NotImplementedFamily(
            f"{variant.code} ({variant.name_zh}) belongs to the {family.name_zh} family,"
            " whose engine is not built yet"
        )
    cls = resolve(family.game)
    result: Game = cls(variant, options)
    return result


def make_bot(game_: Game, seed: int = 0) -> Bot:
    """The family's own bot for ``game_`` (the random legal bot where there is none)."""
    from paiju.bots import RandomBot

    path = FAMILIES[game_.variant.family].bot
    if path is None:
        return RandomBot(game_, seed)
    bot: Bot = resolve(path)(game_, seed)
    return bot
