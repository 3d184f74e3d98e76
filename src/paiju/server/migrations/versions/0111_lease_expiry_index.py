"""An index of room lease expiry times: every node looks for expired leases every second
(:meth:`paiju.server.lease.Leases.claim`), and walks this index instead of every open
room. The leases of rooms already over are deleted (nobody writes those rooms again), so
the index holds the open rooms' leases only.

Revision ID: 0111
Revises: 0110
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0111"
down_revision = "0110"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "DELETE FROM room_leases WHERE room_id IN"
        " (SELECT id FROM rooms WHERE status NOT IN ('waiting', 'playing'))"
    )
    op.create_index("room_leases_expires", "room_leases", ["expires_at"])


def downgrade() -> None:
    op.drop_index("room_leases_expires", "room_leases")
