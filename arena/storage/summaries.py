"""The summary rows kept with the ratings: head-to-head counts per rating pool, and each
tournament's standings and crosstable (:mod:`arena.storage.tables`).

They move with the ratings: what the rated matches add is gathered in memory by
:class:`arena.rating.tallies.Tallies` (the one place a pair is tallied) and written by
:meth:`Summaries.save` in one statement per table, counts added to the stored ones (an
upsert), a standing's line replaced by its new one. A rebuild empties them and gathers
every rated match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as postgresql_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlmodel import Session

from arena.rating.figures import MatchReading
from arena.rating.standings import Seat as PlayedSeat
from arena.rating.standings import StandingLine
from arena.rating.tallies import Tallies
from arena.storage.rows import chunks
from arena.storage.tables import HeadToHeadTally, TournamentPair, TournamentStanding, metadata

HEAD_TO_HEAD: sa.Table = metadata.tables[HeadToHeadTally.__tablename__]
STANDING: sa.Table = metadata.tables[TournamentStanding.__tablename__]
PAIR: sa.Table = metadata.tables[TournamentPair.__tablename__]
TABLES = (HEAD_TO_HEAD, STANDING, PAIR)
_STANDING_UPDATE = sa.update(STANDING).where(STANDING.c.tournament_id == sa.bindparam("t_id"),
                                             STANDING.c.bot_id == sa.bindparam("b_id"))
_STANDING_INSERT = sa.insert(STANDING)


def standing_lines(s: Session | sa.Connection,
                   where: sa.ColumnElement[bool]) -> dict[int, StandingLine]:
    """The stored standing lines ``where`` says, by bot id."""
    return {int(bot_id): StandingLine(mu, sigma, matches, wins, rank_sum, dict(faults))
            for bot_id, mu, sigma, matches, wins, rank_sum, faults in s.execute(
                sa.select(STANDING.c.bot_id, STANDING.c.mu, STANDING.c.sigma,
                          STANDING.c.matches, STANDING.c.wins, STANDING.c.rank_sum,
                          STANDING.c.faults).where(where))}


def stored_pairs(s: Session, tournament_id: int) -> dict[tuple[int, int], list[int]]:
    """A tournament's stored crosstable counts: (a, b) -> ``[wins, losses, ties]`` of a."""
    return {(int(a), int(b)): [int(w), int(lo), int(ti)]
            for a, b, w, lo, ti in s.execute(
                sa.select(PAIR.c.bot_id, PAIR.c.opponent_id, PAIR.c.wins, PAIR.c.losses,
                          PAIR.c.ties)
                .where(PAIR.c.tournament_id == tournament_id))}


class Summaries:
    """What some rated matches add to the summary tables (their :class:`Tallies`), and which
    bots of each tournament had a stored standing line (to update it rather than insert)."""

    __slots__ = ("stored", "tallies")

    def __init__(self) -> None:
        self.tallies = Tallies()
        self.stored: dict[int, set[int]] = {}  # per tournament: the bots with a stored line

    def load_tournament(self, conn: sa.Connection, tournament_id: int, bot_ids: set[int]) -> None:
        """Start the tournament's tally from its stored lines of these bots."""
        lines: dict[int, StandingLine] = {}
        for chunk in chunks(sorted(bot_ids)):
            lines.update(standing_lines(conn, sa.and_(STANDING.c.tournament_id == tournament_id,
                                                      STANDING.c.bot_id.in_(chunk))))
        self.tallies.start(tournament_id, lines)
        self.stored[tournament_id] = set(lines)

    def add(self, pool: str | None, tournament_id: int | None, match_id: int,
            seats: Sequence[PlayedSeat]) -> MatchReading:
        """One rated match (in rating order), counted as :mod:`arena.rating.figures` says; a
        rank below 1 is a ValueError."""
        return self.tallies.add(pool, tournament_id, match_id, seats)

    def save(self, conn: sa.Connection) -> None:
        """Add the counts to the stored ones and write every standing line that moved."""
        tallies = self.tallies
        _add_counts(conn, HEAD_TO_HEAD, ("bot_id", "pool", "opponent_id"), [
            {"bot_id": a, "pool": pool, "opponent_id": b, "wins": w, "losses": lo, "ties": ti,
             "rank_sum": ranks}
            for (a, pool, b), (w, lo, ti, ranks) in sorted(tallies.head_to_head.items())])
        _add_counts(conn, PAIR, ("tournament_id", "bot_id", "opponent_id"), [
            {"tournament_id": t, "bot_id": a, "opponent_id": b, "wins": w, "losses": lo, "ties": ti}
            for t, tally in sorted(tallies.tournaments.items())
            for (a, b), (w, lo, ti) in sorted(tally.pairs.items())])
        updates: list[dict[str, Any]] = []
        inserts: list[dict[str, Any]] = []
        for tournament_id, tally in sorted(tallies.tournaments.items()):
            book = tally.book
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
            tally.pairs.clear()
        if updates:
            conn.execute(_STANDING_UPDATE, updates)
        if inserts:
            conn.execute(_STANDING_INSERT, inserts)
        tallies.head_to_head.clear()


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


__all__ = ["HEAD_TO_HEAD", "PAIR", "STANDING", "TABLES", "Summaries", "standing_lines",
           "stored_pairs"]
