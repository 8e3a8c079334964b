"""Tournaments: a schedule written at once, matches added to a ladder's, claiming the
matches still to play, marking a tournament running (its run lock) or ended, and taking it
off: cut short, cancelled by an operator, or voided out of the ratings.

A tournament and every match of its schedule are written, ``pending``, in one transaction.
Every change here is one transaction: an interruption leaves all of it or none of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlmodel import col, func, select

from arena.errors import ErrorKind
from arena.match.faults import Fault
from arena.storage.engine import Database
from arena.storage.errors import NotFoundError, StoreError, member, seed_text
from arena.storage.ratings import rate_ready, rebuild
from arena.storage.records import MatchInfo, MatchToRun, ScheduledMatch, TournamentInfo
from arena.storage.rows import (
    TO_PLAY,
    check_bots,
    match_info,
    seat_bots,
    seat_infos,
    tournament_infos,
)
from arena.storage.runs import Busy
from arena.storage.tables import Match, MatchStatus, Seat, Tournament, TournamentStatus, now


class Tournaments(Database):
    """The store's tournaments."""

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
            check_bots(s, set(bot_ids) | {b for m in schedule for b in m.seat_bot_ids})
            created = now()
            tournament = Tournament(
                game=game, players=players, options=options, seed=seed_text(seed),
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
                    "options": options, "seed": seed_text(m.seed), "lane": m.lane,
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

    def append_matches(self, tournament_id: int, seeds: Sequence[int],
                       seat_bot_ids: Sequence[Sequence[int]]) -> list[MatchToRun]:
        """Add pending matches at the end of a tournament's schedule (a ladder's, which grows
        as it is played): one per seed, with its seats' bots; the matches to run."""
        with self._writing("add matches to a tournament") as s:
            if s.get(Tournament, tournament_id) is None:
                raise NotFoundError(f"no tournament with id {tournament_id}")
            check_bots(s, {b for seats in seat_bot_ids for b in seats})
            last = s.execute(sa.select(sa.func.max(col(Match.index))).where(
                col(Match.tournament_id) == tournament_id)).scalar()
            first = 0 if last is None else int(last) + 1
            tournament = s.get(Tournament, tournament_id)
            assert tournament is not None
            out = []
            for offset, (seed, seats) in enumerate(zip(seeds, seat_bot_ids, strict=True)):
                match = Match(tournament_id=tournament_id, index=first + offset,
                              game=tournament.game, options=dict(tournament.options),
                              seed=seed_text(seed), status=MatchStatus.PENDING, created_at=now())
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
            return tournament_infos(s, rows, self._runs.held)

    def get_tournament(self, tournament_id: int) -> TournamentInfo:
        with self._reading("read a tournament") as s:
            t = s.get(Tournament, tournament_id)
            if t is None:
                raise NotFoundError(f"no tournament with id {tournament_id}")
            return tournament_infos(s, [t], self._runs.held)[0]

    def set_tournament_status(self, tournament_id: int, status: TournamentStatus | str) -> None:
        status = member(TournamentStatus, status, "tournament status")
        with self._writing("update a tournament") as s:
            t = s.get(Tournament, tournament_id)
            if t is None:
                raise NotFoundError(f"no tournament with id {tournament_id}")
            t.status = status
            t.finished_at = now() if status.ended else None
            s.add(t)

    def _mark_running(self, tournament_id: int) -> None:
        with self._writing("update a tournament") as s:
            t = s.get(Tournament, tournament_id)
            if t is None:
                raise NotFoundError(f"no tournament with id {tournament_id}")
            if not t.status.closed:
                t.status = TournamentStatus.RUNNING
                t.finished_at = None
                s.add(t)

    @contextmanager
    def running(self, tournament_id: int) -> Iterator[None]:
        """Mark the tournament running while the body runs, holding its run lock (see
        :mod:`arena.storage.runs`): while it is held the tournament reads as running, and
        once its process is gone, however it ended, as interrupted (once a match of it was
        started: a tournament just created reads as running). A cancelled or voided tournament
        stays so (its run finds nothing to play). A :class:`StoreError` when another process
        runs it."""
        try:
            with self._runs.hold(tournament_id):
                self._mark_running(tournament_id)
                yield
        except Busy:
            raise StoreError(f"tournament {tournament_id} is being run by another process "
                             "already", kind=ErrorKind.CONFLICT) from None

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
            seats = seat_bots(s, [r[0] for r in rows])
            return [
                MatchToRun(
                    id=mid, tournament_id=tid, index=index, game=game,
                    options=dict(options), seed=int(seed), seat_bot_ids=seats.get(mid, ()),
                    lane=int(lane or 0),
                )
                for mid, tid, index, game, options, seed, lane in rows
            ]

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
                col(Match.status).in_(TO_PLAY))).all()
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
                rate_ready(s, matches[0])  # nothing is left to wait for
            return len(matches)

    def cancel_tournament(self, tournament_id: int) -> int:
        """Void the unfinished matches of a tournament no one is running (see
        :meth:`void_unfinished`) and mark it cancelled; how many. A :class:`StoreError` while
        it runs."""
        with self._not_running(tournament_id, "cancel"):
            return self.void_unfinished(tournament_id, status=TournamentStatus.CANCELLED)

    def void_tournament(self, tournament_id: int) -> int:
        """Take a tournament no one is running out of the ratings: every match of it void (the
        results stay on record), the tournament ``voided``, and every rating and summary
        rebuilt without them; how many matches had counted. One transaction: a failure
        anywhere leaves everything as it was. A :class:`StoreError` while it runs."""
        with self._not_running(tournament_id, "void"), self._writing("void a tournament") as s:
            tournament = s.get(Tournament, tournament_id)
            if tournament is None:
                raise NotFoundError(f"no tournament with id {tournament_id}")
            counted = s.execute(select(func.count()).select_from(Match).where(
                Match.tournament_id == tournament_id,
                col(Match.status) == MatchStatus.FINISHED)).scalar() or 0
            s.execute(sa.update(Match).where(col(Match.tournament_id) == tournament_id)
                      .values(status=MatchStatus.VOID))
            tournament.status = TournamentStatus.VOIDED
            tournament.finished_at = now()
            s.add(tournament)
            s.flush()
            rebuild(s)
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
            seats = seat_infos(s, [m.id for m in matches if m.id is not None])
            return [match_info(m, seats.get(m.id or 0, ()), with_log=False) for m in matches]


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
            return tournament_infos(s, wanted, self._runs.held)


__all__ = ["Tournaments"]
