"""Card notation, parsing and the decks of the catalogue."""

from __future__ import annotations

import copy
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.cards import DECKS, Card, deck, format_cards, parse_cards
from paiju.errors import NotationError

cards = st.integers(min_value=0, max_value=53).map(Card)


@given(st.lists(cards, max_size=30))
def test_format_then_parse_is_identity(hand: list[Card]) -> None:
    assert parse_cards(format_cards(hand)) == tuple(hand)


@given(
    st.lists(cards, max_size=13),
    st.sampled_from([" ", "  ", "\t", "\n", ", ", ",", "，", "、", "\u3000"]),
)
def test_canonical_cards_parse_alike_whatever_separates_them(hand: list[Card], sep: str) -> None:
    # "Parse cards separated by spaces or commas": canonical text parsed by lookup
    # and text with other separators (or around it) parsed token by token agree
    text = sep.join(str(c) for c in hand)
    assert parse_cards(text) == tuple(hand)
    assert parse_cards(sep + text + sep) == tuple(hand)


@given(st.lists(cards, min_size=1, max_size=13))
def test_every_accepted_spelling_parses_to_the_same_cards(hand: list[Card]) -> None:
    symbols = " ".join(c.symbol() for c in hand)
    chinese = "，".join(c.zh() for c in hand)
    packed = "".join(str(c) for c in hand)
    assert parse_cards(symbols) == tuple(hand)
    assert parse_cards(chinese) == tuple(hand)
    assert parse_cards(packed) == tuple(hand)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10h", "Th"),
        ("♦10", "Td"),
        ("红桃K 方片2", "Kh 2d"),
        ("黑桃A, 梅花9", "As 9c"),
        ("qs KD", "Qs Kd"),
        ("大王 小王", "RJ BJ"),
        ("A♠ K♥", "As Kh"),
    ],
)
def test_input_spellings(text: str, canonical: str) -> None:
    assert format_cards(parse_cards(text)) == canonical


@pytest.mark.parametrize("bad", ["1x", "As Zz", "11h", "Kk", "joker", "A"])
def test_a_bad_token_names_itself_and_what_is_accepted(bad: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_cards(bad)
    message = str(info.value)
    assert "bad card" in message and "a card is a rank 2-9" in message
    token = bad.split()[-1]
    assert repr(token)[1:-1] in message


def test_card_properties() -> None:
    ace_spades, ten_hearts, rj, bj = parse_cards("As Th RJ BJ")
    assert (ace_spades.rank, ace_spades.suit, ace_spades.is_red) == (14, 0, False)
    assert (ten_hearts.rank, ten_hearts.suit, ten_hearts.is_red) == (10, 1, True)
    assert rj.is_joker and rj.is_red and rj.suit is None and rj.rank == 16
    assert bj.is_joker and bj.is_black and bj.rank == 15
    assert repr(ace_spades) == "Card.parse('As')"
    with pytest.raises(NotationError):
        Card(54)
    with pytest.raises(NotationError, match="expected one card"):
        Card.parse("As Kd")
    with pytest.raises(NotationError, match="card index 54 is out of range"):
        format_cards([54])


@pytest.mark.parametrize(
    ("name", "size", "distinct", "ranks"),
    [
        ("52", 52, 52, set(range(2, 15))),
        ("54", 54, 54, set(range(2, 17))),
        ("40", 40, 40, {14, *range(2, 11)}),
        ("92", 92, 46, {2, *range(5, 17)}),
        ("108", 108, 54, set(range(2, 17))),
    ],
)
def test_decks(name: str, size: int, distinct: int, ranks: set[int]) -> None:
    cards_ = deck(name)
    assert len(cards_) == size
    assert len(set(cards_)) == distinct
    assert {c.rank for c in cards_} == ranks
    counts = Counter(cards_)
    assert set(counts.values()) == ({2} if size in (92, 108) else {1})


def test_cards_are_shared_not_copied_by_clones() -> None:
    card = Card.parse("Qh")
    assert copy.deepcopy(card) is card and copy.copy(card) is card
    hand = [card, Card.parse("2c")]
    cloned = copy.deepcopy(hand)
    assert cloned == hand and cloned is not hand


def test_unknown_deck_lists_the_decks() -> None:
    with pytest.raises(NotationError, match="unknown deck '53'; decks are 52, 54, 40, 92, 108"):
        deck("53")
    assert set(DECKS) == {"52", "54", "40", "92", "108"}
