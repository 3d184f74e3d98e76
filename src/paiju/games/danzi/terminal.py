"""The 宁城打弹子 table for ``paiju play ningcheng-danzi``.

Your 27 cards grouped by rank with counts (大王 first, 4 last), your partner's open hand
(明牌), everyone's card counts, the table with its kind and bombs marked, the tribute and
return steps with what was shown, the declaration and the match score to 30 or 60. Plays
are typed as ranks (``33``, ``10 10``, ``大王``), as cards (``3s 3h``), or as a choice number;
enter takes the bot's suggestion.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import click
from rich.console import Console

from paiju.cards import Card, parse_cards
from paiju.engine import Action, Event, Game, State
from paiju.errors import IllegalAction, NotationError, PaijuError
from paiju.games.climbing.core import ClimbingState
from paiju.games.climbing.terminal import ClimbingTable
from paiju.games.danzi.bot import DanziBot
from paiju.games.danzi.combos import (
    BJ,
    RANK_NAMES_ZH,
    RJ,
    card_rank_index,
    classify,
    counts_of,
    is_take,
)
from paiju.games.danzi.game import (
    PLACES_ZH,
    DanziState,
    Declare,
    Decline,
    Pass,
    Pick,
    Play,
    Return,
    Tribute,
    display_order,
)
from paiju.games.danzi.messages import render

__all__ = ["DanziTable", "cards_by_ranks", "play_groups", "rank_groups"]

_RANK_TOKEN = re.compile(r"10|RJ|BJ|rj|bj|大王|小王|[2-9TJQKAtjqka]")
_RANK_OF = {
    **{r: i for i, r in enumerate("23456789TJQKA")},
    "10": 8,
    "RJ": RJ,
    "大王": RJ,
    "BJ": BJ,
    "小王": BJ,
}
SHOW_CHOICES = 30


def rank_groups(cards: Sequence[int]) -> str:
    """Cards grouped by rank with counts, biggest first: ``大王×2 3×3 A K×2 … 4``."""
    out: list[str] = []
    ordered = display_order(cards)
    i = 0
    while i < len(ordered):
        r = card_rank_index(ordered[i])
        j = i
        while j < len(ordered) and card_rank_index(ordered[j]) == r:
            j += 1
        name = RANK_NAMES_ZH[r]
        styled = f"[red]{name}[/red]" if r == RJ else f"[bold]{name}[/bold]" if r == BJ else name
        out.append(styled if j - i == 1 else f"{styled}×{j - i}")
        i = j
    return " ".join(out) or "—"


def play_groups(cards: Sequence[int]) -> str:
    """A play as players read it: sequences low to high (``A 2 3``, ``Q K A``), else by rank."""
    combo = classify(counts_of(cards))
    if combo is None or (combo.groups == 1 and combo.kind not in ("单龙", "双龙")):
        return rank_groups(cards)
    ace = 14 if combo.top == 14 else 1

    def position(c: int) -> int:
        i = card_rank_index(c)
        return ace if i == 12 else i + 2

    parts = []
    for pos in sorted({position(c) for c in cards}):
        n = sum(1 for c in cards if position(c) == pos)
        name = RANK_NAMES_ZH[12 if pos in (1, 14) else pos - 2]
        parts.append(name if n == 1 else f"{name}×{n}")
    return " ".join(parts)


def cards_by_ranks(hand: Sequence[int], text: str) -> tuple[Card, ...]:
    """Cards of ``hand`` named by ranks (``333``, ``10 10``, ``大王 小王``) or as cards."""
    try:
        cards = parse_cards(text)
        if cards:
            return cards
    except NotationError:
        pass
    compact = re.sub(r"\s+", "", text)
    tokens = _RANK_TOKEN.findall(compact)
    if not tokens or sum(map(len, tokens)) != len(compact):
        raise NotationError(f"{text!r}: name cards by rank (33, 10 10, 大王) or as cards (3s)")
    left = list(display_order(hand))
    out: list[Card] = []
    for token in tokens:
        rank = _RANK_OF[token if token in _RANK_OF else token.upper()]
        match = next((c for c in left if card_rank_index(c) == rank), None)
        if match is None:
            raise NotationError(f"you hold no more {RANK_NAMES_ZH[rank]}")
        left.remove(match)
        out.append(Card(match))
    return tuple(out)


class DanziTable(ClimbingTable):
    """The terminal table of one human seat: the climbing family's table with 打弹子's
    own rendering (27 cards by rank with counts, the partner's open hand, tribute, 宣战)."""

    def __init__(self, game: Game, console: Console) -> None:
        super().__init__(game, console)
        self.advisor = DanziBot(game, 0)  # type: ignore[assignment]

    def who(self, state: ClimbingState, seat: int, me: int) -> str:
        assert isinstance(state, DanziState)
        if seat == me:
            name = "you"
        elif seat == (me + 2) % 4:
            name = f"partner {seat}"
        else:
            name = f"seat {seat}"
        return f"{name} 宣战" if seat == state.declarer else name

    # -- showing ---------------------------------------------------------------------

    def show(self, state: State, seat: int) -> None:
        assert isinstance(state, DanziState)
        p = self.console.print
        target = state.options["target"]
        p(
            f"[bold]宁城打弹子[/bold] deal {state.deal_number} · phase {state.phase} · "
            f"score 比分 us {state.totals[seat % 2]} : them {state.totals[1 - seat % 2]}"
            f" (to {target})"
        )
        sizes = " · ".join(f"{self.who(state, s, seat)} {len(state.hands[s])}" for s in range(4))
        p(f"  cards 张数: {sizes}")
        if state.declarer is not None:
            how = "automatic 自动" if state.automatic else "declared"
            verdict = {None: "", True: " — 成功 success", False: " — 失败 failed, 末游"}
            p(f"  宣战: {self.who(state, state.declarer, seat)} ({how}){verdict[state.success]}")
        if state.form is not None and state.phase in (
            "tribute",
            "picking",
            "returning",
            "picking_returns",
            "declaring",
        ):
            self.show_tribute(state, seat)
        if state.finished:
            places = ", ".join(
                f"{PLACES_ZH[i]} {self.who(state, s, seat)}" for i, s in enumerate(state.finished)
            )
            p(f"  places: {places}")
        if state.last_trick and not state.trick:
            p(f"  last trick: {self.trick_text(state, state.last_trick, seat)}")
        if state.trick:
            p(f"  trick: {self.trick_text(state, state.trick, seat)}")
        table = state.danzi_table
        if state.table is not None and table is not None:
            assert state.table_seat is not None
            mark = "[magenta]炸[/magenta] " if not table.plain else ""
            take = " (取牌 take)" if state.table_take else ""
            owner = self.who(state, state.table_seat, seat)
            p(
                f"  table 桌面: {mark}{table.name_zh} "
                f"{play_groups(state.table.cards)} by {owner}{take}"
            )
        partner = (seat + 2) % 4
        p(f"  partner 对家 {partner} (明牌): {rank_groups(state.hands[partner])}")
        p(
            f"  [bold]your hand 你的牌[/bold] ({len(state.hands[seat])}):"
            f" {rank_groups(state.hands[seat])}"
        )
        if state.phase == "over" and state.points is not None:
            mine, theirs = state.points[seat % 2], state.points[1 - seat % 2]
            p(
                f"  deal points 本盘: us {mine}, them {theirs};"
                f" totals 总分 us {state.totals[seat % 2]} : them {state.totals[1 - seat % 2]}"
            )
            if state.match_over:
                won = state.winner == seat % 2
                p(f"  [bold]match over 一局结束: {'you win 胜' if won else 'you lose 负'}[/bold]")

    def show_tribute(self, state: DanziState, seat: int) -> None:
        p = self.console.print
        p(f"  进贡 tribute ({state.form}):")
        for entry in state.tribute_log:
            kind = entry["type"]
            who = self.who(state, entry["seat"], seat)
            cards = rank_groups(parse_cards(entry.get("cards", "")))
            if kind == "tribute_given":
                to = (
                    "the pool 供挑选" if entry["to"] is None else self.who(state, entry["to"], seat)
                )
                free = " (骚贡)" if entry["free"] else ""
                p(f"    {who} → {to}: {cards}{free}")
            elif kind == "picked":
                rest = rank_groups(parse_cards(entry["rest"]))
                other = self.who(state, entry["rest_to"], seat)
                p(f"    {who} picked {cards}; the rest → {other}: {rest}")
            else:
                to = "the pool" if entry["to"] is None else self.who(state, entry["to"], seat)
                p(f"    {who} returns 还贡 → {to}: {cards}")
        if state.pool:
            p(f"    shown pool 贡牌: {rank_groups([c for _, c in state.pool])}")
        if state.return_pool:
            p(f"    shown returns 还贡牌: {rank_groups([c for _, c in state.return_pool])}")
        if state.hidden_return is not None:
            owner, hidden = state.hidden_return
            shown = rank_groups(hidden) if owner in (seat, (seat + 2) % 4) else "face down 暗"
            p(f"    {self.who(state, owner, seat)} returned: {shown}")

    def trick_text(
        self, state: DanziState, trick: Sequence[tuple[int, tuple[int, ...] | None]], me: int
    ) -> str:
        parts = []
        before = None
        for seat, cards in trick:
            if cards is None:
                parts.append(f"{self.who(state, seat, me)}: pass")
                continue
            now = classify(counts_of(cards))
            take = " 取" if before is not None and now is not None and is_take(before, now) else ""
            before = now
            parts.append(f"{self.who(state, seat, me)}: {play_groups(cards)}{take}")
        return " | ".join(parts)

    def event(self, state: State, seat: int, event: Event) -> None:
        """Bots' plays as they happen (the table itself is shown before your turn)."""
        assert isinstance(state, DanziState)
        body = event.to_json()
        kind = body["type"]
        who = self.who(state, body["seat"], seat) if isinstance(body.get("seat"), int) else ""
        if kind == "played":
            cards = parse_cards(body["cards"])
            combo = classify(counts_of(cards))
            name = "" if combo is None else combo.name_zh
            self.console.print(f"  {who}: {name} {play_groups(cards)}")
        elif kind == "took":
            self.console.print(f"  {who}: 取牌 took {play_groups(parse_cards(body['taken']))}")
        elif kind == "finished":
            self.console.print(f"  [bold]{who} → {PLACES_ZH[body['place'] - 1]}[/bold]")
        elif kind == "declared":
            self.console.print(f"  [bold]{who} 宣战![/bold]")
        elif kind == "declaration_decided":
            self.console.print(f"  宣战 {'成功' if body['success'] else '失败'}: {who}")
        elif kind == "lead" and body["jiefeng"]:
            self.console.print(f"  接风: {who} leads")
        elif kind == "deal_scored":
            self.console.print(f"  deal scored: points {body['points']}, totals {body['totals']}")

    # -- asking ----------------------------------------------------------------------

    def ask(self, state: State, seat: int) -> Action:
        assert isinstance(state, DanziState)
        hint = self.advisor.act(state, seat)
        choices = list(state.legal_actions(seat) or [])
        mark = "#" if state.phase == "playing" else ""
        for i, action in enumerate(choices[:SHOW_CHOICES]):
            self.console.print(f"  [{mark}{i}] {self.describe_action(action)}", markup=False)
        if len(choices) > SHOW_CHOICES:
            self.console.print(f"  … {len(choices) - SHOW_CHOICES} more: type the cards")
        self.console.print(f"  (suggestion: {self.describe_action(hint)}; press enter to take it)")
        while True:
            answer = click.prompt(self.prompt(state), default="", show_default=False).strip()
            try:
                action = self.parse_answer(state, seat, answer, choices, hint)
                state.check(seat, action)
                return action
            except IllegalAction as exc:
                zh = render(exc.reason or "", exc.params, "zh") if exc.reason else ""
                self.console.print(f"[red]不行 {zh}: {exc}[/red]")
            except (PaijuError, ValueError) as exc:
                self.console.print(f"[red]{exc}[/red]")

    def prompt(self, state: DanziState) -> str:
        return {
            "tribute": "骚贡: the cards you give (e.g. 5 6)",
            "picking": "pick two shown cards (a choice number)",
            "picking_returns": "pick two shown returns (a choice number)",
            "returning": "还贡: the cards you return (e.g. 5 6)",
            "declaring": "宣战? y / n",
        }.get(state.phase, "play by ranks (33, 10 10, 大王) or cards (3s 3h), p to pass, #N")

    def describe_action(self, action: Action) -> str:
        if isinstance(action, Pass):
            return "pass 不要"
        if isinstance(action, Declare):
            return "宣战 declare"
        if isinstance(action, Decline):
            return "不宣战 decline"
        if isinstance(action, Play | Tribute | Pick | Return):
            return re.sub(r"\[/?(red|bold)\]", "", play_groups(action.cards))
        return str(action.to_json())

    def parse_answer(
        self, state: DanziState, seat: int, answer: str, choices: list[Action], hint: Action
    ) -> Action:
        """Enter = the suggestion; ``#N`` (or N outside the play) = a choice; else cards."""
        if not answer:
            return hint
        number = answer.removeprefix("#")
        if number.isdigit() and (answer.startswith("#") or state.phase != "playing"):
            if int(number) < len(choices):
                return choices[int(number)]
            raise ValueError(f"{number} is not a choice: choose 0-{len(choices) - 1}")
        low = answer.lower()
        if state.phase == "declaring":
            if low in ("y", "yes", "宣战", "是"):
                return Declare()
            if low in ("n", "no", "不", "否"):
                return Decline()
            raise ValueError("answer y (宣战) or n")
        if state.phase == "playing" and low in ("p", "pass", "不要", "过"):
            return Pass()
        if state.phase in ("picking", "picking_returns"):
            pool = state.pool if state.phase == "picking" else state.return_pool
            return Pick(cards_by_ranks([c for _, c in pool], answer))
        cards = cards_by_ranks(state.hands[seat], answer)
        if state.phase == "tribute":
            return Tribute(cards)
        if state.phase == "returning":
            return Return(cards)
        return Play(cards)
