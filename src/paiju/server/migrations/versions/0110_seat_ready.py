"""准备 marks are stored: a room waiting for its players keeps who is ready across a
restart (or a takeover by another node).

Revision ID: 0110
Revises: 0100
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0110"
down_revision = "0100"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("room_seats") as batch:
        batch.add_column(
            sa.Column("is_ready", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("room_seats") as batch:
        batch.drop_column("is_ready")
