"""The 三打哈 table for ``paiju play sandaha``: the hand by suit with trumps grouped, the
bidding, the trick, the defenders' points; plays typed as cards (``7h 7h``) or numbers.

It speaks Chinese, or English with ``PAIJU_LANG=en`` (:func:`paiju.reasons.terminal_lang`),
one language at a time: the header, the phase, the prompts, the choices and the refusals."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, groupby

from rich.console import Console

from paiju.cards import Card, parse_cards
from paiju.engine import Action, Game, State
from paiju.errors import PaijuError
from paiju.games.sandaha import rules
from paiju.games.sandaha.bot import SandahaBot
from paiju.games.sandaha.game import (
    Bid,
    Bury,
    NameTrump,
    Pass,
    Play,
    SandahaState,
    lead_options,
)
from paiju.games.sandaha.rules import TRUMP_NAMES, as_cards, order
from paiju.prompt import ask as ask_line
from paiju.reasons import Lang, explain, phase_name, say, seat_label, terminal_lang

__all__ = ["SandahaTable", "follow_options"]

TRUMP_LABELS: dict[str, tuple[str, str]] = {
    "s": ("♠ 黑桃", "♠ spades"),
    "h": ("♥ 红桃", "♥ hearts"),
    "c": ("♣ 梅花", "♣ clubs"),
    "d": ("♦ 方块", "♦ diamonds"),
    "none": ("无主", "no trumps"),
}
TIERS: dict[str, tuple[str, str]] = {
    "defenders_big": ("闲家大光（×3）", "defenders' big win (×3)"),
    "defenders_small": ("闲家小光（×2）", "defenders' small win (×2)"),
    "defenders_win": ("闲家胜（×1）", "defenders win (×1)"),
    "declarer_big": ("庄家大光（×3）", "declarer's big win (×3)"),
    "declarer_small": ("庄家小光（×2）", "declarer's small win (×2)"),
    "declarer_win": ("庄家胜（×1）", "declarer wins (×1)"),
}
GROUPS: dict[str, str] = {"主": "trumps", "常主": "fixed trumps"}
"""The English names of the hand's groups (the suits are their symbols in both)."""


def show_card(card: int) -> str:
    """A card with its suit symbol, red suits in red (Rich markup)."""
    c = Card(card)
    text = c.symbol()
    return f"[red]{text}[/red]" if c.is_red else text


def show_cards(cards: Sequence[int]) -> str:
    return " ".join(show_card(c) for c in cards) or "—"


def follow_options(state: SandahaState, seat: int, limit: int = 40) -> list[tuple[int, ...]]:
    """Legal follows worth offering as numbered choices (every one when there are few)."""
    t = state.trump_index
    o = order(t)
    hand = state.hands[seat]
    lead = state.lead
    n = sum(len(c.cards) for c in lead)
    found: dict[tuple[int, ...], None] = {}

    def offer(cards: Sequence[int]) -> None:
        key = tuple(sorted(cards, key=o.strength, reverse=True))
        if len(found) < limit and rules.follow_error(hand, key, lead, t) is None:
            found[key] = None

    distinct = sorted(set(hand), key=o.strength, reverse=True)
    if n <= 2 and len(distinct) <= 24:
        pools: list[tuple[int, ...]] = [(c,) for c in distinct] if n == 1 else []
        if n == 2:
            pools = [(c, c) for c in rules.pairs_in(hand)]
            pools += [tuple(two) for two in combinations(distinct, 2)]
        for cards in pools:
            offer(cards)
    for key in (
        lambda c: (rules.card_points(c) > 0, o.strength(c)),
        lambda c: (-rules.card_points(c), o.strength(c)),
        lambda c: -o.strength(c),
    ):
        offer(rules.build_follow(hand, lead, t, key))
    return sorted(found, key=lambda cs: [-o.strength(c) for c in cs])


class SandahaTable:
    """The terminal table of one human seat."""

    def __init__(self, game: Game, console: Console, lang: Lang | None = None) -> None:
        self.game = game
        self.console = console
        self.advisor = SandahaBot(game, 0)
        self.lang: Lang = terminal_lang() if lang is None else lang

    def say(self, zh: str, en: str) -> str:
        return say(self.lang, zh, en)

    def trump_label(self, name: str) -> str:
        return say(self.lang, *TRUMP_LABELS[name])

    # -- showing ---------------------------------------------------------------------

    def who(self, state: SandahaState, seat: int, me: int) -> str:
        name = seat_label(seat, self.lang, me)
        return name + self.say("(庄)", " (declarer)") if seat == state.declarer else name

    def hand_rows(self, state: SandahaState, seat: int) -> list[tuple[str, list[int]]]:
        """The hand grouped: trumps (主) first, then ♠ ♥ ♣ ♦, each high to low."""
        cards = state.sorted_cards(state.hands[seat])
        return [(label, list(group)) for label, group in groupby(cards, key=state.group_label)]

    def show(self, state: State, seat: int) -> None:
        assert isinstance(state, SandahaState)
        p = self.console.print
        say = self.say
        trump = "—" if state.trump is None else self.trump_label(TRUMP_NAMES[state.trump])
        declarer = "—" if state.declarer is None else self.who(state, state.declarer, seat)
        phase = phase_name(state.phase, self.lang)
        variant = state.game.variant
        bid = state.bid or "—"
        points = f"[bold]{state.defenders_points}[/bold]"
        stake = state.game.options["stake"]
        rule = (
            say("规则一", "rule 1")
            if state.game.options["rule"] == "rule1"
            else say("规则二", "rule 2")
        )
        p(
            say(
                f"[bold]{variant.name_zh}[/bold]  {phase} · 庄家 {declarer} · 庄分 {bid}"
                f" · 主 {trump} · 闲家得分 {points} · 底注 {stake}（{rule}）",
                f"[bold]{variant.name_en}[/bold]  {phase} · declarer {declarer}"
                f" · contract {bid} · trumps {trump} · defenders' points {points}"
                f" · stake {stake} ({rule})",
            )
        )
        if state.bids:
            bids = say("，", ", ").join(
                f"{self.who(state, s, seat)} {say('不叫', 'pass') if b is None else b}"
                for s, b in state.bids
            )
            p(say(f"  叫分：{bids}", f"  bids: {bids}"))
        if state.last_trick:
            last = " | ".join(
                f"{self.who(state, s, seat)}: {show_cards(cs)}" for s, cs in state.last_trick
            )
            winner = "?" if state.last_winner is None else self.who(state, state.last_winner, seat)
            p(say(f"  上一轮：{last}  → {winner}", f"  last trick: {last}  → {winner}"))
        if state.throw_failed is not None:
            f = state.throw_failed
            who, by = self.who(state, f.seat, seat), self.who(state, f.blocked_by, seat)
            tried, forced = show_cards(f.tried), show_cards(f.forced)
            p(
                say(
                    f"  [yellow]甩牌失败[/yellow]：{who} 甩 {tried}，{by} 管得住，改出 {forced}",
                    f"  [yellow]throw failed[/yellow]: {who} tried {tried}; {by} can beat it, "
                    f"so {forced} is played",
                )
            )
        if state.trick:
            now = " | ".join(
                f"{self.who(state, s, seat)}: {show_cards(cs)}" for s, cs in state.trick
            )
            p(say(f"  这一轮：{now}", f"  trick: {now}"))
        if seat == state.declarer and state.kitty and state.phase != "over":
            kitty = show_cards(state.sorted_cards(state.kitty))
            p(say(f"  你扣的底牌：{kitty}", f"  your kitty: {kitty}"))
        for label, cards in self.hand_rows(state, seat):
            name = label if self.lang == "zh" else GROUPS.get(label, label)
            p(f"  {name:>9}: {show_cards(cards)}")
        if state.phase == "over":
            outcome = state.outcome()
            kitty = show_cards(state.sorted_cards(state.kitty))
            k_pts, mult, bonus = state.kitty_points, state.multiplier, state.kitty_bonus
            p(
                say(
                    f"  底牌：{kitty}（{k_pts} 分，抠底 ×{mult} → {bonus}）",
                    f"  kitty: {kitty} ({k_pts} points, ×{mult} → {bonus})",
                )
            )
            tier = say(*TIERS[outcome.tier])
            settlement = list(state.settlement())
            d_pts = state.defenders_points
            p(
                say(
                    f"  闲家得分 {d_pts} 对 庄分 {state.bid}：{tier}；结算 {settlement}",
                    f"  defenders' points {d_pts} vs contract {state.bid}: {tier}; "
                    f"settlement {settlement}",
                )
            )

    # -- asking ----------------------------------------------------------------------

    def ask(self, state: State, seat: int) -> Action:
        assert isinstance(state, SandahaState)
        choices = self.choices(state, seat)
        hint = self.advisor.act(state, seat)
        for i, action in enumerate(choices):
            self.console.print(f"  [{i}] {self.describe(action)}", markup=False)
        hint_text = self.describe(hint)
        self.console.print(
            self.say(
                f"  （建议：{hint_text}；直接回车采用）",
                f"  (suggestion: {hint_text}; press enter to take it)",
            ),
            markup=False,
        )
        while True:
            answer = ask_line(self.prompt(state), default="", show_default=False).strip()
            try:
                action = self.parse(state, answer, choices, hint)
                state.check(seat, action)
                return action
            except PaijuError as exc:
                self.console.print(f"[red]{explain(exc, self.lang)}[/red]")
            except ValueError as exc:
                self.console.print(f"[red]{exc}[/red]")

    def prompt(self, state: SandahaState) -> str:
        say = self.say
        if state.phase == "bidding":
            return say(
                "叫分（如 75、p 不叫，或序号）",
                "bid (a number like 75, 'pass', or a choice number)",
            )
        if state.phase == "burying":
            n = state.params.kitty_size
            return say(f"扣底 {n} 张（如 5c 6c 8c …）", f"bury {n} cards (e.g. 5c 6c 8c …)")
        if state.phase == "naming":
            return say("叫主：s h c d none（或序号）", "trump: s h c d none (or a choice number)")
        return say("出牌（如 7h 7h，或序号）", "play cards (e.g. 7h 7h) or a choice number")

    def choices(self, state: SandahaState, seat: int) -> list[Action]:
        legal = state.legal_actions(seat)
        if legal:
            return list(legal)
        if state.phase != "playing":
            return []
        if not state.trick:
            options = lead_options(state.hands[seat], state.trump_index)
            o = order(state.trump_index)
            options.sort(key=lambda cs: (o.suit[cs[0]], -len(cs), -o.strength(cs[0])))
            return [Play(as_cards(cs)) for cs in options]
        return [Play(as_cards(cs)) for cs in follow_options(state, seat)]

    def describe(self, action: Action) -> str:
        if isinstance(action, Bid):
            return self.say(f"叫 {action.points} 分", f"bid {action.points}")
        if isinstance(action, Pass):
            return self.say("不叫", "pass")
        if isinstance(action, NameTrump):
            return self.say("叫主 ", "trumps: ") + self.trump_label(action.trump)
        if isinstance(action, Bury | Play):
            return " ".join(Card(c).symbol() for c in action.cards)
        return str(action.to_json())

    def parse(
        self, state: SandahaState, answer: str, choices: list[Action], hint: Action
    ) -> Action:
        if not answer:
            return hint
        if answer.isdigit():
            number = int(answer)
            if state.phase == "bidding" and number in state.bid_range():
                return Bid(number)
            if 0 <= number < len(choices):
                return choices[number]
            last = len(choices) - 1
            raise ValueError(
                self.say(
                    f"没有第 {number} 项：请选 0-{last}",
                    f"{number} is not a choice: choose 0-{last}",
                )
            )
        if state.phase == "bidding":
            if answer.lower() in ("p", "pass", "不叫"):
                return Pass()
            raise ValueError(
                self.say(
                    f"看不懂 {answer!r}：叫一个分数如 75，或 p 不叫",
                    f"{answer!r}: bid a number like 75, or pass",
                )
            )
        if state.phase == "naming":
            return NameTrump(answer.lower())
        cards = parse_cards(answer)
        return Bury(cards) if state.phase == "burying" else Play(cards)
