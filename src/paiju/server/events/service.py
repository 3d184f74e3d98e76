"""Duplicate events (复式赛) on the database: making one, its entrants, its start (the
tables of :func:`paiju.duplicate.schedule`: the rotation for bots, the movement for
people), its rounds moving on as their tables finish, the standings read from the settled
hands, and its end (final standings, and one rating update of the game).

An event's deals are its secret's: deal ``i`` is dealt from the server seed
``HMAC-SHA256(secret, "deal/i")`` at every table that plays it (a table's hand ``k + 1``
is the ``k``-th of its deals). Each table commits to it before
dealing as any room does, and reveals it when the hand ends; no client seed changes it,
so that every table plays the same cards. Everything here is free of sockets and of the
hub: the router opens the tables this service plans.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import statistics
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from paiju.bots import LEVELS
from paiju.duplicate import Result, schedule, seat_entrants, sides, standings
from paiju.errors import EventError
from paiju.games import game as make_game
from paiju.server import tables as t
from paiju.server.accounts import audit
from paiju.server.clubs.service import Clubs
from paiju.server.errors import ServerError
from paiju.server.events import tables as e
from paiju.server.ratings.service import Ratings
from paiju.server.store import Store

__all__ = ["MAX_DEALS", "MAX_ENTRANTS", "Events", "Maker", "TablePlan", "deal_seed"]

MAX_DEALS = 64
MAX_ENTRANTS = 32
CLAIM_SECONDS = 60.0
"""A table is opened by the node that claims it; a claim older than this (its node died,
or the opening failed) is taken over at the next look."""
HOUSE_TOKEN = "house:events"
"""The ``token_hash`` of the player who owns the tables of events staff make (a player no
one signs in as: rooms need an owner)."""


@dataclass(frozen=True)
class Maker:
    """Who makes or runs an event: a staff member (``staff``: the name) or a player (``player``:
    the id; a club's admin for the club's events)."""

    staff: str | None = None
    player: int | None = None

    @property
    def label(self) -> str:
        return f"staff:{self.staff}" if self.staff is not None else f"player:{self.player}"


@dataclass(frozen=True)
class TablePlan:
    """A table to open now: its event, number, room options and who sits where."""

    event: int
    table_no: int
    owner: int
    code: str
    game_options: dict[str, Any]
    options: dict[str, Any]
    players: list[int | None]
    bots: list[bool]
    deals: tuple[int, ...]


def deal_seed(secret: str, deal: int) -> str:
    """The server seed of an event's deal ``deal`` (from 0)."""
    return hmac.new(secret.encode(), f"deal/{deal}".encode(), hashlib.sha256).hexdigest()


def table_deals(deals: Sequence[int] | None, n_deals: int) -> list[int]:
    """The event's deals a table plays, in order (``None``: every deal, as the rotation's
    tables and those of events started before the movement play)."""
    return list(range(n_deals)) if deals is None else [int(d) for d in deals]


def _refuse(code: str, message: str, status: int = 409, **params: Any) -> ServerError:
    return ServerError(code, message, status, **params)


class Events:
    """The duplicate events of one database."""

    def __init__(self, store: Store, clubs: Clubs, ratings: Ratings) -> None:
        self.store = store
        self.clubs = clubs
        self.ratings = ratings
        self._seeds: dict[int, list[str] | None] = {}
        self._lock = threading.Lock()
        self.claim_seconds = CLAIM_SECONDS

    # -- making an event ---------------------------------------------------------------

    def _may_run(self, conn: Connection, maker: Maker, club: int | None) -> None:
        """Staff may run any event; a player only its club's, as the club's admin or owner."""
        if maker.staff is not None:
            return
        if club is None or maker.player is None:
            raise _refuse("event_maker", "only staff or a club's admin make or run an event", 403)
        role = self.clubs.role_of(club, maker.player, conn)
        if role not in ("admin", "owner"):
            raise _refuse("event_maker", "only the club's admins make or run its events", 403)

    def _house(self, conn: Connection) -> int:
        found = conn.execute(
            select(t.players.c.id).where(t.players.c.token_hash == HOUSE_TOKEN)
        ).scalar()
        if found is not None:
            return int(found)
        key = conn.execute(
            insert(t.players).values(
                name="复式赛", token_hash=HOUSE_TOKEN, created_at=self.store.clock()
            )
        ).inserted_primary_key
        assert key is not None
        return int(key[0])

    def create(
        self,
        maker: Maker,
        *,
        name: str,
        code: str,
        deals: int,
        time_limit: float | None = None,
        club: int | None = None,
        game_options: dict[str, Any] | None = None,
    ) -> int:
        """A new event, open to entrants; its id."""
        g = make_game(code, **dict(game_options or {}))
        if not 2 <= deals <= MAX_DEALS:
            raise _refuse("event_deals", f"an event has 2-{MAX_DEALS} deals", 400)
        seats = g.default_seats
        groups = sides(g.new_state(seats, seed="probe"))
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            self._may_run(conn, maker, club)
            owner = maker.player if maker.player is not None else self._house(conn)
            key = conn.execute(
                insert(e.events).values(
                    name=name.strip()[:200] or g.variant.name_zh,
                    code=g.variant.code,
                    game_options=dict(g.room_options),
                    seats=seats,
                    sides=groups,
                    deals=deals,
                    time_limit=time_limit,
                    club_id=club,
                    made_by=maker.label,
                    owner_id=owner,
                    secret=secrets.token_hex(32),
                    status="open",
                    round=0,
                    created_at=now,
                )
            ).inserted_primary_key
        assert key is not None
        return int(key[0])

    def _event(self, conn: Connection, event: int) -> Any:
        row = conn.execute(select(e.events).where(e.events.c.id == event)).first()
        if row is None:
            raise _refuse("no_event", f"no event {event}", 404)
        return row

    def _open_event(self, conn: Connection, event: int) -> Any:
        row = self._event(conn, event)
        if row.status != "open":
            raise _refuse("event_started", f"event {event} has started: its entrants are set")
        return row

    def _entrant_count(self, conn: Connection, event: int) -> int:
        return int(
            conn.execute(
                select(func.count())
                .select_from(e.event_entrants)
                .where(e.event_entrants.c.event_id == event)
            ).scalar()
            or 0
        )

    def _new_entrant(self, conn: Connection, event: int, name: str, bot: str | None) -> int:
        if self._entrant_count(conn, event) >= MAX_ENTRANTS:
            raise _refuse("event_full", f"an event takes {MAX_ENTRANTS} entrants at most")
        key = conn.execute(
            insert(e.event_entrants).values(
                event_id=event, name=name, bot=bot, joined_at=self.store.clock()
            )
        ).inserted_primary_key
        assert key is not None
        return int(key[0])

    def add_bot(self, maker: Maker, event: int, level: str) -> int:
        """A bot level as an entrant (简单, 普通, 困难; a level entered again is named
        ``normal 2`` and so on: bots fill an event of many sides)."""
        name = LEVELS.get(level, level)
        if name not in ("easy", "normal", "hard"):
            raise _refuse("bad_level", f"no bot level {level!r}: easy, normal or hard", 400)
        with self.store.engine.begin() as conn:
            row = self._open_event(conn, event)
            self._may_run(conn, maker, row.club_id)
            same = conn.execute(
                select(func.count())
                .select_from(e.event_entrants)
                .where(e.event_entrants.c.event_id == event, e.event_entrants.c.bot == name)
            ).scalar()
            label = name if not same else f"{name} {int(same) + 1}"
            return self._new_entrant(conn, event, label, name)

    def join(
        self,
        event: int,
        player: int,
        name: str,
        entrant: int | None = None,
        by: Maker | None = None,
    ) -> int:
        """``player`` enters (or is entered by the event's maker, ``by``): a new entrant of
        its own, or into the team ``entrant`` where a side has several seats (甲乙丙,
        打弹子). A club's event takes its members only. Returns the entrant."""
        with self.store.engine.begin() as conn:
            row = self._open_event(conn, event)
            if by is not None:
                self._may_run(conn, by, row.club_id)
            if row.club_id is not None and self.clubs.role_of(row.club_id, player, conn) is None:
                raise _refuse("not_member", "this event is for the club's members", 403)
            size = len(row.sides[0])
            if entrant is None:
                entrant = self._new_entrant(conn, event, name, None)
                slot = 0
            else:
                team = conn.execute(
                    select(e.event_entrants.c.bot).where(
                        e.event_entrants.c.id == entrant, e.event_entrants.c.event_id == event
                    )
                ).first()
                if team is None or team.bot is not None:
                    raise _refuse("no_entrant", f"event {event} has no team {entrant}", 404)
                slot = self._members(conn, [entrant]).get(entrant, []).__len__()
                if slot >= size:
                    raise _refuse("team_full", f"a team of this game has {size} players")
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(e.event_members).values(
                            event_id=event, player_id=player, entrant_id=entrant, slot=slot
                        )
                    )
            except IntegrityError:
                raise _refuse("joined_already", "you have entered this event already") from None
            return entrant

    def leave(self, event: int, player: int) -> None:
        """Leave an event before it starts (an entrant left with no member goes too)."""
        with self.store.engine.begin() as conn:
            self._open_event(conn, event)
            mine = conn.execute(
                select(e.event_members.c.entrant_id).where(
                    e.event_members.c.event_id == event, e.event_members.c.player_id == player
                )
            ).scalar()
            if mine is None:
                raise _refuse("not_entered", "you have not entered this event", 404)
            conn.execute(
                e.event_members.delete().where(
                    e.event_members.c.event_id == event, e.event_members.c.player_id == player
                )
            )
            if not self._members(conn, [int(mine)]).get(int(mine)):
                conn.execute(e.event_entrants.delete().where(e.event_entrants.c.id == mine))

    @staticmethod
    def _members(conn: Connection, entrants: Sequence[int]) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for x in conn.execute(
            select(e.event_members.c.entrant_id, e.event_members.c.player_id)
            .where(e.event_members.c.entrant_id.in_(list(entrants)))
            .order_by(e.event_members.c.slot)
        ):
            out.setdefault(int(x.entrant_id), []).append(int(x.player_id))
        return out

    # -- starting, rounds, the end ------------------------------------------------------

    def start(self, maker: Maker, event: int) -> list[TablePlan]:
        """Set the rotation and the rounds of tables; the first round's tables to open."""
        with self.store.engine.begin() as conn:
            row = self._open_event(conn, event)
            self._may_run(conn, maker, row.club_id)
            entrants = conn.execute(
                select(e.event_entrants)
                .where(e.event_entrants.c.event_id == event)
                .order_by(e.event_entrants.c.id)
            ).all()
            members = self._members(conn, [int(x.id) for x in entrants])
            size = len(row.sides[0])
            for x in entrants:
                if x.bot is None and len(members.get(int(x.id), [])) != size:
                    raise _refuse(
                        "team_short",
                        f"{x.name}'s team has {len(members.get(int(x.id), []))} of {size} players",
                        name=x.name,
                    )
            try:
                kind, plan = schedule(
                    len(row.sides), [x.bot is not None for x in entrants], int(row.deals)
                )
            except EventError as exc:
                raise _refuse(
                    str(exc.reason), str(exc), n=exc.params["needed"], **exc.params
                ) from None
            ids = [int(x.id) for x in entrants]
            for i, entrant in enumerate(ids):
                conn.execute(
                    update(e.event_entrants)
                    .where(e.event_entrants.c.id == entrant)
                    .values(position=i)
                )
            for table_no, sitting in enumerate(plan):
                conn.execute(
                    insert(e.event_tables).values(
                        event_id=event,
                        table_no=table_no,
                        round=sitting.round,
                        lineup=[ids[i] for i in sitting.lineup],
                        deals=list(sitting.deals),
                    )
                )
            done = conn.execute(
                update(e.events)
                .where(e.events.c.id == event, e.events.c.status == "open")
                .values(status="running", round=0, movement=kind, started_at=self.store.clock())
            )
            if done.rowcount != 1:
                raise _refuse("event_started", f"event {event} has started already")
            return self._plans(conn, event, 0)

    def _plans(self, conn: Connection, event: int, round_no: int) -> list[TablePlan]:
        row = self._event(conn, event)
        entrants = {
            int(x.id): x
            for x in conn.execute(
                select(e.event_entrants).where(e.event_entrants.c.event_id == event)
            )
        }
        members = self._members(conn, list(entrants))
        plans = []
        now = self.store.clock()
        for x in conn.execute(
            select(e.event_tables)
            .where(
                e.event_tables.c.event_id == event,
                e.event_tables.c.round == round_no,
                e.event_tables.c.room_id.is_(None),
            )
            .order_by(e.event_tables.c.table_no)
        ).all():
            claimed = conn.execute(
                update(e.event_tables)
                .where(
                    e.event_tables.c.event_id == event,
                    e.event_tables.c.table_no == x.table_no,
                    e.event_tables.c.room_id.is_(None),
                    (e.event_tables.c.claimed_at.is_(None))
                    | (e.event_tables.c.claimed_at < now - self.claim_seconds),
                )
                .values(claimed_at=now)
            )
            if claimed.rowcount != 1:
                continue  # another node opens it (or did, a moment ago)
            players: list[int | None] = [None] * int(row.seats)
            levels: list[str] = ["normal"] * int(row.seats)
            slots: dict[int, int] = {}
            for seat, entrant in sorted(seat_entrants(row.sides, x.lineup).items()):
                who = entrants[int(entrant)]
                if who.bot is not None:
                    levels[seat] = who.bot
                else:
                    k = slots[entrant] = slots.get(entrant, -1) + 1
                    players[seat] = members[int(entrant)][k]
            deals = table_deals(x.deals, int(row.deals))
            options: dict[str, Any] = {
                "seats": int(row.seats),
                "hands": len(deals),
                "time_limit": row.time_limit,
                "listed": False,
                "spectators": False,
                "ready_check": False,
                "fill_after": None,
                "seed_wait": 0,
                "pause": 15.0,
                "event": event,
                "seat_levels": levels,
            }
            plans.append(
                TablePlan(
                    event=event,
                    table_no=int(x.table_no),
                    owner=int(row.owner_id),
                    code=str(row.code),
                    game_options=dict(row.game_options),
                    options=options,
                    players=players,
                    bots=[p is None for p in players],
                    deals=tuple(deals),
                )
            )
        return plans

    def table_opened(self, event: int, table_no: int, room: int) -> None:
        """The room of a planned table is open (its deals' seeds are the event's)."""
        with self.store.engine.begin() as conn:
            conn.execute(
                update(e.event_tables)
                .where(
                    e.event_tables.c.event_id == event,
                    e.event_tables.c.table_no == table_no,
                    e.event_tables.c.room_id.is_(None),
                )
                .values(room_id=room)
            )

    def seeds_of_room(self, room: int) -> list[str] | None:
        """The seeds of a room's deals when it is an event's table (kept once read)."""
        with self._lock:
            if room in self._seeds:
                return self._seeds[room]
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(e.events.c.secret, e.events.c.deals, e.event_tables.c.deals.label("mine"))
                .join(e.event_tables, e.event_tables.c.event_id == e.events.c.id)
                .where(e.event_tables.c.room_id == room)
            ).first()
        found = (
            None
            if row is None
            else [deal_seed(row.secret, i) for i in table_deals(row.mine, int(row.deals))]
        )
        with self._lock:
            if len(self._seeds) > 10_000:
                self._seeds.clear()
            self._seeds[room] = found
        return found

    def plan_seeds(self, plan: TablePlan) -> list[str]:
        """The seeds of a planned table's deals (before its room exists)."""
        with self.store.engine.connect() as conn:
            row = self._event(conn, plan.event)
        return [deal_seed(row.secret, i) for i in plan.deals]

    def advance(self) -> list[TablePlan]:
        """Move every running event on: a round whose tables are all over gives way to the
        next (its tables to open), the last round to the event's end. A round moves on
        once, whichever node sees it first (a conditional update); a table is opened by
        the node that claims it, and a table left without a room (a stale claim) is
        claimed again."""
        out: list[TablePlan] = []
        with self.store.engine.connect() as conn:
            running = conn.execute(
                select(e.events.c.id, e.events.c.round).where(e.events.c.status == "running")
            ).all()
        for row in running:
            event, round_no = int(row.id), int(row.round)
            with self.store.engine.begin() as conn:
                states = conn.execute(
                    select(e.event_tables.c.round, t.rooms.c.status)
                    .select_from(e.event_tables)
                    .join(t.rooms, t.rooms.c.id == e.event_tables.c.room_id, isouter=True)
                    .where(e.event_tables.c.event_id == event)
                ).all()
                mine = [s.status for s in states if int(s.round) == round_no]
                if any(s is None for s in mine):
                    # a table of the round without a room: its opener died, or failed
                    out.extend(self._plans(conn, event, round_no))
                    continue
                if not mine or any(s not in ("finished", "closed") for s in mine):
                    continue
                last = max(int(s.round) for s in states)
                if round_no < last:
                    moved = conn.execute(
                        update(e.events)
                        .where(
                            e.events.c.id == event,
                            e.events.c.round == round_no,
                            e.events.c.status == "running",
                        )
                        .values(round=round_no + 1)
                    )
                    if moved.rowcount == 1:
                        out.extend(self._plans(conn, event, round_no + 1))
                    continue
                self._finish(conn, event)
        return out

    # -- stopping an event early -------------------------------------------------------

    def _rooms(self, conn: Connection, event: int) -> list[int]:
        return [
            int(x)
            for x in conn.execute(
                select(e.event_tables.c.room_id).where(
                    e.event_tables.c.event_id == event, e.event_tables.c.room_id.is_not(None)
                )
            ).scalars()
        ]

    def _audit(
        self, conn: Connection, maker: Maker, action: str, event: int, reason: str, **detail: Any
    ) -> None:
        audit.record(
            conn,
            at=self.store.clock(),
            actor=maker.label,
            action=action,
            target=None,
            reason=reason,
            address=detail.pop("address", None),
            detail={"event": event, **detail},
        )

    def cancel(
        self, maker: Maker, event: int, reason: str = "", address: str | None = None
    ) -> list[int]:
        """Call the event off (open or running): nothing is scored, no rating moves, its
        tables are to close (the rooms returned; a hand in play there is void). Audited."""
        with self.store.engine.begin() as conn:
            row = self._event(conn, event)
            self._may_run(conn, maker, row.club_id)
            done = conn.execute(
                update(e.events)
                .where(e.events.c.id == event, e.events.c.status.in_(("open", "running")))
                .values(status="cancelled", finished_at=self.store.clock(), final=None)
            )
            if done.rowcount != 1:
                raise _refuse("event_over", f"event {event} is {row.status} already")
            rooms = self._rooms(conn, event)
            self._audit(conn, maker, "cancel_event", event, reason, address=address, rooms=rooms)
            return rooms

    def end_early(
        self, maker: Maker, event: int, reason: str = "", address: str | None = None
    ) -> list[int]:
        """End a running event now: its standings are final over the deals that every
        table playing them has finished (the others count for no one), its rating update
        is made as at its end, and its tables are to close (the rooms returned; a hand in
        play there is void: points move only by a settled hand). Audited."""
        with self.store.engine.begin() as conn:
            row = self._event(conn, event)
            self._may_run(conn, maker, row.club_id)
            if row.status != "running":
                raise _refuse("event_over", f"event {event} is {row.status}, not running")
            if not self._finish(conn, event, early=True):
                raise _refuse("event_over", f"event {event} has ended already")
            rooms = self._rooms(conn, event)
            self._audit(conn, maker, "end_event", event, reason, address=address, rooms=rooms)
            return rooms

    def stopped(self, rooms: Sequence[int]) -> list[int]:
        """Of ``rooms`` (open tables of events on one node), those whose event is over
        (cancelled, or ended early): each node closes its own."""
        if not rooms:
            return []
        with self.store.engine.connect() as conn:
            return [
                int(x)
                for x in conn.execute(
                    select(e.event_tables.c.room_id)
                    .join(e.events, e.events.c.id == e.event_tables.c.event_id)
                    .where(
                        e.event_tables.c.room_id.in_(list(rooms)),
                        e.events.c.status.in_(("cancelled", "finished")),
                    )
                ).scalars()
            ]

    def _finish(self, conn: Connection, event: int, early: bool = False) -> bool:
        """The event's end, once: its final standings, and one rating update of the game
        (entrants ranked by their mean duplicate score per deal; bots as anchors). Ended
        ``early``, only the deals every table that plays them has finished count. Whether
        this call ended it."""
        final = self._standings(conn, event, whole_deals=early)
        if early:
            final["ended_early"] = True
        done = conn.execute(
            update(e.events)
            .where(e.events.c.id == event, e.events.c.status == "running")
            .values(status="finished", finished_at=self.store.clock(), final=final)
        )
        if done.rowcount != 1:
            return False
        rows = final["standings"]
        teams: list[list[int | str]] = []
        for x in rows:
            teams.append(list(x["members"]) if x["bot"] is None else [x["bot"]])
        if (
            len(teams) >= 2
            and any(x["bot"] is None for x in rows)
            and any(x["deals"] for x in rows)
        ):
            points = [float(x["mean"]) for x in rows]
            code = str(self._event(conn, event).code)
            self.ratings.rate_teams(conn, code, teams, points, self.store.clock())
        return True

    # -- reading ------------------------------------------------------------------------

    def _results(self, conn: Connection, event: int) -> tuple[list[Result], list[dict[str, Any]]]:
        """The settled hands of the event's tables as results, and each hand's facts."""
        row = self._event(conn, event)
        groups: list[list[int]] = [list(g) for g in row.sides]
        results: list[Result] = []
        played: list[dict[str, Any]] = []
        q = (
            select(
                e.event_tables.c.table_no,
                e.event_tables.c.lineup,
                e.event_tables.c.deals,
                e.event_tables.c.room_id,
                t.hands.c.id,
                t.hands.c.hand_no,
                t.hands.c.settlement,
            )
            .select_from(e.event_tables)
            .join(
                t.hands,
                and_(
                    t.hands.c.room_id == e.event_tables.c.room_id,
                    t.hands.c.status == "over",
                ),
            )
            .where(e.event_tables.c.event_id == event)
            .order_by(t.hands.c.hand_no, e.event_tables.c.table_no)
        )
        for x in conn.execute(q):
            mine = table_deals(x.deals, int(row.deals))
            if not 0 < int(x.hand_no) <= len(mine) or x.settlement is None:
                continue
            deal = mine[int(x.hand_no) - 1]
            for side, entrant in enumerate(x.lineup):
                points = statistics.fmean(float(x.settlement[s]) for s in groups[side])
                results.append((deal, side, int(entrant), points))
            played.append(
                {
                    "deal": deal,
                    "table": int(x.table_no),
                    "room": int(x.room_id),
                    "game": int(x.id),
                    "lineup": [int(v) for v in x.lineup],
                    "settlement": list(x.settlement),
                }
            )
        return results, played

    def _entrants(self, conn: Connection, event: int) -> list[dict[str, Any]]:
        rows = conn.execute(
            select(e.event_entrants)
            .where(e.event_entrants.c.event_id == event)
            .order_by(e.event_entrants.c.id)
        ).all()
        members = self._members(conn, [int(x.id) for x in rows])
        names = self.store.player_names([p for m in members.values() for p in m])
        return [
            {
                "id": int(x.id),
                "name": x.name,
                "bot": x.bot,
                "position": x.position,
                "members": members.get(int(x.id), []),
                "member_names": [names.get(p, "") for p in members.get(int(x.id), [])],
            }
            for x in rows
        ]

    def _standings(self, conn: Connection, event: int, whole_deals: bool = False) -> dict[str, Any]:
        """The standings from the settled hands; with ``whole_deals``, over the deals that
        every table opened to play them has finished (an event ended early)."""
        entrants = self._entrants(conn, event)
        results, played = self._results(conn, event)
        if whole_deals:
            n = int(self._event(conn, event).deals)
            opened = conn.execute(
                select(e.event_tables.c.table_no, e.event_tables.c.deals).where(
                    e.event_tables.c.event_id == event, e.event_tables.c.room_id.is_not(None)
                )
            ).all()
            done = {(h["table"], h["deal"]) for h in played}
            whole = {
                d
                for d in range(n)
                if all((int(x.table_no), d) in done for x in opened if d in table_deals(x.deals, n))
            }
            results = [x for x in results if x[0] in whole]
            played = [h for h in played if h["deal"] in whole]
        by_id = {x["id"]: x for x in entrants}
        rows = []
        for rank, x in enumerate(standings(results, list(by_id)), 1):
            who = by_id[x["entrant"]]
            rows.append(
                {
                    **x,
                    "rank": rank,
                    "name": who["name"],
                    "bot": who["bot"],
                    "members": who["members"],
                }
            )
        return {"standings": rows, "hands": len(played)}

    def standings(self, event: int) -> dict[str, Any]:
        """The standings now (live while the event runs, final after it)."""
        with self.store.engine.connect() as conn:
            row = self._event(conn, event)
            if row.status == "finished" and row.final is not None:
                return {"final": True, **dict(row.final)}
            if row.status == "cancelled":  # nothing is scored
                return {"final": True, "cancelled": True, "standings": [], "hands": 0}
            return {"final": False, **self._standings(conn, event)}

    def event(self, event: int, viewer: int | None = None) -> dict[str, Any]:
        """An event: its facts, entrants, tables, standings and ``boards``: per deal, the
        tables that played it (a deal opens to side-by-side replay once every table has
        played it)."""
        with self.store.engine.connect() as conn:
            row = self._event(conn, event)
            if row.club_id is not None and (
                viewer is None or self.clubs.role_of(row.club_id, viewer, conn) is None
            ):
                raise _refuse("not_member", "this event is for the club's members", 403)
            entrants = self._entrants(conn, event)
            tables = [
                {
                    "table": int(x.table_no),
                    "round": int(x.round),
                    "lineup": [int(v) for v in x.lineup],
                    "deals": table_deals(x.deals, int(row.deals)),
                    "room": None if x.room_id is None else int(x.room_id),
                    "status": x.status,
                }
                for x in conn.execute(
                    select(e.event_tables, t.rooms.c.status)
                    .join(t.rooms, t.rooms.c.id == e.event_tables.c.room_id, isouter=True)
                    .where(e.event_tables.c.event_id == event)
                    .order_by(e.event_tables.c.round, e.event_tables.c.table_no)
                )
            ]
            _, played = self._results(conn, event)
            role = (
                None
                if row.club_id is None or viewer is None
                else self.clubs.role_of(row.club_id, viewer, conn)
            )
        board = self.standings(event)
        deals = []
        for i in range(int(row.deals)):
            hands = [h for h in played if h["deal"] == i]
            at = sum(i in x["deals"] for x in tables)
            over = row.status in ("cancelled", "finished") and bool(hands)  # none plays it now
            deals.append(
                {"deal": i, "tables": hands, "complete": over or (at > 0 and len(hands) == at)}
            )
        mine = next((x["id"] for x in entrants if viewer in x["members"]), None)
        return {
            **self._summary(row),
            "entrants": entrants,
            "tables": tables,
            "standings": board,
            "boards": deals,
            "me": {
                "entrant": mine,
                "runs": row.club_id is not None and role in ("admin", "owner"),
                "table": next(
                    (
                        x["room"]
                        for x in tables
                        if mine is not None
                        and mine in x["lineup"]
                        and x["status"] in ("waiting", "playing")
                    ),
                    None,
                ),
            },
        }

    @staticmethod
    def _summary(row: Any) -> dict[str, Any]:
        return {
            "id": int(row.id),
            "name": row.name,
            "code": row.code,
            "deals": int(row.deals),
            "seats": int(row.seats),
            "sides": [list(g) for g in row.sides],
            "time_limit": row.time_limit,
            "club": row.club_id,
            "status": row.status,
            "round": int(row.round),
            "movement": row.movement,
            "created_at": row.created_at,
            "started_at": row.started_at,
            "finished_at": row.finished_at,
        }

    def visible(self, viewer: int | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The events a viewer may see, newest first: the operator's, and its clubs'."""
        with self.store.engine.connect() as conn:
            clubs = [] if viewer is None else [x["id"] for x in self.clubs.my_clubs(viewer)]
            q = (
                select(e.events)
                .where((e.events.c.club_id.is_(None)) | (e.events.c.club_id.in_(clubs)))
                .order_by(e.events.c.id.desc())
                .limit(limit)
            )
            rows = conn.execute(q).all()
            counts: dict[int, int] = dict(
                conn.execute(
                    select(e.event_entrants.c.event_id, func.count())
                    .where(e.event_entrants.c.event_id.in_([int(r.id) for r in rows]))
                    .group_by(e.event_entrants.c.event_id)
                ).all()
            )
        return [{**self._summary(r), "entrants": int(counts.get(r.id, 0))} for r in rows]

    def deal_in_play(self, room: int, hand_no: int) -> bool:
        """Whether hand ``hand_no`` of an event's table is a deal some table of the event
        has still to play (its record would show the cards to that table): False for a
        room of no event."""
        with self.store.engine.connect() as conn:
            mine = conn.execute(
                select(
                    e.event_tables.c.event_id,
                    e.event_tables.c.deals,
                    e.events.c.deals.label("n"),
                    e.events.c.status,
                )
                .join(e.events, e.events.c.id == e.event_tables.c.event_id)
                .where(e.event_tables.c.room_id == room)
            ).first()
            if mine is None or mine.status in ("cancelled", "finished"):
                return False  # no table plays it any more
            deals = table_deals(mine.deals, int(mine.n))
            if not 0 < hand_no <= len(deals):
                return False
            deal = deals[hand_no - 1]
            tables = conn.execute(
                select(e.event_tables.c.room_id, e.event_tables.c.deals).where(
                    e.event_tables.c.event_id == mine.event_id
                )
            ).all()
            over = {
                (int(x.room_id), int(x.hand_no))
                for x in conn.execute(
                    select(t.hands.c.room_id, t.hands.c.hand_no)
                    .join(e.event_tables, e.event_tables.c.room_id == t.hands.c.room_id)
                    .where(e.event_tables.c.event_id == mine.event_id, t.hands.c.status == "over")
                )
            }
        at = played = 0
        for x in tables:
            theirs = table_deals(x.deals, int(mine.n))
            if deal in theirs:
                at += 1
                played += (x.room_id, theirs.index(deal) + 1) in over
        return played < at

    def deal_games(self, event: int, deal: int, viewer: int | None = None) -> list[int]:
        """The games (hands) of deal ``deal`` at every table, once every table has played
        it (before, a replay would show the deal to a table still to play it)."""
        answer = self.event(event, viewer)
        if not 0 <= deal < len(answer["boards"]):
            raise _refuse("no_deal", f"event {event} has no deal {deal}", 404)
        found = answer["boards"][deal]
        if not found["complete"]:
            raise _refuse(
                "deal_in_play",
                f"deal {deal} is still to be played at some table; its replays open after",
            )
        return [int(h["game"]) for h in found["tables"]]
