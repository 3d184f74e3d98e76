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

This registry is the top of the stack: it imports the catalogue (:mod:`paiju.catalog`)
and the engine (:mod:`paiju.engine`); neither of them, nor any family, imports it back.
Adding a family is its own package plus one :data:`FAMILIES` entry. The catalogue keeps a
variant's params as written; :func:`check_variant` (run by :func:`game`, ``paiju catalog``
and ``--variants FILE``) validates the family and the params against the family's model.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from paiju.catalog import Variant, find_variant, variants
from paiju.errors import CatalogError, NotImplementedFamily

if TYPE_CHECKING:
    from paiju.bots import Bot
    from paiju.engine import Action, Game, Record, State

__all__ = [
    "FAMILIES",
    "SAMPLE_CODES",
    "Family",
    "advice",
    "check_catalog",
    "check_variant",
    "family_spec",
    "game",
    "make_bot",
    "read_record",
    "replay",
    "resolve",
    "rule_bot",
    "suggestions",
    "variant_json",
]


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
    search: bool = False
    """Whether the 困难 level searches (the trick, climbing and tile games); elsewhere it is
    the rule bot, whose choice already weighs every hand the others may hold."""
    search_policy: str | None = None
    """The bot the 困难 search proposes and rolls out with, where it is not the rule bot."""
    appraise: str | None = None
    """The family's own 复盘 of a decision (exact, or against the whole field), where the
    search's rollouts are not the best measure (:mod:`paiju.appraisal`)."""


FAMILIES: dict[str, Family] = {
    "shisanzhang": Family(
        "十三张",
        "Thirteen cards",
        spec="paiju.games.shisanzhang.spec:ShisanzhangParams",
        game="paiju.games.shisanzhang.game:ShisanzhangGame",
        bot="paiju.games.shisanzhang.bot:ShisanzhangBot",
        terminal="paiju.games.shisanzhang.terminal:ShisanzhangTable",
        odds="paiju.games.shisanzhang.odds",
        appraise="paiju.appraisal.shisanzhang:appraise",
    ),
    "baozi": Family(
        "宝子",
        "Baozi (two-card points)",
        spec="paiju.games.baozi.spec:BaoziParams",
        game="paiju.games.baozi.game:BaoziGame",
        bot="paiju.games.baozi.bot:BaoziBot",
        terminal="paiju.games.baozi.terminal:BaoziTable",
        odds="paiju.games.baozi.odds",
        appraise="paiju.appraisal.baozi:appraise",
    ),
    "jiajiabao": Family(
        "佳佳宝",
        "Jiajiabao (four cards, two groups)",
        spec="paiju.games.baozi.spec:JiajiabaoParams",
        game="paiju.games.baozi.game:JiajiabaoGame",
        bot="paiju.games.baozi.bot:BaoziBot",
        terminal="paiju.games.baozi.terminal:BaoziTable",
        odds="paiju.games.baozi.odds",
        appraise="paiju.appraisal.baozi:appraise",
    ),
    "danzi": Family(
        "打弹子",
        "Danzi (climbing, 2 vs 2)",
        game="paiju.games.danzi.game:DanziGame",
        bot="paiju.games.danzi.bot:DanziBot",
        search=True,
        terminal="paiju.games.danzi.terminal:DanziTable",
    ),
    "sandaha": Family(
        "三打哈",
        "Sandaha (three against one)",
        spec="paiju.games.sandaha.spec:SandahaParams",
        game="paiju.games.sandaha.game:SandahaGame",
        bot="paiju.games.sandaha.bot:SandahaBot",
        search=True,
        terminal="paiju.games.sandaha.terminal:SandahaTable",
    ),
    "jiayibing": Family(
        "甲乙丙",
        "Jiayibing (six players, 3 vs 3)",
        spec="paiju.games.climbing.spec:JiayibingParams",
        game="paiju.games.climbing.jiayibing:JiayibingGame",
        bot="paiju.games.climbing.bot:ClimbingBot",
        terminal="paiju.games.climbing.terminal:ClimbingTable",
        search=True,
    ),
    "fangyang": Family(
        "放羊",
        "Fangyang (called partner)",
        spec="paiju.games.climbing.spec:FangyangParams",
        game="paiju.games.climbing.fangyang:FangyangGame",
        bot="paiju.games.climbing.bot:ClimbingBot",
        terminal="paiju.games.climbing.terminal:ClimbingTable",
        search=True,
    ),
    "majiang": Family(
        "麻将",
        "Mahjong",
        game="paiju.games.majiang.game:MajiangGame",
        bot="paiju.games.majiang.bot:MajiangBot",
        search=True,
        search_policy="paiju.games.majiang.bot:WorthBot",
        terminal="paiju.games.majiang.terminal:MajiangTable",
    ),
}


SAMPLE_CODES: tuple[str, ...] = (
    "1301",
    "2001",
    "2101",
    "sandaha",
    "ningcheng-danzi",
    "anshan-jiayibing",
    "anshan-fangyang",
    "anshan-majiang",
)
"""One catalogue code of each playable family (十三张, 宝子, 佳佳宝, 三打哈, 打弹子, 甲乙丙,
放羊, 麻将): the codes the benches and the family-wide tests play."""


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


def check_variant(variant: Variant) -> Variant:
    """``variant`` if its family is registered and its params fit the family's model;
    raises CatalogError naming the file, the entry and the field."""
    where = f"{variant.file or 'catalogue'}: entry {variant.code!r}"
    if variant.family not in FAMILIES:
        raise CatalogError(
            f"{where}: field family: unknown family {variant.family!r};"
            f" families are {', '.join(FAMILIES)}"
        )
    spec = family_spec(variant.family)
    if spec is not None:
        variant.params_as(spec)
    return variant


def check_catalog(entries: Iterable[Variant] | None = None) -> tuple[Variant, ...]:
    """Check every variant (the whole catalogue by default) with :func:`check_variant`."""
    return tuple(check_variant(v) for v in (variants() if entries is None else entries))


def variant_json(variant: Variant) -> dict[str, Any]:
    """A variant's JSON form with its params completed by the family's defaults, and
    whether it is playable."""
    return {
        **variant.to_json(family_spec(variant.family)),
        "playable": FAMILIES[variant.family].game is not None,
    }


def game(code: str, /, **options: Any) -> Game:
    """The playable game of a catalogue code, with room options.

    Raises UnknownVariant for an unknown code, CatalogError for an entry whose family or
    params do not check, and NotImplementedFamily for a family whose engine is not built yet.
    """
    variant = check_variant(find_variant(code))
    family = FAMILIES[variant.family]
    if family.game is None:
        raise NotImplementedFamily(
            f"{variant.code} ({variant.name_zh}) belongs to the {family.name_zh} family,"
            " whose engine is not built yet"
        )
    cls = resolve(family.game)
    result: Game = cls(variant, options)
    return result


def rule_bot(game_: Game, seed: int = 0) -> Bot:
    """The family's rule bot (普通) for ``game_``; the random legal bot where there is none."""
    from paiju.bots import RandomBot

    path = FAMILIES[game_.variant.family].bot
    if path is None:
        return RandomBot(game_, seed)
    bot: Bot = resolve(path)(game_, seed)
    return bot


def make_bot(game_: Game, seed: int = 0, level: str = "normal") -> Bot:
    """The family's bot for ``game_`` at ``level``: ``easy`` (简单, the rule bot with a
    beginner's slips), ``normal`` (普通, :func:`rule_bot`) or ``hard`` (困难, the search of
    :mod:`paiju.search` where the family has one, the rule bot as its policy unless the
    family names another: :attr:`Family.search_policy`). Chinese names
    work too."""
    from paiju.bots import EasyBot, level_name

    name = level_name(level)
    if name == "easy":
        return EasyBot(game_, seed, rule_bot(game_, seed))
    family = FAMILIES[game_.variant.family]
    if name == "hard" and family.search:
        from paiju.search import SearchBot

        policy = rule_bot if family.search_policy is None else resolve(family.search_policy)
        return SearchBot(game_, seed, policy)
    return rule_bot(game_, seed)


def _bot_choice(state: State, seat: int) -> Action | None:
    """The rule bot's action for ``seat`` where the family's advice starts with it."""
    if not state.advised_by_bot or seat not in state.to_act():
        return None
    return rule_bot(state.game, 0).act(state, seat)


def suggestions(state: State, seat: int, limit: int = 5) -> list[Action]:
    """推荐 for ``seat``: :meth:`~paiju.engine.State.suggestions` with the family's rule
    bot's choice first where the family leads with it (提示 in the clients)."""
    return state.suggestions(seat, limit, _bot_choice(state, seat))


def advice(state: State, seat: int, limit: int = 5) -> list[dict[str, Any]]:
    """:func:`suggestions` as JSON for a player to read (:meth:`~paiju.engine.State.advice`)."""
    return state.advice(seat, limit, _bot_choice(state, seat))


def read_record(obj: Mapping[str, Any]) -> Record:
    """A :class:`~paiju.engine.Record` from its JSON form, its game made from its code."""
    from paiju.engine import Record
    from paiju.errors import ProtocolError

    if not isinstance(obj, Mapping) or not isinstance(obj.get("code"), str):
        raise ProtocolError(f"bad game record: expected an object with a code, got {obj!r}")
    options = obj.get("options", {})
    if not isinstance(options, Mapping):
        raise ProtocolError(f"bad game record: options must be an object, got {options!r}")
    return Record.from_json(obj, game(obj["code"], **options))


def replay(record: Record) -> Iterator[State]:
    """:func:`paiju.engine.replay` of a record, its game made from its code and options."""
    from paiju.engine import replay as engine_replay

    return engine_replay(record, game(record.code, **record.options))
