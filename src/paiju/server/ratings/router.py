"""``/api/ratings``: leaderboards per game (and per club) and players' ratings.

Finished rooms are counted by a task of every server a few seconds after they finish
(:data:`RATE_EVERY`), and before a leaderboard is read; a room counts once whichever node
counts it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from paiju.server.accounts.auth import Me
from paiju.server.errors import ServerError
from paiju.server.ratings.service import BOT_RATINGS, Ratings, shown
from paiju.server.store import off_loop

__all__ = ["RATE_EVERY", "keep_rating", "router"]

log = logging.getLogger("paiju.server")

RATE_EVERY = 5.0
"""Seconds between two counts of the finished rooms."""

router = APIRouter(tags=["ratings"])


async def keep_rating(ratings: Ratings) -> None:
    """Count finished rooms every :data:`RATE_EVERY` seconds, until cancelled."""
    while True:
        await asyncio.sleep(RATE_EVERY)
        try:
            await asyncio.to_thread(ratings.rate_pending)
        except Exception as exc:  # the database away: the next round counts them
            log.warning("ratings: cannot count finished rooms (%r)", exc)


def _ratings(request: Request) -> Ratings:
    found: Ratings = request.app.state.ratings
    return found


@router.get("/api/ratings/bots")
async def bot_ratings() -> dict[str, Any]:
    """The fixed, published ratings of the bot levels."""
    return {
        level: {"rating": shown(mu, sigma), "mu": mu, "sigma": sigma}
        for level, (mu, sigma) in BOT_RATINGS.items()
    }


@router.get("/api/ratings/players")
async def players_ratings(
    request: Request,
    ids: Annotated[str, Query(max_length=400, description="Player ids, comma separated.")],
    code: str | None = None,
) -> dict[str, Any]:
    """Ratings of some players (a room's seats before sitting down; a profile)."""
    try:
        players = sorted({int(x) for x in ids.split(",") if x.strip()})
    except ValueError:
        raise ServerError("bad_request", "ids are player ids separated by commas") from None
    if not players or len(players) > 50:
        raise ServerError("bad_request", "ask for 1 to 50 players")
    ratings = _ratings(request)
    found = await off_loop(ratings.store, ratings.of_players, players, code)
    return {"players": {str(k): v for k, v in found.items()}}


@router.get("/api/ratings/{code}")
async def leaderboard(
    code: str,
    request: Request,
    me: Me,
    club: int | None = None,
) -> dict[str, Any]:
    """The leaderboard of a game (``club``: of its members; for members only)."""
    from paiju.catalog import find_variant

    variant = find_variant(code)
    ratings = _ratings(request)
    if club is not None:
        clubs = request.app.state.clubs
        if await off_loop(clubs.store, clubs.role_of, club, me.id) is None:
            raise ServerError("not_member", f"you are not a member of club {club}", 403)
    await asyncio.to_thread(ratings.rate_pending)
    board = await off_loop(ratings.store, ratings.leaderboard, variant.code, club)
    return {"code": variant.code, "club": club, "players": board}
