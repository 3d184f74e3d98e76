"""邀请牌友: a seated player invites a recent table-mate to the room (its invite code).

An invitation is a row of the ``invitations`` table for :data:`INVITE_TTL` seconds (a
table's invite is for now, not for the record), so that every node of a cluster sees it
whichever node sent it, and a restart loses none: the invitee's lobby reads them with
``GET /api/players/me/invites`` (the rooms still waiting, without the player) and joins
with one tap. One invitation per room and invitee (inviting again renews it), at most
:data:`PER_PLAYER` waiting for a player (the oldest go first), and at most
:data:`SENT_PER_MINUTE` sent by one player a minute. Times are the database's clock
(:meth:`paiju.server.store.Store.clock`), as the leases' are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, exists, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from paiju.server import tables as t
from paiju.server.errors import ServerError

if TYPE_CHECKING:
    from paiju.server.store import Store

__all__ = ["INVITE_TTL", "PER_PLAYER", "SENT_PER_MINUTE", "Invitation", "Invitations"]

INVITE_TTL = 600.0
PER_PLAYER = 20
SENT_PER_MINUTE = 10


@dataclass(frozen=True)
class Invitation:
    room: int
    code: str
    invite: str
    sender: int
    sender_name: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return {
            "room": self.room,
            "code": self.code,
            "invite": self.invite,
            "from": self.sender_name,
            "at": self.at,
        }


class Invitations:
    """The invitations waiting for each player, in the store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def send(self, to: int, room: int, sender: int) -> None:
        """``sender`` invites player ``to`` to ``room`` (``too_many_invites`` past
        :data:`SENT_PER_MINUTE` a minute)."""
        if to == sender:
            raise ServerError("bad_request", "one does not invite oneself", 400)
        inv = t.invitations
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            conn.execute(delete(inv).where(inv.c.at < now - INVITE_TTL))  # the expired
            sent = conn.execute(
                select(func.count())
                .select_from(inv)
                .where(inv.c.sender_id == sender, inv.c.at > now - 60.0)
            ).scalar_one()
            if sent >= SENT_PER_MINUTE:
                raise ServerError(
                    "too_many_invites", f"at most {SENT_PER_MINUTE} invitations a minute", 429
                )
            conn.execute(delete(inv).where(inv.c.invitee_id == to, inv.c.room_id == room))
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(inv).values(invitee_id=to, room_id=room, sender_id=sender, at=now)
                    )
            except IntegrityError:
                pass  # the same invitation, sent at the same moment through another node
            kept = (
                select(inv.c.room_id)
                .where(inv.c.invitee_id == to)
                .order_by(inv.c.at.desc())
                .limit(PER_PLAYER)
            )
            newest = kept.scalar_subquery()
            conn.execute(delete(inv).where(inv.c.invitee_id == to, inv.c.room_id.not_in(newest)))

    def waiting(self, player: int) -> list[Invitation]:
        """The player's invitations not yet expired, to rooms still waiting for players in
        which the player holds no seat, oldest first."""
        inv, rooms, seats = t.invitations, t.rooms, t.room_seats
        sender = aliased(t.players)
        seated = exists().where(and_(seats.c.room_id == inv.c.room_id, seats.c.player_id == player))
        query = (
            select(inv.c.room_id, rooms.c.code, rooms.c.invite, inv.c.sender_id)
            .add_columns(sender.c.name, inv.c.at)
            .join(rooms, rooms.c.id == inv.c.room_id)
            .join(sender, sender.c.id == inv.c.sender_id)
            .where(
                inv.c.invitee_id == player,
                inv.c.at > self.store.clock() - INVITE_TTL,
                rooms.c.status == "waiting",
                ~seated,
            )
            .order_by(inv.c.at)
        )
        with self.store.engine.connect() as conn:
            return [
                Invitation(
                    room=int(r.room_id),
                    code=str(r.code),
                    invite=str(r.invite or ""),
                    sender=int(r.sender_id),
                    sender_name=str(r.name),
                    at=float(r.at),
                )
                for r in conn.execute(query)
            ]

    def drop(self, player: int, room: int) -> None:
        """The player answered (joined or turned down) the invitation to ``room``."""
        inv = t.invitations
        with self.store.engine.begin() as conn:
            conn.execute(delete(inv).where(inv.c.invitee_id == player, inv.c.room_id == room))
