"""The server's refusal: :class:`ServerError`, a reason code sent to the client and an
HTTP status for the REST calls."""

from __future__ import annotations

from typing import Any

from paiju.errors import PaijuError

__all__ = ["ServerError"]


class ServerError(PaijuError):
    """A request the server refuses; ``code`` is the reason sent to the client, ``params``
    what its text names."""

    def __init__(self, code: str, message: str, status: int = 400, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.params: dict[str, Any] = params
        """What the code's text names (``hand_word``: the game's word for a hand)."""
