"""Server tests: their helpers (``server_helpers``) live in this folder, and the toy game
of ``tests/toy.py`` is registered for the whole session (the server subprocesses register
it too, through ``launch.py``) for each test module, and removed after it."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for folder in (str(HERE), str(HERE.parent)):
    if folder not in sys.path:
        sys.path.insert(0, folder)

from paiju import games  # noqa: E402
from toy import TOY_TOML  # noqa: E402

catalog_module = importlib.import_module("paiju.catalog")


@pytest.fixture(scope="module", autouse=True)
def toy_family(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The toy family and its variant file, for one test module."""
    path = tmp_path_factory.mktemp("toy") / "toy.toml"
    path.write_text(TOY_TOML, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(games.FAMILIES, "toy", games.Family("玩具", "Toy", game="toy:ToyGame"))
        mp.setattr(catalog_module, "_extra_files", [*catalog_module._extra_files, str(path)])
        catalog_module._load.cache_clear()
        yield path
    catalog_module._load.cache_clear()


# -- PostgreSQL ------------------------------------------------------------------------------

import importlib.util  # noqa: E402
import os  # noqa: E402

from pg import PostgresCluster, find_bindir  # noqa: E402

REQUIRE_POSTGRES = os.environ.get("PAIJU_REQUIRE_POSTGRES") == "1"
"""CI sets PAIJU_REQUIRE_POSTGRES=1 (``.ci/run``): there a missing PostgreSQL fails the
PostgreSQL tests instead of skipping them."""


def _no_postgres(reason: str) -> None:
    if REQUIRE_POSTGRES:
        pytest.fail(f"{reason}, and PAIJU_REQUIRE_POSTGRES=1 requires PostgreSQL", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A throwaway PostgreSQL server for the session (``tests/pg.py``): started on first
    use, stopped and deleted at the end. Skips when PostgreSQL or psycopg is missing,
    unless ``PAIJU_REQUIRE_POSTGRES=1``."""
    if importlib.util.find_spec("psycopg") is None:
        _no_postgres("the psycopg driver is not installed (pip install -e '.[dev]')")
    bindir = find_bindir()
    if bindir is None:
        where = os.environ.get("PAIJU_PG_BINDIR") or "PATH or /usr/lib/postgresql/*/bin"
        _no_postgres(
            f"no PostgreSQL server binaries (initdb, pg_ctl) in {where}"
            " (Debian: apt-get install postgresql)"
        )
        return
    cluster = PostgresCluster(bindir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def postgres_dsn(postgres_cluster: PostgresCluster) -> str:
    """The session's PostgreSQL server: its superuser's DSN on the ``postgres`` database."""
    return postgres_cluster.admin_dsn


@pytest.fixture
def postgres_db(postgres_cluster: PostgresCluster) -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test (``postgresql://…``, no driver
    named, as a user passes it to ``--db``); dropped after the test."""
    dsn = postgres_cluster.create_database()
    yield dsn
    postgres_cluster.drop_database(dsn)


# -- Redis -----------------------------------------------------------------------------------

from redis_server import RedisServer, find_redis_server  # noqa: E402

REQUIRE_REDIS = os.environ.get("PAIJU_REQUIRE_REDIS") == "1"
"""CI sets PAIJU_REQUIRE_REDIS=1 (``.ci/run``): there a missing Redis fails the cluster
tests instead of skipping them."""


def _no_redis(reason: str) -> None:
    if REQUIRE_REDIS:
        pytest.fail(f"{reason}, and PAIJU_REQUIRE_REDIS=1 requires Redis", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A throwaway Redis server for the session (``tests/redis_server.py``). Skips when
    ``redis-server`` or the redis client library is missing, unless ``PAIJU_REQUIRE_REDIS=1``."""
    if importlib.util.find_spec("redis") is None:
        _no_redis("the redis client library is not installed (pip install -e '.[dev]')")
    binary = find_redis_server()
    if binary is None:
        _no_redis("no redis-server binary on PATH (Debian: apt-get install redis-server)")
        return
    server = RedisServer(binary)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """A fresh, empty Redis database for one test (``redis://127.0.0.1:PORT/N``)."""
    return redis_server.fresh_url()
