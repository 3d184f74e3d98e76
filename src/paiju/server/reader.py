"""A socket's texts read on the direct path (:mod:`paiju.server.sockets`): each admitted
by the limits, then answered by its room (:func:`paiju.server.inbox.handle`), in the
order they came, as the socket's own loop answers them on the ASGI path.

On a single server the room's inbox checks the player's rate itself, so a text is
answered as it is read. A cluster node admits each text against the player's bucket
shared through Redis first (:class:`~paiju.server.hub.Guard`): most are admitted at
once with tokens the node holds; a text that needs Redis's answer waits for it, and the
socket's later texts wait behind it.
"""

from __future__ import annotations

import asyncio
import collections
import logging

from paiju.server import inbox
from paiju.server.client import Client
from paiju.server.hub import Guard
from paiju.server.room import Room

__all__ = ["SocketReader"]

log = logging.getLogger("paiju.server")


class SocketReader:
    """Called with each text of one socket of ``room`` (see the module)."""

    def __init__(self, room: Room, client: Client, guard: Guard) -> None:
        self.room, self.client, self.guard = room, client, guard
        self.waiting: collections.deque[str] = collections.deque()
        """Texts behind one that waits for Redis's answer, in order."""
        self._asking: asyncio.Task[None] | None = None

    def __call__(self, text: str) -> None:
        client = self.client
        if client.closed:
            return
        if not self.guard.shared:
            inbox.handle(self.room, client, text)
            return
        if self.waiting:
            self.waiting.append(text)
            return
        verdict = self.guard.admit_now(client.player.id)
        if verdict is None:
            self.waiting.append(text)
            self._asking = asyncio.get_running_loop().create_task(self._ask_in_order())
        else:
            self._answer(text, verdict)

    def _answer(self, text: str, admitted: bool) -> None:
        if self.client.closed:
            return
        if admitted:
            inbox.handle(self.room, self.client, text)
        else:
            self.client.rate_limited(text)

    async def _ask_in_order(self) -> None:
        """The waiting texts, the first with Redis's answer (its node token is taken),
        the next ones as :meth:`Guard.admit_now` says, asking again where it must."""
        player = self.client.player.id
        try:
            admitted = await self.guard.ask(player)
            while True:
                self._answer(self.waiting.popleft(), admitted)
                if not self.waiting:
                    return
                verdict = self.guard.admit_now(player)
                admitted = verdict if verdict is not None else await self.guard.ask(player)
        except Exception:  # as a failure in the socket's own loop: that socket is closed
            log.exception("room %s: a socket's message failed; the socket is closed", self.room.id)
            self.waiting.clear()
            self.client.close(1011, "internal_error")
