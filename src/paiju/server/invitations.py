"""邀请牌友: a seated player invites a recent table-mate to the room (its invite code).

The invitations are held in the serving process's memory for :data:`INVITE_TTL` seconds
(a table's invite is for now, not for the record): the invitee's lobby reads them with
``GET /api/players/me/invites`` and joins with one tap. One invitation per room and
invitee (inviting again renews it), at most :data:`PER_PLAYER` waiting for a player (the
oldest go first), and at most :data:`SENT_PER_MINUTE` sent by one player a minute.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from paiju.server.errors import ServerError

__all__ = ["INVITE_TTL", "Invitation", "Invitations"]

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
    """The invitations waiting for each player (in memory, expiring)."""

    def __init__(self) -> None:
        self._for: dict[int, list[Invitation]] = {}
        self._sent: dict[int, deque[float]] = {}

    def send(self, to: int, invitation: Invitation) -> None:
        if to == invitation.sender:
            raise ServerError("bad_request", "one does not invite oneself", 400)
        now = invitation.at
        sent = self._sent.setdefault(invitation.sender, deque())
        while sent and now - sent[0] > 60.0:
            sent.popleft()
        if len(sent) >= SENT_PER_MINUTE:
            raise ServerError("too_many_invites", "at most 10 invitations a minute", 429)
        sent.append(now)
        waiting = [i for i in self.waiting(to, now) if i.room != invitation.room]
        self._for[to] = [*waiting, invitation][-PER_PLAYER:]

    def waiting(self, player: int, now: float | None = None) -> list[Invitation]:
        """The player's invitations not yet expired, oldest first."""
        at = time.time() if now is None else now
        alive = [i for i in self._for.get(player, []) if at - i.at < INVITE_TTL]
        if alive:
            self._for[player] = alive
        else:
            self._for.pop(player, None)
        return alive

    def drop(self, player: int, room: int) -> None:
        """The player answered (joined or turned down) the invitation to ``room``."""
        self._for[player] = [i for i in self._for.get(player, []) if i.room != room]
