"""``paiju admin``: the operator's commands on the server's database (the same ``--db``
as ``paiju serve``): bans, sessions, password resets, sign-up flags and the audit trail.

A running server closes the sockets of the sessions these end within a second (it checks
its sockets' sessions in the database); with ``--redis`` a cluster's nodes are also told
at once.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

import click

from paiju.cli.app import cli, echo_json

__all__ = ["admin"]

_DB = click.option(
    "--db",
    default="paiju.db",
    show_default=True,
    help="The server's database: a SQLite file or a DSN such as postgresql://user@host/paiju.",
)
_REDIS = click.option(
    "--redis",
    "redis_url",
    metavar="URL",
    help="A cluster's Redis: its nodes close the player's sockets at once.",
)
_JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON.")
_BY = click.option(
    "--by", default="admin", show_default=True, help="Who does it (written to the audit trail)."
)


def _when(at: float | None) -> str:
    if at is None:
        return "-"
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _open(db: str) -> Any:
    from paiju.server.accounts.service import Accounts
    from paiju.server.store import Store

    return Accounts(Store(db))


def _tell(redis_url: str | None, sessions: list[int], player: int, why: str) -> None:
    """Publish the ended sessions to a cluster's nodes (they also find them within a
    second in the database)."""
    if redis_url is None:
        return
    from paiju.server.accounts.kicks import CHANNEL

    async def publish() -> None:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(redis_url, socket_connect_timeout=2.0)
        try:
            news = {"sessions": sessions, "player": player, "why": why, "from": "paiju-admin"}
            await client.publish(CHANNEL, json.dumps(news))
        finally:
            await client.aclose()

    asyncio.run(publish())


@cli.group()
def admin() -> None:
    """The operator's commands: bans, sessions, password resets, the audit trail."""


@admin.command()
@click.argument("player")
@click.option("--days", type=click.FloatRange(min=0.001, max=36_500), required=True)
@click.option("--reason", required=True, help="Why (shown to the player, kept in the trail).")
@_BY
@_DB
@_REDIS
@_JSON
def ban(
    player: str, days: float, reason: str, by: str, db: str, redis_url: str | None, as_json: bool
) -> None:
    """Ban PLAYER (an id, #id or a login) for --days: every session and socket ends."""
    accounts = _open(db)
    try:
        who = accounts.find_player(player)
        done, ended = accounts.ban(who.id, days, reason, by)
    finally:
        accounts.store.close()
    _tell(redis_url, ended, who.id, "banned")
    answer = {"player": who.id, "name": who.name, "until": done.until, "sessions_ended": ended}
    if as_json:
        echo_json(answer)
    else:
        click.echo(
            f"banned {who.name} (#{who.id}) until {_when(done.until)}; "
            f"{len(ended)} session(s) ended"
        )


@admin.command()
@click.argument("player")
@click.option("--reason", default="lifted by the operator", show_default=True)
@_BY
@_DB
@_JSON
def unban(player: str, reason: str, by: str, db: str, as_json: bool) -> None:
    """Lift PLAYER's bans."""
    accounts = _open(db)
    try:
        who = accounts.find_player(player)
        lifted = accounts.unban(who.id, reason, by)
    finally:
        accounts.store.close()
    if as_json:
        echo_json({"player": who.id, "lifted": lifted})
    else:
        click.echo(f"{who.name} (#{who.id}): {lifted} ban(s) lifted")


@admin.command()
@click.argument("player")
@_DB
@_JSON
def sessions(player: str, db: str, as_json: bool) -> None:
    """PLAYER's sessions (open and ended), its ban, and its login."""
    accounts = _open(db)
    try:
        who = accounts.find_player(player)
        found = accounts.session_list_all(who.id)
        account = accounts.account(who.id)
        ban_now = accounts.ban_of(who.id)
    finally:
        accounts.store.close()
    if as_json:
        echo_json(
            {
                "player": who.id,
                "name": who.name,
                "login": account["login"],
                "banned_until": None if ban_now is None else ban_now.until,
                "sessions": found,
            }
        )
        return
    login = account["login"] or "guest"
    click.echo(f"{who.name} (#{who.id}, {login})")
    if ban_now is not None:
        click.echo(f"banned until {_when(ban_now.until)}: {ban_now.reason}")
    for s in found:
        state = "open" if s["ended"] is None else f"ended {_when(s['ended'])} ({s['why']})"
        click.echo(
            f"  #{s['id']}  {s['device']}  from {s['address'] or '-'}  since"
            f" {_when(s['created'])}  last {_when(s['last_seen'])}  {state}"
        )


@admin.command("reset-password")
@click.argument("player")
@click.option("--reason", required=True, help="Why (kept in the audit trail).")
@click.option("--password", help="The new password (default: a random one, printed).")
@_BY
@_DB
@_REDIS
@_JSON
def reset_password(
    player: str,
    reason: str,
    password: str | None,
    by: str,
    db: str,
    redis_url: str | None,
    as_json: bool,
) -> None:
    """Set a new password for PLAYER's account (every session ends); hand it over."""
    accounts = _open(db)
    try:
        who = accounts.find_player(player)
        new, ended = accounts.reset_password(who.id, reason, by, password)
    finally:
        accounts.store.close()
    _tell(redis_url, ended, who.id, "reset")
    if as_json:
        echo_json({"player": who.id, "password": new, "sessions_ended": ended})
    else:
        click.echo(f"new password of {who.name} (#{who.id}): {new}")
        click.echo(f"{len(ended)} session(s) ended")


@admin.command()
@_DB
@_JSON
def flags(db: str, as_json: bool) -> None:
    """Sign-ups to look at (a guest made from a banned player's address or browser)."""
    accounts = _open(db)
    try:
        found = accounts.flags()
    finally:
        accounts.store.close()
    if as_json:
        echo_json(found)
        return
    for f in found:
        click.echo(f"#{f['player']}  {f['kind']}  {_when(f['at'])}  {f['detail']}")
    if not found:
        click.echo("no flags")


@admin.group()
def audit() -> None:
    """The audit trail of the operator's actions."""


@audit.command()
@_DB
@_JSON
def verify(db: str, as_json: bool) -> None:
    """Check the trail's chain of hashes; name the first broken entry (exit status 1)."""
    from paiju.server.accounts import audit as trail
    from paiju.server.store import Store

    store = Store(db)
    try:
        count, broken, last = trail.verify(store.engine)
    finally:
        store.close()
    if as_json:
        echo_json({"entries": count, "broken": broken, "last_hash": last})
    elif broken is None:
        click.echo(f"audit trail intact: {count} entries; newest hash {last}")
    else:
        click.echo(f"audit trail broken at entry {broken} (entries before it hold)", err=True)
    if broken is not None:
        raise SystemExit(1)
