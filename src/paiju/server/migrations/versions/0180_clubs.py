"""Clubs (亲友圈): clubs, their members, join requests and bans, presets (玩法), their
tables, and the 回放码 of finished hands and rooms.

Revision ID: 0180
Revises: 0170
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0180"
down_revision = "0170"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(12), nullable=False, unique=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("notice", sa.Text(), nullable=False),
        sa.Column("owner_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("approval", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("closed_at", sa.Float(), nullable=True),
    )
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("clubs.id"), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("muted_until", sa.Float(), nullable=True),
    )
    op.create_index("ix_club_members_player", "club_members", ["player_id"])
    op.create_table(
        "club_requests",
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("clubs.id"), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_table(
        "club_bans",
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("clubs.id"), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("by", sa.Integer(), nullable=False),
    )
    op.create_table(
        "club_presets",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("code", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("game_options", sa.JSON(), nullable=False),
        sa.Column("keep_waiting", sa.Boolean(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("removed_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_club_presets_club", "club_presets", ["club_id"])
    op.create_table(
        "club_tables",
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("preset_id", sa.Integer(), nullable=True),
        sa.Column("opened_by", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_club_tables_club", "club_tables", ["club_id", "at"])
    op.create_table(
        "replay_codes",
        sa.Column("code", sa.String(8), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("ref", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_replay_codes_ref", "replay_codes", ["kind", "ref"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_replay_codes_ref", table_name="replay_codes")
    op.drop_table("replay_codes")
    op.drop_index("ix_club_tables_club", table_name="club_tables")
    op.drop_table("club_tables")
    op.drop_index("ix_club_presets_club", table_name="club_presets")
    op.drop_table("club_presets")
    op.drop_table("club_bans")
    op.drop_table("club_requests")
    op.drop_index("ix_club_members_player", table_name="club_members")
    op.drop_table("club_members")
    op.drop_table("clubs")
