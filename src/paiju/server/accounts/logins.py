"""Login names and passwords: what the server accepts, and how it keeps passwords.

A **login name** is what a player types to sign in; the display name (昵称) stays separate
and changeable. A login is cleaned like a display name (:func:`paiju.server.identity.clean_name`:
no control or invisible characters, nothing that reads as the server's own) and two logins
are the same login when they are equal after NFKC and Unicode case folding
(:func:`login_key`): ``Ann``, ``ANN`` and the full-width ``ＡＮＮ`` are one login. A login is
3 to 32 characters of letters, digits, ``_``, ``-`` and ``.``, with no spaces.

A **password** has at least :data:`MIN_PASSWORD` characters, at most
:data:`MAX_PASSWORD`, is not the login itself and is not one of the most common passwords
(the 30,000 of the ``zxcvbn`` package's list and the commonest of Chinese players'). It is
kept as an Argon2id hash (``pwdlib``, the parameters of RFC 9106's second recommended
option: 64 MiB, 3 passes), never in the clear.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from paiju.server.errors import ServerError
from paiju.server.identity import RESERVED, clean_name

__all__ = [
    "MAX_LOGIN",
    "MAX_PASSWORD",
    "MIN_LOGIN",
    "MIN_PASSWORD",
    "Passwords",
    "check_password",
    "clean_login",
    "login_key",
]

MIN_LOGIN = 3
MAX_LOGIN = 32
MIN_PASSWORD = 8
MAX_PASSWORD = 256

_LOGIN = re.compile(r"[\w.\-]+")
_NOT_LETTERS = re.compile(r"[\W\d_]+")

_CHINESE_COMMON = (
    "woaini",
    "woaini1314",
    "woaini520",
    "5201314",
    "1314520",
    "52013140",
    "woaiwojia",
    "iloveyou",
    "qq123456",
    "qwe123456",
    "aa123456",
    "a123456",
    "a12345678",
    "abc123456",
    "123456a",
    "123456aa",
    "zxcvbnm",
    "1qaz2wsx",
    "88888888",
    "66666666",
    "147258369",
    "123qwe",
    "123456789a",
    "wangyut2",
    "dearbook",
    "mahjong",
    "majiang",
)


def login_key(login: str) -> str:
    """The form in which logins are compared (and unique): NFKC, case folded, NFKC.

    >>> login_key("ＡＮＮ") == login_key("ann") == login_key("Ann")
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", login).casefold())


def clean_login(login: str) -> str:
    """The login to store as the player typed it (cleaned), or ``bad_login`` (400) saying
    what was wrong."""
    try:
        text = clean_name(login)
    except ServerError as exc:
        raise ServerError("bad_login", str(exc).replace("a name", "a login name")) from None
    if " " in text:
        raise ServerError("bad_login", "a login name has no spaces")
    key = login_key(text)
    if not MIN_LOGIN <= len(key) <= MAX_LOGIN:
        raise ServerError(
            "bad_login", f"a login name is {MIN_LOGIN} to {MAX_LOGIN} characters, not {len(key)}"
        )
    if not _LOGIN.fullmatch(key):
        raise ServerError("bad_login", "a login name holds letters, digits, '_', '-' and '.' only")
    if _NOT_LETTERS.sub("", key) in RESERVED:
        raise ServerError("bad_login", f"the login name {text!r} is reserved")
    return text


@cache
def _common() -> frozenset[str]:
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(FREQUENCY_LISTS["passwords"]) | frozenset(_CHINESE_COMMON)


def check_password(password: str, login: str | None = None) -> None:
    """``weak_password`` (400) saying why, for a password the server refuses."""
    if len(password) < MIN_PASSWORD:
        raise ServerError("weak_password", f"a password needs at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise ServerError("weak_password", f"a password is at most {MAX_PASSWORD} characters")
    folded = password.casefold()
    if login is not None and folded == login_key(login):
        raise ServerError("weak_password", "a password may not be the login name")
    if folded in _common() or len(set(password)) < 3:
        raise ServerError(
            "weak_password", "this password is one of the most common ones: choose another"
        )


class Passwords:
    """Argon2id hashing (``pwdlib``); :meth:`verify_unknown` spends the time of a check on
    a login that does not exist, so that a wrong login and a wrong password answer alike."""

    def __init__(self, time_cost: int = 3, memory_cost: int = 65_536) -> None:
        self._hash = PasswordHash((Argon2Hasher(time_cost=time_cost, memory_cost=memory_cost),))
        self._dummy = self._hash.hash("no account has this password")

    def hash(self, password: str) -> str:
        return self._hash.hash(password)

    def verify(self, password: str, stored: str) -> bool:
        return self._hash.verify(password, stored)

    def verify_unknown(self, password: str) -> bool:
        """The cost of :meth:`verify` for a login that does not exist: always False."""
        self._hash.verify(password, self._dummy)
        return False
