"""The arena's tables (SQLModel) and the values their constrained columns take.

These are the tables at the newest migration (``migrations/versions``): a
change here needs a migration that makes the database agree (the tests compare
the migrated schema with these tables). Table objects stay inside the storage
package; the store's API returns frozen dataclasses.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from arena.match.faults import Fault


class TournamentStatus(StrEnum):
    RUNNING = "running"
    FINISHED = "finished"
    INTERRUPTED = "interrupted"
    QUEUED = "queued"  # created through the operator service, waiting for the server's scheduler
    CANCELLED = "cancelled"  # stopped by an operator: its unfinished matches are void
    VOIDED = "voided"  # taken out of the ratings by an operator: every match of it is void

    @property
    def ended(self) -> bool:
        """Nothing is left to play: finished, cancelled or voided (it has a finish time)."""
        return self in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED,
                        TournamentStatus.VOIDED)

    @property
    def closed(self) -> bool:
        """Never to be played again: cancelled or voided (a finished one may be resumed,
        finding nothing left to play)."""
        return self in (TournamentStatus.CANCELLED, TournamentStatus.VOIDED)


class MatchStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    FINISHED = "finished"
    VOID = "void"


def _values(enum: type[StrEnum]) -> list[str]:
    return [member.value for member in enum]


CHOICE_LENGTH = 32
"""Width of the constrained string columns (room for a new value without widening)."""


def choice(enum: type[StrEnum], name: str) -> sa.Enum:
    """A column type holding one of ``enum``'s values: a plain string with a CHECK
    constraint named ``name`` on every database (no native enum type), given and
    returned as the enum's members; a string that is not a value is refused before
    it reaches the database."""
    return sa.Enum(
        enum, name=name, native_enum=False, create_constraint=True, validate_strings=True,
        values_callable=_values, length=CHOICE_LENGTH,
    )


def json_dumps(value: Any) -> str:
    """How JSON columns are written: keys sorted, so equal values give equal text."""
    return json.dumps(value, sort_keys=True)


def now() -> datetime:
    return datetime.now(UTC)


def utc(value: datetime | None) -> datetime | None:
    """SQLite gives naive datetimes back: they were written in UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


def _when(**kwargs: Any) -> Any:
    return Field(sa_column=sa.Column(sa.DateTime(timezone=True), **kwargs))


def _json(default: Any) -> Any:
    return Field(default_factory=default, sa_column=sa.Column(sa.JSON, nullable=False))


class BotArchive(SQLModel, table=True):
    """The canonical archive of a submitted version's code (``arena.players.submissions``)."""

    __tablename__ = "bot_archive"

    sha256: str = Field(primary_key=True)  # of ``data``, hex
    data: bytes = Field(sa_column=sa.Column(sa.LargeBinary, nullable=False))
    files: int
    size: int  # bytes of its files
    created_at: datetime = _when(nullable=False)


class Author(SQLModel, table=True):
    """Someone who submits bots to an arena served with ``arena serve``: a name, and the
    SHA-256 of a secret token (the token is shown once and kept nowhere)."""

    __tablename__ = "author"
    __table_args__ = (sa.UniqueConstraint("name", name="uq_author_name"),
                      sa.UniqueConstraint("token_hash", name="uq_author_token_hash"))

    id: int | None = Field(default=None, primary_key=True)
    name: str
    token_hash: str
    created_at: datetime = _when(nullable=False)


class Bot(SQLModel, table=True):
    __tablename__ = "bot"
    __table_args__ = (sa.UniqueConstraint("name", "version", name="uq_bot_name_version"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True)
    version: str = "1"
    command: str = ""
    folder: str | None = None  # a managed bot's working directory (absolute)
    token_hash: str | None = None
    removed: bool = False
    created_at: datetime = _when(nullable=False)
    # a submitted version: the archive of its code, and the games it says it plays
    content_hash: str | None = Field(default=None, sa_column=sa.Column(
        sa.String, sa.ForeignKey("bot_archive.sha256", name="fk_bot_content_hash"),
        nullable=True, index=True))
    games: list[str] | None = Field(default=None, sa_column=sa.Column(sa.JSON, nullable=True))
    # the author whose bot it is (None: the operator's); a name belongs to its first author
    author_id: int | None = Field(default=None, sa_column=sa.Column(
        sa.Integer, sa.ForeignKey("author.id", name="fk_bot_author_id"), nullable=True,
        index=True))
    # the games a submitted version's validation played before it was accepted (None: it was
    # accepted without one)
    validated: list[str] | None = Field(default=None, sa_column=sa.Column(sa.JSON, nullable=True))


class Tournament(SQLModel, table=True):
    __tablename__ = "tournament"

    id: int | None = Field(default=None, primary_key=True)
    game: str
    players: int
    options: dict[str, Any] = _json(dict)
    seed: str  # text: seeds go up to 2**63, one past SQLite's largest integer
    repetitions: int = 1
    settings: dict[str, Any] = _json(dict)
    bot_ids: list[int] = _json(list)
    deal_key: str | None = None  # the secret its deals come from (never shown to anyone)
    status: TournamentStatus = Field(
        default=TournamentStatus.RUNNING,
        sa_column=sa.Column(choice(TournamentStatus, "ck_tournament_status"), nullable=False),
    )
    created_at: datetime = _when(nullable=False)
    finished_at: datetime | None = _when(nullable=True)


class Match(SQLModel, table=True):
    __tablename__ = "match"
    __table_args__ = (
        sa.UniqueConstraint("tournament_id", "index", name="uq_match_tournament_index"),
        sa.Index("ix_match_tournament_status", "tournament_id", "status"),
        # a deal's matches (its seat rotations): same tournament, same seed
        sa.Index("ix_match_tournament_seed", "tournament_id", "seed"),
    )

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int | None = Field(default=None, foreign_key="tournament.id")
    index: int = 0
    game: str
    options: dict[str, Any] = _json(dict)
    seed: str
    lane: int = Field(default=0, sa_column_kwargs={"server_default": "0"})  # the bot process
    status: MatchStatus = Field(
        default=MatchStatus.PENDING,
        sa_column=sa.Column(choice(MatchStatus, "ck_match_status"), nullable=False),
    )
    created_at: datetime = _when(nullable=False)
    started_at: datetime | None = _when(nullable=True)
    finished_at: datetime | None = _when(nullable=True)
    duration_s: float | None = None
    finish_seq: int | None = Field(default=None, unique=True)
    log: bytes | None = Field(default=None, sa_column=sa.Column(sa.LargeBinary, nullable=True))
    # a running match's log so far (MatchLog, all seats: the web shows only its public
    # view while the match runs); cleared when it finishes
    live_log: bytes | None = Field(default=None, sa_column=sa.Column(sa.LargeBinary, nullable=True))
    # where it was played, when an executor played it elsewhere: the node and where its logs
    # are, one line of text (None: the machine that ran the tournament)
    node: str | None = None
    # the seat that took the first decision (None: none was taken, or finished before 0015)
    first_to_act: int | None = None
    # started *sealed*: every seat a bot the arena ran in its sandbox (managed or submitted,
    # the sandbox on: no network, so nothing a spectator sees reaches it). Set at each start;
    # once a match of a deal started sealed, the deal is played sealed to its end (the store
    # refuses an unsealed start): arena.app.visibility shows such a deal's hands live
    sealed: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})


FAULTED = sa.text("fault != ''")
"""The seats that faulted: the condition of the partial index ``ix_seat_bot_fault``; a query
that means to use that index says it in these very words (a bound value would not match)."""


class Seat(SQLModel, table=True):
    __tablename__ = "seat"
    __table_args__ = (
        # a bot's seats in match order (its latest matches, its head-to-head results)
        sa.Index("ix_seat_bot_match", "bot_id", "match_id"),
        # only the seats that faulted: a bot's faults without reading its other seats
        sa.Index("ix_seat_bot_fault", "bot_id", "match_id", "fault", sqlite_where=FAULTED,
                 postgresql_where=FAULTED),
    )

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    seat: int = Field(primary_key=True)
    bot_id: int = Field(foreign_key="bot.id")
    score: float | None = None
    rank: int | None = None
    fault: Fault = Field(
        default=Fault.NONE, sa_column=sa.Column(choice(Fault, "ck_seat_fault"), nullable=False)
    )
    peer: str | None = None  # the connection a remote bot played the seat over
    reason: str | None = None  # why it faulted, as the referee logged it (None: no fault)


class SeatSituation(SQLModel, table=True):
    """A seat's hands of one finished match in one of its game's own conditions
    (:class:`arena.games.base.Situation`, summed per match): how many, and the sum and sum of
    squares of their points (a bot's page gives the mean and its interval)."""

    __tablename__ = "situation"

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    seat: int = Field(primary_key=True)
    kind: str = Field(primary_key=True)
    value: str = Field(primary_key=True)
    hands: int
    points: float
    points_squared: float


class Rating(SQLModel, table=True):
    __tablename__ = "rating"
    __table_args__ = (sa.UniqueConstraint("bot_id", "game", name="uq_rating_bot_game"),)

    id: int | None = Field(default=None, primary_key=True)
    bot_id: int = Field(foreign_key="bot.id")
    game: str = Field(index=True)
    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0
    faults: int = 0


class RatingHistory(SQLModel, table=True):
    __tablename__ = "rating_history"
    __table_args__ = (sa.Index("ix_rating_history_bot_game", "bot_id", "game", "finish_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    bot_id: int = Field(foreign_key="bot.id")
    game: str
    match_id: int = Field(foreign_key="match.id")
    mu: float
    sigma: float
    finish_seq: int


class WinGraph(SQLModel, table=True):
    """A finished match's win-probability graph (:mod:`arena.app.graphs`): each seat's chance
    to finish first after each decision, estimated from the full deal once the deal was over.
    ``series``: ``{"evaluated": [step, ...], "chances": [[chance per seat], ...]}``, the steps
    computed (the steps between lie on the straight line); ``steps``: the match's decisions
    and its start; ``rollouts``: per step computed; ``cpu_s``: the CPU seconds it took;
    ``error``: why there is no graph (a log that does not replay), the series then empty."""

    __tablename__ = "win_graph"

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    steps: int
    rollouts: int
    series: dict[str, Any] = _json(dict)
    cpu_s: float
    error: str | None = None
    created_at: datetime = _when(nullable=False)


# ---------------------------------------------------------------- summaries
#
# Kept up to date in the transaction that rates a match (``arena.storage.ratings.rate_ready``),
# rebuilt by ``Store.rebuild_ratings``, so that a page reads a bot's or a tournament's numbers
# from a few rows instead of counting over every match. Each holds only what the rated matches
# say.


class HeadToHeadTally(SQLModel, table=True):
    """A bot against one opponent over the rated matches of a rating pool in which both took a
    seat (a bot in two seats counts its better one): how often it placed above (``wins``),
    below (``losses``) and level with (``ties``) the opponent, and the sum of its ranks in
    those matches (``rank_sum``). Both directions are kept: (a, b) and (b, a)."""

    __tablename__ = "head_to_head"

    bot_id: int = Field(foreign_key="bot.id", primary_key=True)
    pool: str = Field(primary_key=True)
    opponent_id: int = Field(foreign_key="bot.id", primary_key=True)
    wins: int = 0
    losses: int = 0
    ties: int = 0
    rank_sum: int = 0


class TournamentStanding(SQLModel, table=True):
    """A bot's standing in one tournament, its rated matches rated alone (in schedule order,
    from the default rating): ``mu``, ``sigma`` (the defaults until it met another bot), its
    seats (``matches``: a bot seated twice in a match counts both), the seats it placed first
    in (``wins``), the sum of their ranks (``rank_sum``) and its faults by name."""

    __tablename__ = "tournament_standing"

    tournament_id: int = Field(foreign_key="tournament.id", primary_key=True)
    bot_id: int = Field(foreign_key="bot.id", primary_key=True)
    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0
    rank_sum: int = 0
    faults: dict[str, int] = _json(dict)


class TournamentPair(SQLModel, table=True):
    """A tournament's crosstable cell: a bot against another over the tournament's rated
    matches both took a seat in (its better seat if it had two): ``wins`` (placed above),
    ``losses`` (below), ``ties``."""

    __tablename__ = "tournament_pair"

    tournament_id: int = Field(foreign_key="tournament.id", primary_key=True)
    bot_id: int = Field(foreign_key="bot.id", primary_key=True)
    opponent_id: int = Field(foreign_key="bot.id", primary_key=True)
    wins: int = 0
    losses: int = 0
    ties: int = 0


SUMMARY_TABLES: tuple[str, ...] = ("head_to_head", "tournament_standing", "tournament_pair")
"""The tables that only summarize the rated matches (rebuilt with the ratings)."""

TABLES: tuple[sa.Table, ...] = tuple(
    SQLModel.metadata.tables[name]
    for name in ("bot_archive", "author", "bot", "tournament", "match", "seat", "situation",
                 "rating", "rating_history", "win_graph", *SUMMARY_TABLES)
)
"""The arena's tables, parents before children."""

TABLE_NAMES = frozenset(table.name for table in TABLES)

metadata = SQLModel.metadata
"""The metadata the tables are declared on (shared with any other SQLModel table in the process)."""


__all__ = [
    "CHOICE_LENGTH", "FAULTED", "SUMMARY_TABLES", "TABLES", "TABLE_NAMES", "Author", "Bot", "Fault",
    "HeadToHeadTally", "Match", "MatchStatus", "Rating", "RatingHistory", "Seat", "SeatSituation",
    "Tournament", "TournamentPair", "TournamentStanding", "TournamentStatus", "WinGraph",
    "choice", "json_dumps", "metadata", "now", "utc",
]
