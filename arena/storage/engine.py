"""The database underneath the store: its URL, its engines and their SQLite settings, its
sessions, how its errors read, and bringing its schema up to date.

:class:`Database` is the base of every part of :class:`arena.storage.store.Store`: a part
reads in :meth:`Database._reading` and writes in :meth:`Database._writing`, one transaction
each. On SQLite every write transaction starts with ``BEGIN IMMEDIATE`` and every connection
waits up to :data:`BUSY_TIMEOUT_S` for the lock, so several processes writing one file queue
up instead of failing with "database is locked". Reads use a separate engine with plain
(deferred) transactions: in WAL mode they never wait for a writer. On PostgreSQL every write
transaction takes one advisory lock, which serializes rating updates (and schema upgrades).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

from arena.errors import ErrorKind
from arena.storage import schema
from arena.storage.errors import DatabaseGone, StoreError, one_line
from arena.storage.runs import RunLocks
from arena.storage.tables import json_dumps

BUSY_TIMEOUT_S = 30.0
"""How long a SQLite connection waits for another process's write lock."""

_PG_RATINGS_LOCK = 0x6172656E61  # "arena": advisory lock id serializing rating updates
# (and schema upgrades: every write transaction takes it)


def _create_private(path: Path) -> None:
    """An empty database file readable by its owner only (SQLite's journal files take the
    same mode): it holds the deals' seeds, which no bot may read."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        pass  # another process created it first
    except OSError as error:
        raise StoreError(f"cannot create database {str(path)!r}: {error.strerror}") from None


def _safe_url(url: str) -> str:
    """A URL fit for a message: the password hidden."""
    try:
        parsed = sa.engine.make_url(url)
    except sa_exc.ArgumentError:
        return repr(url)
    if parsed.password is None:
        return url
    return parsed.render_as_string(hide_password=True)


def keeps_nothing(url: str) -> bool:
    """Whether ``url`` names a database that is gone when its process ends (SQLite in memory)."""
    if "://" not in url:
        return url.strip() == ":memory:"
    try:
        parsed = sa.engine.make_url(url)
    except sa_exc.ArgumentError:
        return False
    database = parsed.database or ""
    return parsed.get_backend_name() == "sqlite" and (
        database in ("", ":memory:") or database.startswith("file::memory:")
        or "mode=memory" in database or parsed.query.get("mode") == "memory")


def _resolve_url(url: str) -> tuple[str, Path | None]:
    """A SQLAlchemy URL, and the database file when it is a plain SQLite file."""
    if "://" not in url:
        path = Path(url).expanduser()
        return f"sqlite:///{path}", path
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
        if parsed.query.get("uri") or parsed.database.startswith("file:"):
            return url, None
        return url, Path(parsed.database)
    return url, None


def _sqlite_engine(url: str, *, immediate: bool) -> Engine:
    engine = create_engine(
        url, connect_args={"timeout": BUSY_TIMEOUT_S}, json_serializer=json_dumps
    )

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Take transaction control from the sqlite3 module: we issue BEGIN ourselves.
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        mode = cursor.execute("PRAGMA journal_mode").fetchone()[0]
        if immediate and str(mode).lower() not in ("wal", "memory"):
            cursor.execute("PRAGMA journal_mode = WAL")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def _sqlite_pragma(conn: sa.Connection, pragma: str) -> None:
    """A pragma on the connection's own sqlite3 connection, outside any transaction (SQLAlchemy
    would begin one first)."""
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(pragma)
    finally:
        cursor.close()


def _file_identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``, or None when there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


class Database:
    """An open database. ``url`` is a SQLAlchemy URL or a plain path to a SQLite file."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            resolved, path = _resolve_url(url)
        except sa_exc.ArgumentError as error:
            raise StoreError(f"bad database URL {_safe_url(url)}: {one_line(error)}") from None
        if path is not None:
            if path.is_dir():
                raise StoreError(f"cannot open database {str(path)!r}: it is a directory")
            if not path.parent.is_dir():
                raise StoreError(
                    f"cannot open database {str(path)!r}: no directory {str(path.parent)!r}"
                )
        self.path = path
        self.where = str(path) if path is not None else _safe_url(resolved)
        if path is not None and not path.exists():
            _create_private(path)
        try:
            backend = sa.engine.make_url(resolved).get_backend_name()
            self._sqlite = backend == "sqlite"
            self._postgres = backend == "postgresql"
            if self._sqlite:
                in_memory = (sa.engine.make_url(resolved).database or ":memory:") == ":memory:"
                if in_memory:
                    # One connection shared: two engines would see two different databases.
                    self._write = create_engine(
                        resolved, poolclass=sa.pool.StaticPool,
                        connect_args={"check_same_thread": False}, json_serializer=json_dumps,
                    )
                    self._read = self._write
                else:
                    self._write = _sqlite_engine(resolved, immediate=True)
                    self._read = _sqlite_engine(resolved, immediate=False)
            else:
                self._write = create_engine(
                    resolved, pool_pre_ping=True, json_serializer=json_dumps
                )
                self._read = self._write
        except (sa_exc.ArgumentError, sa_exc.NoSuchModuleError, ImportError) as error:
            raise StoreError(f"cannot use database URL {self.where}: {one_line(error)}") from None
        self._open_schema()
        self._identity = _file_identity(path) if path is not None and self._sqlite else None
        self._runs = RunLocks(path if self._sqlite else None,
                              self._write if self._postgres else None)

    def check_file(self) -> None:
        """Raise :class:`DatabaseGone` when the SQLite file opened is no longer at its path
        (deleted, or another file put in its place): a write would go to a file nobody
        can open again, or the run would carry on in a stranger's database."""
        if self._identity is None or self.path is None:
            return
        if _file_identity(self.path) != self._identity:
            raise DatabaseGone(f"the database file {self.path} was deleted or replaced while "
                               "the arena was using it; nothing more is written to it")

    def close(self) -> None:
        """Release every pooled connection (the object must not be used afterwards)."""
        self._write.dispose()
        if self._read is not self._write:
            self._read.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.where!r})"

    # -- sessions and errors

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except StoreError:
            raise
        except sa_exc.IntegrityError as error:
            raise StoreError(f"cannot {doing}: conflicting data ({one_line(error)})",
                             kind=ErrorKind.CONFLICT) from None
        except sa_exc.SQLAlchemyError as error:
            text = one_line(error)
            if isinstance(error, sa_exc.OperationalError) and "disk I/O error" in text:
                text += " (is the disk full or read-only?)"
            raise StoreError(f"cannot {doing} ({self.where}): {text}") from None
        except OSError as error:
            raise StoreError(f"cannot {doing} ({self.where}): {error.strerror or error}") from None

    @contextmanager
    def _reading(self, doing: str) -> Iterator[Session]:
        with self._errors(doing), Session(self._read, expire_on_commit=False) as session:
            yield session

    @contextmanager
    def _writing(self, doing: str) -> Iterator[Session]:
        """One write transaction: committed on success, rolled back on any error."""
        self.check_file()
        with (
            self._errors(doing),
            Session(self._write, expire_on_commit=False) as session,
            session.begin(),
        ):
            if self._postgres:
                lock = sa.text("SELECT pg_advisory_xact_lock(:k)")
                session.execute(lock, {"k": _PG_RATINGS_LOCK})
            yield session

    def _open_schema(self) -> None:
        """Bring the database to this arena's schema (see :mod:`arena.storage.schema`)."""
        try:
            with self._errors("open the database"), self._read.connect() as conn:
                if self._schema_current(conn):
                    return  # nothing to write: a read-only database still opens for reading
            with self._errors("upgrade the database's schema"), self._write.connect() as conn:
                self._upgrade(conn)
        except StoreError:
            self.close()
            raise

    def _schema_current(self, conn: sa.Connection) -> bool:
        try:
            return schema.is_current(conn)
        except schema.SchemaError as error:
            raise StoreError(f"cannot open the database ({self.where}): {error}") from None

    def _upgrade(self, conn: sa.Connection) -> None:
        """Migrate on the write connection, in one write transaction: BEGIN IMMEDIATE on
        SQLite, the advisory lock on PostgreSQL, so concurrent openers queue up and the
        later ones find the work done. On a SQLite file, foreign keys are off meanwhile
        (copying a table, as SQLite's batch migrations do, drops the one referenced) and
        checked before the commit."""
        file = self._sqlite and self._read is not self._write
        if file:
            _sqlite_pragma(conn, "PRAGMA foreign_keys = OFF")  # no effect inside a transaction
        try:
            with conn.begin():
                if self._postgres:
                    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_RATINGS_LOCK})
                try:
                    schema.upgrade(conn)
                except (sa_exc.SQLAlchemyError, OSError):
                    raise  # worded by _errors
                except schema.SchemaError as error:
                    raise StoreError(
                        f"cannot upgrade the database's schema ({self.where}): {one_line(error)}"
                    ) from None
                except Exception as error:  # a migration's own bug: still one line, cause kept
                    raise StoreError(
                        f"cannot upgrade the database's schema ({self.where}): "
                        f"{type(error).__name__}: {one_line(error)}"
                    ) from error
                if file:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").first()
                    if broken is not None:
                        raise StoreError(
                            f"cannot upgrade the database's schema ({self.where}): a row of "
                            f"table {broken[0]} refers to a missing row of {broken[2]}"
                        )
        finally:
            if file:
                try:
                    _sqlite_pragma(conn, "PRAGMA foreign_keys = ON")
                except Exception:
                    conn.invalidate()  # never back to the pool without its foreign keys


__all__ = ["BUSY_TIMEOUT_S", "Database", "keeps_nothing"]
