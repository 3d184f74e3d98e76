"""Duplicate events (复式赛): the movement an event plays, and the deals of each table.

Revision ID: 0220_event_movement
Revises: 0210
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0220_event_movement"
down_revision = "0210"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("movement", sa.String(16), nullable=True))
    with op.batch_alter_table("event_tables") as batch:
        batch.add_column(sa.Column("deals", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("event_tables") as batch:
        batch.drop_column("deals")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("movement")
