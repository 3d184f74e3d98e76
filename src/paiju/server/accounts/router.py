"""The accounts' REST calls (docs/protocol.md, "Accounts and sessions").

Password work (Argon2id) runs in worker threads, at most :data:`HASHING` at a time and
:data:`QUEUED` waiting; past that the server answers ``busy_server`` (503, ``Retry-After``)
instead of slowing its tables.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from paiju.server.accounts.auth import MaybeMe, Me
from paiju.server.accounts.devices import device_name
from paiju.server.accounts.kicks import Kicks
from paiju.server.accounts.logins import MAX_PASSWORD, login_key
from paiju.server.accounts.service import Accounts, SignedIn
from paiju.server.errors import ServerError
from paiju.server.identity import clean_name
from paiju.server.store import off_loop

__all__ = ["HASHING", "QUEUED", "router"]

T = TypeVar("T")

HASHING = 2
"""Password hashes computed at once (each takes a core for about 0.1 s)."""
QUEUED = 32
"""Password requests that may wait for a worker before the server answers 503."""

router = APIRouter(tags=["accounts"])


class SignUp(BaseModel):
    model_config = ConfigDict(extra="forbid")
    login: str = Field(min_length=1, max_length=200, description="The login name.")
    password: str = Field(min_length=1, max_length=MAX_PASSWORD, description="The password.")
    name: str | None = Field(
        None, max_length=200, description="A new account's display name (default: the login)."
    )
    device: str | None = Field(None, max_length=200, description="A name for this device.")


class SignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    login: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=1, max_length=MAX_PASSWORD)
    device: str | None = Field(None, max_length=200)


class Recover(BaseModel):
    model_config = ConfigDict(extra="forbid")
    login: str = Field(min_length=1, max_length=200)
    code: str = Field(min_length=1, max_length=64, description="One of the recovery codes.")
    password: str = Field(min_length=1, max_length=MAX_PASSWORD, description="The new password.")
    device: str | None = Field(None, max_length=200)


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old: str = Field(min_length=1, max_length=MAX_PASSWORD)
    new: str = Field(min_length=1, max_length=MAX_PASSWORD)


class Hashing:
    """The bounded pool of password work of one app."""

    def __init__(self, workers: int = HASHING, queued: int = QUEUED) -> None:
        self._slots = asyncio.Semaphore(workers)
        self._waiting = 0
        self.queued = queued

    async def run(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self._waiting >= self.queued:
            raise ServerError(
                "busy_server",
                "too many sign-ins at once: try again in a second",
                503,
                retry_after=1,
            )
        self._waiting += 1
        try:
            async with self._slots:
                return await asyncio.to_thread(call, *args, **kwargs)
        finally:
            self._waiting -= 1


def _state(request: Request) -> tuple[Accounts, Kicks, Any]:
    state = request.app.state
    return state.accounts, state.kicks, state


def _address(request: Request) -> str | None:
    return request.client.host if request.client is not None else None


def _device(request: Request, given: str | None) -> str:
    return device_name(request.headers.get("user-agent"), given)


def _signed_in(done: SignedIn) -> dict[str, Any]:
    body: dict[str, Any] = {
        "token": done.token,
        "session": done.player.session,
        "expires": done.expires,
        "player": {"id": done.player.id, "name": done.player.name},
    }
    if done.login is not None:
        body["login"] = done.login
    if done.codes:
        body["codes"] = list(done.codes)
    return body


@router.post("/api/accounts", status_code=201)
async def sign_up(body: SignUp, request: Request, me: MaybeMe) -> dict[str, Any]:
    """Claim the guest of the bearer token (its device stays signed in: ``token`` is
    null), or without a token make a new account with a session of its own. The answer
    holds ten recovery codes, shown this once."""
    accounts, _, state = _state(request)
    address = _address(request)
    state.attempts.take(None, address)
    name = clean_name(body.name) if body.name else None
    if me is None:
        await state.hub.guard.registering(address)
    done = await state.hashing.run(
        accounts.sign_up,
        body.login,
        body.password,
        guest=me,
        name=name,
        device=_device(request, body.device),
        address=address,
        lifetime=state.token_lifetime,
    )
    return _signed_in(done)


@router.post("/api/sessions", status_code=201)
async def sign_in(body: SignIn, request: Request) -> dict[str, Any]:
    """Sign in with a login name and password: a new session for this device."""
    accounts, _, state = _state(request)
    state.attempts.take(login_key(body.login), _address(request))
    done = await state.hashing.run(
        accounts.sign_in,
        body.login,
        body.password,
        device=_device(request, body.device),
        address=_address(request),
        lifetime=state.token_lifetime,
    )
    return _signed_in(done)


@router.post("/api/accounts/recover")
async def recover(body: Recover, request: Request) -> dict[str, Any]:
    """Set a new password with a recovery code: every session of the account ends and
    this device is signed in."""
    accounts, kicks, state = _state(request)
    state.attempts.take(login_key(body.login), _address(request))
    done, ended = await state.hashing.run(
        accounts.recover,
        body.login,
        body.code,
        body.password,
        device=_device(request, body.device),
        address=_address(request),
        lifetime=state.token_lifetime,
    )
    await kicks.end(ended, None, "recovered")
    return _signed_in(done)


@router.get("/api/accounts/me")
async def my_account(request: Request, me: Me) -> dict[str, Any]:
    """Your account: guest or its login, recovery codes left, passkeys."""
    accounts, _, _ = _state(request)
    found = await off_loop(accounts.store, accounts.account, me.id)
    return {"player": {"id": me.id, "name": me.name}, "session": me.session, **found}


@router.post("/api/accounts/me/codes")
async def new_codes(request: Request, me: Me) -> dict[str, Any]:
    """A new set of ten recovery codes; the old ones stop working."""
    accounts, _, _ = _state(request)
    codes = await off_loop(accounts.store, accounts.new_codes, me.id)
    return {"codes": list(codes)}


@router.post("/api/accounts/me/password")
async def change_password(body: NewPassword, request: Request, me: Me) -> dict[str, Any]:
    """Change your password (give the current one); every other session ends."""
    accounts, kicks, state = _state(request)
    state.attempts.take(f"#{me.id}", _address(request))
    ended = await state.hashing.run(accounts.change_password, me.id, body.old, body.new, me.session)
    await kicks.end(ended, None, "password")
    return {"ended": ended}


@router.get("/api/sessions")
async def my_sessions(request: Request, me: Me) -> dict[str, Any]:
    """Your open sessions (devices signed in), the one asking marked ``current``."""
    accounts, _, _ = _state(request)
    found = await off_loop(accounts.store, accounts.sessions, me.id, me.session)
    return {"sessions": found}


@router.delete("/api/sessions/{session_id}")
async def end_session(session_id: int, request: Request, me: Me) -> dict[str, Any]:
    """End one of your sessions (your own: sign out); its sockets close at once."""
    accounts, kicks, _ = _state(request)
    done = await off_loop(accounts.store, accounts.end_session, me.id, session_id, "signed_out")
    if not done:
        raise ServerError("no_session", f"you have no open session {session_id}", 404)
    await kicks.end([session_id], None, "signed_out")
    return {"ended": [session_id]}


@router.delete("/api/sessions")
async def end_other_sessions(request: Request, me: Me) -> dict[str, Any]:
    """Sign out everywhere else: every session but this one ends."""
    accounts, kicks, _ = _state(request)
    ended = await off_loop(accounts.store, accounts.end_sessions, me.id, "everywhere", me.session)
    await kicks.end(ended, None, "everywhere")
    return {"ended": ended}
