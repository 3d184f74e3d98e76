"""``GET /api/games/{id}/review?seat=S``: the 复盘 of a finished hand's seat, and
``GET /api/players/{id}/review-summary?n=N``: a player's summary over their last hands.

A review is made in the server's pool of worker processes (:mod:`paiju.server.heavy`,
``process=True``): off the event loop and off the tables' interpreter, at most
``review_workers`` at once and ``review_queue`` waiting, limited per client (429
``too_many_requests``), a full pool answered 503 ``server_busy`` with ``Retry-After``
(come back then). Once made it is written to the database (:mod:`.service`) and read from
there ever after. A hand still in play has none (``in_play``, 409): the review reads the
whole record, which is public only once the hand is over, and values each decision from
the seat's own view.

The summary (the player's own, or any player's for staff) reads the kept reviews of the
player's last ``n`` hands; the hands without one are ``pending``, and as many of them as
the pool has room for are started (ask again later for them to count).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import Response

from paiju.review import SAMPLES, review_record
from paiju.server.accounts.auth import bearer
from paiju.server.errors import ServerError
from paiju.server.reviews.service import Reviews
from paiju.server.store import off_loop, token_status

__all__ = ["made", "router"]

log = logging.getLogger("paiju.server")

router = APIRouter(tags=["review"])


def _review(record: dict[str, Any], seat: int) -> dict[str, Any]:
    return review_record(record, seat, SAMPLES, seed=int(record.get("id") or 0))


def _reviews(state: Any) -> Reviews:
    found: Reviews | None = getattr(state, "reviews", None)
    if found is None:
        found = state.reviews = Reviews(state.store)
    return found


async def made(state: Any, client: str | None, game_id: int, seat: int) -> bytes:
    """The review's JSON: the kept one, else made in the process pool and kept."""
    reviews = _reviews(state)
    kept = await off_loop(state.store, reviews.stored, game_id, seat)
    if kept is not None:
        return kept
    work = functools.partial(_review, seat=seat)
    key = ("review", game_id, seat)
    body: bytes = await state.heavy.body(
        client, key, state.finished(game_id), work, True, process=True
    )
    await off_loop(state.store, reviews.keep, game_id, seat, body)
    return body


@router.get("/api/games/{game_id}/review")
async def review(
    game_id: Annotated[int, Path(ge=1, le=2**63 - 1)],
    request: Request,
    seat: Annotated[int, Query(ge=0, le=15)],
) -> Response:
    """复盘 of ``seat`` in a finished game: each decision's played and best action, their
    expected points (and spread) by the 困难 bot's search, or exactly (十三张's arrangement
    against the field, 佳佳宝's grouping, the bets of 宝子 and 佳佳宝), the loss, the
    mistakes first."""
    client = request.client.host if request.client else None
    body = await made(request.app.state, client, game_id, seat)
    return Response(body, media_type="application/json")


async def _may_read(request: Request, player_id: int, authorization: str | None) -> None:
    """The player themself, or staff (a console session); else 401/403."""
    token = bearer(authorization)
    state = request.app.state
    if token is None:
        raise ServerError("bad_token", "sign in to read a review summary", 401)
    player, _ = await token_status(state.store, token)
    if player is not None and player.id == player_id:
        return
    member = await off_loop(state.store, state.staff.of_token, token)  # a console session
    if member is not None:
        return
    if player is not None:
        raise ServerError("not_yours", "a player reads only their own review summary", 403)
    raise ServerError("bad_token", "missing, unknown or signed-out bearer token", 401)


def _start(state: Any, missing: list[tuple[int, int]]) -> int:
    """Start the reviews of ``missing`` hands the process pool has room for; how many."""
    heavy = state.heavy
    room = max(0, heavy.process_capacity - heavy.process_jobs)
    tasks: set[asyncio.Task[bytes]] = getattr(state, "review_tasks", None) or set()
    state.review_tasks = tasks
    started = 0
    for game_id, seat in missing[:room]:
        task = asyncio.create_task(made(state, None, game_id, seat))
        tasks.add(task)
        task.add_done_callback(_done(tasks))
        started += 1
    return started


def _done(tasks: set[asyncio.Task[bytes]]) -> Any:
    def forget(task: asyncio.Task[bytes]) -> None:
        tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.info("review summary: a review was not made (%r)", task.exception())

    return forget


@router.get("/api/players/{player_id}/review-summary")
async def review_summary(
    player_id: Annotated[int, Path(ge=1, le=2**63 - 1)],
    request: Request,
    n: Annotated[int, Query(ge=1, le=500)] = 20,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The player's last ``n`` hands reviewed: per game the share of decisions that matched
    the bot and the points lost per hand to the marked mistakes; ``pending`` hands have no
    review yet (``started`` of them are being made now)."""
    await _may_read(request, player_id, authorization)
    state = request.app.state
    found = await off_loop(state.store, _reviews(state).summary, player_id, n)
    found["started"] = _start(state, found.pop("missing"))
    return found
