"""Who a request is: the bearer token of its ``Authorization`` header, read through the
store's cache of tokens, its session's last-seen time moved on at most once a minute."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import Depends, Header, Request

from paiju.server.errors import ServerError
from paiju.server.rows import PlayerRow
from paiju.server.store import Store, off_loop, token_status

__all__ = ["TOUCH_SECONDS", "MaybeMe", "Me", "bearer", "current_player", "maybe_player"]

TOUCH_SECONDS = 60.0
"""A session's last-seen time (and its sliding expiry) is written at most this often."""


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer …`` header."""
    if header and header.lower().startswith("bearer "):
        return header[7:].strip()
    return None


async def _touch(request: Request, player: PlayerRow) -> None:
    session = player.session
    if session is None:
        return
    touched: dict[int, float] = request.app.state.touched
    now = time.monotonic()
    if now - touched.get(session, -TOUCH_SECONDS) < TOUCH_SECONDS:
        return
    if len(touched) > 100_000:
        touched.clear()
    touched[session] = now
    accounts = request.app.state.accounts
    lifetime = request.app.state.token_lifetime
    await off_loop(accounts.store, accounts.touch, session, lifetime)


async def current_player(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> PlayerRow:
    """The player of the request's bearer token (401 without a known one)."""
    token = bearer(authorization)
    store: Store = request.app.state.store
    found, expired = await token_status(store, token) if token else (None, False)
    if found is None:
        if expired:
            raise ServerError("token_expired", "this bearer token has expired; sign in again", 401)
        raise ServerError(
            "bad_token",
            "missing, unknown or signed-out bearer token (Authorization: Bearer …)",
            401,
        )
    await _touch(request, found)
    return found


async def maybe_player(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> PlayerRow | None:
    """:func:`current_player`, or None for a request without a token."""
    if bearer(authorization) is None:
        return None
    return await current_player(request, authorization)


Me = Annotated[PlayerRow, Depends(current_player)]
MaybeMe = Annotated[PlayerRow | None, Depends(maybe_player)]
