"""``paiju duel``: every hand of a match is duelled, per match or per hand."""

from __future__ import annotations

import pytest

from paiju.duel import duel
from paiju.games import game


def test_per_hand_duels_every_hand_of_the_match() -> None:
    """十三张 plays a match of 8 局: with ``per_hand`` all 8 hands of every rotation are
    played (the later ones with the context the match carries), and the mean per hand is
    the match's total over its 8 hands, on the same deals and bots."""
    g = game("1301")
    per_hand = duel(g, ("normal", "easy"), 2, "d", per_hand=True)
    per_match = duel(g, ("normal", "easy"), 2, "d")
    rotations = g.seat_count(None)
    assert per_hand["per"] == "hand" and per_match["per"] == "match"
    assert per_hand["hands"] == per_match["hands"] == 2 * rotations * 8
    assert per_hand["mean"] * 8 == pytest.approx(per_match["mean"], abs=1e-3)
