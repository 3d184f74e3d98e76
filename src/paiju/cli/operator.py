"""``paiju admin catalogue|erase|chat-reports``: the house's catalogue, erasing a player
and the reports of chat lines, on the server's database (the same ``--db`` as
``paiju serve``). A running server (every node of a cluster) reads the catalogue's
changes within seconds (:data:`~paiju.server.admin.catalogue.CATALOGUE_SECONDS`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from paiju.cli.admin import _BY, _DB, _JSON, _REDIS, _tell, admin
from paiju.cli.app import echo_json

__all__ = ["catalogue", "chat_reports", "erase"]


def _store(db: str) -> Any:
    from paiju.server.store import Store

    return Store(db)


def _house(db: str) -> Any:
    from paiju.server.admin.catalogue import HouseCatalogue

    house = HouseCatalogue(_store(db))
    house.refresh(force=True)
    return house


def _json_value(text: str) -> Any:
    """A value as JSON (``3``, ``true``, ``"stay"``), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _pairs(given: tuple[str, ...], what: str) -> dict[str, str]:
    out = {}
    for item in given:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{what} is KEY=VALUE, not {item!r}")
        out[key] = value
    return out


@admin.group()
def catalogue() -> None:
    """The games offered: on or off for new rooms, default options, offered choices,
    house variants."""


@catalogue.command("list")
@_DB
@_JSON
def catalogue_list(db: str, as_json: bool) -> None:
    """Every game with the house's setting."""
    house = _house(db)
    try:
        found = house.entries()
    finally:
        house.store.close()
    if as_json:
        echo_json(found)
        return
    for g in found:
        state = "on " if g["enabled"] else "OFF"
        extra = "".join(
            [
                "  house" if g["house"] else "",
                f"  defaults {json.dumps(g['defaults'])}" if g["defaults"] else "",
                f"  choices {json.dumps(g['choices'])}" if g["choices"] else "",
            ]
        )
        click.echo(f"{state}  {g['code']:<18} {g['name_zh']}{extra}")


def _change(db: str, code: str, by: str, **given: Any) -> dict[str, Any]:
    house = _house(db)
    try:
        done: dict[str, Any] = house.set_game(code, by, **given)
    finally:
        house.store.close()
    return done


@catalogue.command("on")
@click.argument("code")
@_BY
@_DB
def catalogue_on(code: str, by: str, db: str) -> None:
    """Offer CODE for new rooms again."""
    done = _change(db, code, by, enabled=True)
    click.echo(f"{done['code']}: on")


@catalogue.command("off")
@click.argument("code")
@_BY
@_DB
def catalogue_off(code: str, by: str, db: str) -> None:
    """Stop offering CODE for new rooms (rooms already open play on)."""
    done = _change(db, code, by, enabled=False)
    click.echo(f"{done['code']}: off for new rooms")


@catalogue.command("set")
@click.argument("code")
@click.option("--default", "defaults", multiple=True, metavar="KEY=VALUE", help="A default.")
@click.option(
    "--choices",
    multiple=True,
    metavar="KEY=V1,V2",
    help="The values of KEY a room form offers (and a room may take).",
)
@click.option("--clear", is_flag=True, help="Forget the defaults and choices first.")
@_BY
@_DB
@_JSON
def catalogue_set(
    code: str,
    defaults: tuple[str, ...],
    choices: tuple[str, ...],
    clear: bool,
    by: str,
    db: str,
    as_json: bool,
) -> None:
    """Set CODE's default game options and the choices a room form offers (values as
    JSON: 3, true, "stay"; a bare word is a text)."""
    house = _house(db)
    try:
        old = house.setting(_code(code))
        new_defaults = {} if clear else dict(old.defaults)
        new_choices = {} if clear else {k: list(v) for k, v in old.choices.items()}
        new_defaults.update({k: _json_value(v) for k, v in _pairs(defaults, "--default").items()})
        for key, values in _pairs(choices, "--choices").items():
            new_choices[key] = [_json_value(v) for v in values.split(",") if v]
        done = house.set_game(code, by, defaults=new_defaults, choices=new_choices)
    finally:
        house.store.close()
    if as_json:
        echo_json(done)
    else:
        click.echo(
            f"{done['code']}: defaults {json.dumps(done['defaults'], ensure_ascii=False)};"
            f" choices {json.dumps(done['choices'], ensure_ascii=False)}"
        )


def _code(code: str) -> str:
    from paiju.catalog import find_variant

    return find_variant(code).code


@catalogue.command("add")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_BY
@_DB
@_JSON
def catalogue_add(file: Path, by: str, db: str, as_json: bool) -> None:
    """Add the house variants of FILE (``[[variant]]`` entries of the catalogue's TOML
    form, each with a new code): checked, then offered by every server within seconds."""
    house = _house(db)
    try:
        added = house.add_house(file.name, file.read_text(encoding="utf-8"), by)
    finally:
        house.store.close()
    if as_json:
        echo_json(added)
    else:
        for v in added:
            click.echo(f"added {v['code']} {v['name_zh']} / {v['name_en']}")


@admin.command()
@click.argument("player")
@click.option("--reason", required=True, help="Why (kept in the audit trail).")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@_BY
@_DB
@_REDIS
@_JSON
def erase(
    player: str, reason: str, yes: bool, by: str, db: str, redis_url: str | None, as_json: bool
) -> None:
    """Erase PLAYER: name, login, sessions, passkeys, recovery codes and memberships go;
    their hands stay in the records under an anonymous seat (docs/operations.md)."""
    from paiju.server.accounts.service import Accounts
    from paiju.server.admin.erasure import erase_player

    store = _store(db)
    try:
        who = Accounts(store).find_player(player)
        if not yes:
            click.confirm(f"erase {who.name} (#{who.id}) for good?", abort=True)
        done = erase_player(store, who.id, reason, by)
    finally:
        store.close()
    _tell(redis_url, done["sessions_ended"], who.id, "erased")
    if as_json:
        echo_json(done)
    else:
        click.echo(
            f"erased #{who.id}: now {done['name']}; {len(done['sessions_ended'])} session(s)"
            f" ended; {done['hands_kept']} hand(s) kept under the anonymous seat"
        )


@admin.command("chat-reports")
@click.option("--all", "every", is_flag=True, help="Handled ones too.")
@_DB
@_JSON
def chat_reports(every: bool, db: str, as_json: bool) -> None:
    """Players' reports (举报) of chat lines, the open ones first."""
    from paiju.server.admin.chat_reports import ChatReports

    store = _store(db)
    try:
        found = ChatReports(store).listing(open_only=not every)
    finally:
        store.close()
    if as_json:
        echo_json(found)
        return
    for r in found:
        lines = " | ".join(line["text"] for line in r["lines"]) or "-"
        state = "open" if r["handled_at"] is None else f"handled: {r['outcome']}"
        click.echo(
            f"#{r['id']} room {r['room']}: #{r['reporter']} reported #{r['reported']}"
            f" (seat {r['seat'] + 1}): {lines}  [{state}]"
        )
    if not found:
        click.echo("no reports")
