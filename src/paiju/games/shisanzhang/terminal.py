"""The 十三张 table for ``paiju play``: your hand, the solver's suggestions, the showdown.

You see your 13 cards sorted, the solver's best arrangements (推荐摆法) numbered with their
expected score per opponent, and your special hand if you hold one. Answer with a number
(one keystroke) to take a suggestion, ``d`` to declare your special (报到/免摆), or type an
arrangement ``front / middle / back`` (e.g. ``Ah Ad 3c / 5s 6s 7s 8s 9s / Kd Kh Ks 2c 2d``).
When every seat has acted the showdown is shown row by row with the settlement.

It speaks Chinese, or English with ``PAIJU_LANG=en`` (:func:`paiju.reasons.terminal_lang`),
one language at a time; seats are counted from 1 as the players count them (1号位).
"""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console
from rich.table import Table

from paiju.cards import Card, format_cards, parse_cards
from paiju.engine import Action, Game, State
from paiju.errors import IllegalAction, PaijuError
from paiju.games.shisanzhang.game import (
    Arrange,
    Bet,
    Declare,
    ShisanzhangGame,
    ShisanzhangState,
    sort_hand,
)
from paiju.prompt import ask as ask_line
from paiju.reasons import Lang, explain, say, seat_label, terminal_lang

__all__ = ["ShisanzhangTable", "format_showdown", "parse_arrangement"]


def parse_arrangement(text: str) -> Arrange:
    """An :class:`Arrange` from ``"front / middle / back"``; raises IllegalAction."""
    parts = text.split("/")
    if len(parts) != 3:
        raise IllegalAction(
            "type three rows separated by '/': front (3) / middle (5) / back (5)",
            reason="type_three_rows",
        )
    front, middle, back = (parse_cards(p) for p in parts)
    return Arrange(front, middle, back)


def _symbols(cards: tuple[Card, ...]) -> str:
    out = []
    for c in cards:
        colour = "red" if c.is_red else "bright_white"
        out.append(f"[{colour}]{c.symbol()}[/{colour}]")
    return " ".join(out)


def _hand_text(hand: dict[str, Any]) -> str:
    """A seat's cards at the showdown, drawn with suit symbols as the hand is (``A♠ 10♥``)."""

    def drawn(text: str) -> str:
        return " ".join(c.symbol() for c in parse_cards(text))

    if "declared" in hand:
        return f"{hand['declared']}: {drawn(hand['cards'])}"
    return " / ".join(drawn(hand[row]) for row in ("front", "middle", "back"))


CATEGORIES_EN: dict[str, str] = {
    "乌龙": "high card",
    "散牌": "high card",
    "对子": "pair",
    "两对": "two pairs",
    "三条": "three of a kind",
    "顺子": "straight",
    "同花": "flush",
    "葫芦": "full house",
    "炸弹": "four of a kind",
    "铁支": "four of a kind",
    "同花顺": "straight flush",
}
"""The row categories in English (the web client's ``cat.*`` texts)."""
SCORING: dict[str, tuple[str, str]] = {
    "majority": ("三墩两胜", "best of three rows"),
    "points": ("按分计", "points"),
    "payout": ("赔率", "payout"),
    "multiplier": ("倍数", "multiplier"),
    "back": ("只比尾墩", "back row only"),
}
"""The scorings by their names in both languages (the web client's ``ssz.scoring.*``)."""
ROWS: dict[str, tuple[str, str]] = {
    "front": ("头墩", "front"),
    "middle": ("中墩", "middle"),
    "back": ("尾墩", "back"),
}
BONUSES_EN: dict[str, str] = {
    "冲三": "冲三 (three of a kind in front)",
    "四梅": "四梅 (four of a kind)",
    "同花顺": "straight flush",
}
"""The row bonuses in English, their own names kept beside (as 打枪 (gun))."""
ROWS_EN: dict[str, str] = {zh: en for zh, en in ROWS.values()}
"""A row's English name by its Chinese one (the showdown names a bonus's row in Chinese)."""


def _category(name: str, lang: Lang) -> str:
    return name if lang == "zh" else CATEGORIES_EN.get(name, name)


def _hand_kind(hand: dict[str, Any], lang: Lang) -> str:
    if "declared" in hand:
        return str(hand["declared"])
    kind = " / ".join(_category(c, lang) for c in hand["categories"])
    return say(lang, f"倒水（{kind}）", f"foul 倒水 ({kind})") if hand["foul"] else kind


def _pair_text(pair: dict[str, Any], lang: Lang) -> str:
    a, b = (seat_label(s, lang) for s in pair["seats"])
    marks = {1: "+", -1: "-", 0: "=", None: "·"}
    if pair["decided_by"] == "special":
        how = say(lang, "特殊牌型", "special hand")
    else:
        how = say(lang, "三墩 ", "rows ") + " ".join(marks[r] for r in pair["rows"])
        if pair["decided_by"] == "foul":
            how += say(lang, "（倒水）", " (foul 倒水)")
    extra = []
    if pair["gun"] is not None:
        gun = seat_label(pair["gun"], lang)
        extra.append(say(lang, f"{gun}打枪", f"打枪 (gun) by {gun}"))
    for bonus in pair["bonuses"]:
        row = bonus["row"] if lang == "zh" else ROWS_EN.get(bonus["row"], bonus["row"]) + " "
        who = seat_label(bonus["seat"], lang)
        name = bonus["name"] if lang == "zh" else BONUSES_EN.get(bonus["name"], bonus["name"])
        extra.append(f"{who} {row}{name} +{bonus['points']}")
    sa, sb = pair["scores"]
    tail = f" [{'; '.join(extra)}]" if extra else ""
    score = f"{how} -> {sa:+d} / {sb:+d}{tail}"
    return say(lang, f"{a} 对 {b}：{score}", f"{a} vs {b}: {score}")


def format_showdown(console: Console, result: dict[str, Any], lang: Lang | None = None) -> None:
    """Print a showdown result as a table (one row per seat, counted from 1), then the
    pairs; in Chinese, or English with ``PAIJU_LANG=en``."""
    lang = terminal_lang() if lang is None else lang
    code = result.get("code", "")
    scoring = result["scoring"]
    how = say(lang, *SCORING[scoring]) if scoring in SCORING else scoring
    title = say(lang, f"{code} 比牌（{how}）", f"{code} showdown ({how})")
    if result.get("banker") is not None:
        banker = seat_label(result["banker"], lang)
        title += say(lang, f"，庄家 {banker}", f", banker {banker}")
    table = Table(title=title)
    columns = [("座位", "seat"), ("三墩", "hand"), ("牌型", "shape"), ("得分", "score")]
    for i, column in enumerate(columns):
        table.add_column(say(lang, *column), justify="right" if i in (0, 3) else "left")
    for seat, (hand, score) in enumerate(zip(result["hands"], result["scores"], strict=True)):
        table.add_row(str(seat + 1), _hand_text(hand), _hand_kind(hand, lang), f"{score:+d}")
    console.print(table)
    for pair in result["pairs"]:
        console.print(_pair_text(pair, lang))
    for seat in result.get("homeruns", []):
        who = seat_label(seat, lang)
        console.print(say(lang, f"全垒打：{who}", f"全垒打 (home run): {who}"))


class ShisanzhangTable:
    """Terminal table of one human seat (Rich)."""

    def __init__(self, game: Game, console: Console) -> None:
        if not isinstance(game, ShisanzhangGame):
            raise IllegalAction(
                f"the 十三张 table cannot show {game.variant.code}",
                reason="cannot_arrange",
                code=game.variant.code,
            )
        self.game = game
        self.console = console
        self.suggestions: list[Arrange] = []
        self.lang: Lang = terminal_lang()

    def say(self, zh: str, en: str) -> str:
        return say(self.lang, zh, en)

    def _suggest(self, state: ShisanzhangState, seat: int) -> Table | None:
        from paiju.games.shisanzhang.solver import solve

        self.suggestions = []
        if state.forced[seat] or state.acted[seat] is not None:
            return None
        found = solve(
            state.hands[seat],
            self.game.params,
            scoring=self.game.scoring,
            banker=state.banker == seat,
            alternatives=4,
        )
        table = Table(title=self.say("推荐摆法", "suggested arrangements"))
        columns = [
            ("#", "#"),
            ROWS["front"],
            ROWS["middle"],
            ROWS["back"],
            ("期望得分", "expected"),
        ]
        for column in columns:
            table.add_column(self.say(*column))
        for i, a in enumerate(found, 1):
            self.suggestions.append(Arrange(a.front, a.middle, a.back))
            table.add_row(
                str(i), _symbols(a.front), _symbols(a.middle), _symbols(a.back), f"{a.score:+.2f}"
            )
        return table

    def show(self, state: State, seat: int) -> None:
        assert isinstance(state, ShisanzhangState)
        if state.result is not None:
            format_showdown(
                self.console,
                {"code": self.game.variant.code, **state.result.to_json()},
                self.lang,
            )
            return
        say = self.say
        view = state.view(seat)
        name = self.game.variant.name_zh if self.lang == "zh" else self.game.variant.name_en
        who = seat_label(seat, self.lang)
        if state.banker is not None:
            banker = seat_label(state.banker, self.lang)
            who += (
                say("（庄家）", " (banker)")
                if state.banker == seat
                else say(f"，庄家 {banker}", f", banker {banker}")
            )
        done, waiting = say("已摆好", "ready"), say("在摆", "arranging")
        ready = say("，", ", ").join(
            f"{seat_label(s, self.lang)} {done if r else waiting}"
            for s, r in enumerate(view["ready"])
            if s != seat
        )
        scoring = self.game.scoring
        how = say(*SCORING[scoring]) if scoring in SCORING else scoring
        stake = view["stake"]
        self.console.print(
            say(
                f"[bold]{name}[/bold] · [bold]{who}[/bold] · {how} · 底注 {stake} · 其他：{ready}",
                f"[bold]{name}[/bold] · [bold]{who}[/bold] · {how} · stake {stake}"
                f" · others: {ready}",
            )
        )
        hand = _symbols(sort_hand(state.hands[seat]))
        self.console.print(say(f"你的牌：{hand}", f"your hand: {hand}"))
        special = state.specials[seat]
        if special is not None:
            sp = f"[bold yellow]{special.name_zh}[/bold yellow]"
            if state.forced[seat]:
                line = say(f"特殊牌型：{sp}（免摆，直接亮牌）", f"special hand: {sp} (you show it)")
            else:
                line = say(
                    f"特殊牌型：{sp}（按 d 报到）", f"special hand: {sp} ([d] to declare it)"
                )
            self.console.print(line)
        if "bets" in view:
            bets = say("，", ", ").join(
                f"{seat_label(s, self.lang)} {'…' if b is None else b}"
                for s, b in enumerate(view["bets"])
                if s != state.banker
            )
            self.console.print(say(f"下注：{bets}", f"bets: {bets}"))
        table = self._suggest(state, seat)
        if table is not None:
            self.console.print(table)

    def _ask_bet(self, state: ShisanzhangState, seat: int) -> Action:
        choices = self.game.params.bets
        while True:
            options = "/".join(map(str, choices))
            answer = ask_line(
                self.say(f"向庄家下注（{options}）", f"your bet against the banker ({options})")
            )
            try:
                action = Bet(int(answer.strip()))
                state.check(seat, action)
            except PaijuError as exc:
                self.console.print(f"[red]{explain(exc, self.lang)}[/red]")
            except ValueError:
                self.console.print(
                    f"[red]{self.say(f'下注写一个数：{options}', f'bet a number: {options}')}[/red]"
                )
                continue
            return action

    def ask(self, state: State, seat: int) -> Action:
        assert isinstance(state, ShisanzhangState)
        if state.betting:
            return self._ask_bet(state, seat)
        if state.forced[seat]:
            ask_line(
                self.say("按回车亮牌", "press Enter to show your hand"),
                default="",
                show_default=False,
            )
            return Declare()
        if not self.suggestions:
            self._suggest(state, seat)
        n = len(self.suggestions)
        special = bool(state.specials[seat])
        hint = self.say(
            f"1-{n} 选推荐" + ("，d 报到" if special else "") + "，或输入 头墩 / 中墩 / 尾墩",
            f"1-{n} for a suggestion"
            + (", d to declare" if special else "")
            + ", or 'front / middle / back'",
        )
        while True:
            answer = ask_line(self.say(f"摆牌（{hint}）", f"your arrangement ({hint})"))
            answer = answer.strip()
            try:
                if answer.isdigit() and 1 <= int(answer) <= n:
                    action: Action = self.suggestions[int(answer) - 1]
                elif answer.lower() in ("d", "declare", "报到"):
                    action = Declare()
                else:
                    action = parse_arrangement(answer)
                state.check(seat, action)
            except PaijuError as exc:
                self.console.print(f"[red]{explain(exc, self.lang)}[/red]")
                continue
            if isinstance(action, Arrange):
                if not self._fouls_confirmed(state, seat, action):
                    continue
                rows = " / ".join(
                    format_cards(r) for r in (action.front, action.middle, action.back)
                )
                self.console.print(self.say(f"你摆的是：{rows}", f"you arrange: {rows}"))
            return action

    def _fouls_confirmed(self, state: ShisanzhangState, seat: int, action: Arrange) -> bool:
        """倒水 asks first: a fouled arrangement loses all three rows to every hand that did
        not foul, so it is played only after a yes (the end of the input is a no)."""
        preview = state.preview(seat, action)
        if not preview or not preview.get("foul"):
            return True
        shapes = " / ".join(_category(c, self.lang) for c in preview.get("categories") or ())
        self.console.print(
            self.say(
                f"[bold red]倒水[/bold red]：{shapes}——三墩全输给每一家没倒水的人，还算被打枪",
                f"[bold red]foul (倒水)[/bold red]: {shapes} — you lose all three rows to every "
                "hand that did not foul (打枪)",
            )
        )
        try:
            return click.confirm(self.say("倒水也出？", "Play the foul anyway?"), default=False)
        except click.Abort:
            return False
