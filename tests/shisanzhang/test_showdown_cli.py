"""``paiju showdown``: the contract of the command (JSON shape, errors, exit status)."""

from __future__ import annotations

import json

import pytest

from paiju.cli import main

P0 = "2c 3d 4h / 5s 5h 7c 8d 9s / Ks Kh Qc Qd 2s"
P1 = "Ac Ad 4c / 6s 6h 6c 8c 9c / 7s 7h 7d Th Td"


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    main(["showdown", "1301", P0, P1, "--scoring", "majority", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert {"scores", "pairs", "fouls", "specials"} <= set(out)
    assert out["scores"] == [-1, 1]
    assert out["fouls"] == [False, False] and out["specials"] == [None, None]


def test_default_scoring_is_the_codes(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --scoring, 1301 settles by points (its default for online play)."""
    main(["showdown", "1301", P0, P1, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["scoring"] == "points" and out["scores"] == [-12, 12]


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    main(["showdown", "1301", P0, P1])
    text = capsys.readouterr().out
    assert "2号位打枪" in text and "+12" in text  # seats counted from 1


def test_error_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["showdown", "1301", P0, P0])
    assert done.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "in hand 0 and in hand 1" in err


def test_bets_option(capsys: pytest.CaptureFixture[str]) -> None:
    banker = "9s 9h 9c / 2h 3h 4d 5d 6s / Ks Kh Kc Kd 2s"
    player = "2c 3s 4c / 6c 7c 8c Tc Jc / Ah Ad Ac 5h 5s"
    main(["showdown", "1301-payout", banker, player, "--banker", "0", "--bets", "0,3", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["scores"] == [18, -18] and out["bets"] == [0, 3]
