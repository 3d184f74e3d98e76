"""Duplicate events (复式赛): events, their entrants and members, and their tables.

Revision ID: 0210
Revises: 0200
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0210"
down_revision = "0200"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("code", sa.String(40), nullable=False),
        sa.Column("game_options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("sides", sa.JSON(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("time_limit", sa.Float(), nullable=True),
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("clubs.id"), nullable=True),
        sa.Column("made_by", sa.String(80), nullable=False),
        sa.Column("owner_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("final", sa.JSON(), nullable=True),
    )
    op.create_index("ix_events_status", "events", ["status"])
    op.create_table(
        "event_entrants",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("position", sa.Integer(), nullable=True),
        sa.Column("joined_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_event_entrants_event", "event_entrants", ["event_id"])
    op.create_table(
        "event_members",
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("entrant_id", sa.Integer(), sa.ForeignKey("event_entrants.id"), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
    )
    op.create_table(
        "event_tables",
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("table_no", sa.Integer(), primary_key=True),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("lineup", sa.JSON(), nullable=False),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id"), nullable=True, unique=True),
        sa.Column("claimed_at", sa.Float(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("event_tables")
    op.drop_table("event_members")
    op.drop_index("ix_event_entrants_event", table_name="event_entrants")
    op.drop_table("event_entrants")
    op.drop_index("ix_events_status", table_name="events")
    op.drop_table("events")
