"""The operator's console, continued: the catalogue's settings (games on or off, default
options and the choices a room form offers), house variants, and reports of chat lines.

Revision ID: 0200
Revises: 0196
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0200"
down_revision = "0196"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "catalogue_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(40), nullable=False, unique=True),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("defaults", sa.JSON(), nullable=False),
        sa.Column("choices", sa.JSON(), nullable=False),
        sa.Column("by", sa.String(64), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "house_variants",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(40), nullable=False, unique=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("by", sa.String(64), nullable=False),
        sa.Column("added_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=True),
        sa.Column("reporter", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reported", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("lines", sa.JSON(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("handled_at", sa.Float(), nullable=True),
        sa.Column("handled_by", sa.String(64), nullable=True),
        sa.Column("outcome", sa.Text(), nullable=True),
    )
    op.create_index("ix_chat_reports_open", "chat_reports", ["handled_at", "at"])
    op.create_index("ix_chat_reports_reported", "chat_reports", ["reported"])


def downgrade() -> None:
    op.drop_index("ix_chat_reports_reported", table_name="chat_reports")
    op.drop_index("ix_chat_reports_open", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_table("house_variants")
    op.drop_table("catalogue_games")
