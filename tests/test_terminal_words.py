"""The words every terminal table of ``paiju play`` knows: 帮助 (help) and 退出 (quit) at any
prompt, Ctrl-C and the end of the input ending the game with one polite line, and one word
for ♥ in what is printed (红桃; 红心 still read on input)."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from paiju.cards import parse_cards
from paiju.cli import cli
from paiju.games import SAMPLE_CODES


@pytest.mark.parametrize("code", SAMPLE_CODES)
def test_help_then_quit_at_the_first_prompt(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """帮助 prints what one can type and asks again; 退出 ends the game with one line."""
    monkeypatch.delenv("PAIJU_LANG", raising=False)
    args = [
        "play",
        code,
        "--seed",
        "words",
        "--seat",
        "1",
    ]  # seat 0 may be a banker who is never asked
    result = CliRunner().invoke(cli, args, input="帮助\n退出\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "退出（quit、q）：结束游戏" in out
    assert out.rstrip().endswith("已退出。")
    assert "红心" not in out


def test_english_words_and_the_end_of_the_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAIJU_LANG", "en")
    result = CliRunner().invoke(cli, ["play", "sandaha", "--seed", "w"], input="help\nq\n")
    assert result.exit_code == 0 and "quit (退出, q): end the game" in result.output
    assert result.output.rstrip().endswith("quit.")
    ended = CliRunner().invoke(cli, ["play", "anshan-majiang", "--seed", "w"], input="")
    assert ended.exit_code == 0 and ended.output.rstrip().endswith("quit.")


def test_ctrl_c_ends_politely_with_status_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> str:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise click.Abort from None

    monkeypatch.delenv("PAIJU_LANG", raising=False)
    monkeypatch.setattr(click, "prompt", interrupted)
    result = CliRunner().invoke(cli, ["play", "anshan-jiayibing", "--seed", "c"])
    assert result.exit_code == 130
    assert result.output.strip().splitlines()[-1] == "已中断，游戏结束。"
    assert "Traceback" not in result.output


def test_hearts_are_hongtao_in_output_and_both_words_read() -> None:
    assert [c.zh() for c in parse_cards("红心9 红桃9 9h")] == ["红桃9"] * 3
