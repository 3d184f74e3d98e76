"""The 宁城打弹子 table for ``paiju play ningcheng-danzi``.

Your 27 cards grouped by rank with counts (大王 first, 4 last), your partner's open hand
(明牌), everyone's card counts, the table with its kind and bombs marked, the tribute and
return steps with what was shown, the declaration and the match score to 30 or 60. Plays
are typed as ranks (``33``, ``10 10``, ``大王``), as cards (``3s 3h``), or as a choice number;
enter takes the bot's suggestion.

It speaks Chinese, or English with ``PAIJU_LANG=en`` (:func:`paiju.reasons.terminal_lang`),
one language at a time; seats are counted from 1. The ranks (大王, 小王) and the kinds'
own names (砟子, 真7, 连蛋 …) are the game's words and stay in both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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
from paiju.prompt import ask as ask_line
from paiju.reasons import explain, phase_name, seat_label

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
PLACES_EN = ("1st out", "2nd out", "3rd out", "last out")


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
        raise NotationError(
            f"{text!r}: name cards by rank (33, 10 10, 大王) or as cards (3s)",
            reason="bad_rank_text",
            token=text,
        )
    left = list(display_order(hand))
    out: list[Card] = []
    for token in tokens:
        rank = _RANK_OF[token if token in _RANK_OF else token.upper()]
        match = next((c for c in left if card_rank_index(c) == rank), None)
        if match is None:
            raise NotationError(
                f"you hold no more {RANK_NAMES_ZH[rank]}",
                reason="no_more_of_rank",
                rank=RANK_NAMES_ZH[rank],
            )
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
        """你 / 对家(3号位) / 2号位 (you / partner (seat 3) / seat 2), 宣战 marked."""
        assert isinstance(state, DanziState)
        label = seat_label(seat, self.lang)
        if seat == me:
            name = self.say("你", "you")
        elif seat == (me + 2) % 4:
            name = self.say(f"对家({label})", f"partner ({label})")
        else:
            name = label
        return name + self.say(" 宣战", " (declared)") if seat == state.declarer else name

    def places_name(self, place: int) -> str:
        """A finishing place of 打弹子 (1 = 头游 … 4 = 末游)."""
        return self.say(PLACES_ZH[place - 1], PLACES_EN[place - 1])

    # -- showing ---------------------------------------------------------------------

    def show(self, state: State, seat: int) -> None:
        assert isinstance(state, DanziState)
        p, tell = self.console.print, self.say
        target = state.options["target"]
        variant = state.game.variant
        name = variant.name_zh if self.lang == "zh" else variant.name_en
        deal, phase = state.deal_number, phase_name(state.phase, self.lang)
        us, them = state.totals[seat % 2], state.totals[1 - seat % 2]
        p(
            tell(
                f"[bold]{name}[/bold] 第 {deal} 盘 · {phase} · 比分 我方 {us} : 对方 {them}"
                f"（打到 {target}）",
                f"[bold]{name}[/bold] deal {deal} · {phase} · score us {us} : them {them}"
                f" (to {target})",
            )
        )
        sizes = " · ".join(f"{self.who(state, s, seat)} {len(state.hands[s])}" for s in range(4))
        p(tell(f"  张数: {sizes}", f"  cards: {sizes}"))
        if state.declarer is not None:
            how = tell("自动", "automatic") if state.automatic else tell("宣战", "declared")
            verdict = {
                None: "",
                True: tell("——成功", " — success"),
                False: tell("——失败，末游", " — failed, last out"),
            }
            declarer = self.who(state, state.declarer, seat)
            p(
                tell(
                    f"  宣战: {declarer}（{how}）{verdict[state.success]}",
                    f"  宣战 (declaration): {declarer} ({how}){verdict[state.success]}",
                )
            )
        if state.form is not None and state.phase in (
            "tribute",
            "picking",
            "returning",
            "picking_returns",
            "declaring",
        ):
            self.show_tribute(state, seat)
        if state.finished:
            places = tell("，", ", ").join(
                f"{self.places_name(i + 1)} {self.who(state, s, seat)}"
                for i, s in enumerate(state.finished)
            )
            p(tell(f"  名次: {places}", f"  places: {places}"))
        if state.last_trick and not state.trick:
            last = self.trick_text(state, state.last_trick, seat)
            p(tell(f"  上一轮: {last}", f"  last trick: {last}"))
        if state.trick:
            now = self.trick_text(state, state.trick, seat)
            p(tell(f"  本轮: {now}", f"  trick: {now}"))
        table = state.danzi_table
        if state.table is not None and table is not None:
            assert state.table_seat is not None
            mark = (
                tell("[magenta]炸[/magenta] ", "[magenta]bomb[/magenta] ")
                if not table.plain
                else ""
            )
            take = tell("（取牌）", " (取牌, a take)") if state.table_take else ""
            owner = self.who(state, state.table_seat, seat)
            cards = play_groups(state.table.cards)
            p(
                tell(
                    f"  桌面: {owner} 出的 {mark}{table.name_zh} {cards}{take}",
                    f"  table: {mark}{table.name_zh} {cards} by {owner}{take}",
                )
            )
        partner = (seat + 2) % 4
        mate, open_hand = self.who(state, partner, seat), rank_groups(state.hands[partner])
        p(tell(f"  {mate}（明牌）: {open_hand}", f"  {mate}, open hand (明牌): {open_hand}"))
        n, hand = len(state.hands[seat]), rank_groups(state.hands[seat])
        p(
            tell(
                f"  [bold]你的牌[/bold]（{n} 张）: {hand}",
                f"  [bold]your hand[/bold] ({n}): {hand}",
            )
        )
        if state.phase == "over" and state.points is not None:
            mine, theirs = state.points[seat % 2], state.points[1 - seat % 2]
            us, them = state.totals[seat % 2], state.totals[1 - seat % 2]
            p(
                tell(
                    f"  本盘: 我方 {mine}，对方 {theirs}；总分 我方 {us} : 对方 {them}",
                    f"  deal points: us {mine}, them {theirs}; totals us {us} : them {them}",
                )
            )
            if state.match_over:
                won = state.winner == seat % 2
                result = tell("我方胜", "you win") if won else tell("我方负", "you lose")
                p(
                    tell(
                        f"  [bold]一局结束: {result}[/bold]",
                        f"  [bold]match over: {result}[/bold]",
                    )
                )

    def show_tribute(self, state: DanziState, seat: int) -> None:
        p, tell = self.console.print, self.say
        p(tell(f"  进贡（{state.form}）:", f"  tribute (进贡, {state.form}):"))
        for entry in state.tribute_log:
            kind = entry["type"]
            who = self.who(state, entry["seat"], seat)
            cards = rank_groups(parse_cards(entry.get("cards", "")))
            pool = tell("供挑选", "the pool")
            if kind == "tribute_given":
                to = pool if entry["to"] is None else self.who(state, entry["to"], seat)
                free = tell("（骚贡）", " (骚贡, free)") if entry["free"] else ""
                p(f"    {who} → {to}: {cards}{free}")
            elif kind == "picked":
                rest = rank_groups(parse_cards(entry["rest"]))
                other = self.who(state, entry["rest_to"], seat)
                p(
                    tell(
                        f"    {who} 挑了 {cards}；其余 → {other}: {rest}",
                        f"    {who} picked {cards}; the rest → {other}: {rest}",
                    )
                )
            else:
                to = pool if entry["to"] is None else self.who(state, entry["to"], seat)
                p(tell(f"    {who} 还贡 → {to}: {cards}", f"    {who} returns → {to}: {cards}"))
        if state.pool:
            shown_pool = rank_groups([c for _, c in state.pool])
            p(tell(f"    亮出的贡牌: {shown_pool}", f"    the tribute shown: {shown_pool}"))
        if state.return_pool:
            returns = rank_groups([c for _, c in state.return_pool])
            p(tell(f"    亮出的还贡牌: {returns}", f"    the returns shown: {returns}"))
        if state.hidden_return is not None:
            owner, hidden = state.hidden_return
            mine = owner in (seat, (seat + 2) % 4)
            shown = rank_groups(hidden) if mine else tell("暗（扣着）", "face down")
            who = self.who(state, owner, seat)
            p(tell(f"    {who} 还的牌: {shown}", f"    {who} returned: {shown}"))

    def trick_text(
        self, state: DanziState, trick: Sequence[tuple[int, tuple[int, ...] | None]], me: int
    ) -> str:
        parts = []
        before = None
        for seat, cards in trick:
            if cards is None:
                parts.append(f"{self.who(state, seat, me)}: {self.say('不要', 'pass')}")
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
        p, tell = self.console.print, self.say
        if kind == "played":
            cards = parse_cards(body["cards"])
            combo = classify(counts_of(cards))
            name = "" if combo is None else combo.name_zh
            p(f"  {who}: {name} {play_groups(cards)}")
        elif kind == "took":
            taken = play_groups(parse_cards(body["taken"]))
            p(tell(f"  {who}: 取牌 {taken}", f"  {who} takes (取牌) {taken}"))
        elif kind == "finished":
            p(f"  [bold]{who} → {self.places_name(body['place'])}[/bold]")
        elif kind == "declared":
            p(tell(f"  [bold]{who} 宣战![/bold]", f"  [bold]{who} declares (宣战)![/bold]"))
        elif kind == "declaration_decided":
            ok = body["success"]
            p(
                tell(
                    f"  宣战{'成功' if ok else '失败'}: {who}",
                    f"  the declaration {'succeeds' if ok else 'fails'}: {who}",
                )
            )
        elif kind == "lead" and body["jiefeng"]:
            p(tell(f"  接风: {who} 出牌", f"  接风: {who} leads"))
        elif kind == "deal_scored":
            points, totals = body["points"], body["totals"]
            p(
                tell(
                    f"  本盘得分 {points}，总分 {totals}",
                    f"  deal scored: points {points}, totals {totals}",
                )
            )

    # -- asking ----------------------------------------------------------------------

    def ask(self, state: State, seat: int) -> Action:
        assert isinstance(state, DanziState)
        hint = self.advisor.act(state, seat)
        choices = list(state.legal_actions(seat) or [])
        mark = "#" if state.phase == "playing" else ""
        for i, action in enumerate(choices[:SHOW_CHOICES]):
            self.console.print(f"  [{mark}{i}] {self.describe_action(action)}", markup=False)
        tell = self.say
        more = len(choices) - SHOW_CHOICES
        if more > 0:
            self.console.print(
                tell(f"  …… 还有 {more} 项：直接输入牌", f"  … {more} more: type the cards")
            )
        advised = self.describe_action(hint)
        self.console.print(
            tell(
                f"  (建议: {advised}；直接回车采用)",
                f"  (suggestion: {advised}; press enter to take it)",
            ),
            markup=False,
        )
        while True:
            answer = ask_line(self.prompt(state), default="", show_default=False).strip()
            try:
                action = self.parse_answer(state, seat, answer, choices, hint)
                state.check(seat, action)
                return action
            except IllegalAction as exc:
                why = explain(exc, self.lang)
                self.console.print(f"[red]{tell(f'不行: {why}', f'Not allowed: {why}')}[/red]")
            except PaijuError as exc:
                self.console.print(f"[red]{explain(exc, self.lang)}[/red]")
            except ValueError as exc:
                self.console.print(f"[red]{exc}[/red]")

    def prompt(self, state: DanziState) -> str:
        prompts = {
            "tribute": (
                "骚贡：你给的牌（如 5 6）",
                "骚贡 (free tribute): the cards you give (e.g. 5 6)",
            ),
            "picking": ("挑两张亮出的贡牌（序号）", "pick two shown cards (a choice number)"),
            "picking_returns": (
                "挑两张亮出的还贡牌（序号）",
                "pick two shown returns (a choice number)",
            ),
            "returning": (
                "还贡：你还的牌（如 5 6）",
                "还贡 (return): the cards you return (e.g. 5 6)",
            ),
            "declaring": ("宣战？y / n", "宣战 (declare)? y / n"),
        }
        playing = (
            "出牌：按点数（33、10 10、大王）或牌（3s 3h），p 不要，#N 选序号",
            "play by ranks (33, 10 10, 大王) or cards (3s 3h), p to pass, #N",
        )
        return self.say(*prompts.get(state.phase, playing))

    def describe_action(self, action: Action) -> str:
        if isinstance(action, Pass):
            return self.say("不要", "pass")
        if isinstance(action, Declare):
            return self.say("宣战", "declare (宣战)")
        if isinstance(action, Decline):
            return self.say("不宣战", "do not declare")
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
            last = len(choices) - 1
            raise ValueError(
                self.say(
                    f"没有第 {number} 项：请选 0-{last}",
                    f"{number} is not a choice: choose 0-{last}",
                )
            )
        low = answer.lower()
        if state.phase == "declaring":
            if low in ("y", "yes", "宣战", "是"):
                return Declare()
            if low in ("n", "no", "不", "否"):
                return Decline()
            raise ValueError(self.say("回答 y（宣战）或 n", "answer y (宣战) or n"))
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
