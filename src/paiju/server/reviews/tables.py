"""The table of 复盘 reviews, on the server's one ``metadata``.

::

    reviews   game_id, seat (the hand and the seat reviewed), player_id (who held the seat,
              null for a bot), code, made_at, reviewed (decisions), matched (as the bot's
              or the best), mistakes (marked), mistake_loss (points the marked mistakes
              gave up), loss (all the points given up), body (the review's JSON)

A review of a finished hand never changes: it is made once, written once, and read again.
"""

from __future__ import annotations

from sqlalchemy import Column, Float, ForeignKey, Index, Integer, LargeBinary, String, Table

from paiju.server.tables import metadata

__all__ = ["reviews"]

reviews = Table(
    "reviews",
    metadata,
    Column("game_id", Integer, ForeignKey("hands.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=True),
    Column("code", String(40), nullable=False),
    Column("made_at", Float, nullable=False),
    Column("reviewed", Integer, nullable=False),
    Column("matched", Integer, nullable=False),
    Column("mistakes", Integer, nullable=False),
    Column("mistake_loss", Float, nullable=False),
    Column("loss", Float, nullable=False),
    Column("body", LargeBinary, nullable=False),
    Index("ix_reviews_player", "player_id", "game_id"),
)
