"""The nodes of a cluster in the shared database: each node's presence (its public URL and
load, until when it is live by the database's clock), written with its lease renewals, and
the cluster's secret of the calls one node passes to another. Both were in Redis, which
any client of it could write: a node is now known by what the authenticated database says.

Revision ID: 0120
Revises: 0111
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0120"
down_revision = "0111"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cluster_nodes",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("rooms", sa.Integer(), nullable=False),
        sa.Column("connections", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "cluster_secrets",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cluster_secrets")
    op.drop_table("cluster_nodes")
