"""The 十三张 terminal table of ``paiju play``: suggestions, declaring, typed rows, showdown."""

from __future__ import annotations

import io
from collections.abc import Iterator

import click
import pytest
from rich.console import Console

from paiju.cards import parse_cards
from paiju.engine import Deal
from paiju.games import game
from paiju.games.shisanzhang.game import Arrange, Declare, ShisanzhangState
from paiju.games.shisanzhang.terminal import ShisanzhangTable

DRAGON = "2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Ac"


def _state(code: str, first: str | None = None) -> ShisanzhangState:
    g = game(code)
    if first is None:
        st = g.new_state(4, seed="term")
    else:
        mine = parse_cards(first)
        rest = [c for c in g.full_set() if c not in mine]
        st = g.new_state(
            4, deal=Deal((mine, *(tuple(rest[13 * i : 13 * i + 13]) for i in range(3))))
        )
    assert isinstance(st, ShisanzhangState)
    return st


def _answers(monkeypatch: pytest.MonkeyPatch, *answers: str) -> None:
    it: Iterator[str] = iter(answers)
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(it))


def _table(code: str) -> tuple[ShisanzhangTable, io.StringIO]:
    out = io.StringIO()
    return ShisanzhangTable(game(code), Console(file=out, width=120)), out


def test_numbered_suggestion_is_one_keystroke(monkeypatch: pytest.MonkeyPatch) -> None:
    st = _state("1301")
    table, out = _table("1301")
    table.show(st, 0)
    assert "推荐摆法" in out.getvalue() and "your hand" in out.getvalue()
    _answers(monkeypatch, "1")
    action = table.ask(st, 0)
    assert isinstance(action, Arrange) and st.is_legal(0, action)


def test_typed_arrangement_and_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    st = _state("1301")
    h = st.hands[0]
    typed = " ".join(map(str, h[:3])) + " / " + " ".join(map(str, h[3:8])) + " / "
    typed += " ".join(map(str, h[8:]))
    table, out = _table("1301")
    _answers(monkeypatch, "As / Kd", typed)
    action = table.ask(st, 0)
    assert action == Arrange(h[:3], h[3:8], h[8:])
    assert "输入三墩" in out.getvalue()  # the bad answer was explained, in Chinese


def test_declare_key(monkeypatch: pytest.MonkeyPatch) -> None:
    st = _state("1301", DRAGON)
    table, out = _table("1301")
    table.show(st, 0)
    assert "一条龙" in out.getvalue()
    _answers(monkeypatch, "d")
    assert table.ask(st, 0) == Declare()


def test_forced_declare_and_showdown(monkeypatch: pytest.MonkeyPatch) -> None:
    st = _state("1304")
    table, out = _table("1304")
    _answers(monkeypatch, "")
    assert table.ask(st, 0) == Declare()
    for seat in range(4):
        st.apply(seat, Declare())
    table.show(st, 0)
    assert "showdown" in out.getvalue() and "seat 0 vs seat 1" in out.getvalue()


def test_timeout_action_is_the_solvers() -> None:
    st = _state("1303")
    action = st.timeout_action(2)
    assert st.is_legal(2, action)


def test_a_fouled_arrangement_asks_before_it_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """倒水 (front 三条 above a 散牌 middle) is played only after a yes; a no asks again."""
    st = _state("1301", "As Ah Ad 2c 3c 4d 5h 7s 8c 9d Jh Qc Kd")
    table, out = _table("1301")
    foul = "As Ah Ad / 2c 3c 4d 5h 7s / 8c 9d Jh Qc Kd"
    fine = "2c 3c 4d / 5h 7s 8c 9d Jh / As Ah Ad Qc Kd"
    asked: list[str] = []

    def confirm(text: str, **_: object) -> bool:
        asked.append(text)
        return len(asked) > 1  # no the first time, yes the second

    monkeypatch.setattr(click, "confirm", confirm)
    _answers(monkeypatch, foul, fine)
    action = table.ask(st, 0)
    assert len(asked) == 1 and "倒水" in asked[0]
    assert action == Arrange(
        parse_cards("2c 3c 4d"), parse_cards("5h 7s 8c 9d Jh"), parse_cards("As Ah Ad Qc Kd")
    )
    assert "倒水" in out.getvalue()
    _answers(monkeypatch, foul)
    assert table.ask(st, 0) == Arrange(*(parse_cards(r) for r in foul.split("/")))
    assert len(asked) == 2
