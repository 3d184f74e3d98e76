"""``paiju play anshan-jiayibing`` / ``anshan-fangyang``: the terminal table in Chinese, or
in English with ``PAIJU_LANG=en``."""

from __future__ import annotations

import io
import re
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
    result = CliRunner().invoke(
        cli, ["play", code, "--seed", "term", "--hands", "1"], input="\n" * 200
    )
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
    assert "桌面: 上家(1号位) 出的 单张 5♠" in text  # seats counted from 1
    assert "不行: 你没有 4♥" in text  # the refusal as paiju.reasons renders it
    assert "不行: 6♠ K♠ 不成牌型" in text
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
    assert "叫牌: ♠黑桃A · 亮 · 2对2 · 同伙: 下家(3号位)" in out.getvalue()


CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def test_english_with_paiju_lang_en(monkeypatch: pytest.MonkeyPatch) -> None:
    """PAIJU_LANG=en: the header, the seats (from 1), the table's play, the hand, the
    choices, the prompt and the refusals in English; nothing Chinese but the quoted 亮."""
    monkeypatch.setenv("PAIJU_LANG", "en")
    state = jyb_position(["5s 9s 9d", "6s Ks", "7s", "4c", "4h", "5d"], leader=0)
    run(state, [(0, "5s")])
    out = io.StringIO()
    table = ClimbingTable(state.game, Console(file=out, width=120, color_system=None))
    table.show(state, 1)
    asked: list[str] = []
    answers = iter(["4h", "6s Ks", "♠6"])

    def prompt(text: str, **_: object) -> str:
        asked.append(text)
        return next(answers)

    monkeypatch.setattr(click, "prompt", prompt)
    assert table.ask(state, 1) == Play(P("6s"))
    text = out.getvalue()
    assert "table: single 5♠ by previous (seat 1)" in text
    assert "your hand (2 cards): " in text and " ← to play" in text
    assert "Not allowed: " in text and asked[0].startswith("play (cards like 7h 7s")
    for line in text.splitlines():
        assert not CJK.search(line), line
    fy = fy_position(["4s 9s Kd", "5h 6h 7h", "As 8c 8d", "5c Tc Jc"], banker=0, call=None)
    fy.apply(0, Call("A", "s", True))
    out = io.StringIO()
    ClimbingTable(fy.game, Console(file=out, width=120, color_system=None)).show(fy, 1)
    assert "banker: previous (seat 1) · called: ♠A · shown (亮) · 2 against 2" in out.getvalue()
    assert "partner: next (seat 3)" in out.getvalue()
