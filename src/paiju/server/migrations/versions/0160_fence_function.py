"""A cluster node's group commit is one round trip: its fenced writes fail on their own
when a room lease is stale (``paiju_fence``), so that the transaction is rolled back by the
database itself, with no answer awaited between its statements.

Revision ID: 0160
Revises: 0150
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0160"
down_revision = "0150"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        """CREATE OR REPLACE FUNCTION paiju_fence(held boolean) RETURNS boolean
        LANGUAGE plpgsql STABLE AS $$
        BEGIN
            IF held IS NOT TRUE THEN
                RAISE EXCEPTION 'a room lease of this write is no longer held'
                    USING ERRCODE = 'PJ001';
            END IF;
            RETURN true;
        END
        $$"""
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP FUNCTION IF EXISTS paiju_fence(boolean)")
