"""The 宁城打弹子 bot's judgement on set positions, and the terminal table's rendering."""

from __future__ import annotations

import random
import re

import pytest
from danzi_helpers import later, new_deal, set_hands
from rich.console import Console

from paiju.cards import format_cards, parse_cards
from paiju.games import game
from paiju.games.danzi.bot import DanziBot, SmallestBot, plan_cost
from paiju.games.danzi.combos import counts_of
from paiju.games.danzi.game import DanziState, Decline, Pass, Play
from paiju.games.danzi.terminal import DanziTable, cards_by_ranks, play_groups, rank_groups

BOT = DanziBot(game("ningcheng-danzi"), 1)


def _after_lead(hands: dict[int, str], lead: str, leader: int = 2) -> DanziState:
    state = new_deal({leader: "RJ"})
    set_hands(state, hands)
    state.apply(leader, Play(parse_cards(lead)))
    return state


def test_keeps_bombs_until_they_matter() -> None:
    """No bomb on an opponent's low single while everyone holds many cards; a bomb when
    the opponent is close to going out."""
    many = "5s 6s 7s 9s Js Qs Kh 4d 5d 6d 7d 9d"
    state = _after_lead({2: "3s " + many, 3: "8s 8h 8c 8d 4c 6c", 0: many, 1: many}, "5s")
    action = BOT.act(state, 3)
    assert isinstance(action, Play) and "8" not in format_cards(action.cards)  # a 6 follows
    state = _after_lead({2: "Ks " + many, 3: "8s 8h 8c 8d 4c 6h 9c Jd", 0: many, 1: many}, "Ks")
    assert isinstance(BOT.act(state, 3), Pass)  # nothing plain beats K: keep the 8888
    state = _after_lead({2: "Ks 5s", 3: "8s 8h 8c 8d 4c", 0: many, 1: many}, "Ks")
    action = BOT.act(state, 3)
    assert isinstance(action, Play) and len(action.cards) == 4  # seat 2 has one card left


def test_never_over_its_partner_but_goes_out() -> None:
    """The partner's play stands; going out with the last cards always comes first."""
    state = _after_lead({2: "5s 9s", 0: "7s 8s", 3: "4h", 1: "2s 2h"}, "5s")
    state.apply(3, Pass())
    assert isinstance(BOT.act(state, 0), Pass)  # seat 0's partner 2 holds the table
    state = _after_lead({2: "5s 9s", 0: "7s", 3: "4h", 1: "2s 2h"}, "5s")
    state.apply(3, Pass())
    assert BOT.act(state, 0) == Play(parse_cards("7s"))  # unless it goes out (接风)


def test_feeds_a_partner_about_to_go_out() -> None:
    """明牌: the partner holds one pair; the bot leads a lower pair for it to go out on."""
    state = new_deal({0: "RJ"})
    set_hands(state, {0: "5s 5h Ks Qd 8c", 2: "9s 9h", 1: "As Ah 3c", 3: "2s 2h 6d"})
    action = BOT.act(state, 0)
    assert action == Play(parse_cards("5s 5h"))


def test_declares_only_a_hand_that_can_go_out_first() -> None:
    """宣战 with a short plan and bombs; a scattered hand declines."""
    strong = "RJ RJ BJ 3s 3h 3c 3d 2s 2h 2c 2d As Ah Ac Ad Ks Kh Kc Kd 5s 6s 7s 8s 9s Ts Js Qs"
    weak = "4s 6h 8c Ts Qd 5s 7h 9c Jd Kd 4h 6c 8d Th Qs 5h 7c 9d Js Kh 4c 6d 8s Tc Qc 5c 7d"
    assert plan_cost(counts_of(parse_cards(strong))) < plan_cost(counts_of(parse_cards(weak)))
    for hand, declares in ((strong, True), (weak, False)):
        state = new_deal({2: hand}, context=later([0, 1, 2, 3]))
        rng = random.Random(0)
        while state.phase != "declaring":
            seat = min(state.to_act())
            state.apply(seat, state.random_action(seat, rng))
        set_hands(state, {2: hand})
        assert BOT.should_declare(state, 2) is declares


def test_returns_are_legal_and_cheap() -> None:
    """还贡 to an opponent: legal cards the bot's plan misses least."""
    state = new_deal(context=later([1, 0, 3, 2], declarer=1))
    while state.phase == "tribute":
        seat = min(state.to_act())
        state.apply(seat, BOT.act(state, seat))
    assert state.phase == "returning"
    for seat in sorted(state.to_act()):
        action = BOT.act(state, seat)
        state.check(seat, action)
        before = sorted(state.hands[seat])
        state.apply(seat, action)
        assert all(c in before for c in action.cards)  # type: ignore[attr-defined]
    assert state.phase == "declaring"


def test_smallest_bot_plays_the_lowest_beat() -> None:
    state = _after_lead({2: "5s 9s", 3: "6h 8h Th", 0: "7s", 1: "2s"}, "5s")
    assert SmallestBot(state.game, 0).act(state, 3) == Play(parse_cards("6h"))
    assert SmallestBot(state.game, 0).act(state, 3) != Decline()


def test_terminal_groups_and_input() -> None:
    """27 cards grouped by rank with counts; sequences shown low to high; ranks typed."""
    hand = parse_cards("RJ RJ 3s 3h 3c 2s As Kd Kh 4s")
    assert rank_groups(hand).replace("[red]", "").replace("[/red]", "") == "大王×2 3×3 2 A K×2 4"
    assert play_groups(parse_cards("As 2h 3c")) == "A 2 3"
    assert play_groups(parse_cards("Qs Ks As")) == "Q K A"
    assert cards_by_ranks(hand, "33") == parse_cards("3s 3h")
    assert cards_by_ranks(hand, "大王 K") == parse_cards("RJ Kh")
    assert cards_by_ranks(parse_cards("Ts Th"), "10 10") == parse_cards("Ts Th")


def test_terminal_shows_the_partner_and_the_tribute() -> None:
    console = Console(record=True, width=200)
    state = new_deal(context=later([1, 0, 3, 2], declarer=1))
    DanziTable(state.game, console).show(state, 0)
    text = console.export_text()
    assert "对家(3号位)（明牌）" in text and "进贡（4/2）" in text  # seats counted from 1
    assert "×" in text and "比分 我方" in text


def test_terminal_in_english_with_paiju_lang_en(monkeypatch: pytest.MonkeyPatch) -> None:
    """PAIJU_LANG=en: the same table in English, one language a line; only the game's own
    words (大王/小王, 明牌, 进贡, 宣战, the kinds' names) keep their Chinese."""
    monkeypatch.setenv("PAIJU_LANG", "en")
    console = Console(record=True, width=200)
    state = new_deal(context=later([1, 0, 3, 2], declarer=1))
    DanziTable(state.game, console).show(state, 0)
    text = console.export_text()
    assert "partner (seat 3), open hand (明牌)" in text and "tribute (进贡, 4/2)" in text
    assert "score us" in text and "phase" not in text
    kept = re.compile(r"大王|小王|明牌|进贡|宣战|还贡|骚贡|取牌")
    for line in text.splitlines():
        assert not re.search(r"[\u4e00-\u9fff]", kept.sub("", line)), line


def test_the_terminal_counts_deals_in_a_match() -> None:
    """N61 "每盘胜负玩家会获得相应的分数，一方总分达到30分及以上就可结束一局游戏": a deal is a
    盘 and
    the match to 30 a 局: the terminal titles "第 1 局 · 第 2 盘", settles 本盘, asks 再来一盘？
    between deals, and never calls a deal a 局."""
    from click.testing import CliRunner

    from paiju.cli import cli

    result = CliRunner().invoke(
        cli, ["play", "ningcheng-danzi", "--seed", "words", "--hands", "2"], input="\n" * 3000
    )
    out = result.output
    assert "第 1 局 · 第 1 盘" in out and "第 1 局 · 第 2 盘" in out
    assert "本盘结算" in out and "本局结算" not in out and "第 2 局" not in out
    asked = CliRunner().invoke(
        cli, ["play", "ningcheng-danzi", "--seed", "words"], input="\n" * 1500 + "n\n" * 50
    )
    assert "再来一盘？" in asked.output and "再来一局？" not in asked.output.split("总结算")[0]
