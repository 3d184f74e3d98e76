"""One authenticated socket of the server (:class:`Client`): its outbox, and the rate
bucket (:class:`Bucket`) of its player."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from paiju.errors import PaijuError
from paiju.reasons import error_fields, texts_of_code
from paiju.server.frames import ref_of
from paiju.server.messages import ErrorMsg
from paiju.server.options import Limits
from paiju.server.rows import PlayerRow

__all__ = ["Bucket", "Client"]


class Bucket:
    """A token bucket: ``rate`` messages a second, ``burst`` at once. The server keeps
    one per player, shared by all of the player's sockets: opening another socket or
    reconnecting does not refill it."""

    __slots__ = ("_stamp", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self._tokens = float(burst)
        self._stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def give_back(self) -> None:
        """Return the token just taken (the message was refused elsewhere)."""
        self._tokens = min(self.burst, self._tokens + 1)


class Client:
    """One authenticated socket: a rate bucket, and an outbox drained by a writer task.

    Where the server offers it (``send_now``, :mod:`paiju.server.sockets`), a text goes
    to the socket at once while nothing is queued before it; the writer task sends what
    could not go at once (the socket's buffer is full, the socket is closing), in order."""

    def __init__(
        self,
        player: PlayerRow,
        send_text: Callable[[str], Any],
        limits: Limits,
        close: Callable[[int, str], Any],
        bucket: Bucket | None = None,
        send_now: Callable[[str], bool] | None = None,
        drop: Callable[[int, str], None] | None = None,
    ) -> None:
        self.player = player
        self.limits = limits
        self._send_text = send_text
        self._send_now = send_now
        self._sending = False
        """The writer task is sending a text: the next ones queue behind it."""
        self._close = close
        self._drop = drop
        self.queued = 0
        """The bytes of the texts in the outbox (as UTF-8)."""
        self.outbox: collections.deque[str | None] = collections.deque()
        """Texts to send, in order; ``None`` closes. A deque with one waiter rather than
        an ``asyncio.Queue``: every message of the server passes through here."""
        self._wakeup: asyncio.Future[None] | None = None
        self.closed = False
        self.seat: int | None = None
        self.bucket = bucket or Bucket(limits.messages_per_second, limits.burst)
        self.dropped = 0
        """Messages dropped by the rate limit since one was let through."""

    def send(self, msg: BaseModel | str) -> None:
        """Queue a message: a model, or its JSON text already serialised (a message that
        goes to several sockets is serialised once)."""
        if self.closed:
            return
        text = msg if isinstance(msg, str) else msg.model_dump_json()
        if not self.outbox:  # nothing waits: straight to the socket where it takes it
            send_now = self._send_now
            if send_now is not None and not self._sending and send_now(text):
                return
            self._put(text, tried=True)
            return
        if (
            len(self.outbox) >= self.limits.outbox
            or self.queued + _size(text) > self.limits.outbox_bytes
        ):
            self.drop_slow()
            return
        self._put(text)

    def drop_slow(self) -> None:
        """A socket that does not read what it is sent (its outbox over ``outbox``
        messages or ``outbox_bytes``): what waits for it is let go at once, and it is
        closed (4408 ``slow_consumer``) - cut where the server offers ``drop``
        (:mod:`paiju.server.sockets`), so that its connection's buffer goes too."""
        self.outbox.clear()
        self.queued = 0
        self.close(4408, "slow_consumer")
        if self._drop is not None:
            self._drop(4408, "slow_consumer")

    def _put(self, text: str | None, tried: bool = False) -> None:
        """Queue ``text`` (``None``: the close) behind what waits, or write it now where
        nothing waits and the socket takes it (``tried``: it did not, just now)."""
        send_now = self._send_now
        if (
            send_now is not None
            and not tried
            and text is not None
            and not self.outbox
            and not self._sending
            and send_now(text)
        ):
            return
        self.outbox.append(text)
        if text is not None:
            self.queued += _size(text)
        wakeup = self._wakeup
        if wakeup is not None and not wakeup.done():
            wakeup.set_result(None)

    def error(self, code: str, message: str, ref: str | int | None = None) -> None:
        self.send(ErrorMsg(code=code, message=message, ref=ref, text=texts_of_code(code)))

    def refuse(self, exc: PaijuError, ref: str | int | None = None) -> None:
        """An error message for a refusal: its code, the developers' message, and what the
        player is told (its reason and params, rendered in Chinese and English)."""
        self.send(ErrorMsg(code=exc.code, message=str(exc), ref=ref, **error_fields(exc)))

    def close(self, code: int, reason: str) -> None:
        if not self.closed:
            self.closed = True
            self._put(None)
            self._close_args = (code, reason)

    def allow(self) -> bool:
        """Take a token from the player's bucket (messages per second)."""
        if self.bucket.take():
            self.dropped = 0
            return True
        return False

    def rate_limited(self, text: str = "") -> None:
        """The socket's message ``text`` was dropped (its player's bucket is empty): the
        first one dropped since a message was let through is answered ``rate_limited``
        (naming the message by its ``id`` where it has one), the next ones are not; a
        socket that goes on past ``burst`` more is closed (4429 ``rate_limited``), so that
        a flood costs the server neither an answer a message nor a socket held open."""
        limits = self.limits
        self.dropped += 1
        if self.dropped == 1:
            self.error(
                "rate_limited",
                f"more than {limits.messages_per_second:g} messages per second"
                f" (burst {limits.burst}); this one was dropped, and the next ones until"
                f" the rate allows one, without an answer; {limits.burst} more close the socket",
                ref_of(text),
            )
        elif self.dropped > limits.burst and not self.closed:
            self.close(4429, "rate_limited")
            if self._drop is not None:  # its close now, and nothing more read from it
                self._drop(4429, "rate_limited")

    async def writer(self) -> None:
        """Send the outbox in order until the client is closed."""
        outbox = self.outbox
        while True:
            if not outbox:
                self._wakeup = asyncio.get_running_loop().create_future()
                await self._wakeup
                self._wakeup = None
                continue
            text = outbox.popleft()
            if text is None:
                break
            self.queued -= _size(text)
            self._sending = True
            try:
                await self._send_text(text)
            except Exception:
                self.closed = True
                return
            finally:
                self._sending = False
        code, reason = getattr(self, "_close_args", (1000, "bye"))
        with contextlib.suppress(Exception):
            await self._close(code, reason)


def _size(text: str) -> int:
    """A text's bytes as sent (UTF-8)."""
    return len(text) if text.isascii() else len(text.encode())
