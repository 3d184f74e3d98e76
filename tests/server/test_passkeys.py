"""Passkeys (WebAuthn) as a second way into an account, checked by the ``webauthn``
package against a software authenticator made here (an ECDSA P-256 key, the "none"
attestation a browser's platform authenticator gives by default).

The issue: "Passkeys (WebAuthn, with the ``webauthn`` package) as a second way in, where
the browser offers it ... Optional; password sign-in must work without."
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cbor2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from starlette.testclient import TestClient

from paiju.server.accounts.logins import Passwords
from paiju.server.app import create_app
from paiju.server.options import Limits

ORIGIN = "http://testserver"
PASSWORD = "wall-of-tiles-55"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class SoftAuthenticator:
    """One discoverable passkey of one site, as a browser's authenticator keeps it."""

    def __init__(self, rp_id: str = "testserver", origin: str = ORIGIN) -> None:
        self.rp_id, self.origin = rp_id, origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.count = 0
        self.user_handle = b""

    def _client_data(self, kind: str, challenge: str) -> bytes:
        body = {"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False}
        return json.dumps(body).encode()

    def create(self, options: dict[str, Any]) -> dict[str, Any]:
        numbers = self.key.public_key().public_numbers()
        cose = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        self.user_handle = base64.urlsafe_b64decode(options["user"]["id"] + "==")
        auth = (
            hashlib.sha256(self.rp_id.encode()).digest()
            + bytes([0x45])  # user present, user verified, attested credential data
            + self.count.to_bytes(4, "big")
            + bytes(16)
            + len(self.credential_id).to_bytes(2, "big")
            + self.credential_id
            + cose
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth})
        client = self._client_data("webauthn.create", options["challenge"])
        return {
            "id": _b64(self.credential_id),
            "rawId": _b64(self.credential_id),
            "type": "public-key",
            "response": {"clientDataJSON": _b64(client), "attestationObject": _b64(attestation)},
        }

    def get(self, options: dict[str, Any]) -> dict[str, Any]:
        self.count += 1
        auth = (
            hashlib.sha256(self.rp_id.encode()).digest()
            + bytes([0x05])
            + self.count.to_bytes(4, "big")
        )
        client = self._client_data("webauthn.get", options["challenge"])
        signature = self.key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": _b64(self.credential_id),
            "rawId": _b64(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": _b64(client),
                "authenticatorData": _b64(auth),
                "signature": _b64(signature),
                "userHandle": _b64(self.user_handle),
            },
        }


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "passkeys.db"), limits=Limits(min_bot_delay=0))
    with TestClient(app, headers={"Origin": ORIGIN}) as c:
        c.app.state.accounts.passwords = Passwords(time_cost=1, memory_cost=1024)  # type: ignore[attr-defined]
        yield c


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _account(client: TestClient, login: str = "lin") -> dict[str, Any]:
    made = client.post("/api/accounts", json={"login": login, "password": PASSWORD})
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def _add_passkey(client: TestClient, token: str, key: SoftAuthenticator) -> Any:
    offered = client.post("/api/passkeys/register/options", headers=_auth(token)).json()
    assert offered["options"]["authenticatorSelection"]["residentKey"] == "required"
    return client.post(
        "/api/passkeys/register",
        headers=_auth(token),
        json={"ceremony": offered["ceremony"], "credential": key.create(offered["options"]),
              "name": "phone"},
    )  # fmt: skip


def _passkey_sign_in(client: TestClient, key: SoftAuthenticator, **headers: str) -> Any:
    offered = client.post("/api/passkeys/signin/options").json()
    return client.post(
        "/api/passkeys/signin",
        json={"ceremony": offered["ceremony"], "credential": key.get(offered["options"])},
        headers=headers,
    )


def test_a_passkey_added_while_signed_in_signs_in_on_another_device(client: TestClient) -> None:
    made = _account(client)
    key = SoftAuthenticator()
    added = _add_passkey(client, made["token"], key)
    assert added.status_code == 201, added.text
    listed = client.get("/api/passkeys", headers=_auth(made["token"])).json()["passkeys"]
    assert [p["name"] for p in listed] == ["phone"]
    signed = _passkey_sign_in(client, key)
    assert signed.status_code == 201, signed.text
    assert signed.json()["player"]["id"] == made["player"]["id"]
    token = signed.json()["token"]
    assert client.get("/api/players/me", headers=_auth(token)).status_code == 200
    sessions = client.get("/api/sessions", headers=_auth(token)).json()["sessions"]
    assert len(sessions) == 2, "a passkey sign-in is a session of its own"
    # and again: the signature counter moves on
    assert _passkey_sign_in(client, key).status_code == 201
    # password sign-in still works beside it
    assert (
        client.post("/api/sessions", json={"login": "lin", "password": PASSWORD}).status_code == 201
    )


def test_a_passkey_signed_for_another_site_is_refused(client: TestClient) -> None:
    made = _account(client)
    key = SoftAuthenticator()
    assert _add_passkey(client, made["token"], key).status_code == 201
    phished = SoftAuthenticator(origin="http://paiju-login.example")
    phished.key, phished.credential_id = key.key, key.credential_id
    refused = _passkey_sign_in(client, phished)
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "bad_passkey"
    other_site = client.post(
        "/api/passkeys/signin/options", headers={"Origin": "http://paiju-login.example"}
    )
    assert other_site.status_code == 400 and other_site.json()["error"]["code"] == "bad_passkey"


def test_a_ceremony_is_used_once_and_unknown_passkeys_are_refused(client: TestClient) -> None:
    made = _account(client)
    key = SoftAuthenticator()
    offered = client.post("/api/passkeys/register/options", headers=_auth(made["token"])).json()
    body = {"ceremony": offered["ceremony"], "credential": key.create(offered["options"])}
    assert (
        client.post("/api/passkeys/register", headers=_auth(made["token"]), json=body).status_code
        == 201
    )
    again = client.post("/api/passkeys/register", headers=_auth(made["token"]), json=body)
    assert again.status_code == 400 and again.json()["error"]["code"] == "bad_passkey"
    stranger = _passkey_sign_in(client, SoftAuthenticator())
    assert stranger.status_code == 401 and stranger.json()["error"]["code"] == "no_passkey"
    guest = client.post("/api/players", json={"name": "游客"}).json()["token"]
    refused = client.post("/api/passkeys/register/options", headers=_auth(guest))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "guest"


def test_a_banned_players_passkey_does_not_sign_in(client: TestClient) -> None:
    made = _account(client)
    key = SoftAuthenticator()
    assert _add_passkey(client, made["token"], key).status_code == 201
    client.app.state.accounts.ban(made["player"]["id"], 1, "collusion")  # type: ignore[attr-defined]
    refused = _passkey_sign_in(client, key)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "banned"
