"""``GET /api/games/{id}/review?seat=S``: the 复盘 of a finished hand's seat.

The review runs in the server's pool of heavy work (:mod:`paiju.server.heavy`): off the
event loop, at most a few at once, limited per client (429 ``too_many_requests``), a full
pool answered 503 ``server_busy`` with ``Retry-After`` (come back then); a review once made
is kept in memory and served again. A hand still in play has none (``in_play``, 409): the
review reads the whole record, which is public only once the hand is over, and values
each decision from the seat's own view.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from paiju.review import SAMPLES, review_record

__all__ = ["router"]

router = APIRouter(tags=["review"])


def _review(record: dict[str, Any], seat: int) -> dict[str, Any]:
    return review_record(record, seat, SAMPLES, seed=int(record.get("id") or 0))


@router.get("/api/games/{game_id}/review")
async def review(
    game_id: Annotated[int, Path(ge=1, le=2**63 - 1)],
    request: Request,
    seat: Annotated[int, Query(ge=0, le=15)],
) -> Response:
    """复盘 of ``seat`` in a finished game: each decision's played and best action, their
    expected points (and spread) by the 困难 bot's search, the loss, the mistakes first."""
    state = request.app.state
    client = request.client.host if request.client else None
    work = functools.partial(_review, seat=seat)
    answer: Response = await state.heavy.answer(
        client, ("review", game_id, seat), state.finished(game_id), work, True, process=True
    )
    return answer
