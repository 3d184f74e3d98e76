"""The tables of ratings, on the server's one ``metadata``.

::

    ratings       player_id, code (the game), mu, sigma, rooms (rated rooms behind it),
                  updated_at
    rated_rooms   room_id, at: the finished rooms already counted (each counts once,
                  whichever node counts it)
"""

from __future__ import annotations

from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, Table

from paiju.server.tables import metadata

__all__ = ["rated_rooms", "ratings"]

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("code", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rooms", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_ratings_code", "code"),
)

rated_rooms = Table(
    "rated_rooms",
    metadata,
    Column("room_id", Integer, ForeignKey("rooms.id"), primary_key=True),
    Column("at", Float, nullable=False),
)
