"""The command-line contract of §8: ``paiju hu anshan-majiang … --json`` and ``paiju simulate``."""

from __future__ import annotations

import json

import pytest

from cli_run import run

HU = ("hu", "anshan-majiang")


def test_hu_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, *HU, "--hand", "234m111m456p789s5z", "--win", "5z", "--flip", "3z", "--json"
    )
    assert code == 0
    r = json.loads(out)
    assert set(r) >= {"win", "fan", "fans", "reason", "pay"}
    assert r["win"] is True and r["fan"] == 2 and r["fans"] == ["穷胡", "站立"]
    assert r["reason"] == "standard" and r["pay"] is None


def test_hu_payment_mode(capsys: pytest.CaptureFixture[str]) -> None:
    """R40's example: seat 1 wins off seat 2, seat 0 deals, seat 3 闭门: [-8, 24, -8, -8]."""
    code, out, _ = run(
        capsys,
        *HU,
        "--hand",
        "234m111m456p789s5z",
        "--win",
        "5z",
        "--flip",
        "3z",
        "--seat",
        "1",
        "--dealer-seat",
        "0",
        "--from",
        "2",
        "--closed",
        "3",
        "--json",
    )
    assert code == 0
    assert json.loads(out)["pay"] == [-8, 24, -8, -8]


def test_hu_self_drawn_dealer_lists_zhuang_and_dianpao(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        *HU,
        "--hand",
        "234m456p5z",
        "--melds",
        "k:1111m a:7777s",
        "--win",
        "5z",
        "--self-drawn",
        "--after-kong",
        "--dealer",
        "--flip",
        "3z",
        "--json",
    )
    assert code == 0
    r = json.loads(out)
    assert r["fans"] == ["庄", "点炮", "穷胡", "明杠", "暗杠", "杠上开花"]
    assert r["fan"] == 6


def test_hu_no_win_gives_the_first_failed_condition(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, *HU, "--hand", "123m111m456p789p5z", "--win", "5z", "--flip", "3z", "--json"
    )
    assert code == 0
    r = json.loads(out)
    assert r["win"] is False and r["fan"] == 0 and r["reason"] == "三门齐 fails: no natural 条"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hand", "123m111m456p789s5x", "--win", "5z"], "bad tile"),
        (["--hand", "123m111m456p789s", "--win", "5z"], "holds 13"),
        (["--hand", "1111m11m456p789s5z", "--win", "1m"], "more than four 1m"),
        (["--hand", "123m456p789s5z", "--melds", "p:444z", "--win", "5z"], "混"),
        (["--hand", "234m111m456p789s5z", "--win", "5z", "--after-kong"], "after-kong"),
        (
            ["--hand", "234m111m456p789s5z", "--win", "5z", "--seat", "1", "--dealer-seat", "0"],
            "--from",
        ),
    ],
)
def test_hu_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *HU, *args, "--flip", "3z", "--json")
    assert code == 2
    assert message in json.loads(out)["error"]
    assert err.count("\n") == 1 and message in err


def test_hu_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *HU, "--hand", "234m111m456p789s5z", "--win", "5z", "--flip", "3z")
    assert code == 0 and "穷胡" in out and "standard" in out


def test_simulate_has_no_invariant_failures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "anshan-majiang", "--games", "3", "--json")
    assert code == 0
    r = json.loads(out)
    assert r["invariant_failures"] == 0 and r["failures"] == []
    assert r["games"] == 3
