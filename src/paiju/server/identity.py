"""Display names players register (玩家昵称): what the server accepts and how it cleans them.

A name is shown to every other player of a room, so it must not be able to disguise
itself or break the display of others:

* it is NFC-normalised, its runs of white space become one space, and it is stripped;
* control characters (NUL, ESC …), format characters (zero-width spaces and joiners,
  right-to-left and other direction overrides, the BOM), line and paragraph separators,
  private-use and unassigned code points are refused (``bad_name``), not silently dropped:
  the player sees what was wrong;
* an empty or all-space name is refused, and so is one without a visible base character
  (only combining marks), one that starts with a combining mark, or one that piles more
  than :data:`MAX_MARKS` marks on a character;
* a word mixing scripts that are not written together is refused - Unicode TR 39's
  "highly restrictive" level: one script, or Han with Hiragana and Katakana, with Bopomofo,
  or with Hangul, each with Latin - so that a Cyrillic ``а`` or a Greek ``ο`` cannot pass
  for a Latin letter among Latin ones (``аdmin``, ``bοt``);
* a name that reads as the server's own words is refused: ``bot`` (any case, with digits
  or punctuation: ``Bot``, ``BOT-1``), 机器人 (機器人), 电脑 (電腦), ``system``,
  ``admin``, ``server``, ``paiju`` - compared after NFKC folding, so that full-width
  ``ｂｏｔ`` and ``ＡＤＭＩＮ`` are these words too;
* at most 40 characters after cleaning.

A name written wholly in another script that looks like a reserved word (a Cyrillic
``аԁтіп``, a Greek ``Βοτ``) is caught by its confusable skeleton (:func:`skeleton`):
each character that Unicode's confusables data (TR 39, through the
``confusable-homoglyphs`` package) lists as looking like a Latin letter is read as that
letter before the reserved words are compared. The data is Unicode's, so a look-alike it
does not list (Cyrillic ``п`` for ``n``) still passes.
"""

from __future__ import annotations

import re
import unicodedata

from paiju.server.errors import ServerError

__all__ = ["MAX_NAME", "RESERVED", "clean_name", "skeleton"]

MAX_NAME = 40
RESERVED = (
    "bot",
    "bots",
    "机器人",
    "機器人",
    "电脑",
    "電腦",
    "system",
    "admin",
    "server",
    "paiju",
)
"""Names (NFKC-folded, case-folded, without digits, spaces and punctuation) no player
may take; the Chinese ones in simplified and traditional characters."""
MAX_MARKS = 3
"""Combining marks one character may carry (enough for Vietnamese; no 'zalgo' text)."""

_TOGETHER = (
    frozenset({"Han", "Hiragana", "Katakana", "Latin"}),
    frozenset({"Han", "Bopomofo", "Latin"}),
    frozenset({"Han", "Hangul", "Latin"}),
)
"""The scripts TR 39's highly restrictive level lets one word mix (besides one script)."""

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
    _check_marks(text)
    for word in text.split(" "):
        _check_scripts(word)
    folded = unicodedata.normalize("NFKC", text).casefold()
    bare = _NOT_LETTERS.sub("", unicodedata.normalize("NFKC", folded))
    if bare in RESERVED or _NOT_LETTERS.sub("", skeleton(text)) in RESERVED:
        raise ServerError("bad_name", f"the name {text!r} is reserved (it reads as the server's)")
    return text


def skeleton(text: str) -> str:
    """``text`` as it reads: NFKC-folded and case-folded, each character that Unicode's
    confusables list as a Latin look-alike read as that Latin letter.

    >>> skeleton("ΒΟΤ"), skeleton("Βοτ"), skeleton("ВОТ"), skeleton("棋牌")
    ('bot', 'bot', 'bot', '棋牌')
    """
    from confusable_homoglyphs import confusables

    folded = unicodedata.normalize("NFKC", text)
    found = confusables.is_confusable(folded, greedy=True, preferred_aliases=["latin"]) or []
    latin: dict[str, str] = {}
    for entry in found:
        for glyph in entry["homoglyphs"]:
            letter = _latin_letter(glyph["n"])
            if letter is not None:
                latin[entry["character"]] = letter
                break
    read = "".join(latin.get(ch, ch) for ch in folded)
    return unicodedata.normalize("NFKC", read).casefold()


def _latin_letter(name: str) -> str | None:
    """The Latin letter a character's Unicode name says it is (small, capital or small
    capital ``X``), lower case; None for anything else."""
    for prefix in ("LATIN SMALL LETTER ", "LATIN CAPITAL LETTER ", "LATIN LETTER SMALL CAPITAL "):
        rest = name.removeprefix(prefix)
        if rest != name and len(rest) == 1:
            return rest.lower()
    return None


def _check_marks(text: str) -> None:
    """A visible base character first, and at most :data:`MAX_MARKS` marks on any."""
    marks = 0
    for i, ch in enumerate(text):
        if unicodedata.category(ch).startswith("M"):
            marks += 1
            if i == 0 or text[i - 1] == " ":
                raise ServerError(
                    "bad_name",
                    "a combining mark needs a character to sit on (a name starts"
                    " with a letter, digit or sign)",
                )
            if marks > MAX_MARKS:
                raise ServerError(
                    "bad_name", f"at most {MAX_MARKS} combining marks on one character"
                )
        else:
            marks = 0


def _script(ch: str) -> str | None:
    """The script of a letter (from its Unicode name: ``LATIN``, ``CYRILLIC``, ``CJK`` …);
    None for what every script shares (digits, punctuation, symbols, marks)."""
    if not unicodedata.category(ch).startswith("L") and ch != "〇":
        return None
    word = unicodedata.name(ch, "").split(" ", 1)[0]
    if word in ("CJK", "IDEOGRAPHIC"):
        return "Han"
    if word == "KATAKANA-HIRAGANA":
        return None  # the prolonged sound mark: both kana
    return word.capitalize() or None


def _check_scripts(word: str) -> None:
    """One word's letters are of one script, or of scripts written together (TR 39's
    highly restrictive level); the name is checked as NFKC folds it (full-width Latin is
    Latin)."""
    scripts = {s for ch in unicodedata.normalize("NFKC", word) if (s := _script(ch))}
    if len(scripts) <= 1 or any(scripts <= allowed for allowed in _TOGETHER):
        return
    raise ServerError(
        "bad_name",
        f"the word {word!r} mixes the scripts {', '.join(sorted(scripts))}: a letter of one"
        " can pass for another's",
    )
