"""``paiju play sandaha``: the terminal table plays a whole hand to the settlement."""

from __future__ import annotations

import io
from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner
from rich.console import Console
from sandaha_helpers import P, play, playing_state, sandaha

from paiju.cli import cli
from paiju.games.sandaha.game import Bid, NameTrump, Pass, Play
from paiju.games.sandaha.terminal import SandahaTable, follow_options


def test_a_full_hand_plays_to_the_settlement_in_the_terminal() -> None:
    result = CliRunner().invoke(cli, ["play", "sandaha", "--seed", "term"], input="\n" * 80)
    assert result.exit_code == 0, result.output
    assert "三打哈" in result.output
    assert "本局结算" in result.output and "闲家得分" in result.output
    for internal in ("kitty_taken", "trick_won", "played:", "bid_made"):
        assert internal not in result.output  # events read as sentences, not as their names
    assert "赢得这一轮" in result.output


def _answers(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> None:
    it: Iterator[str] = iter(answers)
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(it))


def test_typed_cards_and_the_reason_for_an_illegal_play(monkeypatch: pytest.MonkeyPatch) -> None:
    state = playing_state(["Ah", "Kh 6h", "", ""], "s", keep_out={1: "h", 2: "h"})
    play(state, 0, "Ah")
    out = io.StringIO()
    table = SandahaTable(sandaha(), Console(file=out, width=120, color_system=None))
    table.show(state, 1)
    clubs = next(c for c in state.hands[1] if c.suit == 2 and c.rank not in (2, 7))
    _answers(monkeypatch, [str(clubs), "6h"])
    assert table.ask(state, 1) == Play(P("6h"))
    text = out.getvalue()
    assert "有♥必须跟♥" in text, "the reason of the refusal is shown, in Chinese"
    assert "主:" in text and "trick:" in text


def test_numbers_choose_and_bids_are_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    g = sandaha()
    state = g.new_state(4, seed="numbers")
    out = io.StringIO()
    table = SandahaTable(g, Console(file=out, color_system=None))
    seat = state.first_bidder
    assert state.must_bid(seat) is None
    _answers(monkeypatch, ["85", "80"])
    assert table.ask(state, seat) == Bid(80)
    assert "85 is not a choice" in out.getvalue()
    _answers(monkeypatch, ["0"])
    assert table.ask(state, seat) == Pass(), "choice 0 is pass"
    _answers(monkeypatch, ["p"])
    assert table.ask(state, seat) == Pass()


def test_follow_options_are_all_legal() -> None:
    state = playing_state(["Ah Ah", "Kh Kh Qh 6h", "", ""], "s", keep_out={1: "h", 2: "h"})
    play(state, 0, "Ah Ah")
    options = follow_options(state, 1)
    assert (P("Kh")[0], P("Kh")[0]) in options
    for cards in options:
        state.check(1, Play(tuple(cards)))
    assert NameTrump("s").to_json() == {"type": "name_trump", "trump": "s"}
