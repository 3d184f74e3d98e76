"""Accounts: sessions (one per device), logins with Argon2id passwords, recovery codes,
passkeys, bans, sign-up flags and the operator's audit trail.

Every existing player becomes a guest account with its history: its bearer token (its
sha256, as stored) becomes the player's first session, with the token's expiry, so that
every browser that played before stays signed in. ``players.token_hash`` then holds a
placeholder that is no token's hash (SQLite cannot drop the column of a table others
refer to without rebuilding them all); no code reads it any more.

Revision ID: 0170
Revises: 0160
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0170"
down_revision = "0160"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("login", sa.String(64), nullable=False),
        sa.Column("login_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("password_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("device", sa.String(120), nullable=False),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_seen", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=True),
        sa.Column("ended_at", sa.Float(), nullable=True),
        sa.Column("ended_why", sa.String(16), nullable=True),
    )
    op.create_index("ix_sessions_player", "sessions", ["player_id"])
    op.create_index("ix_sessions_address", "sessions", ["address"])
    op.create_table(
        "recovery_codes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_recovery_codes_player", "recovery_codes", ["player_id"])
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("credential_id", sa.LargeBinary(), nullable=False, unique=True),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_used", sa.Float(), nullable=True),
    )
    op.create_index("ix_passkeys_player", "passkeys", ["player_id"])
    op.create_table(
        "passkey_challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("challenge", sa.LargeBinary(), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_table(
        "bans",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("by", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("lifted_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_bans_player", "bans", ["player_id"])
    op.create_table(
        "account_flags",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    # every player a guest: its token its first session, its history untouched
    op.execute(
        "INSERT INTO sessions (player_id, token_hash, device, address, created_at, last_seen,"
        " expires) SELECT id, token_hash, 'earlier browser', NULL, created_at, created_at,"
        " token_expires FROM players"
    )
    op.execute("UPDATE players SET token_hash = 'moved:' || CAST(id AS VARCHAR(20))")


def downgrade() -> None:
    # each player's newest open session becomes its one token again
    op.execute(
        "UPDATE players SET token_hash = (SELECT s.token_hash FROM sessions s WHERE"
        " s.player_id = players.id AND s.ended_at IS NULL ORDER BY s.id DESC LIMIT 1)"
        " WHERE EXISTS (SELECT 1 FROM sessions s WHERE s.player_id = players.id AND"
        " s.ended_at IS NULL)"
    )
    for table in ("audit_log", "account_flags", "bans", "passkey_challenges"):
        op.drop_table(table)
    op.drop_index("ix_passkeys_player", table_name="passkeys")
    op.drop_table("passkeys")
    op.drop_index("ix_recovery_codes_player", table_name="recovery_codes")
    op.drop_table("recovery_codes")
    op.drop_index("ix_sessions_address", table_name="sessions")
    op.drop_index("ix_sessions_player", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
