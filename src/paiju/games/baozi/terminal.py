"""The terminal table of 宝子 and 佳佳宝 for ``paiju play CODE``.

It shows the table (banker, bets, the deal, each hand once it may be seen, the comparison
with the banker and the settlement) and asks for a bet (下注) or, in 佳佳宝, a grouping
(分组: a number from the list, or the two groups as ``As Kd / 5c 5h``).

It speaks Chinese, or English with ``PAIJU_LANG=en`` (:func:`paiju.reasons.terminal_lang`),
one language at a time; seats are counted from 1 (1号位) and cards drawn with suit symbols.
The readings (``7点``, ``对6``) are the game's own terms in both.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from paiju.cards import Card, parse_cards
from paiju.engine import Action, Game, State
from paiju.errors import PaijuError
from paiju.games.baozi.game import BaoziState, Bet, Group, JiajiabaoState
from paiju.prompt import ask as ask_line
from paiju.reasons import Lang, explain, phase_name, say, seat_label, terminal_lang

__all__ = ["BaoziTable"]

_DEALING: dict[str, tuple[str, str]] = {
    "one_at_a_time": ("单张发", "one card at a time"),
    "two_at_once": ("2张发", "two cards at once"),
    "four_at_once": ("4连发", "four cards at once"),
}
_RESULT: dict[str, tuple[str, str]] = {
    "player": ("闲赢", "win"),
    "banker": ("庄赢", "loss"),
    "push": ("和", "push"),
}


def _drawn(text: str) -> str:
    """Card text (``As Kd / 5c 5h``) with suit symbols (``A♠ K♦ / 5♣ 5♥``)."""
    return " ".join(
        tok if tok == "/" else Card(parse_cards(tok)[0]).symbol() for tok in text.split()
    )


class BaoziTable:
    """Rich output of a 宝子 / 佳佳宝 hand and prompts for the human seat."""

    def __init__(self, game: Game, console: Console) -> None:
        self.game = game
        self.console = console
        self.lang: Lang = terminal_lang()

    def say(self, zh: str, en: str) -> str:
        return say(self.lang, zh, en)

    def show(self, state: State, seat: int) -> None:
        assert isinstance(state, BaoziState)
        view = state.view(seat)
        c = self.console
        lang, tell = self.lang, self.say
        variant = self.game.variant
        name = variant.name_zh if lang == "zh" else variant.name_en
        banker = seat_label(view["banker"], lang, seat)
        dealing = say(lang, *_DEALING[view["dealing"]])
        bets = f"{view['min_bet']}-{view['max_bet']}"
        phase = phase_name(view["phase"], lang)
        c.print(
            tell(
                f"[bold]{name}[/bold]  {phase} · 庄家 {banker} · {dealing} · 下注 {bets}",
                f"[bold]{name}[/bold]  {phase} · banker {banker} · dealing {dealing} · bets {bets}",
            )
        )
        results = {r["seat"]: r for r in view.get("results", [])}
        table = Table()
        columns = [
            ("座位", "seat"),
            ("身份", "role"),
            ("下注", "bet"),
            ("牌", "cards"),
            ("点数", "hand"),
            ("输赢", "result"),
            ("得分", "delta"),
        ]
        for column in columns:
            table.add_column(
                say(lang, *column), justify="right" if column[1] in ("bet", "delta") else "left"
            )
        for s in view["seats"]:
            who = seat_label(s["seat"], lang)
            if s["seat"] == seat:
                who += tell("（你）", " (you)")
            role = tell("庄", "banker") if s["role"] == "banker" else tell("闲", "player")
            text = s.get("groups") or s["cards"]
            grouped = tell("（已分组）", "(grouped)") if s.get("grouped") else "??"
            cards = _drawn(text) if text else grouped
            res = results.get(s["seat"])
            outcome = ""
            if res is not None:
                outcome = say(lang, *_RESULT[res["winner"]])
                if res["groups"]:
                    parts = " ".join(say(lang, *_RESULT[g]) for g in res["groups"])
                    outcome += tell(f"（{parts}）", f" ({parts})")
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
                amount = ask_line(
                    self.say(f"下注（{low}-{high}）", f"your bet ({low}-{high})"),
                    type=int,
                    default=low,
                )
                bet = Bet(amount)
                try:
                    state.check(seat, bet)
                    return bet
                except PaijuError as exc:
                    self.console.print(f"[red]{explain(exc, self.lang)}[/red]")
        assert isinstance(state, JiajiabaoState)
        legal = list(state.legal_actions(seat) or [])
        self._list_groupings(state, seat, legal)
        while True:
            answer = ask_line(
                self.say(
                    "分组（序号，或如 As Kd / 5c 5h）", "your groups (a number, or 'As Kd / 5c 5h')"
                ),
                type=str,
            )
            try:
                if answer.strip().isdigit() and int(answer) < len(legal):
                    return legal[int(answer)]
                first, _, second = answer.partition("/")
                action = Group(parse_cards(first), parse_cards(second))
                state.check(seat, action)
                return action
            except PaijuError as exc:
                self.console.print(f"[red]{explain(exc, self.lang)}[/red]")

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
            first = " ".join(Card(c).symbol() for c in action.first)
            second = " ".join(Card(c).symbol() for c in action.second)
            groups = self.say(
                f"前 {front.name}，后 {back.name}", f"front {front.name}, back {back.name}"
            )
            expects = (
                ""
                if hint is None
                else self.say(f"   期望 {hint:+.3f}", f"   solver expects {hint:+.3f}")
            )
            self.console.print(f"  [{i}] {first} / {second}   {groups}{expects}", markup=False)
