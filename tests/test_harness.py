"""The playout harness passes a correct game and catches each kind of broken one."""

from __future__ import annotations

from pathlib import Path

import pytest

from paiju.cards import parse_cards
from paiju.games import game
from paiju.harness import check_game, playout, view_items


def test_a_correct_game_passes_every_check(toy_variants: Path) -> None:
    assert check_game(game("toy"), range(20)) == []
    for seats in (2, 3, 4):
        result = playout(game("toy"), seats, seed=seats)
        assert len(result.hands) == 2  # the toy match is two hands
        assert sum(result.totals) == 0
        assert result.decisions == 2 * 2 * seats


@pytest.mark.parametrize(
    ("code", "complaint"),
    [
        ("toy-leaky", "shows hidden"),
        ("toy-lossy", "cards not conserved"),
        ("toy-unfair", "does not sum to zero"),
        ("toy-sloppy", "changed the state"),
    ],
)
def test_a_broken_game_is_caught(toy_variants: Path, code: str, complaint: str) -> None:
    failures = check_game(game(code), range(3))
    assert failures, f"{code} passed the harness"
    assert any(complaint in f for f in failures), failures[:3]


def test_view_items_reads_card_texts_anywhere_in_a_view() -> None:
    view = {"hand": "As Kd / Qh", "rows": [["2c 3c"], {"4d": "x"}], "label": "pass 10 AK"}
    assert sorted(view_items(view)) == sorted(parse_cards("As Kd Qh 2c 3c 4d"))
    assert sorted(view_items({"t": "123m 5z"}, "tiles")) == [0, 1, 2, 31]
