"""The catalogue of variants, as data.

Every game and variant of ``rules/CATALOG.md`` is an entry of a TOML file in this folder
(``[[variant]]`` tables), loaded into a frozen, validated :class:`Variant`. The family's
own rule parameters (``[variant.params]``) stay a plain mapping here: the catalogue is the
bottom layer and knows no family. The family's params model validates them
(:meth:`Variant.params_as`, called by :class:`~paiju.engine.Game` and by the family
registry :mod:`paiju.games`, which checks every entry's family and params), so a new variant
of an existing family is a TOML entry, not Python.

Users add their own files with ``--variants FILE`` on every command, or by listing files
in the ``PAIJU_VARIANTS`` environment variable (separated by ``os.pathsep``). A user entry
with the code of a built-in one replaces it. A server also holds the house variants its
operator added in the console (:func:`set_house_variants`, read from its database).

>>> v = find_variant("1301")
>>> v.name_zh, v.family, v.players, v.deck
('比大小13张', 'shisanzhang', (2, 4), '52')
>>> find_variant("百变13张").code
'1304'
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from paiju.errors import CatalogError, UnknownVariant

__all__ = [
    "ENV_VAR",
    "Variant",
    "add_variant_file",
    "catalog",
    "find_variant",
    "house_variants",
    "load_file",
    "set_house_variants",
    "variants",
]

P = TypeVar("P", bound=BaseModel)

ENV_VAR = "PAIJU_VARIANTS"
DECK_NAMES = ("52", "54", "40", "92", "108", "136")


@dataclass(frozen=True)
class Variant:
    """One catalogue entry: a game code with its names, players, deck and rule parameters."""

    code: str
    name_zh: str
    name_en: str
    family: str
    players: tuple[int, int]
    deck: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    """The entry's ``[variant.params]`` as written; :meth:`params_as` validates them."""
    aliases: tuple[str, ...] = ()
    source: str = ""
    rules_zh: str = ""
    rules_en: str = ""
    reading_zh: str = ""
    """Our reading of the rules in Chinese (规则说明), the Chinese twin of ``rules_en``."""
    file: str = field(default="", compare=False)

    @property
    def items_kind(self) -> Literal["cards", "tiles"]:
        return "tiles" if self.deck == "136" else "cards"

    def params_as(self, model: type[P]) -> P:
        """The params validated by the family's ``model`` (built once per variant and model);
        raises CatalogError naming the file, the entry and the field."""
        typed: P = _typed_params(self, model)
        return typed

    def to_json(self, model: type[BaseModel] | None = None) -> dict[str, Any]:
        """The entry as JSON; with the family's params ``model``, its params with defaults."""
        params: Any = dict(self.params)
        if model is not None:
            params = self.params_as(model).model_dump(mode="json")
        return {
            "code": self.code,
            "name_zh": self.name_zh,
            "name_en": self.name_en,
            "family": self.family,
            "players": list(self.players),
            "deck": self.deck,
            "aliases": list(self.aliases),
            "source": self.source,
            "params": params,
        }


class _Entry(BaseModel):
    """The common fields of an entry (the family validates ``params``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    code: str = Field(min_length=1, pattern=r"^[0-9A-Za-z][0-9A-Za-z_-]*$")
    name_zh: str = Field(min_length=1)
    name_en: str = Field(min_length=1)
    family: str
    players: tuple[int, int]
    deck: Literal["52", "54", "40", "92", "108", "136"]
    aliases: tuple[str, ...] = ()
    source: str = ""
    rules_zh: str = ""
    rules_en: str = ""
    reading_zh: str = ""
    params: dict[str, Any] = {}


def _explain(exc: ValidationError, where: str, prefix: str = "") -> CatalogError:
    problems = "; ".join(
        f"field {prefix}{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
        for err in exc.errors()
    )
    return CatalogError(f"{where}: {problems}")


@cache
def _typed_params(variant: Variant, model: type[P]) -> P:
    where = f"{variant.file or 'catalogue'}: entry {variant.code!r}"
    try:
        typed: P = model.model_validate(dict(variant.params))
        return typed
    except ValidationError as exc:
        raise _explain(exc, where, "params.") from None
    except ValueError as exc:
        raise CatalogError(f"{where}: field params: {exc}") from None


def _validate(raw: Mapping[str, Any], file: str, index: int) -> Variant:
    label = raw.get("code", f"#{index + 1}")
    where = f"{file}: entry {label!r}"
    try:
        entry = _Entry.model_validate(raw)
    except ValidationError as exc:
        raise _explain(exc, where) from None
    low, high = entry.players
    if not 1 <= low <= high <= 16:
        raise CatalogError(
            f"{where}: field players: expected [min, max], got {list(entry.players)}"
        )
    return Variant(
        code=entry.code,
        name_zh=entry.name_zh,
        name_en=entry.name_en,
        family=entry.family,
        players=entry.players,
        deck=entry.deck,
        params=dict(entry.params),
        aliases=entry.aliases,
        source=entry.source,
        rules_zh=entry.rules_zh.strip(),
        rules_en=entry.rules_en.strip(),
        reading_zh=entry.reading_zh.strip(),
        file=file,
    )


def load_file(path: str | Path, text: str | None = None) -> tuple[Variant, ...]:
    """Load and validate one catalogue file; raises CatalogError naming file, entry, field."""
    name = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8") if text is None else text)
    except OSError as exc:
        raise CatalogError(f"{name}: cannot read the variant file: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{name}: not valid TOML: {exc}") from None
    unknown = set(data) - {"variant"}
    if unknown:
        raise CatalogError(
            f"{name}: unknown top-level key {', '.join(sorted(unknown))}; "
            "a variant file holds [[variant]] tables"
        )
    entries = data.get("variant", [])
    if not isinstance(entries, list):
        raise CatalogError(f"{name}: 'variant' must be an array of tables ([[variant]])")
    return tuple(_validate(raw, name, i) for i, raw in enumerate(entries))


_extra_files: list[str] = []


def add_variant_file(path: str | Path) -> None:
    """Add a user's variant file to the catalogue (what ``--variants FILE`` does)."""
    load_file(path)  # fail now, with the file's own error
    _extra_files.append(str(path))
    _load.cache_clear()


def _env_files() -> tuple[str, ...]:
    value = os.environ.get(ENV_VAR, "")
    return tuple(p for p in value.split(os.pathsep) if p)


@cache
def _builtin() -> tuple[Variant, ...]:
    found: list[Variant] = []
    folder = resources.files(__name__)
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".toml"):
            found.extend(load_file(f"paiju/catalog/{item.name}", item.read_text("utf-8")))
    return tuple(found)


_house: tuple[Variant, ...] = ()


def set_house_variants(found: Iterable[Variant]) -> None:
    """The house variants (自定义玩法) an operator added in a server's console: entries
    after the built-in ones and the user's files, kept for the process's life (a server
    sets them from its database and again whenever they change)."""
    global _house
    _house = tuple(found)
    _load.cache_clear()


def house_variants() -> tuple[Variant, ...]:
    """The house variants set by :func:`set_house_variants`."""
    return _house


@cache
def _load(extra: tuple[str, ...], house: tuple[Variant, ...] = ()) -> tuple[Variant, ...]:
    by_code: dict[str, Variant] = {}
    for variant in _builtin():
        if variant.code in by_code:
            raise CatalogError(f"{variant.file}: entry {variant.code!r}: duplicate code")
        by_code[variant.code] = variant
    for path in extra:
        for variant in load_file(path):
            by_code[variant.code] = variant
    for variant in house:
        by_code.setdefault(variant.code, variant)
    _check_aliases(by_code.values())
    return tuple(by_code.values())


def _check_aliases(variants: Iterable[Variant]) -> None:
    seen: dict[str, str] = {}
    for v in variants:
        for name in (v.code, *v.aliases):
            if seen.get(name, v.code) != v.code:
                raise CatalogError(
                    f"{v.file}: entry {v.code!r}: field aliases: {name!r} is already {seen[name]!r}"
                )
            seen[name] = v.code


def variants() -> tuple[Variant, ...]:
    """Every variant: built-in entries, then the user's files (env var, ``--variants``).

    The public name is ``paiju.variants()``: ``paiju.catalog`` is this package.
    """
    return _load((*_env_files(), *_extra_files), _house)


catalog = variants
"""The former name of :func:`variants`, kept for ``from paiju.catalog import catalog``."""


def find_variant(code: str) -> Variant:
    """The variant with this code or alias; raises UnknownVariant listing close codes."""
    every = variants()
    for v in every:
        if code == v.code or code in v.aliases:
            return v
    close = [v.code for v in every if v.code.startswith(code[:2])] or [v.code for v in every]
    raise UnknownVariant(
        f"unknown game code {code!r}; try `paiju catalog` (codes like {', '.join(close[:8])})"
    )
