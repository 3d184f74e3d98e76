"""``paiju duel CODE --levels hard,normal --deals N``: two bot levels on the same deals."""

from __future__ import annotations

import click
from rich.console import Console

from paiju.bots import level_name
from paiju.cli.app import cli, echo_json, pass_console, variants_option
from paiju.duel import duel as play_duel
from paiju.duel import event as play_event
from paiju.games import game

__all__ = ["duel", "event"]


@cli.command()
@click.argument("code")
@click.option(
    "--levels",
    default="hard,normal",
    show_default=True,
    help="Two levels, the first measured: easy, normal, hard (简单, 普通, 困难).",
)
@click.option("--deals", type=click.IntRange(min=2), default=20, show_default=True)
@click.option("--seed", default="0", show_default=True, help="Base seed of the deals.")
@click.option(
    "--per-hand",
    is_flag=True,
    help="Value every hand of each match by its own points (the mean per hand), not the match.",
)
@click.option("--budget-ms", type=float, help="The 困难 bot's thinking time per decision.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@variants_option
@pass_console
def duel(
    console: Console,
    code: str,
    levels: str,
    deals: int,
    seed: str,
    per_hand: bool,
    budget_ms: float | None,
    as_json: bool,
) -> None:
    """Play the first level against the second on the same seeded deals, seats rotated:
    the first level's mean result per deal (or per match) with its 95% interval."""
    names = [x for x in levels.replace("，", ",").split(",") if x.strip()]
    if len(names) != 2:
        raise click.BadParameter("--levels takes two levels, e.g. hard,normal")
    pair = (level_name(names[0]), level_name(names[1]))
    answer = play_duel(game(code), pair, deals, seed, per_hand=per_hand, budget_ms=budget_ms)
    if as_json:
        echo_json(answer)
        return
    lo, hi = answer["ci95"]
    console.print(
        f"{answer['code']}: {pair[0]} vs {pair[1]} over {deals} deals:"
        f" mean {answer['mean']:+.3f} per {answer['per']} (95% {lo:+.3f} … {hi:+.3f});"
        f" decisions p50 {answer['decision_ms']['p50']} ms, p99 {answer['decision_ms']['p99']} ms"
    )
    if "declarer" in answer:
        for side, row in answer["declarer"].items():
            console.print(f"  declarer ({side} level): made {row['made']} of {row['hands']}")


@cli.command()
@click.argument("code")
@click.option(
    "--entrants",
    default="hard,normal,easy",
    show_default=True,
    help="Two or more bot levels: easy, normal, hard (简单, 普通, 困难).",
)
@click.option("--deals", type=click.IntRange(min=2), default=20, show_default=True)
@click.option("--seed", default="0", show_default=True, help="Base seed of the deals.")
@click.option("--field", default="normal", show_default=True, help="The level in the other seats.")
@click.option("--budget-ms", type=float, help="The 困难 bot's thinking time per decision.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@variants_option
@pass_console
def event(
    console: Console,
    code: str,
    entrants: str,
    deals: int,
    seed: str,
    field: str,
    budget_ms: float | None,
    as_json: bool,
) -> None:
    """复式赛: every entrant plays every deal from the same seats against the same field;
    the duplicate standings, each with its 95% interval (the bot ladder)."""
    names = [x.strip() for x in entrants.replace("，", ",").split(",") if x.strip()]
    answer = play_event(game(code), names, deals, seed, field=field, budget_ms=budget_ms)
    if as_json:
        echo_json(answer)
        return
    console.print(
        f"{answer['code']}: {deals} deals, each from {answer['sides']} sides, field {field}"
    )
    for rank, row in enumerate(answer["standings"], 1):
        lo, hi = row["ci95"]
        console.print(
            f"{rank}. {row['entrant']:<7} {row['mean']:+.3f} per deal (95% {lo:+.3f} … {hi:+.3f});"
            f" ahead of the others by {row['vs_others']:+.3f}"
        )
