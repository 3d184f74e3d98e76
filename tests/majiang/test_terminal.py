"""``paiju play anshan-majiang``: the terminal table plays a hand to its payments."""

from __future__ import annotations

import io
import re
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
    result = CliRunner().invoke(
        cli, ["play", "anshan-majiang", "--seed", "t1", "--hands", "1"], input="\n" * 300
    )
    assert result.exit_code == 0, result.output
    assert "鞍山麻将" in result.output and "本局结算" in result.output
    assert "混" in result.output and "河：" in result.output


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
    assert "吃 3万 4万 5万" in text and "] 过" in text
    assert "现在不能碰" in text  # seat 1 cannot 碰
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
    assert "你没有 4m 这张牌" in out.getvalue() and "you do not hold" not in out.getvalue()
    state.apply(0, Discard(Tile.parse("5z")))
    state.apply(1, Win())
    state.apply(2, Pass())
    state.apply(3, Pass())
    table.show(state, 1)
    text = out.getvalue()
    assert "2号位 胡" in text and "穷胡" in text and "付 2^" in text  # seats from 1
    assert tile_text(30, frozenset({30})) == "北[混]"


CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
WORDS = re.compile(r"\b[a-z]{3,}\b")


def test_the_table_speaks_one_language_chinese_unless_paiju_lang_en(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The header, the rivers, the claim choices, the prompt, a refusal and the win screen:
    Chinese by default, English with PAIJU_LANG=en. The tiles (5万, 中) and the game's own
    words (混, 枪, the fans' names) stay as the game writes them; nothing else is Chinese
    in English, and no English word is in the Chinese."""
    shown: dict[str, str] = {}
    for lang in ("zh", "en"):
        monkeypatch.setenv("PAIJU_LANG", lang)
        state = stacked(HANDS_B)
        out = io.StringIO()
        table = MajiangTable(state.game, Console(file=out, width=200, color_system=None))
        asked: list[str] = []
        answers = iter(["四万", "中"])

        def prompt(
            text: str, _answers: Iterator[str] = answers, _asked: list[str] = asked, **_: object
        ) -> str:
            _asked.append(text)
            return next(_answers)

        monkeypatch.setattr(click, "prompt", prompt)
        table.show(state, 0)
        assert table.ask(state, 0) == Discard(Tile.parse("7z"))
        state.apply(0, Discard(Tile.parse("5z")))
        state.apply(1, Win())
        state.apply(2, Pass())
        state.apply(3, Pass())
        table.show(state, 1)
        shown[lang] = out.getvalue() + "\n".join(asked)
    zh, en = shown["zh"], shown["en"]
    assert zh.startswith("鞍山麻将  揭 ") and "牌墙" in zh and "打哪张？（推荐 打 " in zh
    assert en.startswith("Anshan") and " · wall " in en and "discard which tile? (suggested: " in en
    assert "2号位 胡" in zh and "付 2^" in zh and "你没有 4m 这张牌" in zh
    assert "seat 2 wins" in en and "pays 2^" in en and "you do not hold 4m" in en
    assert not WORDS.findall(zh.replace("standard", "")), zh
    kept = re.compile(r"\d?[万筒条]|[东南西北白发中混枪]")
    fans = re.compile(r"[\u4e00-\u9fff]+ \(")
    for line in en.splitlines():
        assert not CJK.search(kept.sub("", fans.sub("", line))), line
