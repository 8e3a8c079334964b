"""Fixtures shared by the tests: a store on a fresh SQLite file, and one real PostgreSQL
server per test process (the ``pgserver`` package's, on a Unix socket in a temporary
folder) with a fresh database per test."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pgserver
import pytest
import sqlalchemy as sa

from arena.players import sandbox
from arena.storage.store import Store
from tests.helpers import migrated_store

pytest_plugins = [
    "tests.scheduling",  # the order of the tests, and which run together
    "tests.bytecode",  # the modules compiled once for every process the tests start
]

# The servers the tests start (`arena serve`, `arena web`) compute no win-probability graphs
# in the background unless a test asks (its own --graph-cpu): a graph is up to 2 CPU s a
# match, on machines the suite keeps busy. tests/app/test_graph_worker.py and the graph's
# web tests run the worker.
os.environ.setdefault("ARENA_GRAPH_CPU", "0")


@pytest.fixture
def sandboxed() -> None:
    """For tests of the sandbox itself: skipped on a machine where bubblewrap cannot run, but
    failed in CI (``CI`` set), which must exercise the real sandbox."""
    found = sandbox.check()
    if not found.works:
        if os.environ.get("CI"):
            pytest.fail(f"the sandbox must run in CI: {found.why_not}")
        pytest.skip(f"no sandbox on this machine: {found.why_not}")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """A store on a new, migrated SQLite file (a copy of one migrated once per test process)."""
    return migrated_store(tmp_path / "arena.db")


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = pgserver.get_server(tmp_path_factory.mktemp("pg"), cleanup_mode="stop")  # type: ignore[attr-defined]
    yield server.get_uri()
    server.cleanup()


def new_postgres_database(server: str) -> str:
    """A fresh, empty database on the server, as a SQLAlchemy URL for psycopg."""
    name = f"arena_{uuid.uuid4().hex[:12]}"
    psycopg = server.replace("postgresql://", "postgresql+psycopg://", 1)
    admin = sa.create_engine(psycopg, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return sa.engine.make_url(psycopg).set(database=name).render_as_string(hide_password=False)


@pytest.fixture
def pg_url(postgres_server: str) -> str:
    """A fresh, empty database on the PostgreSQL server."""
    return new_postgres_database(postgres_server)
