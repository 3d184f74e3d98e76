"""Invitations to a table (邀请牌友) are kept in the database, not in one process's memory:
every node of a cluster sees them, whichever node sent them.

Revision ID: 0150
Revises: 0140
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0150"
down_revision = "0140"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "invitations",
        sa.Column("invitee_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("sender_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_invitations_sender_at", "invitations", ["sender_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_invitations_sender_at", table_name="invitations")
    op.drop_table("invitations")
