"""``paiju tribute``: the 宁城打弹子 进贡/还贡 questions (the reading's §15).

``paiju tribute ningcheng-danzi HAND --count N`` names the automatic tribute and whether
骚贡 applies; with ``--give CARDS`` it judges a tribute, and with ``--received CARDS --give
CARDS`` a return (还贡).
"""

from __future__ import annotations

import click
from rich.console import Console

from paiju.catalog import find_variant
from paiju.cli.app import cli, echo_json, pass_console, variants_option

__all__ = ["tribute"]


@cli.command()
@click.argument("code")
@click.argument("hand")
@click.option("--count", type=int, help="How many cards the giver owes (进贡).")
@click.option("--give", help="The cards given (a tribute, or with --received a return).")
@click.option("--received", help="The tribute received, to judge a return (还贡).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@variants_option
@pass_console
def tribute(
    console: Console,
    code: str,
    hand: str,
    count: int | None,
    give: str | None,
    received: str | None,
    as_json: bool,
) -> None:
    """进贡/还贡 of 宁城打弹子: the automatic tribute, or whether a tribute or return is legal."""
    variant = find_variant(code)
    if variant.family != "danzi":
        raise click.BadParameter(f"{code} has no tribute (进贡); it is a {variant.family} game")
    from paiju.games.danzi.contract import tribute_json

    answer = tribute_json(hand, count, give, received)
    if as_json:
        echo_json(answer)
        return
    if "free" in answer:
        how = "骚贡 free choice (no 王, 3 or 2)" if answer["free"] else "automatic 自动"
        console.print(f"tribute 进贡: {answer['cards']}  ({how})")
    elif answer["legal"]:
        console.print("legal 合法")
    else:
        console.print(f"not legal 不合法: {answer['message']}")
