"""The ``paiju`` command group, the options every command shares, and error handling.

Family modules add their own commands to :data:`cli` (``paiju.cli.shisanzhang`` …).
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.console import Console

from paiju import __version__
from paiju.catalog import add_variant_file, load_file
from paiju.errors import PaijuError

__all__ = ["cli", "echo_json", "main", "pass_console", "variants_option"]

F = TypeVar("F", bound=Callable[..., Any])


def _add_variants(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> None:
    from paiju.games import check_catalog

    for path in value:
        add_variant_file(path)
        check_catalog(load_file(path))  # its families and params, with the file's own error


def variants_option(func: F) -> F:
    """``--variants FILE`` (repeatable): load a user's variant file before the command."""
    return click.option(
        "--variants",
        "variants",
        multiple=True,
        type=click.Path(dir_okay=False),
        expose_value=False,
        is_eager=True,
        callback=_add_variants,
        help="A TOML file of extra variants (also: the PAIJU_VARIANTS environment variable).",
    )(func)


def pass_console(func: F) -> F:
    """Give the command a Rich console on stdout as its first argument."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return func(Console(highlight=False), *args, **kwargs)

    return wrapper  # type: ignore[return-value]


def echo_json(obj: Any) -> None:
    """Print one JSON document (UTF-8, Chinese as is)."""
    click.echo(json.dumps(obj, ensure_ascii=False))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="paiju")
@variants_option
def cli() -> None:
    """paiju (牌局): Chinese regional card and tile games."""


def main(argv: list[str] | None = None) -> None:
    """The console script: one clear line on stderr and exit status 2 for every error."""
    try:
        cli.main(args=argv, prog_name="paiju", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("paiju: aborted", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        click.echo(f"paiju: error: {exc.format_message()}", err=True)
        sys.exit(2)
    except PaijuError as exc:
        click.echo(f"paiju: error: {exc}", err=True)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(0)
