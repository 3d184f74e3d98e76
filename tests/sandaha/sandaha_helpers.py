"""Real 三打哈 hands for the rule tests: deals with chosen cards, states at a chosen phase."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from paiju.cards import Card, deck, parse_cards
from paiju.engine import Deal
from paiju.games import game
from paiju.games.sandaha.game import (
    Bid,
    Bury,
    NameTrump,
    Play,
    SandahaGame,
    SandahaState,
    is_changzhu,
)

P = parse_cards


def sandaha(**options: object) -> SandahaGame:
    g = game("sandaha", **options)
    assert isinstance(g, SandahaGame)
    return g


def deal_of(
    hands: Sequence[str] = ("", "", "", ""),
    kitty: str = "",
    first_bidder: int = 0,
    keep_out: Mapping[int, str] | None = None,
) -> Deal:
    """A full deal holding the given cards; the rest of the 92 is dealt round-robin.

    ``keep_out`` maps a seat to suits (``"h"``, ``"hs"``) and ``"*"`` (常主) it must not
    get from the filler, so a test controls exactly what a seat holds of a suit.
    """
    keep_out = dict(keep_out or {})
    given = [list(parse_cards(h)) for h in hands]
    given_kitty = list(parse_cards(kitty))
    rest = Counter(deck("92"))
    for cards in [*given, given_kitty]:
        rest.subtract(cards)
    assert all(n >= 0 for n in rest.values()), "a card is given more than twice"
    slots = [*given, given_kitty]
    sizes = [21, 21, 21, 21, 8]

    def accepts(slot: int, card: int) -> bool:
        banned = keep_out.get(slot, "")
        if is_changzhu(card):
            return "*" not in banned
        return "shcd"[card % 4] not in banned

    def choices(card: int) -> int:
        return sum(accepts(slot, card) for slot in range(5))

    # Most constrained cards first, each to the accepting slot with the most room left.
    for card in sorted(rest.elements(), key=lambda c: (choices(c), is_changzhu(c), c % 4, c)):
        open_slots = [s for s in range(5) if len(slots[s]) < sizes[s] and accepts(s, card)]
        assert open_slots, f"keep_out cannot be satisfied for {Card(card)}"
        best = max(open_slots, key=lambda s: (sizes[s] - len(slots[s]), -s))
        slots[best].append(Card(card))
    assert [len(s) for s in slots] == sizes, "too many cards given to a hand"
    return Deal(
        tuple(tuple(h) for h in slots[:4]),
        {"kitty": tuple(slots[4])},
        {"first_bidder": first_bidder},
    )


def bidding_state(hands: Sequence[str], first_bidder: int = 0, **options: object) -> SandahaState:
    state = sandaha(**options).new_state(4, deal=deal_of(hands, first_bidder=first_bidder))
    assert isinstance(state, SandahaState)
    return state


def playing_state(
    hands: Sequence[str],
    trump: str,
    *,
    kitty: str = "",
    bury: str | None = None,
    keep_out: Mapping[int, str] | None = None,
    declarer: int = 0,
    **options: object,
) -> SandahaState:
    """A hand after bidding (``declarer`` bids the lowest bid at once), burying (``bury``,
    default the dealt kitty) and naming ``trump``; the declarer is to lead."""
    d = deal_of(hands, kitty, first_bidder=declarer, keep_out=keep_out)
    state = sandaha(**options).new_state(4, deal=d)
    assert isinstance(state, SandahaState)
    state.apply(declarer, Bid(state.params.min_bid))
    buried = P(bury) if bury is not None else d.piles["kitty"]
    state.apply(declarer, Bury(tuple(buried)))
    state.apply(declarer, NameTrump(trump))
    assert state.phase == "playing"
    return state


def play(state: SandahaState, seat: int, cards: str) -> list[object]:
    return list(state.apply(seat, Play(P(cards))))


def endgame(state: SandahaState, last: Sequence[str], leader: int) -> None:
    """Jump to the last trick: each seat keeps exactly ``last[seat]``; every other card of
    the hands counts as already played (a position set up like a chess FEN)."""
    for seat, text in enumerate(last):
        keep = Counter(parse_cards(text))
        assert not keep - Counter(state.hands[seat]), f"seat {seat} does not hold {text}"
        gone = Counter(state.hands[seat])
        gone.subtract(keep)
        state.played.extend(Card(c) for c in gone.elements())
        state.hands[seat] = sorted(keep.elements())
    state.turn = leader
