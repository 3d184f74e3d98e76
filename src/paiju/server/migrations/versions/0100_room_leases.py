"""Room leases: which server node plays each room, under which lease number (epoch), until
when (see :mod:`paiju.server.lease`). Only a cluster of nodes (``paiju serve --redis``)
writes them; a single server leaves the table empty.

Revision ID: 0100
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0100"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_leases",
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("room_leases_node", "room_leases", ["node"])


def downgrade() -> None:
    op.drop_index("room_leases_node", "room_leases")
    op.drop_table("room_leases")
