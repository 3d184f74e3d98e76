"""The 宁城打弹子 play generator against the brute force, on real and random hands."""

from __future__ import annotations

import random

from danzi_helpers import combo, ranks
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.cards import deck
from paiju.games.danzi.combos import classify, counts_of
from paiju.games.danzi.moves import all_plays, brute_force_plays, legal_plays

TABLES = (
    None,
    "5", "3", "BJ", "RJ", "44", "33", "345", "JQKA", "A2345678910JQK", "334455", "QQKKAA",
    "444", "555", "5555", "33333", "444444", "5555555", "AAAA2222", "KKKKAAAA", "55555555",
    "666777888", "RJ BJ", "BJ BJ", "KKKKKAAAAA", "RJ RJ BJ", "333444555666", "AAAA22223333",
    "RJRJBJBJ", "555556666677777",
)  # fmt: skip


def _same(hand: tuple[int, ...], table: str | None) -> None:
    t = None if table is None else combo(table)
    fast = [p.counts for p in legal_plays(hand, t)]
    slow = sorted(p.counts for p in brute_force_plays(hand, t))
    assert len(fast) == len(set(fast)), "a play listed twice"
    assert sorted(fast) == slow, table
    for p in legal_plays(hand, t):
        assert classify(p.counts) == p  # the generator builds what the classifier says


def test_generator_matches_brute_force_on_dealt_hands() -> None:
    """Every legal play and only those, for 14-card slices of shuffled two-deck hands."""
    rng = random.Random(7)
    cards = list(deck("108"))
    for _ in range(6):
        rng.shuffle(cards)
        hand = counts_of(cards[:14])
        for table in TABLES:
            _same(hand, table)


def test_generator_on_a_bomb_rich_hand() -> None:
    """A hand with 4s to take, a 真8, 连蛋, 减 and jokers: every shape on every table."""
    hand = counts_of(ranks("4444 555555 666 777 888 RJ BJ BJ"))
    for table in TABLES:
        _same(hand, table)
    fours = counts_of(ranks("4444 555"))
    takes = [p.counts for p in legal_plays(fours, combo("666"))]
    assert counts_of(ranks("44")) in takes and counts_of(ranks("555")) not in takes


def test_lead_counts_of_a_real_hand() -> None:
    """A pinned count: the plays one 27-card hand may lead (a perft-style figure)."""
    hand = counts_of(ranks("RJ BJ 3 3 2 2 2 A A K Q Q J 10 10 9 9 8 8 8 7 6 6 5 5 4 4"))
    plays = all_plays(hand)
    assert len(plays) == len(brute_force_plays(hand, None))
    assert len(plays) == 115


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(range(108)), min_size=1, max_size=11, unique=True),
       st.sampled_from(TABLES))  # fmt: skip
def test_generator_property(picks: list[int], table: str | None) -> None:
    """Hypothesis: for any small two-deck hand and table, the generator equals the brute force."""
    full = deck("108")
    _same(counts_of(full[i] for i in picks), table)
