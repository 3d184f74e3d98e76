"""Invite codes (邀请码): a short code per room that a player types in the lobby.

The code is derived from the room's id, not stored: the same room has the same code on
every node and after every restart, and a code names exactly one room id. Six letters
from an alphabet without look-alikes (no I, L, O, no digits: a room number is digits, so
one lobby field takes either) cover the first 23**6 (about 148 million) room ids; a later
room gets seven or more letters. The ids are scrambled by an affine map modulo 23**6, so
neighbouring rooms get unrelated codes and a code mistyped by one letter names a room id
far beyond the ones in use (the lobby answers "no such invite" instead of opening a
stranger's room). A code is a handle, not a secret: open rooms are listed in the lobby.

>>> invite_code(1)
'XRNNZJ'
>>> invite_room('xrn-nzj')
1
>>> invite_room(invite_code(10**12)) == 10**12
True
"""

from __future__ import annotations

from typing import Final

__all__ = ["ALPHABET", "LENGTH", "invite_code", "invite_room", "normalize"]

ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ"
"""23 capital letters: A-Z without I, L and O (read as 1, 1 and 0)."""
LENGTH: Final = 6
_BASE: Final = len(ALPHABET)
_SPACE: Final = _BASE**LENGTH
_MUL: Final = 91_823_471
"""The affine map's factor, prime to 23 (so the map is a permutation of 0 … 23**6 - 1)."""
_ADD: Final = 40_961_333
_INVERSE: Final = pow(_MUL, -1, _SPACE)
_SEPARATORS: Final = str.maketrans("", "", " -_.·\t")


def _letters(value: int, width: int) -> str:
    out: list[str] = []
    while value or len(out) < width:
        value, digit = divmod(value, _BASE)
        out.append(ALPHABET[digit])
    return "".join(reversed(out))


def invite_code(room_id: int) -> str:
    """The invite code of room ``room_id`` (six letters for ids below 23**6)."""
    if room_id < 0:
        raise ValueError(f"a room id is not negative: {room_id}")
    if room_id < _SPACE:
        return _letters((room_id * _MUL + _ADD) % _SPACE, LENGTH)
    return _letters(room_id, LENGTH + 1)


def normalize(text: str) -> str:
    """The code as typed, in capitals without spaces or dashes (``"xrn-nzj"`` → ``XRNNZJ``)."""
    return text.translate(_SEPARATORS).upper()


def invite_room(text: str) -> int | None:
    """The room id an invite code names (None: not a code). Case, spaces and dashes do
    not matter; a code must be written as :func:`invite_code` writes it."""
    code = normalize(text)
    if len(code) < LENGTH or len(code) > 20 or any(c not in ALPHABET for c in code):
        return None
    value = 0
    for c in code:
        value = value * _BASE + ALPHABET.index(c)
    room_id = (value - _ADD) * _INVERSE % _SPACE if len(code) == LENGTH else value
    return room_id if invite_code(room_id) == code else None
