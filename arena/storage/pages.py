"""The web's read model: the read-only queries of the web app's pages (:mod:`leaderboard.web`).

Each is answered from an index (tests/web explain every query a page makes), so that a page
costs about the same with a million matches as with ten; lists come a page at a time (a
limit and a cursor). No query here loads a match log: the log column (and the columns stored
after it) are never selected, so a match row is read without the log's overflow pages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlmodel import col, func, select

from arena.match.faults import Fault
from arena.rating.conditions import HandsTally, SeatTally
from arena.rating.standings import Played, Standing
from arena.rating.stats import Comparison
from arena.rating.tallies import TournamentTally
from arena.storage.engine import Database
from arena.storage.errors import NotFoundError
from arena.storage.records import (
    BotInfo,
    FaultInfo,
    HeadToHead,
    HistoryPoint,
    HistorySample,
    LeaderboardRow,
    MatchInfo,
    TournamentInfo,
)
from arena.storage.rows import (
    FAULT_TEXT,
    TO_PLAY,
    bot_info,
    chunks,
    deal_in_play,
    leaderboard_row,
    lean_matches,
    match_counts,
    played,
    tournament_infos,
)
from arena.storage.summaries import HEAD_TO_HEAD, STANDING, standing_lines, stored_pairs
from arena.storage.tables import (
    FAULTED,
    Bot,
    Match,
    MatchStatus,
    Rating,
    RatingHistory,
    Seat,
    SeatSituation,
    Tournament,
    TournamentStatus,
    utc,
)


class Pages(Database):
    """The store's queries for the web's pages."""

    def bot_versions(self, name: str) -> list[BotInfo]:
        """Every version of the bot called ``name``, removed ones too, oldest first; a
        :class:`NotFoundError` when there is none."""
        with self._reading("read a bot") as s:
            found = [bot_info(b) for b in s.exec(
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
            return [bot_info(b) for b in s.exec(
                select(Bot).where(col(Bot.name).in_(list(names)))
                .order_by(col(Bot.name), col(Bot.id)))]

    def bots_by_id(self, bot_ids: Iterable[int]) -> list[BotInfo]:
        """These bots (removed ones too; unknown ids left out), by id."""
        wanted = sorted(set(bot_ids))
        found: list[BotInfo] = []
        with self._reading("read bots") as s:
            for chunk in chunks(wanted):
                found += [bot_info(b) for b in s.exec(
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
            return tournament_infos(s, rows, self._runs.held)

    def running_tournaments(self) -> list[TournamentInfo]:
        """The tournaments running now, newest first (not those whose run died: they read as
        interrupted)."""
        with self._reading("list tournaments") as s:
            rows = s.exec(select(Tournament).where(col(Tournament.status) == TournamentStatus.RUNNING)
                          .order_by(col(Tournament.id).desc())).all()
            infos = tournament_infos(s, rows, self._runs.held)
        return [t for t in infos if t.status is TournamentStatus.RUNNING]

    def running_matches(self, tournament_ids: Sequence[int], limit: int) -> list[MatchInfo]:
        """The matches being played in these tournaments, oldest first, at most ``limit``
        (logs not loaded; each tournament's through its status index)."""
        with self._reading("list running matches") as s:
            ids: list[int] = []
            for chunk in chunks(list(tournament_ids)):
                ids += [int(i) for i in s.execute(
                    sa.select(col(Match.id)).where(col(Match.tournament_id).in_(chunk),
                                                   col(Match.status) == MatchStatus.RUNNING)
                ).scalars()]
            return lean_matches(s, sorted(ids)[:limit])

    def match_counts(self, tournament_ids: Sequence[int]) -> dict[int, dict[MatchStatus, int]]:
        """:meth:`tournament_match_counts` for these tournaments only (one indexed query)."""
        with self._reading("count matches") as s:
            return match_counts(s, tournament_ids)

    def recent_matches(self, limit: int) -> list[MatchInfo]:
        """The latest rated matches, the last rated first (logs not loaded)."""
        with self._reading("list matches") as s:
            ids = [int(i) for i in s.execute(
                sa.select(col(Match.id)).where(col(Match.finish_seq).is_not(None))
                .order_by(col(Match.finish_seq).desc()).limit(limit)).scalars()]
            return lean_matches(s, ids)

    def tournament_match_page(self, tournament_id: int, first_index: int,
                              limit: int) -> list[MatchInfo]:
        """A tournament's matches in schedule order from its ``first_index``-th, at most
        ``limit`` (logs not loaded)."""
        with self._reading("list a tournament's matches") as s:
            ids = [int(i) for i in s.execute(
                sa.select(col(Match.id))
                .where(col(Match.tournament_id) == tournament_id, col(Match.index) >= first_index)
                .order_by(col(Match.index)).limit(limit)).scalars()]
            return lean_matches(s, ids, by_index=True)

    def tournament_played(self, tournament_id: int) -> list[Played]:
        """A tournament's finished matches as its standings read them (schedule order), in
        one query of their seats; nothing but ids, ranks and faults is loaded."""
        with self._reading("read a tournament's results") as s:
            return played(s, sa.and_(col(Match.tournament_id) == tournament_id,
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
            return lean_matches(s, ids)

    def bot_faults(self, bot_id: int, before: int | None, limit: int) -> list[FaultInfo]:
        """The seats in which a bot version faulted, newest first, in matches with an id below
        ``before`` (all: None), at most ``limit``."""
        with self._reading("list a bot's faults") as s:
            query = (sa.select(col(Seat.match_id), col(Seat.seat), FAULT_TEXT, col(Match.game),
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
                sa.select(FAULT_TEXT, func.count()).where(col(Seat.bot_id) == bot_id, FAULTED)
                .group_by(FAULT_TEXT))}

    def bot_conditions(self, bot_id: int, limit: int) -> tuple[list[SeatTally], list[HandsTally]]:
        """A bot version's ``limit`` latest seats in finished matches whose deal is over (the
        secrecy rule's: no rotation of it still to play), summed by game, table size, seat and
        whether it acted first; and its hands in those seats per condition of their game
        (:class:`~arena.storage.tables.SeatSituation`), summed. Two grouped queries over the
        bot's latest seats (an index range), whatever the number of matches."""
        table = sa.orm.aliased(Seat)
        players = (sa.select(func.count()).where(col(table.match_id) == col(Match.id))
                   .scalar_subquery())
        recent = (sa.select(col(Seat.match_id), col(Seat.seat), col(Match.game),
                            players.label("players"), col(Match.first_to_act),
                            col(Seat.rank), (FAULT_TEXT != "").label("faulted"))
                  .select_from(Seat).join(Match, col(Match.id) == col(Seat.match_id))
                  .where(col(Seat.bot_id) == bot_id, col(Match.status) == MatchStatus.FINISHED,
                         sa.not_(deal_in_play()))
                  .order_by(col(Seat.match_id).desc()).limit(limit).cte("recent"))
        r = recent.c
        first = sa.case((r.first_to_act.is_(None), None), else_=r.first_to_act == r.seat)
        rank = sa.case((r.faulted, r.players), else_=r.rank)  # a faulted seat ranks last
        won = sa.case(((r.rank == 1) & sa.not_(r.faulted), 1), else_=0)
        with self._reading("read a bot's figures by condition") as s:
            seats = [SeatTally(str(game), int(n), int(seat), None if at is None else bool(at),
                               int(count), int(wins), float(ranks), float(squares))
                     for game, n, seat, at, count, wins, ranks, squares in s.execute(
                         sa.select(r.game, r.players, r.seat, first, func.count(),
                                   func.sum(won), func.sum(rank), func.sum(rank * rank))
                         .group_by(r.game, r.players, r.seat, first))]
            situation = SeatSituation.__table__.c  # type: ignore[attr-defined]
            hands = [HandsTally(str(game), str(kind), str(value), int(n), float(total),
                                float(squares))
                     for game, kind, value, n, total, squares in s.execute(
                         sa.select(r.game, situation.kind, situation.value,
                                   func.sum(situation.hands), func.sum(situation.points),
                                   func.sum(situation.points_squared))
                         .select_from(recent)
                         .join(SeatSituation, (situation.match_id == r.match_id)
                               & (situation.seat == r.seat))
                         .group_by(r.game, situation.kind, situation.value))]
        return seats, hands

    def head_to_head(self, bot_id: int) -> list[HeadToHead]:
        """A bot version against every bot it shared a rated match with, per rating pool (see
        :class:`HeadToHead`), by pool then opponent id: the bot's rows of the head-to-head
        summary, kept up to date as matches are rated (one index range)."""
        table = HEAD_TO_HEAD
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
            tally = TournamentTally(standing_lines(s, STANDING.c.tournament_id == tournament_id),
                                    stored_pairs(s, tournament_id))
            to_play = s.execute(sa.select(col(Match.id)).where(
                col(Match.tournament_id) == tournament_id,
                col(Match.status).in_(TO_PLAY)).limit(1)).first()
            waiting: list[Played] = []
            if to_play is not None:  # else every finished match of it is rated
                waiting = played(s, sa.and_(col(Match.tournament_id) == tournament_id,
                                            col(Match.status) == MatchStatus.FINISHED,
                                            col(Match.finish_seq).is_(None)))
        for match in waiting:
            tally.add(match.match_id, match.seats)
        return tally.table()

    def last_played(self, tournament_id: int, limit: int) -> list[Played]:
        """A tournament's last ``limit`` finished matches in the schedule, in schedule order,
        as its standings read them."""
        finished = sa.and_(col(Match.tournament_id) == tournament_id,
                           col(Match.status) == MatchStatus.FINISHED)
        with self._reading("read a tournament's finished matches") as s:
            first = s.execute(sa.select(col(Match.index)).where(finished)
                              .order_by(col(Match.index).desc()).offset(limit - 1).limit(1)
                              ).scalar()
            return played(s, finished if first is None
                          else sa.and_(finished, col(Match.index) >= first))

    def bot_ratings(self, bot_id: int) -> list[LeaderboardRow]:
        """A bot version's rating in every pool it is rated in, by pool."""
        with self._reading("read a bot's ratings") as s:
            rows = s.exec(select(Rating, Bot).join(Bot, col(Bot.id) == col(Rating.bot_id))
                          .where(col(Rating.bot_id) == bot_id)).all()
            found = [leaderboard_row(r, b) for r, b in rows]
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


__all__ = ["Pages"]
