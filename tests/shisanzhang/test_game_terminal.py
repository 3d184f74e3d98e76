"""The 十三张 terminal table of ``paiju play``: suggestions, declaring, typed rows, showdown."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import click
import pytest
from rich.console import Console

from paiju.cards import parse_cards
from paiju.engine import Deal
from paiju.games import game, rule_bot
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
    assert "推荐摆法" in out.getvalue() and "你的牌" in out.getvalue()
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
    assert "比牌" in out.getvalue() and "1号位 对 2号位" in out.getvalue()


def test_a_seat_out_of_time_gets_the_solvers_legal_arrangement() -> None:
    """The server plays a seat that runs out of time with the family's rule bot."""
    st = _state("1303")
    action = rule_bot(st.game).act(st, 2)
    assert isinstance(action, Arrange | Declare) and st.is_legal(2, action)


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


CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
WORDS = re.compile(r"\b[a-z]{3,}\b")
TERMS = ("打枪", "倒水", "全垒打", "冲三", "四梅")
"""The game's own words kept beside the English (as the web client's "Gun (打枪)")."""


def _printed(monkeypatch: pytest.MonkeyPatch, lang: str, st: ShisanzhangState) -> str:
    monkeypatch.setenv("PAIJU_LANG", lang)
    table, out = _table(st.game.variant.code)
    table.show(st, 0)
    return out.getvalue()


def test_the_table_speaks_one_language_chinese_unless_paiju_lang_en(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The header (the game, the seat counted from 1, the scoring, the stake), the
    suggestions and the showdown: Chinese by default, English with PAIJU_LANG=en."""
    st = _state("1301")
    zh, en = _printed(monkeypatch, "zh", st), _printed(monkeypatch, "en", st)
    assert zh.splitlines()[0].startswith("比大小13张 · 1号位 · 按分计 · 底注 1 · 其他：2号位 在摆")
    assert en.splitlines()[0].startswith(
        "Thirteen cards: compare · seat 1 · points · stake 1 · others: seat 2 arranging"
    )
    assert "你的牌：" in zh and "推荐摆法" in zh and "期望得分" in zh
    assert "your hand: " in en and "suggested arrangements" in en and "expected" in en
    assert not CJK.search(en.replace(st.game.variant.name_zh, "")), en
    assert not WORDS.findall(zh), zh
    for seat in range(4):
        arrangement = rule_bot(st.game).act(st, seat)
        st.apply(seat, arrangement)
    zh, en = _printed(monkeypatch, "zh", st), _printed(monkeypatch, "en", st)
    assert "比牌" in zh and "1号位 对 2号位：" in zh and "座位" in zh
    assert "showdown" in en and "seat 1 vs seat 2: " in en and "score" in en
    bare = en
    for term in TERMS:
        bare = bare.replace(term, "")
    assert not CJK.search(bare), en
    assert not WORDS.findall(zh), zh


def test_prompts_and_refusals_follow_paiju_lang(monkeypatch: pytest.MonkeyPatch) -> None:
    """The question and the refusal of a bad answer are in the terminal's language."""
    asked: list[str] = []

    def prompt(text: str, **_: object) -> str:
        asked.append(text)
        return "As / Kd" if len(asked) % 2 else "1"

    monkeypatch.setattr(click, "prompt", prompt)
    for lang, question, refusal in (
        ("zh", "摆牌（1-", "输入三墩"),
        ("en", "your arrangement (1-", "Type three rows"),
    ):
        monkeypatch.setenv("PAIJU_LANG", lang)
        st = _state("1301")
        table, out = _table("1301")
        assert isinstance(table.ask(st, 0), Arrange)
        assert asked[-1].startswith(question), asked
        assert refusal in out.getvalue(), out.getvalue()
