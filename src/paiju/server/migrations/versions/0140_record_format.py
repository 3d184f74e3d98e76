"""Each hand keeps the record format of its log (``hands.record_format``): the hands
stored before are of format 1, the one every game had then.

Revision ID: 0140
Revises: 0130
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0140"
down_revision = "0130"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.add_column(
            sa.Column("record_format", sa.Integer(), nullable=False, server_default="1")
        )


def downgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("record_format")
