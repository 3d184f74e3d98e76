"""The command line: contract outputs, errors as one line with exit status 2."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli_run import run
from paiju import __version__
from paiju.cli import cli
from paiju.games import game


def test_catalog_json_lists_every_code(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalog", "--json")
    assert code == 0
    entries = json.loads(out)
    codes = [e["code"] for e in entries]
    assert {"1301", "2001", "2108", "sandaha", "anshan-majiang"} <= set(codes)
    for e in entries:
        assert {"code", "name_zh", "name_en", "family", "players", "deck"} <= set(e)
    assert entries[0]["players"] == [2, 4]


def test_catalog_table_and_family_filter(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalog", "--family", "jiajiabao")
    assert code == 0
    assert "2104" in out and "1301" not in out


def test_rules_page_speaks_the_players_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`paiju rules CODE`: the verbatim text (原文), then how it is played (规则说明) in
    Chinese by default and in English with PAIJU_LANG=en; never our own file names."""
    rule = "红心 K+黑桃 K 不算对子"  # the 2003 text, quoted on both pages
    monkeypatch.delenv("PAIJU_LANG", raising=False)
    code, out, _ = run(capsys, "rules", "2003")
    assert code == 0
    original, explained = out.split("规则说明：")
    assert "规则原文：" in original and rule in original and "52张宝子9" in original
    assert "凡是一样大都算庄家赢" in explained and "同颜色的两张才算对子" in explained
    assert "only two cards of one colour" not in out and "rule file" not in out

    monkeypatch.setenv("PAIJU_LANG", "en")
    code, out, _ = run(capsys, "rules", "2003")
    assert code == 0
    original, explained = out.split("How it is played here:")
    assert rule in original and "Baozi 52-card 9" in original
    assert "only two cards of one colour make a pair" in explained
    assert "凡是一样大都算庄家赢" not in out

    monkeypatch.setenv("PAIJU_LANG", "en")
    code, out, _ = run(capsys, "rules", "2003", "--json")
    entry = json.loads(out)
    assert entry["reading_zh"].startswith("庄家和每个闲家一对一比") and entry["rules_en"]


def test_rules_page_of_an_entry_with_one_explanation(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A user's entry explained in English only still shows that explanation in Chinese."""
    mine = tmp_path / "mine.toml"
    mine.write_text(
        '[[variant]]\ncode = "x9"\nname_zh = "试"\nname_en = "Try"\nfamily = "baozi"\n'
        'players = [2, 9]\ndeck = "52"\nrules_zh = "比大小"\nrules_en = "Highest card wins."\n'
        '[variant.params]\nladder = "AA>KK"\n',
        encoding="utf-8",
    )
    monkeypatch.delenv("PAIJU_LANG", raising=False)
    catalog_module = importlib.import_module("paiju.catalog")
    monkeypatch.setattr(catalog_module, "_extra_files", [])  # --variants adds to it
    try:
        code, out, _ = run(capsys, "rules", "x9", "--variants", str(mine))
    finally:
        catalog_module._load.cache_clear()
    assert code == 0 and out.split("规则说明：")[1].strip().startswith("Highest card wins.")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and __version__ in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "9999"], "paiju: error: unknown game code '9999'"),
        (["deal", "toy"], "paiju: error: Missing option '--seed'"),
        (["catalog", "--family", "poker"], "paiju: error: Invalid value: unknown family 'poker'"),
        (["frobnicate"], "paiju: error: No such command 'frobnicate'"),
        (["simulate", "toy", "--games", "0"], "paiju: error: Invalid value for '--games'"),
        (["rules", "1301", "--variants", "/nonexistent.toml"], "paiju: error: /nonexistent.toml"),
        (["simulate", "toy", "--seats", "9"], "paiju: error: toy is played by 2-4 seats, not 9"),
    ],
)
def test_errors_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], toy_variants: Path, args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert err.count("\n") == 1, err
    assert err.startswith(message), err
    assert "Traceback" not in err + out


def test_deal_json_is_what_a_given_deal_accepts(
    capsys: pytest.CaptureFixture[str], toy_variants: Path
) -> None:
    code, out, _ = run(capsys, "deal", "toy", "--seed", "3", "--seats", "2", "--json")
    assert code == 0
    dealt = json.loads(out)
    g = game("toy")
    assert g.new_state(2, deal=dealt).deal == g.new_state(2, seed=3).deal


def test_simulate_json_reports_totals_speed_and_no_failures(
    capsys: pytest.CaptureFixture[str], toy_variants: Path
) -> None:
    code, out, _ = run(capsys, "simulate", "toy", "--games", "5", "--seed", "1", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["games"] == 5
    assert len(summary["totals"]) == 4 and sum(summary["totals"]) == 0
    assert summary["games_per_s"] > 0 and summary["decisions_per_s"] > 0
    assert summary["invariant_failures"] == 0
    _, again, _ = run(capsys, "simulate", "toy", "--games", "5", "--seed", "1", "--json")
    assert json.loads(again)["totals"] == summary["totals"]


def test_simulate_plays_fewer_matches_by_default_where_a_match_is_long(
    capsys: pytest.CaptureFixture[str], toy_variants: Path
) -> None:
    """A whole 打弹子 match is about 50 times a 十三张 one: the default run plays 3 of them,
    and 100 matches of a family not listed (the toy's)."""
    from paiju.cli.core import SIMULATE_GAMES

    _, out, _ = run(capsys, "simulate", "ningcheng-danzi", "--quick", "--hands", "1", "--json")
    assert json.loads(out)["games"] == SIMULATE_GAMES["danzi"] == 3
    _, out, _ = run(capsys, "simulate", "toy", "--quick", "--json")
    assert json.loads(out)["games"] == 100


def test_simulate_counts_invariant_failures(
    capsys: pytest.CaptureFixture[str], toy_variants: Path
) -> None:
    code, out, _ = run(capsys, "simulate", "toy-unfair", "--games", "3", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["invariant_failures"] > 0
    assert "does not sum to zero" in summary["failures"][0]


def test_play_in_the_terminal_against_bots(toy_variants: Path) -> None:
    result = CliRunner().invoke(
        cli, ["play", "toy", "--seats", "2", "--seed", "5", "--hands", "1"], input="2\n0\n"
    )
    assert result.exit_code == 0, result.output
    assert "your action" in result.output
    assert "2号位 played: card" in result.output  # the bot's play is shown, its seat from 1
    assert "hand_ended" not in result.output  # the settlement line says it
    assert "本局结算" in result.output and "总分" in result.output
    assert "再来一局" not in result.output  # --hands 1: one hand, no question


def test_play_offers_the_next_hand(toy_variants: Path) -> None:
    """``paiju play`` without --hands asks 再来一局？ after each hand (until the match is
    over): yes deals the next, no ends."""
    result = CliRunner().invoke(
        cli, ["play", "toy", "--seats", "2", "--seed", "5"], input="2\n0\ny\n2\n0\nn\n"
    )
    assert result.exit_code == 0, result.output
    assert "第 2 局" in result.output  # the yes dealt a second hand
    assert "累计：[-6, 6]" in result.output  # the running total over both
    no = CliRunner().invoke(cli, ["play", "toy", "--seats", "2", "--seed", "5"], input="2\n0\nn\n")
    assert no.exit_code == 0 and "第 2 局" not in no.output


def test_play_rejects_a_bad_typed_action_and_asks_again(toy_variants: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["play", "toy", "--seats", "2", "--seed", "5"],
        input='{"type": "stake", "amount": 7}\n1\n0\n',
    )
    assert result.exit_code == 0, result.output
    assert "stake 1, 2 or 3, not 7" in result.output


def test_the_installed_command_prints_one_line_errors() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "paiju", "rules", "nope"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "paiju: error: unknown game code 'nope'; try `paiju catalog` (codes like 1301, 1302,"
        " 1303, 1304, 1305, 1306, 1301-points, 1301-payout)"
    )


def _event_types() -> set[str]:
    """Every event type of every family (the families' modules imported first)."""
    from paiju.engine import Event
    from paiju.games import FAMILIES

    for family in FAMILIES.values():
        if family.game is not None:
            importlib.import_module(family.game.split(":")[0])
    found: set[str] = set()
    todo = list(Event.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        kind = getattr(cls, "type", None)
        if isinstance(kind, str) and "_" in kind:
            found.add(kind)
    return found


@pytest.mark.parametrize(
    "code", ["2001", "2101", "1301-payout", "sandaha", "anshan-fangyang", "anshan-majiang"]
)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_terminal_never_names_an_event_by_its_type(
    code: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole hand in the terminal (1 or Enter answers every question): what happened is told
    in sentences of the player's language, never as an internal event name."""
    import re

    monkeypatch.setenv("PAIJU_LANG", lang)
    answer = "1\n" if code[0].isdigit() else "\n"  # a bet / suggestion 1, or the default
    result = CliRunner().invoke(cli, ["play", code, "--seed", "names"], input=answer * 400)
    assert "本局结算" in result.output or "settlement" in result.output.lower(), result.output
    words = set(re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", result.output))
    assert not words & _event_types(), sorted(words & _event_types())
    assert "cards_each" not in result.output


@pytest.mark.parametrize("code", ["anshan-jiayibing", "anshan-fangyang", "anshan-majiang"])
def test_play_goes_on_and_asks_for_another_hand(code: str) -> None:
    """A match is several hands: after hand 1, 再来一局？; yes deals hand 2 with what the
    first carries on (the 头游 leads, the banker, the dealer); no ends with the 总结算."""
    answers = "\n" * 400
    result = CliRunner().invoke(cli, ["play", code, "--seed", "goes-on"], input=answers)
    out = result.output
    assert "再来一局？" in out, out[-2000:]
    assert out.index("第 1 局") < out.index("再来一局？") < out.index("第 2 局")
    stop = CliRunner().invoke(
        cli, ["play", code, "--seed", "goes-on", "--hands", "1"], input=answers
    )
    assert stop.exit_code == 0 and "第 2 局" not in stop.output and "再来一局？" not in stop.output
    assert "总结算（1 局）" in stop.output


def test_a_match_ends_with_its_summary_and_offers_another(toy_variants: Path) -> None:
    """The toy's match is 2 hands: then the 总结算 (each seat's total, hands won, 大赢家)
    and 再来一场？; yes starts a new match from its first hand."""
    result = CliRunner().invoke(
        cli, ["play", "toy", "--seats", "2", "--seed", "5"], input="2\n0\ny\n2\n0\ny\n2\n0\nn\n"
    )
    out = result.output
    assert result.exit_code == 0, out
    assert out.index("第 2 局") < out.index("总结算") < out.index("再来一场？")
    assert "第 2 场 · 第 1 局" in out
    assert "1号位（你）：-6，胜 0 局" in out and "2号位：+6，胜 2 局 ★ 大赢家" in out


@pytest.mark.parametrize(
    "code",
    [
        "1301",
        "2001",
        "2101",
        "sandaha",
        "anshan-jiayibing",
        "anshan-fangyang",
        "anshan-majiang",
        "ningcheng-danzi",
    ],
)
def test_simulate_plays_matches_of_the_given_hands(
    capsys: pytest.CaptureFixture[str], code: str
) -> None:
    """The contract: ``--games N --hands H`` reports games N, hands N*H, and the invariant
    failures (liveness among them): none."""
    status, out, _ = run(
        capsys, "simulate", code, "--games", "2", "--hands", "2", "--quick", "--json"
    )
    summary = json.loads(out)
    assert status == 0
    assert (summary["games"], summary["hands"], summary["invariant_failures"]) == (2, 4, 0)


def test_simulate_without_hands_plays_the_games_own_match(
    capsys: pytest.CaptureFixture[str], toy_variants: Path
) -> None:
    _, out, _ = run(capsys, "simulate", "toy", "--games", "3", "--json")
    assert json.loads(out)["hands"] == 3 * 2  # the toy's match is 2 hands
    _, out, _ = run(capsys, "simulate", "sandaha", "--games", "1", "--quick", "--json")
    assert json.loads(out)["hands"] == 8  # 三打哈: 8 局 unless the room says
