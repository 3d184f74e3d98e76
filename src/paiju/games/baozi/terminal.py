"""The terminal table of 宝子 and 佳佳宝 for ``paiju play CODE``.

It shows the table (banker, bets, the deal, each hand once it may be seen, the comparison
with the banker and the settlement) and asks for a bet (下注) or, in 佳佳宝, a grouping
(分组: a number from the list, or the two groups as ``As Kd / 5c 5h``).
"""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from paiju.cards import parse_cards
from paiju.engine import Action, Game, State
from paiju.errors import PaijuError
from paiju.games.baozi.game import BaoziState, Bet, Group, JiajiabaoState
from paiju.reasons import explain

__all__ = ["BaoziTable"]

_DEALING = {
    "one_at_a_time": "单张发 one card at a time",
    "two_at_once": "2张发 two cards at once",
    "four_at_once": "4连发 four cards at once",
}
_RESULT = {"player": "闲赢 win", "banker": "庄赢 loss", "push": "和 push"}


class BaoziTable:
    """Rich output of a 宝子 / 佳佳宝 hand and prompts for the human seat."""

    def __init__(self, game: Game, console: Console) -> None:
        self.game = game
        self.console = console

    def show(self, state: State, seat: int) -> None:
        assert isinstance(state, BaoziState)
        view = state.view(seat)
        c = self.console
        c.print(
            f"banker 庄家: seat {view['banker']}   dealing 发牌: {_DEALING[view['dealing']]}   "
            f"bets 下注 {view['min_bet']}-{view['max_bet']}   phase: {view['phase']}"
        )
        results = {r["seat"]: r for r in view.get("results", [])}
        table = Table()
        for name in ("seat", "role", "bet", "cards", "hand", "result", "delta"):
            table.add_column(name, justify="right" if name in ("bet", "delta") else "left")
        for s in view["seats"]:
            who = f"{s['seat']}" + (" (you)" if s["seat"] == seat else "")
            role = "庄 banker" if s["role"] == "banker" else "闲 player"
            cards = s.get("groups") or s["cards"] or ("(grouped)" if s.get("grouped") else "??")
            res = results.get(s["seat"])
            outcome = ""
            if res is not None:
                outcome = _RESULT[res["winner"]]
                if res["groups"]:
                    outcome += " (" + " ".join(_RESULT[g].split()[0] for g in res["groups"]) + ")"
            delta = ""
            if "settlement" in view:
                delta = f"{view['settlement'][s['seat']]:+d}"
            table.add_row(
                who,
                role,
                "" if s["bet"] is None else str(s["bet"]),
                cards,
                s.get("reading", ""),
                outcome,
                delta,
            )
        c.print(table)

    def ask(self, state: State, seat: int) -> Action:
        assert isinstance(state, BaoziState)
        if state.phase == "betting":
            low, high = state.game.options["min_bet"], state.game.options["max_bet"]
            while True:
                amount = click.prompt(f"your bet 下注 ({low}-{high})", type=int, default=low)
                bet = Bet(amount)
                try:
                    state.check(seat, bet)
                    return bet
                except PaijuError as exc:
                    self.console.print(f"[red]{explain(exc)}[/red]")
        assert isinstance(state, JiajiabaoState)
        legal = list(state.legal_actions(seat) or [])
        self._list_groupings(state, seat, legal)
        while True:
            answer = click.prompt("your groups 分组 (a number, or 'As Kd / 5c 5h')", type=str)
            try:
                if answer.strip().isdigit() and int(answer) < len(legal):
                    return legal[int(answer)]
                first, _, second = answer.partition("/")
                action = Group(parse_cards(first), parse_cards(second))
                state.check(seat, action)
                return action
            except PaijuError as exc:
                self.console.print(f"[red]{explain(exc)}[/red]")

    def _list_groupings(self, state: JiajiabaoState, seat: int, legal: list[Action]) -> None:
        from paiju.games.baozi.solver import solver

        s = solver(state.game.variant)
        scores = s.scores(state.hands[seat], "banker" if seat == state.banker else "player")
        expected = {(s.front, s.back): float(s.expected) for s in scores}
        ev = state.game.evaluator
        for i, action in enumerate(legal):
            assert isinstance(action, Group)
            front, back = ev.read(action.first), ev.read(action.second)
            hint = expected.get((front.cards, back.cards))
            self.console.print(
                f"  [{i}] {' '.join(map(str, action.first))} / {' '.join(map(str, action.second))}"
                f"   前 {front.name}, 后 {back.name}"
                + ("" if hint is None else f"   solver expects {hint:+.3f}")
            )
