"""``paiju showdown``: compare and settle 十三张 hands (比牌/结算) from the command line."""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console
from rich.table import Table

from paiju.cli.app import cli, echo_json, pass_console, variants_option
from paiju.games.shisanzhang.spec import SCORINGS

__all__ = ["format_showdown", "showdown"]


def _hand_text(hand: dict[str, Any]) -> str:
    if "declared" in hand:
        return f"{hand['declared']}: {hand['cards']}"
    return f"{hand['front']} / {hand['middle']} / {hand['back']}"


def _hand_kind(hand: dict[str, Any]) -> str:
    if "declared" in hand:
        return str(hand["declared"])
    kind = " / ".join(hand["categories"])
    return f"倒水 ({kind})" if hand["foul"] else kind


def _pair_text(pair: dict[str, Any]) -> str:
    a, b = pair["seats"]
    marks = {1: "+", -1: "-", 0: "=", None: "·"}
    if pair["decided_by"] == "special":
        how = "special hand"
    else:
        how = "rows " + " ".join(marks[r] for r in pair["rows"])
        if pair["decided_by"] == "foul":
            how += " (倒水)"
    extra = []
    if pair["gun"] is not None:
        extra.append(f"打枪 by seat {pair['gun']}")
    for bonus in pair["bonuses"]:
        extra.append(f"{bonus['name']} {bonus['row']} seat {bonus['seat']} +{bonus['points']}")
    sa, sb = pair["scores"]
    tail = f" [{'; '.join(extra)}]" if extra else ""
    return f"seat {a} vs seat {b}: {how} -> {sa:+d} / {sb:+d}{tail}"


def format_showdown(console: Console, result: dict[str, Any]) -> None:
    """Print a showdown result as a table (one row per seat), then the pairs."""
    title = f"{result.get('code', '')} showdown — {result['scoring']} scoring"
    if result.get("banker") is not None:
        title += f", banker seat {result['banker']}"
    table = Table(title=title)
    for column in ("seat", "hand", "shape", "score"):
        table.add_column(column, justify="right" if column in ("seat", "score") else "left")
    for seat, (hand, score) in enumerate(zip(result["hands"], result["scores"], strict=True)):
        table.add_row(str(seat), _hand_text(hand), _hand_kind(hand), f"{score:+d}")
    console.print(table)
    for pair in result["pairs"]:
        console.print(_pair_text(pair))
    for seat in result.get("homeruns", []):
        console.print(f"全垒打: seat {seat}")


@cli.command()
@click.argument("code")
@click.argument("hands", nargs=-1, required=True)
@click.option("--banker", type=int, help="The banker's seat (banker games only).")
@click.option(
    "--scoring", type=click.Choice(SCORINGS), help="Settlement (default: the code's own)."
)
@click.option("--stake", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--favoured", is_flag=True, help="Banker-favoured comparison (banker games).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@variants_option
@pass_console
def showdown(
    console: Console,
    code: str,
    hands: tuple[str, ...],
    banker: int | None,
    scoring: str | None,
    stake: int,
    favoured: bool,
    as_json: bool,
) -> None:
    """Compare and settle 十三张 HANDS under CODE.

    A HAND is an arrangement 'front / middle / back' (3, 5 and 5 cards) or 13 cards:
    the player declares its special hand.
    """
    from paiju.games.shisanzhang.showdown import showdown as run

    result = run(code, hands, banker=banker, scoring=scoring, stake=stake, favoured=favoured)
    if as_json:
        echo_json(result)
    else:
        format_showdown(console, result)
