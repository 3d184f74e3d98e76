"""One client text read as a message (:func:`read_frame`), or refused with the reason the
socket is told (:class:`BadFrame`): the size limit, the JSON, the message's type and
fields. No socket and no room: the room hands its sockets' texts here first."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from paiju.server.messages import ClientMessage, client_message

__all__ = ["BadFrame", "Frame", "check_size", "read_frame"]

TYPES = (
    "hello, action, resume, continue, again, ready, draft, sync, "
    "ping, client_seed, auto_pass, chat, report"
)
"""The message types a client sends, as a refusal of an unknown type lists them."""


class BadFrame(Exception):
    """A text that is not a message the server reads: ``code`` (an ``error`` message's
    code), what was wrong, and the ``ref`` (the text's ``id``) when one could be read."""

    def __init__(self, code: str, message: str, ref: str | int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.ref = ref


@dataclass(frozen=True, slots=True)
class Frame:
    """A client's message and its ``id`` (echoed as ``ref`` in the answer)."""

    message: ClientMessage
    ref: str | int | None


def check_size(text: str, max_bytes: int) -> None:
    """Refuse (``too_large``) a text of more than ``max_bytes`` UTF-8 bytes: checked before
    the sender's rate bucket is charged, and before the text is parsed."""
    size = len(text) if text.isascii() else len(text.encode())
    if size > max_bytes:
        raise BadFrame("too_large", f"message of {size} bytes; the limit is {max_bytes}")


def ref_of(text: str) -> str | int | None:
    """The ``id`` of a client text where one can be read (a message dropped unread is
    answered with it, so that its sender knows which one to send again)."""
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return _ref(obj) if isinstance(obj, dict) else None


def _ref(obj: dict[str, Any]) -> str | int | None:
    """A client message's ``id`` (its answers carry it as ``ref``), if it is one (a text
    that is not one, holding a lone surrogate, is not)."""
    ref = obj.get("id")
    if isinstance(ref, str) and not _is_text(ref):
        return None
    return ref if isinstance(ref, str | int) else None


def _is_text(value: str) -> bool:
    """Whether ``value`` is text as UTF-8 writes it: no lone surrogate (``"\\ud800"``
    in JSON unescapes to one), which no answer could carry."""
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


def _holds_lone_surrogate(obj: Any) -> bool:
    """Whether a string anywhere in ``obj`` (parsed JSON) holds a lone surrogate."""
    if isinstance(obj, str):
        return not _is_text(obj)
    if isinstance(obj, dict):
        return any(_holds_lone_surrogate(k) or _holds_lone_surrogate(v) for k, v in obj.items())
    if isinstance(obj, list):
        return any(_holds_lone_surrogate(v) for v in obj)
    return False


def _lone_surrogate(obj: Any) -> bool:
    try:
        return _holds_lone_surrogate(obj)
    except RecursionError:  # nested deeper than a message is: refused as such
        return True


def read_frame(text: str) -> Frame:
    """The message of one client text; raises :class:`BadFrame` saying what is wrong
    (``bad_json``, ``bad_message``, ``unknown_type``)."""
    try:
        obj = json.loads(text)
    except ValueError as exc:
        raise BadFrame("bad_json", f"not valid JSON: {exc}") from None
    except RecursionError:
        raise BadFrame("bad_json", "the JSON is nested too deeply") from None
    if not isinstance(obj, dict):
        raise BadFrame("bad_message", f"a message is a JSON object with a type, got {text[:80]!r}")
    ref = _ref(obj)
    if "\\u" in text and _lone_surrogate(obj):
        raise BadFrame(
            "bad_message",
            "a string of the message holds a lone surrogate escape (\\ud800-\\udfff"
            " without its pair): it is not text",
            ref,
        )
    try:
        msg = client_message(obj)
    except RecursionError:
        raise BadFrame("bad_message", "the message is nested too deeply", ref) from None
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}" for e in exc.errors()
        )
        raise BadFrame("bad_message", f"bad {obj.get('type')!r} message: {problems}", ref) from None
    if msg is None:
        raise BadFrame(
            "unknown_type",
            f"unknown message type {obj.get('type')!r}; clients send {TYPES}",
            ref,
        )
    return Frame(msg, ref)
