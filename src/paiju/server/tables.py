"""The database schema of the server (SQLAlchemy Core), shared by the store and Alembic.

::

    players   id, name, token_hash (sha256 of the bearer token), created_at
    rooms     id, code, options (room options), game_options, seats, owner_id, status
              (waiting | playing | finished), hands_played, context (for the next hand)
    room_seats  room_id, seat, player_id (NULL = open or bot), is_bot, is_ready (准备)
    hands     id (the game id), room_id, hand_no, seats, players (player id per seat),
              commitment (sha256 of the seed, public), seed and deal (secret until the
              hand ends), context, status (playing | over), settlement, timestamps,
              record_format (the game's record format when the hand was dealt: which
              actions its log holds)
    actions   hand_id, idx, seat, action (JSON form), actor (player | bot | timeout), at:
              the event log of a hand - the state is a replay of it
    ledger    id, player_id (NULL for a bot seat), room_id, hand_id, seat, delta,
              balance (积分: the player's running balance after this entry), at
    invitations  invitee_id, room_id, sender_id, at: 邀请牌友, a table's invitation
              waiting for a player (paiju.server.invitations; expired rows are dropped)
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

__all__ = [
    "actions",
    "cluster_nodes",
    "cluster_secrets",
    "hands",
    "invitations",
    "ledger",
    "metadata",
    "players",
    "room_leases",
    "room_seats",
    "rooms",
]

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
    Column("token_expires", Float, nullable=True),
)

rooms = Table(
    "rooms",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("game_options", JSON, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("owner_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("status", String(16), nullable=False),
    Column("hands_played", Integer, nullable=False, default=0),
    Column("context", JSON, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("invite", String(12), nullable=True),
    Index("ix_rooms_status", "status"),
    Index("ix_rooms_invite", "invite", unique=True),
)

room_seats = Table(
    "room_seats",
    metadata,
    Column("room_id", Integer, ForeignKey("rooms.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=True),
    Column("is_bot", Boolean, nullable=False, default=False),
    Column("is_ready", Boolean, nullable=False, default=False, server_default=false()),
)

hands = Table(
    "hands",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", Integer, ForeignKey("rooms.id"), nullable=False),
    Column("hand_no", Integer, nullable=False),
    Column("code", String(40), nullable=False),
    Column("game_options", JSON, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("players", JSON, nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("seed", Text, nullable=False),
    Column("client_seeds", JSON, nullable=True),
    Column("deal", JSON, nullable=False),
    Column("context", JSON, nullable=False),
    Column("status", String(16), nullable=False),
    Column("settlement", JSON, nullable=True),
    Column("started_at", Float, nullable=False),
    Column("ended_at", Float, nullable=True),
    Column("record_format", Integer, nullable=False, server_default="1"),
    Index("ix_hands_room", "room_id", "hand_no", unique=True),
)

actions = Table(
    "actions",
    metadata,
    Column("hand_id", Integer, ForeignKey("hands.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", JSON, nullable=False),
    Column("actor", String(16), nullable=False),
    Column("at", Float, nullable=False),
)

ledger = Table(
    "ledger",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=True),
    Column("room_id", Integer, ForeignKey("rooms.id"), nullable=False),
    Column("hand_id", Integer, ForeignKey("hands.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("delta", Integer, nullable=False),
    Column("balance", Integer, nullable=True),
    Column("at", Float, nullable=False),
    Index("ix_ledger_player", "player_id", "id"),
)

room_leases = Table(
    "room_leases",
    metadata,
    # which server node plays a room (cluster mode only; see paiju.server.lease): the
    # holder, the fencing epoch every write of the room is checked against, the expiry
    # by the database server's clock
    Column("room_id", Integer, ForeignKey("rooms.id"), primary_key=True),
    Column("node", String(64), nullable=False),
    Column("epoch", BigInteger, nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("room_leases_node", "node"),
    # the takeover query walks the expired leases from the oldest (Leases.claim)
    Index("room_leases_expires", "expires_at"),
)

cluster_nodes = Table(
    "cluster_nodes",
    metadata,
    # each node's presence (cluster mode only; see paiju.server.lease.Nodes.present):
    # its public URL and load, live until expires_at by the database server's clock
    Column("name", String(64), primary_key=True),
    Column("url", Text, nullable=False),
    Column("rooms", Integer, nullable=False),
    Column("connections", Integer, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

cluster_secrets = Table(
    "cluster_secrets",
    metadata,
    # the cluster's shared secret of calls passed between nodes (name "forward")
    Column("name", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

invitations = Table(
    "invitations",
    metadata,
    # a table's invitation waiting for a player (paiju.server.invitations): in the database,
    # so that every node of a cluster sees it, whichever node sent it
    Column("invitee_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("room_id", Integer, ForeignKey("rooms.id"), primary_key=True),
    Column("sender_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_invitations_sender_at", "sender_id", "at"),
)
