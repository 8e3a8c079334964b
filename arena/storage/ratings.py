"""The ratings as the store keeps them: the leaderboard and each bot's history, moved as
matches are rated, and rebuilt from the finished matches.

Ratings move in schedule order within a tournament (:mod:`arena.rating.order` decides which
finished matches may be rated now); ``finish_seq`` numbers the matches in the order they
were rated. The ratings themselves are :class:`arena.rating.RatingBook`'s (pure, in
memory): the lines a match needs are loaded, the book applies the matches in ``finish_seq``
order, and what it moved is written back with SQLAlchemy Core statements run as
executemany over plain dicts on the caller's connection (inside its transaction), no ORM
object per row, which matters when a rebuild writes a history row per bot and match. The
summary rows (:mod:`arena.storage.summaries`) move in the same transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, delete, func, select

from arena import rating
from arena.games import pool_of
from arena.rating.order import Unrated, numbered, ready_to_rate
from arena.rating.standings import Seat as PlayedSeat
from arena.storage.engine import Database
from arena.storage.errors import StoreError
from arena.storage.records import HistoryPoint, LeaderboardRow
from arena.storage.rows import FAULT_TEXT, TO_PLAY, chunks, leaderboard_row
from arena.storage.summaries import TABLES, Summaries
from arena.storage.tables import (
    Bot,
    Match,
    MatchStatus,
    Rating,
    RatingHistory,
    Seat,
    Tournament,
)

HISTORY_CHUNK = 10_000
"""History rows written per bulk insert."""


class Ratings(Database):
    """The store's ratings."""

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
            rows = [leaderboard_row(r, b) for r, b in s.exec(query).all()]
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
        crosstables: :mod:`arena.storage.tables`); how many matches were replayed. One
        transaction: a failure leaves the old ratings (see :func:`rebuild`)."""
        with self._writing("rebuild ratings") as s:
            return rebuild(s)


def rate_ready(s: Session, changed: Match) -> None:
    """Rate, in schedule order, every finished match whose turn has come now that
    ``changed`` finished or was voided (:func:`arena.rating.order.ready_to_rate`): outside a
    tournament just ``changed`` (if finished), in a tournament every finished, unrated match
    scheduled before the first one still pending or running. Each gets the next
    ``finish_seq``. The summaries move with the ratings: the head-to-head counts, and the
    tournament's standings and crosstable."""
    if changed.tournament_id is None:
        assert changed.id is not None
        finished = changed.status is MatchStatus.FINISHED and changed.finish_seq is None
        ready = ready_to_rate([Unrated(changed.id, changed.index)] if finished else [], None)
    else:
        first_to_play = s.execute(select(func.min(Match.index)).where(
            Match.tournament_id == changed.tournament_id, col(Match.status).in_(TO_PLAY),
        )).scalar()
        unrated = [Unrated(int(match_id), int(index)) for match_id, index in s.execute(
            sa.select(col(Match.id), col(Match.index)).where(
                col(Match.tournament_id) == changed.tournament_id,
                col(Match.status) == MatchStatus.FINISHED, col(Match.finish_seq).is_(None)))]
        ready = ready_to_rate(unrated, None if first_to_play is None else int(first_to_play))
    if not ready:
        return
    seats: dict[int, list[PlayedSeat]] = {}
    for chunk in chunks(ready):
        for match_id, bot_id, rank, fault in s.execute(
            sa.select(col(Seat.match_id), col(Seat.bot_id), col(Seat.rank), FAULT_TEXT)
            .where(col(Seat.match_id).in_(chunk))
            .order_by(col(Seat.match_id), col(Seat.seat))
        ):
            seats.setdefault(match_id, []).append(PlayedSeat(bot_id, int(rank or 0), fault or ""))
    conn = s.connection()
    # a tournament's matches share their options; a scrimmage's are rated in no pool
    scrimmage = changed.tournament_id is not None and changed.tournament_id in _scrimmages(
        conn, changed.tournament_id)
    pool = None if scrimmage else pool_of(changed.game, changed.options)
    bots = {p.bot_id for row in seats.values() for p in row}
    book, row_ids = _load_ratings(conn, pool, bots)
    summaries = Summaries()
    if changed.tournament_id is not None:
        summaries.load_tournament(conn, changed.tournament_id, bots)
    order = numbered(ready, s.execute(select(func.max(Match.finish_seq))).scalar())
    for match_id, finish_seq in order:
        _rate(book, summaries, pool, changed.tournament_id, match_id, finish_seq,
              seats.get(match_id, []))
    s.execute(sa.update(Match), [{"id": match_id, "finish_seq": finish_seq}  # by primary key
                                 for match_id, finish_seq in order])
    _save_ratings(conn, book, row_ids)
    summaries.save(conn)


def rebuild(s: Session) -> int:
    """Recompute every rating, its history and the summaries from the finished matches, in
    finish order, inside ``s``'s transaction; how many matches were replayed.

    Gives the very numbers the incremental updates gave. Seats are streamed in finish order
    (one query) and history rows written in bulk as the replay goes, so memory stays flat
    however many matches there are (the summaries hold a few rows per bot, pool and
    tournament)."""
    conn = s.connection()
    conn.execute(delete(RatingHistory))
    conn.execute(delete(Rating))
    for table in TABLES:
        conn.execute(sa.delete(table))
    rows = conn.execute(
        sa.select(
            col(Match.id), col(Match.game), col(Match.finish_seq), col(Match.tournament_id),
            col(Seat.bot_id), col(Seat.rank), FAULT_TEXT,
        )
        .select_from(Match)
        .outerjoin(Seat, col(Seat.match_id) == col(Match.id))
        .where(col(Match.status) == MatchStatus.FINISHED,
               col(Match.finish_seq).is_not(None))
        .order_by(col(Match.finish_seq), col(Match.id), col(Seat.seat))
    )
    scrimmages = _scrimmages(conn)
    pools = {  # each match's rating pool, from its game and options (None: a scrimmage's)
        row_id: None if row_tournament in scrimmages else pool_of(row_game, row_options or {})
        for row_id, row_game, row_options, row_tournament in conn.execute(
            sa.select(col(Match.id), col(Match.game), col(Match.options),
                      col(Match.tournament_id))
            .where(col(Match.status) == MatchStatus.FINISHED,
                   col(Match.finish_seq).is_not(None)))
    }
    book = rating.RatingBook()
    summaries = Summaries()
    replayed = 0
    match_id: int | None = None
    tournament_id: int | None = None
    pool: str | None = None
    finish_seq = 0
    placed: list[PlayedSeat] = []
    for row_match, row_game, row_seq, row_tournament, bot_id, rank, fault in rows:
        if row_match != match_id:
            if match_id is not None:
                _replay(book, summaries, pool, tournament_id, match_id, finish_seq, placed)
                replayed += 1
                if len(book.history) >= HISTORY_CHUNK:
                    _write_history(conn, book.take_history())
            match_id, pool, finish_seq, placed = (row_match, pools.get(row_match, row_game),
                                                  int(row_seq or 0), [])
            tournament_id = row_tournament
        if bot_id is not None:  # a finished match without seats rates nothing
            placed.append(PlayedSeat(bot_id, int(rank or 0), fault or ""))
    if match_id is not None:
        _replay(book, summaries, pool, tournament_id, match_id, finish_seq, placed)
        replayed += 1
    _save_ratings(conn, book, {})
    summaries.save(conn)
    return replayed


def _rate(book: rating.RatingBook, summaries: Summaries, pool: str | None,
          tournament_id: int | None, match_id: int, finish_seq: int,
          seats: Sequence[PlayedSeat]) -> None:
    """One finished match, in rating order: the ratings of its pool (``None``: a scrimmage's,
    in no pool) and the summaries (a scrimmage's: its tournament's standings only). A rank
    below 1 is a ValueError."""
    if pool is not None:
        book.apply(pool, match_id, finish_seq,
                   [rating.Placed(p.bot_id, p.rank, p.fault != "") for p in seats])
    summaries.add(pool, tournament_id, match_id, seats)


def _replay(book: rating.RatingBook, summaries: Summaries, pool: str | None,
            tournament_id: int | None, match_id: int, finish_seq: int,
            seats: Sequence[PlayedSeat]) -> None:
    """:func:`_rate` for the rebuild: a stored rank no rating can take is a StoreError."""
    try:
        _rate(book, summaries, pool, tournament_id, match_id, finish_seq, seats)
    except ValueError as error:
        raise StoreError(f"cannot rebuild ratings: stored match {match_id}: {error}") from None


def _scrimmages(conn: sa.Connection, tournament_id: int | None = None) -> set[int]:
    """The tournaments that are scrimmages (their settings name who asked for one): rated in
    their own standings, never in a pool. Only ``tournament_id`` is looked at, when given."""
    query = sa.select(col(Tournament.id), col(Tournament.settings))
    if tournament_id is not None:
        query = query.where(col(Tournament.id) == tournament_id)
    return {int(tid) for tid, settings in conn.execute(query)
            if isinstance(settings, dict) and settings.get("scrimmage_of") is not None}


def _load_ratings(
    conn: sa.Connection, game: str | None, bot_ids: set[int]
) -> tuple[rating.RatingBook, dict[rating.Key, int]]:
    """A book holding the stored lines of these bots in this pool (None: none, an empty
    book), and their rows' ids."""
    if game is None:
        return rating.RatingBook(), {}
    lines: dict[rating.Key, rating.RatingLine] = {}
    row_ids: dict[rating.Key, int] = {}
    for chunk in chunks(sorted(bot_ids)):
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


__all__ = ["HISTORY_CHUNK", "Ratings", "rate_ready", "rebuild"]
