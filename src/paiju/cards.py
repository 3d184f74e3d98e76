"""Playing cards: the notation, parsing and formatting, and the decks of the catalogue.

A :class:`Card` is a small int (0-53), so hands index tables and hash fast:
``(rank - 2) * 4 + suit`` for the 52 suited cards, 52 for 小王 and 53 for 大王.
Two-deck games hold two identical copies of a card: a hand is a multiset.

Canonical text: rank ``2-9 T J Q K A`` then suit ``s h c d`` (``As Td 9c``); jokers
``RJ`` (大王, red/big) and ``BJ`` (小王, black/small). On input ``10``, lower-case ranks,
``♠♥♣♦`` and the Chinese suit names 黑桃/红桃(红心)/梅花/方块(方片) before or after the rank,
and 大王/小王 are accepted too.

>>> parse_cards("As 10d 红心9 BJ")
(Card.parse('As'), Card.parse('Td'), Card.parse('9h'), Card.parse('BJ'))
>>> format_cards(parse_cards("♠A ♦10"))
'As Td'
>>> len(deck("92")), len(set(deck("92")))
(92, 46)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Annotated, Final

from pydantic import PlainSerializer, PlainValidator

from paiju.errors import NotationError

__all__ = [
    "DECKS",
    "JOKERS",
    "RANKS",
    "SUITS",
    "Card",
    "CardList",
    "deck",
    "format_cards",
    "parse_card",
    "parse_cards",
    "unplayed_by_rank",
]

RANKS: Final = "23456789TJQKA"
"""Rank characters, index 0 = rank 2 … index 12 = rank 14 (ace)."""
SUITS: Final = "shcd"
"""Suit characters in the order 黑桃 > 红桃 > 梅花 > 方块 (index 0 is the best suit)."""
SUIT_NAMES_ZH: Final = ("黑桃", "红桃", "梅花", "方块")
"""The suits' names in output: ♥ is always 红桃 (红心 is accepted on input too)."""
SUIT_SYMBOLS: Final = "♠♥♣♦"
RANK_NAMES_ZH: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

BLACK_JOKER: Final = 52
RED_JOKER: Final = 53

_SUIT_INPUT: Final = {
    **{c: i for i, c in enumerate(SUITS)},
    **{c.upper(): i for i, c in enumerate(SUITS)},
    **{c: i for i, c in enumerate(SUIT_SYMBOLS)},
    **{c: i for i, c in enumerate("♤♡♧♢")},
    **{name: i for i, name in enumerate(SUIT_NAMES_ZH)},
    "红心": 1,
    "方片": 3,
    "方块": 3,
    "黑": 0,
    "红": 1,
    "梅": 2,
    "方": 3,
}
_RANK_INPUT: Final = {
    **{c: i + 2 for i, c in enumerate(RANKS)},
    **{c.lower(): i + 2 for i, c in enumerate(RANKS)},
    "10": 10,
    "1": 14,
}
_JOKER_INPUT: Final = {
    "RJ": RED_JOKER,
    "BJ": BLACK_JOKER,
    "rj": RED_JOKER,
    "bj": BLACK_JOKER,
    "大王": RED_JOKER,
    "小王": BLACK_JOKER,
}

_SUIT_RE = "|".join(sorted((re.escape(s) for s in _SUIT_INPUT), key=len, reverse=True))
_RANK_RE = "10|[2-9TJQKAtjqka]"
_TOKEN = re.compile(
    rf"(?P<joker>RJ|BJ|rj|bj|大王|小王)"
    rf"|(?P<rank1>{_RANK_RE})(?P<suit1>{_SUIT_RE})"
    rf"|(?P<suit2>{_SUIT_RE})(?P<rank2>{_RANK_RE})"
)
_ACCEPTED = (
    "a rank 2-9, T (or 10), J, Q, K, A with a suit s h c d (or ♠♥♣♦ or 黑桃/红桃/梅花/方块), "
    "or a joker RJ (大王) / BJ (小王), e.g. 'As Td 9c RJ'"
)


class Card(int):
    """One playing card, an int 0-53 with its notation.

    >>> c = Card.parse("Qh")
    >>> c.rank, c.suit, str(c), c.is_red
    (12, 1, 'Qh', True)
    >>> Card.parse("RJ").is_joker
    True
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index <= RED_JOKER:
            raise NotationError(f"card index {index} is out of range 0-53")
        return super().__new__(cls, index)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The suited card of ``rank`` (2-14, ace = 14) and ``suit`` (0-3 = s h c d)."""
        if not (2 <= rank <= 14 and 0 <= suit <= 3):
            raise NotationError(f"no card of rank {rank} and suit {suit}")
        return cls((rank - 2) * 4 + suit)

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse exactly one card token; raises :class:`NotationError` naming it."""
        cards = parse_cards(token)
        if len(cards) != 1:
            raise NotationError(
                f"expected one card, got {token!r}; a card is {_ACCEPTED}",
                reason="one_card_expected",
                token=token,
            )
        return cards[0]

    @property
    def is_joker(self) -> bool:
        return self >= BLACK_JOKER

    @property
    def rank(self) -> int:
        """2-14 (ace = 14) for suited cards; 15 for 小王 (BJ), 16 for 大王 (RJ)."""
        if self >= BLACK_JOKER:
            return 15 + (self - BLACK_JOKER)
        return self // 4 + 2

    @property
    def suit(self) -> int | None:
        """0-3 for s h c d (黑桃 红桃 梅花 方块); None for jokers."""
        return None if self >= BLACK_JOKER else self % 4

    @property
    def is_red(self) -> bool:
        """Hearts, diamonds and 大王 are red."""
        return self == RED_JOKER or (self < BLACK_JOKER and self % 4 in (1, 3))

    @property
    def is_black(self) -> bool:
        return not self.is_red

    def __str__(self) -> str:
        if self == RED_JOKER:
            return "RJ"
        if self == BLACK_JOKER:
            return "BJ"
        return RANKS[self // 4] + SUITS[self % 4]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self  # immutable: clones of states share their cards

    def zh(self) -> str:
        """The card in Chinese, e.g. ``黑桃A``, ``大王``."""
        if self == RED_JOKER:
            return "大王"
        if self == BLACK_JOKER:
            return "小王"
        return SUIT_NAMES_ZH[self % 4] + RANK_NAMES_ZH[self // 4]

    def symbol(self) -> str:
        """The card with a Unicode suit, e.g. ``A♠``."""
        if self.is_joker:
            return str(self)
        return RANK_NAMES_ZH[self // 4] + SUIT_SYMBOLS[self % 4]


def _card_from_match(m: re.Match[str]) -> Card:
    if m["joker"]:
        return Card(_JOKER_INPUT[m["joker"]])
    rank = _RANK_INPUT[m["rank1"] or m["rank2"]]
    suit = _SUIT_INPUT[m["suit1"] or m["suit2"]]
    return Card.of(rank, suit)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas (or written together: ``AsKd``).

    >>> parse_cards("AsKd, 10c")
    (Card.parse('As'), Card.parse('Kd'), Card.parse('Tc'))
    >>> parse_cards("Ax")
    Traceback (most recent call last):
    ...
    paiju.errors.NotationError: bad card 'Ax': a card is a rank 2-9, T (or 10), ...
    """
    if not isinstance(text, str):
        text = " ".join(text)
    try:  # cards as the server writes them (what a client sends back): a lookup a card
        return tuple(map(_CANONICAL.__getitem__, text.split()))
    except KeyError:  # another notation, or a separator other than whitespace: below
        pass
    cards: list[Card] = []
    for chunk in _SEPARATORS.split(text.strip()):
        if not chunk:
            continue
        card = _CANONICAL.get(chunk)
        if card is not None:  # one card as the server writes it: no pattern to match
            cards.append(card)
            continue
        pos = 0
        while pos < len(chunk):
            m = _TOKEN.match(chunk, pos)
            if m is None:
                raise NotationError(
                    f"bad card {chunk[pos:]!r}: a card is {_ACCEPTED}",
                    reason="bad_card_text",
                    token=chunk[pos:],
                )
            cards.append(_card_from_match(m))
            pos = m.end()
    return tuple(cards)


def parse_card(token: str) -> Card:
    """Parse exactly one card."""
    return Card.parse(token)


_TEXT: Final[dict[int, str]] = {i: str(Card(i)) for i in range(RED_JOKER + 1)}
_CANONICAL: Final[dict[str, Card]] = {text: Card(i) for i, text in _TEXT.items()}
"""Each card by its canonical text (what :func:`format_cards` writes)."""
_SEPARATORS: Final = re.compile(r"[\s,，、]+")


def format_cards(cards: Iterable[int]) -> str:
    """Canonical text of cards in the order given: ``'As Td 9c'``.

    A table lookup per card: views and server messages format cards all the time.
    """
    try:
        return " ".join([_TEXT[c] for c in cards])
    except KeyError as exc:
        raise NotationError(f"card index {exc.args[0]} is out of range 0-53") from None


def _suited(ranks: Iterable[int]) -> tuple[Card, ...]:
    return tuple(Card.of(r, s) for r in ranks for s in range(4))


_JOKERS_PAIR: Final = (Card(BLACK_JOKER), Card(RED_JOKER))
JOKERS: Final = _JOKERS_PAIR

DECKS: Final[dict[str, tuple[Card, ...]]] = {
    "52": _suited(range(2, 15)),
    "54": _suited(range(2, 15)) + _JOKERS_PAIR,
    "40": _suited([14, *range(2, 11)]),
    "92": 2 * (_suited([r for r in range(2, 15) if r not in (3, 4)]) + _JOKERS_PAIR),
    "108": 2 * (_suited(range(2, 15)) + _JOKERS_PAIR),
}
"""The decks of the catalogue by name: 52, 54 (with jokers), 40 (A-10 only),
92 (two 54-card decks without 3s and 4s), 108 (two 54-card decks)."""


def deck(name: str) -> tuple[Card, ...]:
    """A fresh, ordered deck by its catalogue name; raises NotationError for others."""
    try:
        return DECKS[name]
    except KeyError:
        raise NotationError(
            f"unknown deck {name!r}; decks are {', '.join(DECKS)} (and 136 mahjong tiles)"
        ) from None


def _validate_card_list(value: object) -> tuple[Card, ...]:
    if isinstance(value, str):
        return parse_cards(value)
    if isinstance(value, list | tuple):
        if all(isinstance(c, Card) for c in value):
            return tuple(value)
        if all(isinstance(c, str) for c in value):
            return parse_cards(value)
    raise NotationError(f"expected cards as text like 'As Kd', got {value!r}")


CardList = Annotated[
    tuple[Card, ...],
    PlainValidator(_validate_card_list),
    PlainSerializer(format_cards, return_type=str),
]
"""A tuple of cards whose JSON form is its canonical text (for actions and events)."""


def unplayed_by_rank(full_set: Iterable[int], played: Iterable[int]) -> dict[str, int]:
    """记牌器: how many cards of each rank of ``full_set`` are not in ``played`` (a multiset:
    two-deck games hold copies), keyed by the rank's number as text, from the top: ``"16"``
    大王, ``"15"`` 小王, ``"14"`` A, ``"13"`` K … ``"2"`` (numbers, not card notation, so a
    view's texts name no card). Ranks the set lacks are left out, ranks all played count 0.
    Public when ``played`` is."""
    left = Counter(full_set)
    left.subtract(played)
    counts: dict[str, int] = {}
    for card in sorted(left, reverse=True):
        key = str(16 if card == RED_JOKER else 15 if card == BLACK_JOKER else card // 4 + 2)
        counts[key] = counts.get(key, 0) + max(0, left[card])
    return counts
