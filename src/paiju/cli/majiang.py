"""``paiju hu`` and ``paiju ting``: the 鞍山麻将 win check and payment of one hand, and the
waits (听牌) of a hand one tile short, from the command line.

``paiju hu anshan-majiang --hand TILES [--melds "c:123m p:555p k:1111z a:2222s"] --win TILE
[--self-drawn] --flip TILE [--qiang ming|an] [--reveal TILE] [--after-kong] [--dealer]
[--seat N --dealer-seat N [--from N] [--closed "N N"]] [--json]``

``paiju ting anshan-majiang --hand 13TILES [--melds "…"] --flip TILE [--option NAME=VALUE]
[--json]`` answers ``{"waits": [{"tile": "3m", "discard": bool, "self_drawn": bool,
"unseen": n}, …]}``.
"""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from paiju.catalog import find_variant
from paiju.cli.app import cli, echo_json, pass_console, variants_option
from paiju.errors import NotationError, PaijuError, UnknownVariant

__all__ = ["hu", "ting"]


@cli.command()
@click.argument("code")
@click.option("--hand", required=True, help="Concealed tiles before the winning tile.")
@click.option("--melds", default="", help='Melds: "c:123m p:555p k:1111z a:2222s".')
@click.option("--win", "win_tile", required=True, help="The winning tile.")
@click.option("--self-drawn", is_flag=True, help="The winning tile was drawn (自摸).")
@click.option("--flip", required=True, help="The flipped tile (揭) that names the 混.")
@click.option("--qiang", type=click.Choice(["ming", "an"]), default="ming", show_default=True)
@click.option("--reveal", default=None, help="暗枪: the tile turned up after the win.")
@click.option("--after-kong", is_flag=True, help="Drawn as a kong replacement (杠上开花).")
@click.option("--dealer", is_flag=True, help="The winner is the dealer (庄).")
@click.option("--seat", type=int, default=None, help="Payment mode: the winner's seat 0-3.")
@click.option("--dealer-seat", type=int, default=None, help="Payment mode: the dealer's seat.")
@click.option("--from", "from_seat", type=int, default=None, help="The discarder's seat.")
@click.option("--closed", default="", help='Losers who never opened (闭门), e.g. "0 3".')
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@variants_option
@pass_console
def hu(
    console: Console,
    code: str,
    hand: str,
    melds: str,
    win_tile: str,
    self_drawn: bool,
    flip: str,
    qiang: str,
    reveal: str | None,
    after_kong: bool,
    dealer: bool,
    seat: int | None,
    dealer_seat: int | None,
    from_seat: int | None,
    closed: str,
    as_json: bool,
) -> None:
    """Whether a 鞍山麻将 hand wins, its fans (番) and, with --seat, the payments."""
    from paiju.games.majiang.hu import hu as check

    try:
        variant = find_variant(code)
        if variant.family != "majiang":
            raise UnknownVariant(f"{code} is not a mahjong (麻将) variant")
        result = check(
            hand,
            win=win_tile,
            flip=flip,
            melds=melds,
            self_drawn=self_drawn,
            qiang=qiang,
            reveal=reveal,
            after_kong=after_kong,
            dealer=dealer,
            seat=seat,
            dealer_seat=dealer_seat,
            from_seat=from_seat,
            closed=closed,
        )
    except PaijuError as exc:
        if as_json:
            echo_json({"error": str(exc)})
        raise
    if as_json:
        echo_json(result)
        return
    verdict = "胡 win" if result["win"] else "不胡 no win"
    console.print(f"[bold]{verdict}[/bold]: {result['reason']}")
    if result["win"]:
        from paiju.games.majiang.score import FAN_EN

        table = Table(title=f"{result['fan']} 番 fan")
        table.add_column("番 fan")
        table.add_column("meaning")
        for name in result["fans"]:
            table.add_row(name, FAN_EN[name])
        console.print(table)
        groups = "  ".join(
            (g["tiles"] or "混") + ("+" + "混" * g["hun"] if g["hun"] and g["tiles"] else "")
            for g in result["groups"]
        )
        console.print(f"牌型 arrangement: {groups}")
    if result["pay"] is not None:
        pay = Table(title="付分 payments")
        for s in range(4):
            pay.add_column(f"座 seat {s}", justify="right")
        pay.add_row(*(f"{d:+d}" for d in result["pay"]))
        console.print(pay)
        for row in result.get("payments", []):
            extra = " ".join(row["extra"]) or "-"
            console.print(f"seat {row['seat']}: 2^{row['fan']} = {row['pay']}  (+ {extra})")


def _room_options(pairs: tuple[str, ...]) -> dict[str, object]:
    """``--option NAME=VALUE`` pairs as room options (true/false read as booleans)."""
    out: dict[str, object] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise NotationError(f"--option {pair!r}: write NAME=VALUE, e.g. hun=flip+next")
        out[name] = {"true": True, "false": False}.get(value, value)
    return out


@cli.command()
@click.argument("code")
@click.option("--hand", required=True, help="The concealed tiles: 13 less 3 per meld.")
@click.option("--melds", default="", help='Melds: "c:123m p:555p k:1111z a:2222s".')
@click.option("--flip", required=True, help="The flipped tile (揭) that names the 混.")
@click.option(
    "--option",
    "options",
    multiple=True,
    help="A room option NAME=VALUE (hun=flip+next, shisanyao=thirteen-orphans, …); repeatable.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the waits as JSON.")
@variants_option
@pass_console
def ting(
    console: Console,
    code: str,
    hand: str,
    melds: str,
    flip: str,
    options: tuple[str, ...],
    as_json: bool,
) -> None:
    """The waits (听牌) of a 鞍山麻将 hand: each tile that completes it on a discard and/or on
    a self-draw, and how many of it the seat has not seen."""
    from paiju.games.majiang.ting import ting as waits_of

    variant = find_variant(code)
    if variant.family != "majiang":
        raise UnknownVariant(f"{code} is not a mahjong (麻将) variant")
    result = waits_of(hand, flip=flip, melds=melds, options=_room_options(options))
    if as_json:
        echo_json(result)
        return
    if not result["waits"]:
        console.print("不听 not ready: no tile completes this hand")
        return
    table = Table(title="听牌 waits")
    table.add_column("牌 tile")
    table.add_column("点炮 discard")
    table.add_column("自摸 self-drawn")
    table.add_column("未见 unseen", justify="right")
    for w in result["waits"]:
        table.add_row(
            w["tile"],
            "✓" if w["discard"] else "-",
            "✓" if w["self_drawn"] else "-",
            str(w["unseen"]),
        )
    console.print(table)
    total = sum(w["unseen"] for w in result["waits"])
    console.print(f"{len(result['waits'])} 种 kinds, {total} 张 tiles unseen")
