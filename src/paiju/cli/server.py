"""``paiju serve`` (the game server) and ``paiju verify GAME_ID`` (a game's fairness proof)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import click

from paiju.cli.app import cli, echo_json, variants_option
from paiju.errors import PaijuError

__all__ = ["serve", "verify"]


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--db",
    default="paiju.db",
    show_default=True,
    help="SQLite file, or a SQLAlchemy DSN such as postgresql://user@host/paiju.",
)
@click.option(
    "--limit",
    "limit",
    multiple=True,
    metavar="NAME=VALUE",
    help="Change one of the server's limits (docs/protocol.md, Limits), e.g. "
    "--limit registrations_per_address=100 --limit min_bot_delay=0. Repeatable.",
)
@click.option(
    "--admin-token",
    envvar="PAIJU_ADMIN_TOKEN",
    help="The operator's bearer token (or PAIJU_ADMIN_TOKEN): it may close any room.",
)
@click.option(
    "--allow-rollback",
    is_flag=True,
    help="Serve from a database that went back in time (lost its last commits) anyway.",
)
@click.option(
    "--redis",
    "redis_url",
    metavar="URL",
    help="Run as one node of a cluster (docs/deploy.md): Redis for the limits, e.g."
    " redis://127.0.0.1:6379/0; needs --db postgresql://… shared by every node.",
)
@click.option(
    "--node", metavar="NAME", help="This node's name in the cluster (default: host-port)."
)
@click.option(
    "--public-url",
    metavar="URL",
    help="How clients reach this node (default: http://HOST:PORT), e.g. https://games.example/a.",
)
@click.option(
    "--lease-ttl",
    type=click.FloatRange(3.0, 600.0),
    default=5.0,
    show_default=True,
    help="A cluster node's room leases last this many seconds unless renewed (every"
    " second): a dead node's rooms are taken over after about this long.",
)
@click.option(
    "--commit-spacing",
    type=click.FloatRange(0.0, 0.1),
    default=0.016,
    show_default=True,
    help="A cluster node starts a group commit this many seconds after its last one at the"
    " soonest while actions keep coming, unless 32 writes are pending: fewer, larger"
    " commits, for that much more wait (0: each starts when the last is stored).",
)
@variants_option
def serve(
    host: str,
    port: int,
    db: str,
    limit: tuple[str, ...],
    admin_token: str | None,
    allow_rollback: bool,
    redis_url: str | None,
    node: str | None,
    public_url: str | None,
    lease_ttl: float,
    commit_spacing: float,
) -> None:
    """Run the game server (REST, WebSockets, the web client) until Ctrl-C."""
    from paiju.server import serve as run

    limits = _limits(limit)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    config = _node(
        redis_url,
        node,
        public_url,
        db,
        f"http://{shown}:{port}",
        lease_ttl,
        commit_spacing,
    )
    click.echo(f"paiju server: open http://{shown}:{port}/  (API: /docs; database: {_shown(db)})")
    if config is not None:
        click.echo(f"cluster node {config.name} at {config.public_url} (Redis: {redis_url})")
    click.echo("Press Ctrl-C to stop.")
    cluster = {} if config is None else {"node": config}  # without --redis: one server
    run(
        host=host,
        port=port,
        db=db,
        limits=limits,
        admin_token=admin_token,
        allow_rollback=allow_rollback,
        **cluster,
    )


def _limits(pairs: tuple[str, ...]) -> Any:
    """The server's :class:`~paiju.server.options.Limits` with ``NAME=VALUE`` changes."""
    from pydantic import ValidationError

    from paiju.server.options import Limits

    changes: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or name.strip() not in Limits.model_fields:
            known = ", ".join(sorted(Limits.model_fields))
            raise PaijuError(f"--limit {pair!r}: give NAME=VALUE with a NAME among {known}")
        changes[name.strip()] = value.strip()
    try:
        return Limits.model_validate(changes)
    except ValidationError as exc:
        problems = "; ".join(f"{e['loc'][0]}: {e['msg']}" for e in exc.errors())
        raise PaijuError(f"--limit: {problems}") from None


def _node(
    redis_url: str | None,
    node: str | None,
    public_url: str | None,
    db: str,
    default_url: str,
    lease_ttl: float = 5.0,
    commit_spacing: float = 0.016,
) -> Any:
    """The :class:`~paiju.server.cluster.NodeConfig` of ``--redis`` (None without it)."""
    if redis_url is None:
        if node is not None or public_url is not None:
            raise PaijuError("--node and --public-url name a cluster node: give --redis too")
        return None
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise PaijuError(f"--redis {redis_url!r}: give a URL such as redis://127.0.0.1:6379/0")
    if not db.startswith(("postgresql://", "postgres://", "postgresql+")):
        raise PaijuError(
            "a cluster node (--redis) shares a PostgreSQL database with the other nodes:"
            f" give --db postgresql://user@host/dbname, not {db!r}"
        )
    import socket

    from paiju.server.cluster import NodeConfig

    name = node or f"{socket.gethostname()}-{default_url.rsplit(':', 1)[-1]}"
    return NodeConfig(
        name=name,
        public_url=(public_url or default_url).rstrip("/"),
        redis_url=redis_url,
        lease_ttl=lease_ttl,
        commit_spacing=commit_spacing,
    )


def _shown(db: str) -> str:
    """``--db`` as printed: a DSN's password hidden."""
    if "://" not in db:
        return db
    from sqlalchemy.engine import make_url

    return make_url(db).render_as_string(hide_password=True)


def _fetch(url: str, token: str | None) -> dict[str, Any]:
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            result: dict[str, Any] = json.load(answer)
            return result
    except urllib.error.HTTPError as exc:
        try:
            detail = json.load(exc)["error"]["message"]
        except Exception:
            detail = exc.reason
        raise PaijuError(f"{url}: {exc.code} {detail}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise PaijuError(f"cannot reach {url}: {exc}") from None


def _local_record(db: str, game_id: int) -> dict[str, Any]:
    from paiju.server.store import Store
    from paiju.server.verify import game_record

    store = Store(db)
    try:
        hand = store.hand(game_id)
        if hand is None:
            raise PaijuError(f"no game {game_id} in {store.url}")
        if hand.status != "over":
            raise PaijuError(f"game {game_id} is still in play; its seed is not revealed yet")
        room = store.room(hand.room_id)
        stake = None if room is None else int(room.options.get("stake", 1))
        return game_record(hand, store.ledger_of_hand(game_id), stake)
    finally:
        store.close()


@cli.command()
@click.argument("game_id", type=int)
@click.option("--db", default="paiju.db", show_default=True, help="The server's database.")
@click.option("--url", help="Ask a running server instead, e.g. http://127.0.0.1:8000.")
@click.option("--token", envvar="PAIJU_TOKEN", help="Your bearer token for --url (or PAIJU_TOKEN).")
@click.option("--json", "as_json", is_flag=True, help="Print the checks as JSON.")
@click.option(
    "--client-seed",
    "client_seed",
    help="The client seed you sent for this hand: check that the deal was made with it.",
)
@variants_option
def verify(
    game_id: int,
    db: str,
    url: str | None,
    token: str | None,
    as_json: bool,
    client_seed: str | None,
) -> None:
    """Re-deal a finished game from its revealed seed and the players' client seeds
    (docs/fairness.md); check the commitment, the deal, the log and the settlement."""
    from paiju.server.verify import require_fair, verify_game

    source = f"{url.rstrip('/')}/api/games/{game_id}" if url else None
    record = _fetch(source, token) if source else _local_record(db, game_id)
    result = verify_game(record)
    if client_seed is not None:
        seeds = record.get("client_seeds") or []
        seats = [i for i, s in enumerate(seeds) if s == client_seed]
        result["checks"].append(
            {
                "name": "your seed",
                "ok": bool(seats),
                "detail": f"the client seed {client_seed!r} "
                + (f"is seat {seats[0]}'s in the deal seed" if seats else "is not in this deal"),
            }
        )
        result["ok"] = result["ok"] and bool(seats)
    if as_json:
        echo_json(result)
    else:
        for check in result["checks"]:
            mark = "ok " if check["ok"] else "BAD"
            click.echo(f"{mark} {check['name']:<10} {check['detail']}")
    if not result["ok"]:
        require_fair(result)
    elif not as_json:
        click.echo(f"game {game_id} ({record['code']}) verifies: the deal was fair.")


@cli.command()
@click.argument("game_id", type=int, required=False)
@click.option("--seat", "seat", type=int, required=True, help="The seat whose decisions to review.")
@click.option("--db", default="paiju.db", show_default=True, help="The server's database.")
@click.option(
    "--file",
    "path",
    type=click.Path(exists=True, dir_okay=False),
    help="A replay file instead (a game record, as GET /api/games/ID answers it).",
)
@click.option(
    "--samples",
    type=click.IntRange(1, 256),
    default=12,
    show_default=True,
    help="Sampled worlds each decision is valued in.",
)
@click.option(
    "--worlds",
    type=click.IntRange(1, 10_000),
    default=200,
    show_default=True,
    help="Fields a 十三张 arrangement is settled against (the others' hands dealt anew).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The review's own seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@variants_option
def review(
    game_id: int | None,
    seat: int,
    db: str,
    path: str | None,
    samples: int,
    worlds: int,
    seed: int,
    as_json: bool,
) -> None:
    """复盘: each decision of a seat in a finished game against the 困难 bot's search:
    the played and the best action, their expected points and the loss."""
    from paiju.review import review_record

    if path is not None:
        with open(path, encoding="utf-8") as f:
            try:
                record = json.load(f)
            except ValueError as exc:
                raise PaijuError(f"{path} is not a JSON game record: {exc}") from None
    elif game_id is not None:
        record = _local_record(db, game_id)
    else:
        raise PaijuError("name a GAME_ID (of --db) or a --file")
    result = review_record(record, seat, samples, seed, worlds)
    if as_json:
        echo_json(result)
        return
    click.echo(
        f"game {result['game']} ({result['code']}), seat {seat}: {result['reviewed']} decisions,"
        f" {result['matched']} as the bot's, {result['loss_per_hand']} points lost"
    )
    for d in sorted(result["decisions"], key=lambda d: -d["loss"]):
        mark = "!" if d["mistake"] else " "
        click.echo(
            f"{mark} #{d['index']:<3} played {json.dumps(d['played'], ensure_ascii=False)}"
            f" ({d['value_played']:+.2f}); best {json.dumps(d['best'], ensure_ascii=False)}"
            f" ({d['value_best']:+.2f}); loss {d['loss']:.2f} [{d['method']}]"
        )
