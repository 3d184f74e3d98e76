"""``paiju combo``, ``beats``, ``call``, ``settle``, ``jiefeng``: the climbing family's questions.

Each command asks the game of CODE (a :class:`~paiju.games.climbing.core.ClimbingGame`),
whose methods ``combo_json``, ``beats_json``, ``call_json``, ``settle_json`` and
``jiefeng_json`` answer; a new game of the family overrides them, the commands stay.
``settle`` and ``jiefeng`` read one JSON object on stdin. Errors exit 2 with one line.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from paiju.cli.app import cli, echo_json, variants_option
from paiju.errors import IllegalAction, ProtocolError

__all__ = ["beats", "call", "combo", "jiefeng", "settle"]


def _game(code: str, options: tuple[str, ...] = ()) -> Any:
    from paiju.games import game
    from paiju.games.climbing.core import ClimbingGame

    g = game(code, **_options(options))
    if not isinstance(g, ClimbingGame):
        raise IllegalAction(f"{code} is not a climbing game (出牌 family)", reason="not_climbing")
    return g


def _options(pairs: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"--option {pair!r}: write NAME=VALUE")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def _stdin() -> Any:
    text = sys.stdin.read()
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"stdin is not one JSON object: {exc}") from None


def _print(result: dict[str, Any], as_json: bool, line: str) -> None:
    if as_json:
        echo_json(result)
    else:
        click.echo(line)


_OPTION = click.option(
    "--option",
    "options",
    multiple=True,
    help="A room option NAME=VALUE (e.g. quads_beat_all=true, call_max=K); repeatable.",
)


@cli.command()
@click.argument("code")
@click.argument("cards")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@_OPTION
@variants_option
def combo(code: str, cards: str, as_json: bool, options: tuple[str, ...]) -> None:
    """The combination (牌型) CARDS make under CODE; exit 2 when they make none."""
    result = _game(code, options).combo_json(cards)
    _print(result, as_json, f"{result['kind_zh']} ({result['kind']}) of {result['rank']}")


@cli.command()
@click.argument("code")
@click.argument("lead")
@click.argument("play")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@_OPTION
@variants_option
def beats(code: str, lead: str, play: str, as_json: bool, options: tuple[str, ...]) -> None:
    """Whether PLAY beats LEAD (the play on the table) under CODE."""
    result = _game(code, options).beats_json(lead, play)
    _print(result, as_json, f"{'yes' if result['beats'] else 'no'}: {result['reason']}")


@cli.command()
@click.argument("code")
@click.argument("card")
@click.argument("banker_hand")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@_OPTION
@variants_option
def call(code: str, card: str, banker_hand: str, as_json: bool, options: tuple[str, ...]) -> None:
    """Whether the banker holding BANKER_HAND may call CARD (放羊), and the mode it makes."""
    result = _game(code, options).call_json(card, banker_hand)
    line = f"allowed: {result['mode']}" if result["allowed"] else f"not allowed: {result['reason']}"
    _print(result, as_json, line)


@cli.command()
@click.argument("code")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@_OPTION
@variants_option
def settle(code: str, as_json: bool, options: tuple[str, ...]) -> None:
    """The payout of a finishing order read as JSON on stdin (fields per game)."""
    result = _game(code, options).settle_json(_stdin())
    _print(result, as_json, f"{result['result']}: {result['deltas']}")


@cli.command()
@click.argument("code")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@_OPTION
@variants_option
def jiefeng(code: str, as_json: bool, options: tuple[str, ...]) -> None:
    """接风: who leads after a finisher's last play stood (JSON on stdin)."""
    result = _game(code, options).jiefeng_json(_stdin())
    _print(result, as_json, f"seat {result['leader']} leads")
