"""Alembic's environment for the arena's schema.

The store runs the migrations on its own connection, inside its write
transaction (``config.attributes["connection"]``): nothing here begins or
commits then. Alembic's command line (``alembic -c arena/storage/alembic.ini``)
gets a database from ``-x db=URL``, else ``ARENA_DB``, else ``arena.db``, as
the ``arena`` command does.
"""

from __future__ import annotations

import os

import sqlalchemy as sa
from alembic import context

from arena.storage.tables import TABLE_NAMES, metadata

config = context.config


def _ours(
    _object: object, name: str | None, type_: str, _reflected: bool, _compare_to: object
) -> bool:
    """Only the arena's tables: a database may hold others (a shared PostgreSQL schema)."""
    return type_ != "table" or name in TABLE_NAMES


def _run(connection: sa.Connection | None = None, url: str | None = None) -> None:
    context.configure(
        connection=connection, url=url, literal_binds=connection is None,
        target_metadata=metadata, include_object=_ours, render_as_batch=True, compare_type=True,
    )
    with context.begin_transaction():  # none of its own inside the store's transaction
        context.run_migrations()


def _url() -> str:
    url = (context.get_x_argument(as_dictionary=True).get("db") or os.environ.get("ARENA_DB")
           or config.get_main_option("sqlalchemy.url") or "arena.db")
    return url if "://" in url else f"sqlite:///{os.path.expanduser(url)}"


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:  # the store's, already in its write transaction
        _run(connection)
    elif context.is_offline_mode():  # alembic upgrade --sql: the SQL, printed
        _run(url=_url())
    else:
        engine = sa.create_engine(_url(), poolclass=sa.pool.NullPool)
        try:
            with engine.connect() as own:
                _run(own)
        finally:
            engine.dispose()


run()
