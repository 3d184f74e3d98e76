"""The tables of duplicate events (复式赛), on the server's one ``metadata``.

::

    events          id, name, code (the game), game_options, seats, sides (the seats of
                    each side, JSON), deals, time_limit (seconds per move; NULL: the
                    game's), club_id (NULL: the operator's), made_by ("staff:NAME" or
                    "player:ID"), owner_id (the player the tables belong to), secret (the
                    deals' seeds come from it: never shown), status (open | running |
                    finished | cancelled), round (the round of tables in play), movement
                    (rotation | movement, set at the start; NULL before it, and for the
                    events started before the movement: a rotation), created_at,
                    started_at, finished_at, final (the standings once finished)
    event_entrants  id, event_id, name, bot (a bot level, or NULL: players), position (its
                    place in the rotation, from the start), joined_at
    event_members   event_id, player_id (one entrant per player and event), entrant_id,
                    slot (its seat on the entrant's side)
    event_tables    event_id, table_no, round, lineup (the entrant of each side), deals
                    (the event's deals it plays, in order: its hand k + 1 is deals[k];
                    NULL: every deal), room_id (NULL until its round starts), claimed_at
                    (when a node took it to open: one node opens it; a stale claim is
                    taken over)
"""

from __future__ import annotations

from sqlalchemy import JSON, Column, Float, ForeignKey, Index, Integer, String, Table, Text

from paiju.server.tables import metadata

__all__ = ["event_entrants", "event_members", "event_tables", "events"]

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(200), nullable=False),
    Column("code", String(40), nullable=False),
    Column("game_options", JSON, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("sides", JSON, nullable=False),
    Column("deals", Integer, nullable=False),
    Column("time_limit", Float, nullable=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=True),
    Column("made_by", String(80), nullable=False),
    Column("owner_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("secret", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("round", Integer, nullable=False),
    Column("movement", String(16), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("started_at", Float, nullable=True),
    Column("finished_at", Float, nullable=True),
    Column("final", JSON, nullable=True),
    Index("ix_events_status", "status"),
)

event_entrants = Table(
    "event_entrants",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_id", Integer, ForeignKey("events.id"), nullable=False),
    Column("name", Text, nullable=False),
    Column("bot", String(16), nullable=True),
    Column("position", Integer, nullable=True),
    Column("joined_at", Float, nullable=False),
    Index("ix_event_entrants_event", "event_id"),
)

event_members = Table(
    "event_members",
    metadata,
    Column("event_id", Integer, ForeignKey("events.id"), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("entrant_id", Integer, ForeignKey("event_entrants.id"), nullable=False),
    Column("slot", Integer, nullable=False),
)

event_tables = Table(
    "event_tables",
    metadata,
    Column("event_id", Integer, ForeignKey("events.id"), primary_key=True),
    Column("table_no", Integer, primary_key=True),
    Column("round", Integer, nullable=False),
    Column("lineup", JSON, nullable=False),
    Column("deals", JSON, nullable=True),
    Column("room_id", Integer, ForeignKey("rooms.id"), nullable=True, unique=True),
    Column("claimed_at", Float, nullable=True),
)
