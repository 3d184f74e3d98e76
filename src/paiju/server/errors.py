"""The server's refusal: :class:`ServerError`, a reason code sent to the client and an
HTTP status for the REST calls."""

from __future__ import annotations

from paiju.errors import PaijuError

__all__ = ["ServerError"]


class ServerError(PaijuError):
    """A request the server refuses; ``code`` is the reason sent to the client."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
