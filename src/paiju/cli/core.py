"""Commands every family shares: catalog, rules, deal, simulate, play, odds."""

from __future__ import annotations

import json
import sys
import time
from importlib import import_module
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from paiju.bots import LEVELS
from paiju.catalog import Variant, catalog, find_variant
from paiju.cli.app import cli, echo_json, pass_console, variants_option
from paiju.engine import Action, Event, Game, Match, State
from paiju.errors import IllegalAction, NotImplementedFamily, PaijuError
from paiju.fairness import DealRng
from paiju.games import FAMILIES, check_catalog, game, make_bot, resolve, variant_json
from paiju.harness import playout
from paiju.prompt import QuitGame
from paiju.prompt import ask as ask_line
from paiju.reasons import Lang, explain, say, terminal_lang
from paiju.reasons import describe_event as player_event

__all__ = ["describe_event", "rules_page"]


def _players(v: Variant) -> str:
    low, high = v.players
    return str(low) if low == high else f"{low}-{high}"


@cli.command("catalog")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array.")
@click.option("--family", help="Only this family (e.g. shisanzhang, baozi).")
@variants_option
@pass_console
def catalog_cmd(console: Console, as_json: bool, family: str | None) -> None:
    """List every game code of the catalogue."""
    variants = [v for v in catalog() if family is None or v.family == family]
    if family is not None and family not in FAMILIES:
        raise click.BadParameter(f"unknown family {family!r}; families are {', '.join(FAMILIES)}")
    if as_json:
        echo_json([variant_json(v) for v in check_catalog(variants)])
        return
    check_catalog(variants)
    table = Table(title="paiju catalogue 牌局目录")
    for name in ("code", "名称", "name", "family", "players", "deck", "playable"):
        table.add_column(name)
    for v in variants:
        fam = FAMILIES[v.family]
        table.add_row(
            v.code,
            v.name_zh,
            v.name_en,
            fam.name_zh,
            _players(v),
            v.deck,
            "yes" if fam.game is not None else "not yet",
        )
    console.print(table)


def reading(v: Variant, lang: Lang = "zh") -> str:
    """The rule explanation (规则说明) of ``v`` in ``lang``; the other language's when an
    entry (a user's variant file) has only that one."""
    if lang == "en":
        return v.rules_en or v.reading_zh
    return v.reading_zh or v.rules_en


def rules_page(v: Variant, lang: Lang = "zh") -> str:
    """The rule page of a variant (``paiju rules CODE``): the verbatim rule text (原文) and
    the explanation of how it is played, in the player's language (``PAIJU_LANG=en``)."""
    fam = FAMILIES[v.family]
    if lang == "en":
        lines = [
            f"{v.code}  {v.name_en} — {v.name_zh}",
            f"family: {fam.name_en} ({fam.name_zh}); players: {_players(v)}; deck: {v.deck} cards"
            + (f"; also called: {', '.join(v.aliases)}" if v.aliases else ""),
            "",
            "The rule text (Chinese, verbatim):",
            v.rules_zh,
            "",
            "How it is played here:",
            reading(v, "en"),
        ]
    else:
        lines = [
            f"{v.code}  {v.name_zh}（{v.name_en}）",
            f"玩法：{fam.name_zh}；人数：{_players(v)}；牌：{v.deck}张"
            + (f"；又名：{'、'.join(v.aliases)}" if v.aliases else ""),
            "",
            "规则原文：",
            v.rules_zh,
            "",
            "规则说明：",
            reading(v, "zh"),
        ]
    params = variant_json(v)["params"]
    if params:
        lines += ["", "Parameters:" if lang == "en" else "参数："]
        lines += [
            f"  {key} = {json.dumps(value, ensure_ascii=False)}" for key, value in params.items()
        ]
    return "\n".join(lines)


@cli.command()
@click.argument("code")
@click.option("--json", "as_json", is_flag=True, help="Print the entry as JSON.")
@variants_option
def rules(code: str, as_json: bool) -> None:
    """Show the rule page of a game code: the rule text and how it is played, in Chinese
    (``PAIJU_LANG=en``: English)."""
    v = find_variant(code)
    if as_json:
        echo_json(
            {
                **variant_json(v),
                "rules_zh": v.rules_zh,
                "rules_en": v.rules_en,
                "reading_zh": v.reading_zh,
            }
        )
    else:
        click.echo(rules_page(v, terminal_lang()))


@cli.command()
@click.argument("code")
@click.option("--seed", required=True, help="The hand's seed (an int or a text).")
@click.option("--seats", type=int, help="Number of seats (default: the most the game allows).")
@click.option("--json", "as_json", is_flag=True, help="Print the deal in its JSON form.")
@variants_option
def deal(code: str, seed: str, seats: int | None, as_json: bool) -> None:
    """Deal one hand from a seed and print it (the form `new_state(deal=...)` accepts)."""
    g = game(code)
    n = g.seat_count(seats)
    state = g.new_state(n, seed=_seed(seed))
    dealt = g.deal(n, DealRng(_seed(seed)), {}).to_json(g.items)
    if dealt != state.deal.to_json(g.items):  # pragma: no cover - a broken family
        raise PaijuError("the deal is not reproducible from its seed")
    if as_json:
        echo_json(dealt)
        return
    for seat, hand in enumerate(dealt["hands"]):
        click.echo(f"seat {seat}: {hand}")
    for name, value in dealt.items():
        if name not in ("hands",):
            click.echo(f"{name}: {value}")


SIMULATE_GAMES: dict[str, int] = {
    "jiajiabao": 50,
    "sandaha": 10,
    "fangyang": 10,
    "jiayibing": 4,
    "danzi": 3,
    "majiang": 3,
}
"""The matches ``paiju simulate`` plays by default, per family (else 100): a whole match
with every check costs about 0.15 s of one core here for 十三张 and 宝子, 0.35 s for 佳佳宝,
1.5-2 s for 三打哈 and 放羊, 6 s for 甲乙丙, 7 s for 打弹子 and 麻将, so each default run
stays under 30 s; ``--hands 1`` checks single hands instead, ``--games`` sets the count."""


def _seed(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


@cli.command()
@click.argument("code")
@click.option(
    "--games",
    "n_games",
    type=click.IntRange(min=1),
    default=None,
    help="Matches to play (default: 100, fewer where a match is long: under 30 s a family).",
)
@click.option(
    "--hands",
    type=click.IntRange(min=1),
    help="Hands per match, the context carried (default: the game's own match).",
)
@click.option("--seed", default="0", show_default=True, help="Base seed of the run.")
@click.option("--seats", type=int, help="Number of seats (default: the most the game allows).")
@click.option("--quick", is_flag=True, help="Only the cheap invariant checks (no replay).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@variants_option
@pass_console
def simulate(
    console: Console,
    code: str,
    n_games: int | None,
    hands: int | None,
    seed: str,
    seats: int | None,
    quick: bool,
    as_json: bool,
) -> None:
    """Play whole matches with bots in every seat (``--hands H`` hands each, else the
    game's own match), checking every invariant of every hand (liveness included); by
    default as many matches as take under 30 s (:data:`SIMULATE_GAMES`)."""
    g = game(code)
    if n_games is None:
        n_games = SIMULATE_GAMES.get(g.family, 100)
    n = g.seat_count(seats)
    totals = [0] * n
    failures: list[str] = []
    decisions = 0
    played = 0
    started = time.perf_counter()
    with Progress(
        TextColumn(f"{g.variant.code} {g.variant.name_zh}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=as_json,
        transient=True,
    ) as progress:
        task = progress.add_task("games", total=n_games)
        for i in range(n_games):
            result = playout(g, n, f"{seed}:{i}", deep=not quick, hands=hands)
            totals = [a + b for a, b in zip(totals, result.totals, strict=True)]
            failures.extend(result.failures)
            decisions += result.decisions
            played += len(result.hands)
            progress.advance(task)
    elapsed = max(time.perf_counter() - started, 1e-9)
    summary: dict[str, Any] = {
        "code": g.variant.code,
        "games": n_games,
        "hands": played,
        "seats": n,
        "totals": totals,
        "games_per_s": round(n_games / elapsed, 2),
        "decisions_per_s": round(decisions / elapsed, 1),
        "decisions": decisions,
        "invariant_failures": len(failures),
        "failures": failures[:20],
    }
    if as_json:
        echo_json(summary)
        return
    table = Table(title=f"{g.variant.code} {g.variant.name_zh}: {n_games} matches, {played} hands")
    table.add_column("seat")
    table.add_column("total", justify="right")
    for s, t in enumerate(totals):
        table.add_row(str(s), str(t))
    console.print(table)
    console.print(
        f"{summary['games_per_s']} games/s, {summary['decisions_per_s']} decisions/s, "
        f"invariant failures: {len(failures)}"
    )
    for failure in failures[:20]:
        console.print(f"[red]{failure}[/red]")


def describe_event(event: Event) -> str:
    """One readable line for an event: its type, then its fields (cards as text)."""
    fields = event.to_json()
    kind = fields.pop("type")
    seat = fields.pop("seat", None)
    who = f"seat {seat} · " if seat is not None else ""
    rest = ", ".join(f"{k} {json.dumps(v, ensure_ascii=False)}" for k, v in fields.items())
    return f"  {who}{kind}" + (f": {rest}" if rest else "")


class GenericTable:
    """The terminal table of a family without its own: the view, and numbered actions."""

    def __init__(self, game: Game, console: Console) -> None:
        self.game = game
        self.console = console

    def show(self, state: State, seat: int) -> None:
        self.console.print_json(json.dumps(state.view(seat), ensure_ascii=False))

    def ask(self, state: State, seat: int) -> Action:
        legal = state.legal_actions(seat)
        if legal:
            for i, action in enumerate(legal):
                self.console.print(f"  [{i}] {json.dumps(action.to_json(), ensure_ascii=False)}")
        while True:
            answer = ask_line("your action (a number, or the action's JSON)", type=str)
            try:
                if legal and answer.strip().isdigit() and int(answer) < len(legal):
                    return legal[int(answer)]
                action = self.game.parse_action(json.loads(answer))
                state.check(seat, action)
                return action
            except PaijuError as exc:
                self.console.print(f"[red]{explain(exc, terminal_lang())}[/red]")
            except ValueError as exc:
                self.console.print(f"[red]{exc}[/red]")


def _table(g: Game, console: Console) -> Any:
    path = FAMILIES[g.variant.family].terminal
    return GenericTable(g, console) if path is None else resolve(path)(g, console)


@cli.command()
@click.argument("code")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat.")
@click.option("--seats", type=int, help="Number of seats (default: the most the game allows).")
@click.option("--seed", help="Seed of the first hand (default: random).")
@click.option(
    "--hands",
    type=click.IntRange(min=1),
    help="Hands to play, with no question between them (default: the game's match, "
    "再来一局？ after each hand).",
)
@click.option(
    "--level",
    type=click.Choice(list(LEVELS)),
    default="normal",
    show_default=True,
    help="The bots' level: easy, normal, hard (简单, 普通, 困难).",
)
@variants_option
@pass_console
def play(
    console: Console,
    code: str,
    seat: int,
    seats: int | None,
    seed: str | None,
    hands: int | None,
    level: str,
) -> None:
    """Play in the terminal against bots: the game's match (8 局, 麻将 by 圈, 打弹子 to 30)
    hand after hand, 再来一局？ after each, then the match's 总结算 and 再来一场？; or
    ``--hands N`` hands straight. ``PAIJU_LANG=en`` speaks English.

    At every prompt 帮助 (help, ?) says what one can type and 退出 (quit, q) ends the game;
    退出 and the end of the input end it with exit status 0, Ctrl-C with 130, each with one
    line."""
    try:
        _play(console, code, seat, seats, seed, hands, level)
    except QuitGame:
        console.print(say(terminal_lang(), "已退出。", "quit."))
    except (KeyboardInterrupt, click.Abort):
        console.print(say(terminal_lang(), "已中断，游戏结束。", "interrupted: the game ends."))
        sys.exit(130)


def _play(
    console: Console,
    code: str,
    seat: int,
    seats: int | None,
    seed: str | None,
    hands: int | None,
    level: str,
) -> None:
    from paiju.fairness import new_seed

    g = game(code)
    n = g.seat_count(seats)
    if not 0 <= seat < n:
        raise click.BadParameter(f"seat must be 0-{n - 1}")
    base = seed if seed is not None else new_seed()[:12]
    seeds = (f"{base}/{h}" for h in range(10**6))
    bots = [make_bot(g, hash((base, s)) & 0xFFFF, level) for s in range(n)]
    ui = _table(g, console)
    lang = terminal_lang()
    name = g.variant.name_zh if lang == "zh" else g.variant.name_en
    console.print(f"[bold]{g.variant.code} {name}[/bold]")
    played = 0
    while True:
        match = Match(g, n, seeds, hands=hands)
        played += 1
        stopped = not _play_match(console, ui, match, bots, seat, lang, played)
        _tell_summary(console, g, match, seat, lang)
        if hands is not None or stopped or not _another(g.match_words, lang):
            break


def _play_match(
    console: Console, ui: Any, match: Match, bots: list[Any], seat: int, lang: Lang, number: int
) -> bool:
    """Play the hands of one match; False when the player stops before its end."""
    g = match.game
    hand_zh, hand_en = g.hand_words
    match_zh, match_en = g.match_words
    while not match.is_over:
        state = match.next_hand()
        n = len(match.hands)
        # the match's number once there are several, or where a match is a 局 of 盘 (打弹子)
        numbered = number > 1 or g.match_option is None
        if lang == "zh":
            head = f"第 {number} {match_zh} · " if numbered else ""
            title = f"{head}第 {n} {hand_zh}（种子 {state.seed}）"
        else:
            head = f"{match_en} {number} · " if numbered else ""
            title = f"{head}{hand_en} {n} (seed {state.seed})"
        console.rule(title)
        _play_hand(console, ui, state, bots, seat, lang)
        ui.show(state, seat)
        settlement = list(state.settlement())
        mine = settlement[seat]
        if lang == "zh":
            console.print(f"本{hand_zh}结算：{settlement}（你 {mine:+d}）；累计：{match.totals}")
        else:
            console.print(f"settlement: {settlement} (you {mine:+d}); totals: {match.totals}")
        if match.length is None and not match.is_over and not _another(g.hand_words, lang):
            return False
    return True


def _play_hand(
    console: Console, ui: Any, state: State, bots: list[Any], seat: int, lang: Lang
) -> None:
    while not state.is_over:
        for s in sorted(state.to_act()):
            if s not in state.to_act():
                continue
            if s == seat:
                ui.show(state, seat)
                action = ui.ask(state, seat)
            else:
                action = bots[s].act(state, s)
            try:
                events = state.apply(s, action)
            except IllegalAction as exc:
                console.print(f"[red]{explain(exc, lang)}[/red]")
                continue
            for event in events:
                audience = event.audience()
                if audience is None or seat in audience:
                    tell = getattr(ui, "event", None)
                    if tell is not None:
                        tell(state, seat, event)
                    else:
                        line = player_event(event.to_json(), seat, lang)
                        if line:
                            console.print(f"  {line}", style="dim")


def _tell_summary(console: Console, g: Game, match: Match, seat: int, lang: Lang) -> None:
    """总结算 of a match: each seat's total and hands won, and the 大赢家."""
    summary = match.summary()
    hand_zh, hand_en = g.hand_words

    def who(s: int) -> str:
        if lang == "zh":
            return f"{s + 1}号位" + ("（你）" if s == seat else "")
        return f"seat {s + 1}" + (" (you)" if s == seat else "")

    if lang == "zh":
        console.print(f"[bold]总结算[/bold]（{summary.hands} {hand_zh}）")
    else:
        console.print(f"[bold]match summary[/bold] ({summary.hands} {hand_en}s)")
    for s, (total, won) in enumerate(zip(summary.totals, summary.won, strict=True)):
        star = (" ★ 大赢家" if lang == "zh" else " ★ top winner") if s in summary.winners else ""
        if lang == "zh":
            console.print(f"  {who(s)}：{total:+d}，胜 {won} {hand_zh}{star}")
        else:
            console.print(f"  {who(s)}: {total:+d}, won {won}{star}")
    console.print(("总分：" if lang == "zh" else "totals: ") + str(list(summary.totals)))


def _another(words: tuple[str, str], lang: str) -> bool:
    """再来一局？ (or 一盘, 一场 …, in the game's words) — asked after each hand of ``paiju
    play`` without ``--hands``, and after a match; the end of the input is a no."""
    zh, en = words
    question = f"再来一{zh}？[Y/n]" if lang == "zh" else f"Another {en}? [Y/n]"
    try:
        answer = ask_line(question, default="y", show_default=False)
    except QuitGame:
        return False
    return str(answer).strip().lower() not in {"n", "no", "否", "不", "不要"}


@cli.command()
@click.argument("code", required=False)
@click.option("--family", help="Print the table for every variant of a family.")
@click.option("--chart", type=click.Path(dir_okay=False, path_type=Path), help="Chart file (PNG).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@variants_option
def odds(code: str | None, family: str | None, chart: Path | None, as_json: bool) -> None:
    """Exact odds of a game code (or of a whole family with --family)."""
    if (code is None) == (family is None):
        raise click.UsageError("give a CODE or --family FAMILY")
    fam_name = find_variant(code).family if code is not None else str(family)
    if fam_name not in FAMILIES:
        raise click.BadParameter(f"unknown family {fam_name!r}; families are {', '.join(FAMILIES)}")
    path = FAMILIES[fam_name].odds
    if path is None:
        raise NotImplementedFamily(f"the {FAMILIES[fam_name].name_zh} family has no odds yet")
    module = import_module(path)
    if code is not None:
        v = find_variant(code)
        result = module.odds(v)
        click.echo(
            json.dumps(result, ensure_ascii=False) if as_json else module.format_odds(v, result)
        )
        return
    variants = [v for v in catalog() if v.family == fam_name]
    report, text = module.family_report(variants, chart)
    click.echo(json.dumps(report, ensure_ascii=False) if as_json else text)
