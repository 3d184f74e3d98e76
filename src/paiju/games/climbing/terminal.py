"""The climbing family's terminal table for ``paiju play anshan-jiayibing`` / ``anshan-fangyang``.

It shows, in Chinese (or English with ``PAIJU_LANG=en``, one language at a time): the seats
(你, 下家 …, counted from 1, teams as known, card counts, finishing places 头游 二游 …), the
table's play and who made it, this trick's plays and passes, the call (放羊: the called
card, 亮 or 不亮, the sides once known), and the hand sorted by the game's order with suit
symbols. The human types cards (``7h 7s``, ``♥7 ♠7``), ``p`` / ``过`` to pass, a choice
number, or enter for the suggestion; refusals are shown in the same language.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console

from paiju.cards import Card, parse_cards
from paiju.engine import Action, Event, Game, State
from paiju.errors import IllegalAction, PaijuError
from paiju.games.climbing.bot import ClimbingBot
from paiju.games.climbing.core import PLACE_ZH, ClimbingState, Pass, Play, as_cards
from paiju.prompt import ask as ask_line
from paiju.reasons import Lang, explain, phase_name, say, seat_label, terminal_lang

__all__ = ["ClimbingTable", "show_card", "show_cards"]

SUIT_ZH = {"s": "♠黑桃", "h": "♥红桃", "c": "♣梅花", "d": "♦方块"}
SUIT_EN = {"s": "♠", "h": "♥", "c": "♣", "d": "♦"}
MODE_ZH = {"2v2": "2对2", "1v3": "1对3"}
MODE_EN = {"2v2": "2 against 2", "1v3": "1 against 3"}
PLACE_EN = ("1st out", "2nd out", "3rd out", "4th out", "5th out", "6th out", "7th out", "8th out")


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
        self.lang: Lang = terminal_lang()

    def say(self, zh: str, en: str) -> str:
        return say(self.lang, zh, en)

    def place(self, place: int) -> str:
        """A finishing place (1 = 头游)."""
        return self.say(PLACE_ZH[place - 1], PLACE_EN[place - 1])

    def kind(self, state: ClimbingState, kind: str) -> str:
        """A combination's kind: its Chinese name, or its English one with PAIJU_LANG=en."""
        zh = state.rules.kind_zh.get(kind, kind)
        return zh if self.lang == "zh" else state.rules.kind_en.get(kind, zh)

    def suit(self, suit: str) -> str:
        return self.say(SUIT_ZH[suit], SUIT_EN[suit])

    # -- showing ----------------------------------------------------------------------

    def who(self, state: ClimbingState, seat: int, me: int) -> str:
        """你, 下家(2号位), 上家(4号位), 3号位 (or you, next (seat 2) …), counted from 1."""
        if seat == me:
            return self.say("你", "you")
        rel = (seat - me) % state.seats
        label = seat_label(seat, self.lang)
        if rel == 1:
            return self.say(f"下家({label})", f"next ({label})")
        if rel == state.seats - 1:
            return self.say(f"上家({label})", f"previous ({label})")
        return label

    def team_label(self, state: ClimbingState, seat: int, me: int) -> str:
        teams = state.teams_known_to(me)
        if teams[seat] is None or teams[me] is None:
            return "?"
        if state.game.family == "fangyang":
            return (
                self.say("庄家方", "banker's")
                if teams[seat] == 0
                else self.say("闲家方", "others'")
            )
        if seat == me:
            return self.say("本方", "us")
        return (
            self.say("队友", "partner")
            if teams[seat] == teams[me]
            else self.say("对手", "opponent")
        )

    def show(self, state: State, seat: int) -> None:
        assert isinstance(state, ClimbingState)
        p = self.console.print
        view = state.view(seat)
        tell = self.say
        variant = state.game.variant
        name = variant.name_zh if self.lang == "zh" else variant.name_en
        phase, base = self.phase_zh(state), view["options"]["base"]
        p(
            tell(
                f"[bold]{name}[/bold]  阶段 {phase} · 基础分 {base}",
                f"[bold]{name}[/bold]  {phase} · base {base}",
            )
        )
        extra = self.extra_line(state, seat)
        if extra:
            p(f"  {extra}")
        places = state.places()
        for s in range(state.seats):
            place = places[s]
            n = len(state.hands[s])
            status = (
                f"[green]{self.place(place)}[/green]" if place else tell(f"{n}张", f"{n} cards")
            )
            turn = (
                tell(" ← 出牌", " ← to play") if s == state.turn and state.phase != "over" else ""
            )
            label = self.team_label(state, s, seat)
            p(f"  {self.who(state, s, seat):<9} {label:<4} {status}{turn}")
        if state.table is not None and state.table_seat is not None:
            kind = self.kind(state, state.table.kind)
            owner, cards = self.who(state, state.table_seat, seat), show_cards(state.table.cards)
            p(tell(f"  桌面: {owner} 出的 {kind} {cards}", f"  table: {kind} {cards} by {owner}"))
        else:
            p(tell("  桌面: 空(首出,可出任何牌型)", "  table: empty (a free lead: any kind)"))
        if state.trick:
            parts = [
                f"{self.who(state, s, seat)} {tell('过', 'pass') if cs is None else show_cards(cs)}"
                for s, cs in state.trick
            ]
            p(tell(f"  本轮: {' | '.join(parts)}", f"  this trick: {' | '.join(parts)}"))
        if state.jiefeng_from is not None:
            out, lead = (
                self.who(state, state.jiefeng_from, seat),
                self.who(state, state.leader, seat),
            )
            p(
                tell(
                    f"  接风: {out} 出完,由 {lead} 接风出牌",
                    f"  接风: {out} went out, {lead} leads",
                )
            )
        n, hand = len(state.hands[seat]), show_cards(state.hands[seat])
        p(tell(f"  你的牌 ({n}张): {hand}", f"  your hand ({n} cards): {hand}"))
        if state.phase == "over":
            self.show_result(state, seat)

    def phase_zh(self, state: ClimbingState) -> str:
        """The phase's name in the table's language (叫牌, 出牌, 结束 …)."""
        return phase_name(state.phase, self.lang)

    def extra_line(self, state: ClimbingState, seat: int) -> str:
        view = state.view(seat)
        special = view.get("special3")
        tell = self.say
        if special:
            suit, copy = self.suit(special["suit"]), special["copy"]
            holder = self.who(state, special["holder"], seat)
            return tell(
                f"特殊3: {suit}3(第{copy}副),{holder} 先出",
                f"special 3: {suit}3 (deck {copy}), {holder} leads first",
            )
        if "banker" in view:
            called = view.get("called")
            text = tell("庄家: ", "banker: ") + self.who(state, view["banker"], seat)
            if called:
                text += (
                    tell(" · 叫牌: ", " · called: ")
                    + f"{self.suit(called['suit'])}{called['rank']}"
                )
                text += (
                    tell(" · 亮", " · shown (亮)")
                    if view["shown"]
                    else tell(" · 不亮", " · not shown")
                )
            if view.get("mode"):
                text += " · " + tell(MODE_ZH[view["mode"]], MODE_EN[view["mode"]])
            if view.get("partner") is not None:
                text += tell(" · 同伙: ", " · partner: ") + self.who(state, view["partner"], seat)
            return text
        return ""

    def show_result(self, state: ClimbingState, seat: int) -> None:
        result = state.view(seat)["result"]
        tell = self.say
        word = tell("和局", "a draw") if result["result"] == "draw" else tell("分出胜负", "decided")
        order = " ".join(self.who(state, s, seat) for s in state.finished)
        scores = result["settlement"]
        self.console.print(
            tell(
                f"  出完顺序: {order} · {word} · 得分 {scores}",
                f"  finishing order: {order} · {word} · scores {scores}",
            )
        )

    def event(self, state: State, seat: int, event: Event) -> None:
        """One line for what others did (plays, passes, finishes, 接风, the call)."""
        assert isinstance(state, ClimbingState)
        data = event.to_json()
        kind = data["type"]
        who = self.who(state, data["seat"], seat) if "seat" in data else ""
        tell, p = self.say, self.console.print
        if kind == "played":
            cards = show_cards(parse_cards(data["cards"]))
            p(tell(f"  {who} 出 {cards}", f"  {who} plays {cards}"))
        elif kind == "passed":
            p(tell(f"  {who} 过", f"  {who} passes"), style="dim")
        elif kind == "finished":
            place = self.place(data["place"])
            p(
                tell(
                    f"  [green]{who} 出完了:{place}[/green]",
                    f"  [green]{who} is out: {place}[/green]",
                )
            )
        elif kind == "lead" and data.get("jiefeng"):
            p(tell(f"  {who} 接风出牌", f"  {who} leads (接风)"))
        elif kind == "called":
            mark = tell("亮", "shown") if data["shown"] else tell("不亮", "not shown")
            card = f"{self.suit(data['suit'])}{data['rank']}"
            p(tell(f"  {who} 叫 {card}({mark})", f"  {who} calls {card} ({mark})"))
        elif kind == "sides_revealed":
            partner = self.who(state, data["partner"], seat)
            raw = str(data["mode"])
            mode = tell(MODE_ZH.get(raw, raw), MODE_EN.get(raw, raw))
            p(
                tell(
                    f"  [yellow]分伙明了: {partner} 与庄家一伙 ({mode})[/yellow]",
                    f"  [yellow]sides known: {partner} is with the banker ({mode})[/yellow]",
                )
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
            return self.say("过", "pass")
        if isinstance(action, Play):
            combo = state.rules.classify(action.cards)
            kind = self.kind(state, combo.kind) if combo else "?"
            return f"{kind} {show_cards(action.cards)}"
        data = action.to_json()
        if data["type"] == "call":
            card = f"{self.suit(data['suit'])}{data['rank']}"
            shown = self.say(" 亮", " shown") if data["shown"] else ""
            return self.say(f"叫 {card}{shown}", f"call {card}{shown}")
        return str(data)

    def ask(self, state: State, seat: int) -> Action:
        assert isinstance(state, ClimbingState)
        choices = self.choices(state, seat)
        hint = self.advisor.act(state, seat)
        tell = self.say
        if state.phase == "calling":
            self.console.print(
                tell(
                    "  叫一张 4 到 A 的牌,例如 'As' 或 '♠A';加 '亮' 表示亮出 (例如 'As 亮')",
                    "  call a card from 4 to A, e.g. 'As' or '♠A'; add '亮' to show it ('As 亮')",
                )
            )
        else:
            for i, action in enumerate(choices[:30]):
                self.console.print(f"  [{i}] {self.describe(state, action)}")
        advised = self.describe(state, hint)
        self.console.print(
            tell(
                f"  (建议: {advised};直接回车采用)",
                f"  (suggestion: {advised}; press enter to take it)",
            )
        )
        question = tell(
            "出牌 (牌如 7h 7s、序号、p 过)", "play (cards like 7h 7s, a number, p to pass)"
        )
        while True:
            answer = ask_line(question, default="", show_default=False)
            try:
                action = self.parse(state, answer.strip(), choices, hint)
                state.check(seat, action)
                return action
            except IllegalAction as exc:
                why = explain(exc, self.lang)
                self.console.print(f"[red]{tell(f'不行: {why}', f'Not allowed: {why}')}[/red]")
            except PaijuError as exc:
                why = explain(exc, self.lang)
                self.console.print(
                    f"[red]{tell(f'看不懂: {why}', f'Cannot read that: {why}')}[/red]"
                )
            except ValueError as exc:
                self.console.print(
                    f"[red]{tell(f'看不懂: {exc}', f'Cannot read that: {exc}')}[/red]"
                )

    def parse(
        self, state: ClimbingState, answer: str, choices: list[Action], hint: Action
    ) -> Action:
        if not answer:
            return hint
        if answer.isdigit() and state.phase != "calling":
            number = int(answer)
            if 0 <= number < len(choices):
                return choices[number]
            last = len(choices) - 1
            raise ValueError(
                self.say(
                    f"没有第 {number} 项:请选 0-{last}",
                    f"{number} is not a choice: choose 0-{last}",
                )
            )
        if answer.lower() in ("p", "pass", "过", "不要"):
            return Pass()
        if state.phase == "calling":
            from paiju.games.climbing.fangyang import Call

            shown = "亮" in answer
            text = answer.replace("不亮", "").replace("亮", "").strip()
            cards = parse_cards(text)
            if len(cards) != 1:
                raise ValueError(self.say("请叫一张牌", "call one card"))
            return Call.of(cards[0], shown)
        return Play(as_cards(parse_cards(answer)))
