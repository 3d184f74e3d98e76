"""A socket stand-in for tests that run rooms in process: it keeps what the server sends
(each message decoded, a close as ``{"closed": code}``)."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["SocketStub"]


class SocketStub:
    """What a :class:`~paiju.server.client.Client` writes to, kept in ``sent``."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def close(self, code: int, reason: str) -> None:
        self.sent.append({"closed": code})

    def of(self, kind: str) -> list[dict[str, Any]]:
        """The messages of this ``type``, in order."""
        return [m for m in self.sent if m.get("type") == kind]

    def errors(self) -> list[str]:
        """The codes of the ``error`` messages, in order."""
        return [m["code"] for m in self.of("error")]
