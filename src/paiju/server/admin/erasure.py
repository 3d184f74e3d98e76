"""Erasing a player (注销): what makes the player a person goes, their hands stay.

:func:`erase_player`, in one transaction, with an entry in the audit trail:

* **gone:** the login and password (``accounts``), the passkeys, the recovery codes, the
  passkey ceremonies, the sign-up flags, bans and chat mutes, the rating, invitations,
  club memberships and requests to join; every session ends (``ended_why`` ``erased``)
  with its device name and address blanked;
* **replaced:** the display name becomes :data:`ANONYMOUS` (``已注销#<id>``) and the
  player's token hash a random one, so that no token of theirs works again;
* **kept:** the player's id, and with it every hand, action and ledger entry: a hand's
  settlement still sums to zero, its fairness proof still checks, and the other players'
  histories, 战绩 and replays still show the seat, now under the anonymous name. The
  audit trail keeps its entries about the player (it cannot be edited unnoticed); their
  reasons are the staff's words.

A player who owns an open club is not erased (``owns_club``, 409): the club is handed
over or closed first.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import delete, func, or_, select, update

from paiju.server import tables as t
from paiju.server.accounts import audit
from paiju.server.accounts import tables as a
from paiju.server.admin import tables as s
from paiju.server.clubs import tables as c
from paiju.server.errors import ServerError
from paiju.server.ratings import tables as r
from paiju.server.store import Store, hash_token

__all__ = ["ANONYMOUS", "erase_player", "is_erased"]

ANONYMOUS = "已注销#{id}"
"""The display name an erased player's seat keeps in the records."""


def is_erased(store: Store, player: int) -> bool:
    """Whether ``player`` was erased (the trail holds its erasure)."""
    with store.engine.connect() as conn:
        found = conn.execute(
            select(func.count())
            .select_from(a.audit_log)
            .where(a.audit_log.c.target == player, a.audit_log.c.action == "erase")
        ).scalar()
    return bool(found)


def erase_player(
    store: Store, player: int, reason: str, by: str, address: str | None = None
) -> dict[str, Any]:
    """Erase ``player`` (see the module); returns the new name, the sessions ended (for
    closing their sockets) and the hands kept under the anonymous seat."""
    if not reason.strip():
        raise ServerError("bad_request", "an erasure needs a reason")
    now = store.clock()
    name = ANONYMOUS.format(id=player)
    with store.engine.begin() as conn:
        row = conn.execute(select(t.players.c.id).where(t.players.c.id == player)).first()
        if row is None:
            raise ServerError("no_player", f"no player {player}", 404)
        if conn.execute(
            select(func.count())
            .select_from(a.audit_log)
            .where(a.audit_log.c.target == player, a.audit_log.c.action == "erase")
        ).scalar():
            raise ServerError("erased", f"player {player} was erased already", 409)
        owned = conn.execute(
            select(c.clubs.c.id).where(c.clubs.c.owner_id == player, c.clubs.c.closed_at.is_(None))
        ).all()
        if owned:
            raise ServerError(
                "owns_club",
                f"player {player} owns club(s) {', '.join(str(o.id) for o in owned)}:"
                " hand them over or close them first",
                409,
            )
        sessions = [
            int(x.id)
            for x in conn.execute(
                select(a.sessions.c.id).where(
                    a.sessions.c.player_id == player, a.sessions.c.ended_at.is_(None)
                )
            )
        ]
        conn.execute(
            update(a.sessions)
            .where(a.sessions.c.player_id == player, a.sessions.c.ended_at.is_(None))
            .values(ended_at=now, ended_why="erased")
        )
        conn.execute(
            update(a.sessions)
            .where(a.sessions.c.player_id == player)
            .values(device="", address=None)
        )
        for table in (
            a.accounts,
            a.passkeys,
            a.recovery_codes,
            a.passkey_challenges,
            a.account_flags,
            a.bans,
            s.mutes,
            r.ratings,
            c.club_members,
            c.club_requests,
        ):
            conn.execute(delete(table).where(table.c.player_id == player))
        conn.execute(
            delete(t.invitations).where(
                or_(t.invitations.c.invitee_id == player, t.invitations.c.sender_id == player)
            )
        )
        conn.execute(
            update(t.players)
            .where(t.players.c.id == player)
            .values(name=name, token_hash=hash_token(secrets.token_urlsafe(32)), token_expires=now)
        )
        hands = conn.execute(
            select(func.count()).select_from(t.ledger).where(t.ledger.c.player_id == player)
        ).scalar()
        audit.record(
            conn,
            at=now,
            actor=by,
            action="erase",
            target=player,
            reason=reason,
            address=address,
            detail={"sessions_ended": len(sessions), "hands_kept": int(hands or 0)},
        )
    store.forget_sessions(sessions, player)
    return {
        "player": player,
        "name": name,
        "sessions_ended": sessions,
        "hands_kept": int(hands or 0),
    }
