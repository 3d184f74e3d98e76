"""Passkeys (WebAuthn, through the ``webauthn`` package): a second way into a claimed
account that cannot be phished, where the browser offers it.

A signed-in player adds a passkey (``/api/passkeys/register/options``, then
``/api/passkeys/register`` with the browser's answer); anyone signs in with one
(``/api/passkeys/signin/options``, then ``/api/passkeys/signin``): the passkey is
discoverable, so no login name is typed. Each ceremony's challenge is kept in the
database for :data:`CHALLENGE_SECONDS` and used once, so that any node of a cluster can
finish what another began.

The relying party is the host the browser asked (its ``Host`` header, without the port);
the origin the browser signs must be that host's (``Origin``), which is what makes a
passkey useless to a phishing page: it would sign for its own origin.
"""

from __future__ import annotations

import json
import secrets
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, insert, select, update
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from paiju.server import tables as t
from paiju.server.accounts import tables as a
from paiju.server.accounts.auth import Me
from paiju.server.accounts.devices import device_name
from paiju.server.accounts.service import Accounts
from paiju.server.errors import ServerError
from paiju.server.rows import PlayerRow
from paiju.server.store import Store, off_loop

__all__ = ["CHALLENGE_SECONDS", "MAX_PASSKEYS", "Passkeys", "router"]

CHALLENGE_SECONDS = 300.0
MAX_PASSKEYS = 10
"""Passkeys an account may hold."""

router = APIRouter(tags=["passkeys"])


class Ceremony(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ceremony: str = Field(max_length=64, description="The id the options came with.")
    credential: dict[str, Any] = Field(description="The browser's PublicKeyCredential, as JSON.")
    name: str | None = Field(None, max_length=120, description="A name for the passkey.")
    device: str | None = Field(None, max_length=200)


def relying_party(request: Request) -> tuple[str, str]:
    """(the RP id, the expected origin) of a request: its host, and the origin the
    browser must have signed (``Origin`` must name that host)."""
    host = request.headers.get("host") or ""
    rp_id = urlsplit(f"//{host}").hostname or ""
    origin = request.headers.get("origin")
    if not rp_id:
        raise ServerError("bad_passkey", "the request names no host")
    if origin is None or urlsplit(origin).hostname != rp_id:
        raise ServerError("bad_passkey", "a passkey ceremony must come from this site's own page")
    return rp_id, origin


class Passkeys:
    """The passkeys of one database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _challenge(self, challenge: bytes, player: int | None, purpose: str) -> str:
        ceremony = secrets.token_urlsafe(18)
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            conn.execute(delete(a.passkey_challenges).where(a.passkey_challenges.c.expires < now))
            conn.execute(
                insert(a.passkey_challenges).values(
                    id=ceremony,
                    challenge=challenge,
                    player_id=player,
                    purpose=purpose,
                    expires=now + CHALLENGE_SECONDS,
                )
            )
        return ceremony

    def _take(self, ceremony: str, purpose: str) -> tuple[bytes, int | None]:
        """The ceremony's challenge, used up (``bad_passkey`` if unknown or expired)."""
        c = a.passkey_challenges
        with self.store.engine.begin() as conn:
            row = conn.execute(
                select(c.c.challenge, c.c.player_id, c.c.expires, c.c.purpose).where(
                    c.c.id == ceremony
                )
            ).first()
            conn.execute(delete(c).where(c.c.id == ceremony))
        if row is None or row.purpose != purpose or row.expires < self.store.clock():
            raise ServerError("bad_passkey", "this passkey request is unknown or too old", 400)
        return bytes(row.challenge), row.player_id

    def register_options(self, player: PlayerRow, rp_id: str) -> dict[str, Any]:
        with self.store.engine.connect() as conn:
            login = conn.execute(
                select(a.accounts.c.login).where(a.accounts.c.player_id == player.id)
            ).scalar()
            held = conn.execute(
                select(a.passkeys.c.credential_id).where(a.passkeys.c.player_id == player.id)
            ).scalars()
            existing = [PublicKeyCredentialDescriptor(id=bytes(c)) for c in held]
        if login is None:
            raise ServerError("guest", "a guest adds a passkey after signing up", 409)
        if len(existing) >= MAX_PASSKEYS:
            raise ServerError("bad_passkey", f"an account holds at most {MAX_PASSKEYS} passkeys")
        options = generate_registration_options(
            rp_id=rp_id,
            rp_name="paiju 牌局",
            user_id=str(player.id).encode(),
            user_name=str(login),
            user_display_name=player.name,
            exclude_credentials=existing,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
        )
        ceremony = self._challenge(options.challenge, player.id, "register")
        return {"ceremony": ceremony, "options": json.loads(options_to_json(options))}

    def register(
        self, player: PlayerRow, body: Ceremony, rp_id: str, origin: str
    ) -> dict[str, Any]:
        challenge, owner = self._take(body.ceremony, "register")
        if owner != player.id:
            raise ServerError("bad_passkey", "this passkey request was made for another player")
        try:
            verified = verify_registration_response(
                credential=body.credential,
                expected_challenge=challenge,
                expected_rp_id=rp_id,
                expected_origin=origin,
            )
        except (InvalidRegistrationResponse, ValueError, KeyError, TypeError) as exc:
            raise ServerError("bad_passkey", f"the passkey was not accepted: {exc}") from None
        now = self.store.clock()
        name = (body.name or "").strip()[:120] or "passkey"
        with self.store.engine.begin() as conn:
            found = conn.execute(
                select(a.passkeys.c.id).where(a.passkeys.c.credential_id == verified.credential_id)
            ).first()
            if found is not None:
                raise ServerError("bad_passkey", "this passkey is registered already", 409)
            pid = conn.execute(
                insert(a.passkeys).values(
                    player_id=player.id,
                    credential_id=verified.credential_id,
                    public_key=verified.credential_public_key,
                    sign_count=verified.sign_count,
                    name=name,
                    created_at=now,
                )
            ).inserted_primary_key
        assert pid is not None
        return {"id": int(pid[0]), "name": name, "created": now}

    def signin_options(self, rp_id: str) -> dict[str, Any]:
        options = generate_authentication_options(
            rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED
        )
        ceremony = self._challenge(options.challenge, None, "signin")
        return {"ceremony": ceremony, "options": json.loads(options_to_json(options))}

    def signin(
        self,
        accounts: Accounts,
        body: Ceremony,
        rp_id: str,
        origin: str,
        device: str,
        address: str | None,
        lifetime: float | None,
    ) -> dict[str, Any]:
        challenge, _ = self._take(body.ceremony, "signin")
        raw_id = body.credential.get("rawId") or body.credential.get("id")
        if not isinstance(raw_id, str):
            raise ServerError("bad_passkey", "the credential has no id")
        from webauthn import base64url_to_bytes

        try:
            credential_id = base64url_to_bytes(raw_id)
        except ValueError:
            raise ServerError("bad_passkey", "the credential's id is not base64url") from None
        k = a.passkeys
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(k.c.id, k.c.player_id, k.c.public_key, k.c.sign_count, t.players.c.name)
                .join(t.players, t.players.c.id == k.c.player_id)
                .where(k.c.credential_id == credential_id)
            ).first()
        if row is None:
            raise ServerError("no_passkey", "this passkey is not known here", 401)
        try:
            verified = verify_authentication_response(
                credential=body.credential,
                expected_challenge=challenge,
                expected_rp_id=rp_id,
                expected_origin=origin,
                credential_public_key=bytes(row.public_key),
                credential_current_sign_count=int(row.sign_count),
            )
        except (InvalidAuthenticationResponse, ValueError, KeyError, TypeError) as exc:
            raise ServerError("bad_passkey", f"the passkey check failed: {exc}", 401) from None
        done = accounts.open_unless_banned(
            PlayerRow(int(row.player_id), str(row.name)), lifetime, device, address
        )
        with self.store.engine.begin() as conn:
            conn.execute(
                update(k)
                .where(k.c.id == row.id)
                .values(sign_count=verified.new_sign_count, last_used=self.store.clock())
            )
        return {
            "token": done.token,
            "session": done.player.session,
            "expires": done.expires,
            "player": {"id": done.player.id, "name": done.player.name},
        }

    def list(self, player: int) -> list[dict[str, Any]]:
        k = a.passkeys
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(k.c.id, k.c.name, k.c.created_at, k.c.last_used)
                .where(k.c.player_id == player)
                .order_by(k.c.id)
            ).all()
        return [
            {"id": int(r.id), "name": r.name, "created": r.created_at, "last_used": r.last_used}
            for r in rows
        ]

    def remove(self, player: int, passkey: int) -> bool:
        with self.store.engine.begin() as conn:
            done = conn.execute(
                delete(a.passkeys).where(
                    a.passkeys.c.id == passkey, a.passkeys.c.player_id == player
                )
            ).rowcount
        return bool(done)


def _passkeys(request: Request) -> Passkeys:
    accounts: Accounts = request.app.state.accounts
    return Passkeys(accounts.store)


@router.post("/api/passkeys/register/options")
async def register_options(request: Request, me: Me) -> dict[str, Any]:
    """Options for ``navigator.credentials.create`` (a signed-in, claimed account)."""
    rp_id, _ = relying_party(request)
    keys = _passkeys(request)
    return await off_loop(keys.store, keys.register_options, me, rp_id)


@router.post("/api/passkeys/register", status_code=201)
async def register(body: Ceremony, request: Request, me: Me) -> dict[str, Any]:
    """Keep the passkey the browser made."""
    rp_id, origin = relying_party(request)
    keys = _passkeys(request)
    return await off_loop(keys.store, keys.register, me, body, rp_id, origin)


@router.post("/api/passkeys/signin/options")
async def signin_options(request: Request) -> dict[str, Any]:
    """Options for ``navigator.credentials.get`` (no login name: discoverable passkeys)."""
    rp_id, _ = relying_party(request)
    request.app.state.attempts.take(None, request.client.host if request.client else None)
    keys = _passkeys(request)
    return await off_loop(keys.store, keys.signin_options, rp_id)


@router.post("/api/passkeys/signin", status_code=201)
async def signin(body: Ceremony, request: Request) -> dict[str, Any]:
    """Sign in with a passkey: a new session, as a password sign-in gives."""
    rp_id, origin = relying_party(request)
    state = request.app.state
    keys = _passkeys(request)
    address = request.client.host if request.client else None
    device = device_name(request.headers.get("user-agent"), body.device)
    return await off_loop(
        keys.store,
        keys.signin,
        state.accounts,
        body,
        rp_id,
        origin,
        device,
        address,
        state.token_lifetime,
    )


@router.get("/api/passkeys")
async def my_passkeys(request: Request, me: Me) -> dict[str, Any]:
    keys = _passkeys(request)
    return {"passkeys": await off_loop(keys.store, keys.list, me.id)}


@router.delete("/api/passkeys/{passkey_id}")
async def remove_passkey(passkey_id: int, request: Request, me: Me) -> dict[str, Any]:
    keys = _passkeys(request)
    if not await off_loop(keys.store, keys.remove, me.id, passkey_id):
        raise ServerError("no_passkey", f"you have no passkey {passkey_id}", 404)
    return {"removed": passkey_id}
