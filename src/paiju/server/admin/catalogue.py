"""The house's catalogue (上架的游戏): which games new rooms may be made of, the game options
a new room takes when it names none, the choices a room form offers, and the house
variants (自定义玩法) an operator added from a TOML file - all kept in the database and
read by every server without a restart.

A server holds the settings in memory (:class:`HouseCatalogue`), so that making a room
asks nothing of the database: :meth:`HouseCatalogue.offer` refuses a game turned off
(``game_off``, 409), fills the defaults and refuses a value the house does not offer
(``option_not_offered``). Every server reads the settings again every
:data:`CATALOGUE_SECONDS` (one small query finds whether anything changed), so a change
made on one node, or by ``paiju admin catalogue`` in another process, holds on every node
within that; the node that made the change holds it at once.

A house variant is a ``[[variant]]`` entry of the catalogue's own TOML form
(:func:`paiju.catalog.load_file`), checked by its family (:func:`paiju.games.check_variant`)
and by making its game, with a code no entry has yet. Once added it never changes (its
hands replay and prove as they were played); to change one, add another code and turn
the old one off.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, insert, select, update

from paiju.catalog import Variant, house_variants, load_file, set_house_variants, variants
from paiju.errors import CatalogError, PaijuError
from paiju.server.accounts import audit
from paiju.server.admin import tables as s
from paiju.server.errors import ServerError
from paiju.server.store import Store, off_loop

__all__ = [
    "CATALOGUE_SECONDS",
    "MAX_HOUSE_TEXT",
    "GameSetting",
    "HouseCatalogue",
    "check_house_text",
    "preload_house",
]

log = logging.getLogger("paiju.server")

CATALOGUE_SECONDS = 2.0
"""How often a server looks for changes of the catalogue's settings."""
MAX_HOUSE_TEXT = 200_000
"""The longest house variant file taken (characters)."""
MAX_CHOICES = 20


@dataclass(frozen=True)
class GameSetting:
    """The house's setting of one game: on or off, its default game options, and per
    option the values a room may take (an option not named takes any the game allows)."""

    code: str
    enabled: bool = True
    defaults: Mapping[str, Any] = field(default_factory=dict)
    choices: Mapping[str, list[Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "enabled": self.enabled,
            "defaults": dict(self.defaults),
            "choices": {k: list(v) for k, v in self.choices.items()},
        }


def _game_of(code: str, options: Mapping[str, Any]) -> Any:
    from paiju.games import game

    return game(code, **dict(options))


def _options_of(code: str) -> dict[str, Any]:
    """The game options a room of ``code`` takes by the game's own defaults."""
    try:
        found: dict[str, Any] = dict(_game_of(code, {}).room_options)
    except PaijuError:
        return {}
    return found


def check_house_text(name: str, text: str) -> tuple[Variant, ...]:
    """The entries of a house variant file, checked: valid TOML of ``[[variant]]`` tables,
    each of a known family with its params, playable, with a code (and aliases) no entry
    of the catalogue has yet; raises CatalogError naming the file, the entry and the field."""
    from paiju.games import FAMILIES, check_variant

    if len(text) > MAX_HOUSE_TEXT:
        raise CatalogError(f"{name}: a house variant file is at most {MAX_HOUSE_TEXT} characters")
    found = load_file(name, text)
    if not found:
        raise CatalogError(f"{name}: no [[variant]] entry in the file")
    taken = {n for v in variants() for n in (v.code, *v.aliases)}
    seen: set[str] = set()
    for v in found:
        where = f"{name}: entry {v.code!r}"
        for given in (v.code, *v.aliases):
            if given in taken or given in seen:
                raise CatalogError(
                    f"{where}: the code or alias {given!r} is taken; a house variant has a new"
                    " code (it never replaces an entry: old hands replay as they were played)"
                )
            seen.add(given)
        check_variant(v)
        if FAMILIES[v.family].game is None:
            raise CatalogError(f"{where}: field family: the {v.family} family cannot be played yet")
    return found


def _house_of(rows: list[Any]) -> tuple[Variant, ...]:
    """The stored house variants as catalogue entries (an entry that no longer loads - a
    family changed since - is left out and logged, not fatal)."""
    wanted = {r.code for r in rows}
    out: dict[str, Variant] = {}
    for name, text in dict.fromkeys((r.name, r.text) for r in rows):
        try:
            for v in load_file(f"house:{name}", text):
                if v.code in wanted:
                    out.setdefault(v.code, v)
        except CatalogError as exc:
            log.error("a house variant file cannot be loaded: %s", exc)
    return tuple(out.values())


def preload_house(db: str) -> None:
    """Set the house variants of database ``db`` before a cluster node takes its rooms
    (blocking; nothing on a database without them yet: the node's store migrates it)."""
    from sqlalchemy import create_engine
    from sqlalchemy.exc import SQLAlchemyError

    from paiju.server.store import database_url

    engine = create_engine(database_url(db))
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(s.house_variants).order_by(s.house_variants.c.id)).all()
    except SQLAlchemyError:
        return
    finally:
        engine.dispose()
    set_house_variants(_house_of(list(rows)))


class HouseCatalogue:
    """The catalogue's settings on one database, held in memory for making rooms."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.settings: dict[str, GameSetting] = {}
        self.house: dict[str, str] = {}
        """House variant codes and the name of the file each came from."""
        self._version: tuple[Any, ...] | None = None
        self._task: asyncio.Task[None] | None = None

    # -- reading -----------------------------------------------------------------------

    def _version_now(self, conn: Any) -> tuple[Any, ...]:
        games = conn.execute(
            select(func.count(), func.max(s.catalogue_games.c.updated_at)).select_from(
                s.catalogue_games
            )
        ).one()
        house = conn.execute(
            select(func.count(), func.max(s.house_variants.c.id)).select_from(s.house_variants)
        ).one()
        return (*games, *house)

    def refresh(self, force: bool = False) -> bool:
        """Read the settings again if they changed (blocking); whether they had."""
        with self.store.engine.connect() as conn:
            version = self._version_now(conn)
            if version == self._version and not force:
                return False
            games = conn.execute(select(s.catalogue_games)).all()
            house = conn.execute(select(s.house_variants).order_by(s.house_variants.c.id)).all()
        codes = {r.code: r.name for r in house}
        if force or set(codes) != {v.code for v in house_variants()}:
            set_house_variants(_house_of(list(house)))
        self.house = codes
        self.settings = {
            r.code: GameSetting(
                r.code, bool(r.enabled), dict(r.defaults or {}), dict(r.choices or {})
            )
            for r in games
        }
        self._version = version
        return True

    async def start(self) -> None:
        """Read the settings now, then every :data:`CATALOGUE_SECONDS`."""
        await off_loop(self.store, self.refresh, True)
        self._task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, 2.0)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(CATALOGUE_SECONDS)
            try:
                await off_loop(self.store, self.refresh)
            except Exception as exc:  # the database does not answer: the next round tries
                log.warning("cannot read the catalogue's settings just now: %r", exc)

    def setting(self, code: str) -> GameSetting:
        return self.settings.get(code) or GameSetting(code)

    def entries(self) -> list[dict[str, Any]]:
        """Every catalogue entry with the house's setting (the console's list)."""
        from paiju.games import FAMILIES

        out = []
        for v in variants():
            if v.family not in FAMILIES:
                continue
            playable = FAMILIES[v.family].game is not None
            out.append(
                {
                    "code": v.code,
                    "name_zh": v.name_zh,
                    "name_en": v.name_en,
                    "family": v.family,
                    "playable": playable,
                    "house": v.code in self.house,
                    "options": _options_of(v.code) if playable else {},
                    **self.setting(v.code).to_json(),
                }
            )
        return out

    # -- making a room -----------------------------------------------------------------

    def offer(self, code: str, game_options: Mapping[str, Any]) -> dict[str, Any]:
        """The game options of a new room of ``code`` as the house offers it: the defaults
        filled in; ``game_off`` (409) for a game turned off, ``option_not_offered`` for a
        value the room form does not offer."""
        from paiju.catalog import find_variant

        variant = find_variant(code)
        setting = self.setting(variant.code)
        if not setting.enabled:
            raise ServerError(
                "game_off",
                f"{variant.code} ({variant.name_zh}) is not offered on this server just now",
                409,
                name_zh=variant.name_zh,
                name_en=variant.name_en,
            )
        out = {**setting.defaults, **game_options}
        for key, allowed in setting.choices.items():
            if key in out and out[key] not in allowed:
                raise ServerError(
                    "option_not_offered",
                    f"{variant.code}: {key} may be {', '.join(map(str, allowed))} on this"
                    f" server, not {out[key]!r}",
                    key=key,
                )
        return out

    # -- changing ----------------------------------------------------------------------

    def set_game(
        self,
        code: str,
        by: str,
        *,
        enabled: bool | None = None,
        defaults: Mapping[str, Any] | None = None,
        choices: Mapping[str, list[Any]] | None = None,
        address: str | None = None,
    ) -> dict[str, Any]:
        """Change one game's setting (audited; what is not given stays); the new setting.
        The defaults and every choice are checked by making the game with them."""
        from paiju.catalog import find_variant

        variant = find_variant(code)
        old = self.setting(variant.code)
        new = GameSetting(
            variant.code,
            old.enabled if enabled is None else enabled,
            dict(old.defaults if defaults is None else defaults),
            {k: list(v) for k, v in (old.choices if choices is None else choices).items()},
        )
        _check_setting(new)
        now = self.store.clock()
        values = {
            "enabled": new.enabled,
            "defaults": dict(new.defaults),
            "choices": dict(new.choices),
            "by": by,
            "updated_at": now,
        }
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(s.catalogue_games)
                .where(s.catalogue_games.c.code == variant.code)
                .values(**values)
            ).rowcount
            if not done:
                conn.execute(insert(s.catalogue_games).values(code=variant.code, **values))
            audit.record(
                conn,
                at=now,
                actor=by,
                action="catalogue",
                target=None,
                reason=f"game {variant.code}",
                address=address,
                detail={"code": variant.code, **new.to_json()},
            )
        self.refresh(force=True)
        return {"code": variant.code, **new.to_json()}

    def add_house(
        self, name: str, text: str, by: str, address: str | None = None
    ) -> list[dict[str, Any]]:
        """Add the house variants of a TOML file (checked: :func:`check_house_text`;
        audited); they are offered at once here and on every node within seconds."""
        name = (name.strip() or "house.toml")[:200]
        found = check_house_text(name, text)
        for v in found:
            try:
                _check_playable(v)
            except PaijuError as exc:
                raise CatalogError(f"{name}: entry {v.code!r}: {exc}") from None
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            for v in found:
                conn.execute(
                    insert(s.house_variants).values(
                        code=v.code, name=name, text=text, by=by, added_at=now
                    )
                )
            audit.record(
                conn,
                at=now,
                actor=by,
                action="house_variant",
                target=None,
                reason=f"added {', '.join(v.code for v in found)} from {name}",
                address=address,
                detail={"codes": [v.code for v in found], "file": name},
            )
        self.refresh(force=True)
        return [{"code": v.code, "name_zh": v.name_zh, "name_en": v.name_en} for v in found]


def _check_playable(variant: Variant) -> None:
    """Make the game of a house variant before it is stored (its params must build)."""
    from paiju.games import FAMILIES, resolve

    cls = resolve(FAMILIES[variant.family].game or "")
    cls(variant, {})


def _check_setting(setting: GameSetting) -> None:
    """The defaults and every offered value make the game (the game's own check)."""
    try:
        _game_of(setting.code, setting.defaults)
        for key, allowed in setting.choices.items():
            if not allowed or len(allowed) > MAX_CHOICES:
                raise ServerError(
                    "bad_request", f"{key}: offer 1 to {MAX_CHOICES} values, not {len(allowed)}"
                )
            for value in allowed:
                _game_of(setting.code, {**setting.defaults, key: value})
            if key in setting.defaults and setting.defaults[key] not in allowed:
                raise ServerError(
                    "bad_request", f"{key}: the default {setting.defaults[key]!r} is not offered"
                )
    except ServerError:
        raise
    except PaijuError as exc:
        raise ServerError("bad_game_options", str(exc)) from None
