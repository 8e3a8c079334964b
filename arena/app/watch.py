"""Watching a match from a terminal: its public events as they come, then its result.

``arena match watch ID`` follows a match on this machine's store (:func:`follow`) or on a
server (the operator service's ``WatchMatch``, through its client); both give the same
:class:`WatchUpdate` values, so the command prints them one way. What is shown is the public
view: the events every seat may see (as the web's live feed and ``WatchMatch`` show), never
a seat's own cards, while the match runs or after. With ``all_hands`` it is every event, a
seat's own ones too, as :mod:`arena.app.visibility` allows: always to the operator (who
holds the database here, and the operator's token on a server), and to an author on a
server only where the match's deal is sealed.

Locally a match is followed the way the live feeds follow one (:mod:`arena.app.live`): its
status and the size of its running log are polled (no log read), and only when the log has
grown is it read and its new public events taken. The running log is always a prefix of the
final one, so once the match is over the final log's events follow on from those shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from arena.app.live import OVER, PENDING_LIMIT_S, POLL_S, not_started
from arena.errors import ArenaError, ErrorKind
from arena.match.replay import read_log
from arena.storage.store import MatchInfo, MatchStatus, Store


class NotStarted(ArenaError):
    """The watched match did not start within :data:`~arena.app.live.PENDING_LIMIT_S`."""

    kind = ErrorKind.CONFLICT


@dataclass(frozen=True)
class SeatResult:
    """A seat of a watched match: its bot, and once the match is over its rank and score."""

    seat: int
    bot: str
    rank: int | None = None
    score: float | None = None
    fault: str | None = None


@dataclass(frozen=True)
class WatchUpdate:
    """What a watch learnt: the match as it stands, its public ``events`` since the last
    update (typed game events, in order), and whether it is over (``ended``)."""

    match_id: int
    game: str
    status: str
    seats: tuple[SeatResult, ...]
    events: tuple[Any, ...] = ()
    ended: bool = False


def public_events(game: str, data: bytes | None) -> list[Any]:
    """The events of a log that every seat may see, in order."""
    return shown_events(game, data)


def shown_events(game: str, data: bytes | None, all_hands: bool = False) -> list[Any]:
    """The events of a log a watch shows, in order: those every seat may see, or with
    ``all_hands`` every one."""
    return [value for value, public in logged_events(game, data) if public or all_hands]


def logged_events(game: str, data: bytes | None) -> list[tuple[Any, bool]]:
    """Every event of a log, in order, each with whether every seat may see it (the full
    view's events: those that are not are for the operator, or for a deal the secrecy rule
    shows whole)."""
    if not data:
        return []
    return [(line.value, line.audience is None) for line in read_log(game, data)
            if line.kind == "event"]


def _update(match: MatchInfo, events: Sequence[Any], ended: bool) -> WatchUpdate:
    seats = tuple(SeatResult(s.seat, s.bot, s.rank, s.score, str(s.fault) or None)
                  for s in match.seats)
    return WatchUpdate(match.id, match.game, str(match.status), seats, tuple(events), ended)


def follow(store: Store, match_id: int, *, all_hands: bool = False, poll_s: float = POLL_S,
           pending_limit_s: float = PENDING_LIMIT_S,
           sleep: Callable[[float], None] = time.sleep) -> Iterator[WatchUpdate]:
    """The match as it stands, then each batch of new public events (``all_hands``: every
    event, for the operator who holds the store), then (``ended``) its last events with its
    result. A match that has not started is waited for, up to ``pending_limit_s`` (then
    :class:`NotStarted`); an unknown one: the store's error."""
    match = store.get_match(match_id)
    sent, size, first = 0, None, True
    began = time.monotonic()
    while True:
        if match.status in OVER:
            events = shown_events(match.game, match.log, all_hands)
            yield _update(match, events[sent:], True)
            return
        status, now = store.live_progress(match_id)
        if status != match.status:  # started or ended: read it whole, once
            match = store.get_match(match_id)
            continue
        if match.status is MatchStatus.PENDING:
            if first:
                yield _update(match, (), False)
                first = False
            if time.monotonic() - began > pending_limit_s:
                raise NotStarted(f"{not_started(match_id, pending_limit_s)}: watch it again "
                                 "once it runs")
        elif first or now != size:
            events = shown_events(match.game,
                                  None if now is None else store.live_log(match_id), all_hands)
            if first or len(events) > sent:
                yield _update(match, events[sent:], False)
                sent = len(events)
            size, first = now, False
        sleep(poll_s)


__all__ = ["NotStarted", "SeatResult", "WatchUpdate", "follow", "logged_events", "public_events",
           "shown_events"]
