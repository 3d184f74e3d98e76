"""The §15 command-line contract of 宁城打弹子: combo, beats, tribute, settle, simulate."""

from __future__ import annotations

import json

import pytest

from cli_run import run
from paiju.errors import PaijuError
from paiju.games.danzi.contract import beats_json, combo_json, settle_json, tribute_json


@pytest.mark.parametrize(
    ("cards", "kind"),
    [
        ("5h", "单牌"),
        ("RJ", "单牌"),
        ("4c 4d", "对牌"),
        ("As 2h 3c", "单龙"),
        ("5s 5h 6s 6h 7s 7h", "双龙"),
        ("3s 3h 3c", "砟子"),
        ("5s 5h 5c 5d 5s 5h 5c", "真7"),
        ("5s 5h 5c 5d 5s 5h 5c 5d", "真8"),
        ("Ks Kh Kc Kd As Ah Ac Ad", "假8"),
        ("Ks Kh Kc Kd Ks As Ah Ac Ad As", "假10"),
        ("6s 6h 6c 7s 7h 7c 8s 8h 8c", "连蛋"),
        ("6s 6h 6c 6d 7s 7h 7c 7d 8s 8h 8c 8d", "三减"),
        ("6s 6h 6c 6d 7s 7h 7c 7d 8s 8h 8c 8d 9s 9h 9c 9d", "四减"),
        ("5s 5h 5c 5d 5s 6s 6h 6c 6d 6s 7s 7h 7c 7d 7s", "假15"),
        ("RJ BJ", "双王"),
        ("RJ RJ BJ", "三王"),
        ("RJ RJ BJ BJ", "四王"),
    ],
)
def test_combo_kinds(cards: str, kind: str) -> None:
    assert combo_json(cards)["kind_zh"] == kind


def test_contract_commands(capsys: pytest.CaptureFixture[str]) -> None:
    """``paiju combo/beats/settle ningcheng-danzi`` through the climbing family's commands."""
    code, out, _ = run(capsys, "combo", "ningcheng-danzi", "5s 5h 5c 5d 5s 6s 6h 6c 6d 6s"
                       " 7s 7h 7c 7d 7s", "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["kind_zh"] == "假15"
    code, _, err = run(capsys, "combo", "ningcheng-danzi", "5s 5s 5s", "--json")
    assert code == 2 and "error" in err
    code, out, _ = run(capsys, "beats", "ningcheng-danzi", "5s 5h 5c 5d", "4s 4h 4c", "--json")
    assert json.loads(out) == {"beats": True, "take": True, "reason": "take"}
    code, out, _ = run(capsys, "beats", "ningcheng-danzi", "RJ", "5s 5h 5c", "--json")
    assert code == 0 and json.loads(out)["beats"] is False
    code, _, _ = run(capsys, "beats", "ningcheng-danzi", "5s 6h", "RJ", "--json")
    assert code == 2


def test_settle_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    body = {"finish_order": [0, 2, 1, 3], "declarer": 0, "totals": [27, 10], "target": 30}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(body)))
    code, out, _ = run(capsys, "settle", "ningcheng-danzi", "--json")
    answer = json.loads(out)
    assert code == 0
    assert {k: answer[k] for k in ("points", "totals", "match_over", "winner")} == {
        "points": [6, 0],
        "totals": [33, 10],
        "match_over": True,
        "winner": 0,
    }
    monkeypatch.setattr("sys.stdin", io.StringIO('{"finish_order": [0, 1, 2, 2]}'))
    code, _, _ = run(capsys, "settle", "ningcheng-danzi", "--json")
    assert code == 2


def test_combo_refusals() -> None:
    """Not a combination, a card three times, bad notation, 28 cards: errors (exit 2)."""
    for bad in ("5s 6h", "5s 5s 5s", "Xx", "", " ".join(r + u for r in "456789T" for u in "shcd")):
        with pytest.raises(PaijuError):
            combo_json(bad)


def test_beats_answers() -> None:
    assert beats_json("5s 5h 5c", "4s 4h") == {"beats": True, "take": True, "reason": "take"}
    assert beats_json("RJ", "5s 5h 5c")["beats"] is False
    assert beats_json("5s", "5h 6h") == {
        "beats": False,
        "take": False,
        "reason": "not_a_combination",
    }
    with pytest.raises(PaijuError):
        beats_json("5s 6h", "RJ")


def test_tribute_cli(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "RJ BJ 3s 3h 2s As 4s"
    code, out, _ = run(capsys, "tribute", "ningcheng-danzi", hand, "--count", "4", "--json")
    assert code == 0 and json.loads(out) == {"free": False, "cards": "RJ BJ 3s 3h"}
    code, out, _ = run(
        capsys, "tribute", "ningcheng-danzi", hand, "--count", "2", "--give", "RJ BJ", "--json"
    )
    assert code == 0 and json.loads(out)["legal"] is True
    code, out, _ = run(
        capsys, "tribute", "ningcheng-danzi", "As Ks 5s", "--count", "1", "--give", "5s", "--json"
    )
    assert json.loads(out)["legal"] is True  # 骚贡
    code, out, _ = run(
        capsys,
        "tribute",
        "ningcheng-danzi",
        "RJ 5s 6s BJ",
        "--received",
        "RJ",
        "--give",
        "BJ",
        "--json",
    )
    assert code == 0 and json.loads(out) == {
        "legal": False,
        "reason": "return_same_value",
        "message": json.loads(out)["message"],
    }
    for args in (
        (hand,),
        (hand, "--count", "1", "--received", "RJ"),
        ("5x", "--count", "1"),
    ):
        code, _, err = run(capsys, "tribute", "ningcheng-danzi", *args, "--json")
        assert code == 2 and err.startswith("paiju: error:")
    code, out, _ = run(
        capsys, "tribute", "ningcheng-danzi", hand, "--count", "1", "--give", "Kd", "--json"
    )
    assert code == 0 and json.loads(out)["legal"] is False  # a card not in the hand


def test_tribute_json_forms() -> None:
    assert tribute_json("As Ks 4s", count=2) == {"free": True, "cards": "As Ks"}
    with pytest.raises(PaijuError):
        tribute_json("As Ks", count=1, received="As")


def test_settle_contract() -> None:
    body = {"finish_order": [0, 2, 1, 3], "declarer": 0, "totals": [27, 10], "target": 30}
    assert settle_json(body) == {
        "points": [6, 0],
        "totals": [33, 10],
        "match_over": True,
        "winner": 0,
    }
    assert settle_json({"finish_order": [1, 0, 3, 2]})["points"] == [0, 2]
    for bad in (
        {"finish_order": [0, 1, 2]},
        {"finish_order": [0, 2, 1, 3], "declarer": 1},
        {"finish_order": [0, 2, 1, 3], "totals": [30, 0]},
        {"finish_order": [0, 2, 1, 3], "target": 45},
        [],
    ):
        with pytest.raises(PaijuError):
            settle_json(bad)


def test_simulate_whole_matches(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "ningcheng-danzi", "--games", "2", "--quick", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["invariant_failures"] == 0
    assert sum(summary["totals"]) == 0 and summary["decisions"] > 500


def test_every_reason_has_chinese_and_english() -> None:
    """Every reason the package raises, and every beats reason, renders in zh and en."""
    import re
    from pathlib import Path

    from paiju.games.danzi import combos
    from paiju.games.danzi.messages import BEATS, REASONS, render

    source = "".join(p.read_text() for p in Path(combos.__file__).parent.glob("*.py"))
    raised = set(re.findall(r'reason="([a-z_0-9]+)"', source)) | {
        "four_in_tribute",
        "four_in_return",
    }
    assert raised <= set(REASONS), raised - set(REASONS)
    said = set(re.findall(r'Verdict\((?:True|False), (?:True|False), "([a-z_0-9]+)"\)', source))
    assert said and said <= set(BEATS), said - set(BEATS)
    assert render("does_not_beat", {"why": "lower", "table": "9s"}, "en").endswith("lower")
