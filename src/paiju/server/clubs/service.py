"""Clubs (亲友圈) over the store's database: founding and closing, members and their
roles, join requests, bans and mutes, presets (玩法), the club's tables, and its 战绩.
Synchronous calls without sockets; the router makes them off the event loop.

Roles: the owner (圈主) may do everything and hands the club over or closes it; admins
(管理员, named by the owner) approve requests, remove, ban and mute members and keep the
presets; members (成员) open and join the club's tables and read its record.

Points never move here: the club's 战绩 is read from the ledger, which only a settled
hand writes (docs/clubs.md).
"""

from __future__ import annotations

import csv
import io
import secrets
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from sqlalchemy import Connection, and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from paiju.server import tables as t
from paiju.server.accounts import tables as a
from paiju.server.clubs import tables as c
from paiju.server.errors import ServerError
from paiju.server.identity import clean_name
from paiju.server.store import Store

__all__ = [
    "CLUB_ZONE",
    "ClubLimits",
    "Clubs",
    "Period",
    "Role",
    "period_start",
]

Role = Literal["owner", "admin", "member"]
Period = Literal["day", "week", "month", "all"]

CLUB_ZONE = ZoneInfo("Asia/Shanghai")
"""The days of a club's record begin at midnight Beijing time."""

_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
_RANK = {"member": 0, "admin": 1, "owner": 2}
ONLINE_SECONDS = 180.0
"""A member counts as online while one of its sessions was used this recently (the web
client asks the server at least once a minute while it is open)."""


@dataclass(frozen=True)
class ClubLimits:
    """The operator's limits on clubs."""

    clubs_per_player: int = 20
    """Clubs a player may belong to (founded ones included)."""
    founded_per_player: int = 5
    """Open clubs a player may own."""
    members_per_club: int = 500
    presets_per_club: int = 30
    notice_chars: int = 500


def period_start(period: Period, now: float) -> float | None:
    """The start (Unix time) of the day, week (from Monday) or month that holds ``now``,
    in :data:`CLUB_ZONE`; None for ``all``.

    >>> from datetime import datetime
    >>> t = datetime(2026, 12, 9, 15, 0, tzinfo=CLUB_ZONE).timestamp()  # a Wednesday
    >>> datetime.fromtimestamp(period_start("week", t), CLUB_ZONE).isoformat()
    '2026-12-07T00:00:00+08:00'
    """
    if period == "all":
        return None
    day = datetime.fromtimestamp(now, CLUB_ZONE).replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        day -= timedelta(days=day.weekday())
    elif period == "month":
        day = day.replace(day=1)
    return day.timestamp()


def _new_code() -> str:
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(6))


def _clean_club_name(name: str) -> str:
    try:
        return clean_name(name)
    except ServerError as exc:
        raise ServerError("bad_name", str(exc).replace("a name", "a club's name")) from None


class Clubs:
    """The clubs of one database."""

    def __init__(self, store: Store, limits: ClubLimits | None = None) -> None:
        self.store = store
        self.limits = limits or ClubLimits()

    # -- membership ---------------------------------------------------------------------

    def role_of(self, club: int, player: int, conn: Connection | None = None) -> Role | None:
        query = select(c.club_members.c.role).where(
            c.club_members.c.club_id == club, c.club_members.c.player_id == player
        )
        if conn is not None:
            found = conn.execute(query).scalar()
        else:
            with self.store.engine.connect() as own:
                found = own.execute(query).scalar()
        return None if found is None else found

    def _need(self, club: int, player: int, at_least: Role, conn: Connection | None = None) -> Role:
        """The player's role, or a refusal: ``not_member`` (403) or ``club_role`` (403)."""
        self._open(club, conn)
        role = self.role_of(club, player, conn)
        if role is None:
            raise ServerError("not_member", f"you are not a member of club {club}", 403)
        if _RANK[role] < _RANK[at_least]:
            raise ServerError("club_role", f"this needs the club's {at_least}", 403)
        return role

    def _open(self, club: int, conn: Connection | None = None) -> Any:
        query = select(c.clubs).where(c.clubs.c.id == club)
        if conn is not None:
            row = conn.execute(query).first()
        else:
            with self.store.engine.connect() as own:
                row = own.execute(query).first()
        if row is None or row.closed_at is not None:
            raise ServerError("no_club", f"no open club {club}", 404)
        return row

    def create(
        self, owner: int, name: str, notice: str = "", approval: bool = False
    ) -> dict[str, Any]:
        name = _clean_club_name(name)
        notice = notice.strip()[: self.limits.notice_chars]
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            owned = conn.execute(
                select(func.count())
                .select_from(c.clubs)
                .where(c.clubs.c.owner_id == owner, c.clubs.c.closed_at.is_(None))
            ).scalar()
            if int(owned or 0) >= self.limits.founded_per_player:
                raise ServerError(
                    "too_many_clubs",
                    f"a player owns at most {self.limits.founded_per_player} open clubs",
                    409,
                )
            self._check_member_count(conn, owner)
            for _ in range(20):
                code = _new_code()
                taken = conn.execute(select(c.clubs.c.id).where(c.clubs.c.code == code)).first()
                if taken is None:
                    break
            club = conn.execute(
                insert(c.clubs).values(
                    code=code,
                    name=name,
                    notice=notice,
                    owner_id=owner,
                    approval=approval,
                    created_at=now,
                )
            ).inserted_primary_key
            assert club is not None
            conn.execute(
                insert(c.club_members).values(
                    club_id=int(club[0]), player_id=owner, role="owner", joined_at=now
                )
            )
        return {"id": int(club[0]), "code": code, "name": name}

    def _check_member_count(self, conn: Connection, player: int) -> None:
        mine = conn.execute(
            select(func.count())
            .select_from(c.club_members)
            .join(c.clubs, c.clubs.c.id == c.club_members.c.club_id)
            .where(c.club_members.c.player_id == player, c.clubs.c.closed_at.is_(None))
        ).scalar()
        if int(mine or 0) >= self.limits.clubs_per_player:
            raise ServerError(
                "too_many_clubs",
                f"a player belongs to at most {self.limits.clubs_per_player} clubs",
                409,
            )

    def join(self, player: int, code: str) -> dict[str, Any]:
        """Join by the club's code: at once, or as a request an admin approves."""
        code = code.strip().upper()
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            row = conn.execute(
                select(c.clubs).where(c.clubs.c.code == code, c.clubs.c.closed_at.is_(None))
            ).first()
            if row is None:
                raise ServerError("no_club", f"no open club has the code {code!r}", 404)
            club = int(row.id)
            if self.role_of(club, player, conn) is not None:
                return {"club": club, "status": "member"}
            banned = conn.execute(
                select(c.club_bans.c.at).where(
                    c.club_bans.c.club_id == club, c.club_bans.c.player_id == player
                )
            ).first()
            if banned is not None:
                raise ServerError("club_banned", "this club removed you; ask its owner", 403)
            self._check_member_count(conn, player)
            if row.approval:
                asked = conn.execute(
                    select(c.club_requests.c.at).where(
                        c.club_requests.c.club_id == club, c.club_requests.c.player_id == player
                    )
                ).first()
                if asked is None:
                    conn.execute(
                        insert(c.club_requests).values(club_id=club, player_id=player, at=now)
                    )
                return {"club": club, "status": "requested"}
            self._add_member(conn, club, player, now)
        return {"club": club, "status": "member"}

    def _add_member(self, conn: Connection, club: int, player: int, now: float) -> None:
        members = conn.execute(
            select(func.count()).select_from(c.club_members).where(c.club_members.c.club_id == club)
        ).scalar()
        if int(members or 0) >= self.limits.members_per_club:
            raise ServerError(
                "club_full", f"a club has at most {self.limits.members_per_club} members", 409
            )
        conn.execute(
            insert(c.club_members).values(
                club_id=club, player_id=player, role="member", joined_at=now
            )
        )
        conn.execute(
            delete(c.club_requests).where(
                c.club_requests.c.club_id == club, c.club_requests.c.player_id == player
            )
        )

    def answer_request(self, club: int, admin: int, player: int, accept: bool) -> None:
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            self._need(club, admin, "admin", conn)
            asked = conn.execute(
                delete(c.club_requests).where(
                    c.club_requests.c.club_id == club, c.club_requests.c.player_id == player
                )
            ).rowcount
            if not asked:
                raise ServerError("no_request", f"player {player} has not asked to join", 404)
            if accept:
                self._add_member(conn, club, player, now)

    def set_role(self, club: int, owner: int, player: int, role: Role) -> None:
        """The owner names or unnames an admin, or hands the club over (role ``owner``:
        the old owner becomes an admin)."""
        with self.store.engine.begin() as conn:
            self._need(club, owner, "owner", conn)
            if self.role_of(club, player, conn) is None:
                raise ServerError("not_member", f"player {player} is not a member", 404)
            if player == owner:
                raise ServerError("club_role", "the owner's own role changes by handing over")
            where = and_(c.club_members.c.club_id == club, c.club_members.c.player_id == player)
            conn.execute(update(c.club_members).where(where).values(role=role))
            if role == "owner":
                conn.execute(
                    update(c.club_members)
                    .where(c.club_members.c.club_id == club, c.club_members.c.player_id == owner)
                    .values(role="admin")
                )
                conn.execute(update(c.clubs).where(c.clubs.c.id == club).values(owner_id=player))

    def remove(self, club: int, admin: int, player: int, ban: bool = False) -> None:
        """Remove a member (an admin removes members, the owner admins too); with ``ban``
        the player cannot join again. A member leaves with ``admin == player``."""
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            role = self.role_of(club, player, conn)
            if role is None:
                raise ServerError("not_member", f"player {player} is not a member", 404)
            if role == "owner":
                raise ServerError("club_role", "the owner hands the club over or closes it")
            if admin != player:
                mine = self._need(club, admin, "admin", conn)
                if _RANK[mine] <= _RANK[role]:
                    raise ServerError("club_role", "only the owner removes an admin", 403)
            conn.execute(
                delete(c.club_members).where(
                    c.club_members.c.club_id == club, c.club_members.c.player_id == player
                )
            )
            if ban:
                conn.execute(
                    insert(c.club_bans).values(club_id=club, player_id=player, at=now, by=admin)
                )

    def mute(self, club: int, admin: int, player: int, minutes: float) -> float | None:
        """Mute a member's chat at the club's tables for ``minutes`` (0: unmute)."""
        until = None if minutes <= 0 else self.store.clock() + minutes * 60
        with self.store.engine.begin() as conn:
            self._need(club, admin, "admin", conn)
            done = conn.execute(
                update(c.club_members)
                .where(c.club_members.c.club_id == club, c.club_members.c.player_id == player)
                .values(muted_until=until)
            ).rowcount
        if not done:
            raise ServerError("not_member", f"player {player} is not a member", 404)
        return until

    def muted_until(self, room: int, player: int) -> float | None:
        """Until when ``player`` is muted in the club that ``room`` belongs to (None: not
        muted). A seat learns of a mute when its socket (re)connects."""
        now = self.store.clock()
        with self.store.engine.connect() as conn:
            found = conn.execute(
                select(c.club_members.c.muted_until)
                .join(c.club_tables, c.club_tables.c.club_id == c.club_members.c.club_id)
                .where(c.club_tables.c.room_id == room, c.club_members.c.player_id == player)
            ).scalar()
        return float(found) if found is not None and float(found) > now else None

    def update_club(
        self,
        club: int,
        admin: int,
        name: str | None = None,
        notice: str | None = None,
        approval: bool | None = None,
    ) -> None:
        values: dict[str, Any] = {}
        if name is not None:
            values["name"] = _clean_club_name(name)
        if notice is not None:
            values["notice"] = notice.strip()[: self.limits.notice_chars]
        if approval is not None:
            values["approval"] = approval
        with self.store.engine.begin() as conn:
            self._need(club, admin, "owner" if approval is not None else "admin", conn)
            if values:
                conn.execute(update(c.clubs).where(c.clubs.c.id == club).values(**values))

    def close(self, club: int, owner: int) -> None:
        with self.store.engine.begin() as conn:
            self._need(club, owner, "owner", conn)
            conn.execute(
                update(c.clubs).where(c.clubs.c.id == club).values(closed_at=self.store.clock())
            )

    def may_watch(self, room: int, player: int) -> bool:
        """Whether ``player`` may watch ``room``: any room but a club's table, which its
        members only may watch."""
        club = self.club_of_room(room)
        return club is None or self.role_of(club, player) is not None

    def club_of_room(self, room: int) -> int | None:
        with self.store.engine.connect() as conn:
            found = conn.execute(
                select(c.club_tables.c.club_id).where(c.club_tables.c.room_id == room)
            ).scalar()
        return None if found is None else int(found)

    def my_clubs(self, player: int) -> list[dict[str, Any]]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(c.clubs.c.id, c.clubs.c.name, c.clubs.c.code, c.club_members.c.role)
                .join(c.club_members, c.club_members.c.club_id == c.clubs.c.id)
                .where(c.club_members.c.player_id == player, c.clubs.c.closed_at.is_(None))
                .order_by(c.clubs.c.id)
            ).all()
            counts: dict[int, int] = dict(
                conn.execute(
                    select(c.club_members.c.club_id, func.count())
                    .where(c.club_members.c.club_id.in_([r.id for r in rows]))
                    .group_by(c.club_members.c.club_id)
                ).all()
            )
        return [
            {
                "id": int(r.id),
                "name": r.name,
                "code": r.code,
                "role": r.role,
                "members": int(counts.get(r.id, 0)),
            }
            for r in rows
        ]

    # -- what a member sees ------------------------------------------------------------

    def club(self, club: int, player: int) -> dict[str, Any]:
        """The club lobby's facts: the club, members (online or not), requests (for
        admins), presets and its tables (newest 50: waiting, playing, finished)."""
        now = self.store.clock()
        with self.store.engine.connect() as conn:
            row = self._open(club, conn)
            role = self._need(club, player, "member", conn)
            s = a.sessions
            seen = (
                select(s.c.player_id, func.max(s.c.last_seen).label("seen"))
                .where(s.c.ended_at.is_(None))
                .group_by(s.c.player_id)
                .subquery()
            )
            members = conn.execute(
                select(
                    c.club_members.c.player_id,
                    c.club_members.c.role,
                    c.club_members.c.joined_at,
                    c.club_members.c.muted_until,
                    t.players.c.name,
                    seen.c.seen,
                )
                .join(t.players, t.players.c.id == c.club_members.c.player_id)
                .join(seen, seen.c.player_id == c.club_members.c.player_id, isouter=True)
                .where(c.club_members.c.club_id == club)
                .order_by(c.club_members.c.joined_at)
            ).all()
            requests = []
            if _RANK[role] >= _RANK["admin"]:
                requests = [
                    {"player": int(r.player_id), "name": r.name, "at": float(r.at)}
                    for r in conn.execute(
                        select(c.club_requests.c.player_id, c.club_requests.c.at, t.players.c.name)
                        .join(t.players, t.players.c.id == c.club_requests.c.player_id)
                        .where(c.club_requests.c.club_id == club)
                    )
                ]
            presets = self._presets(conn, club)
            tables = self._tables(conn, club)
        return {
            "id": club,
            "code": row.code,
            "name": row.name,
            "notice": row.notice,
            "approval": bool(row.approval),
            "owner": int(row.owner_id),
            "role": role,
            "members": [
                {
                    "player": int(m.player_id),
                    "name": m.name,
                    "role": m.role,
                    "joined": float(m.joined_at),
                    "online": m.seen is not None and float(m.seen) > now - ONLINE_SECONDS,
                    "muted_until": m.muted_until if m.muted_until and m.muted_until > now else None,
                }
                for m in members
            ],
            "requests": requests,
            "presets": presets,
            "tables": tables,
        }

    def _presets(self, conn: Connection, club: int) -> list[dict[str, Any]]:
        rows = conn.execute(
            select(c.club_presets)
            .where(c.club_presets.c.club_id == club, c.club_presets.c.removed_at.is_(None))
            .order_by(c.club_presets.c.id)
        ).all()
        return [
            {
                "id": int(p.id),
                "name": p.name,
                "code": p.code,
                "options": dict(p.options),
                "game_options": dict(p.game_options),
                "keep_waiting": bool(p.keep_waiting),
            }
            for p in rows
        ]

    def _tables(self, conn: Connection, club: int, limit: int = 50) -> list[dict[str, Any]]:
        ct, r = c.club_tables, t.rooms
        rows = conn.execute(
            select(
                r.c.id,
                r.c.code,
                r.c.status,
                r.c.seats,
                r.c.hands_played,
                r.c.options,
                ct.c.preset_id,
                ct.c.at,
            )
            .join(ct, ct.c.room_id == r.c.id)
            .where(ct.c.club_id == club)
            .order_by(
                (r.c.status == "finished").asc(), (r.c.status == "closed").asc(), ct.c.at.desc()
            )
            .limit(limit)
        ).all()
        ids = [int(x.id) for x in rows]
        seats: dict[int, list[Any]] = defaultdict(list)
        if ids:
            for s in conn.execute(
                select(
                    t.room_seats.c.room_id,
                    t.room_seats.c.seat,
                    t.room_seats.c.is_bot,
                    t.players.c.name,
                )
                .join(t.players, t.players.c.id == t.room_seats.c.player_id, isouter=True)
                .where(t.room_seats.c.room_id.in_(ids))
                .order_by(t.room_seats.c.room_id, t.room_seats.c.seat)
            ):
                seats[int(s.room_id)].append("bot" if s.is_bot else s.name)
        out = []
        for x in rows:
            names = seats.get(int(x.id), [])
            names += [None] * (int(x.seats) - len(names))
            out.append(
                {
                    "room": int(x.id),
                    "code": x.code,
                    "status": x.status,
                    "seats": names,
                    "hands_played": int(x.hands_played),
                    "hands": (x.options or {}).get("hands"),
                    "preset": None if x.preset_id is None else int(x.preset_id),
                    "opened": float(x.at),
                }
            )
        return out

    # -- presets and tables -------------------------------------------------------------

    def add_preset(
        self,
        club: int,
        admin: int,
        name: str,
        code: str,
        options: dict[str, Any],
        game_options: dict[str, Any],
        keep_waiting: bool = False,
    ) -> dict[str, Any]:
        name = _clean_club_name(name)
        with self.store.engine.begin() as conn:
            self._need(club, admin, "admin", conn)
            count = conn.execute(
                select(func.count())
                .select_from(c.club_presets)
                .where(c.club_presets.c.club_id == club, c.club_presets.c.removed_at.is_(None))
            ).scalar()
            if int(count or 0) >= self.limits.presets_per_club:
                raise ServerError(
                    "too_many_presets",
                    f"a club keeps at most {self.limits.presets_per_club} presets",
                    409,
                )
            pid = conn.execute(
                insert(c.club_presets).values(
                    club_id=club,
                    name=name,
                    code=code,
                    options=options,
                    game_options=game_options,
                    keep_waiting=keep_waiting,
                    created_by=admin,
                    created_at=self.store.clock(),
                )
            ).inserted_primary_key
        assert pid is not None
        return {
            "id": int(pid[0]),
            "name": name,
            "code": code,
            "options": options,
            "game_options": game_options,
            "keep_waiting": keep_waiting,
        }

    def remove_preset(self, club: int, admin: int, preset: int) -> None:
        with self.store.engine.begin() as conn:
            self._need(club, admin, "admin", conn)
            done = conn.execute(
                update(c.club_presets)
                .where(c.club_presets.c.id == preset, c.club_presets.c.club_id == club)
                .values(removed_at=self.store.clock())
            ).rowcount
        if not done:
            raise ServerError("no_preset", f"club {club} has no preset {preset}", 404)

    def preset(self, club: int, player: int, preset: int) -> dict[str, Any]:
        with self.store.engine.connect() as conn:
            self._need(club, player, "member", conn)
            row = conn.execute(
                select(c.club_presets).where(
                    c.club_presets.c.id == preset,
                    c.club_presets.c.club_id == club,
                    c.club_presets.c.removed_at.is_(None),
                )
            ).first()
        if row is None:
            raise ServerError("no_preset", f"club {club} has no preset {preset}", 404)
        return {
            "id": int(row.id),
            "code": row.code,
            "options": dict(row.options),
            "game_options": dict(row.game_options),
            "keep_waiting": bool(row.keep_waiting),
        }

    def waiting_tables(self, club: int, preset: int) -> list[int]:
        """The preset's waiting tables, oldest first."""
        with self.store.engine.connect() as conn:
            return [
                int(x)
                for x in conn.execute(
                    select(c.club_tables.c.room_id)
                    .join(t.rooms, t.rooms.c.id == c.club_tables.c.room_id)
                    .where(
                        c.club_tables.c.club_id == club,
                        c.club_tables.c.preset_id == preset,
                        t.rooms.c.status == "waiting",
                    )
                    .order_by(c.club_tables.c.at)
                ).scalars()
            ]

    def keep_waiting_presets(self) -> list[tuple[int, int, dict[str, Any]]]:
        """(club, preset, preset facts) of every open club's 开桌即有 preset that has no
        waiting table now."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(c.club_presets, c.clubs.c.owner_id)
                .join(c.clubs, c.clubs.c.id == c.club_presets.c.club_id)
                .where(
                    c.club_presets.c.keep_waiting.is_(True),
                    c.club_presets.c.removed_at.is_(None),
                    c.clubs.c.closed_at.is_(None),
                )
            ).all()
        out = []
        for p in rows:
            if not self.waiting_tables(int(p.club_id), int(p.id)):
                out.append(
                    (
                        int(p.club_id),
                        int(p.id),
                        {
                            "code": p.code,
                            "options": dict(p.options),
                            "game_options": dict(p.game_options),
                            "owner": int(p.owner_id),
                        },
                    )
                )
        return out

    def add_table(self, club: int, room: int, preset: int | None, opened_by: int) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(
                insert(c.club_tables).values(
                    room_id=room,
                    club_id=club,
                    preset_id=preset,
                    opened_by=opened_by,
                    at=self.store.clock(),
                )
            )

    # -- the record (战绩) ---------------------------------------------------------------

    def record(self, club: int, player: int, period: Period = "week") -> dict[str, Any]:
        """Per member totals of the club's tables in ``period``: hands, rooms, points,
        大赢家 (rooms won: the most points of the room's humans), best hand; ranked by
        points. Per game too."""
        start = period_start(period, self.store.clock())
        lg, ct = t.ledger, c.club_tables
        with self.store.engine.connect() as conn:
            self._need(club, player, "member", conn)
            where = [ct.c.club_id == club, lg.c.player_id.is_not(None)]
            if start is not None:
                where.append(lg.c.at >= start)
            rows = conn.execute(
                select(lg.c.player_id, lg.c.room_id, lg.c.hand_id, lg.c.delta, t.rooms.c.code)
                .join(ct, ct.c.room_id == lg.c.room_id)
                .join(t.rooms, t.rooms.c.id == lg.c.room_id)
                .where(*where)
            ).all()
            names = dict(
                conn.execute(
                    select(t.players.c.id, t.players.c.name).where(
                        t.players.c.id.in_({int(r.player_id) for r in rows})
                    )
                ).all()
            )
        per: dict[int, dict[str, Any]] = {}
        room_totals: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        for r in rows:
            pid = int(r.player_id)
            entry = per.setdefault(
                pid,
                {
                    "player": pid,
                    "name": names.get(pid, "?"),
                    "hands": 0,
                    "rooms": set(),
                    "points": 0,
                    "best_hand": None,
                    "winner": 0,
                    "games": defaultdict(lambda: {"hands": 0, "points": 0}),
                },
            )
            entry["hands"] += 1
            entry["rooms"].add(int(r.room_id))
            entry["points"] += int(r.delta)
            if entry["best_hand"] is None or int(r.delta) > entry["best_hand"]["points"]:
                entry["best_hand"] = {"game": int(r.hand_id), "points": int(r.delta)}
            game = entry["games"][r.code]
            game["hands"] += 1
            game["points"] += int(r.delta)
            room_totals[int(r.room_id)][pid] += int(r.delta)
        for totals in room_totals.values():
            top = max(totals.values())
            for pid, points in totals.items():
                if points == top and top > 0:
                    per[pid]["winner"] += 1
        members = sorted(per.values(), key=lambda e: (-e["points"], e["name"]))
        for rank, e in enumerate(members, 1):
            e["rank"] = rank
            e["rooms"] = len(e["rooms"])
            e["games"] = dict(e["games"])
        return {"club": club, "period": period, "since": start, "members": members}

    def record_csv(self, club: int, player: int, period: Period = "week") -> str:
        found = self.record(club, player, period)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(
            [
                "rank",
                "player",
                "name",
                "hands",
                "rooms",
                "points",
                "big_winner",
                "best_hand_points",
                "best_hand_game",
            ]
        )
        for e in found["members"]:
            best = e["best_hand"] or {}
            writer.writerow(
                [
                    e["rank"],
                    e["player"],
                    e["name"],
                    e["hands"],
                    e["rooms"],
                    e["points"],
                    e["winner"],
                    best.get("points", ""),
                    best.get("game", ""),
                ]
            )
        return out.getvalue()

    # -- 回放码 ---------------------------------------------------------------------------

    def replay_code(self, kind: Literal["game", "room"], ref: int) -> str:
        """The 回放码 of a finished hand or room (made on first asking). A hand in play or
        a room still open has none (``in_play``, 409): a code reveals nothing early."""
        with self.store.engine.begin() as conn:
            if kind == "game":
                status = conn.execute(select(t.hands.c.status).where(t.hands.c.id == ref)).scalar()
                over = status == "over"
            else:
                status = conn.execute(select(t.rooms.c.status).where(t.rooms.c.id == ref)).scalar()
                over = status in ("finished", "closed")
            if status is None:
                raise ServerError(
                    "no_game" if kind == "game" else "no_room", f"no {kind} {ref}", 404
                )
            if not over:
                raise ServerError("in_play", f"{kind} {ref} is not over yet", 409)
            found = conn.execute(
                select(c.replay_codes.c.code).where(
                    c.replay_codes.c.kind == kind, c.replay_codes.c.ref == ref
                )
            ).scalar()
            if found is not None:
                return str(found)
            for _ in range(20):
                code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(7))
                try:
                    with conn.begin_nested():
                        conn.execute(
                            insert(c.replay_codes).values(
                                code=code, kind=kind, ref=ref, at=self.store.clock()
                            )
                        )
                    return code
                except IntegrityError:
                    continue
        raise ServerError("busy_server", "no free replay code; try again", 503)

    def resolve(self, code: str) -> dict[str, Any]:
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(c.replay_codes.c.kind, c.replay_codes.c.ref).where(
                    c.replay_codes.c.code == code.strip().upper()
                )
            ).first()
        if row is None:
            raise ServerError("no_replay", f"no replay has the code {code!r}", 404)
        return {"code": code.strip().upper(), "kind": row.kind, row.kind: int(row.ref)}
