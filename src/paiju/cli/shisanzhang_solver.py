"""``paiju arrange``: the 十三张 solver's recommended arrangement (推荐摆法) of 13 cards."""

from __future__ import annotations

import sys
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from paiju.cli.app import cli, echo_json, pass_console, variants_option

__all__ = ["arrange_command"]


def _show(console: Console, code: str, result: dict[str, Any], scoring: str | None) -> None:
    from paiju.cards import parse_cards
    from paiju.catalog import find_variant
    from paiju.games.shisanzhang.solver import expected_score

    rows = [parse_cards(result[k]) for k in ("front", "middle", "back")]
    best = expected_score(find_variant(code), *rows, scoring=scoring)
    table = Table(title=f"{code} 推荐摆法 (recommended arrangement)")
    table.add_column("#")
    table.add_column("头墩 front")
    table.add_column("中墩 middle")
    table.add_column("尾墩 back")
    table.add_column("expected score / opponent", justify="right")
    table.add_row("1", result["front"], result["middle"], result["back"], f"{best:+.3f}")
    for i, alt in enumerate(result["alternatives"], start=2):
        table.add_row(
            str(i), alt["front"], alt["middle"], alt["back"], f"{alt['expected_score']:+.3f}"
        )
    console.print(table)
    if result["special"]:
        console.print(f"special hand (特殊牌型) this code lets you declare: {result['special']}")


@cli.command("arrange")
@variants_option
@click.argument("code")
@click.argument("cards")
@click.option("--scoring", default=None, help="Settlement to optimise for (default: the code's).")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON contract object.")
@pass_console
def arrange_command(
    console: Console, code: str, cards: str, scoring: str | None, as_json: bool
) -> None:
    """Arrange 13 CARDS for CODE (自动摆牌); CARDS '-' reads one hand per line from stdin."""
    from paiju.games.shisanzhang.solver import arrange

    if cards != "-":
        result = arrange(code, cards, scoring=scoring)
        if as_json:
            echo_json(result)
        else:
            _show(console, code, result, scoring)
        return
    for line in sys.stdin:
        if not line.strip():
            continue
        result = arrange(code, line, scoring=scoring)
        if as_json:
            echo_json(result)
        else:
            _show(console, code, result, scoring)
