"""Whether a tournament is being run: a lock its run holds while it plays.

The lock dies with the run's process, however it ends (Ctrl-C, a crash, ``kill -9``),
so a tournament left ``running`` in the database by a dead run reads as interrupted,
and two runs of one tournament at once are refused. With a SQLite file the lock is
an ``flock`` on a file of this machine's temporary folder named after the database
(SQLite is one machine's); with PostgreSQL it is a session advisory lock, which the
server releases when the run's connection goes.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Engine

_NAMESPACE = 0x4152454E  # "AREN": the high half of every advisory lock key of the arena


class Busy(Exception):
    """Another process runs the tournament."""


class RunLocks:
    """The run locks of one database: a SQLite file (``path``) or a PostgreSQL ``engine``."""

    def __init__(self, path: Path | None, engine: Engine | None) -> None:
        self._engine = engine
        self._folder: Path | None = None
        self._name = ""
        if path is not None:
            self._folder = Path(tempfile.gettempdir()) / f"arena-runs-{os.getuid()}"
            self._name = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:20]

    @contextlib.contextmanager
    def hold(self, tournament_id: int) -> Iterator[None]:
        """Hold the tournament's lock while the body runs; :class:`Busy` if another has it."""
        if self._engine is not None:
            with self._engine.connect() as conn:
                key = _key(tournament_id)
                if not conn.execute(sa.text("select pg_try_advisory_lock(:k)"), key).scalar():
                    raise Busy
                try:
                    yield
                finally:
                    conn.execute(sa.text("select pg_advisory_unlock(:k)"), key)
            return
        path = self._file(tournament_id)
        if path is None:  # a database in memory: this process is the only one
            yield
            return
        path.parent.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise Busy from None
            yield
        finally:
            os.close(fd)  # releases the lock (the file stays: removing it would race)

    def held(self, tournament_id: int) -> bool:
        """Whether some process holds the tournament's lock now."""
        if self._engine is not None:
            with self._engine.connect() as conn:
                key = _key(tournament_id)
                if conn.execute(sa.text("select pg_try_advisory_lock(:k)"), key).scalar():
                    conn.execute(sa.text("select pg_advisory_unlock(:k)"), key)
                    return False
                return True
        path = self._file(tournament_id)
        if path is None:
            return True  # nothing to tell by: as the database says
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            return False  # never run on this machine since it booted
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        return False

    def _file(self, tournament_id: int) -> Path | None:
        if self._folder is None:
            return None
        return self._folder / f"{self._name}-{tournament_id}.lock"


def _key(tournament_id: int) -> dict[str, int]:
    """The advisory lock of a tournament, as the bound parameter ``k``."""
    return {"k": (_NAMESPACE << 32) | tournament_id}
