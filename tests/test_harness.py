"""The playout harness passes a correct game and catches each kind of broken one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from paiju.cards import parse_cards
from paiju.games import game
from paiju.harness import check_game, playout, view_items
from toy import ToyState


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


def test_views_that_differ_from_the_view_alone_are_caught(
    toy_variants: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The harness reads the views built together (what the server sends) and checks one
    observer's, in turn, against its view built alone (what the samplers compare)."""

    def views(self: ToyState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        return [{**self.view(s), "stale": len(self.history) > 1} for s in seats]

    assert check_game(game("toy"), range(2)) == []
    monkeypatch.setattr(ToyState, "views", views)
    failures = check_game(game("toy"), range(2))
    assert any("alone differs from its view among all" in f for f in failures), failures[:3]


def test_view_items_reads_card_texts_anywhere_in_a_view() -> None:
    view = {"hand": "As Kd / Qh", "rows": [["2c 3c"], {"4d": "x"}], "label": "pass 10 AK"}
    assert sorted(view_items(view)) == sorted(parse_cards("As Kd Qh 2c 3c 4d"))
    assert sorted(view_items({"t": "123m 5z"}, "tiles")) == [0, 1, 2, 31]
