"""``/api/events``: duplicate events (复式赛) - making one, entering, starting, the
standings, and a deal's two tables side by side (docs/events.md, docs/protocol.md).

An event's tables are rooms of the play layer opened through the hub (not listed, no
spectators, deals fixed by the event); a task of every server moves running events on
(:data:`ADVANCE_EVERY`): the next round's tables open on the node that moves the round on,
and the standings are read from the database, so any node answers them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from paiju.server.accounts.auth import MaybeMe, Me, bearer
from paiju.server.admin.staff import Staff
from paiju.server.errors import ServerError
from paiju.server.events.service import MAX_DEALS, Events, Maker, TablePlan
from paiju.server.events.side_by_side import side_by_side
from paiju.server.options import RoomOptions
from paiju.server.rows import PlayerRow
from paiju.server.store import off_loop, token_status

__all__ = ["ADVANCE_EVERY", "close_tables", "keep_events", "open_tables", "router"]

log = logging.getLogger("paiju.server")

ADVANCE_EVERY = 2.0
"""Seconds between two looks at the running events (a round over: the next one opens)."""

router = APIRouter(tags=["events"])

Id = Annotated[int, Path(ge=1, le=2**63 - 1)]


class NewEvent(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field("", max_length=200)
    code: str = Field(max_length=40, description="A catalogue code: the game.")
    deals: int = Field(8, ge=2, le=MAX_DEALS, description="How many deals every table plays.")
    time_limit: float | None = Field(
        None, ge=0, le=3600, description="Seconds per move (default: the game's)."
    )
    club: int | None = Field(None, ge=1, description="The club whose event it is (its admins).")
    game_options: dict[str, Any] = Field(default_factory=dict)


class NewEntrant(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bot: str | None = Field(None, description="A bot level: easy, normal, hard (简单, 普通, 困难).")
    player: int | None = Field(None, ge=1, description="A player entered by the event's maker.")
    entrant: int | None = Field(None, ge=1, description="The team the player joins.")


class Stop(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field("", max_length=500, description="Why (kept in the audit trail).")


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    entrant: int | None = Field(None, ge=1, description="The team to join (else a new entrant).")


def _events(request: Request) -> Events:
    found: Events = request.app.state.events
    return found


async def _maker(request: Request, authorization: str | None) -> Maker:
    """A staff member's console session, or a player's session (a club's admin)."""
    token = bearer(authorization)
    if token is None:
        raise ServerError("event_maker", "only staff or a club's admin make or run an event", 401)
    state = request.app.state
    staff = Staff(state.store, state.accounts.passwords)
    member = await off_loop(state.store, staff.of_token, token)
    if member is not None:
        return Maker(staff=member.name)
    player, _expired = await token_status(state.store, token)
    if player is None:
        raise ServerError("bad_token", "missing, unknown or signed-out bearer token", 401)
    return Maker(player=player.id)


async def open_tables(app_state: Any, plans: list[TablePlan]) -> None:
    """Open the planned tables through the hub (bots take the bot entrants' seats)."""
    events: Events = app_state.events
    hub = app_state.hub
    for plan in plans:
        seeds = await off_loop(events.store, events.plan_seeds, plan)
        room = await hub.open_table(
            PlayerRow(plan.owner, ""),
            plan.code,
            RoomOptions.model_validate({**plan.options, "bot_delay": hub.limits.min_bot_delay}),
            plan.game_options,
            plan.players,
            plan.bots,
            seeds,
        )
        await room.settled()
        await off_loop(events.store, events.table_opened, plan.event, plan.table_no, room.id)


async def close_tables(app_state: Any, rooms: list[int] | None = None) -> None:
    """Close this node's open tables of events that are over (cancelled or ended early):
    ``rooms``, or every event table it plays. The hand in play there is void."""
    events: Events = app_state.events
    hub = app_state.hub
    mine = [
        r.id
        for r in list(hub.rooms.values())
        if r.options.event is not None and r.open and (rooms is None or r.id in rooms)
    ]
    for room_id in await off_loop(events.store, events.stopped, mine):
        room = hub.rooms.get(room_id)
        if room is None or not room.open:
            continue
        await room.settled()
        room.close("event_stopped", f"room {room_id}'s event was cancelled or ended early")
        await room.settled()


async def keep_events(app_state: Any) -> None:
    """Move running events on every :data:`ADVANCE_EVERY` seconds, and close this node's
    tables of events that were stopped, until cancelled."""
    events: Events = app_state.events
    while True:
        await asyncio.sleep(ADVANCE_EVERY)
        try:
            plans = await asyncio.to_thread(events.advance)
            await open_tables(app_state, plans)
            await close_tables(app_state)
        except Exception as exc:  # the database away: the next look moves them on
            log.warning("events: cannot move the running events on (%r)", exc)


@router.get("/api/events")
async def list_events(request: Request, me: MaybeMe) -> dict[str, Any]:
    """The events you may see, newest first (the operator's, and your clubs')."""
    events = _events(request)
    found = await off_loop(events.store, events.visible, None if me is None else me.id)
    return {"events": found}


@router.post("/api/events", status_code=201)
async def make_event(
    body: NewEvent, request: Request, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Make an event (staff, or a club's admin for the club): open to entrants."""
    maker = await _maker(request, authorization)
    events = _events(request)
    event = await off_loop(
        events.store,
        functools.partial(
            events.create,
            maker,
            name=body.name,
            code=body.code,
            deals=body.deals,
            time_limit=body.time_limit,
            club=body.club,
            game_options=body.game_options,
        ),
    )
    return await off_loop(events.store, events.event, event, maker.player)


@router.get("/api/events/{event_id}")
async def get_event(event_id: Id, request: Request, me: MaybeMe) -> dict[str, Any]:
    """An event: its entrants, tables, standings (live or final) and deals."""
    events = _events(request)
    return await off_loop(events.store, events.event, event_id, None if me is None else me.id)


@router.post("/api/events/{event_id}/entrants", status_code=201)
async def add_entrant(
    event_id: Id,
    body: NewEntrant,
    request: Request,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The maker enters a bot level, or a player (into a team with ``entrant``)."""
    maker = await _maker(request, authorization)
    events = _events(request)
    if body.bot is not None:
        entrant = await off_loop(events.store, events.add_bot, maker, event_id, body.bot)
    elif body.player is not None:
        names = await off_loop(events.store, events.store.player_names, [body.player])
        if body.player not in names:
            raise ServerError("no_player", f"no player {body.player}", 404)
        entrant = await off_loop(
            events.store,
            functools.partial(
                events.join, event_id, body.player, names[body.player], body.entrant, maker
            ),
        )
    else:
        raise ServerError("bad_entrant", "give a bot level or a player", 400)
    return {"entrant": entrant}


@router.post("/api/events/{event_id}/join", status_code=201)
async def join_event(event_id: Id, body: Join, request: Request, me: Me) -> dict[str, Any]:
    """Enter the event: a new entrant, or into a team (``entrant``) of a team game."""
    events = _events(request)
    entrant = await off_loop(events.store, events.join, event_id, me.id, me.name, body.entrant)
    return {"entrant": entrant}


@router.delete("/api/events/{event_id}/join")
async def leave_event(event_id: Id, request: Request, me: Me) -> dict[str, Any]:
    """Leave the event before it starts."""
    events = _events(request)
    await off_loop(events.store, events.leave, event_id, me.id)
    return {"left": event_id}


@router.post("/api/events/{event_id}/start")
async def start_event(
    event_id: Id, request: Request, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Start: the rotation is set and the first round's tables open."""
    maker = await _maker(request, authorization)
    events = _events(request)
    plans = await off_loop(events.store, events.start, maker, event_id)
    await open_tables(request.app.state, plans)
    return await off_loop(events.store, events.event, event_id, maker.player)


async def _stop(
    event_id: int,
    request: Request,
    body: Stop | None,
    authorization: str | None,
    call: Callable[[Events], Callable[..., list[int]]],
) -> dict[str, Any]:
    """Stop an event through ``call`` (its cancel, or its end now), then close this node's
    tables of it (the other nodes close theirs at their next look)."""
    maker = await _maker(request, authorization)
    events = _events(request)
    reason = "" if body is None else body.reason
    where = request.client.host if request.client else None
    work = functools.partial(call(events), maker, event_id, reason, where)
    rooms = await off_loop(events.store, work)
    await close_tables(request.app.state, rooms)
    return await off_loop(events.store, events.event, event_id, maker.player)


@router.post("/api/events/{event_id}/cancel")
async def cancel_event(
    event_id: Id,
    request: Request,
    body: Stop | None = None,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Call the event off (its maker: staff, or the club's admins): nothing is scored, no
    rating moves, its tables close (a hand in play is void). Audited."""
    return await _stop(event_id, request, body, authorization, lambda x: x.cancel)


@router.post("/api/events/{event_id}/end")
async def end_event(
    event_id: Id,
    request: Request,
    body: Stop | None = None,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """End a running event now (its maker): the standings are final over the deals that
    every table playing them has finished, the ratings move as at its end, its tables
    close (a hand in play is void). Audited."""
    return await _stop(event_id, request, body, authorization, lambda x: x.end_early)


@router.get("/api/events/{event_id}/standings")
async def event_standings(event_id: Id, request: Request, me: MaybeMe) -> dict[str, Any]:
    """The standings: live while the event runs (as hands settle), final after it."""
    events = _events(request)
    await off_loop(events.store, events.event, event_id, None if me is None else me.id)
    return await off_loop(events.store, events.standings, event_id)


@router.get("/api/events/{event_id}/deals/{deal}/side-by-side")
async def deal_side_by_side(
    event_id: Id,
    deal: Annotated[int, Path(ge=0, le=MAX_DEALS)],
    request: Request,
    me: MaybeMe,
    a: Annotated[int, Query(ge=1, le=2**63 - 1, description="One table's game of the deal.")],
    b: Annotated[int, Query(ge=1, le=2**63 - 1, description="Another table's game of it.")],
    seat: Annotated[int, Query(ge=0, le=15, description="The seat whose view is shown.")] = 0,
) -> Response:
    """The same deal at two tables: both replays' steps from ``seat``'s view, aligned
    step by step and decision by decision (once every table has played the deal)."""
    events = _events(request)
    games = await off_loop(
        events.store, events.deal_games, event_id, deal, None if me is None else me.id
    )
    if a == b or a not in games or b not in games:
        raise ServerError(
            "not_this_deal", f"games {a} and {b} are not two tables of deal {deal}", 404
        )
    state = request.app.state
    finished = state.finished

    async def both() -> tuple[dict[str, Any], dict[str, Any]]:
        return await finished(a)(), await finished(b)()

    client = request.client.host if request.client else None
    work = functools.partial(side_by_side, seat=seat)
    answer: Response = await state.heavy.answer(
        client, ("side_by_side", a, b, seat), both, work, True
    )
    return answer
