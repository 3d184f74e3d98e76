"""Limits on sign-in attempts: per login name and per address, each a token bucket.

A login name may be tried :data:`PER_LOGIN` times at once, then once every
``WINDOW / PER_LOGIN`` seconds; an address :data:`PER_ADDRESS` times, then likewise. A
refused attempt is told how long to wait (``too_many_attempts``, 429, ``Retry-After``),
and costs no password check. The buckets are this process's: a cluster of N nodes behind
a balancer allows at most N times as many (docs/accounts.md).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from paiju.server.errors import ServerError

__all__ = ["PER_ADDRESS", "PER_LOGIN", "WINDOW", "Attempts"]

PER_LOGIN = 10
PER_ADDRESS = 30
WINDOW = 900.0
"""Seconds in which a full bucket refills."""


class _Bucket:
    __slots__ = ("stamp", "tokens")

    def __init__(self, tokens: float, stamp: float) -> None:
        self.tokens, self.stamp = tokens, stamp


class Attempts:
    """The attempt buckets of one process (``clock``: monotonic seconds, for tests)."""

    def __init__(
        self,
        per_login: int = PER_LOGIN,
        per_address: int = PER_ADDRESS,
        window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_login, self.per_address, self.window = per_login, per_address, window
        self.clock = clock
        self._buckets: dict[tuple[str, str], _Bucket] = {}

    def take(self, login_key: str | None, address: str | None) -> None:
        """Count one attempt, or ``too_many_attempts`` (429) with the wait in seconds."""
        keys = []
        if login_key is not None:
            keys.append((("login", login_key), self.per_login))
        if address is not None:
            keys.append((("address", address), self.per_address))
        now = self.clock()
        if len(self._buckets) > 200_000:
            self._buckets.clear()
        wait = 0.0
        buckets = []
        for key, size in keys:
            bucket = self._buckets.get(key)
            if bucket is None:
                bucket = self._buckets[key] = _Bucket(float(size), now)
            rate = size / self.window
            bucket.tokens = min(size, bucket.tokens + (now - bucket.stamp) * rate)
            bucket.stamp = now
            if bucket.tokens < 1:
                wait = max(wait, (1 - bucket.tokens) / rate)
            buckets.append(bucket)
        if wait > 0:
            seconds = math.ceil(wait)
            raise ServerError(
                "too_many_attempts",
                f"too many sign-in attempts: try again in {seconds} s",
                429,
                retry_after=seconds,
            )
        for bucket in buckets:
            bucket.tokens -= 1
