"""``paiju play CODE`` plays a whole hand of every 十三张 code in the terminal against bots."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from paiju.catalog import catalog
from paiju.cli import cli

CODES = [v.code for v in catalog() if v.family == "shisanzhang"]


@pytest.mark.parametrize("code", CODES)
def test_play_to_the_settlement(code: str) -> None:
    # "1" answers every question: bet 1, take suggestion 1, or show a 免摆/绍兴 hand
    result = CliRunner().invoke(
        cli,
        ["play", code, "--seed", f"play-{code}", "--seats", "3", "--hands", "1"],
        input="1\n" * 8,
    )
    assert result.exit_code == 0, result.output
    assert "比牌" in result.output  # the showdown, in the terminal's language (Chinese)
    assert "bet_placed" not in result.output  # no event is named by its internal type
    if code == "1301-payout":  # bets are hidden until all are in: who has bet is said
        assert "2号位 下好注了" in result.output
    # a one-hand match: the hand's settlement, then the match's 总结算 with its totals
    assert "本局结算：[" in result.output and "总分：[" in result.output
