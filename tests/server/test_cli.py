"""``paiju serve`` with no arguments does the right thing (the README's first quick-start
command): 127.0.0.1:8000, ``paiju.db`` in the current folder, and it prints the address."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import paiju.server
from paiju.cli import cli
from paiju.server.options import Limits

OPERATOR = {"limits": Limits(), "admin_token": None, "allow_rollback": False}
"""What ``paiju serve`` passes by default besides where to listen and the database."""


def test_serve_changes_limits_and_refuses_unknown_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(paiju.server, "serve", lambda **kw: calls.append(kw))
    monkeypatch.delenv("PAIJU_ADMIN_TOKEN", raising=False)
    args = ["serve", "--limit", "min_bot_delay=0", "--limit", "sockets_per_player=3"]
    result = CliRunner().invoke(cli, [*args, "--admin-token", "s3cret", "--allow-rollback"])
    assert result.exit_code == 0, result.output
    assert calls[0]["limits"] == Limits(min_bot_delay=0, sockets_per_player=3)
    assert (calls[0]["admin_token"], calls[0]["allow_rollback"]) == ("s3cret", True)
    for bad, says in (("nope=1", "NAME=VALUE"), ("burst=0", "burst"), ("burst", "NAME=VALUE")):
        result = CliRunner().invoke(cli, ["serve", "--limit", bad])
        assert result.exit_code != 0 and says in f"{result.output}{result.exception}"


def test_serve_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(paiju.server, "serve", lambda **kw: calls.append(kw))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 0, result.output
    assert calls == [{"host": "127.0.0.1", "port": 8000, "db": "paiju.db", **OPERATOR}]
    assert "http://127.0.0.1:8000/" in result.output


def test_serve_on_all_interfaces_prints_a_loopback_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(paiju.server, "serve", lambda **kw: calls.append(kw))
    result = CliRunner().invoke(
        cli, ["serve", "--host", "0.0.0.0", "--port", "9001", "--db", "sqlite:///x.db"]
    )
    assert result.exit_code == 0, result.output
    assert calls == [{"host": "0.0.0.0", "port": 9001, "db": "sqlite:///x.db", **OPERATOR}]
    assert "http://127.0.0.1:9001/" in result.output


def test_serve_does_not_print_a_dsns_password(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(paiju.server, "serve", lambda **kw: calls.append(kw))
    dsn = "postgresql://paiju:s3cret@db.example/paiju"
    result = CliRunner().invoke(cli, ["serve", "--db", dsn])
    assert result.exit_code == 0, result.output
    assert calls[0]["db"] == dsn, "the server gets the DSN as given"
    assert "s3cret" not in result.output
    assert "postgresql://paiju:***@db.example/paiju" in result.output


def test_verify_of_a_missing_database_game_says_so(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["verify", "5", "--db", str(tmp_path / "empty.db")])
    assert result.exit_code != 0
    assert "no game 5" in str(result.exception)
