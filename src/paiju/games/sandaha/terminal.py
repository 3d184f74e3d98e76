"""The 三打哈 table for ``paiju play sandaha``: the hand by suit with trumps grouped, the
bidding, the trick, the defenders' points; plays typed as cards (``7h 7h``) or numbers."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, groupby

import click
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
from paiju.reasons import explain

__all__ = ["SandahaTable", "follow_options"]

TRUMP_LABELS = {"s": "♠ 黑桃", "h": "♥ 红心", "c": "♣ 梅花", "d": "♦ 方块", "none": "无主 no-trump"}
TIERS = {
    "defenders_big": "闲家大光 (defenders x3)",
    "defenders_small": "闲家小光 (defenders x2)",
    "defenders_win": "闲家胜 (defenders x1)",
    "declarer_big": "庄家大光 (declarer x3)",
    "declarer_small": "庄家小光 (declarer x2)",
    "declarer_win": "庄家胜 (declarer x1)",
}


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

    def __init__(self, game: Game, console: Console) -> None:
        self.game = game
        self.console = console
        self.advisor = SandahaBot(game, 0)

    # -- showing ---------------------------------------------------------------------

    def who(self, state: SandahaState, seat: int, me: int) -> str:
        name = "你" if seat == me else f"{seat + 1}号位"
        return f"{name}(庄)" if seat == state.declarer else name

    def hand_rows(self, state: SandahaState, seat: int) -> list[tuple[str, list[int]]]:
        """The hand grouped: trumps (主) first, then ♠ ♥ ♣ ♦, each high to low."""
        cards = state.sorted_cards(state.hands[seat])
        return [(label, list(group)) for label, group in groupby(cards, key=state.group_label)]

    def show(self, state: State, seat: int) -> None:
        assert isinstance(state, SandahaState)
        p = self.console.print
        trump = "—" if state.trump is None else TRUMP_LABELS[TRUMP_NAMES[state.trump]]
        declarer = "—" if state.declarer is None else self.who(state, state.declarer, seat)
        p(
            f"[bold]三打哈[/bold]  phase {state.phase} · 庄家 {declarer} · 庄分 {state.bid or '—'}"
            f" · 主 {trump} · 闲家得分 [bold]{state.defenders_points}[/bold]"
            f" · 底注 {state.game.options['stake']} ({state.game.options['rule']})"
        )
        if state.bids:
            bids = ", ".join(
                f"{self.who(state, s, seat)} {'pass' if b is None else b}" for s, b in state.bids
            )
            p(f"  bids 叫分: {bids}")
        if state.last_trick:
            last = " | ".join(
                f"{self.who(state, s, seat)}: {show_cards(cs)}" for s, cs in state.last_trick
            )
            winner = "?" if state.last_winner is None else self.who(state, state.last_winner, seat)
            p(f"  last trick: {last}  → {winner}")
        if state.throw_failed is not None:
            f = state.throw_failed
            p(
                f"  [yellow]甩牌失败 throw failed[/yellow]: {self.who(state, f.seat, seat)} tried "
                f"{show_cards(f.tried)}; {self.who(state, f.blocked_by, seat)} can beat it, "
                f"so {show_cards(f.forced)} is played"
            )
        if state.trick:
            now = " | ".join(
                f"{self.who(state, s, seat)}: {show_cards(cs)}" for s, cs in state.trick
            )
            p(f"  trick: {now}")
        if seat == state.declarer and state.kitty and state.phase != "over":
            p(f"  底牌 kitty (yours): {show_cards(state.sorted_cards(state.kitty))}")
        for label, cards in self.hand_rows(state, seat):
            p(f"  {label:>9}: {show_cards(cards)}")
        if state.phase == "over":
            outcome = state.outcome()
            p(
                f"  底牌 kitty: {show_cards(state.sorted_cards(state.kitty))} "
                f"({state.kitty_points} points, x{state.multiplier} → {state.kitty_bonus})"
            )
            p(
                f"  闲家得分 {state.defenders_points} vs 庄分 {state.bid}: "
                f"{TIERS[outcome.tier]}; settlement {list(state.settlement())}"
            )

    # -- asking ----------------------------------------------------------------------

    def ask(self, state: State, seat: int) -> Action:
        assert isinstance(state, SandahaState)
        choices = self.choices(state, seat)
        hint = self.advisor.act(state, seat)
        for i, action in enumerate(choices):
            self.console.print(f"  [{i}] {self.describe(action)}", markup=False)
        self.console.print(f"  (suggestion: {self.describe(hint)}; press enter to take it)")
        while True:
            answer = click.prompt(self.prompt(state), default="", show_default=False).strip()
            try:
                action = self.parse(state, answer, choices, hint)
                state.check(seat, action)
                return action
            except PaijuError as exc:
                self.console.print(f"[red]{explain(exc)}[/red]")
            except ValueError as exc:
                self.console.print(f"[red]{exc}[/red]")

    def prompt(self, state: SandahaState) -> str:
        if state.phase == "bidding":
            return "bid (a number like 75, 'pass', or a choice number)"
        if state.phase == "burying":
            return f"bury {state.params.kitty_size} cards (e.g. 5c 6c 8c …)"
        if state.phase == "naming":
            return "trump: s h c d none (or a choice number)"
        return "play cards (e.g. 7h 7h) or a choice number"

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
            return f"bid {action.points}"
        if isinstance(action, Pass):
            return "pass 不叫"
        if isinstance(action, NameTrump):
            return f"trump {TRUMP_LABELS[action.trump]}"
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
            raise ValueError(f"{number} is not a choice: choose 0-{len(choices) - 1}")
        if state.phase == "bidding":
            if answer.lower() in ("p", "pass", "不叫"):
                return Pass()
            raise ValueError(f"{answer!r}: bid a number like 75, or pass")
        if state.phase == "naming":
            return NameTrump(answer.lower())
        cards = parse_cards(answer)
        return Bury(cards) if state.phase == "burying" else Play(cards)
