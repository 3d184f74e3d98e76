"""Invite codes are random and stored with their room (no longer derived from its id):
a unique ``rooms.invite`` column, filled with a fresh random code for every room already
stored.

Revision ID: 0130
Revises: 0120
Create Date: 2026-12-01
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0130"
down_revision = "0120"
branch_labels = None
depends_on = None

_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("invite", sa.String(12), nullable=True))
    rooms = sa.table("rooms", sa.column("id", sa.Integer), sa.column("invite", sa.String))
    conn = op.get_bind()
    used: set[str] = set()
    for (room_id,) in conn.execute(sa.select(rooms.c.id)).all():
        code = ""
        while not code or code in used:
            code = "".join(secrets.choice(_ALPHABET) for _ in range(6))
        used.add(code)
        conn.execute(sa.update(rooms).where(rooms.c.id == room_id).values(invite=code))
    op.create_index("ix_rooms_invite", "rooms", ["invite"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_rooms_invite", table_name="rooms")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("invite")
