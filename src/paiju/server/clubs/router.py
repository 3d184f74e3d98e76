"""The clubs' REST calls (docs/protocol.md, "Clubs") and the 回放码.

A club's tables are rooms of the play layer, opened with ``listed`` false (the public
lobby does not show them) and recorded in ``club_tables``; everything else a club is
lives in its own tables. A table opens on the node the request reaches (a cluster's
balancer spreads them); the club lobby reads its tables from the database, so it shows
those of every node.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from paiju.server.accounts.auth import Me
from paiju.server.clubs.service import Clubs, Period, Role
from paiju.server.errors import ServerError
from paiju.server.options import RoomOptions
from paiju.server.store import off_loop

__all__ = ["router"]

router = APIRouter(tags=["clubs"])

PeriodQuery = Annotated[Period, Query(description="day, week, month (Beijing time) or all")]


class NewClub(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200)
    notice: str = Field("", max_length=2000)
    approval: bool = Field(False, description="Joining needs an admin's approval.")


class JoinClub(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(min_length=1, max_length=20)


class ClubChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, max_length=200)
    notice: str | None = Field(None, max_length=2000)
    approval: bool | None = None


class NewPreset(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200)
    code: str = Field(max_length=40, description="A catalogue code.")
    options: RoomOptions = RoomOptions()
    game_options: dict[str, Any] = Field(default_factory=dict)
    keep_waiting: bool = Field(False, description="开桌即有: one table always waiting.")


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    accept: bool


class RoleChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: Literal["owner", "admin", "member"]


class Removal(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ban: bool = False


class Mute(BaseModel):
    model_config = ConfigDict(extra="forbid")
    minutes: float = Field(ge=0, le=525_600, description="0: unmute.")


def _clubs(request: Request) -> Clubs:
    found: Clubs = request.app.state.clubs
    return found


@router.post("/api/clubs", status_code=201)
async def found_club(body: NewClub, request: Request, me: Me) -> dict[str, Any]:
    """Found a club (you are its owner); others join by its code."""
    clubs = _clubs(request)
    return await off_loop(clubs.store, clubs.create, me.id, body.name, body.notice, body.approval)


@router.get("/api/clubs")
async def my_clubs(request: Request, me: Me) -> dict[str, Any]:
    """The clubs you belong to."""
    clubs = _clubs(request)
    return {"clubs": await off_loop(clubs.store, clubs.my_clubs, me.id)}


@router.post("/api/clubs/join")
async def join_club(body: JoinClub, request: Request, me: Me) -> dict[str, Any]:
    """Join a club by its code: ``status`` member, or requested (it approves)."""
    clubs = _clubs(request)
    return await off_loop(clubs.store, clubs.join, me.id, body.code)


@router.get("/api/clubs/{club_id}")
async def club_lobby(club_id: int, request: Request, me: Me) -> dict[str, Any]:
    """The club lobby (members only): notice, members and who is online, requests (for
    admins), presets and tables. A 开桌即有 preset without a waiting table gets one."""
    clubs = _clubs(request)
    await _keep_tables(request, club_id)
    return await off_loop(clubs.store, clubs.club, club_id, me.id)


@router.patch("/api/clubs/{club_id}")
async def change_club(club_id: int, body: ClubChange, request: Request, me: Me) -> dict[str, Any]:
    """Name and notice (admins), approval (the owner)."""
    clubs = _clubs(request)
    await off_loop(
        clubs.store, clubs.update_club, club_id, me.id, body.name, body.notice, body.approval
    )
    return {"ok": True}


@router.delete("/api/clubs/{club_id}")
async def close_club(club_id: int, request: Request, me: Me) -> dict[str, Any]:
    """Close the club (its owner); its record stays."""
    clubs = _clubs(request)
    await off_loop(clubs.store, clubs.close, club_id, me.id)
    return {"closed": club_id}


@router.post("/api/clubs/{club_id}/requests/{player_id}")
async def answer_request(
    club_id: int, player_id: int, body: Answer, request: Request, me: Me
) -> dict[str, Any]:
    """An admin lets a player in, or not."""
    clubs = _clubs(request)
    await off_loop(clubs.store, clubs.answer_request, club_id, me.id, player_id, body.accept)
    return {"player": player_id, "accepted": body.accept}


@router.post("/api/clubs/{club_id}/members/{player_id}/role")
async def set_role(
    club_id: int, player_id: int, body: RoleChange, request: Request, me: Me
) -> dict[str, Any]:
    """The owner names an admin, unnames one, or hands the club over (``owner``)."""
    clubs = _clubs(request)
    role: Role = body.role
    await off_loop(clubs.store, clubs.set_role, club_id, me.id, player_id, role)
    return {"player": player_id, "role": role}


@router.post("/api/clubs/{club_id}/members/{player_id}/remove")
async def remove_member(
    club_id: int, player_id: int, body: Removal, request: Request, me: Me
) -> dict[str, Any]:
    """Remove a member (``ban``: for good); a member removes itself to leave."""
    clubs = _clubs(request)
    await off_loop(clubs.store, clubs.remove, club_id, me.id, player_id, body.ban)
    return {"removed": player_id, "banned": body.ban}


@router.post("/api/clubs/{club_id}/members/{player_id}/mute")
async def mute_member(
    club_id: int, player_id: int, body: Mute, request: Request, me: Me
) -> dict[str, Any]:
    """Mute a member's chat at the club's tables (``minutes`` 0: unmute)."""
    clubs = _clubs(request)
    until = await off_loop(clubs.store, clubs.mute, club_id, me.id, player_id, body.minutes)
    return {"player": player_id, "muted_until": until}


@router.post("/api/clubs/{club_id}/presets", status_code=201)
async def add_preset(club_id: int, body: NewPreset, request: Request, me: Me) -> dict[str, Any]:
    """Save a 玩法 (an admin): a game with its room options, ready to open in one tap."""
    from paiju.catalog import find_variant

    find_variant(body.code)  # unknown_variant (404) for a code the catalogue lacks
    # the house's offer: a game turned off, or a value it does not offer, is refused now
    request.app.state.catalogue.offer(body.code, dict(body.game_options))
    clubs = _clubs(request)
    options = body.options.model_dump(exclude_defaults=True)
    options.pop("listed", None)
    return await off_loop(
        clubs.store,
        clubs.add_preset,
        club_id,
        me.id,
        body.name,
        body.code,
        options,
        dict(body.game_options),
        body.keep_waiting,
    )


@router.delete("/api/clubs/{club_id}/presets/{preset_id}")
async def remove_preset(club_id: int, preset_id: int, request: Request, me: Me) -> dict[str, Any]:
    clubs = _clubs(request)
    await off_loop(clubs.store, clubs.remove_preset, club_id, me.id, preset_id)
    return {"removed": preset_id}


@router.post("/api/clubs/{club_id}/presets/{preset_id}/table")
async def preset_table(club_id: int, preset_id: int, request: Request, me: Me) -> dict[str, Any]:
    """快速开始: sit at the preset's waiting table with an open seat, or open one. The
    answer is the room, your seat, and its socket. A waiting table played on another node
    of a cluster is answered with ``seat`` null and ``join``, the call that seats you."""
    clubs = _clubs(request)
    hub = request.app.state.hub
    facts = await off_loop(clubs.store, clubs.preset, club_id, me.id, preset_id)
    for room_id in await off_loop(clubs.store, clubs.waiting_tables, club_id, preset_id):
        room = hub.rooms.get(room_id)
        if room is None:
            return {"room": room_id, "seat": None, "join": f"/api/rooms/{room_id}/join"}
        seat = room.seat_of(me.id)
        if seat is None and any(s.player is None and not s.bot for s in room.seats):
            seat = room.join(me, None)
            await room.settled()  # the seat is stored before it is answered
        if seat is not None:
            info = room.info()
            return {
                "room": info.model_dump(),
                "seat": seat,
                "ws": info.ws or f"/ws/rooms/{room_id}",
            }
    room = await _open_table(request, club_id, preset_id, facts, me, seat=0)
    info = room.info()
    return {
        "room": info.model_dump(),
        "seat": room.seat_of(me.id),
        "ws": info.ws or f"/ws/rooms/{room.id}",
    }


async def _open_table(
    request: Request,
    club_id: int,
    preset_id: int | None,
    facts: dict[str, Any],
    me: Any,
    seat: int | None,
) -> Any:
    clubs = _clubs(request)
    hub = request.app.state.hub
    address = request.client.host if request.client else None
    options = RoomOptions.model_validate({**facts["options"], "listed": False})
    async with hub.guard.serial(me.id):
        await hub.guard.check_rooms(
            me.id, address, facts["code"], options, facts["game_options"], seat
        )
        room = await hub.create_room(
            me, facts["code"], options, dict(facts["game_options"]), seat, address
        )
    await room.settled()  # its first seat is stored before it is answered
    await off_loop(clubs.store, clubs.add_table, club_id, room.id, preset_id, me.id)
    return room


async def _keep_tables(request: Request, club_id: int) -> None:
    """Open a waiting table for each 开桌即有 preset of the club that has none."""
    clubs = _clubs(request)
    for club, preset, facts in await off_loop(clubs.store, clubs.keep_waiting_presets):
        if club != club_id:
            continue
        from paiju.server.rows import PlayerRow

        owner = PlayerRow(facts["owner"], "")
        try:
            await _open_table(request, club, preset, facts, owner, seat=None)
        except ServerError:
            continue  # the owner's limits: the table opens when a member asks for one


@router.get("/api/clubs/{club_id}/record")
async def club_record(
    club_id: int,
    request: Request,
    me: Me,
    period: PeriodQuery = "week",
) -> dict[str, Any]:
    """The club's 战绩: per member hands, rooms, points, 大赢家, best hand; ranked."""
    clubs = _clubs(request)
    return await off_loop(clubs.store, clubs.record, club_id, me.id, period)


@router.get("/api/clubs/{club_id}/record.csv")
async def club_record_csv(
    club_id: int, request: Request, me: Me, period: PeriodQuery = "week"
) -> PlainTextResponse:
    """The club's 战绩 of a period as CSV (for the group chat's spreadsheet)."""
    clubs = _clubs(request)
    text = await off_loop(clubs.store, clubs.record_csv, club_id, me.id, period)
    headers = {"Content-Disposition": f'attachment; filename="club-{club_id}-{period}.csv"'}
    return PlainTextResponse(text, media_type="text/csv; charset=utf-8", headers=headers)


class ReplayRef(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["game", "room"]
    id: int = Field(ge=1, le=2**63 - 1)


@router.post("/api/replays")
async def replay_code(body: ReplayRef, request: Request) -> dict[str, Any]:
    """The 回放码 of a finished hand (``game``) or room: made on first asking, the same
    ever after; ``in_play`` (409) before it is over, so a code reveals nothing early."""
    clubs = _clubs(request)
    return {"code": await off_loop(clubs.store, clubs.replay_code, body.kind, body.id)}


@router.get("/api/replays/{code}")
async def replay(code: str, request: Request) -> dict[str, Any]:
    """What a 回放码 opens: ``{"kind": "game", "game": id}`` or ``{"kind": "room", "room": id}``."""
    if not 4 <= len(code) <= 12:
        raise ServerError("no_replay", f"no replay has the code {code!r}", 404)
    clubs = _clubs(request)
    return await off_loop(clubs.store, clubs.resolve, code)
