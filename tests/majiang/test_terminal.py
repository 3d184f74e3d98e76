"""``paiju play anshan-majiang``: the terminal table plays a hand to its payments."""

from __future__ import annotations

import io
from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner
from mj_helpers import stacked
from rich.console import Console
from test_game import HANDS_A, HANDS_B

from paiju.cli import cli
from paiju.games.majiang.game import Chi, Discard, Pass, Peng, Win
from paiju.games.majiang.terminal import MajiangTable, tile_text
from paiju.tiles import Tile, parse_tiles


def test_a_hand_plays_to_its_payments() -> None:
    result = CliRunner().invoke(cli, ["play", "anshan-majiang", "--seed", "t1"], input="\n" * 300)
    assert result.exit_code == 0, result.output
    assert "鞍山麻将" in result.output and "本局结算" in result.output
    assert "混" in result.output and "河 discards" in result.output


def _answers(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> None:
    it: Iterator[str] = iter(answers)
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(it))


def test_claim_prompt_offers_chi_peng_and_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    state = stacked(HANDS_A)
    state.apply(0, Discard(Tile.parse("3m")))
    out = io.StringIO()
    table = MajiangTable(state.game, Console(file=out, width=120, color_system=None))
    table.show(state, 1)
    _answers(monkeypatch, ["碰", "吃"])
    assert table.ask(state, 1) == Chi(parse_tiles("345m"))
    text = out.getvalue()
    assert "吃 chow 3万 4万 5万" in text and "过 pass" in text
    assert "not a choice" in text  # seat 1 cannot 碰
    _answers(monkeypatch, ["p"])
    assert table.ask(state, 2) == Peng()
    _answers(monkeypatch, ["过"])
    assert table.ask(state, 2) == Pass()


def test_typed_tiles_discard_and_the_win_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    state = stacked(HANDS_B)
    out = io.StringIO()
    table = MajiangTable(state.game, Console(file=out, width=120, color_system=None))
    _answers(monkeypatch, ["四万", "五万", "中"])
    assert table.ask(state, 0) == Discard(Tile.parse("7z"))
    assert "你没有 4m 这张牌 / you do not hold 4m" in out.getvalue()
    state.apply(0, Discard(Tile.parse("5z")))
    state.apply(1, Win())
    table.show(state, 1)
    text = out.getvalue()
    assert "座1 胡 wins" in text and "穷胡" in text and "付 pays" in text
    assert tile_text(30, frozenset({30})) == "北[混]"
