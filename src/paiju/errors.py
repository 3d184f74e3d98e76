"""The exception tree of paiju. Every error a user can cause is one of these.

::

    PaijuError                      base of everything paiju raises on purpose
    ├── NotationError (ValueError)  a card, tile, hand or arrangement string that does not parse
    ├── CatalogError (ValueError)   a variant file or entry that does not validate
    ├── UnknownVariant (LookupError)  a code or id the catalogue does not have
    ├── NotImplementedFamily        a family whose rules engine is not built yet
    ├── IllegalAction (ValueError)  an action the rules do not allow in this state
    │   └── NotYourTurn             the seat may not act now
    ├── ProtocolError (ValueError)  a malformed action, event or deal (bad JSON form)
    ├── FairnessError               a revealed seed that does not match its commitment
    └── EventError (ValueError)     a duplicate event that cannot be laid out as asked

Surfaces (CLI, server) catch :class:`PaijuError` and show its message; anything else
is a bug.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CatalogError",
    "EventError",
    "FairnessError",
    "IllegalAction",
    "NotImplementedFamily",
    "NotYourTurn",
    "NotationError",
    "PaijuError",
    "ProtocolError",
    "UnknownVariant",
]


class PaijuError(Exception):
    """Base class of every error paiju raises on purpose.

    ``code`` is a stable, machine-readable reason (the server sends it to clients).
    """

    code = "error"


class _Told(PaijuError):
    """An error a player is told of: the message is the developers' English sentence, and
    ``reason`` (a stable snake_case name) with its JSON-ready ``params`` is what a surface
    renders in the player's language; ``reason`` is None where no rendering exists yet."""

    def __init__(self, message: str, *, reason: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: dict[str, Any] = params


class NotationError(_Told, ValueError):
    """A card, tile or hand string that does not parse; the message quotes the token
    (reason ``"bad_card_text"``, params ``{"token": "Ax"}``, say)."""

    code = "bad_notation"


class CatalogError(PaijuError, ValueError):
    """A variant file or entry that does not validate; names the file, entry and field."""

    code = "bad_catalog"


class UnknownVariant(PaijuError, LookupError):
    """A game code or variant id that is not in the catalogue."""

    code = "unknown_variant"

    def __str__(self) -> str:  # LookupError would quote the message
        return str(self.args[0]) if self.args else "unknown variant"


class NotImplementedFamily(PaijuError):
    """The catalogue knows the variant but its family's engine is not built yet."""

    code = "not_implemented"


class IllegalAction(_Told, ValueError):
    """An action the rules do not allow now; the message says why and what is allowed.

    The message is the developers' English sentence. What a player is shown is the
    ``reason`` (a stable snake_case name such as ``"must_follow"``) with its JSON-ready
    ``params`` (``{"suit": "h", "count": 2}``), which a surface renders in the player's
    language; ``reason`` is None where no player-facing rendering exists yet.

    >>> err = IllegalAction("must follow h", reason="must_follow", suit="h")
    >>> err.reason, err.params, str(err)
    ('must_follow', {'suit': 'h'}, 'must follow h')
    """

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """The seat is not among those that may act now."""

    code = "not_your_turn"


class ProtocolError(_Told, ValueError):
    """A malformed JSON form of an action, event or deal (with a ``reason`` where a player
    is told what is wrong: ``unknown_field``, say)."""

    code = "bad_message"


class FairnessError(PaijuError):
    """A revealed seed that does not match its commitment, or a log that does not re-deal."""

    code = "unfair"


class EventError(_Told, ValueError):
    """A duplicate event (复式赛) that cannot be laid out: too few entrants for its
    movement (reason ``"too_few_entrants"``, params ``{"needed": 8, "entrants": 5}``), or
    too few deals for its rounds (``"too_few_deals"``, ``{"needed": 3}``)."""

    code = "bad_event"
