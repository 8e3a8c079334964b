"""Bringing a database to the schema of this arena: Alembic, driven from the store.

Opening a :class:`~arena.storage.store.Store` calls :func:`is_current` on a
read connection first: a database already at the newest revision is not written
at all (so a read-only one still opens for reading). Otherwise the store takes
its write lock (``BEGIN IMMEDIATE`` on SQLite, an advisory lock on PostgreSQL)
and calls :func:`upgrade` on that connection, which looks again (another
process may have upgraded it meanwhile) and then:

* an empty database gets every revision from the first;
* a database made before the arena had migrations (the arena's tables, no
  ``alembic_version``) is stamped at :data:`FIRST_REVISION`, which creates just
  those tables, then upgraded;
* a database at an older revision is upgraded.

All of it in the caller's transaction: a failure leaves the database as it was.
A revision this arena does not know (a newer arena upgraded the database) is a
:class:`SchemaError`, as is a database holding only some of the arena's tables.

Whether a database is current is read from the revision files' own ``revision`` and
``down_revision`` lines (:func:`_revisions`), so that opening a current database (every
command, every process) does not import Alembic: Alembic is imported to migrate.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa

from arena.errors import ArenaError, ErrorKind
from arena.storage.tables import TABLE_NAMES

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("migrations")
"""Alembic's script folder: ``env.py``, ``script.py.mako`` and ``versions/``."""

FIRST_REVISION = "0001"
"""The schema the arena made before it had migrations."""

VERSION_TABLE = "alembic_version"


class SchemaError(ArenaError):
    """The database's schema is not one this arena can use or upgrade (one line)."""

    kind = ErrorKind.UNAVAILABLE


def alembic_config(connection: sa.Connection | None = None) -> Config:
    """Alembic's configuration for the arena's migrations, with no ini file; given a
    connection, ``env.py`` runs the migrations on it (in its transaction)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    config.set_main_option("path_separator", "os")
    if connection is not None:
        config.attributes["connection"] = connection
    return config


_REVISION = re.compile(r'^revision(?:: str)? = "([^"]+)"$', re.MULTILINE)
_DOWN_REVISION = re.compile(r'^down_revision(?:: [^=]+)? = (?:None|"([^"]+)")$', re.MULTILINE)


@functools.cache
def _revisions() -> tuple[frozenset[str], frozenset[str]]:
    """(the newest revisions, every revision) of the migrations shipped with this arena, from
    each revision file's ``revision`` and ``down_revision`` lines (a test checks that this
    is what Alembic reads)."""
    every: set[str] = set()
    below: set[str] = set()
    for path in sorted((MIGRATIONS / "versions").glob("[!_]*.py")):  # not __init__.py
        text = path.read_text(encoding="utf-8")
        revision, down = _REVISION.search(text), _DOWN_REVISION.search(text)
        if revision is None or down is None:
            raise SchemaError(f"the migration {path.name} names no revision or down_revision")
        every.add(revision.group(1))
        if down.group(1) is not None:
            below.add(down.group(1))
    return frozenset(every - below), frozenset(every)


def head() -> str:
    """The newest revision."""
    (newest,) = _revisions()[0]
    return newest


def stored_revisions(conn: sa.Connection) -> frozenset[str]:
    """The revisions recorded in the database (none: no ``alembic_version`` or an empty one)."""
    if not sa.inspect(conn).has_table(VERSION_TABLE):
        return frozenset()
    rows = conn.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars()
    return frozenset(str(row) for row in rows)


def _check_known(stored: frozenset[str]) -> None:
    unknown = sorted(stored - _revisions()[1])
    if unknown:
        raise SchemaError(
            f"its schema is at revision {', '.join(unknown)}, which this arena does not know "
            "(a newer arena upgraded it): use that arena or a newer one"
        )


def is_current(conn: sa.Connection) -> bool:
    """Whether the database is at the newest revision (reads only). Raises :class:`SchemaError`
    for a revision this arena does not know."""
    stored = stored_revisions(conn)
    _check_known(stored)
    return stored == _revisions()[0]


FIRST_TABLES = frozenset({"bot", "tournament", "match", "seat", "rating", "rating_history"})
"""The tables of :data:`FIRST_REVISION`, which an arena made before it had migrations."""


def upgrade(conn: sa.Connection) -> bool:
    """Bring the database to the newest revision on ``conn``, inside the caller's transaction
    (which must hold the database's write lock). False if there was nothing to do."""
    stored = stored_revisions(conn)
    _check_known(stored)
    if stored == _revisions()[0]:
        return False  # another process upgraded it while we waited for the lock
    from alembic import command
    from alembic.util import CommandError

    config = alembic_config(conn)
    try:
        if not stored:
            ours = TABLE_NAMES & set(sa.inspect(conn).get_table_names())
            if ours == FIRST_TABLES:  # made by the arena before it had migrations
                command.stamp(config, FIRST_REVISION)
            elif ours:
                raise SchemaError(
                    f"it has some of the arena's tables ({', '.join(sorted(ours))}) but not the "
                    f"others ({', '.join(sorted(FIRST_TABLES - ours))}) and no schema revision"
                )
        command.upgrade(config, "head")
    except CommandError as error:  # Alembic's own refusal, said as this module's
        raise SchemaError(str(error)) from None
    return True


__all__ = [
    "FIRST_REVISION", "MIGRATIONS", "SchemaError", "alembic_config", "head", "is_current",
    "stored_revisions", "upgrade",
]
