"""The tables of accounts (SQLAlchemy Core, on the server's one ``metadata``).

::

    accounts        player_id (a player with a login: a claimed account; a guest has no
                    row), login (as typed, cleaned), login_key (NFKC + case folded: unique),
                    password_hash (Argon2id, PHC string), created_at, password_at
    sessions        id, player_id, token_hash (sha256 of the random token), device (from
                    the user agent), address, created_at, last_seen, expires (slides with
                    use), ended_at, ended_why (signed_out | ended | everywhere | recovered |
                    banned | reset): one per device that signed in
    recovery_codes  id, player_id, code_hash (sha256 of an 80-bit code), used_at
    passkeys        id, player_id, credential_id, public_key, sign_count, name, created_at,
                    last_used
    passkey_challenges  id, challenge, player_id (NULL: a sign-in), purpose, expires
    bans            id, player_id, until, reason, by (who: ``admin`` or a staff name),
                    created_at, lifted_at
    account_flags   id, player_id, kind (after_ban), detail, created_at: sign-ups the
                    operator should look at
    audit_log       id, at, actor, action, target (a player id), reason, address, detail,
                    prev_hash, hash: every operator action, chained by hashes
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
)

from paiju.server.tables import metadata

__all__ = [
    "account_flags",
    "accounts",
    "audit_log",
    "bans",
    "passkey_challenges",
    "passkeys",
    "recovery_codes",
    "sessions",
]

accounts = Table(
    "accounts",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("login", String(64), nullable=False),
    Column("login_key", String(64), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("password_at", Float, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("device", String(120), nullable=False),
    Column("address", String(64), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("expires", Float, nullable=True),
    Column("ended_at", Float, nullable=True),
    Column("ended_why", String(16), nullable=True),
    Index("ix_sessions_player", "player_id"),
    Index("ix_sessions_address", "address"),
)

recovery_codes = Table(
    "recovery_codes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("code_hash", String(64), nullable=False),
    Column("used_at", Float, nullable=True),
    Index("ix_recovery_codes_player", "player_id"),
)

passkeys = Table(
    "passkeys",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("credential_id", LargeBinary, nullable=False, unique=True),
    Column("public_key", LargeBinary, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("name", String(120), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_used", Float, nullable=True),
    Index("ix_passkeys_player", "player_id"),
)

passkey_challenges = Table(
    "passkey_challenges",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("challenge", LargeBinary, nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=True),
    Column("purpose", String(16), nullable=False),
    Column("expires", Float, nullable=False),
)

bans = Table(
    "bans",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("until", Float, nullable=False),
    Column("reason", Text, nullable=False),
    Column("by", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("lifted_at", Float, nullable=True),
    Index("ix_bans_player", "player_id"),
)

account_flags = Table(
    "account_flags",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("detail", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("actor", String(64), nullable=False),
    Column("action", String(32), nullable=False),
    Column("target", Integer, nullable=True),
    Column("reason", Text, nullable=False),
    Column("address", String(64), nullable=True),
    Column("detail", Text, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
)
