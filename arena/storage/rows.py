"""Table rows into the store's records, and the queries every part of the store shares:
a match's seats, a tournament's counts and bots, a match read without its logs.

Ids go to ``IN (...)`` lists at most :data:`CHUNK` at a time (SQLite binds a limited number
of parameters).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import sqlalchemy as sa
from sqlmodel import Session, col, func, select

from arena import rating
from arena.games import base_game
from arena.rating.standings import Played
from arena.rating.standings import Seat as PlayedSeat
from arena.storage.errors import NotFoundError
from arena.storage.records import (
    AuthorInfo,
    BotInfo,
    LeaderboardRow,
    MatchInfo,
    SeatInfo,
    TournamentInfo,
)
from arena.storage.tables import (
    Author,
    Bot,
    Match,
    MatchStatus,
    Rating,
    Seat,
    Tournament,
    TournamentStatus,
    utc,
)

T = TypeVar("T")

CHUNK = 500
"""Ids per ``IN (...)`` list."""

DONE = (MatchStatus.FINISHED, MatchStatus.VOID)
"""A match in one of these statuses is never played again."""

TO_PLAY = (MatchStatus.PENDING, MatchStatus.RUNNING)
"""A match in one of these statuses is still to play."""


def deal_in_play() -> sa.ColumnElement[bool]:
    """Whether another match of a match's tournament deals the same cards (a seat rotation of
    its duplicate deal) and is still to play: until none is, its hidden cards are shown to
    no one (the web, ``match show``) and it is exported in no dataset."""
    other = sa.orm.aliased(Match)
    return sa.exists().where(col(other.tournament_id) == col(Match.tournament_id),
                             col(other.seed) == col(Match.seed), col(other.id) != col(Match.id),
                             col(other.status).in_(TO_PLAY))


FAULT_TEXT = sa.type_coerce(col(Seat.fault), sa.String())
"""A seat's fault as its stored text (the rating needs only whether it is empty)."""


def chunks(ids: Sequence[T], size: int = CHUNK) -> Iterator[list[T]]:
    for start in range(0, len(ids), size):
        yield list(ids[start:start + size])


def bot_info(bot: Bot) -> BotInfo:
    assert bot.id is not None
    return BotInfo(
        id=bot.id, name=bot.name, version=bot.version, command=bot.command,
        remote=bot.token_hash is not None, removed=bot.removed,
        created_at=utc(bot.created_at) or bot.created_at, folder=bot.folder,
        content_hash=bot.content_hash, games=None if bot.games is None else tuple(bot.games),
        author_id=bot.author_id,
        validated=None if bot.validated is None else tuple(bot.validated),
    )


def author_info(author: Author, bots: Sequence[str]) -> AuthorInfo:
    assert author.id is not None
    return AuthorInfo(id=author.id, name=author.name,
                      created_at=utc(author.created_at) or author.created_at, bots=tuple(bots))


def leaderboard_row(r: Rating, b: Bot) -> LeaderboardRow:
    """A bot's rating in one pool, as every list of ratings gives it."""
    return LeaderboardRow(
        game=base_game(r.game), bot_id=r.bot_id, name=b.name, version=b.version, mu=r.mu,
        sigma=r.sigma, conservative=rating.conservative(r.mu, r.sigma), matches=r.matches,
        wins=r.wins, faults=r.faults, pool=r.game)


def match_info(m: Match, seats: tuple[SeatInfo, ...], *, with_log: bool) -> MatchInfo:
    assert m.id is not None
    return MatchInfo(
        id=m.id, tournament_id=m.tournament_id, index=m.index, game=m.game,
        options=dict(m.options), seed=int(m.seed), status=m.status,
        created_at=utc(m.created_at) or m.created_at, started_at=utc(m.started_at),
        finished_at=utc(m.finished_at), duration_s=m.duration_s, finish_seq=m.finish_seq,
        seats=seats, log=m.log if with_log else None, node=m.node,
    )


def check_bots(s: Session, bot_ids: set[int]) -> None:
    found = set(s.exec(select(Bot.id).where(col(Bot.id).in_(bot_ids))).all())
    missing = sorted(bot_ids - {b for b in found if b is not None})
    if missing:
        raise NotFoundError(f"no bot with id {', '.join(map(str, missing))}")


def get_match(s: Session, match_id: int) -> Match:
    match = s.get(Match, match_id)
    if match is None:
        raise NotFoundError(f"no match with id {match_id}")
    return match


def seat_bots(s: Session, match_ids: list[int]) -> dict[int, tuple[int, ...]]:
    out: dict[int, list[int]] = {}
    for chunk in chunks(match_ids):
        for match_id, bot_id in s.execute(
            select(Seat.match_id, Seat.bot_id)
            .where(col(Seat.match_id).in_(chunk))
            .order_by(col(Seat.match_id), col(Seat.seat))
        ):
            out.setdefault(match_id, []).append(bot_id)
    return {k: tuple(v) for k, v in out.items()}


def seated_bots(s: Session, tournament_ids: Sequence[int]) -> dict[int, tuple[int, ...]]:
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


def seat_infos(s: Session, match_ids: list[int]) -> dict[int, tuple[SeatInfo, ...]]:
    out: dict[int, list[SeatInfo]] = {}
    for chunk in chunks(match_ids):
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


def match_counts(s: Session, tournament_ids: Sequence[int]) -> dict[int, dict[MatchStatus, int]]:
    counts: dict[int, dict[MatchStatus, int]] = {}
    for chunk in chunks(list(tournament_ids)):
        for tournament_id, status, count in s.execute(
            select(Match.tournament_id, Match.status, func.count())
            .where(col(Match.tournament_id).in_(chunk))
            .group_by(col(Match.tournament_id), col(Match.status))
        ).all():
            counts.setdefault(int(tournament_id), {})[MatchStatus(status)] = int(count)
    return counts


def tournament_infos(s: Session, rows: Sequence[Tournament],
                     held: Callable[[int], bool]) -> list[TournamentInfo]:
    """The tournaments as the store gives them, with a query for all their counts and one
    for all their bots. A tournament stored running whose run lock no one ``held``, once a
    match of it was started, reads as interrupted: the process running it is gone."""
    counts = match_counts(s, [t.id for t in rows if t.id is not None])
    # a ladder names no bots up front (its field changes as it plays): its bots are those
    # seated in its matches so far
    seated = seated_bots(s, [t.id for t in rows if not t.bot_ids and t.id is not None])
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
            status=TournamentStatus.INTERRUPTED
            if t.status is TournamentStatus.RUNNING and mine.keys() - {MatchStatus.PENDING}
            and not held(t.id) else t.status,
            created_at=utc(t.created_at) or t.created_at,
            finished_at=utc(t.finished_at), total=sum(mine.values()),
            finished=mine.get(MatchStatus.FINISHED, 0),
        ))
    return infos


# ---------------------------------------------------------------- matches without their logs

LEAN_MATCH = (col(Match.id), col(Match.tournament_id), col(Match.index), col(Match.game),
              col(Match.options), col(Match.seed), col(Match.status), col(Match.created_at),
              col(Match.started_at), col(Match.finished_at), col(Match.duration_s),
              col(Match.finish_seq))
"""A match's columns without its logs (nor the columns stored after them: a match row is
then read without the log's overflow pages; see :mod:`arena.storage.pages`)."""


def lean_matches(s: Session, ids: list[int], *, by_index: bool = False) -> list[MatchInfo]:
    """The matches with these ids and their seats (two queries), in the order of ``ids``."""
    if not ids:
        return []
    rows = {int(r[0]): r for r in s.execute(sa.select(*LEAN_MATCH).where(col(Match.id).in_(ids)))}
    seats = seat_infos(s, ids)
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


def played(s: Session, which: sa.ColumnElement[bool]) -> list[Played]:
    """The matches ``which`` selects (of one tournament) as its standings read them, in schedule
    order, from one query of their seats."""
    out: list[Played] = []
    seats: list[PlayedSeat] = []
    current: tuple[int, int] | None = None
    for match_id, index, bot_id, rank, fault in s.execute(
        sa.select(col(Match.id), col(Match.index), col(Seat.bot_id), col(Seat.rank), FAULT_TEXT)
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
