"""``paiju compare`` and ``paiju group``: the 宝子 / 佳佳宝 commands.

``paiju compare CODE BANKER PLAYER`` reads both hands and says who wins (the banker's hand
first); ``paiju group CODE "4 cards"`` runs the 佳佳宝 grouping solver.
"""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console
from rich.table import Table

from paiju.cli.app import cli, echo_json, pass_console, variants_option

__all__ = ["compare", "group"]

_WINNER = {
    "banker": "庄家赢 the banker wins",
    "player": "闲家赢 the player wins",
    "push": "和 push",
}


def _hand(side: dict[str, Any]) -> str:
    if "groups" in side:
        return f"{side['groups']}  (前 {side['front']['name']}, 后 {side['back']['name']})"
    return f"{side['cards']}  ({side['name']})"


@cli.command()
@click.argument("code")
@click.argument("banker")
@click.argument("player")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@variants_option
@pass_console
def compare(console: Console, code: str, banker: str, player: str, as_json: bool) -> None:
    """Compare a banker's hand with a player's (宝子 "As Kd"; 佳佳宝 "As Kd / 5c 5h")."""
    from paiju.games.baozi.compare import compare_text

    result = compare_text(code, banker, player)
    if as_json:
        echo_json(result)
        return
    console.print(f"banker 庄家: {_hand(result['banker'])}")
    console.print(f"player 闲家: {_hand(result['player'])}")
    if "groups" in result:
        groups = result["groups"]
        console.print(f"front 前: {_WINNER[groups['front']]}; back 后: {_WINNER[groups['back']]}")
    console.print(f"[bold]{_WINNER[result['winner']]}[/bold]")


@cli.command()
@click.argument("code")
@click.argument("cards")
@click.option(
    "--as",
    "role",
    type=click.Choice(["player", "banker"]),
    default="player",
    show_default=True,
    help="Group as the player or as the banker (ties go to the banker where the code says).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@variants_option
@pass_console
def group(console: Console, code: str, cards: str, role: str, as_json: bool) -> None:
    """The best 佳佳宝 grouping of four cards against a random opponent hand."""
    from paiju.games.baozi.solver import group_text

    result = group_text(code, cards, "banker" if role == "banker" else "player")
    if as_json:
        echo_json(result)
        return
    table = Table(
        title=f"{result['code']} {result['cards']} as {role}: "
        f"every split against all {result['opponent_hands']:,} opponent hands"
    )
    for name in ("front / back 前 / 后", "win", "push", "loss", "expected"):
        table.add_column(name, justify="left" if name.startswith("front") else "right")
    for row in result["groupings"]:
        table.add_row(
            row["groups"],
            _pct(row["win"]),
            _pct(row["push"]),
            _pct(row["loss"]),
            f"{row['expected']:+.4f}",
        )
    console.print(table)
    console.print(f"best: [bold]{result['best']}[/bold]")


def _pct(fraction: str) -> str:
    from fractions import Fraction

    return f"{float(Fraction(fraction)):.2%}"
