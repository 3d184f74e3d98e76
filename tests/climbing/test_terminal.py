"""``paiju play anshan-jiayibing`` / ``anshan-fangyang``: the terminal table in Chinese."""

from __future__ import annotations

import io
from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner
from climbing_helpers import P, fy_position, jyb_position, run
from rich.console import Console

from paiju.cli import cli
from paiju.games.climbing.core import Pass, Play
from paiju.games.climbing.fangyang import Call
from paiju.games.climbing.terminal import ClimbingTable


@pytest.mark.parametrize(
    ("code", "name"), [("anshan-jiayibing", "鞍山甲乙丙"), ("anshan-fangyang", "鞍山放羊")]
)
def test_a_whole_deal_plays_to_the_settlement(code: str, name: str) -> None:
    result = CliRunner().invoke(cli, ["play", code, "--seed", "term"], input="\n" * 200)
    assert result.exit_code == 0, result.output
    assert name in result.output and "出完顺序" in result.output
    assert "本局结算" in result.output
    assert "♠" in result.output or "♥" in result.output


def _answers(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> None:
    it: Iterator[str] = iter(answers)
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(it))


def test_typed_cards_and_refusals_in_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    state = jyb_position(["5s 9s 9d", "6s Ks", "7s", "4c", "4h", "5d"], leader=0)
    run(state, [(0, "5s")])
    out = io.StringIO()
    table = ClimbingTable(state.game, Console(file=out, width=120, color_system=None))
    table.show(state, 1)
    _answers(monkeypatch, ["4h", "6s Ks", "♠6"])
    assert table.ask(state, 1) == Play(P("6s"))
    text = out.getvalue()
    assert "桌面: 上家(0号) 出的 单张 5♠" in text
    assert "你手里没有 4h" in text
    assert "不是合法牌型" in text
    _answers(monkeypatch, ["过"])
    assert table.ask(state, 1) == Pass()


def test_the_call_is_typed_with_or_without_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    state = fy_position(["4s 9s Kd", "5h 6h 7h", "As 8c 8d", "5c Tc Jc"], banker=0, call=None)
    out = io.StringIO()
    table = ClimbingTable(state.game, Console(file=out, width=120, color_system=None))
    table.show(state, 0)
    _answers(monkeypatch, ["2s", "♠A 亮"])
    assert table.ask(state, 0) == Call("A", "s", True)
    assert "不能叫这张牌" in out.getvalue()
    state.apply(0, Call("A", "s", True))
    table.show(state, 1)
    assert "叫牌: ♠黑桃A · 亮 · 2对2 · 同伙: 下家(2号)" in out.getvalue()
