"""The FastAPI application: REST under ``/api``, one WebSocket per seat under ``/ws``,
the web client (``paiju/web``) at ``/`` when it is installed, OpenAPI at ``/docs``.

REST calls that act or show a player's own data need ``Authorization: Bearer <token>``;
the catalogue and finished games (with their fairness proofs) are public. A socket
authenticates with that header or a first ``hello`` message (a token is never put in a
URL). Accounts and sessions are :mod:`paiju.server.accounts`' router.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import hmac
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from paiju import __version__
from paiju.catalog import catalog, find_variant
from paiju.errors import PaijuError
from paiju.games import advice as family_advice
from paiju.games import variant_json
from paiju.reasons import error_fields, texts_of_code
from paiju.server import inbox
from paiju.server.accounts.attempts import Attempts
from paiju.server.accounts.auth import Me, bearer, current_player
from paiju.server.accounts.devices import device_name
from paiju.server.accounts.kicks import ClusterKicks, Kicks
from paiju.server.accounts.passkeys import router as passkeys_router
from paiju.server.accounts.router import Hashing
from paiju.server.accounts.router import router as accounts_router
from paiju.server.accounts.service import Accounts
from paiju.server.admin.announcements import Notices
from paiju.server.admin.catalogue import HouseCatalogue, preload_house
from paiju.server.admin.chat_reports import ChatReports
from paiju.server.admin.console import mute_seat
from paiju.server.admin.router import router as admin_router
from paiju.server.admin.staff import Staff
from paiju.server.client import Client
from paiju.server.clubs.router import router as clubs_router
from paiju.server.clubs.service import ClubLimits, Clubs
from paiju.server.cluster import Cluster, NodeConfig
from paiju.server.errors import ServerError
from paiju.server.events.router import keep_events
from paiju.server.events.router import router as events_router
from paiju.server.events.service import Events
from paiju.server.heavy import HeavyWork
from paiju.server.hub import Hub
from paiju.server.identity import clean_name
from paiju.server.invitations import Invitations
from paiju.server.invites import is_code, normalize
from paiju.server.lease import StaleLease
from paiju.server.messages import (
    ErrorMsg,
    Hello,
    MatchSummaryMsg,
    Preview,
    RoomInfo,
    Suggestions,
)
from paiju.server.nearby import Point
from paiju.server.net import replayed
from paiju.server.options import Limits, RoomOptions
from paiju.server.ratings.router import keep_rating
from paiju.server.ratings.router import router as ratings_router
from paiju.server.ratings.service import Ratings
from paiju.server.reader import SocketReader
from paiju.server.records import player_record, table_mates
from paiju.server.reviews.router import router as reviews_router
from paiju.server.room import Room
from paiju.server.rows import PlayerRow
from paiju.server.shared_limits import Admitted
from paiju.server.sockets import DIRECT, Direct
from paiju.server.store import LOCK_CHECK_SECONDS, Store, off_loop, token_status
from paiju.server.summary import room_summary, table_of
from paiju.server.verify import game_record, game_steps, verify_game

__all__ = ["create_app"]

log = logging.getLogger("paiju.server")

_STATUS = {
    "unknown_variant": 404,
    "not_implemented": 409,
    "illegal_action": 400,
    "not_your_turn": 409,
    "bad_message": 400,
    "unfair": 409,
}
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}
"""The error codes of the framework's own refusals (others: ``bad_request``)."""


MAX_ID = 2**63 - 1
"""The largest id (a room, a game) the database can hold."""
Id = Annotated[int, PathParam(ge=1, le=MAX_ID, description="An id (1 to 2**63 - 1).")]


class Registration(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200, description="The display name.")
    device: str | None = Field(None, max_length=200, description="A name for this device.")
    mark: str | None = Field(
        None,
        max_length=64,
        description="The browser's own random mark (kept in its storage), so that the"
        " operator can see a new guest made from the browser of a banned player.",
    )


class Registered(BaseModel):
    id: int
    name: str
    token: str = Field(description="The bearer token: shown once, stored hashed.")
    expires: float | None = Field(description="When the token stops working (Unix time).")


class NewRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(description="A catalogue code, e.g. 2001 or 1301.")
    options: RoomOptions = RoomOptions()
    game_options: dict[str, Any] = Field(
        default_factory=dict, description="The game's own room options (game(code, **options))."
    )
    seat: int | None = Field(0, ge=0, le=15, description="The seat the creator takes (null: none).")


class InviteRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: int = Field(ge=1, le=2**63 - 1, description="The player invited (a table-mate).")


class PointBody(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(None, ge=0, le=15, description="A seat; default: the first open one.")
    location: PointBody | None = Field(
        None,
        description="The player's location, if they allowed the browser to give it: a room "
        "with refuse_nearby refuses a seat too close to a seated player's (kept in memory "
        "until the first deal, as the distance alone; docs/fairness.md).",
    )


class RoomCreated(BaseModel):
    room: RoomInfo
    seat: int | None
    ws: str


class Invite(BaseModel):
    invite: str = Field(description="The invite code (邀请码) as the server writes it.")
    room: int = Field(description="The room's id.")
    status: str = Field(description="The room's status: waiting or playing.")


GC_THRESHOLDS = (20_000, 20, 50)
"""The cyclic collector's thresholds while serving (Python's default: 700, 10, 10)."""


def tune_gc() -> None:
    """Keep the cyclic garbage collector's pauses short while serving: everything loaded
    at start-up (modules, the catalogue, schemas, recovered rooms) is frozen out of its
    scans, and young collections run less often (each action makes many short-lived
    containers, few of them cyclic). Measured in bench/server_load.py: without this a full
    collection held up every room for 100-180 ms under load."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _landing() -> str:
    return (
        "<!doctype html><meta charset=utf-8><title>paiju 牌局</title>"
        "<h1>paiju 牌局</h1><p>The game server is running. The web client is not installed;"
        ' see the <a href="/docs">API (OpenAPI)</a> and docs/protocol.md.</p>'
    )


def _web_dir() -> Path | None:
    with contextlib.suppress(ModuleNotFoundError, TypeError):
        folder = Path(str(resources.files("paiju") / "web"))
        if (folder / "index.html").is_file():
            return folder
    return None


async def _keep_lock(store: Store) -> None:
    """A single server keeps its database's lock (:meth:`Store.keep_lock`): checked every
    :data:`LOCK_CHECK_SECONDS` off the event loop, taken again after a database restart;
    ends once another server took it (this one is displaced and writes nothing more)."""
    while True:
        await asyncio.sleep(LOCK_CHECK_SECONDS)
        try:
            kept = await asyncio.to_thread(store.keep_lock)
        except Exception as exc:  # the database does not answer: the next round tries again
            log.warning("cannot check the database's lock just now: %r", exc)
            continue
        if kept in ("taken", "none"):
            return


def create_app(
    db: str = "paiju.db",
    limits: Limits | None = None,
    admin_token: str | None = None,
    allow_rollback: bool = False,
    opened: Store | None = None,
    node: NodeConfig | None = None,
) -> FastAPI:
    """The server's app on database ``db`` (a SQLite path or a SQLAlchemy DSN), or on an
    ``opened`` store (``paiju serve`` opens it before listening, so that a database in
    use or gone back in time stops it with a clear message).

    ``admin_token``: the operator's bearer token (may close any room); ``allow_rollback``:
    start even on a database that went back in time (see
    :class:`~paiju.server.watermark.Watermark`). With ``node``: one node of a cluster
    (:mod:`paiju.server.cluster`) on a shared PostgreSQL database."""
    state: dict[str, Any] = {}
    limits = limits or Limits()
    heavy = HeavyWork(limits)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if node is None:
            from paiju.server.shared_limits import TOKEN_CACHE_SECONDS

            store = opened or Store(db, owner=True, allow_rollback=allow_rollback)
            # a session ended by another process (paiju admin) stops working within this
            store.token_ttl = TOKEN_CACHE_SECONDS
            hub = Hub(store, limits)
        else:
            from paiju.server.cluster import start_node
            from paiju.server.shared_limits import TOKEN_CACHE_SECONDS, SharedGuard

            # a house variant's rooms the node takes at once need its entry
            await asyncio.to_thread(preload_house, db)
            cluster = state["cluster"] = await start_node(db, limits, node)
            hub, store = cluster.hub, cluster.store
            store.token_ttl = TOKEN_CACHE_SECONDS
            hub.guard = SharedGuard(hub, cluster)
        await hub.guard.start()
        house = app.state.catalogue = HouseCatalogue(store)
        await house.start()
        hub.offer = house.offer
        app.state.chat_reports = ChatReports(store)
        hub.chat_reported = app.state.chat_reports.keep_soon
        kicks = Kicks(store) if node is None else ClusterKicks(store, node.redis_url, node.name)
        await kicks.start()
        state["kicks"] = kicks
        app.state.notices = Notices(store, lambda: hub.rooms.values())
        await app.state.notices.start()
        app.state.accounts = Accounts(store)
        app.state.clubs = Clubs(
            store,
            ClubLimits(
                clubs_per_player=limits.clubs_per_player,
                founded_per_player=limits.clubs_founded_per_player,
                members_per_club=limits.members_per_club,
                presets_per_club=limits.presets_per_club,
            ),
        )
        app.state.ratings = Ratings(store)
        app.state.staff = Staff(store, app.state.accounts.passwords)  # who is staff (a token)
        rater = asyncio.create_task(keep_rating(app.state.ratings))
        app.state.events = events = Events(store, app.state.clubs, app.state.ratings)
        hub.fixed_deals = events.seeds_of_room
        if node is not None:  # the node loaded its rooms before the events were known
            hub.fix_event_deals()
        app.state.kicks = kicks
        app.state.hub = hub
        app.state.attempts = Attempts()
        app.state.hashing = Hashing()
        app.state.touched = {}
        app.state.token_lifetime = limits.token_days * 86_400
        state["store"], state["hub"] = store, hub
        if node is None:
            from paiju.server.metrics import NodeMetrics

            single = state["metrics"] = NodeMetrics(hub)
            hub.journal.observe = single.committed
        else:
            state["metrics"] = state["cluster"].metrics
        app.state.metrics = state["metrics"]
        app.state.cluster = state.get("cluster")
        app.state.metrics.start()
        app.state.store = store
        recovered = hub.recover() if node is None else len(hub.rooms)
        log.info("paiju server: %d open rooms resumed from %s", recovered, store.url)
        tune_gc()
        keeper = asyncio.create_task(_keep_lock(store)) if node is None else None
        eventer = asyncio.create_task(keep_events(app.state))
        yield
        eventer.cancel()
        if keeper is not None:
            keeper.cancel()
        hub.shutdown()
        heavy.shutdown()
        rater.cancel()
        await kicks.stop()
        await house.stop()
        await app.state.notices.stop()
        await hub.guard.stop()
        if "cluster" in state:
            await state["cluster"].stop()
        app.state.metrics.stop()
        store.close()

    app = FastAPI(
        title="paiju 牌局 game server",
        version=__version__,
        lifespan=lifespan,
        description="Authoritative rooms over WebSocket; see docs/protocol.md.",
    )

    def events() -> Events:
        found: Events = app.state.events
        return found

    def invitations() -> Invitations:
        return Invitations(store())

    def hub() -> Hub:
        result: Hub = state["hub"]
        return result

    def store() -> Store:
        result: Store = state["store"]
        return result

    @app.exception_handler(PaijuError)
    async def paiju_error(request: Request, exc: PaijuError) -> JSONResponse:
        if exc.code == "stale_lease":  # a cluster node: the room went to another node
            moving = {"code": "room_moving", "message": f"{exc}; try again in a few seconds"}
            return JSONResponse({"error": moving}, status_code=503, headers={"Retry-After": "2"})
        status = exc.status if isinstance(exc, ServerError) else _STATUS.get(exc.code, 400)
        body = {"code": exc.code, "message": str(exc), **error_fields(exc)}
        retry = getattr(exc, "params", {}).get("retry_after")
        headers = None if retry is None else {"Retry-After": str(retry)}
        return JSONResponse({"error": body}, status_code=status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ())) or 'request'}: {e.get('msg')}"
            for e in exc.errors()
        )
        return JSONResponse(
            {"error": {"code": "bad_request", "message": problems[:2000]}}, status_code=422
        )

    @app.exception_handler(OperationalError)
    async def no_database(request: Request, exc: OperationalError) -> JSONResponse:
        log.warning("%s %s: the database does not answer: %r", request.method, request.url, exc)
        message = "the server cannot reach its database just now; try again in a few seconds"
        error: dict[str, Any] = {"code": "unavailable", "message": message, "reason": None}
        return JSONResponse(
            {"error": {**error, "params": {}, "text": texts_of_code("unavailable")}},
            status_code=503,
            headers={"Retry-After": "2"},
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """The framework's own refusals (a body it cannot parse - nested too deeply -, a
        path no route has, a method a route does not take) in the error envelope."""
        return JSONResponse(
            {
                "error": {
                    "code": _HTTP_CODES.get(exc.status_code, "bad_request"),
                    "message": (
                        "the JSON body cannot be read (nested too deeply, or not JSON)"
                        if exc.status_code == 400
                        else str(exc.detail)
                    ),
                }
            },
            status_code=exc.status_code,
            headers=exc.headers,
        )

    @app.exception_handler(RecursionError)
    async def too_deep(request: Request, exc: RecursionError) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": "bad_request", "message": "the JSON body is nested too deeply"}},
            status_code=400,
        )

    @app.get("/api/health")
    async def health() -> JSONResponse:
        """200 while this process serves; 503 (ok false) for a server that gave its
        database (a cluster node: its name) up to another process, so that a load
        balancer sends it nothing more."""
        displaced = store().displaced
        body = {"ok": not displaced, "version": __version__, "rooms": len(hub().rooms)}
        if displaced:
            body["reason"] = (
                "another process runs as this node now"
                if node is not None
                else "another server serves this database now"
            )
        return JSONResponse(body, status_code=503 if displaced else 200)

    @app.post("/api/players", status_code=201)
    async def register(body: Registration, request: Request) -> Registered:
        """Register a display name; the answer holds the bearer token (keep it)."""
        name = clean_name(body.name)
        address = _address(request)
        await hub().guard.registering(address)
        lifetime = limits.token_days * 86_400
        mark = "".join(c for c in body.mark or "" if c.isalnum())[:16]
        device = device_name(request.headers.get("user-agent"), body.device)
        device = f"{device[:100]} #{mark}" if mark else device
        row, token, expires = await off_loop(
            store(), store().register, name, lifetime, device, address
        )
        accounts: Accounts = app.state.accounts
        await off_loop(store(), accounts.flag_guest, row.id, address, mark)
        return Registered(id=row.id, name=row.name, token=token, expires=expires)

    @app.post("/api/players/me/token")
    async def rotate_token(me: Me) -> Registered:
        """A new bearer token for you; the one this request used stops working now."""
        token, expires = await off_loop(
            store(), store().rotate_token, me, limits.token_days * 86_400
        )
        return Registered(id=me.id, name=me.name, token=token, expires=expires)

    @app.get("/api/players/me")
    async def me(me: Me) -> dict[str, Any]:
        balance = await off_loop(store(), store().balance, me.id)
        return {"id": me.id, "name": me.name, "balance": balance}

    @app.get("/api/players/me/ledger")
    async def my_ledger(me: Me) -> dict[str, Any]:
        """积分: every settlement of the player, oldest first, with the running balance."""

        def read(player: int) -> dict[str, Any]:
            db = store()
            entries = db.ledger(player)
            return {"player": player, "balance": db.balance(player), "entries": entries}

        return await off_loop(store(), read, me.id)

    @app.get("/api/players/me/mates")
    async def my_mates(me: Me) -> dict[str, Any]:
        """最近的牌友: who sat at the player's last tables (the latest first)."""
        return {"mates": await off_loop(store(), table_mates, store(), me.id)}

    @app.get("/api/players/me/invites")
    async def my_invites(me: Me) -> dict[str, Any]:
        """The invitations to a table waiting for the player (the last ten minutes)."""
        waiting = await off_loop(store(), invitations().waiting, me.id)
        return {"invites": [inv.to_json() for inv in waiting]}

    @app.post("/api/rooms/{room_id}/invite")
    async def invite_player(room_id: Id, body: InviteRequest, me: Me) -> dict[str, Any]:
        """邀请: a player seated in a waiting room invites a table-mate to it."""
        room = hub().room(room_id)
        if room.seat_of(me.id) is None:
            raise ServerError("not_seated", f"you hold no seat in room {room_id}", 403)
        if room.status != "waiting":
            raise ServerError("room_started", f"room {room_id} has started", 409)
        names = await off_loop(store(), store().player_names, [body.player])
        if names.get(body.player) is None:
            raise ServerError("no_player", f"no player {body.player}", 404)
        await off_loop(store(), invitations().send, body.player, room_id, me.id)
        return {"invited": body.player, "room": room_id}

    @app.get("/api/players/me/record")
    async def my_record(me: Me) -> dict[str, Any]:
        """战绩: the player's rooms (总结算, 大赢家, players, hands) and per-game statistics."""
        return await off_loop(store(), player_record, store(), me.id)

    @app.get("/api/catalog")
    async def list_catalog(request: Request) -> list[dict[str, Any]]:
        """Every entry, with the house's setting of it: ``enabled`` (new rooms may be made
        of it), the ``defaults`` of its game options and the ``choices`` a room form
        offers (an option not named: any the game allows); ``house``: a house variant."""
        house: HouseCatalogue = request.app.state.catalogue
        return [
            {**variant_json(v), **house.setting(v.code).to_json(), "house": v.code in house.house}
            for v in catalog()
        ]

    @app.get("/api/catalog/{code}")
    async def rules(code: str, request: Request) -> dict[str, Any]:
        """A catalogue entry with its rule page: the verbatim Chinese text (原文) and the
        reading of it in English (``rules_en``) and Chinese (``reading_zh``, 规则说明)."""
        v = find_variant(code)
        house: HouseCatalogue = request.app.state.catalogue
        return {
            **variant_json(v),
            **house.setting(v.code).to_json(),
            "house": v.code in house.house,
            "rules_zh": v.rules_zh,
            "rules_en": v.rules_en,
            "reading_zh": v.reading_zh,
        }

    @app.get("/api/rooms")
    async def rooms(
        me: Me,
        status: Annotated[str | None, Query(pattern="^(waiting|playing|finished|closed)$")] = None,
    ) -> list[RoomInfo]:
        return [
            r.info()
            for r in hub().rooms.values()
            if (status is None or r.status == status) and r.options.listed
        ]

    @app.post("/api/rooms", status_code=201)
    async def create_room(body: NewRoom, me: Me, request: Request) -> RoomCreated:
        """Create a room; the creator sits at ``seat``; bots take the last ``bots`` seats."""
        async with hub().guard.serial(me.id):
            await hub().guard.check_rooms(
                me.id, _address(request), body.code, body.options, body.game_options, body.seat
            )
            room = await hub().create_room(
                me, body.code, body.options, dict(body.game_options), body.seat, _address(request)
            )
        info = room.info()
        return RoomCreated(
            room=info, seat=room.seat_of(me.id), ws=info.ws or f"/ws/rooms/{room.id}"
        )

    @app.get("/api/rooms/{room_id}")
    async def get_room(room_id: Id, me: Me) -> RoomInfo:
        return hub().room(room_id).info()

    @app.get("/api/invites/{code}")
    async def invite(
        code: Annotated[str, PathParam(max_length=40)], me: Me, request: Request
    ) -> Invite:
        """The open room of an invite code (邀请码; case, spaces and dashes do not matter).
        Lookups are limited per player and per address, across a cluster's nodes (429
        ``too_many_lookups``)."""
        await hub().guard.invite_lookup(me.id, _address(request))
        typed = normalize(code)
        row = await off_loop(store(), store().room_by_invite, typed) if is_code(typed) else None
        if row is not None:
            room = hub().rooms.get(row.id)
            status = room.status if room is not None else row.status
            if status in ("waiting", "playing"):
                return Invite(invite=typed, room=row.id, status=status)
            raise ServerError("invite_closed", f"the room of invite {code!r} is {status}", 404)
        raise ServerError("no_invite", f"no room has the invite code {code!r}", 404)

    @app.post("/api/rooms/{room_id}/join")
    async def join(room_id: Id, body: JoinRequest, me: Me, request: Request) -> RoomCreated:
        room = hub().room(room_id)
        address = _address(request)
        point = None if body.location is None else Point(body.location.lat, body.location.lon)
        async with hub().guard.serial(me.id):
            await hub().guard.check_join(me.id)
            if room.seat_of(me.id) is None:
                room.check_nearby(address, point)  # 防作弊: a room that refuses near seats
            seat = room.join(me, body.seat)
        room.seen_from(seat, address)
        if point is not None:
            room.locate(seat, point)
        await room.settled()  # the seat is stored before it is answered
        await off_loop(store(), invitations().drop, me.id, room_id)
        info = room.info()
        return RoomCreated(room=info, seat=seat, ws=info.ws or f"/ws/rooms/{room.id}")

    @app.post("/api/rooms/{room_id}/close")
    async def close_room(
        room_id: Id, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> RoomInfo:
        """Close a room for good: its owner or the operator (``--admin-token``). The hand
        in play is void; every socket gets ``room_closed``."""
        room = hub().room(room_id)
        token = _bearer(authorization)
        operator = admin_token is not None and token is not None and _same(token, admin_token)
        if not operator:
            me = await current_player(request, authorization)
            if room.owner != me.id:
                raise ServerError(
                    "not_owner", "only the room's creator or the operator may close it", 403
                )
        if not room.open:
            raise ServerError("room_over", f"room {room_id} is already {room.status}", 409)
        by = "the operator" if operator else "its owner"
        await room.settled()  # the actions it holds first: the hand closed is the one stored
        room.close("room_closed", f"room {room_id} was closed by {by}")
        await room.settled()  # and its closing stored before it is answered
        if hub().rooms.get(room_id) is not room:  # a cluster node: the room moved meanwhile
            raise StaleLease([room_id])
        return room.info()

    @app.post("/api/rooms/{room_id}/leave")
    async def leave(room_id: Id, me: Me) -> dict[str, Any]:
        """Leave: before the start the seat opens again; later a bot plays it."""
        seat = hub().room(room_id).leave(me)
        return {"room": room_id, "seat": seat}

    @app.get("/api/rooms/{room_id}/summary")
    async def summary(room_id: Id, me: Me) -> MatchSummaryMsg:
        """总结算: each seat's points, 积分 and hands won, and the 大赢家 - of the whole match
        once the room is finished (so far while it plays), also long after (战绩)."""
        room = hub().rooms.get(room_id)
        if room is not None:
            await room.settled()
            return room.match_summary()
        row = await off_loop(store(), store().room, room_id)
        if row is None:
            raise ServerError("no_room", f"no room {room_id}", 404)
        return await off_loop(store(), room_summary, store(), table_of(row))

    @app.post("/api/rooms/{room_id}/again", status_code=201)
    async def again(room_id: Id, me: Me) -> RoomCreated:
        """再来一局: the next match at this finished room's table (same game, options,
        players and bots), created by the first seated player who asks; the others are
        seated there too and every socket of the room is told (``next_room``)."""
        room = hub().room(room_id)
        async with hub().guard.serial(me.id):
            new = await hub().again(room, me)
        info = new.info()
        return RoomCreated(room=info, seat=new.seat_of(me.id), ws=info.ws or f"/ws/rooms/{new.id}")

    @app.post("/api/rooms/{room_id}/start")
    async def start(room_id: Id, me: Me) -> RoomInfo:
        """The owner starts now: bots take the open seats."""
        room = hub().room(room_id)
        if room.owner != me.id:
            raise ServerError("not_owner", "only the room's creator may start it", 403)
        room.start()
        return room.info()

    async def seated(room_id: int, me: PlayerRow) -> tuple[Room, int]:
        """The room and the player's seat in it (403 without one), its writes settled."""
        room = hub().room(room_id)
        seat = room.seat_of(me.id)
        if seat is None:
            raise ServerError("not_seated", f"you have no seat in room {room_id}", 403)
        await room.settled()
        return room, seat

    @app.get("/api/rooms/{room_id}/suggestions")
    async def suggestions(
        room_id: Id, me: Me, request: Request, limit: int = Query(5, ge=1, le=10)
    ) -> Suggestions:
        """The solver's advice (推荐摆法, 推荐分组) for your seat in the hand in play
        (worked out off the event loop; limited per client: :mod:`~paiju.server.heavy`)."""
        room, seat = await seated(room_id, me)
        state = room.state
        advice: list[dict[str, Any]] = []
        if state is not None:
            hand = (room_id, room.hand_id, len(state.history), seat, limit)
            snapshot = state.clone()  # the room plays on meanwhile

            async def now() -> Any:
                return snapshot

            work = functools.partial(_advice, seat, limit)
            answer = await heavy.body(_address(request), ("advice", *hand), now, work, False)
            advice = json.loads(answer)
        return Suggestions(room=room_id, game=room.hand_id or None, seat=seat, suggestions=advice)

    @app.post("/api/rooms/{room_id}/check")
    async def check(room_id: Id, action: dict[str, Any], me: Me) -> Preview:
        """Check an action of your seat without playing it: the game's verdict on it now
        (a 十三张 arrangement's row categories and 倒水), or an error saying why it is not
        legal. Nothing changes; the action is not stored."""
        room, seat = await seated(room_id, me)
        state = room.state
        if state is None:
            raise ServerError(
                "no_hand", "no hand is in play; wait for the next deal", 409, **room.words()
            )
        shown = state.preview(seat, room.parse_action(action))
        return Preview(room=room_id, game=room.hand_id, seat=seat, preview=shown)

    @app.get("/api/rooms/{room_id}/spectate")
    async def spectate(room_id: Id, me: Me) -> dict[str, Any]:
        """The spectator's view now; open ``ws`` (as a non-seated player) to follow."""
        room = hub().room(room_id)
        if not room.options.spectators:
            raise ServerError("spectators_off", f"room {room_id} does not allow spectators", 403)
        await room.settled()
        view = None if room.state is None else room.state.view(None)
        return {"room": room.info().model_dump(), "view": view, "ws": f"/ws/rooms/{room_id}"}

    @app.get("/api/games")
    async def games(
        room: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    ) -> list[dict[str, Any]]:
        """Finished games (hands), newest first."""
        return await off_loop(store(), store().hands, room)

    def _record(game_id: int) -> dict[str, Any]:
        hand = store().hand(game_id)
        if hand is None:
            raise ServerError("no_game", f"no game {game_id}", 404)
        if hand.status == "void":
            raise ServerError(
                "void_game", f"game {game_id} is void: its room was closed before it ended", 409
            )
        if hand.status != "over":
            raise ServerError(
                "in_play", f"game {game_id} is still in play; its seed is revealed at the end", 409
            )
        room = store().room(hand.room_id)
        if (
            room is not None
            and room.options.get("event")
            and events().deal_in_play(hand.room_id, hand.hand_no)
        ):
            raise ServerError(
                "deal_in_play",
                f"game {game_id} is a deal of a duplicate event that some table has still to"
                " play; its record opens once every table has played it",
                409,
            )
        stake = None if room is None else int(room.options.get("stake", 1))
        # public: the proof and the replay; not who played nor their balances (a player's
        # balance is that player's alone: GET /api/players/me/ledger)
        entries = [
            {"seat": e["seat"], "delta": e["delta"]} for e in store().ledger_of_hand(game_id)
        ]
        record = game_record(hand, entries, stake)
        players = record.pop("players")
        record["bots"] = [p is None for p in players]
        # the names the table showed (display names are public at the table; ids are not)
        names = store().player_names([p for p in players if p is not None])
        record["names"] = [None if p is None else names.get(p) for p in players]
        return record

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: Id) -> dict[str, Any]:
        """A finished game: its replay (seed, deal, action log) and its fairness proof."""
        return await off_loop(store(), _record, game_id)

    def finished(game_id: int) -> Callable[[], Awaitable[dict[str, Any]]]:
        return functools.partial(off_loop, store(), _record, game_id)

    app.state.heavy, app.state.finished = heavy, finished  # the platform's heavy calls

    @app.get("/api/games/{game_id}/verify")
    async def verify(game_id: Id, request: Request) -> Response:
        """Re-deal from the revealed seed and check it against the commitment and the log
        (off the event loop, kept once made; limited per client: :mod:`~paiju.server.heavy`)."""
        key = ("verify", game_id)
        return await heavy.answer(_address(request), key, finished(game_id), verify_game, True)

    @app.get("/api/games/{game_id}/replay")
    async def replay_game(
        game_id: Id, request: Request, seat: Annotated[int | None, Query(ge=0, le=15)] = None
    ) -> Response:
        """Every state of a finished game: the view (of ``seat``, default the spectator's)
        before the first action and after each one (off the event loop, kept once made;
        limited per client: :mod:`~paiju.server.heavy`)."""
        steps = functools.partial(_steps, seat=seat)
        key = ("replay", game_id, seat)
        return await heavy.answer(_address(request), key, finished(game_id), steps, True)

    async def room_socket(websocket: WebSocket, room_id: int) -> None:
        await _serve_socket(websocket, room_id, hub(), state.get("cluster"), state["kicks"])

    if node is not None:
        from paiju.server.cluster import install

        install(app, lambda: state.get("cluster"))
    else:

        @app.get("/metrics", include_in_schema=False)
        async def metrics() -> Response:
            """The server's series in the Prometheus text format (:mod:`paiju.server.metrics`)."""
            from paiju.server.metrics import CONTENT_TYPE

            return Response(state["metrics"].render(), media_type=CONTENT_TYPE)

    app.include_router(accounts_router)
    app.include_router(passkeys_router)
    app.include_router(clubs_router)
    app.include_router(ratings_router)
    app.include_router(events_router)
    app.include_router(reviews_router)
    app.include_router(admin_router)

    # outside the cluster's middleware: a call passed on to another node is read within it
    app.add_middleware(BodyLimit, limit=limits.max_body_bytes)
    app.add_middleware(RoomSockets, serve=room_socket)  # outermost: see RoomSockets

    web = _web_dir()
    if web is not None:
        app.mount("/", StaticFiles(directory=str(web), html=True), name="web")
    else:

        @app.get("/", include_in_schema=False)
        async def landing() -> HTMLResponse:
            return HTMLResponse(_landing())

    return app


def _steps(record: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return game_steps(record, seat)


def _advice(seat: int, limit: int, state: Any) -> list[dict[str, Any]]:
    return family_advice(state, seat, limit)


def _address(request: Request | WebSocket) -> str | None:
    """The client's address (the peer of the connection)."""
    return request.client.host if request.client is not None else None


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


ROOM_SOCKET = re.compile(r"/ws/rooms/([0-9]+)")
"""The path of a room's socket (``/ws/rooms/{room_id}``)."""


class RoomSockets:
    """The rooms' sockets (``/ws/rooms/{room_id}``), served by ``serve`` from the app's
    outermost middleware rather than through the router: a socket's task waits inside
    every layer it was called through for as long as the socket is open, and the
    router's layers (the exception handlers, the dependency stacks, the route's own
    wrappers) weighed about a quarter of what an idle socket held. Every other call, and
    a socket of any other path, goes on to the app."""

    def __init__(self, app: ASGIApp, serve: Callable[[WebSocket, int], Awaitable[None]]) -> None:
        self.app, self.serve = app, serve

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            path: str = scope["path"]
            root = scope.get("root_path", "")
            found = ROOM_SOCKET.fullmatch(path[len(root) :] if path.startswith(root) else path)
            if found is not None:
                await self.serve(WebSocket(scope, receive, send), int(found[1]))
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """Refuse a request body over ``limit`` bytes (``body_too_large``, 413): by its
    ``Content-Length`` before reading, and while reading a body sent without one (the
    body, at most ``limit`` bytes, is read before the app sees the request)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit
        for name, value in scope["headers"]:
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                await _too_large(send, limit)
                return
        # read the whole (small) body first, refusing it as soon as it passes the limit
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > limit:
                await _too_large(send, limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replay = replayed(body, receive)
        await self.app(scope, replay, send)


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps(
        {"error": {"code": "body_too_large", "message": f"the request body is over {limit} bytes"}}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"connection", b"close")],
        }
    )
    await send({"type": "http.response.body", "body": body})


_bearer = bearer


async def _authenticate(websocket: WebSocket, hub: Hub) -> tuple[PlayerRow | None, bool]:
    """The socket's player (None without a valid token), and whether its token is one
    that expired."""
    token = _bearer(websocket.headers.get("authorization"))
    if token is None:
        try:
            text = await asyncio.wait_for(websocket.receive_text(), hub.limits.hello_timeout)
            hello = Hello.model_validate_json(text[: hub.limits.max_message_bytes])
            token = hello.token
        except (TimeoutError, ValueError, KeyError, RecursionError, WebSocketDisconnect):
            token = None
    return (None, False) if token is None else await token_status(hub.store, token)


async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(ErrorMsg(code=code, message=message).model_dump_json())
        await websocket.close(close, code)


async def _serve_socket(
    websocket: WebSocket, room_id: int, hub: Hub, cluster: Cluster | None, kicks: Kicks
) -> None:
    await websocket.accept()
    try:
        player, expired = await _authenticate(websocket, hub)
    except Exception as exc:  # the database does not answer: the client tries again
        log.warning("socket of room %s: cannot check its token: %r", room_id, exc)
        message = "the server cannot reach its database just now; reconnect in a few seconds"
        await _refuse(websocket, "unavailable", message, 1013)
        return
    if player is None:
        if expired:
            await _refuse(
                websocket, "token_expired", "this token has expired; register again", 4401
            )
            return
        await _refuse(websocket, "bad_token", "missing or unknown token; register first", 4401)
        return
    room = hub.rooms.get(room_id)
    if room is None and cluster is not None:
        # a cluster node: where the room is played, or that it is moving (never "no
        # such room" for a room the database shows open)
        code, message, close = await cluster.refusal(room_id)
        await _refuse(websocket, code, message, close)
        return
    if room is None:
        await _refuse(websocket, "no_room", f"no open room {room_id}", 4404)
        return
    if not room.options.listed:  # a club's table: its members watch; a muted member's text
        clubs: Clubs = websocket.app.state.clubs
        seat = room.seat_of(player.id)
        if seat is None and not await off_loop(hub.store, clubs.may_watch, room.id, player.id):
            await _refuse(
                websocket, "not_member", "a club's tables are watched by its members", 4403
            )
            return
        if seat is not None:
            muted = await off_loop(hub.store, clubs.muted_until, room.id, player.id)
            room.seats[seat].chat.muted_until = muted or 0.0
    await mute_seat(hub.store, room, player.id)  # the console's mute, at every table
    address = _address(websocket)
    try:
        await hub.guard.open_socket(player.id, address)
    except ServerError as exc:
        await _refuse(websocket, exc.code, str(exc), 4429)
        return
    try:
        await _play_socket(websocket, room, hub, player, kicks, address)
    finally:
        await hub.guard.close_socket(player.id, address)


async def _play_socket(
    websocket: WebSocket,
    room: Room,
    hub: Hub,
    player: PlayerRow,
    kicks: Kicks,
    address: str | None = None,
) -> None:
    guard = hub.guard
    shared = guard.shared  # a cluster's bucket admits each message before the room sees it
    bucket = Admitted() if shared else hub.bucket(player.id)
    direct: Direct | None = websocket.scope.get("extensions", {}).get(DIRECT)
    send_now = direct["send"] if direct is not None else None
    drop = direct["drop"] if direct is not None else None
    client = Client(
        player, websocket.send_text, hub.limits, websocket.close, bucket, send_now, drop
    )
    writer = asyncio.create_task(client.writer())
    kicks.add(player.id, player.session, client)
    try:
        await room.settled()  # the state it is sent includes the room's last action
        room.attach(client)
        room.seen_from(client.seat, address, client)  # 同IP提醒, before the first deal
    except PaijuError as exc:
        kicks.remove(player.id, player.session, client)
        client.refuse(exc)
        client.close(4403, exc.code)
        await writer
        return
    if direct is not None:  # each text admitted and answered as it is read
        direct["receive"](SocketReader(room, client, guard))
    try:
        while not client.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                data = message.get("bytes") or b""
                text = data.decode("utf-8", errors="replace")
            if shared and not await guard.admit(player.id):
                client.rate_limited(text)
                continue
            inbox.handle(room, client, text)
    except WebSocketDisconnect:
        pass
    finally:
        kicks.remove(player.id, player.session, client)
        room.detach(client)
        client.close(1000, "bye")
        with contextlib.suppress(Exception):
            await writer
