"""What the console reads and does on players and rooms, free of sockets: the database
calls are synchronous (the router runs them off the event loop), the live figures read
the hub's rooms as they stand.

A room is shown to staff as a spectator sees it (:meth:`~paiju.engine.State.view` of no
seat): **no hidden card of a hand in play reaches staff**, so that an insider cannot help
a friend; the whole hand (deal, log) is the finished game's replay
(``GET /api/games/{id}``), once it is over.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, insert, or_, select, update

from paiju.server import tables as t
from paiju.server.accounts import audit
from paiju.server.accounts import tables as a
from paiju.server.accounts.logins import login_key
from paiju.server.accounts.service import Accounts, in_force
from paiju.server.admin import tables as s
from paiju.server.errors import ServerError
from paiju.server.store import Store

if TYPE_CHECKING:
    from paiju.server.hub import Hub
    from paiju.server.room import Room

__all__ = [
    "STUCK_GRACE",
    "Console",
    "live_rooms",
    "merge_live",
    "mute_seat",
    "muted_until",
    "node_figures",
    "room_public",
]

STUCK_GRACE = 30.0
"""A playing room is stuck when no action came for twice its decision time and this."""


def _stuck_after(room: Room) -> float:
    return 2 * room.time_limit + STUCK_GRACE


def live_rooms(hub: Hub) -> list[dict[str, Any]]:
    """This node's open rooms: id, game, state, seats, who is connected."""
    out = []
    for room in list(hub.rooms.values()):
        out.append(
            {
                "id": room.id,
                "code": room.code,
                "name_zh": room.variant.name_zh,
                "name_en": room.variant.name_en,
                "status": room.status,
                "game": room.hand_id or None,
                "hands_played": room.hands_played,
                "seats": room.n,
                "connected": len(room.clients()),
                "stuck_after": _stuck_after(room),
                "deal_delayed": room.deal_delayed,
            }
        )
    return out


def node_figures(
    name: str, rooms: list[dict[str, Any]], online: int, hands: int, errors: int
) -> dict[str, Any]:
    """One node's live figures: players online, open rooms, sockets, hands and errors
    in the last minute (from the node's metrics: :mod:`paiju.server.metrics`)."""
    return {
        "name": name,
        "reachable": True,
        "players_online": online,
        "rooms": len(rooms),
        "connections": sum(r["connected"] for r in rooms),
        "hands_per_minute": hands,
        "errors_per_minute": errors,
    }


def merge_live(own: dict[str, Any], others: dict[str, dict[str, Any] | None]) -> dict[str, Any]:
    """A cluster's live figures: this node's (:meth:`Console.live`, with ``node``) and
    the other nodes' answers (``None``: a node that did not answer). Rooms, players and
    errors add up; the hands per minute are the shared database's (every node's hands)
    already. Each room of the list names its node; ``nodes`` lists every node's figures."""
    out = dict(own)
    nodes = [own["node"]]
    rooms = [dict(r, node=own["node"]["name"]) for r in own["list"]]
    games = {code: dict(states) for code, states in own["by_game"].items()}
    stuck = list(own["stuck"])
    for name, theirs in sorted(others.items()):
        if theirs is None:
            nodes.append({"name": name, "reachable": False})
            continue
        nodes.append(theirs["node"])
        rooms += [dict(r, node=name) for r in theirs["list"]]
        stuck += theirs["stuck"]
        for code, states in theirs["by_game"].items():
            mine = games.setdefault(code, {})
            for state, n in states.items():
                mine[state] = mine.get(state, 0) + n
    reached = [n for n in nodes if n["reachable"]]
    out.update(
        nodes=nodes,
        list=rooms,
        stuck=stuck,
        by_game=dict(sorted(games.items())),
        rooms=len(rooms),
        players_online=sum(n["players_online"] for n in reached),
        errors_per_minute=sum(n["errors_per_minute"] for n in reached),
    )
    return out


def room_public(room: Room) -> dict[str, Any]:
    """A room as a spectator sees it: its info and the view of no seat (no hidden card)."""
    info = room.info().model_dump()
    view = None if room.state is None else room.state.view(None)
    return {"room": info, "view": view, "game": room.hand_id or None}


class Console:
    """The console's calls on one database."""

    def __init__(self, store: Store, accounts: Accounts) -> None:
        self.store = store
        self.accounts = accounts

    # -- live ------------------------------------------------------------------------

    def last_actions(self, hands: list[int]) -> dict[int, float]:
        """The time of each hand's last action (or its deal)."""
        if not hands:
            return {}
        with self.store.engine.connect() as conn:
            started = dict(
                conn.execute(
                    select(t.hands.c.id, t.hands.c.started_at).where(t.hands.c.id.in_(hands))
                ).all()
            )
            acted = dict(
                conn.execute(
                    select(t.actions.c.hand_id, func.max(t.actions.c.at))
                    .where(t.actions.c.hand_id.in_(hands))
                    .group_by(t.actions.c.hand_id)
                ).all()
            )
        return {int(h): float(acted.get(h) or started[h]) for h in started}

    def hands_since(self, since: float) -> int:
        with self.store.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count()).select_from(t.hands).where(t.hands.c.started_at >= since)
                ).scalar()
                or 0
            )

    def live(self, rooms: list[dict[str, Any]], online: int) -> dict[str, Any]:
        """The live figures: players online, rooms by game and state (stuck: a playing
        room with no action for longer than its timers allow), hands per minute."""
        now = self.store.clock()
        last = self.last_actions([r["game"] for r in rooms if r["game"]])
        by: Counter[tuple[str, str]] = Counter()
        stuck = []
        for r in rooms:
            quiet = None if not r["game"] else now - last.get(r["game"], now)
            r["quiet"] = quiet
            r["stuck"] = r["status"] == "playing" and (
                r["deal_delayed"] or (quiet is not None and quiet > r["stuck_after"])
            )
            if r["stuck"]:
                stuck.append(r["id"])
            by[(r["code"], "stuck" if r["stuck"] else r["status"])] += 1
        games: dict[str, dict[str, int]] = {}
        for (code, state), n in sorted(by.items()):
            games.setdefault(code, {})[state] = n
        return {
            "at": now,
            "players_online": online,
            "rooms": len(rooms),
            "by_game": games,
            "stuck": stuck,
            "hands_per_minute": self.hands_since(now - 60.0),
            "hands_last_hour": self.hands_since(now - 3600.0),
            "list": rooms,
        }

    # -- players ---------------------------------------------------------------------

    def search(self, text: str, limit: int = 50) -> list[dict[str, Any]]:
        """Players by id (``#12`` or ``12``), login (exact, as logins compare) or a part
        of the display name."""
        text = text.strip()
        if not text:
            return []
        p, acc = t.players, a.accounts
        where = [p.c.name.contains(text, autoescape=True), acc.c.login_key == login_key(text)]
        digits = text.removeprefix("#")
        if digits.isdigit() and len(digits) < 19:
            where.append(p.c.id == int(digits))
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(p.c.id, p.c.name, p.c.created_at, acc.c.login)
                .select_from(p.outerjoin(acc, acc.c.player_id == p.c.id))
                .where(or_(*where))
                .order_by(p.c.id)
                .limit(limit)
            ).all()
        return [
            {"id": int(r.id), "name": r.name, "login": r.login, "since": float(r.created_at)}
            for r in rows
        ]

    def player(self, player: int) -> dict[str, Any]:
        """A player's file: account, ban and mute in force, sessions, balance, hands."""
        who = self.accounts.find_player(str(player))
        account = self.accounts.account(who.id)
        ban = self.accounts.ban_of(who.id)
        with self.store.engine.connect() as conn:
            hands = conn.execute(
                select(func.count()).select_from(t.ledger).where(t.ledger.c.player_id == who.id)
            ).scalar()
            since = conn.execute(
                select(t.players.c.created_at).where(t.players.c.id == who.id)
            ).scalar()
            trail = conn.execute(
                select(a.audit_log)
                .where(a.audit_log.c.target == who.id)
                .order_by(a.audit_log.c.id.desc())
                .limit(50)
            ).all()
        return {
            "id": who.id,
            "name": who.name,
            "since": since,
            "login": account["login"],
            "guest": account["guest"],
            "balance": self.store.balance(who.id),
            "hands": int(hands or 0),
            "ban": None if ban is None else {"until": ban.until, "reason": ban.reason},
            "mute": self.mute_of(who.id),
            "sessions": self.accounts.session_list_all(who.id),
            "trail": [
                {
                    "id": int(e.id),
                    "at": float(e.at),
                    "actor": e.actor,
                    "action": e.action,
                    "reason": e.reason,
                }
                for e in trail
            ],
        }

    def export(self, player: int, by: str, address: str | None = None) -> dict[str, Any]:
        """Everything the server keeps of a player, as JSON (audited)."""
        from paiju.server.records import player_record

        body = self.player(player)
        body["ledger"] = self.store.ledger(player, limit=100_000)
        body["record"] = player_record(self.store, player)
        with self.store.engine.connect() as conn:
            body["bans"] = [
                {
                    "until": float(b.until),
                    "reason": b.reason,
                    "by": b.by,
                    "at": float(b.created_at),
                    "lifted": b.lifted_at,
                }
                for b in conn.execute(select(a.bans).where(a.bans.c.player_id == player)).all()
            ]
        body["exported_at"] = self.store.clock()
        self._audit(by, "export", player, "data export", address)
        return body

    def ledger(self, player: int) -> dict[str, Any]:
        return {
            "player": player,
            "balance": self.store.balance(player),
            "entries": self.store.ledger(player),
        }

    # -- chat mutes ------------------------------------------------------------------

    def mute_of(self, player: int) -> dict[str, Any] | None:
        row = in_force(self.store, s.mutes, player)
        return None if row is None else {"until": float(row.until), "reason": row.reason}

    def mute(
        self, player: int, hours: float, reason: str, by: str, address: str | None = None
    ) -> float:
        """Mute ``player``'s free text at every table for ``hours`` (audited); the end."""
        if not 0 < hours <= 24 * 366:
            raise ServerError("bad_request", "a mute lasts more than 0 and at most 8,784 hours")
        if not reason.strip():
            raise ServerError("bad_request", "a mute needs a reason")
        self.accounts.find_player(str(player))
        now = self.store.clock()
        until = now + hours * 3600
        with self.store.engine.begin() as conn:
            conn.execute(
                insert(s.mutes).values(
                    player_id=player, until=until, reason=reason, by=by, created_at=now
                )
            )
            audit.record(
                conn,
                at=now,
                actor=by,
                action="mute",
                target=player,
                reason=reason,
                address=address,
                detail={"hours": hours, "until": until},
            )
        return until

    def unmute(self, player: int, reason: str, by: str, address: str | None = None) -> int:
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            lifted = conn.execute(
                update(s.mutes)
                .where(s.mutes.c.player_id == player, s.mutes.c.lifted_at.is_(None))
                .values(lifted_at=now)
            ).rowcount
            audit.record(
                conn,
                at=now,
                actor=by,
                action="unmute",
                target=player,
                reason=reason,
                address=address,
                detail={"lifted": lifted},
            )
        return int(lifted)

    # -- the trail ---------------------------------------------------------------------

    def _audit(
        self,
        by: str,
        action: str,
        target: int | None,
        reason: str,
        address: str | None,
        detail: dict[str, Any] | None = None,
    ) -> None:
        with self.store.engine.begin() as conn:
            audit.record(
                conn,
                at=self.store.clock(),
                actor=by,
                action=action,
                target=target,
                reason=reason,
                address=address,
                detail=detail,
            )

    def audit(self, by: str, action: str, reason: str, **detail: Any) -> None:
        """Write a console action that has no player as its target (a room, a notice)."""
        address = detail.pop("address", None)
        self._audit(by, action, None, reason, address, detail)

    def trail(self, limit: int = 200) -> list[dict[str, Any]]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(a.audit_log).order_by(a.audit_log.c.id.desc()).limit(limit)
            ).all()
        return [
            {
                "id": int(r.id),
                "at": float(r.at),
                "actor": r.actor,
                "action": r.action,
                "target": r.target,
                "reason": r.reason,
                "address": r.address,
                "detail": r.detail,
            }
            for r in rows
        ]


def muted_until(store: Store, player: int) -> float:
    """When the console's chat mute of ``player`` ends (0: none in force)."""
    now = store.clock()
    with store.engine.connect() as conn:
        until = conn.execute(
            select(func.max(s.mutes.c.until)).where(
                s.mutes.c.player_id == player, s.mutes.c.lifted_at.is_(None), s.mutes.c.until > now
            )
        ).scalar()
    return float(until or 0.0)


async def mute_seat(store: Store, room: Room, player: int) -> None:
    """A socket opens at ``room``: its seat takes the player's console mute, if any."""
    from paiju.server.store import off_loop

    seat = room.seat_of(player)
    if seat is not None:
        until = await off_loop(store, muted_until, store, player)
        chat = room.seats[seat].chat
        chat.muted_until = max(chat.muted_until, until)
