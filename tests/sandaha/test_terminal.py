"""``paiju play sandaha``: the terminal table plays a whole hand to the settlement."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner
from rich.console import Console
from sandaha_helpers import P, play, playing_state, sandaha

from paiju.cli import cli
from paiju.games.sandaha.bot import SandahaBot
from paiju.games.sandaha.game import Bid, NameTrump, Pass, Play, SandahaState
from paiju.games.sandaha.terminal import SandahaTable, follow_options


def test_a_full_hand_plays_to_the_settlement_in_the_terminal() -> None:
    result = CliRunner().invoke(
        cli, ["play", "sandaha", "--seed", "term", "--hands", "1"], input="\n" * 80
    )
    assert result.exit_code == 0, result.output
    assert "三打哈" in result.output
    assert "本局结算" in result.output and "闲家得分" in result.output
    for internal in ("kitty_taken", "trick_won", "played:", "bid_made"):
        assert internal not in result.output  # events read as sentences, not as their names
    assert "赢得这一轮" in result.output


def _answers(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> None:
    it: Iterator[str] = iter(answers)
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(it))


def test_typed_cards_and_the_reason_for_an_illegal_play(monkeypatch: pytest.MonkeyPatch) -> None:
    state = playing_state(["Ah", "Kh 6h", "", ""], "s", keep_out={1: "h", 2: "h"})
    play(state, 0, "Ah")
    out = io.StringIO()
    table = SandahaTable(sandaha(), Console(file=out, width=120, color_system=None))
    table.show(state, 1)
    clubs = next(c for c in state.hands[1] if c.suit == 2 and c.rank not in (2, 7))
    _answers(monkeypatch, [str(clubs), "6h"])
    assert table.ask(state, 1) == Play(P("6h"))
    text = out.getvalue()
    assert "有♥必须跟♥" in text, "the reason of the refusal is shown, in Chinese"
    assert "主:" in text and "这一轮：" in text


def test_numbers_choose_and_bids_are_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    g = sandaha()
    state = g.new_state(4, seed="numbers")
    out = io.StringIO()
    table = SandahaTable(g, Console(file=out, color_system=None))
    seat = state.first_bidder
    assert state.must_bid(seat) is None
    _answers(monkeypatch, ["85", "80"])
    assert table.ask(state, seat) == Bid(80)
    assert "没有第 85 项" in out.getvalue()
    _answers(monkeypatch, ["0"])
    assert table.ask(state, seat) == Pass(), "choice 0 is pass"
    _answers(monkeypatch, ["p"])
    assert table.ask(state, seat) == Pass()


def test_follow_options_are_all_legal() -> None:
    state = playing_state(["Ah Ah", "Kh Kh Qh 6h", "", ""], "s", keep_out={1: "h", 2: "h"})
    play(state, 0, "Ah Ah")
    options = follow_options(state, 1)
    assert (P("Kh")[0], P("Kh")[0]) in options
    for cards in options:
        state.check(1, Play(tuple(cards)))
    assert NameTrump("s").to_json() == {"type": "name_trump", "trump": "s"}


CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
WORDS = re.compile(r"\b[a-z]{3,}\b")


def _over_state() -> SandahaState:
    g = sandaha()
    state = g.new_state(4, seed="langs")
    assert isinstance(state, SandahaState)
    while not state.is_over:
        s = min(state.to_act())
        state.apply(s, SandahaBot(g, s).act(state, s))
    return state


def _shown(state: SandahaState, seat: int, lang: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """What the table prints for ``seat``, with ``PAIJU_LANG`` set as a player sets it."""
    monkeypatch.setenv("PAIJU_LANG", lang)
    out = io.StringIO()
    table = SandahaTable(state.game, Console(file=out, width=200, color_system=None))
    table.show(state, seat)
    for action in table.choices(state, seat)[:3]:
        out.write(table.describe(action) + "\n")
    out.write(table.prompt(state) + "\n")
    return out.getvalue()


def test_the_table_speaks_one_language_chinese_unless_paiju_lang_en(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The header, the phase, the bids, the trick, the prompts and the result: Chinese by
    default, English with PAIJU_LANG=en, never both on one line (as the refusals)."""
    bidding = sandaha().new_state(4, seed="langs")
    assert isinstance(bidding, SandahaState)
    playing = playing_state(["Ah", "Kh 6h", "", ""], "s", keep_out={1: "h", 2: "h"})
    play(playing, 0, "Ah")
    over = _over_state()
    for state, seat in ((bidding, bidding.first_bidder), (playing, 1), (over, 0)):
        zh = _shown(state, seat, "zh", monkeypatch)
        en = _shown(state, seat, "en", monkeypatch)
        assert not CJK.search(en), en  # not a Chinese character in English
        assert not WORDS.findall(zh), zh  # not an English word in Chinese
        phase = {"bidding": ("叫分", "bidding"), "playing": ("出牌", "playing")}
        zh_phase, en_phase = phase.get(state.phase, ("结束", "over"))
        first_zh, first_en = zh.splitlines()[0], en.splitlines()[0]
        assert first_zh.startswith(f"三打哈  {zh_phase} · 庄家"), first_zh
        assert first_en.startswith(f"Sandaha (three against one)  {en_phase} · declarer"), first_en
        assert "闲家得分" in first_zh and "defenders' points" in first_en
    assert "这一轮：" in _shown(playing, 1, "zh", monkeypatch)
    assert "trick: " in _shown(playing, 1, "en", monkeypatch)
    result_zh, result_en = _shown(over, 0, "zh", monkeypatch), _shown(over, 0, "en", monkeypatch)
    assert "结算 [" in result_zh and "settlement [" in result_en
    assert "不叫" in _shown(bidding, bidding.first_bidder, "zh", monkeypatch)


def test_paiju_play_follows_paiju_lang() -> None:
    """``paiju play sandaha``: the hand's title, the table and the settlement line in one
    language, English with PAIJU_LANG=en."""
    runner = CliRunner()
    args = ["play", "sandaha", "--seed", "term", "--hands", "1"]
    zh = runner.invoke(cli, args, input="\n" * 80, env={"PAIJU_LANG": ""})
    en = runner.invoke(cli, args, input="\n" * 80, env={"PAIJU_LANG": "en"})
    assert zh.exit_code == 0 and en.exit_code == 0, (zh.output, en.output)
    assert "第 1 局" in zh.output and "本局结算" in zh.output and "叫分" in zh.output
    assert "hand 1" in en.output and "settlement:" in en.output and "bidding" in en.output
    for line in en.output.splitlines():
        assert not CJK.search(line), line
