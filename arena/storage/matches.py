"""Matches: an ad-hoc one, marking one running, finishing it (its result, its log and the
ratings it moves, in one transaction) or voiding it, the log of a running match so far, and
reading matches back.

Finishing an already finished match changes nothing (the second write of a result is
dropped), so a resumed tournament never counts a match twice. A match log is kept as opaque
bytes (the serialized ``arena.v1.MatchLog``): the store knows nothing of any game's rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlmodel import col, select

from arena.errors import ErrorKind
from arena.games.base import Situation
from arena.match.faults import Fault
from arena.storage.engine import Database
from arena.storage.errors import NotFoundError, StoreError, member, seed_text
from arena.storage.ratings import rate_ready
from arena.storage.records import MatchInfo, MatchResult, Rotation
from arena.storage.rows import (
    DONE,
    TO_PLAY,
    check_bots,
    deal_in_play,
    get_match,
    match_info,
    seat_infos,
)
from arena.storage.tables import Bot, Match, MatchStatus, Seat, SeatSituation, now


class Matches(Database):
    """The store's matches."""

    def create_match(
        self, game: str, options: Mapping[str, Any], seed: int, seat_bot_ids: Sequence[int]
    ) -> int:
        """An ad-hoc match outside any tournament, written as ``pending``."""
        with self._writing("create a match") as s:
            check_bots(s, set(seat_bot_ids))
            match = Match(
                tournament_id=None, index=0, game=game, options=dict(options),
                seed=seed_text(seed), status=MatchStatus.PENDING, created_at=now(),
            )
            s.add(match)
            s.flush()
            assert match.id is not None
            for seat, bot in enumerate(seat_bot_ids):
                s.add(Seat(match_id=match.id, seat=seat, bot_id=bot, fault=Fault.NONE))
            return match.id

    def mark_running(self, match_id: int, sealed: bool = False) -> bool:
        """Mark a pending match running (now), ``sealed`` or not (every seat a bot the arena
        runs in its sandbox). False if it is finished or void already. A log kept by an
        interrupted run of it is dropped: the match is played anew. Once a match of a deal
        started sealed, its hands may have been shown live, so every match of that deal (its
        own replay too) is played sealed: an unsealed start of one is a :class:`StoreError`
        (``CONFLICT``), and nothing is written."""
        with self._writing("start a match") as s:
            match = get_match(s, match_id)
            if match.status in DONE:
                return False
            if not sealed:
                shown = s.execute(sa.select(col(Match.id)).where(
                    _same_deal(match_id, match.tournament_id, match.seed),
                    col(Match.sealed).is_(True)).limit(1)).first()
                if shown is not None:
                    raise StoreError(
                        f"match {match_id} deals the cards match {shown[0]} was played with in "
                        "the sandbox, where every hand may have been shown live: it is played "
                        "in the sandbox too", kind=ErrorKind.CONFLICT)
            match.status = MatchStatus.RUNNING
            match.started_at = now()
            match.live_log = None
            match.sealed = sealed
            s.add(match)
            return True

    def void_match(self, match_id: int) -> bool:
        """Give up on a match that cannot be played; False if it finished already."""
        with self._writing("void a match") as s:
            match = get_match(s, match_id)
            if match.status is MatchStatus.FINISHED:
                return False
            match.status = MatchStatus.VOID
            s.add(match)
            s.flush()
            rate_ready(s, match)  # the matches scheduled after it need not wait for it
            return True

    def finish_match(self, match_id: int, result: MatchResult) -> bool:
        """Store a match's result and move the ratings, in one transaction.

        Returns False and changes nothing when the match is already finished (or
        void): a result written twice is stored once. A result whose length does
        not match the seats, or with a fault that is not a :class:`Fault` value, is
        a :class:`StoreError`; a rank below 1 is the caller's bug (``ValueError``
        from the ratings) — in every case nothing is written.
        """
        with self._writing("finish a match") as s:
            match = get_match(s, match_id)
            if match.status in DONE:
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
            faults = [member(Fault, fault, "fault") for fault in result.faults]
            match.status = MatchStatus.FINISHED
            match.started_at = result.started_at or match.started_at
            match.finished_at = now()
            match.duration_s = result.duration_s
            match.log = result.log
            match.live_log = None  # the full log is kept now
            match.node = result.node
            match.first_to_act = result.first_to_act
            s.add(match)
            s.add_all(_situations(match_id, result.situations, n))
            peers = result.peers or (None,) * n
            reasons = result.reasons or ("",) * n
            if len(peers) != n or len(reasons) != n:
                raise StoreError(f"match {match_id} has {n} seats but the result has "
                                 f"{len(peers)} peers and {len(reasons)} reasons",
                                 kind=ErrorKind.BAD_REQUEST)
            for seat, score, rank, fault, peer, reason in zip(
                seats, result.scores, result.ranks, faults, peers, reasons, strict=True
            ):
                seat.score, seat.rank, seat.fault = float(score), int(rank), fault
                seat.peer = peer
                seat.reason = reason if fault and reason else None
                s.add(seat)
            s.flush()
            rate_ready(s, match)
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
                col(Match.status).in_(TO_PLAY),
                col(Match.seed) == row[1], col(Match.id) != match_id).limit(1)).first()
            return None if found is None else int(found[0])

    def deal_rotations(self, match_id: int) -> tuple[Rotation, ...]:
        """The matches of a match's deal still to play (pending or running; the match itself
        among them if it is), in schedule order: whether each started sealed, and its remote
        seats. What :mod:`arena.app.visibility` asks before it shows a running match's hands."""
        with self._reading("look at a deal's rotations") as s:
            match = s.execute(sa.select(col(Match.id), col(Match.tournament_id), col(Match.seed))
                              .where(col(Match.id) == match_id)).first()
            if match is None:
                raise NotFoundError(f"no match with id {match_id}")
            rows = s.execute(sa.select(col(Match.id), col(Match.lane), col(Match.status),
                                       col(Match.sealed))
                             .where(_same_deal(match_id, match[1], match[2]),
                                    col(Match.status).in_(TO_PLAY))
                             .order_by(col(Match.index), col(Match.id))).all()
            remote: dict[int, list[tuple[int, str]]] = {}
            for found, seat, name, version in s.execute(
                    sa.select(col(Seat.match_id), col(Seat.seat), col(Bot.name), col(Bot.version))
                    .join(Bot, col(Bot.id) == col(Seat.bot_id))
                    .where(col(Seat.match_id).in_([row[0] for row in rows]),
                           col(Bot.token_hash).is_not(None))
                    .order_by(col(Seat.match_id), col(Seat.seat))):
                remote.setdefault(found, []).append((seat, f"{name}@{version}"))
            return tuple(Rotation(row[0], row[1], MatchStatus(row[2]), bool(row[3]),
                                  tuple(remote.get(row[0], ()))) for row in rows)

    def sealed_deal_to_play(self, tournament_id: int) -> int | None:
        """A match of the tournament still to play whose deal has a match that started sealed
        (itself, before an interruption, or another rotation), if any: its id. Such a match is
        started sealed only (see :meth:`mark_running`): a run without the sandbox refuses to
        start while there is one."""
        other = sa.orm.aliased(Match)
        with self._reading("look for deals played sealed") as s:
            found = s.execute(sa.select(col(Match.id)).where(
                col(Match.tournament_id) == tournament_id, col(Match.status).in_(TO_PLAY),
                sa.exists().where(col(other.tournament_id) == col(Match.tournament_id),
                                  col(other.seed) == col(Match.seed),
                                  col(other.sealed).is_(True)))
                .order_by(col(Match.index)).limit(1)).first()
            return None if found is None else int(found[0])

    def deals_in_play(self, match_ids: Sequence[int]) -> set[int]:
        """Those of ``match_ids`` whose deal another match of their tournament has still to
        play (see :meth:`deal_in_play`), in one query."""
        if not match_ids:
            return set()
        with self._reading("look for deals in play") as s:
            return {int(found) for (found,) in s.execute(
                sa.select(col(Match.id)).where(col(Match.id).in_(list(match_ids)),
                                               deal_in_play()))}

    def get_match(self, match_id: int) -> MatchInfo:
        """A match with its seats and its log bytes."""
        with self._reading("read a match") as s:
            match = get_match(s, match_id)
            return match_info(match, seat_infos(s, [match_id]).get(match_id, ()), with_log=True)

    def list_matches(
        self, tournament_id: int | None = None, limit: int = 100, *,
        status: MatchStatus | str | None = None,
    ) -> list[MatchInfo]:
        """Matches, newest first (logs not loaded)."""
        if status is not None:
            status = member(MatchStatus, status, "match status")
        with self._reading("list matches") as s:
            query = select(Match).options(sa.orm.defer(Match.log),  # type: ignore[arg-type]
                                          sa.orm.defer(Match.live_log))  # type: ignore[arg-type]
            if tournament_id is not None:
                query = query.where(col(Match.tournament_id) == tournament_id)
            if status is not None:
                query = query.where(col(Match.status) == status)
            matches = s.exec(query.order_by(col(Match.id).desc()).limit(limit)).all()
            seats = seat_infos(s, [m.id for m in matches if m.id is not None])
            return [match_info(m, seats.get(m.id or 0, ()), with_log=False) for m in matches]

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
            seats = seat_infos(s, [m.id for m in matches if m.id is not None])
            return [match_info(m, seats.get(m.id or 0, ()), with_log=False) for m in matches]


def _same_deal(match_id: int, tournament_id: int | None, seed: object) -> sa.ColumnElement[bool]:
    """The matches that deal the cards match ``match_id`` (of ``tournament_id``, dealt from
    ``seed``) deals: itself and, in a tournament, every match of it with the same seed (its
    seat rotations)."""
    if tournament_id is None:
        return col(Match.id) == match_id
    return sa.and_(col(Match.tournament_id) == tournament_id, col(Match.seed) == seed)


def _situations(match_id: int, situations: Sequence[Situation], seats: int) -> list[SeatSituation]:
    """The match's situations as rows, one per seat, kind and value: its hands summed."""
    rows: dict[tuple[int, str, str], SeatSituation] = {}
    for found in situations:
        if not 0 <= found.seat < seats:
            raise StoreError(f"match {match_id} has {seats} seats, not a seat {found.seat}",
                             kind=ErrorKind.BAD_REQUEST)
        key = (found.seat, found.kind, found.value)
        row = rows.get(key)
        if row is None:
            row = rows[key] = SeatSituation(match_id=match_id, seat=found.seat, kind=found.kind,
                                            value=found.value, hands=0, points=0.0,
                                            points_squared=0.0)
        row.hands += 1
        row.points += found.points
        row.points_squared += found.points * found.points
    return list(rows.values())


__all__ = ["Matches"]
