"""The contract commands: ``paiju compare``, ``paiju odds`` and ``paiju group``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli_run import run
from paiju.cli import cli


def test_compare_json_contract_baozi(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "2008", "Kd 6h", "As 8c", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["winner"] == "player"  # A+8 > K+6
    assert result["banker"]["kind"] == "points" and result["banker"]["points"] == 9


def test_compare_json_contract_jiajiabao(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "2105", "As Ad / Kc 2h", "RJ Ah / 9c 9d", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["winner"] == "push"
    assert result["banker"]["groups"] == "Kc 2h / As Ad"
    assert result["groups"] == {"front": "player", "back": "banker"}


def test_compare_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "2003", "Kh Ks", "4c 2d")
    assert code == 0 and "6点" in out and "the banker wins" in out
    code, _, err = run(capsys, "compare", "2009", "Kd 6h", "As 8c")
    assert code == 2 and err.strip() == "paiju: error: Kd is not a card of the 2009 deck"
    code, _, err = run(capsys, "compare", "1301", "As Kd", "2c 3c")
    assert code == 2 and "not a 宝子 or 佳佳宝 code" in err


def test_odds_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "2004", "--json")
    assert code == 0
    result = json.loads(out)
    assert set(result) == {"player_win", "push", "player_loss", "banker_edge", "deals"}
    assert result["deals"] == 1624350 and result["push"] == "0/1"
    code, out, _ = run(capsys, "odds", "2004")
    assert "369958/812175" in out and "banker edge" in out


def test_odds_family_writes_the_chart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = tmp_path / "edge.png"
    code, out, _ = run(capsys, "odds", "--family", "baozi", "--chart", str(chart))
    assert code == 0
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"chart written to {chart}" in out
    assert sum(line[:4].isdigit() for line in out.splitlines()) == 21


def test_odds_family_default_chart_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["odds", "--family", "baozi", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["chart"] == "baozi-edge.png" and (tmp_path / "baozi-edge.png").exists()
    assert len(report["codes"]) == 21


def test_group_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "group", "2105", "As Ad Kc 2h", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["best"] == "Kc 2h / As Ad" and len(result["groupings"]) == 3
    code, out, _ = run(capsys, "group", "2105", "As Ad Kc 2h")
    assert "best: Kc 2h / As Ad" in out
    code, _, err = run(capsys, "group", "2001", "As Ad Kc 2h")
    assert code == 2 and "the grouping solver is for 佳佳宝 codes" in err


def test_play_a_hand_in_the_terminal() -> None:
    result = CliRunner().invoke(
        cli, ["play", "2001", "--seats", "3", "--seed", "t", "--seat", "1"], input="4\n"
    )
    assert result.exit_code == 0, result.output
    assert "下注（1-" in result.output and "本局结算" in result.output
    result = CliRunner().invoke(
        cli, ["play", "2103", "--seats", "2", "--seed", "t", "--seat", "1"], input="2\nbad\n0\n"
    )
    assert result.exit_code == 0, result.output
    assert "期望" in result.output and "本局结算" in result.output


def test_2104_fixed_grouping_up_to_equal_ranks(capsys: pytest.CaptureFixture[str]) -> None:
    """2104: "每家4张牌，分成2组，有对则组队" — with three 7s, 7s 7h / 7c 2d keeps a pair
    together just as 7s 2d / 7h 7c does: a grouping equal to the fixed one up to cards of
    equal rank is that grouping; a split that breaks the pair is still refused."""
    code, out, err = run(capsys, "compare", "2104", "7s 7h / 7c 2d", "Ks Kh / 9c 3d", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["winner"] == "player"  # 对K > 对7, then 9 > 7
    assert set(result["banker"]["groups"].replace("/", " ").split()) == {"7s", "7h", "7c", "2d"}
    code, out, _ = run(capsys, "compare", "2104", "7c 2d / 7s 7h", "Ks Kh / 9c 3d", "--json")
    assert code == 0 and json.loads(out)["winner"] == "player"
    code, _, err = run(capsys, "compare", "2104", "7s 2d / 7h 9d", "Ks Kh / 9c 3d")
    assert code == 2 and "fixed grouping rule" in err


CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def test_play_speaks_chinese_unless_paiju_lang_en() -> None:
    """The 宝子/佳佳宝 table in one language: Chinese by default, English with
    PAIJU_LANG=en (the readings 7点 / 对6 are the game's own terms in both); seats from 1;
    no internal event names (hand_shown, compared)."""
    args = ["play", "2103", "--seats", "2", "--seed", "t", "--seat", "1", "--hands", "1"]
    zh = CliRunner().invoke(cli, args, input="2\n0\n", env={"PAIJU_LANG": ""})
    en = CliRunner().invoke(cli, args, input="2\n0\n", env={"PAIJU_LANG": "en"})
    assert zh.exit_code == 0 and en.exit_code == 0, (zh.output, en.output)
    assert "佳佳宝3  下注 · 庄家 1号位 · 单张发 · 下注 1-10" in zh.output
    assert "Jiajiabao 3  betting · banker seat 1 · dealing one card at a time" in en.output
    assert "下注（1-10）" in zh.output and "your bet (1-10)" in en.output
    assert "期望" in zh.output and "solver expects" in en.output
    assert "2号位（你）" in zh.output and "seat 2" in en.output
    for output in (zh.output, en.output):
        assert "hand_shown" not in output and "compared" not in output
    readings = re.compile(r"前|后|对\d+|\d+点")
    for line in en.output.splitlines():
        assert not CJK.search(readings.sub("", line)), line
