"""The console's REST calls under ``/api/admin`` (docs/protocol.md, "The operator's
console"), and the lobby's public ``GET /api/announcements``.

Every call but signing in needs ``Authorization: Bearer <staff token>`` (a console
session: :meth:`Staff.sign_in`) and a role (:data:`~paiju.server.admin.staff.ROLES`):
``staff_only`` (401) without a console session, ``staff_role`` (403) for a role below
the call's. Every action is written to the audit trail as ``staff:<name>``, with the
address it came from.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from paiju.server.accounts.auth import bearer
from paiju.server.accounts.logins import MAX_PASSWORD
from paiju.server.admin import reports
from paiju.server.admin.announcements import MAX_TEXT, Announcements, notice_text
from paiju.server.admin.catalogue import MAX_HOUSE_TEXT, HouseCatalogue
from paiju.server.admin.chat_reports import ChatReports
from paiju.server.admin.console import (
    Console,
    live_rooms,
    merge_live,
    node_figures,
    room_public,
)
from paiju.server.admin.erasure import erase_player
from paiju.server.admin.staff import Staff, StaffMember, may
from paiju.server.errors import ServerError
from paiju.server.store import off_loop

__all__ = ["router"]

T = TypeVar("T")

router = APIRouter(tags=["admin"])

Id = Annotated[int, PathParam(ge=1, le=2**63 - 1)]
Reason = Field(min_length=1, max_length=500, description="Why (kept in the audit trail).")


class SignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=MAX_PASSWORD)
    code: str = Field(min_length=1, max_length=64, description="A TOTP code or a recovery code.")


class WithReason(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Reason


class BanBody(WithReason):
    days: float = Field(gt=0, le=36_500)


class MuteBody(WithReason):
    hours: float = Field(gt=0, le=24 * 366)


class NoticeBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    zh: str = Field("", max_length=MAX_TEXT)
    en: str = Field("", max_length=MAX_TEXT)


class AnnouncementBody(NoticeBody):
    kind: str = Field(pattern="^(banner|marquee)$")
    starts: float | None = Field(None, description="Unix time (default: now).")
    ends: float | None = Field(None, description="Unix time (default: until withdrawn).")


class _Parts:
    """The console's services of one app, made on first use."""

    def __init__(self, state: Any) -> None:
        self.staff = Staff(state.store, state.accounts.passwords)
        self.console = Console(state.store, state.accounts)
        self.announcements = Announcements(state.store)
        self.reporting = asyncio.Semaphore(1)


def _parts(request: Request) -> _Parts:
    state = request.app.state
    parts = getattr(state, "console_parts", None)
    if parts is None:
        parts = state.console_parts = _Parts(state)
    return parts


def _address(request: Request) -> str | None:
    return request.client.host if request.client is not None else None


async def _staff(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> StaffMember:
    token = bearer(authorization)
    parts = _parts(request)
    member = (
        None if token is None else await off_loop(parts.staff.store, parts.staff.of_token, token)
    )
    if member is None:
        raise ServerError("staff_only", "the console needs a staff session (sign in)", 401)
    return member


StaffMe = Annotated[StaffMember, Depends(_staff)]


def _need(member: StaffMember, role: str) -> str:
    if not may(member.role, role):
        raise ServerError(
            "staff_role", f"this needs the role {role} or above; you are {member.role}", 403
        )
    return f"staff:{member.name}"


async def _db(request: Request, call: Callable[..., T], *args: Any) -> T:
    return await off_loop(request.app.state.store, call, *args)


# -- signing in --------------------------------------------------------------------------


@router.post("/api/admin/sessions", status_code=201)
async def sign_in(body: SignIn, request: Request) -> dict[str, Any]:
    """A console session: name, password and a TOTP (or recovery) code."""
    state = request.app.state
    address = _address(request)
    state.attempts.take("staff:" + body.name.strip().casefold(), address)
    parts = _parts(request)
    member, token, expires = await state.hashing.run(
        parts.staff.sign_in, body.name, body.password, body.code, address
    )
    return {
        "token": token,
        "expires": expires,
        "staff": {"name": member.name, "role": member.role},
    }


@router.delete("/api/admin/sessions")
async def sign_out(request: Request, me: StaffMe) -> dict[str, Any]:
    await _db(request, _parts(request).staff.sign_out, me)
    return {"signed_out": True}


@router.get("/api/admin/me")
async def whoami(me: StaffMe) -> dict[str, Any]:
    return {"name": me.name, "role": me.role}


@router.get("/api/admin/staff")
async def staff_list(request: Request, me: StaffMe) -> dict[str, Any]:
    _need(me, "owner")
    return {"staff": await _db(request, _parts(request).staff.members)}


@router.post("/api/admin/staff/{name}/disable")
async def staff_disable(
    name: Annotated[str, PathParam(max_length=64)], body: WithReason, request: Request, me: StaffMe
) -> dict[str, Any]:
    """An owner stops a staff member from signing in; their sessions end at once."""
    by = _need(me, "owner")
    ended = await _db(request, _parts(request).staff.disable, name, body.reason, by)
    return {"disabled": name, "sessions_ended": ended}


# -- live --------------------------------------------------------------------------------


NODE_ANSWER_TIMEOUT = 2.0
"""Seconds a cluster node has to answer another's ask for its live figures."""


async def _node_live(request: Request) -> dict[str, Any]:
    """This node's live figures (:meth:`Console.live`), with its own (``node``)."""
    state = request.app.state
    hub = state.hub
    rooms = live_rooms(hub)
    online = len({c.player.id for r in list(hub.rooms.values()) for c in r.clients()})
    found = await _db(request, _parts(request).console.live, rooms, online)
    metrics = state.metrics
    errors = metrics.errors_per_minute()
    found["node"] = node_figures(
        metrics.node, rooms, online, metrics.hands_recent.per_minute(), errors
    )
    found["errors_per_minute"] = errors
    return found


@router.get("/api/admin/live")
async def live(
    request: Request, me: StaffMe, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Players online, rooms by game and state (stuck too), hands and errors per
    minute, and each node's figures (``nodes``): on a cluster, every live node is asked
    for its own (``/api/admin/node``) and the figures add up."""
    _need(me, "support")
    own = await _node_live(request)
    cluster = request.app.state.cluster
    if cluster is None:
        return merge_live(own, {})
    others = await cluster.ask_others(
        "/api/admin/node", {"authorization": authorization or ""}, NODE_ANSWER_TIMEOUT
    )
    return merge_live(own, others)


@router.get("/api/admin/node")
async def node_live(request: Request, me: StaffMe) -> dict[str, Any]:
    """This node's live figures alone (what :func:`live` asks of each node)."""
    _need(me, "support")
    return await _node_live(request)


# -- players -----------------------------------------------------------------------------


@router.get("/api/admin/players")
async def search(
    request: Request, me: StaffMe, q: Annotated[str, Query(min_length=1, max_length=64)]
) -> dict[str, Any]:
    """Players by id, login or name."""
    _need(me, "support")
    return {"players": await _db(request, _parts(request).console.search, q)}


@router.get("/api/admin/players/{player_id}")
async def player(player_id: Id, request: Request, me: StaffMe) -> dict[str, Any]:
    """A player's file: login, ban, mute, sessions (with addresses), balance, trail."""
    _need(me, "support")
    found = await _db(request, _parts(request).console.player, player_id)
    found["chat_reports"] = await _db(request, _chat(request).against, player_id)
    return found


@router.get("/api/admin/players/{player_id}/ledger")
async def ledger(player_id: Id, request: Request, me: StaffMe) -> dict[str, Any]:
    _need(me, "support")
    return await _db(request, _parts(request).console.ledger, player_id)


@router.get("/api/admin/players/{player_id}/export")
async def export(player_id: Id, request: Request, me: StaffMe) -> dict[str, Any]:
    """Everything kept of a player, as JSON (audited)."""
    by = _need(me, "admin")
    console = _parts(request).console
    return await _db(request, console.export, player_id, by, _address(request))


@router.post("/api/admin/players/{player_id}/ban")
async def ban(player_id: Id, body: BanBody, request: Request, me: StaffMe) -> dict[str, Any]:
    """Ban for ``days``: every session ends and every socket of the player closes."""
    by = _need(me, "admin")
    state = request.app.state
    accounts = state.accounts
    who = await _db(request, accounts.find_player, str(player_id))
    done, ended = await _db(
        request, accounts.ban, who.id, body.days, body.reason, by, _address(request)
    )
    await state.kicks.end(ended, who.id, "banned")
    return {"player": who.id, "until": done.until, "sessions_ended": ended}


@router.post("/api/admin/players/{player_id}/unban")
async def unban(player_id: Id, body: WithReason, request: Request, me: StaffMe) -> dict[str, Any]:
    by = _need(me, "admin")
    lifted = await _db(request, request.app.state.accounts.unban, player_id, body.reason, by)
    return {"player": player_id, "lifted": lifted}


@router.post("/api/admin/players/{player_id}/mute")
async def mute(player_id: Id, body: MuteBody, request: Request, me: StaffMe) -> dict[str, Any]:
    """Mute the player's free text at every table for ``hours``."""
    by = _need(me, "support")
    console = _parts(request).console
    until = await _db(
        request, console.mute, player_id, body.hours, body.reason, by, _address(request)
    )
    _mute_seats(request, player_id, until)
    return {"player": player_id, "until": until}


@router.post("/api/admin/players/{player_id}/unmute")
async def unmute(player_id: Id, body: WithReason, request: Request, me: StaffMe) -> dict[str, Any]:
    by = _need(me, "support")
    console = _parts(request).console
    lifted = await _db(request, console.unmute, player_id, body.reason, by, _address(request))
    _mute_seats(request, player_id, 0.0)
    return {"player": player_id, "lifted": lifted}


def _mute_seats(request: Request, player: int, until: float) -> None:
    """The player's seats at this node's tables take the mute at once."""
    for room in list(request.app.state.hub.rooms.values()):
        for seat in room.seats:
            if seat.player == player:
                seat.chat.muted_until = until


@router.post("/api/admin/players/{player_id}/reset")
async def reset(player_id: Id, body: WithReason, request: Request, me: StaffMe) -> dict[str, Any]:
    """A new random password for the player's login (every session ends); hand it over."""
    by = _need(me, "support")
    state = request.app.state
    password, ended = await state.hashing.run(
        state.accounts.reset_password, player_id, body.reason, by
    )
    await state.kicks.end(ended, None, "reset")
    return {"player": player_id, "password": password, "sessions_ended": ended}


# -- rooms -------------------------------------------------------------------------------


@router.get("/api/admin/rooms/{room_id}")
async def room(room_id: Id, request: Request, me: StaffMe) -> dict[str, Any]:
    """A room as a spectator sees it: never a hidden card of the hand in play."""
    _need(me, "support")
    found = request.app.state.hub.room(room_id)
    await found.settled()
    return room_public(found)


@router.post("/api/admin/rooms/{room_id}/close")
async def close_room(
    room_id: Id, body: WithReason, request: Request, me: StaffMe
) -> dict[str, Any]:
    """Close a room for good; its table reads the reason. The hand in play is void."""
    by = _need(me, "admin")
    found = request.app.state.hub.room(room_id)
    if not found.open:
        raise ServerError("room_over", f"room {room_id} is already {found.status}", 409)
    text = notice_text(
        f"管理员关闭了房间：{body.reason}", f"The operator closed this room: {body.reason}"
    )
    for client in found.clients():
        client.send(text)
    await found.settled()
    found.close("room_closed", f"room {room_id} was closed by the operator: {body.reason}")
    await found.settled()
    console = _parts(request).console
    where = _address(request)

    def write() -> None:
        console.audit(by, "close_room", body.reason, room=room_id, address=where)

    await _db(request, write)
    return {"room": room_id, "status": found.status}


@router.post("/api/admin/rooms/{room_id}/notice")
async def room_notice(
    room_id: Id, body: NoticeBody, request: Request, me: StaffMe
) -> dict[str, Any]:
    """A notice to one room's table: every socket of it gets it within a second (on
    whichever node plays the room)."""
    by = _need(me, "admin")
    notice_text(body.zh, body.en)  # a text is needed
    request.app.state.hub.room(room_id)  # an open room
    made = await _db(request, _keep_notice, _parts(request), body, by, room_id, _address(request))
    return {"room": room_id, "notice": made["id"]}


@router.post("/api/admin/notice")
async def notice_all(body: NoticeBody, request: Request, me: StaffMe) -> dict[str, Any]:
    """A notice to every table, on every node, within a second."""
    by = _need(me, "admin")
    notice_text(body.zh, body.en)
    made = await _db(request, _keep_notice, _parts(request), body, by, None, _address(request))
    return {"notice": made["id"]}


def _keep_notice(
    parts: _Parts, body: NoticeBody, by: str, room_id: int | None, address: str | None
) -> dict[str, Any]:
    now = parts.announcements.store.clock()
    return parts.announcements.add(
        "notice", body.zh, body.en, by, room=room_id, starts=now, ends=now + 60, address=address
    )


# -- announcements -----------------------------------------------------------------------


@router.get("/api/announcements")
async def showing(request: Request) -> dict[str, Any]:
    """The lobby's banner and scrolling notices (跑马灯) showing now (public)."""
    return {"announcements": await _db(request, _parts(request).announcements.showing)}


@router.get("/api/admin/announcements")
async def announcements(request: Request, me: StaffMe) -> dict[str, Any]:
    _need(me, "support")
    return {"announcements": await _db(request, _parts(request).announcements.recent)}


@router.post("/api/admin/announcements", status_code=201)
async def announce(body: AnnouncementBody, request: Request, me: StaffMe) -> dict[str, Any]:
    """A lobby banner or a scrolling notice, zh and en, from ``starts`` to ``ends``."""
    by = _need(me, "admin")
    parts = _parts(request)

    def add() -> dict[str, Any]:
        return parts.announcements.add(
            body.kind,
            body.zh,
            body.en,
            by,
            starts=body.starts,
            ends=body.ends,
            address=_address(request),
        )

    return await _db(request, add)


@router.delete("/api/admin/announcements/{announcement_id}")
async def withdraw(announcement_id: Id, request: Request, me: StaffMe) -> dict[str, Any]:
    by = _need(me, "admin")
    done = await _db(
        request, _parts(request).announcements.withdraw, announcement_id, by, _address(request)
    )
    if not done:
        raise ServerError("no_announcement", f"no announcement {announcement_id} showing", 404)
    return {"withdrawn": announcement_id}


# -- reports and the trail ---------------------------------------------------------------


async def _report(request: Request, call: Callable[[], T]) -> T:
    """A report, in a worker thread, one at a time per node."""
    parts = _parts(request)
    if parts.reporting.locked():
        raise ServerError(
            "busy_report", "another report is being made: try again soon", 429, retry_after=5
        )
    async with parts.reporting:
        return await asyncio.to_thread(call)


Format = Annotated[str, Query(pattern="^(json|csv)$", description="json, or csv for a file.")]


@router.get("/api/admin/reports/daily", response_model=None)
async def report_daily(
    request: Request,
    me: StaffMe,
    days: Annotated[int, Query(ge=1, le=366)] = 7,
    format: Format = "json",
) -> dict[str, Any] | Response:
    """Per day: players active and new, retention, hands and rooms per game, bots' share
    of seats, and clubs' activity (active clubs, club rooms, club hands)."""
    _need(me, "admin")
    store = request.app.state.store
    found = await _report(request, lambda: reports.daily(store, days))
    if format == "csv":
        return _csv(f"daily-{days}", reports.csv_text("daily", found))
    return {"days": found}


@router.get("/api/admin/reports/collusion", response_model=None)
async def report_collusion(
    request: Request,
    me: StaffMe,
    days: Annotated[int | None, Query(ge=1, le=3660)] = None,
    min_hands: Annotated[int, Query(ge=3, le=10_000)] = 20,
    format: Format = "json",
) -> dict[str, Any] | Response:
    _need(me, "admin")
    store = request.app.state.store
    found = await _report(request, lambda: reports.collusion(store, days, min_hands))
    if format == "csv":
        return _csv("collusion", reports.csv_text("collusion", found))
    return {"pairs": found}


@router.get("/api/admin/reports/assistance", response_model=None)
async def report_assistance(
    request: Request,
    me: StaffMe,
    days: Annotated[int | None, Query(ge=1, le=3660)] = None,
    per_player: Annotated[int, Query(ge=1, le=1000)] = 200,
    format: Format = "json",
) -> dict[str, Any] | Response:
    _need(me, "admin")
    store = request.app.state.store
    total = 2000
    found = await _report(request, lambda: reports.assistance(store, days, per_player, total))
    if format == "csv":
        return _csv("assistance", reports.csv_text("assistance", found))
    return {"players": found}


@router.get("/api/admin/audit")
async def trail(request: Request, me: StaffMe) -> dict[str, Any]:
    """The newest entries of the audit trail, and whether the chain holds."""
    _need(me, "admin")
    from paiju.server.accounts import audit

    store = request.app.state.store
    count, broken, last = await _db(request, audit.verify, store.engine)
    entries = await _db(request, _parts(request).console.trail)
    return {"entries": entries, "count": count, "broken": broken, "last_hash": last}


# -- the catalogue -----------------------------------------------------------------------


class GameSettingBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    enabled: bool | None = Field(None, description="New rooms may be made of it.")
    defaults: dict[str, Any] | None = Field(
        None, description="The game options a new room takes when it names none."
    )
    choices: dict[str, list[Any]] | None = Field(
        None, description="Per game option, the values a room form offers (and a room takes)."
    )


class HouseBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field("house.toml", max_length=200, description="The file's name.")
    text: str = Field(min_length=1, max_length=MAX_HOUSE_TEXT, description="The TOML text.")


def _catalogue(request: Request) -> HouseCatalogue:
    found: HouseCatalogue = request.app.state.catalogue
    return found


@router.get("/api/admin/catalogue")
async def catalogue(request: Request, me: StaffMe) -> dict[str, Any]:
    """Every game with the house's setting: on or off, default options, offered choices."""
    _need(me, "support")
    return {"games": _catalogue(request).entries()}


@router.put("/api/admin/catalogue/{code}")
async def catalogue_game(
    code: Annotated[str, PathParam(max_length=40)],
    body: GameSettingBody,
    request: Request,
    me: StaffMe,
) -> dict[str, Any]:
    """Turn a game on or off for new rooms, set its default options and the choices a
    room form offers: here at once, on every node within seconds (audited)."""
    by = _need(me, "admin")
    house = _catalogue(request)
    where = _address(request)

    def change() -> dict[str, Any]:
        return house.set_game(
            code,
            by,
            enabled=body.enabled,
            defaults=body.defaults,
            choices=body.choices,
            address=where,
        )

    return await _db(request, change)


@router.post("/api/admin/catalogue/house", status_code=201)
async def catalogue_house(body: HouseBody, request: Request, me: StaffMe) -> dict[str, Any]:
    """Add house variants from a TOML file of ``[[variant]]`` entries (checked: an error
    names the file, the entry and the field)."""
    by = _need(me, "admin")
    house = _catalogue(request)
    added = await _db(request, house.add_house, body.name, body.text, by, _address(request))
    return {"added": added}


# -- erasing a player --------------------------------------------------------------------


@router.post("/api/admin/players/{player_id}/erase")
async def erase(player_id: Id, body: WithReason, request: Request, me: StaffMe) -> dict[str, Any]:
    """Erase a player: name, login, sessions, passkeys, recovery codes, memberships go;
    their hands stay in the records under an anonymous seat (audited)."""
    by = _need(me, "admin")
    state = request.app.state
    done = await _db(
        request, erase_player, state.store, player_id, body.reason, by, _address(request)
    )
    await state.kicks.end(done["sessions_ended"], player_id, "erased")
    for room in list(state.hub.rooms.values()):  # this node's tables show the new name
        if player_id in room.names:
            room.names[player_id] = done["name"]
    return done


# -- chat reports ------------------------------------------------------------------------


class HandleBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    outcome: str = Field(min_length=1, max_length=500, description="What staff did (audited).")


def _chat(request: Request) -> ChatReports:
    found: ChatReports = request.app.state.chat_reports
    return found


@router.get("/api/admin/chat-reports", response_model=None)
async def chat_reports(
    request: Request,
    me: StaffMe,
    every: Annotated[bool, Query(alias="all")] = False,
    format: Annotated[str, Query(pattern="^(json|csv)$")] = "json",
) -> dict[str, Any] | Response:
    """Players' reports (举报) of chat lines, the newest first: the open ones (``all``:
    handled ones too), with the reported seat's last lines; ``format=csv`` for a file."""
    _need(me, "support")
    found = await _db(request, _chat(request).listing, not every)
    if format == "csv":
        return _csv("chat-reports", reports.csv_text("chat", found))
    return {"reports": found}


@router.post("/api/admin/chat-reports/{report_id}/handle")
async def handle_chat_report(
    report_id: Id, body: HandleBody, request: Request, me: StaffMe
) -> dict[str, Any]:
    """Mark a chat report handled, with what was done (audited)."""
    by = _need(me, "support")
    await _db(request, _chat(request).handle, report_id, body.outcome, by, _address(request))
    return {"report": report_id, "handled": True}


def _csv(name: str, text: str) -> Response:
    """A report as a CSV file (UTF-8 with a BOM, so that spreadsheet programs read the
    Chinese names)."""
    return Response(
        "\ufeff" + text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
    )
