"""``paiju admin staff|announce|report``: the console's commands for scripts, on the
server's database (the same ``--db`` as ``paiju serve``, a fresh one too).

``paiju admin staff add NAME --role owner`` makes the first staff member of a fresh
install: it prints the TOTP secret (and its ``otpauth://`` URI, for an authenticator
app) and ten recovery codes, once. The password is asked for (or ``--password``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import click

from paiju.cli.admin import _BY, _DB, _JSON, admin
from paiju.cli.app import echo_json

__all__ = ["announce", "mute", "report", "staff", "unmute"]


def _store(db: str) -> Any:
    from paiju.server.store import Store

    return Store(db)


def _time(text: str | None) -> float | None:
    """A time given as Unix seconds or ISO 8601 (UTC unless it says otherwise)."""
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        pass
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is neither Unix seconds nor an ISO 8601 time") from None
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at.timestamp()


@admin.group()
def staff() -> None:
    """The console's staff: 超级管理员 owner, 管理员 admin, 客服 support."""


@staff.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(["owner", "admin", "support"]), required=True)
@click.option(
    "--password",
    prompt=True,
    hide_input=True,
    confirmation_prompt=True,
    help="The console password (asked for when not given).",
)
@_BY
@_DB
@_JSON
def staff_add(name: str, role: str, password: str, by: str, db: str, as_json: bool) -> None:
    """Add staff member NAME; prints the TOTP secret and recovery codes (shown once)."""
    from paiju.server.admin.staff import ROLE_ZH, Staff

    store = _store(db)
    try:
        made = Staff(store).add(name, role, password, by)
    finally:
        store.close()
    if as_json:
        echo_json(
            {
                "name": made.member.name,
                "role": made.member.role,
                "totp_secret": made.secret,
                "otpauth_uri": made.uri,
                "recovery_codes": list(made.codes),
            }
        )
        return
    click.echo(f"staff member {made.member.name}: {made.member.role} ({ROLE_ZH[role]})")
    click.echo(f"TOTP secret: {made.secret}")
    click.echo(f"otpauth URI: {made.uri}")
    click.echo("recovery codes (each works once; keep them offline):")
    for code in made.codes:
        click.echo(f"  {code}")


@staff.command("disable")
@click.argument("name")
@click.option("--reason", required=True, help="Why (kept in the audit trail).")
@_BY
@_DB
def staff_disable(name: str, reason: str, by: str, db: str) -> None:
    """Stop NAME from signing in to the console; their sessions end (a console page open
    elsewhere is refused at its next call: each call checks its session)."""
    from paiju.server.admin.staff import Staff

    store = _store(db)
    try:
        ended = Staff(store).disable(name, reason, by)
    finally:
        store.close()
    click.echo(f"staff member {name} disabled; {ended} session(s) ended")


@staff.command("list")
@_DB
@_JSON
def staff_list(db: str, as_json: bool) -> None:
    """The staff members and their roles."""
    from paiju.server.admin.staff import Staff

    store = _store(db)
    try:
        found = Staff(store).members()
    finally:
        store.close()
    if as_json:
        echo_json(found)
        return
    for m in found:
        click.echo(f"{m['name']}  {m['role']}{'  (disabled)' if m['disabled'] else ''}")
    if not found:
        click.echo("no staff yet: paiju admin staff add NAME --role owner")


@admin.command()
@click.argument("text")
@click.option("--en", help="The English text (default: TEXT in both languages).")
@click.option("--room", type=click.IntRange(min=1), help="A notice to this room's table only.")
@click.option(
    "--kind",
    type=click.Choice(["banner", "marquee"]),
    default="marquee",
    show_default=True,
    help="Without --room: the lobby's banner or its scrolling notice (跑马灯).",
)
@click.option("--start", "starts", help="From (Unix seconds or ISO 8601; default now).")
@click.option("--until", "ends", help="Until (Unix seconds or ISO 8601; default: withdrawn).")
@_BY
@_DB
@_JSON
def announce(
    text: str,
    en: str | None,
    room: int | None,
    kind: str,
    starts: str | None,
    ends: str | None,
    by: str,
    db: str,
    as_json: bool,
) -> None:
    """Announce TEXT in the lobby (or, with --room, to one room's table: a running
    server sends it to the table within the room's next seconds)."""
    from paiju.server.admin.announcements import Announcements

    store = _store(db)
    try:
        made = Announcements(store).add(
            "notice" if room is not None else kind,
            text,
            en or text,
            by,
            room=room,
            starts=_time(starts),
            ends=_time(ends),
        )
    finally:
        store.close()
    if as_json:
        echo_json(made)
    else:
        where = f"room {room}" if room is not None else f"the lobby ({made['kind']})"
        click.echo(f"announcement {made['id']} to {where}")


@admin.command()
@click.argument("player")
@click.option("--hours", type=click.FloatRange(min=0.01, max=24 * 366), required=True)
@click.option("--reason", required=True, help="Why (kept in the audit trail).")
@_BY
@_DB
@_JSON
def mute(player: str, hours: float, reason: str, by: str, db: str, as_json: bool) -> None:
    """Mute PLAYER's free chat text at every table for --hours (a running server applies
    it when the player's socket next connects; the console applies it at once)."""
    from paiju.server.accounts.service import Accounts
    from paiju.server.admin.console import Console

    store = _store(db)
    try:
        accounts = Accounts(store)
        who = accounts.find_player(player)
        until = Console(store, accounts).mute(who.id, hours, reason, by)
    finally:
        store.close()
    if as_json:
        echo_json({"player": who.id, "until": until})
    else:
        day = datetime.fromtimestamp(until, UTC).strftime("%Y-%m-%d %H:%M UTC")
        click.echo(f"muted {who.name} (#{who.id}) until {day}")


@admin.command()
@click.argument("player")
@click.option("--reason", default="lifted by the operator", show_default=True)
@_BY
@_DB
def unmute(player: str, reason: str, by: str, db: str) -> None:
    """Lift PLAYER's chat mutes."""
    from paiju.server.accounts.service import Accounts
    from paiju.server.admin.console import Console

    store = _store(db)
    try:
        accounts = Accounts(store)
        who = accounts.find_player(player)
        lifted = Console(store, accounts).unmute(who.id, reason, by)
    finally:
        store.close()
    click.echo(f"{who.name} (#{who.id}): {lifted} mute(s) lifted")


_CSV = click.option("--csv", "as_csv", is_flag=True, help="Print CSV (a spreadsheet's file).")


def _csv(kind: str, found: list[dict[str, Any]]) -> None:
    from paiju.server.admin.reports import csv_text

    click.echo(csv_text(kind, found), nl=False)


@admin.group()
def report() -> None:
    """Reports for the operator: daily figures, collusion, bot assistance (--json, --csv)."""


@report.command("daily")
@click.option("--days", type=click.IntRange(1, 366), default=7, show_default=True)
@_DB
@_JSON
@_CSV
def report_daily(days: int, db: str, as_json: bool, as_csv: bool) -> None:
    """Per day: players active, new players, hands and rooms per game, bots' share of
    seats, clubs' activity (active clubs, club rooms, club hands)."""
    from paiju.server.admin.reports import daily

    store = _store(db)
    try:
        found = daily(store, days)
    finally:
        store.close()
    if as_json:
        echo_json(found)
        return
    if as_csv:
        _csv("daily", found)
        return
    for d in found:
        share = "-" if d["bot_share"] is None else f"{d['bot_share']:.0%}"
        hands = sum(d["hands"].values())
        clubs = d["clubs"]
        click.echo(
            f"{d['day']}  active {d['active']}  new {d['new_players']}  hands {hands}"
            f"  rooms {sum(d['rooms'].values())}  bot seats {share}  clubs {clubs['active']}"
            f" ({clubs['rooms']} rooms, {clubs['hands']} hands)"
        )


@report.command("collusion")
@click.option("--days", type=click.IntRange(1, 3660), help="Only the last DAYS (default: all).")
@click.option("--min-hands", type=click.IntRange(3, 10_000), default=20, show_default=True)
@_DB
@_JSON
@_CSV
def report_collusion(
    days: int | None, min_hands: int, db: str, as_json: bool, as_csv: bool
) -> None:
    """Pairs who sit together and win together beyond chance, ranked by p-value."""
    from paiju.server.admin.reports import collusion

    store = _store(db)
    try:
        found = collusion(store, days, min_hands)
    finally:
        store.close()
    if as_json:
        echo_json(found)
        return
    if as_csv:
        _csv("collusion", found)
        return
    for f in found:
        a, b = f["players"]
        click.echo(
            f"#{a} + #{b}: {f['shared_hands']} hands together, z {f['z']}, p {f['p_value']:.2g}"
            f"  hands {' '.join(str(h) for h in f['hands'])}"
        )
    if not found:
        click.echo(f"no pair shared {min_hands} hands")


@report.command("assistance")
@click.option("--days", type=click.IntRange(1, 3660), help="Only the last DAYS (default: all).")
@click.option("--per-player", type=click.IntRange(1, 1000), default=200, show_default=True)
@click.option("--total", type=click.IntRange(1, 100_000), default=2000, show_default=True)
@_DB
@_JSON
@_CSV
def report_assistance(
    days: int | None, per_player: int, total: int, db: str, as_json: bool, as_csv: bool
) -> None:
    """Players whose decisions match the 困难 bot's beyond their peers (bounded replay)."""
    from paiju.server.admin.reports import assistance

    store = _store(db)
    try:
        found = assistance(store, days, per_player, total)
    finally:
        store.close()
    if as_json:
        echo_json(found)
        return
    if as_csv:
        _csv("assistance", found)
        return
    for f in found:
        p = "-" if f["p_value"] is None else f"{f['p_value']:.2g}"
        flag = "  ABOVE" if f["above_threshold"] else ""
        click.echo(
            f"#{f['player']} ({f['band']}): {f['matches']}/{f['decisions']} match"
            f" ({f['match_rate']:.0%}; {f['baseline']} {f['others_rate']:.0%},"
            f" threshold {f['threshold']:.0%}), p {p}{flag}"
        )
    if not found:
        click.echo("no human decisions to check")
