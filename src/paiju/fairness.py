"""Seeded randomness and the commit-reveal proof of a fair deal.

Every chance event of a game (the shuffle, a random first bidder, a marked card) is drawn
from a :class:`DealRng` built from the hand's seed. The generator is a documented,
language-neutral construction, so anyone can re-deal a hand from its revealed seed:

* the seed is text (an int seed is written in decimal); ``key = sha256(seed as UTF-8)``;
* block ``i`` (i = 0, 1, 2 …) of the stream is ``sha256(key || i as 8 bytes big-endian)``;
* ``randbelow(n)`` reads 8-byte big-endian words from the stream and rejects words
  ``>= 2**64 - 2**64 % n`` (no modulo bias), returning ``word % n``;
* ``shuffle`` is Fisher-Yates from the last position down: ``j = randbelow(i + 1)``.

The server commits to ``sha256(seed)`` (hex, of the UTF-8 seed text) before dealing, and
reveals the seed when the hand ends; :func:`verify_commitment` checks the pair.

Players may add entropy: each seat may send a client seed (1-64 of ``A-Z a-z 0-9 _ -``)
after the server's commitment is published and before the deal. The hand is then dealt
from the *deal seed* ``server_seed ":" seed_0 ":" seed_1 … ":" seed_{n-1}`` (one field a
seat, empty for a seat that sent none; :func:`deal_seed`); with no client seed at all the
deal seed is the server seed itself. docs/fairness.md is the full recipe.

>>> rng = DealRng("example")
>>> rng.shuffled(range(10))
[0, 8, 1, 4, 2, 6, 9, 3, 5, 7]
>>> verify_commitment("example", commitment("example"))
>>> deal_seed("ab12", ["", "ann-7", ""])
'ab12::ann-7:'
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
import struct
from collections.abc import Iterable, Sequence
from itertools import accumulate
from operator import mod
from typing import TypeVar

from paiju.errors import FairnessError

__all__ = [
    "CLIENT_SEED_PATTERN",
    "DealRng",
    "Seed",
    "check_client_seed",
    "commitment",
    "deal_seed",
    "new_seed",
    "seed_text",
    "verify_commitment",
]

T = TypeVar("T")
Seed = int | str
"""A hand's seed: an int (simulations, tests) or a text (the server's secret hex)."""

_WORD = 2**64


def seed_text(seed: Seed) -> str:
    """The canonical text of a seed: ints in decimal, text as is."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise FairnessError(f"a seed is an int or a text, not {seed!r}")
    return str(seed)


CLIENT_SEED_PATTERN = "^[A-Za-z0-9_-]{1,64}$"
"""What a client seed may be: 1-64 letters, digits, ``_`` or ``-`` (never ``:``)."""
_CLIENT_SEED = re.compile(CLIENT_SEED_PATTERN)


def check_client_seed(seed: object) -> str:
    """The client seed, or :class:`FairnessError` if it is not 1-64 of ``A-Za-z0-9_-``."""
    if not isinstance(seed, str) or not _CLIENT_SEED.match(seed):
        raise FairnessError(
            f"a client seed is 1-64 letters, digits, '_' or '-', got {str(seed)[:80]!r}"
        )
    return seed


def deal_seed(server_seed: Seed, client_seeds: Sequence[str] | None = None) -> str:
    """The seed a hand is dealt from: the server's seed alone when no seat sent a client
    seed, else ``server_seed:seed_0:…:seed_{n-1}`` (empty for a seat that sent none)."""
    text = seed_text(server_seed)
    if not client_seeds or not any(client_seeds):
        return text
    for seed in client_seeds:
        if seed:
            check_client_seed(seed)
    return ":".join([text, *client_seeds])


def new_seed() -> str:
    """A fresh secret seed for a real hand (256 bits from :mod:`secrets`, hex)."""
    return secrets.token_hex(32)


def commitment(seed: Seed) -> str:
    """The published commitment to a seed: sha256 of its UTF-8 text, hex."""
    return _commitment_of(seed_text(seed))


@functools.lru_cache(maxsize=4096)
def _commitment_of(text: str) -> str:
    """sha256 of ``text`` (a seed's canonical text), hex; each hand's seed is committed to
    several times (its deal, the ``hand_started`` and ``hand_over`` messages, the hand
    before it announcing it as the next), so it is hashed once."""
    return hashlib.sha256(text.encode()).hexdigest()


def verify_commitment(seed: Seed, committed: str) -> None:
    """Raise :class:`FairnessError` unless ``seed`` is what ``committed`` promised."""
    if commitment(seed) != committed.lower():
        raise FairnessError(
            f"seed {seed_text(seed)!r} does not match the commitment {committed}: "
            f"sha256 of the seed is {commitment(seed)}"
        )


class DealRng:
    """A deterministic stream of random choices derived from a seed (see module docs).

    The stream's words are kept as ints, a block's four unpacked at once and held in
    reverse so that the next word is ``pop()``; :meth:`shuffled` draws in one loop. The
    words and their order are exactly those of the recipe above (docs/fairness.md).
    """

    __slots__ = ("_counter", "_key", "_words")

    def __init__(self, seed: Seed) -> None:
        self._key = _sha256(seed_text(seed).encode()).digest()
        self._counter = 0
        self._words: list[int] = []

    def _refill(self) -> None:
        """Put the next block's four words, last word first (the next is at the end); the
        list is empty when it is called."""
        i = self._counter
        tail = _COUNTERS[i] if i < len(_COUNTERS) else i.to_bytes(8, "big")
        self._counter = i + 1
        a, b, c, d = _BLOCK.unpack(_sha256(self._key + tail).digest())
        self._words.extend((d, c, b, a))

    def _word(self) -> int:
        if not self._words:
            self._refill()
        return self._words.pop()

    def randbelow(self, n: int) -> int:
        """A uniform int in ``range(n)``."""
        if n <= 0:
            raise ValueError(f"randbelow needs n > 0, got {n}")
        limit = _WORD - _WORD % n
        while True:
            w = self._word()
            if w < limit:
                return w % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randbelow(len(items))]

    def _fill(self, count: int) -> None:
        """Make sure at least ``count`` words are held: the next blocks hashed at once and
        put before the held words (which come first in the stream)."""
        words = self._words
        short = count - len(words)
        if short <= 0:
            return
        blocks = (short + 3) // 4
        key, first = self._key, self._counter
        last = self._counter = first + blocks
        tails = (
            _COUNTERS[first:last]
            if last <= len(_COUNTERS)
            else [i.to_bytes(8, "big") for i in range(first, last)]
        )
        sha256 = _sha256
        digest = b"".join([sha256(key + tail).digest() for tail in tails])
        fresh = list(_words_of(blocks).unpack(digest))
        fresh.reverse()
        words[:0] = fresh

    def shuffled(self, items: Iterable[T]) -> list[T]:
        """A new list with the items in Fisher-Yates order."""
        out = list(items)
        n = len(out)
        if n < 2:
            return out
        self._fill(n - 1)  # one word a draw unless one is rejected (then more, below)
        words = self._words
        if n <= len(_LOWEST):
            drawn = words[1 - n :]  # the next n - 1 words, the next last
            if max(drawn) < _LOWEST[n - 1]:
                # no word is rejected (a word is rejected less than once in 2**56 draws):
                # the draws j = w % (i + 1) made at once, the swaps after
                del words[1 - n :]
                drawn.reverse()
                for i, j in zip(range(n - 1, 0, -1), map(mod, drawn, range(n, 1, -1)), strict=True):
                    out[i], out[j] = out[j], out[i]
                return out
        pop = words.pop
        limits = _LIMITS if n <= len(_LIMITS) else None
        for i in range(n - 1, 0, -1):
            w = pop()
            limit = limits[i] if limits is not None else _WORD - _WORD % (i + 1)
            while w >= limit:  # rejected: draw again (and keep a word for each draw left)
                self._fill(i)
                w = pop()
            j = w % (i + 1)
            out[i], out[j] = out[j], out[i]
        return out


@functools.cache
def _words_of(blocks: int) -> struct.Struct:
    """The 8-byte big-endian words of ``blocks`` blocks of the stream."""
    return struct.Struct(f">{4 * blocks}Q")


_sha256 = hashlib.sha256
_BLOCK = struct.Struct(">4Q")
_COUNTERS = [i.to_bytes(8, "big") for i in range(256)]
"""The counter bytes of the first blocks of a stream (8 bytes big-endian)."""
_LIMITS = [0, *(_WORD - _WORD % (i + 1) for i in range(1, 256))]
"""``_LIMITS[i]``: the rejection limit of ``randbelow(i + 1)``, as a shuffle draws it."""
_LOWEST = [_WORD, *accumulate(_LIMITS[1:], min)]
"""``_LOWEST[i]``: the lowest of ``_LIMITS[1]`` … ``_LIMITS[i]``: a shuffle of ``i + 1``
items whose ``i`` words are all below it rejects none."""
