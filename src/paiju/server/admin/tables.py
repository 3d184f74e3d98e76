"""The tables of the operator's console (SQLAlchemy Core, on the server's one ``metadata``).

::

    staff           id, name (unique, NFKC + case folded in name_key), role (owner |
                    admin | support), password_hash (Argon2id), totp_secret (base32),
                    totp_step (the last 30-second step a code was used in: a code is
                    good once), created_at, disabled_at
    staff_codes     id, staff_id, code_hash (sha256 of a recovery code), used_at
    staff_sessions  id, staff_id, token_hash (sha256 of the random token), address,
                    created_at, last_seen, expires, ended_at
    mutes           id, player_id, until, reason, by, created_at, lifted_at: chat mutes
                    the console set (every table of the player)
    announcements   id, kind (banner | marquee | notice), text_zh, text_en, room_id (a
                    notice to one room; NULL: everyone), starts, ends, by, created_at,
                    withdrawn_at

and of migration ``0200``::

    catalogue_games id, code (unique), enabled (new rooms of it may be made), defaults (the
                    game options a new room takes when it names none), choices (per game
                    option, the values a room may take: the room form offers only these),
                    by, updated_at
    house_variants  id, code (unique), name (the file's name), text (the TOML entry as
                    given: it never changes once added, so old hands replay as they
                    were played), by, added_at
    chat_reports    id, room_id, hand_id (the hand in play, if any), reporter, reported
                    (player ids), seat, lines (the reported seat's last free texts, as
                    the table read them), at, handled_at, handled_by, outcome

Staff are not players: a staff member has no seat, no ledger and no player's token, and
a player's session never opens the console.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
)

from paiju.server.tables import metadata

__all__ = [
    "announcements",
    "catalogue_games",
    "chat_reports",
    "house_variants",
    "mutes",
    "staff",
    "staff_codes",
    "staff_sessions",
]

staff = Table(
    "staff",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=False, unique=True),
    Column("role", String(16), nullable=False),
    Column("password_hash", String(255), nullable=False),
    Column("totp_secret", String(64), nullable=False),
    Column("totp_step", Integer, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("disabled_at", Float, nullable=True),
)

staff_codes = Table(
    "staff_codes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("staff_id", Integer, ForeignKey("staff.id"), nullable=False),
    Column("code_hash", String(64), nullable=False),
    Column("used_at", Float, nullable=True),
    Index("ix_staff_codes_staff", "staff_id"),
)

staff_sessions = Table(
    "staff_sessions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("staff_id", Integer, ForeignKey("staff.id"), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("address", String(64), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("ended_at", Float, nullable=True),
)

mutes = Table(
    "mutes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("until", Float, nullable=False),
    Column("reason", Text, nullable=False),
    Column("by", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("lifted_at", Float, nullable=True),
    Index("ix_mutes_player", "player_id"),
)

announcements = Table(
    "announcements",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),
    Column("text_zh", Text, nullable=False),
    Column("text_en", Text, nullable=False),
    Column("room_id", Integer, nullable=True),
    Column("starts", Float, nullable=False),
    Column("ends", Float, nullable=True),
    Column("by", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("withdrawn_at", Float, nullable=True),
    Index("ix_announcements_ends", "ends"),
)

catalogue_games = Table(
    "catalogue_games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(40), nullable=False, unique=True),
    Column("enabled", Boolean, nullable=False),
    Column("defaults", JSON, nullable=False),
    Column("choices", JSON, nullable=False),
    Column("by", String(64), nullable=False),
    Column("updated_at", Float, nullable=False),
)

house_variants = Table(
    "house_variants",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(40), nullable=False, unique=True),
    Column("name", String(200), nullable=False),
    Column("text", Text, nullable=False),
    Column("by", String(64), nullable=False),
    Column("added_at", Float, nullable=False),
)

chat_reports = Table(
    "chat_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", Integer, nullable=False),
    Column("hand_id", Integer, nullable=True),
    Column("reporter", Integer, ForeignKey("players.id"), nullable=False),
    Column("reported", Integer, ForeignKey("players.id"), nullable=True),
    Column("seat", Integer, nullable=False),
    Column("lines", JSON, nullable=False),
    Column("at", Float, nullable=False),
    Column("handled_at", Float, nullable=True),
    Column("handled_by", String(64), nullable=True),
    Column("outcome", Text, nullable=True),
    Index("ix_chat_reports_open", "handled_at", "at"),
    Index("ix_chat_reports_reported", "reported"),
)
