"""Invite codes (邀请码): a short random code per room that a player types in the lobby.

A code is drawn at random (``secrets``) when its room is created and stored with it, so it
says nothing of the room's id and cannot be worked out from other rooms' codes: a private
room's code is known only to whom it was given. Six letters from an alphabet without
look-alikes (no I, L, O, no digits: a room number is digits, so one lobby field takes
either) give 23**6 (about 148 million) codes; the lookup (``GET /api/invites/{code}``) is
rate-limited per player and per address, so that trying codes finds nothing in practice.

>>> len(new_code()) == LENGTH and is_code(new_code())
True
>>> normalize(' xrn-nzj ')
'XRNNZJ'
>>> is_code('XRNNZI'), is_code('12345')
(False, False)
"""

from __future__ import annotations

import secrets
from typing import Final

__all__ = ["ALPHABET", "LENGTH", "is_code", "new_code", "normalize"]

ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ"
"""23 capital letters: A-Z without I, L and O (read as 1, 1 and 0)."""
LENGTH: Final = 6
_SEPARATORS: Final = str.maketrans("", "", " -_.·\t")


def new_code() -> str:
    """A fresh random invite code (six letters of :data:`ALPHABET`)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalize(text: str) -> str:
    """The code as typed, in capitals without spaces or dashes (``"xrn-nzj"`` → ``XRNNZJ``)."""
    return text.translate(_SEPARATORS).upper()


def is_code(text: str) -> bool:
    """Whether ``text`` (normalized) is written as an invite code: six code letters."""
    return len(text) == LENGTH and all(c in ALPHABET for c in text)
