"""复盘 reviews kept in the database, and a player's summary over their last hands.

A review is written once, when first made (:meth:`Reviews.keep`), with the figures the
summary adds up: decisions reviewed, those that matched the bot (or the best), the marked
mistakes and the points they gave up. :meth:`Reviews.summary` reads a player's last ``n``
hands (their ledger: only settled hands are in it) and the reviews kept of their seats,
by game, and names the hands whose review is not made yet.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from paiju.server import tables as t
from paiju.server.reviews import tables as rv
from paiju.server.store import Store

__all__ = ["Reviews", "figures"]

_SUMS = ("hands", "reviewed_hands", "decisions", "matched", "mistakes", "mistake_loss", "loss")
"""What a summary adds up over hands, per game."""


def figures(review: dict[str, Any]) -> dict[str, Any]:
    """What a review adds to a summary: decisions, matched, mistakes, their loss, all loss."""
    decisions = review.get("decisions") or []
    marked = [d for d in decisions if d.get("mistake")]
    return {
        "reviewed": len(decisions),
        "matched": sum(1 for d in decisions if d.get("matched")),
        "mistakes": len(marked),
        "mistake_loss": round(sum(float(d["loss"]) for d in marked), 3),
        "loss": round(sum(float(d["loss"]) for d in decisions), 3),
    }


class Reviews:
    """The kept reviews of one database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def stored(self, game_id: int, seat: int) -> bytes | None:
        """The review of ``seat`` in a finished hand, as kept (JSON bytes), or None."""
        with self.store.engine.connect() as conn:
            body = conn.execute(
                select(rv.reviews.c.body).where(
                    rv.reviews.c.game_id == game_id, rv.reviews.c.seat == seat
                )
            ).scalar()
        return None if body is None else bytes(body)

    def keep(self, game_id: int, seat: int, body: bytes) -> bool:
        """Write a review once (False when it was kept already: a review never changes)."""
        review = json.loads(body)
        with self.store.engine.connect() as conn:
            hand = conn.execute(
                select(t.hands.c.players, t.hands.c.code).where(t.hands.c.id == game_id)
            ).first()
        if hand is None:
            return False
        players = list(hand.players or [])
        player = players[seat] if seat < len(players) else None
        row = {
            "game_id": game_id,
            "seat": seat,
            "player_id": player,
            "code": hand.code,
            "made_at": self.store.clock(),
            "body": body,
            **figures(review),
        }
        try:
            with self.store.engine.begin() as conn:
                conn.execute(insert(rv.reviews).values(**row))
        except IntegrityError:
            return False
        return True

    def beside(self, rows: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
        """``rows`` (each naming a ``player``: the assistance report's) with each player's
        summary over their last ``n`` hands added as ``review`` (the figures for all games,
        and ``pending``: their hands not reviewed yet)."""
        for row in rows:
            found = self.summary(int(row["player"]), n)
            row["review"] = {**found["all"], "pending": found["pending"]}
        return rows

    def summary(self, player_id: int, n: int) -> dict[str, Any]:
        """The player's last ``n`` settled hands and their reviews' figures, by game;
        ``missing`` lists the (game, seat) of hands with no review yet."""
        hands = self.store.ledger(player_id, limit=n)
        games = [e["game"] for e in hands]
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(rv.reviews).where(
                    rv.reviews.c.game_id.in_(games), rv.reviews.c.player_id == player_id
                )
            ).all()
        kept = {(r.game_id, r.seat): r for r in rows}
        by_code: dict[str, dict[str, Any]] = defaultdict(lambda: dict.fromkeys(_SUMS, 0))
        missing: list[tuple[int, int]] = []
        for e in hands:
            row = kept.get((e["game"], e["seat"]))
            game = by_code[e["code"]]
            game["hands"] += 1
            if row is None:
                missing.append((e["game"], e["seat"]))
                continue
            game["reviewed_hands"] += 1
            game["decisions"] += row.reviewed
            game["matched"] += row.matched
            game["mistakes"] += row.mistakes
            game["mistake_loss"] += row.mistake_loss
            game["loss"] += row.loss
        out = {code: _shares(game) for code, game in sorted(by_code.items())}
        total = _shares({key: sum(g[key] for g in by_code.values()) for key in _SUMS})
        return {
            "player": player_id,
            "n": n,
            "hands": len(hands),
            "pending": len(missing),
            "missing": missing,
            "games": out,
            "all": total,
        }


def _shares(game: dict[str, Any]) -> dict[str, Any]:
    """A game's sums with the summary's figures: the share of decisions that matched the
    bot, and points lost per reviewed hand (to marked mistakes, and in all)."""
    hands, decisions = game["reviewed_hands"], game["decisions"]
    return {
        **game,
        "mistake_loss": round(game["mistake_loss"], 3),
        "loss": round(game["loss"], 3),
        "matched_share": round(game["matched"] / decisions, 4) if decisions else None,
        "mistake_loss_per_hand": round(game["mistake_loss"] / hands, 3) if hands else None,
        "loss_per_hand": round(game["loss"] / hands, 3) if hands else None,
    }
