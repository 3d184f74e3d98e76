"""The 十三张 table for ``paiju play``: your hand, the solver's suggestions, the showdown.

You see your 13 cards sorted, the solver's best arrangements (推荐摆法) numbered with their
expected score per opponent, and your special hand if you hold one. Answer with a number
(one keystroke) to take a suggestion, ``d`` to declare your special (报到/免摆), or type an
arrangement ``front / middle / back`` (e.g. ``Ah Ad 3c / 5s 6s 7s 8s 9s / Kd Kh Ks 2c 2d``).
When every seat has acted the showdown is shown row by row with the settlement.
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
from paiju.reasons import explain

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
    if "declared" in hand:
        return f"{hand['declared']}: {hand['cards']}"
    return f"{hand['front']} / {hand['middle']} / {hand['back']}"


def _hand_kind(hand: dict[str, Any]) -> str:
    if "declared" in hand:
        return str(hand["declared"])
    kind = " / ".join(hand["categories"])
    return f"倒水 ({kind})" if hand["foul"] else kind


def _pair_text(pair: dict[str, Any]) -> str:
    a, b = pair["seats"]
    marks = {1: "+", -1: "-", 0: "=", None: "·"}
    if pair["decided_by"] == "special":
        how = "special hand"
    else:
        how = "rows " + " ".join(marks[r] for r in pair["rows"])
        if pair["decided_by"] == "foul":
            how += " (倒水)"
    extra = []
    if pair["gun"] is not None:
        extra.append(f"打枪 by seat {pair['gun']}")
    for bonus in pair["bonuses"]:
        extra.append(f"{bonus['name']} {bonus['row']} seat {bonus['seat']} +{bonus['points']}")
    sa, sb = pair["scores"]
    tail = f" [{'; '.join(extra)}]" if extra else ""
    return f"seat {a} vs seat {b}: {how} -> {sa:+d} / {sb:+d}{tail}"


def format_showdown(console: Console, result: dict[str, Any]) -> None:
    """Print a showdown result as a table (one row per seat), then the pairs."""
    title = f"{result.get('code', '')} showdown — {result['scoring']} scoring"
    if result.get("banker") is not None:
        title += f", banker seat {result['banker']}"
    table = Table(title=title)
    for column in ("seat", "hand", "shape", "score"):
        table.add_column(column, justify="right" if column in ("seat", "score") else "left")
    for seat, (hand, score) in enumerate(zip(result["hands"], result["scores"], strict=True)):
        table.add_row(str(seat), _hand_text(hand), _hand_kind(hand), f"{score:+d}")
    console.print(table)
    for pair in result["pairs"]:
        console.print(_pair_text(pair))
    for seat in result.get("homeruns", []):
        console.print(f"全垒打: seat {seat}")


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
        table = Table(title="推荐摆法 (solver suggestions)")
        for column in ("#", "头墩 front", "中墩 middle", "尾墩 back", "expected"):
            table.add_column(column)
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
                self.console, {"code": self.game.variant.code, **state.result.to_json()}
            )
            return
        view = state.view(seat)
        who = f"seat {seat}"
        if state.banker is not None:
            who += " (庄家 banker)" if state.banker == seat else f", banker seat {state.banker}"
        ready = ", ".join(
            f"{s}:{'ready' if r else '…'}" for s, r in enumerate(view["ready"]) if s != seat
        )
        self.console.print(
            f"[bold]{who}[/bold] — {self.game.scoring} scoring, stake {view['stake']}; "
            f"others {ready}"
        )
        self.console.print("your hand: " + _symbols(sort_hand(state.hands[seat])))
        special = state.specials[seat]
        if special is not None:
            must = " — 免摆/不摆牌: you show it" if state.forced[seat] else " — [d] to declare it"
            self.console.print(f"special hand: [bold yellow]{special.name_zh}[/bold yellow]{must}")
        if "bets" in view:
            bets = ", ".join(
                f"{s}:{'…' if b is None else b}"
                for s, b in enumerate(view["bets"])
                if s != state.banker
            )
            self.console.print(f"bets (下注): {bets}")
        table = self._suggest(state, seat)
        if table is not None:
            self.console.print(table)

    def _ask_bet(self, state: ShisanzhangState, seat: int) -> Action:
        choices = self.game.params.bets
        while True:
            answer = click.prompt(
                f"your bet against the banker (下注: {'/'.join(map(str, choices))})"
            )
            try:
                action = Bet(int(answer.strip()))
                state.check(seat, action)
            except PaijuError as exc:
                self.console.print(f"[red]{explain(exc)}[/red]")
            except ValueError as exc:
                self.console.print(f"[red]{exc}[/red]")
                continue
            return action

    def ask(self, state: State, seat: int) -> Action:
        assert isinstance(state, ShisanzhangState)
        if state.betting:
            return self._ask_bet(state, seat)
        if state.forced[seat]:
            click.prompt("press Enter to show your hand", default="", show_default=False)
            return Declare()
        if not self.suggestions:
            self._suggest(state, seat)
        n = len(self.suggestions)
        hint = f"1-{n} for a suggestion" + (", d to declare" if state.specials[seat] else "")
        while True:
            answer = click.prompt(f"your arrangement ({hint}, or 'front / middle / back')")
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
                self.console.print(f"[red]{explain(exc)}[/red]")
                continue
            if isinstance(action, Arrange):
                if not self._fouls_confirmed(state, seat, action):
                    continue
                rows = " / ".join(
                    format_cards(r) for r in (action.front, action.middle, action.back)
                )
                self.console.print(f"you arrange: {rows}")
            return action

    def _fouls_confirmed(self, state: ShisanzhangState, seat: int, action: Arrange) -> bool:
        """倒水 asks first: a fouled arrangement loses all three rows to every hand that did
        not foul, so it is played only after a yes (the end of the input is a no)."""
        preview = state.preview(seat, action)
        if not preview or not preview.get("foul"):
            return True
        shapes = " / ".join(preview.get("categories") or ())
        self.console.print(
            f"[bold red]倒水 (foul)[/bold red]: {shapes} — you lose all three rows to every "
            "hand that did not foul (打枪)"
        )
        try:
            return click.confirm("倒水也出？ play the foul anyway?", default=False)
        except click.Abort:
            return False
