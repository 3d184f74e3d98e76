"""进贡, 还贡 and 骚贡 of 宁城打弹子 (N47-N57): which cards a giver owes, what may come back.

Pure functions over card indexes (:mod:`paiju.cards`). The phases that run them, and who
sees what, live in :mod:`paiju.games.danzi.game`.

* 进贡: a giver owes their N biggest cards by the single order (N50), never a 4 (N52);
* 骚贡: a giver with no joker, no 3 and no 2 picks the N cards freely, 4s excepted (N51);
* 还贡: whoever received N cards returns N of their choice (N53), none of a value they
  received (both jokers are one value, 王, N54) and no 4 (N55);
* 还贡 without enough cards (the text has no rule): a receiver holding fewer than N cards
  that N54 and N55 allow returns all of those and makes up the rest with cards of a
  received value, never a 4 (:func:`returnable`). A hand of only 4s, 3s, 2s and As that
  received 3 2 A A then still has a return, and no deal can freeze.

>>> from paiju.cards import format_cards, parse_cards
>>> format_cards(auto_tribute(parse_cards("RJ 3s 3h 2c As 4d"), 2))
'RJ 3s'
>>> is_free(parse_cards("As Ks Qd 4h"))
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from paiju.cards import Card, format_cards
from paiju.errors import IllegalAction
from paiju.games.danzi.combos import BJ, FOUR, RANK_NAMES, RJ, SINGLE, card_rank_index

__all__ = [
    "auto_tribute",
    "check_return",
    "check_tribute",
    "is_free",
    "return_value",
    "returnable",
    "tribute_order",
]

_FREE_BLOCKERS: Final = frozenset({0, 1, BJ, RJ})
"""Rank indexes of 2, 3 and the jokers: holding any rules 骚贡 out (N51)."""


def return_value(card: int) -> int:
    """The value that the no-same-value rule compares (N54): the rank, both jokers one."""
    i = card_rank_index(card)
    return BJ if i == RJ else i


def tribute_order(cards: Sequence[int]) -> list[int]:
    """Cards from the biggest single down (N5), 4s last; equal ranks by card index."""
    return sorted(cards, key=lambda c: (-SINGLE[card_rank_index(c)], c))


def is_free(hand: Sequence[int]) -> bool:
    """骚贡: the hand holds no joker, no 3 and no 2 (N51)."""
    return not any(card_rank_index(c) in _FREE_BLOCKERS for c in hand)


def auto_tribute(hand: Sequence[int], count: int) -> tuple[Card, ...]:
    """The N biggest cards of ``hand`` by the single order, no 4 among them (N50, N52)."""
    eligible = [c for c in tribute_order(hand) if card_rank_index(c) != FOUR]
    if len(eligible) < count:
        raise IllegalAction(
            f"the hand has only {len(eligible)} cards other than 4s, {count} are owed",
            reason="tribute_too_few_cards",
            count=count,
        )
    return tuple(Card(c) for c in eligible[:count])


def _in_hand(hand: Sequence[int], give: Sequence[int], what: str) -> None:
    missing = Counter(give) - Counter(hand)
    if missing:
        cards = format_cards(sorted(missing.elements()))
        raise IllegalAction(
            f"{what} {cards} is not in the hand", reason="cards_not_in_hand", cards=cards
        )


def _no_fours(give: Sequence[int], reason: str) -> None:
    fours = [c for c in give if card_rank_index(c) == FOUR]
    if fours:
        raise IllegalAction(
            f"a 4 may not be given ({format_cards(fours)})",
            reason=reason,
            cards=format_cards(fours),
        )


def check_tribute(hand: Sequence[int], count: int, give: Sequence[int]) -> None:
    """Raise IllegalAction unless ``give`` is a legal tribute of ``count`` cards (N50-N52)."""
    if len(give) != count:
        raise IllegalAction(
            f"the tribute is {count} cards, not {len(give)}",
            reason="tribute_wrong_count",
            count=count,
            given=len(give),
        )
    _in_hand(hand, give, "the tribute")
    _no_fours(give, "four_in_tribute")
    if is_free(hand):
        return  # 骚贡: any cards but 4s (N51)
    owed = [card_rank_index(c) for c in auto_tribute(hand, count)]
    if Counter(owed) != Counter(card_rank_index(c) for c in give):
        names = " ".join(RANK_NAMES[i] for i in owed)
        raise IllegalAction(
            f"the tribute must be the {count} biggest cards ({names}): the hand holds a joker,"
            " a 3 or a 2, so 骚贡 does not apply",
            reason="tribute_not_biggest",
            ranks=names,
        )


def returnable(hand: Sequence[int], received: Sequence[int]) -> tuple[list[int], list[int]]:
    """What may go back for ``received``: ``(free, fill)``.

    ``free`` are the hand's cards that N54 and N55 allow (no 4, no received value). ``fill``
    is empty unless ``free`` holds fewer cards than owed; then it is the hand's cards of a
    received value other than 4s, from which the return is made up (our fallback: N55
    stands, N54 gives way only as far as it must). With at most eight 4s among the 27 + N
    cards, ``free`` and ``fill`` together always hold N cards.
    """
    forbidden = {return_value(c) for c in received}
    free = [c for c in hand if card_rank_index(c) != FOUR and return_value(c) not in forbidden]
    if len(free) >= len(received):
        return free, []
    fill = [c for c in hand if card_rank_index(c) != FOUR and return_value(c) in forbidden]
    return free, fill


def check_return(hand: Sequence[int], received: Sequence[int], give: Sequence[int]) -> None:
    """Raise IllegalAction unless ``give`` is a legal 还贡 for ``received`` (N53-N55, and
    our fallback where the hand cannot meet N54: :func:`returnable`).

    ``hand`` is the returner's hand after receiving the tribute.
    """
    if len(give) != len(received):
        raise IllegalAction(
            f"the return is {len(received)} cards (as many as received), not {len(give)}",
            reason="return_wrong_count",
            count=len(received),
            given=len(give),
        )
    _in_hand(hand, give, "the return")
    _no_fours(give, "four_in_return")
    forbidden = {return_value(c) for c in received}
    same = [c for c in give if return_value(c) in forbidden]
    free, _ = returnable(hand, received)
    short = len(received) - len(free)
    if short > 0:
        if len(same) > short:
            raise IllegalAction(
                f"the hand holds {len(free)} cards of other values than the tribute: all of"
                f" them go back first, and only {short} of a tribute card's value",
                reason="return_others_first",
                free=len(free),
                short=short,
            )
        return
    if same:
        cards = format_cards(same)
        raise IllegalAction(
            f"{cards} has the value of a received tribute card; a return may not"
            " (a received joker forbids both jokers)",
            reason="return_same_value",
            cards=cards,
        )
