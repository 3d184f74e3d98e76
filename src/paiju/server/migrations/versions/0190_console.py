"""The operator's console: staff (with a second factor), their recovery codes and
sessions, chat mutes, and announcements.

Revision ID: 0190
Revises: 0185
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0190"
down_revision = "0185"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "staff",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("totp_secret", sa.String(64), nullable=False),
        sa.Column("totp_step", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("disabled_at", sa.Float(), nullable=True),
    )
    op.create_table(
        "staff_codes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("staff_id", sa.Integer(), sa.ForeignKey("staff.id"), nullable=False),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_staff_codes_staff", "staff_codes", ["staff_id"])
    op.create_table(
        "staff_sessions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("staff_id", sa.Integer(), sa.ForeignKey("staff.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_seen", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.Column("ended_at", sa.Float(), nullable=True),
    )
    op.create_table(
        "mutes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("by", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("lifted_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_mutes_player", "mutes", ["player_id"])
    op.create_table(
        "announcements",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("text_zh", sa.Text(), nullable=False),
        sa.Column("text_en", sa.Text(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=True),
        sa.Column("starts", sa.Float(), nullable=False),
        sa.Column("ends", sa.Float(), nullable=True),
        sa.Column("by", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("withdrawn_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_announcements_ends", "announcements", ["ends"])


def downgrade() -> None:
    op.drop_index("ix_announcements_ends", table_name="announcements")
    op.drop_table("announcements")
    op.drop_index("ix_mutes_player", table_name="mutes")
    op.drop_table("mutes")
    op.drop_table("staff_sessions")
    op.drop_index("ix_staff_codes_staff", table_name="staff_codes")
    op.drop_table("staff_codes")
    op.drop_table("staff")
