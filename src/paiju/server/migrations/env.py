"""Alembic environment of the paiju server: migrates the database named by the config.

The URL comes from ``-x db=...`` on the command line, else from the config's
``sqlalchemy.url`` (the server sets it), read as ``paiju serve --db`` reads it (a SQLite
path, or a DSN: ``postgresql://`` uses psycopg 3), and a connection handed in through
``config.attributes["connection"]`` is used as is.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

import paiju.server.accounts.tables
import paiju.server.admin.tables
import paiju.server.clubs.tables
import paiju.server.events.tables
import paiju.server.ratings.tables
import paiju.server.reviews.tables  # noqa: F401
from paiju.server.store import database_url
from paiju.server.tables import metadata

target_metadata = metadata


def run_migrations_online() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("db") or config.get_main_option(
        "sqlalchemy.url"
    )
    assert url is not None
    engine = create_engine(database_url(url))
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


def run_migrations_offline() -> None:
    context.configure(
        url=context.config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _running_under_alembic() -> bool:
    """False when the module is merely imported (pytest's doctest collection)."""
    try:
        context.config  # noqa: B018 - the proxy raises outside an Alembic run
    except (NameError, AttributeError):
        return False
    return True


if _running_under_alembic():
    if context.is_offline_mode():
        run_migrations_offline()
    else:
        run_migrations_online()
