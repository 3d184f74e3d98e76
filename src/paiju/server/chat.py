"""Quick phrases (快捷语), emotes (表情) and the operator's optional free text at a table.

A seated player sends a stock phrase of the game (a code from :func:`phrases_for`), an
emote (:data:`EMOTES`) or, only where the operator allows it (the ``chat_text_max``
limit above 0), a short text; spectators send nothing. Each seat has its own pace
(:class:`ChatPace`: at least ``chat_seconds`` between two messages and at most
``chat_per_minute``); a text is cleaned like a name and cut to the limit's length. A
report (举报) of a seat's text goes to the operator's list of chat reports with the
seat's last texts, and a seat reported by two players of the table may send phrases and
emotes only for the rest of the room. The texts of phrases are
the clients' (zh/en), the server passes codes.
"""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from dataclasses import dataclass, field

from paiju.server.errors import ServerError
from paiju.server.messages import Chat, ChatMsg
from paiju.server.options import Limits

__all__ = [
    "EMOTES",
    "PHRASES",
    "ChatPace",
    "chat_message",
    "check_report",
    "check_text",
    "phrases_for",
]

PHRASES: dict[str, tuple[str, ...]] = {
    "": ("hurry", "nice", "again", "sorry", "thanks", "wait", "lucky", "bye"),
    "jiayibing": ("cant_beat", "partner", "go_out"),
    "fangyang": ("cant_beat", "partner", "go_out"),
    "danzi": ("cant_beat", "partner", "bomb"),
    "sandaha": ("points", "trumps"),
    "majiang": ("ready_hand", "close"),
    "shisanzhang": ("arranged", "big_hand"),
    "baozi": ("open_up", "big_hand"),
    "jiajiabao": ("open_up", "big_hand"),
}
"""The stock phrases every table has (``""``) and each family's own, by code."""

EMOTES: tuple[str, ...] = ("smile", "laugh", "cry", "angry", "thumbs", "flower", "tea", "wow")

LINES_KEPT = 5
"""The free texts of a seat a report carries (its last ones)."""

REPORTS_TO_MUTE = 2
"""Players of the table whose report of a seat's text stops that seat's free text."""


def phrases_for(family: str) -> tuple[str, ...]:
    """The phrase codes of a game's table: the common ones, then the family's own."""
    return PHRASES[""] + PHRASES.get(family, ())


def check_text(text: str, limit: int) -> str:
    """A free text cleaned (NFC, white space folded, no control or format characters) and
    checked against the operator's length ``limit`` (0: free text is off)."""
    if limit <= 0:
        raise ServerError("chat_off", "free text is off at this server: send a phrase or emote")
    clean = " ".join(unicodedata.normalize("NFC", text).split())
    if not clean or any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cn") for ch in clean):
        raise ServerError("bad_message", "a chat text is printable characters, not empty")
    if len(clean) > limit:
        raise ServerError("chat_too_long", f"a chat text is at most {limit} characters")
    return clean


@dataclass
class ChatPace:
    """One seat's pace of chat messages."""

    times: deque[float] = field(default_factory=deque)
    reported_by: set[int] = field(default_factory=set)
    muted_until: float = 0.0
    """Unix time until which the seat's player is muted by its club's admins (or the
    operator): its free text is stopped, as reports stop it."""
    lines: deque[tuple[float, str]] = field(default_factory=lambda: deque(maxlen=LINES_KEPT))
    """The seat's last free texts (Unix time, text), as the table read them: a report
    (举报) of the seat carries them to the operator."""

    @property
    def muted(self) -> bool:
        """The seat's free text is stopped (reported by enough players of the table, or
        muted by the club)."""
        return len(self.reported_by) >= REPORTS_TO_MUTE or self.muted_until > time.time()

    def take(self, seconds: float, per_minute: int, now: float | None = None) -> None:
        """Count one message now, or raise ``chat_too_fast`` (nothing counted)."""
        at = time.monotonic() if now is None else now
        while self.times and at - self.times[0] > 60.0:
            self.times.popleft()
        if self.times and at - self.times[-1] < seconds:
            wait = seconds - (at - self.times[-1])
            raise ServerError(
                "chat_too_fast", f"one chat message per {seconds:g} s: wait {wait:.1f} s"
            )
        if len(self.times) >= per_minute:
            raise ServerError("chat_too_fast", f"at most {per_minute} chat messages a minute")
        self.times.append(at)


def chat_message(
    msg: Chat, room: int, seat: int | None, family: str, limits: Limits, pace: ChatPace | None
) -> ChatMsg:
    """What every socket of the table is sent for a chat message of ``seat`` (``None``: a
    spectator, refused) at a table of ``family``, its phrase, emote or text checked and
    the seat's ``pace`` counted (``ServerError`` when refused: nothing counted)."""
    if seat is None or pace is None:
        raise ServerError("spectator", "spectators watch: they send no phrase or emote")
    given = [x for x in (msg.phrase, msg.emote, msg.text) if x is not None]
    if len(given) != 1:
        raise ServerError("bad_message", "a chat message has one of phrase, emote or text")
    if msg.phrase is not None and msg.phrase not in phrases_for(family):
        raise ServerError(
            "bad_message",
            f"unknown phrase {msg.phrase!r}; this table's: {', '.join(phrases_for(family))}",
        )
    if msg.emote is not None and msg.emote not in EMOTES:
        raise ServerError(
            "bad_message", f"unknown emote {msg.emote!r}; emotes: {', '.join(EMOTES)}"
        )
    text = None
    if msg.text is not None:
        text = check_text(msg.text, limits.chat_text_max)
        if pace.muted:
            raise ServerError("chat_muted", "reports stopped this seat's free text")
    pace.take(limits.chat_seconds, limits.chat_per_minute)
    if text is not None:
        pace.lines.append((time.time(), text))
    return ChatMsg(room=room, seat=seat, phrase=msg.phrase, emote=msg.emote, text=text)


def check_report(reporter: int | None, reported: int, seats: int) -> None:
    """A 举报 from seat ``reporter`` (``None``: a spectator) of seat ``reported`` of a
    table of ``seats`` seats, or ``ServerError``: a seated player reports another seat."""
    if reporter is None:
        raise ServerError("spectator", "spectators watch: they report nothing")
    if not 0 <= reported < seats or reported == reporter:
        raise ServerError("bad_seat", f"seat {reported} is not another seat of this room")
