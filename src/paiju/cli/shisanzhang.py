"""``paiju showdown``: compare and settle 十三张 hands (比牌/结算) from the command line."""

from __future__ import annotations

import click
from rich.console import Console

from paiju.cli.app import cli, echo_json, pass_console, variants_option
from paiju.games.shisanzhang.spec import SCORINGS
from paiju.games.shisanzhang.terminal import format_showdown

__all__ = ["showdown"]


@cli.command()
@click.argument("code")
@click.argument("hands", nargs=-1, required=True)
@click.option("--banker", type=int, help="The banker's seat (banker games only).")
@click.option(
    "--scoring", type=click.Choice(SCORINGS), help="Settlement (default: the code's own)."
)
@click.option("--stake", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--favoured", is_flag=True, help="Banker-favoured comparison (banker games).")
@click.option("--bets", help="Banker games: each seat's bet (下注), comma-separated, e.g. 0,2,1,5.")
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
    bets: str | None,
    as_json: bool,
) -> None:
    """Compare and settle 十三张 HANDS under CODE.

    A HAND is an arrangement 'front / middle / back' (3, 5 and 5 cards) or 13 cards:
    the player declares its special hand.
    """
    from paiju.games.shisanzhang.showdown import showdown as run

    amounts = None
    if bets is not None:
        try:
            amounts = [int(x) for x in bets.split(",")]
        except ValueError:
            msg = f"--bets takes whole numbers like 0,2,1,5, got {bets!r}"
            raise click.BadParameter(msg) from None
    result = run(
        code,
        hands,
        banker=banker,
        scoring=scoring,
        stake=stake,
        favoured=favoured,
        bets=amounts,
    )
    if as_json:
        echo_json(result)
    else:
        format_showdown(console, result)
