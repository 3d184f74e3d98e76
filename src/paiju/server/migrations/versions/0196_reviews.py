"""复盘 reviews: each finished hand's review of one seat, kept once made.

Revision ID: 0196
Revises: 0190
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0196"
down_revision = "0190"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("hands.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("code", sa.String(40), nullable=False),
        sa.Column("made_at", sa.Float(), nullable=False),
        sa.Column("reviewed", sa.Integer(), nullable=False),
        sa.Column("matched", sa.Integer(), nullable=False),
        sa.Column("mistakes", sa.Integer(), nullable=False),
        sa.Column("mistake_loss", sa.Float(), nullable=False),
        sa.Column("loss", sa.Float(), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
    )
    op.create_index("ix_reviews_player", "reviews", ["player_id", "game_id"])


def downgrade() -> None:
    op.drop_index("ix_reviews_player", table_name="reviews")
    op.drop_table("reviews")
