"""Staff: the people who run the server, their roles, their sign-in with a second factor,
and their sessions. Free of sockets: synchronous calls the router makes in a worker thread.

Staff are not players (their own table, :data:`~paiju.server.admin.tables.staff`): a
player's token never opens the console, and a staff member's token never plays. Three
roles, each holding what the one below holds (:data:`ROLES`):

* ``owner`` (超级管理员): everything, and managing staff;
* ``admin`` (管理员): moderation (bans), rooms, announcements, reports;
* ``support`` (客服): looking players up, chat mutes, resetting a login.

Signing in to the console takes the password (Argon2id, as a player's) and a second
factor: a TOTP code (RFC 6238, ``pyotp``: 6 digits, 30-second steps, one step of drift
either way; each step's code is good once), or one of ten recovery codes (used up).
A session's token is random; the database keeps its sha256.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

import pyotp
from sqlalchemy import func, insert, select, update

from paiju.server.accounts import audit
from paiju.server.accounts.logins import Passwords, check_password
from paiju.server.admin import tables as s
from paiju.server.errors import ServerError
from paiju.server.store import Store, hash_token

__all__ = [
    "ISSUER",
    "ROLES",
    "ROLE_ZH",
    "SESSION_SECONDS",
    "NewStaff",
    "Staff",
    "StaffMember",
    "may",
]

ROLES: dict[str, int] = {"support": 1, "admin": 2, "owner": 3}
"""Each role's rank: a role may do what any lower one may."""
ROLE_ZH = {"owner": "超级管理员", "admin": "管理员", "support": "客服"}
SESSION_SECONDS = 12 * 3600.0
"""A console session lasts this long from its last use (a working day)."""
ISSUER = "paiju"
"""The issuer an authenticator app shows next to the staff member's name."""
CODES = 10

_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


@dataclass(frozen=True)
class StaffMember:
    id: int
    name: str
    role: str
    session: int | None = None


@dataclass(frozen=True)
class NewStaff:
    """A staff member made: the TOTP secret, its ``otpauth://`` URI (a QR code for an
    authenticator app) and the recovery codes - shown once."""

    member: StaffMember
    secret: str
    uri: str
    codes: tuple[str, ...]


def may(role: str, needed: str) -> bool:
    """Whether ``role`` may do what ``needed`` may."""
    return ROLES.get(role, 0) >= ROLES[needed]


def _key(name: str) -> str:
    return unicodedata.normalize("NFKC", name.strip()).casefold()


def _new_code() -> str:
    raw = "".join(secrets.choice(_ALPHABET) for _ in range(16))
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


def _code_hash(code: str) -> str:
    return hashlib.sha256(code.strip().lower().replace(" ", "").encode()).hexdigest()


def _refused() -> ServerError:
    return ServerError("bad_staff_credentials", "wrong name, password or code", 401)


class Staff:
    """The staff of one database."""

    def __init__(self, store: Store, passwords: Passwords | None = None) -> None:
        self.store = store
        self.passwords = passwords or Passwords()

    def add(self, name: str, role: str, password: str, by: str = "cli") -> NewStaff:
        """A new staff member with a fresh TOTP secret and recovery codes (audited)."""
        if role not in ROLES:
            raise ServerError("bad_request", f"a role is one of {sorted(ROLES)}, not {role!r}")
        name = name.strip()
        if not 1 <= len(name) <= 64 or any(c.isspace() for c in name):
            raise ServerError("bad_request", "a staff name is 1 to 64 characters, no spaces")
        check_password(password, name)
        secret = pyotp.random_base32()
        codes = tuple(_new_code() for _ in range(CODES))
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            if conn.execute(select(s.staff.c.id).where(s.staff.c.name_key == _key(name))).first():
                raise ServerError("staff_taken", f"there is already a staff member {name!r}", 409)
            sid = conn.execute(
                insert(s.staff).values(
                    name=name,
                    name_key=_key(name),
                    role=role,
                    password_hash=self.passwords.hash(password),
                    totp_secret=secret,
                    created_at=now,
                )
            ).inserted_primary_key
            assert sid is not None
            conn.execute(
                insert(s.staff_codes),
                [{"staff_id": int(sid[0]), "code_hash": _code_hash(c)} for c in codes],
            )
            audit.record(
                conn,
                at=now,
                actor=by,
                action="staff_add",
                target=None,
                reason=f"{name} as {role}",
                detail={"staff": name, "role": role},
            )
        uri = pyotp.TOTP(secret).provisioning_uri(name=name, issuer_name=ISSUER)
        return NewStaff(StaffMember(int(sid[0]), name, role), secret, uri, codes)

    def disable(self, name: str, reason: str, by: str = "cli") -> int:
        """Stop ``name`` from signing in and end their console sessions (audited);
        returns the sessions ended. The row stays: the trail names them."""
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            row = conn.execute(
                select(s.staff.c.id, s.staff.c.name).where(s.staff.c.name_key == _key(name))
            ).first()
            if row is None:
                raise ServerError("no_staff", f"no staff member {name!r}", 404)
            conn.execute(update(s.staff).where(s.staff.c.id == row.id).values(disabled_at=now))
            ended = conn.execute(
                update(s.staff_sessions)
                .where(s.staff_sessions.c.staff_id == row.id, s.staff_sessions.c.ended_at.is_(None))
                .values(ended_at=now)
            ).rowcount
            audit.record(
                conn,
                at=now,
                actor=by,
                action="staff_disable",
                target=None,
                reason=reason,
                detail={"staff": row.name, "sessions_ended": ended},
            )
        return int(ended)

    def members(self) -> list[dict[str, Any]]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(s.staff).order_by(s.staff.c.id)).all()
        return [
            {
                "id": int(r.id),
                "name": r.name,
                "role": r.role,
                "since": float(r.created_at),
                "disabled": r.disabled_at is not None,
            }
            for r in rows
        ]

    def count(self) -> int:
        with self.store.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(s.staff)).scalar() or 0)

    def sign_in(
        self, name: str, password: str, code: str, address: str | None = None
    ) -> tuple[StaffMember, str, float]:
        """A console session for ``name`` with its password and a TOTP or recovery code;
        ``bad_staff_credentials`` (401) for anything wrong, whichever it is."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(s.staff).where(s.staff.c.name_key == _key(name))).first()
        if row is None or row.disabled_at is not None:
            self.passwords.verify_unknown(password)
            raise _refused()
        if not self.passwords.verify(password, str(row.password_hash)):
            raise _refused()
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            how = self._second_factor(conn, row, code.strip(), now)
            token = secrets.token_urlsafe(32)
            expires = now + SESSION_SECONDS
            sid = conn.execute(
                insert(s.staff_sessions).values(
                    staff_id=int(row.id),
                    token_hash=hash_token(token),
                    address=address,
                    created_at=now,
                    last_seen=now,
                    expires=expires,
                )
            ).inserted_primary_key
            assert sid is not None
            audit.record(
                conn,
                at=now,
                actor=f"staff:{row.name}",
                action="staff_sign_in",
                target=None,
                reason=how,
                address=address,
            )
        return StaffMember(int(row.id), str(row.name), str(row.role), int(sid[0])), token, expires

    def _second_factor(self, conn: Any, row: Any, code: str, now: float) -> str:
        digits = code.replace(" ", "")
        if digits.isdigit() and len(digits) == 6:
            totp = pyotp.TOTP(str(row.totp_secret))
            step = int(now // totp.interval)
            for drift in (0, -1, 1):
                if secrets.compare_digest(totp.at(now + drift * totp.interval), digits):
                    used = step + drift
                    if row.totp_step is not None and used <= int(row.totp_step):
                        raise _refused()  # that code (or an older one) was used already
                    conn.execute(
                        update(s.staff).where(s.staff.c.id == row.id).values(totp_step=used)
                    )
                    return "totp"
            raise _refused()
        done = conn.execute(
            update(s.staff_codes)
            .where(
                s.staff_codes.c.staff_id == row.id,
                s.staff_codes.c.code_hash == _code_hash(code),
                s.staff_codes.c.used_at.is_(None),
            )
            .values(used_at=now)
        ).rowcount
        if not done:
            raise _refused()
        return "recovery_code"

    def of_token(self, token: str) -> StaffMember | None:
        """The staff member of a live console session (its last use moved on)."""
        now = self.store.clock()
        ss, st = s.staff_sessions, s.staff
        with self.store.engine.begin() as conn:
            row = conn.execute(
                select(ss.c.id, ss.c.expires, st.c.id.label("sid"), st.c.name, st.c.role)
                .join(st, st.c.id == ss.c.staff_id)
                .where(
                    ss.c.token_hash == hash_token(token),
                    ss.c.ended_at.is_(None),
                    ss.c.expires > now,
                    st.c.disabled_at.is_(None),
                )
            ).first()
            if row is None:
                return None
            conn.execute(
                update(ss)
                .where(ss.c.id == row.id)
                .values(last_seen=now, expires=now + SESSION_SECONDS)
            )
        return StaffMember(int(row.sid), str(row.name), str(row.role), int(row.id))

    def sign_out(self, member: StaffMember) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(
                update(s.staff_sessions)
                .where(s.staff_sessions.c.id == member.session)
                .values(ended_at=self.store.clock())
            )
