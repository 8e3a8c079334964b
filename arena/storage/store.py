"""Storage: bots, tournaments, matches, seats, ratings — SQLModel on SQLite or PostgreSQL.

:class:`Store` is the one door to the database: ``Store(url)`` opens it (a SQLAlchemy URL or
a plain path to a SQLite file), bringing it to this arena's schema with Alembic
(:mod:`arena.storage.schema`; a database already there is only read). It is made of one
part per aggregate, each a module of this package:

* :mod:`~arena.storage.engine`: the URL, the engines, sessions and transactions, errors;
* :mod:`~arena.storage.bots`: bots and authors (who owns a name: :mod:`~arena.storage.names`);
* :mod:`~arena.storage.tournaments` and :mod:`~arena.storage.matches`: schedules, claiming,
  finishing, voiding, live logs;
* :mod:`~arena.storage.ratings`: the leaderboard, rating history, moving the ratings in
  schedule order (:mod:`arena.rating.order`) and rebuilding them, with the summary rows
  (:mod:`~arena.storage.summaries`);
* :mod:`~arena.storage.pages`: the web's read model;
* :mod:`~arena.storage.datasets`: finished matches whose deals are over, read for export;
* :mod:`~arena.storage.travellers`: a deal's matches (its seat rotations), for its traveller;
* :mod:`~arena.storage.graphs`: finished matches' win-probability graphs, and the rated
  matches in rating order for the worker that computes them.

What they return are :mod:`~arena.storage.records` (frozen dataclasses; table objects,
:mod:`arena.storage.tables`, never leave the storage package), all importable from here.

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

Statuses and faults are :class:`TournamentStatus`, :class:`MatchStatus` and
:class:`~arena.match.faults.Fault`: ``StrEnum`` members, so they equal their
plain strings. Every method takes either and always returns the members; the
database keeps the values in constrained columns (a CHECK constraint).

Every failure of the database (bad URL, unreachable server, not a database
file, read-only or full disk, a schema it cannot upgrade) surfaces as a
:class:`StoreError` with a one-line message.
"""

from __future__ import annotations

from arena.match.faults import Fault
from arena.storage.bots import Bots
from arena.storage.datasets import Datasets, DealtMatch, MatchFilter
from arena.storage.engine import BUSY_TIMEOUT_S, keeps_nothing
from arena.storage.errors import DatabaseGone, NotAllowedError, NotFoundError, StoreError
from arena.storage.graphs import Graphs, RatedMatch, StoredGraph
from arena.storage.matches import Matches
from arena.storage.names import BOT_NAME, check_bot_name
from arena.storage.pages import Pages
from arena.storage.ratings import Ratings
from arena.storage.records import (
    AuthorInfo,
    BotInfo,
    FaultInfo,
    HeadToHead,
    HistoryPoint,
    HistorySample,
    LeaderboardRow,
    MatchInfo,
    MatchResult,
    MatchToRun,
    ScheduledMatch,
    SeatInfo,
    SubmittedCode,
    TournamentInfo,
)
from arena.storage.tables import Match as Match  # re-exported: a benchmark fills it in bulk
from arena.storage.tables import MatchStatus, TournamentStatus
from arena.storage.tables import Seat as Seat  # re-exported: a benchmark fills it in bulk
from arena.storage.tournaments import Tournaments
from arena.storage.travellers import DealPlay, Travellers


class Store(Bots, Tournaments, Matches, Ratings, Pages, Datasets, Travellers, Graphs):
    """The arena's database. ``url`` is a SQLAlchemy URL or a plain path to a SQLite file."""


__all__ = [
    "BOT_NAME",
    "BUSY_TIMEOUT_S",
    "AuthorInfo",
    "BotInfo",
    "DatabaseGone",
    "DealPlay",
    "DealtMatch",
    "Fault",
    "FaultInfo",
    "HeadToHead",
    "HistoryPoint",
    "HistorySample",
    "LeaderboardRow",
    "Match",
    "MatchFilter",
    "MatchInfo",
    "MatchResult",
    "MatchStatus",
    "MatchToRun",
    "NotAllowedError",
    "NotFoundError",
    "RatedMatch",
    "ScheduledMatch",
    "Seat",
    "SeatInfo",
    "Store",
    "StoreError",
    "StoredGraph",
    "SubmittedCode",
    "TournamentInfo",
    "TournamentStatus",
    "check_bot_name",
    "keeps_nothing",
]
