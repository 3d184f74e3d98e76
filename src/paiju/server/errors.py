"""The server's refusal: :class:`ServerError`, a reason code sent to the client and an
HTTP status for the REST calls."""

from __future__ import annotations

from starlette.responses import JSONResponse

from paiju.errors import PaijuError
from paiju.reasons import texts_of_code

__all__ = ["ServerError", "database_away"]


class ServerError(PaijuError):
    """A request the server refuses; ``code`` is the reason sent to the client."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def database_away(exc: BaseException) -> JSONResponse:
    """The answer of a REST call the database failed (it is down, unreachable, locked):
    503 ``database_away`` with the reason, as JSON like every other error, and a
    ``Retry-After``; the call changed nothing."""
    reason = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:300]
    body = {
        "code": "database_away",
        "message": f"the database is unavailable ({reason}); try again in a few seconds",
        "reason": None,
        "params": {},
        "text": texts_of_code("database_away"),
    }
    return JSONResponse({"error": body}, status_code=503, headers={"Retry-After": "2"})
