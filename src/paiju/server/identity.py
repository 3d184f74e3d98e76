"""Display names players register (玩家昵称): what the server accepts and how it cleans them.

A name is shown to every other player of a room, so it must not be able to disguise
itself or break the display of others:

* it is NFC-normalised, its runs of white space become one space, and it is stripped;
* control characters (NUL, ESC …), format characters (zero-width spaces and joiners,
  right-to-left and other direction overrides, the BOM), line and paragraph separators,
  private-use and unassigned code points are refused (``bad_name``), not silently dropped:
  the player sees what was wrong;
* an empty or all-space name is refused;
* a name that reads as the server's own words is refused: ``bot`` (any case, with digits
  or punctuation: ``Bot``, ``BOT-1``), 机器人, 电脑, ``system``, ``admin``,
  ``server``, ``paiju``;
* at most 40 characters after cleaning.
"""

from __future__ import annotations

import re
import unicodedata

from paiju.server.errors import ServerError

__all__ = ["MAX_NAME", "RESERVED", "clean_name"]

MAX_NAME = 40
RESERVED = ("bot", "bots", "机器人", "电脑", "system", "admin", "server", "paiju")
"""Names (case-folded, without digits, spaces and punctuation) no player may take."""

_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_SPACE = re.compile(r"\s+")
_NOT_LETTERS = re.compile(r"[\W\d_]+")


def clean_name(name: str) -> str:
    """The display name to store, or :class:`ServerError` ``bad_name`` (400) saying why."""
    text = unicodedata.normalize("NFC", name)
    for ch in text:
        if ch in "\t\n\r":
            continue  # white space: folded into one space below
        if unicodedata.category(ch) in _REFUSED_CATEGORIES:
            raise ServerError(
                "bad_name",
                f"a name may not hold the invisible or control character U+{ord(ch):04X}"
                f" ({unicodedata.name(ch, 'unnamed')})",
            )
    text = _SPACE.sub(" ", text).strip()
    if not text:
        raise ServerError("bad_name", "a name needs at least one visible character")
    if len(text) > MAX_NAME:
        raise ServerError("bad_name", f"a name is at most {MAX_NAME} characters, not {len(text)}")
    bare = _NOT_LETTERS.sub("", text.casefold())
    if bare in RESERVED:
        raise ServerError("bad_name", f"the name {text!r} is reserved (it reads as the server's)")
    return text
