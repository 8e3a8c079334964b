"""Storage: bots, tournaments, matches, seats, ratings — SQLModel on SQLite or PostgreSQL.

The store knows nothing of any game's rules and never branches on a game's
name; a match log is kept as opaque bytes (the serialized ``arena.v1.MatchLog``).

Write discipline:

* a tournament and every match of its schedule are written, ``pending``, in one
  transaction; a match is finished in one transaction that also writes its
  seats, its log, its ``finish_seq``, the ratings it moves and the summaries
  kept with them (head-to-head counts, the tournament's standings and
  crosstable), so an interruption at any moment leaves either all of it or none
  of it;
* finishing an already finished match changes nothing (the second write of a
  result is dropped), so a resumed tournament never counts a match twice;
* ratings move in schedule order within a tournament: a finished match is rated
  once every match scheduled before it is finished (or void), and ``finish_seq``
  numbers the matches in the order they were rated. So a tournament gives the
  same ratings whatever ``--parallel`` and however often it was interrupted; a
  match outside any tournament is rated as soon as it finishes;
* on SQLite every write transaction starts with ``BEGIN IMMEDIATE`` and every
  connection waits up to :data:`BUSY_TIMEOUT_S` for the lock, so several
  processes writing one file queue up instead of failing with "database is
  locked". Reads use a separate engine with plain (deferred) transactions: in
  WAL mode they never wait for a writer. On PostgreSQL rating updates are
  serialized by a transaction-scoped advisory lock.

Removing a bot that holds a seat in any match (played or scheduled) keeps it,
with its matches and rating history, but hides it from :meth:`Store.list_bots`,
:meth:`Store.get_bot` without a version, and the leaderboard; its name@version
stays taken. A bot with no seat anywhere is deleted outright.

Statuses and faults are :class:`TournamentStatus`, :class:`MatchStatus` and
:class:`~arena.match.faults.Fault`: ``StrEnum`` members, so they equal their
plain strings. Every method takes either and always returns the members; the
database keeps the values in constrained columns (a CHECK constraint).

Opening a store brings the database to this arena's schema with Alembic
(:mod:`arena.storage.schema`): a database already there is only read.

The ratings themselves are :class:`arena.rating.RatingBook`'s (pure, in
memory); the store loads the lines a match needs, lets the book apply the
matches in ``finish_seq`` order and writes the rows back in bulk.

Every failure of the database (bad URL, unreachable server, not a database
file, read-only or full disk, a schema it cannot upgrade) surfaces as a
:class:`StoreError` with a one-line message; table objects
(:mod:`arena.storage.tables`) never leave the storage package — the API returns
frozen dataclasses.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from alembic.util import CommandError
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects import postgresql as postgresql_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, create_engine, delete, func, select

from arena import rating
from arena.errors import ArenaError, ErrorKind
from arena.games import base_game, pool_of
from arena.match.faults import Fault
from arena.rating.figures import count_head_to_head, count_pairs
from arena.rating.standings import (
    Played,
    Standing,
    StandingLine,
    StandingsBook,
    cross_cells,
    read_seats,
)
from arena.rating.standings import Seat as PlayedSeat
from arena.rating.stats import Comparison
from arena.storage import names, schema
from arena.storage.runs import Busy, RunLocks
from arena.storage.tables import (
    FAULTED,
    Author,
    Bot,
    BotArchive,
    HeadToHeadTally,
    MatchStatus,
    Rating,
    RatingHistory,
    Tournament,
    TournamentPair,
    TournamentStanding,
    TournamentStatus,
    json_dumps,
    metadata,
    now,
    utc,
)
from arena.storage.tables import Match as Match  # re-exported: a benchmark fills it in bulk
from arena.storage.tables import Seat as Seat  # re-exported: a benchmark fills it in bulk

BUSY_TIMEOUT_S = 30.0
"""How long a SQLite connection waits for another process's write lock."""

_PG_RATINGS_LOCK = 0x6172656E61  # "arena": advisory lock id serializing rating updates
# (and schema upgrades: every write transaction takes it)


class StoreError(ArenaError):
    """A storage operation failed; the message is one line and says why. Unless raised with
    another kind (a name taken, a bad value), the database could not be used."""

    kind = ErrorKind.UNAVAILABLE


class NotFoundError(StoreError):
    """No bot, tournament or match has the id, name or token asked for."""

    kind = ErrorKind.NOT_FOUND


class NotAllowedError(StoreError):
    """The change asked for is not the asker's to make (another author's bot name)."""

    kind = ErrorKind.NOT_ALLOWED


BOT_NAME = re.compile(r"[A-Za-z0-9._-]{1,64}")
"""What a bot's name and version may be: letters, digits, ``.``, ``_`` and ``-``, 1 to 64 of
them (they name log files and appear in every table, so nothing else is let in)."""


def check_bot_name(text: str, what: str = "bot name") -> None:
    """A :class:`StoreError` unless ``text`` matches :data:`BOT_NAME`."""
    if BOT_NAME.fullmatch(text) is None:
        shown = repr(text[:40]) + (f"... ({len(text)} characters)" if len(text) > 40 else "")
        raise StoreError(f"bad {what} {shown}: use 1 to 64 letters, digits, '.', '_' or '-'",
                         kind=ErrorKind.BAD_REQUEST)


class DatabaseGone(StoreError):
    """The SQLite file this store opened was deleted or replaced: nothing more is written."""


# ---------------------------------------------------------------- API values


@dataclass(frozen=True)
class BotInfo:
    id: int
    name: str
    version: str
    command: str
    remote: bool
    removed: bool
    created_at: datetime
    folder: str | None = None  # a managed bot's working directory
    content_hash: str | None = None  # a submitted version: the SHA-256 of its code's archive
    games: tuple[str, ...] | None = None  # a submitted version: the games it plays
    author_id: int | None = None  # the author whose bot it is (None: the operator's)

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def submitted(self) -> bool:
        return self.content_hash is not None

    @property
    def kind(self) -> str:
        """How the arena runs it, as every list names it: ``remote`` (it connects with its
        token), ``submitted`` (its archived code, in the sandbox) or ``managed`` (a command
        the operator registered)."""
        return "remote" if self.remote else "submitted" if self.submitted else "managed"


@dataclass(frozen=True)
class AuthorInfo:
    """Someone who submits bots (``arena author add``); the token's hash never leaves the store."""

    id: int
    name: str
    created_at: datetime
    bots: tuple[str, ...] = ()  # the names of the author's bots


@dataclass(frozen=True)
class SubmittedCode:
    """What the store keeps of a submitted version's code: its canonical archive."""

    sha256: str
    archive: bytes
    files: int
    size: int


@dataclass(frozen=True)
class ScheduledMatch:
    """One match of a schedule: its position, its seed, the bot in each seat, and which of
    each bot's processes plays it (its lane)."""

    index: int
    seed: int
    seat_bot_ids: tuple[int, ...]
    lane: int = 0


@dataclass(frozen=True)
class TournamentInfo:
    id: int
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    repetitions: int
    settings: dict[str, Any]
    bot_ids: tuple[int, ...]
    bots: tuple[str, ...]  # name@version, in bot_ids order
    status: TournamentStatus
    created_at: datetime
    finished_at: datetime | None
    total: int
    finished: int


@dataclass(frozen=True)
class MatchToRun:
    """A match still to play: everything the runner needs to start it."""

    id: int
    tournament_id: int | None
    index: int
    game: str
    options: dict[str, Any]
    seed: int
    seat_bot_ids: tuple[int, ...]
    lane: int = 0  # which of each bot's processes plays it


@dataclass(frozen=True)
class MatchResult:
    """What a finished match reports, one entry per seat (fault "" for none).

    A fault is a :class:`~arena.match.faults.Fault` or its value as a plain string;
    the store refuses any other string."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    faults: tuple[Fault | str, ...]
    log: bytes | None = None
    started_at: datetime | None = None
    duration_s: float | None = None
    peers: tuple[str | None, ...] = ()  # per seat: the connection a remote bot played over
    reasons: tuple[str, ...] = ()  # per seat: why it faulted ("" for none), as the log has it
    node: str | None = None  # where it was played, and its logs (None: this machine)


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    bot_id: int
    bot: str  # name@version
    score: float | None
    rank: int | None
    fault: Fault
    peer: str | None = None  # the connection a remote bot played the seat over


@dataclass(frozen=True)
class MatchInfo:
    id: int
    tournament_id: int | None
    index: int
    game: str
    options: dict[str, Any]
    seed: int
    status: MatchStatus
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    duration_s: float | None
    finish_seq: int | None
    seats: tuple[SeatInfo, ...]
    log: bytes | None = field(default=None, repr=False)  # only from get_match
    # where it was played, when an executor played it elsewhere: the node and where its logs
    # are (None: the machine that ran it; always None from the browsing queries, which read
    # no column stored after the log)
    node: str | None = None


@dataclass(frozen=True)
class LeaderboardRow:
    game: str
    bot_id: int
    name: str
    version: str
    mu: float
    sigma: float
    conservative: float
    matches: int
    wins: int
    faults: int
    pool: str = ""  # the rating pool: the game's name for its standard rules (see Game.pool)

    def __post_init__(self) -> None:
        if not self.pool:
            object.__setattr__(self, "pool", self.game)

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def win_share(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


@dataclass(frozen=True)
class HistoryPoint:
    match_id: int
    finish_seq: int
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return rating.conservative(self.mu, self.sigma)


# ---------------------------------------------------------------- browsing values (the web pages)


@dataclass(frozen=True)
class FaultInfo:
    """A seat that faulted: which match, which seat, the fault and why (``reason``: as the
    referee logged it; None for a match played before reasons were kept)."""

    match_id: int
    seat: int
    fault: Fault
    game: str
    tournament_id: int | None
    finished_at: datetime | None
    reason: str | None = None


@dataclass(frozen=True)
class HeadToHead:
    """A bot against one opponent over the rated matches of a rating pool in which both took a
    seat (a bot in two seats counts its better one): how often it placed above, below and
    level with the opponent, and the sum of its ranks in those matches. The counts add up:
    the tallies of two spans of matches are the tally of both."""

    pool: str
    opponent_id: int
    wins: int
    losses: int
    ties: int
    rank_sum: int

    @property
    def n(self) -> int:
        return self.wins + self.losses + self.ties


@dataclass(frozen=True)
class HistorySample:
    """At most a given number of a bot's rating history points in a pool, spread evenly over
    the arena's rated matches from its first to its last (both among them)."""

    pool: str
    total: int  # the bot's rated matches in the pool
    points: tuple[HistoryPoint, ...]


# ---------------------------------------------------------------- engines


def _create_private(path: Path) -> None:
    """An empty database file readable by its owner only (SQLite's journal files take the
    same mode): it holds the deals' seeds, which no bot may read."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        pass  # another process created it first
    except OSError as error:
        raise StoreError(f"cannot create database {str(path)!r}: {error.strerror}") from None


def _one_line(error: BaseException) -> str:
    orig = getattr(error, "orig", None)
    text = str(orig if orig is not None else error).strip()
    return text.splitlines()[0] if text else type(error).__name__


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


# ---------------------------------------------------------------- the store


class Store:
    """The arena's database. ``url`` is a SQLAlchemy URL or a plain path to a SQLite file."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            resolved, path = _resolve_url(url)
        except sa_exc.ArgumentError as error:
            raise StoreError(f"bad database URL {_safe_url(url)}: {_one_line(error)}") from None
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
            raise StoreError(f"cannot use database URL {self.where}: {_one_line(error)}") from None
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

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.where!r})"

    # -- sessions and errors

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except StoreError:
            raise
        except sa_exc.IntegrityError as error:
            raise StoreError(f"cannot {doing}: conflicting data ({_one_line(error)})",
                             kind=ErrorKind.CONFLICT) from None
        except sa_exc.SQLAlchemyError as error:
            text = _one_line(error)
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
                except (schema.SchemaError, CommandError) as error:
                    raise StoreError(
                        f"cannot upgrade the database's schema ({self.where}): {_one_line(error)}"
                    ) from None
                except Exception as error:  # a migration's own bug: still one line, cause kept
                    raise StoreError(
                        f"cannot upgrade the database's schema ({self.where}): "
                        f"{type(error).__name__}: {_one_line(error)}"
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

    # ---------------------------------------------------------------- bots

    def add_bot(
        self, name: str, command: str = "", version: str = "1", *, token_hash: str | None = None,
        folder: str | None = None,
    ) -> BotInfo:
        """Register a bot: a managed one (``command``, run in ``folder``) or a remote one
        (``token_hash``). This is the operator's: a name an author owns, or one that reads
        like it (:func:`~arena.storage.names.fold`), is a :class:`NotAllowedError`."""
        check_bot_name(name, "bot name")
        check_bot_name(version, "bot version")
        with self._writing("add a bot") as s:
            _claim(s, name, None, adding=True)
            existing = s.exec(select(Bot).where(Bot.name == name, Bot.version == version)).first()
            if existing is not None:
                hint = " (it was removed; register a new version)" if existing.removed else ""
                raise StoreError(f"bot {name}@{version} already exists{hint}", kind=ErrorKind.CONFLICT)
            bot = Bot(
                name=name, version=version, command=command, token_hash=token_hash,
                folder=folder, created_at=now(),
            )
            s.add(bot)
            s.flush()
            return _bot_info(bot)

    def submit_bot(self, name: str, label: str | None, command: str, games: Sequence[str],
                   code: SubmittedCode, *, author_id: int | None = None) -> tuple[BotInfo, bool]:
        """Register a submitted version of bot ``name``: its code kept once by its hash, its
        version the label (or the hash's first 12 digits). Returns the version and whether
        it is new: code this bot already has gives back that version and writes nothing. A
        label that names other code of this bot is a :class:`StoreError`.

        Who may submit under ``name`` is :meth:`check_name_free_for`'s rule, checked again
        here in the same transaction as the write; the operator (``author_id`` None) may add
        a version of an author's bot, which stays the author's."""
        check_bot_name(name, "bot name")
        version = label or code.sha256[:12]
        check_bot_name(version, "bot version")
        with self._writing("submit a bot") as s:
            author_id = _claim(s, name, author_id, adding=False)
            same = s.exec(select(Bot).where(Bot.name == name, Bot.content_hash == code.sha256)
                          .order_by(col(Bot.id))).first()
            if same is not None:
                return _bot_info(same), False
            taken = s.exec(select(Bot).where(Bot.name == name, Bot.version == version)).first()
            if taken is not None:
                what = f"code {taken.content_hash[:12]}" if taken.content_hash else \
                    "a bot registered with a command"
                raise StoreError(f"{name}@{version} already names {what}; a version's label "
                                 "never moves to other code: give another --label", kind=ErrorKind.CONFLICT)
            if s.get(BotArchive, code.sha256) is None:
                s.add(BotArchive(sha256=code.sha256, data=code.archive, files=code.files,
                                 size=code.size, created_at=now()))
                s.flush()
            bot = Bot(name=name, version=version, command=command, content_hash=code.sha256,
                      games=list(games), created_at=now(), author_id=author_id)
            s.add(bot)
            s.flush()
            return _bot_info(bot), True

    def bot_code(self, sha256: str) -> SubmittedCode:
        """The archive of a submitted version's code."""
        with self._reading("read a bot's code") as s:
            found = s.get(BotArchive, sha256)
            if found is None:
                raise NotFoundError(f"no stored code with hash {sha256}")
            return SubmittedCode(found.sha256, found.data, found.files, found.size)

    def list_bots(self, *, include_removed: bool = False) -> list[BotInfo]:
        with self._reading("list bots") as s:
            query = select(Bot).order_by(col(Bot.name), col(Bot.id))
            if not include_removed:
                query = query.where(col(Bot.removed).is_(False))
            return [_bot_info(b) for b in s.exec(query)]

    def get_bot(self, name: str, version: str | None = None) -> BotInfo:
        """A bot by name, and version (``None``: the newest registered, not removed)."""
        with self._reading("read a bot") as s:
            return _bot_info(_find_bot(s, name, version))

    def get_bot_by_id(self, bot_id: int) -> BotInfo:
        with self._reading("read a bot") as s:
            bot = s.get(Bot, bot_id)
            if bot is None:
                raise NotFoundError(f"no bot with id {bot_id}")
            return _bot_info(bot)

    def get_bot_by_token_hash(self, token_hash: str) -> BotInfo:
        """The remote bot registered with this token hash (not removed)."""
        with self._reading("read a bot") as s:
            bot = s.exec(
                select(Bot).where(Bot.token_hash == token_hash, col(Bot.removed).is_(False))
            ).first()
            if bot is None:
                raise NotFoundError("no bot has this token")
            return _bot_info(bot)

    def bot_token_hash(self, bot_id: int) -> str:
        """The stored token hash of a remote bot (what its referee admits it by)."""
        with self._reading("read a bot") as s:
            bot = s.get(Bot, bot_id)
            if bot is None:
                raise NotFoundError(f"no bot with id {bot_id}")
            if bot.token_hash is None:
                raise StoreError(f"bot {bot.name}@{bot.version} is not a remote bot", kind=ErrorKind.CONFLICT)
            return bot.token_hash

    def set_bot_token_hash(self, name: str, version: str | None, token_hash: str) -> BotInfo:
        """Give a remote bot a new token (by its hash): the old token stops working."""
        with self._writing("change a bot's token") as s:
            bot = _find_bot(s, name, version)
            if bot.removed:
                raise NotFoundError(f"bot {bot.name}@{bot.version} was removed")
            if bot.token_hash is None:
                raise StoreError(f"bot {bot.name}@{bot.version} is managed, not remote: the arena "
                                 "gives it a fresh token each time it starts it", kind=ErrorKind.CONFLICT)
            bot.token_hash = token_hash
            s.add(bot)
            s.flush()
            return _bot_info(bot)

    def remove_bot(self, name: str, version: str | None = None) -> bool:
        """Remove a bot version (``None``: the newest). True if it was deleted outright (no
        seat in any match), False if it was hidden but kept with its matches and history."""
        with self._writing("remove a bot") as s:
            bot = _find_bot(s, name, version)
            played = s.exec(select(Seat.match_id).where(Seat.bot_id == bot.id).limit(1)).first()
            if played is None:
                s.delete(bot)
                return True
            bot.removed = True
            s.add(bot)
            return False

    # ---------------------------------------------------------------- authors

    def add_author(self, name: str, token_hash: str) -> AuthorInfo:
        """Add an author (the token's SHA-256 is kept, never the token)."""
        check_bot_name(name, "author name")
        with self._writing("add an author") as s:
            if s.exec(select(Author).where(Author.name == name)).first() is not None:
                raise StoreError(f"author {name} already exists (`arena author token {name}` "
                                 "issues a new token)", kind=ErrorKind.CONFLICT)
            author = Author(name=name, token_hash=token_hash, created_at=now())
            s.add(author)
            s.flush()
            return _author_info(author, ())

    def list_authors(self) -> list[AuthorInfo]:
        """Every author, by name, with the names of their bots."""
        with self._reading("list authors") as s:
            names: dict[int, list[str]] = {}
            for author_id, bot_name in s.execute(
                    sa.select(col(Bot.author_id), col(Bot.name)).distinct()
                    .where(col(Bot.author_id).is_not(None)).order_by(col(Bot.name))):
                names.setdefault(int(author_id), []).append(str(bot_name))
            return [_author_info(a, names.get(a.id or 0, ()))
                    for a in s.exec(select(Author).order_by(col(Author.name)))]

    def set_author_token_hash(self, name: str, token_hash: str) -> AuthorInfo:
        """Give an author a new token (by its hash): the old one stops working at once."""
        with self._writing("change an author's token") as s:
            author = s.exec(select(Author).where(Author.name == name)).first()
            if author is None:
                raise NotFoundError(f"no author {name}")
            author.token_hash = token_hash
            s.add(author)
            s.flush()
            return _author_info(author, ())

    def author_by_token_hash(self, token_hash: str) -> AuthorInfo:
        """The author whose token has this SHA-256; a :class:`NotFoundError` if none."""
        with self._reading("read an author") as s:
            author = s.exec(select(Author).where(Author.token_hash == token_hash)).first()
            if author is None:
                raise NotFoundError("no author has this token")
            return _author_info(author, ())

    def name_owner(self, name: str) -> int | None:
        """The author whose bot name ``name`` is (None: the operator's, or nobody's yet)."""
        with self._reading("read a bot") as s:
            return _name_owner(s, name)

    def check_name_free_for(self, name: str, author_id: int) -> None:
        """A :class:`NotAllowedError` unless ``author_id`` may submit versions of ``name``:
        one of that author's names, or a new name that reads like no one else's
        (:func:`~arena.storage.names.fold`) and like no bundled bot's."""
        check_bot_name(name, "bot name")
        with self._reading("read a bot") as s:
            _claim(s, name, author_id, adding=False)

    # ---------------------------------------------------------------- tournaments

    def create_tournament(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any],
        seed: int,
        repetitions: int,
        settings: Mapping[str, Any],
        bot_ids: Sequence[int],
        schedule: Iterable[ScheduledMatch],
        deal_key: str | None = None,
        *,
        queued: bool = False,
    ) -> int:
        """Write a tournament and every match of its schedule as ``pending``, all at once;
        ``deal_key`` is the secret its deals were derived from (kept, never shown).
        ``queued``: for the server's scheduler to play (status ``queued``)."""
        schedule = list(schedule)
        indices = [m.index for m in schedule]
        if len(set(indices)) != len(indices):
            raise StoreError("a schedule must not repeat a match index", kind=ErrorKind.BAD_REQUEST)
        for m in schedule:
            if len(m.seat_bot_ids) != players:
                raise StoreError(
                    f"match {m.index} of the schedule has {len(m.seat_bot_ids)} seats, "
                    f"not {players}", kind=ErrorKind.BAD_REQUEST)
        options = dict(options)
        with self._writing("create a tournament") as s:
            _check_bots(s, set(bot_ids) | {b for m in schedule for b in m.seat_bot_ids})
            created = now()
            tournament = Tournament(
                game=game, players=players, options=options, seed=_seed_text(seed),
                repetitions=repetitions, settings=dict(settings), bot_ids=list(bot_ids),
                deal_key=deal_key, created_at=created,
                status=TournamentStatus.QUEUED if queued else TournamentStatus.RUNNING,
            )
            s.add(tournament)
            s.flush()
            assert tournament.id is not None
            match_rows = [
                {
                    "tournament_id": tournament.id, "index": m.index, "game": game,
                    "options": options, "seed": _seed_text(m.seed), "lane": m.lane,
                    "status": MatchStatus.PENDING, "created_at": created,
                }
                for m in schedule
            ]
            if match_rows:
                s.execute(sa.insert(Match), match_rows)
                ids = dict(
                    s.execute(
                        select(Match.index, Match.id).where(Match.tournament_id == tournament.id)
                    ).all()
                )
                s.execute(
                    sa.insert(Seat),
                    [
                        {"match_id": ids[m.index], "seat": seat, "bot_id": bot,
                         "fault": Fault.NONE}
                        for m in schedule
                        for seat, bot in enumerate(m.seat_bot_ids)
                    ],
                )
            return tournament.id

    def create_match(
        self, game: str, options: Mapping[str, Any], seed: int, seat_bot_ids: Sequence[int]
    ) -> int:
        """An ad-hoc match outside any tournament, written as ``pending``."""
        with self._writing("create a match") as s:
            _check_bots(s, set(seat_bot_ids))
            match = Match(
                tournament_id=None, index=0, game=game, options=dict(options),
                seed=_seed_text(seed), status=MatchStatus.PENDING, created_at=now(),
            )
            s.add(match)
            s.flush()
            assert match.id is not None
            for seat, bot in enumerate(seat_bot_ids):
                s.add(Seat(match_id=match.id, seat=seat, bot_id=bot, fault=Fault.NONE))
            return match.id

    def append_matches(self, tournament_id: int, seeds: Sequence[int],
                       seat_bot_ids: Sequence[Sequence[int]]) -> list[MatchToRun]:
        """Add pending matches at the end of a tournament's schedule (a ladder's, which grows
        as it is played): one per seed, with its seats' bots; the matches to run."""
        with self._writing("add matches to a tournament") as s:
            if s.get(Tournament, tournament_id) is None:
                raise NotFoundError(f"no tournament with id {tournament_id}")
            _check_bots(s, {b for seats in seat_bot_ids for b in seats})
            last = s.execute(sa.select(sa.func.max(col(Match.index))).where(
                col(Match.tournament_id) == tournament_id)).scalar()
            first = 0 if last is None else int(last) + 1
            tournament = s.get(Tournament, tournament_id)
            assert tournament is not None
            out = []
            for offset, (seed, seats) in enumerate(zip(seeds, seat_bot_ids, strict=True)):
                match = Match(tournament_id=tournament_id, index=first + offset,
                              game=tournament.game, options=dict(tournament.options),
                              seed=_seed_text(seed), status=MatchStatus.PENDING, created_at=now())
                s.add(match)
                s.flush()
                assert match.id is not None
                for seat, bot in enumerate(seats):
                    s.add(Seat(match_id=match.id, seat=seat, bot_id=bot, fault=Fault.NONE))
                out.append(MatchToRun(match.id, tournament_id, match.index, match.game,
                                      dict(match.options), seed, tuple(seats)))
            return out

    def list_tournaments(self) -> list[TournamentInfo]:
        """Every tournament, newest first."""
        with self._reading("list tournaments") as s:
            rows = s.exec(select(Tournament).order_by(col(Tournament.id).desc())).all()
            return [self._tournament_info(s, t) for t in rows]

    def get_tournament(self, tournament_id: int) -> TournamentInfo:
        with self._reading("read a tournament") as s:
            t = s.get(Tournament, tournament_id)
            if t is None:
                raise NotFoundError(f"no tournament with id {tournament_id}")
            return self._tournament_info(s, t)

    def set_tournament_status(self, tournament_id: int, status: TournamentStatus | str) -> None:
        status = _member(TournamentStatus, status, "tournament status")
        with self._writing("update a tournament") as s:
            t = s.get(Tournament, tournament_id)
            if t is None:
                raise NotFoundError(f"no tournament with id {tournament_id}")
            t.status = status
            t.finished_at = now() if status.ended else None
            s.add(t)

    @contextmanager
    def running(self, tournament_id: int) -> Iterator[None]:
        """Mark the tournament running while the body runs, holding its run lock (see
        :mod:`arena.storage.runs`): while it is held the tournament reads as running, and
        once its process is gone, however it ended, as interrupted (once a match of it was
        started: a tournament just created reads as running). A :class:`StoreError` when
        another process runs it."""
        try:
            with self._runs.hold(tournament_id):
                self.set_tournament_status(tournament_id, TournamentStatus.RUNNING)
                yield
        except Busy:
            raise StoreError(f"tournament {tournament_id} is being run by another process "
                             "already", kind=ErrorKind.CONFLICT) from None

    def _tournament_info(self, s: Session, t: Tournament) -> TournamentInfo:
        return self._tournament_infos(s, [t])[0]

    # ---------------------------------------------------------------- matches

    def claim_unfinished(self, tournament_id: int) -> list[MatchToRun]:
        """Every match of the tournament still to play, in schedule order.

        A ``running`` match (left by a crash) goes back to ``pending``: it will be
        replayed from its seed. Void matches are not returned.
        """
        with self._writing("resume a tournament") as s:
            if s.get(Tournament, tournament_id) is None:
                raise NotFoundError(f"no tournament with id {tournament_id}")
            s.execute(
                sa.update(Match)
                .where(col(Match.tournament_id) == tournament_id,
                       col(Match.status) == MatchStatus.RUNNING)
                .values(status=MatchStatus.PENDING, started_at=None)
            )
            rows = s.execute(
                sa.select(
                    col(Match.id), col(Match.tournament_id), col(Match.index), col(Match.game),
                    col(Match.options), col(Match.seed), col(Match.lane),
                )
                .where(col(Match.tournament_id) == tournament_id,
                       col(Match.status) == MatchStatus.PENDING)
                .order_by(col(Match.index))
            ).all()
            seats = _seat_bots(s, [r[0] for r in rows])
            return [
                MatchToRun(
                    id=mid, tournament_id=tid, index=index, game=game,
                    options=dict(options), seed=int(seed), seat_bot_ids=seats.get(mid, ()),
                    lane=int(lane or 0),
                )
                for mid, tid, index, game, options, seed, lane in rows
            ]

    def mark_running(self, match_id: int) -> bool:
        """Mark a pending match running (now). False if it is finished or void already. A
        log kept by an interrupted run of it is dropped: the match is played anew."""
        with self._writing("start a match") as s:
            match = _get_match(s, match_id)
            if match.status in _DONE:
                return False
            match.status = MatchStatus.RUNNING
            match.started_at = now()
            match.live_log = None
            s.add(match)
            return True

    def void_match(self, match_id: int) -> bool:
        """Give up on a match that cannot be played; False if it finished already."""
        with self._writing("void a match") as s:
            match = _get_match(s, match_id)
            if match.status is MatchStatus.FINISHED:
                return False
            match.status = MatchStatus.VOID
            s.add(match)
            s.flush()
            _rate_ready(s, match)  # the matches scheduled after it need not wait for it
            return True

    def void_unfinished(self, tournament_id: int, *,
                        status: TournamentStatus = TournamentStatus.FINISHED,
                        decided: Mapping[str, Any] | None = None) -> int:
        """Void every pending or running match of a tournament (it will not be played: a
        result that still arrives is not stored) and mark it ended with ``status`` (finished,
        or cancelled by an operator); how many were voided. ``decided``: why its format ended
        it early (an SPRT's decision, as :func:`arena.tournament.formats.decision_record`
        gives it), kept in its settings as ``decided`` for every list to show. The finished
        matches keep their results, and are rated in schedule order."""
        with self._writing("void a tournament's unfinished matches") as s:
            tournament = s.get(Tournament, tournament_id)
            if tournament is None:
                raise NotFoundError(f"no tournament with id {tournament_id}")
            matches = s.exec(select(Match).where(
                Match.tournament_id == tournament_id,
                col(Match.status).in_((MatchStatus.PENDING, MatchStatus.RUNNING)))).all()
            for match in matches:
                match.status = MatchStatus.VOID
                s.add(match)
            tournament.status = status
            tournament.finished_at = now()
            if decided is not None:
                tournament.settings = {**tournament.settings, "decided": dict(decided)}
            s.add(tournament)
            s.flush()
            if matches:
                _rate_ready(s, matches[0])  # nothing is left to wait for
            return len(matches)

    def cancel_tournament(self, tournament_id: int) -> int:
        """Void the unfinished matches of a tournament no one is running (see
        :meth:`void_unfinished`) and mark it cancelled; how many. A :class:`StoreError` while
        it runs."""
        with self._not_running(tournament_id, "cancel"):
            return self.void_unfinished(tournament_id, status=TournamentStatus.CANCELLED)

    def void_tournament(self, tournament_id: int) -> int:
        """Take a tournament no one is running out of the ratings: every match of it void (the
        results stay on record), and every rating rebuilt without them; how many matches had
        counted. A :class:`StoreError` while it runs."""
        with self._not_running(tournament_id, "void"):
            with self._writing("void a tournament") as s:
                if s.get(Tournament, tournament_id) is None:
                    raise NotFoundError(f"no tournament with id {tournament_id}")
                counted = s.execute(select(func.count()).select_from(Match).where(
                    Match.tournament_id == tournament_id,
                    col(Match.status) == MatchStatus.FINISHED)).scalar() or 0
                s.execute(sa.update(Match).where(col(Match.tournament_id) == tournament_id)
                          .values(status=MatchStatus.VOID))
            self.void_unfinished(tournament_id)  # marks it finished
            self.rebuild_ratings()
            return int(counted)

    @contextmanager
    def _not_running(self, tournament_id: int, doing: str) -> Iterator[None]:
        self.get_tournament(tournament_id)  # an unknown id is a NotFoundError
        try:
            with self._runs.hold(tournament_id):
                yield
        except Busy:
            raise StoreError(f"cannot {doing} tournament {tournament_id}: it is running; stop "
                             "its run first (Ctrl-C or SIGTERM)", kind=ErrorKind.CONFLICT) from None

    def finish_match(self, match_id: int, result: MatchResult) -> bool:
        """Store a match's result and move the ratings, in one transaction.

        Returns False and changes nothing when the match is already finished (or
        void): a result written twice is stored once. A result whose length does
        not match the seats, or with a fault that is not a :class:`Fault` value, is
        a :class:`StoreError`; a rank below 1 is the caller's bug (``ValueError``
        from the ratings) — in every case nothing is written.
        """
        with self._writing("finish a match") as s:
            match = _get_match(s, match_id)
            if match.status in _DONE:
                return False
            seats = s.exec(
                select(Seat).where(Seat.match_id == match_id).order_by(col(Seat.seat))
            ).all()
            n = len(seats)
            if not (len(result.scores) == len(result.ranks) == len(result.faults) == n):
                raise StoreError(
                    f"match {match_id} has {n} seats but the result has "
                    f"{len(result.scores)} scores, {len(result.ranks)} ranks, "
                    f"{len(result.faults)} faults", kind=ErrorKind.BAD_REQUEST)
            if any(rank < 1 for rank in result.ranks):
                raise ValueError(f"ranks must be 1 or more, not {list(result.ranks)}")
            faults = [_member(Fault, fault, "fault") for fault in result.faults]
            match.status = MatchStatus.FINISHED
            match.started_at = result.started_at or match.started_at
            match.finished_at = now()
            match.duration_s = result.duration_s
            match.log = result.log
            match.live_log = None  # the full log is kept now
            match.node = result.node
            s.add(match)
            peers = result.peers or (None,) * n
            reasons = result.reasons or ("",) * n
            if len(peers) != n or len(reasons) != n:
                raise StoreError(f"match {match_id} has {n} seats but the result has "
                                 f"{len(peers)} peers and {len(reasons)} reasons", kind=ErrorKind.BAD_REQUEST)
            for seat, score, rank, fault, peer, reason in zip(
                seats, result.scores, result.ranks, faults, peers, reasons, strict=True
            ):
                seat.score, seat.rank, seat.fault = float(score), int(rank), fault
                seat.peer = peer
                seat.reason = reason if fault and reason else None
                s.add(seat)
            s.flush()
            _rate_ready(s, match)
            return True

    def write_live_log(self, match_id: int, data: bytes) -> bool:
        """Keep the log of a running match so far (``arena.v1.MatchLog`` bytes, as the final
        log: every decision and event, all seats'; what a spectator may see of it is for
        the reader to derive: the web shows only the public view while the match runs);
        False, and nothing written, unless the match is running."""
        with self._writing("write a running match's log so far") as s:
            done = s.execute(sa.update(Match).where(
                col(Match.id) == match_id, col(Match.status) == MatchStatus.RUNNING,
            ).values(live_log=data))
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def live_log(self, match_id: int) -> bytes | None:
        """The log a running match has so far, every seat's (None before its first write, and
        once it has finished: its full log is then in :meth:`get_match`); never to be shown
        but through its public view while the match runs."""
        with self._reading("read a running match's log so far") as s:
            found = s.execute(sa.select(col(Match.live_log)).where(col(Match.id) == match_id)).first()
            if found is None:
                raise NotFoundError(f"no match with id {match_id}")
            return found[0]  # type: ignore[no-any-return]

    def live_progress(self, match_id: int) -> tuple[MatchStatus, int | None]:
        """A match's status and the size in bytes of its running log so far (None before its
        first write and once it is over): what a live feed polls, reading no log, to learn
        whether there is anything new to read."""
        with self._reading("look at a running match's progress") as s:
            found = s.execute(sa.select(col(Match.status), sa.func.length(col(Match.live_log)))
                              .where(col(Match.id) == match_id)).first()
            if found is None:
                raise NotFoundError(f"no match with id {match_id}")
            return MatchStatus(found[0]), None if found[1] is None else int(found[1])

    def deal_in_play(self, match_id: int) -> int | None:
        """Another match of the same tournament that deals the same cards (a seat rotation of a
        duplicate deal) and is not finished yet, if any: its id. Until it is played, the
        match's hidden cards must not be shown to anyone."""
        with self._reading("look for a match's deal in play") as s:
            row = s.execute(sa.select(col(Match.tournament_id), col(Match.seed))
                            .where(col(Match.id) == match_id)).first()
            if row is None:
                raise NotFoundError(f"no match with id {match_id}")
            if row[0] is None:
                return None
            found = s.execute(sa.select(col(Match.id)).where(
                col(Match.tournament_id) == row[0],
                col(Match.status).in_((MatchStatus.PENDING, MatchStatus.RUNNING)),
                col(Match.seed) == row[1], col(Match.id) != match_id).limit(1)).first()
            return None if found is None else int(found[0])

    def deals_in_play(self, match_ids: Sequence[int]) -> set[int]:
        """Those of ``match_ids`` whose deal another match of their tournament has still to
        play (see :meth:`deal_in_play`), in one query."""
        if not match_ids:
            return set()
        other = sa.orm.aliased(Match)
        with self._reading("look for deals in play") as s:
            return {int(found) for (found,) in s.execute(
                sa.select(col(Match.id)).distinct().join(other, sa.and_(
                    col(other.tournament_id) == col(Match.tournament_id),
                    col(other.seed) == col(Match.seed), col(other.id) != col(Match.id),
                    col(other.status).in_((MatchStatus.PENDING, MatchStatus.RUNNING))))
                .where(col(Match.id).in_(list(match_ids))))}

    def get_match(self, match_id: int) -> MatchInfo:
        """A match with its seats and its log bytes."""
        with self._reading("read a match") as s:
            match = _get_match(s, match_id)
            return _match_info(match, _seat_infos(s, [match_id]).get(match_id, ()), with_log=True)

    def list_matches(
        self, tournament_id: int | None = None, limit: int = 100, *,
        status: MatchStatus | str | None = None,
    ) -> list[MatchInfo]:
        """Matches, newest first (logs not loaded)."""
        if status is not None:
            status = _member(MatchStatus, status, "match status")
        with self._reading("list matches") as s:
            query = select(Match).options(sa.orm.defer(Match.log),  # type: ignore[arg-type]
                                          sa.orm.defer(Match.live_log))  # type: ignore[arg-type]
            if tournament_id is not None:
                query = query.where(col(Match.tournament_id) == tournament_id)
            if status is not None:
                query = query.where(col(Match.status) == status)
            matches = s.exec(query.order_by(col(Match.id).desc()).limit(limit)).all()
            seats = _seat_infos(s, [m.id for m in matches if m.id is not None])
            return [_match_info(m, seats.get(m.id or 0, ()), with_log=False) for m in matches]

    def shared_matches(self, bot_ids: Sequence[int], game: str) -> list[MatchInfo]:
        """The finished matches of ``game`` in which every one of ``bot_ids`` took a seat, in
        the order they were rated (logs not loaded)."""
        with self._reading("list shared matches") as s:
            query = select(Match).options(sa.orm.defer(Match.log)).where(  # type: ignore[arg-type]
                col(Match.game) == game, col(Match.status) == MatchStatus.FINISHED)
            for bot_id in set(bot_ids):
                query = query.where(col(Match.id).in_(
                    sa.select(col(Seat.match_id)).where(col(Seat.bot_id) == bot_id)))
            matches = s.exec(query.order_by(col(Match.finish_seq), col(Match.id))).all()
            seats = _seat_infos(s, [m.id for m in matches if m.id is not None])
            return [_match_info(m, seats.get(m.id or 0, ()), with_log=False) for m in matches]

    # ---------------------------------------------------------------- ratings

    def leaderboard(
        self, game: str | None = None, *, pool: str | None = None, include_removed: bool = False
    ) -> list[LeaderboardRow]:
        """Rated bots, best conservative estimate (mu - 3 sigma) first: of every rating pool
        (see :meth:`arena.games.base.Game.pool`), of ``game``'s pools, or of one ``pool``."""
        with self._reading("read the leaderboard") as s:
            query = select(Rating, Bot).join(Bot, col(Bot.id) == col(Rating.bot_id))
            if game is not None:
                query = query.where(sa.or_(col(Rating.game) == game,
                                           col(Rating.game).startswith(f"{game}[")))
            if pool is not None:
                query = query.where(col(Rating.game) == pool)
            if not include_removed:
                query = query.where(col(Bot.removed).is_(False))
            rows = [
                LeaderboardRow(
                    game=base_game(r.game), bot_id=r.bot_id, name=b.name, version=b.version,
                    mu=r.mu, sigma=r.sigma, conservative=rating.conservative(r.mu, r.sigma),
                    matches=r.matches, wins=r.wins, faults=r.faults, pool=r.game,
                )
                for r, b in s.exec(query).all()
            ]
        rows.sort(key=lambda r: (-r.conservative, -r.mu, r.pool, r.name, r.version))
        return rows

    def rating_history(self, bot_id: int, game: str) -> list[HistoryPoint]:
        """A bot's rating after each of its rated matches in a rating pool (a game's name is
        its standard pool), oldest first."""
        with self._reading("read rating history") as s:
            rows = s.exec(
                select(RatingHistory)
                .where(RatingHistory.bot_id == bot_id, RatingHistory.game == game)
                .order_by(col(RatingHistory.finish_seq))
            ).all()
            return [HistoryPoint(h.match_id, h.finish_seq, h.mu, h.sigma) for h in rows]

    def rebuild_ratings(self) -> int:
        """Recompute every rating and its history from the finished matches, in finish order,
        and the summaries kept with them (head-to-head counts, tournament standings and
        crosstables: :mod:`arena.storage.tables`).

        Gives the very numbers the incremental updates gave. Returns the number
        of matches replayed. One transaction: a failure leaves the old ratings.
        Seats are streamed in finish order (one query) and history rows written
        in bulk as the replay goes, so memory stays flat however many matches
        there are (the summaries hold a few rows per bot, pool and tournament).
        """
        with self._writing("rebuild ratings") as s:
            conn = s.connection()
            conn.execute(delete(RatingHistory))
            conn.execute(delete(Rating))
            for table in (_HEAD_TO_HEAD, _STANDING, _PAIR):
                conn.execute(sa.delete(table))
            rows = conn.execute(
                sa.select(
                    col(Match.id), col(Match.game), col(Match.finish_seq), col(Match.tournament_id),
                    col(Seat.bot_id), col(Seat.rank), _FAULT_TEXT,
                )
                .select_from(Match)
                .outerjoin(Seat, col(Seat.match_id) == col(Match.id))
                .where(col(Match.status) == MatchStatus.FINISHED,
                       col(Match.finish_seq).is_not(None))
                .order_by(col(Match.finish_seq), col(Match.id), col(Seat.seat))
            )
            pools = {  # each match's rating pool, from its game and options
                row_id: pool_of(row_game, row_options or {})
                for row_id, row_game, row_options in conn.execute(
                    sa.select(col(Match.id), col(Match.game), col(Match.options))
                    .where(col(Match.status) == MatchStatus.FINISHED,
                           col(Match.finish_seq).is_not(None)))
            }
            book = rating.RatingBook()
            summaries = _Summaries()
            replayed = 0
            match_id: int | None = None
            tournament_id: int | None = None
            game, finish_seq = "", 0
            placed: list[PlayedSeat] = []
            for row_match, row_game, row_seq, row_tournament, bot_id, rank, fault in rows:
                if row_match != match_id:
                    if match_id is not None:
                        _replay(book, summaries, game, tournament_id, match_id, finish_seq, placed)
                        replayed += 1
                        if len(book.history) >= _HISTORY_CHUNK:
                            _write_history(conn, book.take_history())
                    match_id, game, finish_seq, placed = (row_match, pools.get(row_match, row_game),
                                                          int(row_seq or 0), [])
                    tournament_id = row_tournament
                if bot_id is not None:  # a finished match without seats rates nothing
                    placed.append(PlayedSeat(bot_id, int(rank or 0), fault or ""))
            if match_id is not None:
                _replay(book, summaries, game, tournament_id, match_id, finish_seq, placed)
                replayed += 1
            _save_ratings(conn, book, {})
            summaries.save(conn)
            return replayed

    # ---------------------------------------------------------------- read-only views (CLI)

    def tournament_match_counts(self) -> dict[int, dict[MatchStatus, int]]:
        """For every tournament with matches: how many it has of each status, by its id
        (one query; a status it has none of is left out)."""
        with self._reading("count matches") as s:
            rows = s.execute(
                select(Match.tournament_id, Match.status, func.count())
                .where(col(Match.tournament_id).is_not(None))
                .group_by(col(Match.tournament_id), col(Match.status))
            ).all()
        counts: dict[int, dict[MatchStatus, int]] = {}
        for tournament_id, status, count in rows:
            counts.setdefault(int(tournament_id), {})[MatchStatus(status)] = int(count)
        return counts

    def tournament_matches(self, tournament_id: int) -> list[MatchInfo]:
        """Every match of a tournament in schedule order, with its seats (logs not loaded);
        a :class:`NotFoundError` for an unknown tournament."""
        with self._reading("list a tournament's matches") as s:
            if s.get(Tournament, tournament_id) is None:
                raise NotFoundError(f"no tournament with id {tournament_id}")
            matches = s.exec(
                select(Match).options(sa.orm.defer(Match.log))  # type: ignore[arg-type]
                .where(col(Match.tournament_id) == tournament_id)
                .order_by(col(Match.index), col(Match.id))
            ).all()
            seats = _seat_infos(s, [m.id for m in matches if m.id is not None])
            return [_match_info(m, seats.get(m.id or 0, ()), with_log=False) for m in matches]


    # ---------------------------------------------------------------- browsing (the web pages)
    #
    # The read-only queries of the web app (leaderboard.web). Each is answered from an index
    # (tests/web explain every query a page makes), so that a page costs about the same with
    # a million matches as with ten; lists come a page at a time (a limit and a cursor). No
    # query here loads a match log: the log column (and the columns stored after it) are
    # never selected, so a match row is read without the log's overflow pages.

    def bot_versions(self, name: str) -> list[BotInfo]:
        """Every version of the bot called ``name``, removed ones too, oldest first; a
        :class:`NotFoundError` when there is none."""
        with self._reading("read a bot") as s:
            found = [_bot_info(b) for b in s.exec(
                select(Bot).where(Bot.name == name).order_by(col(Bot.id)))]
        if not found:
            raise NotFoundError(f"no bot {name}")
        return found

    def bot_names(self, offset: int, limit: int) -> tuple[list[str], int]:
        """A page of the bots' names in order (removed versions count, a name is listed while
        any version of it is kept), and how many names there are in all."""
        with self._reading("list bots") as s:
            names = [str(n) for n in s.exec(
                select(Bot.name).distinct().order_by(col(Bot.name)).offset(offset).limit(limit))]
            total = s.execute(select(func.count(sa.distinct(col(Bot.name))))).scalar() or 0
        return names, int(total)

    def bots_named(self, names: Sequence[str]) -> list[BotInfo]:
        """Every version of the bots with these names, removed ones too, by name then age."""
        with self._reading("list bots") as s:
            return [_bot_info(b) for b in s.exec(
                select(Bot).where(col(Bot.name).in_(list(names)))
                .order_by(col(Bot.name), col(Bot.id)))]

    def bots_by_id(self, bot_ids: Iterable[int]) -> list[BotInfo]:
        """These bots (removed ones too; unknown ids left out), by id."""
        wanted = sorted(set(bot_ids))
        found: list[BotInfo] = []
        with self._reading("read bots") as s:
            for chunk in _chunks(wanted):
                found += [_bot_info(b) for b in s.exec(
                    select(Bot).where(col(Bot.id).in_(chunk)).order_by(col(Bot.id)))]
        return found

    def tournament_page(self, before: int | None, limit: int) -> list[TournamentInfo]:
        """Tournaments newest first, those with an id below ``before`` (all: None), at most
        ``limit``; as :meth:`get_tournament` gives them, in three queries for the page."""
        with self._reading("list tournaments") as s:
            query = select(Tournament)
            if before is not None:
                query = query.where(col(Tournament.id) < before)
            rows = s.exec(query.order_by(col(Tournament.id).desc()).limit(limit)).all()
            return self._tournament_infos(s, rows)

    def tournaments_to_serve(self) -> list[TournamentInfo]:
        """The tournaments the server's scheduler is to play, oldest first: those queued, and
        the unfinished ones created queued (``served`` in their settings) that no run holds
        the lock of: left running by a server that died (``kill -9``, a crash), or
        interrupted."""
        with self._reading("list queued tournaments") as s:
            rows = s.exec(select(Tournament).where(col(Tournament.status).in_(
                (TournamentStatus.QUEUED, TournamentStatus.RUNNING, TournamentStatus.INTERRUPTED)))
                .order_by(col(Tournament.id))).all()
            wanted = [t for t in rows if t.status is TournamentStatus.QUEUED or (
                t.settings.get("served") and t.id is not None and not self._runs.held(t.id))]
            return self._tournament_infos(s, wanted)

    def running_tournaments(self) -> list[TournamentInfo]:
        """The tournaments running now, newest first (not those whose run died: they read as
        interrupted)."""
        with self._reading("list tournaments") as s:
            rows = s.exec(select(Tournament).where(col(Tournament.status) == TournamentStatus.RUNNING)
                          .order_by(col(Tournament.id).desc())).all()
            infos = self._tournament_infos(s, rows)
        return [t for t in infos if t.status is TournamentStatus.RUNNING]

    def match_counts(self, tournament_ids: Sequence[int]) -> dict[int, dict[MatchStatus, int]]:
        """:meth:`tournament_match_counts` for these tournaments only (one indexed query)."""
        with self._reading("count matches") as s:
            return _match_counts(s, tournament_ids)

    def _tournament_infos(self, s: Session, rows: Sequence[Tournament]) -> list[TournamentInfo]:
        """:meth:`_tournament_info` of many tournaments, with a query for all their counts and
        one for all their bots."""
        counts = _match_counts(s, [t.id for t in rows if t.id is not None])
        # a ladder names no bots up front (its field changes as it plays): its bots are those
        # seated in its matches so far
        seated = _seated_bots(s, [t.id for t in rows if not t.bot_ids and t.id is not None])
        given = {t.id: tuple(int(b) for b in t.bot_ids) or seated.get(t.id or 0, ())
                 for t in rows}
        bot_ids = {b for ids in given.values() for b in ids}
        labels = {b.id: f"{b.name}@{b.version}" for b in s.exec(
            select(Bot).where(col(Bot.id).in_(bot_ids)))} if bot_ids else {}
        infos = []
        for t in rows:
            assert t.id is not None
            mine = counts.get(t.id, {})
            ids = given[t.id]
            infos.append(TournamentInfo(
                id=t.id, game=t.game, players=t.players, options=dict(t.options),
                seed=int(t.seed), repetitions=t.repetitions, settings=dict(t.settings),
                bot_ids=ids, bots=tuple(labels.get(b, f"#{b}") for b in ids),
                status=TournamentStatus.INTERRUPTED  # as _tournament_info says it
                if t.status is TournamentStatus.RUNNING and mine.keys() - {MatchStatus.PENDING}
                and not self._runs.held(t.id) else t.status,
                created_at=utc(t.created_at) or t.created_at,
                finished_at=utc(t.finished_at), total=sum(mine.values()),
                finished=mine.get(MatchStatus.FINISHED, 0),
            ))
        return infos

    def recent_matches(self, limit: int) -> list[MatchInfo]:
        """The latest rated matches, the last rated first (logs not loaded)."""
        with self._reading("list matches") as s:
            ids = [int(i) for i in s.execute(
                sa.select(col(Match.id)).where(col(Match.finish_seq).is_not(None))
                .order_by(col(Match.finish_seq).desc()).limit(limit)).scalars()]
            return _lean_matches(s, ids)

    def tournament_match_page(self, tournament_id: int, first_index: int,
                              limit: int) -> list[MatchInfo]:
        """A tournament's matches in schedule order from its ``first_index``-th, at most
        ``limit`` (logs not loaded)."""
        with self._reading("list a tournament's matches") as s:
            ids = [int(i) for i in s.execute(
                sa.select(col(Match.id))
                .where(col(Match.tournament_id) == tournament_id, col(Match.index) >= first_index)
                .order_by(col(Match.index)).limit(limit)).scalars()]
            return _lean_matches(s, ids, by_index=True)

    def tournament_played(self, tournament_id: int) -> list[Played]:
        """A tournament's finished matches as its standings read them (schedule order), in
        one query of their seats; nothing but ids, ranks and faults is loaded."""
        with self._reading("read a tournament's results") as s:
            return _played(s, sa.and_(col(Match.tournament_id) == tournament_id,
                                      col(Match.status) == MatchStatus.FINISHED))

    def bot_matches(self, bot_id: int, before: int | None, limit: int) -> list[MatchInfo]:
        """The matches a bot version took a seat in, newest first, those with an id below
        ``before`` (all: None), at most ``limit`` (logs not loaded)."""
        with self._reading("list a bot's matches") as s:
            query = sa.select(col(Seat.match_id)).where(col(Seat.bot_id) == bot_id)
            if before is not None:
                query = query.where(col(Seat.match_id) < before)
            ids = [int(i) for i in s.execute(
                query.distinct().order_by(col(Seat.match_id).desc()).limit(limit)).scalars()]
            return _lean_matches(s, ids)

    def bot_faults(self, bot_id: int, before: int | None, limit: int) -> list[FaultInfo]:
        """The seats in which a bot version faulted, newest first, in matches with an id below
        ``before`` (all: None), at most ``limit``."""
        with self._reading("list a bot's faults") as s:
            query = (sa.select(col(Seat.match_id), col(Seat.seat), _FAULT_TEXT, col(Match.game),
                               col(Match.tournament_id), col(Match.finished_at),
                               col(Seat.reason))
                     .select_from(Seat).join(Match, col(Match.id) == col(Seat.match_id))
                     .where(col(Seat.bot_id) == bot_id, FAULTED))
            if before is not None:
                query = query.where(col(Seat.match_id) < before)
            return [FaultInfo(int(m), int(seat), Fault(fault), str(game), tid, utc(when), reason)
                    for m, seat, fault, game, tid, when, reason in s.execute(
                        query.order_by(col(Seat.match_id).desc(), col(Seat.seat)).limit(limit))]

    def bot_fault_counts(self, bot_id: int) -> dict[Fault, int]:
        """How many seats a bot version faulted in, by fault (those it never had left out)."""
        with self._reading("count a bot's faults") as s:
            return {Fault(fault): int(n) for fault, n in s.execute(
                sa.select(_FAULT_TEXT, func.count()).where(col(Seat.bot_id) == bot_id, FAULTED)
                .group_by(_FAULT_TEXT))}

    def head_to_head(self, bot_id: int) -> list[HeadToHead]:
        """A bot version against every bot it shared a rated match with, per rating pool (see
        :class:`HeadToHead`), by pool then opponent id: the bot's rows of the head-to-head
        summary, kept up to date as matches are rated (one index range)."""
        table = _HEAD_TO_HEAD
        with self._reading("read a bot's head-to-head results") as s:
            rows = s.execute(
                sa.select(table.c.pool, table.c.opponent_id, table.c.wins, table.c.losses,
                          table.c.ties, table.c.rank_sum)
                .where(table.c.bot_id == bot_id)
                .order_by(table.c.pool, table.c.opponent_id)).all()
        return [HeadToHead(str(pool), int(opp), int(wins), int(losses), int(ties), int(ranks))
                for pool, opp, wins, losses, ties, ranks in rows]

    def tournament_standings(
        self, tournament_id: int,
    ) -> tuple[list[Standing], dict[tuple[int, int], Comparison]]:
        """A tournament's standings (its matches rated alone, in schedule order: as
        :func:`arena.rating.standings.standings` gives them over its finished matches) and its
        crosstable in their order (:func:`arena.rating.standings.crosstable`).

        Read from the tournament's summary rows (its rated matches: a few rows per bot), then,
        while matches of it are still to play, the finished matches not rated yet (those that
        wait for an earlier one) applied on top, in schedule order."""
        with self._reading("read a tournament's standings") as s:
            lines = _standing_lines(s, _STANDING.c.tournament_id == tournament_id)
            counts = {(int(a), int(b)): [int(w), int(lo), int(ti)]
                      for a, b, w, lo, ti in s.execute(
                          sa.select(_PAIR.c.bot_id, _PAIR.c.opponent_id, _PAIR.c.wins,
                                    _PAIR.c.losses, _PAIR.c.ties)
                          .where(_PAIR.c.tournament_id == tournament_id))}
            to_play = s.execute(sa.select(col(Match.id)).where(
                col(Match.tournament_id) == tournament_id,
                col(Match.status).in_((MatchStatus.PENDING, MatchStatus.RUNNING))).limit(1)).first()
            waiting: list[Played] = []
            if to_play is not None:  # else every finished match of it is rated
                waiting = _played(s, sa.and_(col(Match.tournament_id) == tournament_id,
                                             col(Match.status) == MatchStatus.FINISHED,
                                             col(Match.finish_seq).is_(None)))
        book = StandingsBook(lines)
        for match in waiting:
            count_pairs(counts, book.apply(match.match_id, match.seats))
        rows = book.standings()
        return rows, cross_cells(counts, [r.bot_id for r in rows])

    def bot_ratings(self, bot_id: int) -> list[LeaderboardRow]:
        """A bot version's rating in every pool it is rated in, by pool."""
        with self._reading("read a bot's ratings") as s:
            rows = s.exec(select(Rating, Bot).join(Bot, col(Bot.id) == col(Rating.bot_id))
                          .where(col(Rating.bot_id) == bot_id)).all()
            found = [LeaderboardRow(
                game=base_game(r.game), bot_id=r.bot_id, name=b.name, version=b.version,
                mu=r.mu, sigma=r.sigma, conservative=rating.conservative(r.mu, r.sigma),
                matches=r.matches, wins=r.wins, faults=r.faults, pool=r.game) for r, b in rows]
        return sorted(found, key=lambda r: r.pool)

    def pools(self, game: str | None = None) -> list[str]:
        """The rating pools with a rating in them (of ``game`` only, if given), in order."""
        with self._reading("list rating pools") as s:
            query = sa.select(col(Rating.game)).distinct()
            if game is not None:
                query = query.where(sa.or_(col(Rating.game) == game,
                                           col(Rating.game).startswith(f"{game}[")))
            return sorted(str(p) for p in s.execute(query).scalars())

    def rating_trends(self, bot_ids: Sequence[int], pool: str,
                      points: int) -> dict[int, list[HistoryPoint]]:
        """The last ``points`` rating history points of each of these bots in a pool, oldest
        first, in one query (a union of one indexed look-up per bot)."""
        if not bot_ids or points < 1:
            return {}
        parts = [
            sa.select(col(RatingHistory.bot_id), col(RatingHistory.match_id),
                      col(RatingHistory.finish_seq), col(RatingHistory.mu),
                      col(RatingHistory.sigma))
            .where(col(RatingHistory.bot_id) == bot_id, col(RatingHistory.game) == pool)
            .order_by(col(RatingHistory.finish_seq).desc()).limit(points).subquery()
            for bot_id in dict.fromkeys(bot_ids)
        ]
        out: dict[int, list[HistoryPoint]] = {b: [] for b in bot_ids}
        with self._reading("read rating trends") as s:
            query = sa.union_all(*(sa.select(part) for part in parts)) if len(parts) > 1 \
                else sa.select(parts[0])
            for bot_id, match_id, seq, mu, sigma in s.execute(query):
                out[int(bot_id)].append(HistoryPoint(int(match_id), int(seq), mu, sigma))
        for line in out.values():
            line.sort(key=lambda p: p.finish_seq)
        return out

    def rating_history_sample(self, bot_id: int, pool: str, points: int) -> HistorySample:
        """At most ``points`` (2 or more) of a bot's rating history points in a pool, however
        long its history: its first and last, and between them the first point at or after
        each of evenly spaced finish numbers. Index look-ups only: the ends of its history,
        its count from its rating row (a history point per rated match), then the points in
        one query, a union of one look-up per point (written out as text: built as an
        expression, a union of hundreds of selects costs more to build than to run)."""
        points = max(points, 2)
        with self._reading("read rating history") as s:
            mine = sa.and_(col(RatingHistory.bot_id) == bot_id, col(RatingHistory.game) == pool)
            first = s.execute(sa.select(func.min(col(RatingHistory.finish_seq))).where(mine)).scalar()
            last = s.execute(sa.select(func.max(col(RatingHistory.finish_seq))).where(mine)).scalar()
            total = s.execute(sa.select(col(Rating.matches)).where(
                col(Rating.bot_id) == bot_id, col(Rating.game) == pool)).scalar()
            if first is None or last is None:
                return HistorySample(pool, 0, ())
            step = (int(last) - int(first)) / (points - 1)
            marks = sorted({int(first) + round(i * step) for i in range(points)})
            found: dict[int, HistoryPoint] = {}
            for chunk in range(0, len(marks), 250):  # SQLite takes 500 SELECTs in a union
                group = marks[chunk:chunk + 250]
                query = sa.text(" UNION ALL ".join(
                    f"SELECT * FROM (SELECT match_id, finish_seq, mu, sigma FROM rating_history "
                    f"WHERE bot_id = :bot AND game = :pool AND finish_seq >= :m{i} "
                    f"ORDER BY finish_seq LIMIT 1) AS p{i}" for i in range(len(group))))
                values: dict[str, Any] = {"bot": bot_id, "pool": pool}
                values.update({f"m{i}": mark for i, mark in enumerate(group)})
                for match_id, seq, mu, sigma in s.execute(query, values):
                    found[int(seq)] = HistoryPoint(int(match_id), int(seq), mu, sigma)
        return HistorySample(pool, int(total or len(found)),
                             tuple(found[q] for q in sorted(found)))

# ---------------------------------------------------------------- rating rows
#
# The book (arena.rating.RatingBook) does the rating and the counting; here the
# lines it needs are loaded and what it moved is written back: SQLAlchemy Core
# statements run as executemany over plain dicts on the caller's connection
# (inside its transaction), no ORM object per row, which matters when a rebuild
# writes a history row per bot and match.

_HISTORY_CHUNK = 10_000
"""History rows written per bulk insert."""

_FAULT_TEXT = sa.type_coerce(col(Seat.fault), sa.String())
"""A seat's fault as its stored text: the book needs only whether it is empty."""


def _rate_ready(s: Session, changed: Match) -> None:
    """Rate, in schedule order, every finished match whose turn has come.

    Outside a tournament that is just ``changed`` (if finished). In a tournament
    it is every finished, unrated match scheduled before the first one still
    pending or running. Each gets the next ``finish_seq``. The summaries move with
    the ratings: the head-to-head counts, and the tournament's standings and crosstable.
    """
    ready: list[int]
    if changed.tournament_id is None:
        assert changed.id is not None
        finished = changed.status is MatchStatus.FINISHED and changed.finish_seq is None
        ready = [changed.id] if finished else []
    else:
        frontier = s.execute(
            select(func.min(Match.index)).where(
                Match.tournament_id == changed.tournament_id,
                col(Match.status).in_((MatchStatus.PENDING, MatchStatus.RUNNING)),
            )
        ).scalar()
        query = (
            select(Match.id)
            .where(Match.tournament_id == changed.tournament_id,
                   col(Match.status) == MatchStatus.FINISHED, col(Match.finish_seq).is_(None))
            .order_by(col(Match.index))
        )
        if frontier is not None:
            query = query.where(Match.index < frontier)
        ready = [int(m) for m in s.execute(query).scalars()]
    if not ready:
        return
    seats: dict[int, list[PlayedSeat]] = {}
    for chunk in _chunks(ready):
        for match_id, bot_id, rank, fault in s.execute(
            sa.select(col(Seat.match_id), col(Seat.bot_id), col(Seat.rank), _FAULT_TEXT)
            .where(col(Seat.match_id).in_(chunk))
            .order_by(col(Seat.match_id), col(Seat.seat))
        ):
            seats.setdefault(match_id, []).append(PlayedSeat(bot_id, int(rank or 0), fault or ""))
    conn = s.connection()
    game = pool_of(changed.game, changed.options)  # a tournament's matches share their options
    book, row_ids = _load_ratings(conn, game, {p.bot_id for row in seats.values() for p in row})
    summaries = _Summaries()
    if changed.tournament_id is not None:
        summaries.load_tournament(conn, changed.tournament_id,
                                  {p.bot_id for row in seats.values() for p in row})
    next_seq = (s.execute(select(func.max(Match.finish_seq))).scalar() or 0) + 1
    numbered = []
    for match_id in ready:
        played = seats.get(match_id, [])
        book.apply(game, match_id, next_seq, [rating.Placed(p.bot_id, p.rank, p.fault != "")
                                              for p in played])
        summaries.add(game, changed.tournament_id, match_id, played)
        numbered.append({"id": match_id, "finish_seq": next_seq})
        next_seq += 1
    s.execute(sa.update(Match), numbered)  # ORM bulk update by primary key
    _save_ratings(conn, book, row_ids)
    summaries.save(conn)


def _replay(
    book: rating.RatingBook, summaries: _Summaries, game: str, tournament_id: int | None,
    match_id: int, finish_seq: int, seats: Sequence[PlayedSeat],
) -> None:
    """One stored match into the rebuild; a stored rank no rating can take is a StoreError."""
    try:
        book.apply(game, match_id, finish_seq,
                   [rating.Placed(p.bot_id, p.rank, p.fault != "") for p in seats])
        summaries.add(game, tournament_id, match_id, seats)
    except ValueError as error:
        raise StoreError(f"cannot rebuild ratings: stored match {match_id}: {error}") from None


def _load_ratings(
    conn: sa.Connection, game: str, bot_ids: set[int]
) -> tuple[rating.RatingBook, dict[rating.Key, int]]:
    """A book holding the stored lines of these bots in this game, and their rows' ids."""
    lines: dict[rating.Key, rating.RatingLine] = {}
    row_ids: dict[rating.Key, int] = {}
    for chunk in _chunks(sorted(bot_ids)):
        for row_id, bot_id, mu, sigma, matches, wins, faults in conn.execute(
            sa.select(
                col(Rating.id), col(Rating.bot_id), col(Rating.mu), col(Rating.sigma),
                col(Rating.matches), col(Rating.wins), col(Rating.faults),
            ).where(col(Rating.game) == game, col(Rating.bot_id).in_(chunk))
        ):
            lines[bot_id, game] = rating.RatingLine(mu, sigma, matches, wins, faults)
            assert row_id is not None
            row_ids[bot_id, game] = row_id
    return rating.RatingBook(lines), row_ids


def _save_ratings(
    conn: sa.Connection, book: rating.RatingBook, row_ids: Mapping[rating.Key, int]
) -> None:
    """Write every line the book moved (update the row it was loaded from, else insert one),
    then the history it gathered."""
    updates: list[dict[str, Any]] = []
    inserts: list[dict[str, Any]] = []
    for (bot_id, game), line in book.take_changed():
        values = {"mu": line.mu, "sigma": line.sigma, "matches": line.matches,
                  "wins": line.wins, "faults": line.faults}
        row_id = row_ids.get((bot_id, game))
        if row_id is None:
            inserts.append({"bot_id": bot_id, "game": game, **values})
        else:
            updates.append({"row_id": row_id, **values})
    if updates:
        conn.execute(sa.update(Rating).where(col(Rating.id) == sa.bindparam("row_id")), updates)
    if inserts:
        conn.execute(sa.insert(Rating), inserts)
    _write_history(conn, book.take_history())


def _write_history(conn: sa.Connection, moves: Sequence[rating.RatingMove]) -> None:
    if moves:  # the book's history points are keyed as the columns already
        conn.execute(sa.insert(RatingHistory), moves)


# ---------------------------------------------------------------- summary rows
#
# The summary tables (head_to_head, tournament_standing, tournament_pair) move with the
# ratings: what the rated matches add is gathered in memory (:class:`_Summaries`) and written
# in one statement per table, counts added to the stored ones (an upsert), a standing's line
# replaced by its new one. A rebuild empties them and gathers every rated match.

_HEAD_TO_HEAD: sa.Table = metadata.tables[HeadToHeadTally.__tablename__]
_STANDING: sa.Table = metadata.tables[TournamentStanding.__tablename__]
_PAIR: sa.Table = metadata.tables[TournamentPair.__tablename__]
_STANDING_UPDATE = sa.update(_STANDING).where(_STANDING.c.tournament_id == sa.bindparam("t_id"),
                                              _STANDING.c.bot_id == sa.bindparam("b_id"))
_STANDING_INSERT = sa.insert(_STANDING)


def _standing_lines(s: Session | sa.Connection,
                    where: sa.ColumnElement[bool]) -> dict[int, StandingLine]:
    """The stored standing lines ``where`` says, by bot id."""
    return {int(bot_id): StandingLine(mu, sigma, matches, wins, rank_sum, dict(faults))
            for bot_id, mu, sigma, matches, wins, rank_sum, faults in s.execute(
                sa.select(_STANDING.c.bot_id, _STANDING.c.mu, _STANDING.c.sigma,
                          _STANDING.c.matches, _STANDING.c.wins, _STANDING.c.rank_sum,
                          _STANDING.c.faults).where(where))}


class _Summaries:
    """What some rated matches add to the summary tables: per (bot, pool, opponent) the
    head-to-head counts, per tournament its standings (a :class:`StandingsBook` from the
    tournament's stored lines, :meth:`load_tournament`) and its crosstable counts."""

    __slots__ = ("books", "head_to_head", "pairs", "stored")

    def __init__(self) -> None:
        self.head_to_head: dict[tuple[int, str, int], list[int]] = {}  # [wins, losses, ties, rank_sum]
        self.books: dict[int, StandingsBook] = {}
        self.stored: dict[int, set[int]] = {}  # per tournament: the bots with a stored line
        self.pairs: dict[int, dict[tuple[int, int], list[int]]] = {}  # [wins, losses, ties]

    def load_tournament(self, conn: sa.Connection, tournament_id: int, bot_ids: set[int]) -> None:
        """Start the tournament's book from its stored lines of these bots."""
        lines: dict[int, StandingLine] = {}
        for chunk in _chunks(sorted(bot_ids)):
            lines.update(_standing_lines(conn, sa.and_(_STANDING.c.tournament_id == tournament_id,
                                                       _STANDING.c.bot_id.in_(chunk))))
        self.books[tournament_id] = StandingsBook(lines)
        self.stored[tournament_id] = set(lines)

    def add(self, pool: str, tournament_id: int | None, match_id: int,
            seats: Sequence[PlayedSeat]) -> None:
        """One rated match (in rating order), counted as :mod:`arena.rating.figures` says; a
        rank below 1 is a ValueError."""
        if tournament_id is not None:
            book = self.books.get(tournament_id)
            if book is None:
                book = self.books[tournament_id] = StandingsBook()
            reading = book.apply(match_id, seats)
            count_pairs(self.pairs.setdefault(tournament_id, {}), reading)
        else:
            reading = read_seats(seats)
        count_head_to_head(self.head_to_head, pool, reading)  # nothing unless two bots met

    def save(self, conn: sa.Connection) -> None:
        """Add the counts to the stored ones and write every standing line that moved."""
        _add_counts(conn, _HEAD_TO_HEAD, ("bot_id", "pool", "opponent_id"), [
            {"bot_id": a, "pool": pool, "opponent_id": b, "wins": w, "losses": lo, "ties": ti,
             "rank_sum": ranks}
            for (a, pool, b), (w, lo, ti, ranks) in sorted(self.head_to_head.items())])
        _add_counts(conn, _PAIR, ("tournament_id", "bot_id", "opponent_id"), [
            {"tournament_id": t, "bot_id": a, "opponent_id": b, "wins": w, "losses": lo, "ties": ti}
            for t, pairs in sorted(self.pairs.items())
            for (a, b), (w, lo, ti) in sorted(pairs.items())])
        updates: list[dict[str, Any]] = []
        inserts: list[dict[str, Any]] = []
        for tournament_id, book in sorted(self.books.items()):
            stored = self.stored.get(tournament_id, set())
            for bot_id in sorted(book.changed):
                line = book.lines[bot_id]
                values = {"mu": line.mu, "sigma": line.sigma, "matches": line.matches,
                          "wins": line.wins, "rank_sum": line.rank_sum,
                          "faults": dict(sorted(line.faults.items()))}
                if bot_id in stored:
                    updates.append({"t_id": tournament_id, "b_id": bot_id, **values})
                else:
                    inserts.append({"tournament_id": tournament_id, "bot_id": bot_id, **values})
            book.changed.clear()
        if updates:
            conn.execute(_STANDING_UPDATE, updates)
        if inserts:
            conn.execute(_STANDING_INSERT, inserts)
        self.head_to_head.clear()
        self.pairs.clear()


_COUNTS = ("wins", "losses", "ties", "rank_sum")

_UPSERTS: dict[tuple[str, str], Any] = {}
"""The upsert of each (dialect, summary table), built once: building one (its ``excluded``
alias) costs more than running it."""


def _add_counts(conn: sa.Connection, table: sa.Table, keys: Sequence[str],
                rows: Sequence[Mapping[str, Any]]) -> None:
    """Add each row's counts to the stored row with its keys (a new row if none): one upsert
    statement on SQLite and PostgreSQL, an update or insert per row elsewhere."""
    if not rows:
        return
    counts = [name for name in _COUNTS if name in table.c]
    dialect = conn.dialect.name
    if dialect in ("sqlite", "postgresql"):
        upsert = _UPSERTS.get((dialect, table.name))
        if upsert is None:
            insert = (sqlite_dialect.insert if dialect == "sqlite"
                      else postgresql_dialect.insert)(table)
            upsert = _UPSERTS[dialect, table.name] = insert.on_conflict_do_update(
                index_elements=[table.c[k] for k in keys],
                set_={name: table.c[name] + insert.excluded[name] for name in counts})
        conn.execute(upsert, rows)
        return
    for row in rows:
        done = conn.execute(sa.update(table).where(*(table.c[k] == row[k] for k in keys))
                            .values({name: table.c[name] + row[name] for name in counts}))
        if not done.rowcount:
            conn.execute(sa.insert(table), [dict(row)])


# ---------------------------------------------------------------- helpers

_DONE = (MatchStatus.FINISHED, MatchStatus.VOID)
"""A match in one of these statuses is never played again."""

_Choice = TypeVar("_Choice", bound=StrEnum)


def _member(enum: type[_Choice], value: _Choice | str, what: str) -> _Choice:
    """``value`` as a member of ``enum`` (a member or its value as a plain string)."""
    try:
        return enum(value)
    except ValueError:
        choices = ", ".join(repr(member.value) for member in enum)
        raise StoreError(f"bad {what} {value!r} (one of {choices})", kind=ErrorKind.BAD_REQUEST) from None


def _seed_text(seed: int) -> str:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= 2**64 - 1:
        raise StoreError(f"a seed must be a whole number from 0 to 2**64 - 1, not {seed!r}",
                         kind=ErrorKind.BAD_REQUEST)
    return str(seed)


def _file_identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``, or None when there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _author_info(author: Author, bots: Sequence[str]) -> AuthorInfo:
    assert author.id is not None
    return AuthorInfo(id=author.id, name=author.name,
                      created_at=utc(author.created_at) or author.created_at, bots=tuple(bots))


def _name_owner(s: Session, name: str) -> int | None:
    """The author of the first version of the bot ``name`` (None: the operator, or no bot)."""
    first = s.exec(select(Bot).where(Bot.name == name).order_by(col(Bot.id))).first()
    return None if first is None else first.author_id


def _look_alikes(s: Session, name: str) -> list[tuple[str, int | None]]:
    """Every version's (name, owner) among the registered names that fold like ``name``
    (itself included), oldest first; the owner is the version's author, None the
    operator."""
    return [(str(other), None if author_id is None else int(author_id))
            for other, author_id in s.execute(
                sa.select(col(Bot.name), col(Bot.author_id))
                .where(names.fold_sql(col(Bot.name)) == names.fold(name)).order_by(col(Bot.id)))]


def _owner(s: Session, owner: int | None) -> str:
    """``the operator`` or ``author NAME``, as messages say it."""
    if owner is None:
        return "the operator"
    author = s.get(Author, owner)
    return f"author {author.name}" if author is not None else "another author"


def _owns(s: Session, owner: int | None) -> str:
    """``is the operator's`` or ``belongs to author NAME``, as messages say it."""
    return "is the operator's" if owner is None else f"belongs to {_owner(s, owner)}"


def _claim(s: Session, name: str, author_id: int | None, *, adding: bool) -> int | None:
    """Whether ``author_id`` (None: the operator) may register a version under ``name``,
    and the author that version belongs to; a :class:`NotAllowedError` (one line) if not.

    A name belongs to whoever registered its first version. An existing name takes
    versions from its owner only, except that the operator may submit a version of an
    author's bot (it stays the author's) but not ``arena bot add`` one (``adding``): that
    would make the operator's bot a version of the author's. A new name is refused when it
    reads like (folds as) a name someone else owns; an author may never take a bundled
    bot's name or a look-alike of it, the operator registers those freely."""
    if not names.fold(name):
        raise StoreError(f"bad bot name {name!r}: it needs a letter or a digit", kind=ErrorKind.BAD_REQUEST)
    if author_id is not None and (kept := names.reserved(name)) is not None:
        like = "" if kept == name else f" (it reads like {kept})"
        raise NotAllowedError(f"the bot name {name} is kept for the bundled bots{like}: "
                              "submit under another name")
    owners: dict[str, int | None] = {}
    for other, owner in _look_alikes(s, name):
        owners.setdefault(other, owner)  # a name's owner: its first version's
    what = "submit" if author_id is not None else "register the operator's bot"
    if name in owners:
        owner = owners[name]
        if owner == author_id:
            return author_id
        if author_id is None and not adding:
            return owner  # the operator submits a version of an author's bot: it stays hers
        raise NotAllowedError(f"the bot name {name} {_owns(s, owner)}: {what} under another "
                              "name")
    for other, owner in owners.items():
        if owner != author_id:
            raise NotAllowedError(f"the bot name {name} reads like {other}, which "
                                  f"{_owns(s, owner)}: {what} under another name")
    return author_id


def _check_unambiguous(s: Session, name: str) -> None:
    """Refuse to pick ``name``'s newest version when that could be another owner's than the
    asker means: a name, or a look-alike of it, with versions of more than one owner (a
    database from before names were owned), or a bundled bot's name held by an author.
    ``NAME@VERSION`` says which, and always works."""
    held = sorted(set(_look_alikes(s, name)), key=lambda pair: (pair[0], pair[1] or 0))
    if name not in {other for other, _ in held}:
        return  # no such bot: the caller says so
    if len({owner for _, owner in held}) > 1:
        listed = ", ".join(f"{other} ({_owner(s, owner)}'s)" for other, owner in held)
        raise NotAllowedError(f"bot {name} is ambiguous: versions of {listed}; say which "
                              "with NAME@VERSION (`arena bot list` lists them)")
    owner = held[0][1]
    if owner is not None and names.reserved(name) is not None:
        raise NotAllowedError(f"bot {name} is {_owner(s, owner)}'s, not a bundled bot: say "
                              "which version with NAME@VERSION (`arena bot list` lists them)")


def _bot_info(bot: Bot) -> BotInfo:
    assert bot.id is not None
    return BotInfo(
        id=bot.id, name=bot.name, version=bot.version, command=bot.command,
        remote=bot.token_hash is not None, removed=bot.removed,
        created_at=utc(bot.created_at) or bot.created_at, folder=bot.folder,
        content_hash=bot.content_hash, games=None if bot.games is None else tuple(bot.games),
        author_id=bot.author_id,
    )


def _find_bot(s: Session, name: str, version: str | None) -> Bot:
    """``NAME@VERSION``, or with no version ``NAME``'s newest (not removed) version, when
    that cannot be another owner's than meant (:func:`_check_unambiguous`)."""
    query = select(Bot).where(Bot.name == name)
    if version is None:
        _check_unambiguous(s, name)
        query = query.where(col(Bot.removed).is_(False)).order_by(col(Bot.id).desc())
    else:
        query = query.where(Bot.version == version)
    bot = s.exec(query).first()
    if bot is None:
        label = name if version is None else f"{name}@{version}"
        raise NotFoundError(f"no bot {label}")
    return bot


def _check_bots(s: Session, bot_ids: set[int]) -> None:
    found = set(s.exec(select(Bot.id).where(col(Bot.id).in_(bot_ids))).all())
    missing = sorted(bot_ids - {b for b in found if b is not None})
    if missing:
        raise NotFoundError(f"no bot with id {', '.join(map(str, missing))}")


def _get_match(s: Session, match_id: int) -> Match:
    match = s.get(Match, match_id)
    if match is None:
        raise NotFoundError(f"no match with id {match_id}")
    return match


def _seat_bots(s: Session, match_ids: list[int]) -> dict[int, tuple[int, ...]]:
    out: dict[int, list[int]] = {}
    for chunk in _chunks(match_ids):
        for match_id, bot_id in s.execute(
            select(Seat.match_id, Seat.bot_id)
            .where(col(Seat.match_id).in_(chunk))
            .order_by(col(Seat.match_id), col(Seat.seat))
        ):
            out.setdefault(match_id, []).append(bot_id)
    return {k: tuple(v) for k, v in out.items()}


def _seated_bots(s: Session, tournament_ids: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """The bots with a seat in each tournament's matches, by id (for a ladder's field)."""
    if not tournament_ids:
        return {}
    found: dict[int, list[int]] = {}
    for tournament_id, bot_id in s.execute(
            sa.select(col(Match.tournament_id), col(Seat.bot_id)).distinct()
            .select_from(Seat).join(Match, col(Match.id) == col(Seat.match_id))
            .where(col(Match.tournament_id).in_(tournament_ids))
            .order_by(col(Match.tournament_id), col(Seat.bot_id))):
        found.setdefault(int(tournament_id), []).append(int(bot_id))
    return {t: tuple(bots) for t, bots in found.items()}


def _seat_infos(s: Session, match_ids: list[int]) -> dict[int, tuple[SeatInfo, ...]]:
    out: dict[int, list[SeatInfo]] = {}
    for chunk in _chunks(match_ids):
        for seat, bot in s.exec(
            select(Seat, Bot)
            .join(Bot, col(Bot.id) == col(Seat.bot_id))
            .where(col(Seat.match_id).in_(chunk))
            .order_by(col(Seat.match_id), col(Seat.seat))
        ).all():
            out.setdefault(seat.match_id, []).append(SeatInfo(
                seat=seat.seat, bot_id=seat.bot_id, bot=f"{bot.name}@{bot.version}",
                score=seat.score, rank=seat.rank, fault=seat.fault, peer=seat.peer,
            ))
    return {k: tuple(v) for k, v in out.items()}


def _chunks(ids: list[int], size: int = 500) -> Iterator[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start:start + size]


def _match_info(m: Match, seats: tuple[SeatInfo, ...], *, with_log: bool) -> MatchInfo:
    assert m.id is not None
    return MatchInfo(
        id=m.id, tournament_id=m.tournament_id, index=m.index, game=m.game,
        options=dict(m.options), seed=int(m.seed), status=m.status,
        created_at=utc(m.created_at) or m.created_at, started_at=utc(m.started_at),
        finished_at=utc(m.finished_at), duration_s=m.duration_s, finish_seq=m.finish_seq,
        seats=seats, log=m.log if with_log else None, node=m.node,
    )


# ---------------------------------------------------------------- browsing helpers

_LEAN_MATCH = (col(Match.id), col(Match.tournament_id), col(Match.index), col(Match.game),
               col(Match.options), col(Match.seed), col(Match.status), col(Match.created_at),
               col(Match.started_at), col(Match.finished_at), col(Match.duration_s),
               col(Match.finish_seq))
"""A match's columns without its logs (nor the columns stored after them: see browsing)."""


def _lean_matches(s: Session, ids: list[int], *, by_index: bool = False) -> list[MatchInfo]:
    """The matches with these ids and their seats (two queries), in the order of ``ids``."""
    if not ids:
        return []
    rows = {int(r[0]): r for r in s.execute(sa.select(*_LEAN_MATCH).where(col(Match.id).in_(ids)))}
    seats = _seat_infos(s, ids)
    out = []
    for match_id in ids:
        (mid, tid, index, game, options, seed, status, created, started, finished, duration,
         seq) = rows[match_id]
        out.append(MatchInfo(
            id=mid, tournament_id=tid, index=index, game=game, options=dict(options or {}),
            seed=int(seed), status=MatchStatus(status), created_at=utc(created) or created,
            started_at=utc(started), finished_at=utc(finished), duration_s=duration,
            finish_seq=seq, seats=seats.get(mid, ())))
    return out


def _played(s: Session, which: sa.ColumnElement[bool]) -> list[Played]:
    """The matches ``which`` selects (of one tournament) as its standings read them, in schedule
    order, from one query of their seats."""
    out: list[Played] = []
    seats: list[PlayedSeat] = []
    current: tuple[int, int] | None = None
    for match_id, index, bot_id, rank, fault in s.execute(
        sa.select(col(Match.id), col(Match.index), col(Seat.bot_id), col(Seat.rank), _FAULT_TEXT)
        .select_from(Match).join(Seat, col(Seat.match_id) == col(Match.id))
        .where(which)
        .order_by(col(Match.index), col(Seat.seat))
    ):
        if current is not None and current[0] != match_id:
            out.append(Played(current[0], current[1], tuple(seats)))
            seats = []
        current = (int(match_id), int(index))
        seats.append(PlayedSeat(int(bot_id), int(rank or 0), str(fault or "")))
    if current is not None:
        out.append(Played(current[0], current[1], tuple(seats)))
    return out


def _match_counts(s: Session, tournament_ids: Sequence[int]) -> dict[int, dict[MatchStatus, int]]:
    counts: dict[int, dict[MatchStatus, int]] = {}
    for chunk in _chunks(list(tournament_ids)):
        for tournament_id, status, count in s.execute(
            select(Match.tournament_id, Match.status, func.count())
            .where(col(Match.tournament_id).in_(chunk))
            .group_by(col(Match.tournament_id), col(Match.status))
        ).all():
            counts.setdefault(int(tournament_id), {})[MatchStatus(status)] = int(count)
    return counts


__all__ = [
    "BUSY_TIMEOUT_S", "AuthorInfo", "BotInfo", "Fault", "FaultInfo", "HeadToHead", "HistoryPoint",
    "HistorySample", "LeaderboardRow", "MatchInfo",
    "MatchResult", "MatchStatus", "MatchToRun", "NotAllowedError", "NotFoundError", "ScheduledMatch",
    "SeatInfo",
    "Store", "StoreError", "TournamentInfo", "TournamentStatus",
]
