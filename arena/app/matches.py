"""Matches as the views show them: one match with the secrecy rule applied, its log, and
lists of matches and of faults, a page at a time.

What of a match may be seen is :mod:`arena.app.visibility`'s one rule; here it is applied
once per use case: :func:`show_match` says whether the view asked for is shown and whether
its private views are; :func:`match_record` gives a match's log as far as it is shown (or
:class:`Hidden`); :func:`bot_faults` takes out the fault reasons the rule hides (a bot's
own error message may name its cards). A list of matches shows seats, ranks, scores and fault
kinds, never a card, so no rule applies to it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from arena.app.live import Snapshot
from arena.app.visibility import Refusal, Sight, deal_of, hidden_full_views, in_play_of, may_show
from arena.errors import ArenaError, ErrorKind
from arena.match.replay import LogLine, read_log, view
from arena.storage.store import FaultInfo, MatchInfo, MatchStatus, Store

# ---------------------------------------------------------------- one match


@dataclass(frozen=True)
class ShownMatch:
    """A match and what of it is shown: ``refusal``, why the view asked for is not (None: it
    is); ``private_refusal``, why its seat and full views are not (None: they are)."""

    match: MatchInfo
    refusal: Refusal | None
    private_refusal: Refusal | None


def shown(store: Store, match: MatchInfo, sight: Sight = Sight.PUBLIC, *,
          operator: bool = False) -> ShownMatch:
    """What of ``match`` is shown to the operator (``operator``) or anyone else, for ``sight``
    and for its private views: the store is asked at most once (whether another rotation of
    its deal is in play, for a finished match; its deal's rotations, for a running one)."""
    in_play = in_play_of(store, match.id, match.status, operator)
    deal = deal_of(store, match.id, match.status, operator)
    return ShownMatch(match,
                      may_show(match.id, match.status, sight, operator=operator, in_play=in_play,
                               deal=deal),
                      may_show(match.id, match.status, Sight.FULL, operator=operator,
                               in_play=in_play, deal=deal))


def noted_seats(store: Store, match: MatchInfo, author_id: int | None) -> frozenset[int]:
    """The seats whose notes a replay of ``match`` shows to the author ``author_id`` (None:
    anyone signed out): once the match is shown whole (finished, every other rotation of its
    deal over), every seat where the tournament made notes public, else the author's own."""
    if match.status is not MatchStatus.FINISHED or shown(store, match).private_refusal is not None:
        return frozenset()
    if _public_notes(store, match):
        return frozenset(range(len(match.seats)))
    return _own_seats(store, match, author_id)


def _own_seats(store: Store, match: MatchInfo, author_id: int | None) -> frozenset[int]:
    if author_id is None:
        return frozenset()
    authors = {bot.id: bot.author_id for bot in store.bots_by_id({s.bot_id for s in match.seats})}
    return frozenset(s.seat for s in match.seats if authors.get(s.bot_id) == author_id)


def _public_notes(store: Store, match: MatchInfo) -> bool:
    return match.tournament_id is not None and bool(
        store.get_tournament(match.tournament_id).settings.get("public_notes"))


def show_match(store: Store, match_id: int, sight: Sight = Sight.PUBLIC, *,
               operator: bool = False) -> ShownMatch:
    """Match ``match_id`` (its log too) and what of it is shown (:func:`shown`); an unknown
    match: :class:`~arena.storage.store.NotFoundError`."""
    return shown(store, store.get_match(match_id), sight, operator=operator)


class Hidden(ArenaError):
    """What was asked of a match is not shown (:attr:`refusal` says why, in one line)."""

    kind = ErrorKind.NOT_ALLOWED

    def __init__(self, refusal: Refusal) -> None:
        self.refusal = refusal
        super().__init__(refusal.text)


class NoSuchSeat(ArenaError, ValueError):
    """A seat the match does not have."""

    kind = ErrorKind.BAD_REQUEST


@dataclass(frozen=True)
class MatchRecord:
    """A match and its log's lines as ``seat`` saw them (None: every line the asker may
    see); ``lines`` None: the match has no final log (it runs, has not started, or is
    void)."""

    match: MatchInfo
    seat: int | None
    lines: tuple[LogLine, ...] | None
    notes: tuple[tuple[int, LogLine], ...] = ()  # (decision number, its line) the asker may read


def match_record(store: Store, match_id: int, seat: int | None = None, *,
                 operator: bool, author_id: int | None = None) -> MatchRecord:
    """Match ``match_id`` with its log as ``seat`` saw it, or whole (``arena match show``,
    the operator service's ``GetMatch``), as the secrecy rule allows the operator
    (``operator``) or anyone else: a seat's view, or a finished match's full log, only once
    every rotation of its deal is over (else :class:`Hidden`); for anyone else, a match not
    finished shows its public lines only. A seat the match does not have:
    :class:`NoSuchSeat`; an unknown match: :class:`~arena.storage.store.NotFoundError`.
    With the bots' notes the asker may read (:func:`_readable_notes`; ``author_id``: the
    asking author's). Decoding a long log takes a while: an event loop calls this in a worker
    thread."""
    match = store.get_match(match_id)
    if seat is not None and not 0 <= seat < len(match.seats):
        raise NoSuchSeat(f"match {match_id} has seats 0 to {len(match.seats) - 1}, not {seat}")
    sight = Sight.SEAT if seat is not None else \
        Sight.FULL if match.status is MatchStatus.FINISHED else Sight.PUBLIC
    found = shown(store, match, sight, operator=operator)
    if found.refusal is not None:
        raise Hidden(found.refusal)
    if match.log is None:
        return MatchRecord(match, seat, None)
    lines = read_log(match.game, match.log)
    whole = match.status is MatchStatus.FINISHED and found.private_refusal is None
    notes = _readable_notes(store, match, lines, whole, operator=operator, author_id=author_id)
    if seat is None and not operator and match.status is not MatchStatus.FINISHED:
        lines = [line for line in lines if line.audience is None]
    return MatchRecord(match, seat, tuple(view(lines, seat)), notes)


def _readable_notes(store: Store, match: MatchInfo, lines: Sequence[LogLine], whole: bool, *,
                    operator: bool, author_id: int | None) -> tuple[tuple[int, LogLine], ...]:
    """The decisions of ``lines`` (with their numbers, from 1) whose notes the asker may read
    (:mod:`arena.app.visibility`): the operator every one; once the match is shown ``whole``
    to anyone (finished, every other rotation of its deal over), anyone where the tournament
    made them public, else an author those of its own bots' seats."""
    noted = [(number, line) for number, line in
             enumerate((line for line in lines if line.kind == "decision"), 1)
             if line.note or line.note_cut]
    if not noted or operator:
        return tuple(noted)
    if not whole:
        return ()
    if _public_notes(store, match):
        return tuple(noted)
    own = _own_seats(store, match, author_id)
    return tuple((number, line) for number, line in noted if line.seat in own)


def feed_refusal(snapshot: Snapshot, sight: Sight = Sight.PUBLIC, *,
                 operator: bool = False) -> Refusal | None:
    """Why a live feed of ``sight`` may not show what the match a reader's ``snapshot`` has
    now (None: it may; the web's live feed, the operator service's ``WatchMatch``): once the
    match is over, its last events while another rotation of its deal is unfinished; a seat's
    or the full view of a running match unless its deal is sealed (the snapshot carries its
    rotations: :attr:`~arena.app.live.Snapshot.deal`)."""
    match = snapshot.match
    return may_show(match.id, match.status, sight, operator=operator,
                    in_play=snapshot.in_play, deal=snapshot.deal)


@dataclass(frozen=True)
class MatchLog:
    """The log a replay of a match is drawn from: ``data`` (None: none yet, or none kept) and
    whether it is the ``final`` one (else a running match's log so far)."""

    data: bytes | None
    final: bool


def match_log(store: Store, match: MatchInfo) -> MatchLog:
    """The log of ``match`` as :func:`show_match` read it: its final log once it is over, its
    log so far while it runs (read now), nothing before it starts or for a void match."""
    if match.log is not None:
        return MatchLog(match.log, True)
    if match.status is not MatchStatus.RUNNING:
        return MatchLog(None, match.status is not MatchStatus.PENDING)
    return MatchLog(store.live_log(match.id), False)


# ---------------------------------------------------------------- lists


@dataclass(frozen=True)
class MatchPage:
    """Some matches (logs not loaded); ``more``: the list goes on after them; ``total``: how
    many the whole list has, where it is known."""

    matches: tuple[MatchInfo, ...]
    more: bool
    total: int | None = None

    @property
    def last_id(self) -> int | None:
        """The id to give as ``before`` for the next page (None: empty)."""
        return self.matches[-1].id if self.matches else None


def recent_matches(store: Store, limit: int) -> list[MatchInfo]:
    """The latest rated matches, the last rated first."""
    return store.recent_matches(limit)


def list_matches(store: Store, tournament_id: int | None = None, limit: int = 50) -> list[MatchInfo]:
    """The newest ``limit`` matches (of one tournament only, if given): ``arena match list``."""
    return store.list_matches(tournament_id, limit)


def tournament_match_page(store: Store, tournament_id: int, page: int, limit: int) -> MatchPage:
    """Page ``page`` (from 1) of a tournament's matches in schedule order, ``limit`` a page,
    with their ``total``; an unknown tournament: :class:`~arena.storage.store.NotFoundError`."""
    total = store.get_tournament(tournament_id).total
    found = store.tournament_match_page(tournament_id, (page - 1) * limit, limit + 1)
    return MatchPage(tuple(found[:limit]), len(found) > limit, total)


def bot_matches(store: Store, bot_id: int, before: int | None, limit: int) -> MatchPage:
    """A bot version's matches, newest first, with an id below ``before`` (None: all)."""
    found = store.bot_matches(bot_id, before, limit + 1)
    return MatchPage(tuple(found[:limit]), len(found) > limit)


@dataclass(frozen=True)
class FaultPage:
    """Seats in which a bot faulted, newest first, each ``reason`` None where it is not
    shown; ``more``: the list goes on after them."""

    faults: tuple[FaultInfo, ...]
    more: bool

    @property
    def last_id(self) -> int | None:
        """The match id to give as ``before`` for the next page (None: empty)."""
        return self.faults[-1].match_id if self.faults else None


def public_faults(store: Store, faults: Sequence[FaultInfo]) -> list[FaultInfo]:
    """``faults`` with the reasons the public may not see taken out (None, as for a match
    played before reasons were kept): those of a match whose deal another rotation has
    still to play (:func:`arena.app.visibility.hidden_full_views`, one query for them all)."""
    hidden = hidden_full_views(store, [f.match_id for f in faults if f.reason])
    return [dataclasses.replace(f, reason=None) if f.match_id in hidden else f for f in faults]


def bot_faults(store: Store, bot_id: int, before: int | None, limit: int) -> FaultPage:
    """The seats in which a bot version faulted, newest first, in matches with an id below
    ``before`` (None: all), as the public sees them (:func:`public_faults`)."""
    found = store.bot_faults(bot_id, before, limit + 1)
    return FaultPage(tuple(public_faults(store, found[:limit])), len(found) > limit)


__all__ = ["FaultPage", "Hidden", "MatchLog", "MatchPage", "MatchRecord", "NoSuchSeat",
           "ShownMatch", "bot_faults", "bot_matches", "feed_refusal", "list_matches", "match_log",
           "match_record", "noted_seats", "public_faults", "recent_matches", "show_match",
           "shown", "tournament_match_page"]
