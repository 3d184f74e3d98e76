"""Rating finished rooms with OpenSkill (the ``openskill`` package's Plackett-Luce model,
which rates any number of players and teams from a ranking), and the leaderboards.

A room counts once, when its match has finished (not a room closed early), if at least
one of its seats is a player's; a duplicate event's table does not count by itself: the
event counts once, when it finishes, through :meth:`Ratings.rate_teams`. A room's seats
are ranked by their points over the match; seats with equal points share a rank, which
is how partners of the team games (甲乙丙, 打弹子, 三打哈, 放羊), who score alike, are
ranked together. A bot seat takes part with the fixed
rating of its level (:data:`BOT_RATINGS`) and keeps it: bots are the ladder's anchors, so
a room with bots counts too. A player's shown rating is OpenSkill's ordinal,
``mu - 3 * sigma`` (a rating the player is very likely above), with the number of rooms
behind it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from paiju.server import tables as t
from paiju.server.clubs import tables as c
from paiju.server.ratings import tables as r
from paiju.server.store import Store

__all__ = ["BOT_RATINGS", "MU", "SIGMA", "Ratings", "shown"]

MU = 25.0
SIGMA = MU / 3
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (18.0, 1.0),
    "normal": (25.0, 1.0),
    "hard": (30.0, 1.0),
}
"""The fixed (mu, sigma) of each bot level: 普通 at the model's starting mu, 简单 and 困难
a little under and over. They are published anchors, not measured strengths (docs)."""


def shown(mu: float, sigma: float) -> float:
    """The rating shown: OpenSkill's ordinal, rounded to a tenth."""
    return round(mu - 3 * sigma, 1)


class Ratings:
    """The ratings of one database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.model = PlackettLuce(mu=MU, sigma=SIGMA)

    def pending(self, limit: int = 200) -> list[int]:
        """Finished rooms not counted yet, oldest first."""
        with self.store.engine.connect() as conn:
            return [
                int(x)
                for x in conn.execute(
                    select(t.rooms.c.id)
                    .where(
                        t.rooms.c.status == "finished",
                        t.rooms.c.id.not_in(select(r.rated_rooms.c.room_id)),
                    )
                    .order_by(t.rooms.c.id)
                    .limit(limit)
                ).scalars()
            ]

    def rate_pending(self) -> int:
        """Count every finished room not counted yet; returns how many were rated."""
        return sum(self.rate_room(room) for room in self.pending())

    def rate_room(self, room: int) -> bool:
        """Count one finished room (once: False when it was counted, or has no player)."""
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            try:
                with conn.begin_nested():
                    conn.execute(insert(r.rated_rooms).values(room_id=room, at=now))
            except IntegrityError:
                return False  # another node, or an earlier call, counted it
            row = conn.execute(
                select(t.rooms.c.code, t.rooms.c.options, t.rooms.c.status).where(
                    t.rooms.c.id == room
                )
            ).first()
            if row is None or row.status != "finished":
                return False
            if (row.options or {}).get("event"):
                return False  # a duplicate event's table: the event counts, once, at its end
            seats = conn.execute(
                select(t.room_seats.c.seat, t.room_seats.c.player_id, t.room_seats.c.is_bot)
                .where(t.room_seats.c.room_id == room)
                .order_by(t.room_seats.c.seat)
            ).all()
            totals: dict[int, int] = defaultdict(int)
            for seat, delta in conn.execute(
                select(t.ledger.c.seat, t.ledger.c.delta).where(t.ledger.c.room_id == room)
            ):
                totals[int(seat)] += int(delta)
            humans = {int(s.seat): int(s.player_id) for s in seats if s.player_id is not None}
            if not humans or len(seats) < 2 or not totals:
                return False
            level = str((row.options or {}).get("level", "normal"))
            teams: list[list[int | str]] = [
                [humans[int(s.seat)]] if int(s.seat) in humans else [level] for s in seats
            ]
            points = [float(totals.get(int(s.seat), 0)) for s in seats]
            self.rate_teams(conn, str(row.code), teams, points, now)
        return True

    def rate_teams(
        self,
        conn: Any,
        code: str,
        teams: list[list[int | str]],
        points: list[float],
        now: float,
    ) -> None:
        """One rating update of ``code`` in the transaction ``conn``: ``teams`` (each a list
        of player ids, or of a bot level, which keeps its published rating) ranked by their
        ``points`` (higher first, equal points share a rank). A room calls it once per
        finished match, an event once when it finishes."""
        humans = sorted({m for team in teams for m in team if isinstance(m, int)})
        held = self._held(conn, code, humans)
        rated_in: list[list[Any]] = []
        for team in teams:
            members = []
            for m in team:
                if isinstance(m, int):
                    mu, sigma, _ = held.get(m, (MU, SIGMA, 0))
                else:
                    mu, sigma = BOT_RATINGS.get(m, BOT_RATINGS["normal"])
                members.append(self.model.rating(mu=mu, sigma=sigma))
            rated_in.append(members)
        ranked = sorted(set(points), reverse=True)
        ranks = [float(ranked.index(p) + 1) for p in points]
        rated = self.model.rate(rated_in, ranks=ranks)
        for team, new_team in zip(teams, rated, strict=True):
            for player, new in zip(team, new_team, strict=True):
                if not isinstance(player, int):
                    continue  # a bot keeps its published rating
                if player in held:
                    conn.execute(
                        update(r.ratings)
                        .where(r.ratings.c.player_id == player, r.ratings.c.code == code)
                        .values(
                            mu=new.mu,
                            sigma=new.sigma,
                            rooms=held[player][2] + 1,
                            updated_at=now,
                        )
                    )
                else:
                    conn.execute(
                        insert(r.ratings).values(
                            player_id=player,
                            code=code,
                            mu=new.mu,
                            sigma=new.sigma,
                            rooms=1,
                            updated_at=now,
                        )
                    )

    @staticmethod
    def _held(conn: Any, code: str, players: list[int]) -> dict[int, tuple[float, float, int]]:
        rows = conn.execute(
            select(
                r.ratings.c.player_id, r.ratings.c.mu, r.ratings.c.sigma, r.ratings.c.rooms
            ).where(r.ratings.c.code == code, r.ratings.c.player_id.in_(players))
        ).all()
        return {int(x.player_id): (float(x.mu), float(x.sigma), int(x.rooms)) for x in rows}

    def leaderboard(
        self, code: str, club: int | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """The players of a game by shown rating (``club``: its members only)."""
        q = (
            select(
                r.ratings.c.player_id,
                r.ratings.c.mu,
                r.ratings.c.sigma,
                r.ratings.c.rooms,
                t.players.c.name,
            )
            .join(t.players, t.players.c.id == r.ratings.c.player_id)
            .where(r.ratings.c.code == code)
        )
        if club is not None:
            q = q.where(
                r.ratings.c.player_id.in_(
                    select(c.club_members.c.player_id).where(c.club_members.c.club_id == club)
                )
            )
        q = q.order_by((r.ratings.c.mu - 3 * r.ratings.c.sigma).desc()).limit(limit)
        with self.store.engine.connect() as conn:
            rows = conn.execute(q).all()
        return [
            {
                "rank": i,
                "player": int(x.player_id),
                "name": x.name,
                "rating": shown(float(x.mu), float(x.sigma)),
                "mu": round(float(x.mu), 3),
                "sigma": round(float(x.sigma), 3),
                "rooms": int(x.rooms),
            }
            for i, x in enumerate(rows, 1)
        ]

    def of_players(self, players: list[int], code: str | None = None) -> dict[int, Any]:
        """Each player's ratings: ``{player: {code: {...}}}`` (one game with ``code``)."""
        q = select(r.ratings).where(r.ratings.c.player_id.in_(players))
        if code is not None:
            q = q.where(r.ratings.c.code == code)
        out: dict[int, Any] = {p: {} for p in players}
        with self.store.engine.connect() as conn:
            for x in conn.execute(q):
                out[int(x.player_id)][x.code] = {
                    "rating": shown(float(x.mu), float(x.sigma)),
                    "mu": round(float(x.mu), 3),
                    "sigma": round(float(x.sigma), 3),
                    "rooms": int(x.rooms),
                }
        return out

    def count(self) -> int:
        with self.store.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(r.ratings)).scalar() or 0)
