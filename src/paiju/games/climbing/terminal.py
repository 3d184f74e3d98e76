"""The climbing family's terminal table for ``paiju play anshan-jiayibing`` / ``anshan-fangyang``.

It shows, in Chinese: the seats (你, 下家 …, teams as known, card counts, finishing places
头游 二游 …), the table's play and who made it, this trick's plays and passes, the call
(放羊: the called card, 亮 or 不亮, the sides once known), and the hand sorted by the game's
order with suit symbols. The human types cards (``7h 7s``, ``♥7 ♠7``), ``p`` / ``过`` to
pass, a choice number, or enter for the suggestion; refusals are shown in Chinese.
"""

from __future__ import annotations

from collections.abc import Sequence

import click
from rich.console import Console

from paiju.cards import Card, parse_cards
from paiju.engine import Action, Event, Game, State
from paiju.errors import IllegalAction, PaijuError
from paiju.games.climbing.bot import ClimbingBot
from paiju.games.climbing.core import PLACE_ZH, ClimbingState, Pass, Play, as_cards
from paiju.games.climbing.messages import render

__all__ = ["ClimbingTable", "show_card", "show_cards"]

SUIT_ZH = {"s": "♠黑桃", "h": "♥红桃", "c": "♣梅花", "d": "♦方块"}
MODE_ZH = {"2v2": "2对2", "1v3": "1对3"}


def show_card(card: int) -> str:
    """A card with its suit symbol (``7♥``, ``大王``), red suits in red (Rich markup)."""
    c = Card(card)
    text = c.zh() if c.is_joker else c.symbol()
    return f"[red]{text}[/red]" if c.is_red else text


def show_cards(cards: Sequence[int]) -> str:
    return " ".join(show_card(c) for c in cards) or "—"


class ClimbingTable:
    """The terminal table of one human seat (``cls(game, console)``)."""

    def __init__(self, game: Game, console: Console) -> None:
        self.game = game
        self.console = console
        self.advisor = ClimbingBot(game, 0)

    # -- showing ----------------------------------------------------------------------

    def who(self, state: ClimbingState, seat: int, me: int) -> str:
        if seat == me:
            return "你"
        rel = (seat - me) % state.seats
        if rel == 1:
            return f"下家({seat}号)"
        if rel == state.seats - 1:
            return f"上家({seat}号)"
        return f"{seat}号"

    def team_label(self, state: ClimbingState, seat: int, me: int) -> str:
        teams = state.teams_known_to(me)
        if teams[seat] is None or teams[me] is None:
            return "?"
        if state.game.family == "fangyang":
            return "庄家方" if teams[seat] == 0 else "闲家方"
        return (
            "队友"
            if teams[seat] == teams[me] and seat != me
            else ("本方" if seat == me else "对手")
        )

    def show(self, state: State, seat: int) -> None:
        assert isinstance(state, ClimbingState)
        p = self.console.print
        view = state.view(seat)
        name = state.game.variant.name_zh
        p(f"[bold]{name}[/bold]  阶段 {self.phase_zh(state)} · 基础分 {view['options']['base']}")
        extra = self.extra_line(state, seat)
        if extra:
            p(f"  {extra}")
        places = state.places()
        for s in range(state.seats):
            place = places[s]
            status = (
                f"[green]{PLACE_ZH[place - 1]}[/green]" if place else f"{len(state.hands[s])}张"
            )
            turn = " ← 出牌" if s == state.turn and state.phase != "over" else ""
            label = self.team_label(state, s, seat)
            p(f"  {self.who(state, s, seat):<9} {label:<4} {status}{turn}")
        if state.table is not None and state.table_seat is not None:
            kind = state.rules.kind_zh[state.table.kind]
            p(
                f"  桌面: {self.who(state, state.table_seat, seat)} 出的 {kind} "
                f"{show_cards(state.table.cards)}"
            )
        else:
            p("  桌面: 空(首出,可出任何牌型)")
        if state.trick:
            parts = [
                f"{self.who(state, s, seat)} {'过' if cs is None else show_cards(cs)}"
                for s, cs in state.trick
            ]
            p(f"  本轮: {' | '.join(parts)}")
        if state.jiefeng_from is not None:
            p(
                f"  接风: {self.who(state, state.jiefeng_from, seat)} 出完,由 "
                f"{self.who(state, state.leader, seat)} 接风出牌"
            )
        p(f"  你的牌 ({len(state.hands[seat])}张): {show_cards(state.hands[seat])}")
        if state.phase == "over":
            self.show_result(state, seat)

    def phase_zh(self, state: ClimbingState) -> str:
        return {"calling": "叫牌", "playing": "出牌", "over": "结束"}.get(state.phase, state.phase)

    def extra_line(self, state: ClimbingState, seat: int) -> str:
        view = state.view(seat)
        special = view.get("special3")
        if special:
            return (
                f"特殊3: {SUIT_ZH[special['suit']]}3(第{special['copy']}副),"
                f"{self.who(state, special['holder'], seat)} 先出"
            )
        if "banker" in view:
            called = view.get("called")
            text = f"庄家: {self.who(state, view['banker'], seat)}"
            if called:
                text += f" · 叫牌: {SUIT_ZH[called['suit']]}{called['rank']}"
                text += " · 亮" if view["shown"] else " · 不亮"
            if view.get("mode"):
                text += f" · {MODE_ZH[view['mode']]}"
            if view.get("partner") is not None:
                text += f" · 同伙: {self.who(state, view['partner'], seat)}"
            return text
        return ""

    def show_result(self, state: ClimbingState, seat: int) -> None:
        result = state.view(seat)["result"]
        word = "和局" if result["result"] == "draw" else "分出胜负"
        order = " ".join(self.who(state, s, seat) for s in state.finished)
        self.console.print(f"  出完顺序: {order} · {word} · 得分 {result['settlement']}")

    def event(self, state: State, seat: int, event: Event) -> None:
        """One line for what others did (plays, passes, finishes, 接风, the call)."""
        assert isinstance(state, ClimbingState)
        data = event.to_json()
        kind = data["type"]
        who = self.who(state, data["seat"], seat) if "seat" in data else ""
        if kind == "played":
            cards = parse_cards(data["cards"])
            self.console.print(f"  {who} 出 {show_cards(cards)}")
        elif kind == "passed":
            self.console.print(f"  {who} 过", style="dim")
        elif kind == "finished":
            self.console.print(f"  [green]{who} 出完了:{PLACE_ZH[data['place'] - 1]}[/green]")
        elif kind == "lead" and data.get("jiefeng"):
            self.console.print(f"  {who} 接风出牌")
        elif kind == "called":
            mark = "亮" if data["shown"] else "不亮"
            self.console.print(f"  {who} 叫 {SUIT_ZH[data['suit']]}{data['rank']}({mark})")
        elif kind == "sides_revealed":
            partner = self.who(state, data["partner"], seat)
            self.console.print(
                f"  [yellow]分伙明了: {partner} 与庄家一伙 ({data['mode']})[/yellow]"
            )

    # -- asking -----------------------------------------------------------------------

    def choices(self, state: ClimbingState, seat: int) -> list[Action]:
        legal = list(state.legal_actions(seat) or [])
        if state.phase == "calling":
            return [a for a in legal]
        plays = [a for a in legal if isinstance(a, Play)]
        seen: dict[tuple[int, int], Action] = {}
        for a in plays:
            combo = state.rules.classify(a.cards)
            assert combo is not None
            seen.setdefault((combo.rank, combo.length), a)  # one per rank and size
        options: list[Action] = list(seen.values())
        if any(isinstance(a, Pass) for a in legal):
            options.insert(0, Pass())
        return options

    def describe(self, state: ClimbingState, action: Action) -> str:
        if isinstance(action, Pass):
            return "过"
        if isinstance(action, Play):
            combo = state.rules.classify(action.cards)
            kind = state.rules.kind_zh[combo.kind] if combo else "?"
            return f"{kind} {show_cards(action.cards)}"
        data = action.to_json()
        if data["type"] == "call":
            return f"叫 {SUIT_ZH[data['suit']]}{data['rank']}{' 亮' if data['shown'] else ''}"
        return str(data)

    def ask(self, state: State, seat: int) -> Action:
        assert isinstance(state, ClimbingState)
        choices = self.choices(state, seat)
        hint = self.advisor.act(state, seat)
        if state.phase == "calling":
            self.console.print(
                "  叫一张 4 到 A 的牌,例如 'As' 或 '♠A';加 '亮' 表示亮出 (例如 'As 亮')"
            )
        else:
            for i, action in enumerate(choices[:30]):
                self.console.print(f"  [{i}] {self.describe(state, action)}")
        self.console.print(f"  (建议: {self.describe(state, hint)};直接回车采用)")
        while True:
            answer = click.prompt("出牌 (牌如 7h 7s、序号、p 过)", default="", show_default=False)
            try:
                action = self.parse(state, answer.strip(), choices, hint)
                state.check(seat, action)
                return action
            except IllegalAction as exc:
                self.console.print(f"[red]不行: {render(exc.reason, exc.params, str(exc))}[/red]")
            except (PaijuError, ValueError) as exc:
                self.console.print(f"[red]看不懂: {exc}[/red]")

    def parse(
        self, state: ClimbingState, answer: str, choices: list[Action], hint: Action
    ) -> Action:
        if not answer:
            return hint
        if answer.isdigit() and state.phase != "calling":
            number = int(answer)
            if 0 <= number < len(choices):
                return choices[number]
            raise ValueError(f"没有第 {number} 项:请选 0-{len(choices) - 1}")
        if answer.lower() in ("p", "pass", "过", "不要"):
            return Pass()
        if state.phase == "calling":
            from paiju.games.climbing.fangyang import Call

            shown = "亮" in answer
            text = answer.replace("不亮", "").replace("亮", "").strip()
            cards = parse_cards(text)
            if len(cards) != 1:
                raise ValueError("请叫一张牌")
            return Call.of(cards[0], shown)
        return Play(as_cards(parse_cards(answer)))
