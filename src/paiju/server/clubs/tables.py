"""The tables of clubs (亲友圈), on the server's one ``metadata``.

::

    clubs           id, code (how others join: unique), name, notice, owner_id,
                    approval (joining needs an admin's yes), created_at, closed_at
    club_members    club_id, player_id, role (owner | admin | member), joined_at,
                    muted_until (chat in the club's tables)
    club_requests   club_id, player_id, at: asking to join a club that approves
    club_bans       club_id, player_id, at, by: removed and not to come back
    club_presets    id, club_id, name, code (the game), options (room options),
                    game_options, keep_waiting (开桌即有: one table always waiting),
                    created_by, created_at, removed_at
    club_tables     room_id, club_id, preset_id (NULL: opened by hand), opened_by, at
    replay_codes    code (回放码, 6-8 characters), kind (game | room), ref (its id), at
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
    "club_bans",
    "club_members",
    "club_presets",
    "club_requests",
    "club_tables",
    "clubs",
    "replay_codes",
]

clubs = Table(
    "clubs",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(12), nullable=False, unique=True),
    Column("name", String(40), nullable=False),
    Column("notice", Text, nullable=False),
    Column("owner_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("approval", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("closed_at", Float, nullable=True),
)

club_members = Table(
    "club_members",
    metadata,
    Column("club_id", Integer, ForeignKey("clubs.id"), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("role", String(8), nullable=False),
    Column("joined_at", Float, nullable=False),
    Column("muted_until", Float, nullable=True),
    Index("ix_club_members_player", "player_id"),
)

club_requests = Table(
    "club_requests",
    metadata,
    Column("club_id", Integer, ForeignKey("clubs.id"), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("at", Float, nullable=False),
)

club_bans = Table(
    "club_bans",
    metadata,
    Column("club_id", Integer, ForeignKey("clubs.id"), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("at", Float, nullable=False),
    Column("by", Integer, nullable=False),
)

club_presets = Table(
    "club_presets",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("name", String(40), nullable=False),
    Column("code", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("game_options", JSON, nullable=False),
    Column("keep_waiting", Boolean, nullable=False),
    Column("created_by", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("removed_at", Float, nullable=True),
    Index("ix_club_presets_club", "club_id"),
)

club_tables = Table(
    "club_tables",
    metadata,
    Column("room_id", Integer, ForeignKey("rooms.id"), primary_key=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("preset_id", Integer, nullable=True),
    Column("opened_by", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_club_tables_club", "club_id", "at"),
)

replay_codes = Table(
    "replay_codes",
    metadata,
    Column("code", String(8), primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("ref", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_replay_codes_ref", "kind", "ref", unique=True),
)
