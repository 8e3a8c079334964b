"""The referee: runs one match of any game between seats reached over links.

It owns the clocks, the decision ids, the faults and the fallback policy, and
knows no game's rules beyond the engine contract, and deals in typed values only
(:mod:`arena.match.protocol`). A *link* (:mod:`arena.match.links`) is one seat's
two-way channel to its bot: a gRPC stream (``arena.net``) or a Python bot in this
process. Local play, the conformance suite and replays run through this loop too.

A seat that times out, disconnects, crashes, never shows up, answers with an
illegal or malformed action, or reports an error of its own is marked with that
fault, logged with its reason where it happened; from then on the fallback
policy (a random legal action from a generator of the referee's own) plays for
it, and it ranks last in the match.

Events reach each seat in order, only those it may see, each once, and all of
them before it must decide and before the end: a seat's events wait in a queue
and ride on its next :class:`Decision` (or on the :class:`MatchEnd`). Sending every
event batch to every seat at once cost a gRPC write per seat per decision, most
of the referee's time; riding along, a decision costs one write and one read.
So that a seat which is not asked still hears what happens, events that have
waited ``MatchSettings.event_delay_s`` (or piled up to ``MAX_WAITING_EVENTS``)
go out on their own, also while the referee waits on a slow
decision (a timer does it then, without disturbing the wait). Every event is
logged at once, with its audience, whatever its delivery.

A message a bot sends out of turn (stale, duplicate, forged) is read in turn and
rejected; more than ``MAX_REJECTED_IN_TURN`` of them while one decision waits is
a flood, and the seat is hung up on (a disconnect).
"""

from __future__ import annotations

import asyncio
import functools
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from arena.games import get_game
from arena.games.base import Game, OptionValue, Outcome, Situation, Tagged, competition_ranks
from arena.match.faults import Fault
from arena.match.links import Link
from arena.match.protocol import (
    Choice,
    Decision,
    Failed,
    Garbled,
    MatchEnd,
    MatchStart,
    cut_note,
)
from arena.wire.codec import codec_for
from arena.wire.messages import LogEntry, LoggedFault, match_log

MAX_NOTICES = 20  # rejected messages answered with a notice, per seat and match
MAX_WAITING_EVENTS = 256  # a seat's queue this long goes out on its own, whatever its age
MAX_REJECTED_IN_TURN = 256  # messages rejected while one decision waits; more is a flood


@dataclass(frozen=True)
class MatchSettings:
    move_timeout_s: float = 10.0   # per decision; 0 means no deadline
    start_timeout_s: float = 30.0  # for every seat to connect
    time_bank_s: float = 0.0       # per seat and match: extra time for slow decisions
    event_delay_s: float = 0.2     # longest an event waits to ride on a decision request; 0: at once


@dataclass
class MatchReport:
    """What a finished match leaves behind: outcome after faults, faults, the log."""

    game: str
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    faults: tuple[Fault, ...]
    entries: list[LogEntry] = field(repr=False)  # every decision, event and fault
    decisions: int
    rejected_replies: int  # messages read and rejected (what a bot sends after its last turn is not read)
    started_at: float
    duration_s: float
    peers: tuple[str | None, ...] = ()  # per seat, where it was played from (if its link knows)
    reasons: tuple[str, ...] = ()  # per seat, why it faulted ("" for none; also in the log)
    # where the match was played, when an executor plays it elsewhere: the node and where
    # its logs are; None: this machine
    node: str | None = None

    @functools.cached_property
    def log(self) -> bytes:
        """The log as an ``arena.v1.MatchLog``: encoded when first asked for (by whoever
        stores the match, on its own thread), not while the referee plays."""
        return match_log(codec_for(self.game), self.entries)

    def first_to_act(self) -> int | None:
        """The seat that took the match's first decision (None: nobody decided)."""
        return next((entry[1] for entry in self.entries
                     if isinstance(entry, tuple) and len(entry) == 7), None)

    def situations(self) -> list[Situation]:
        """The game's own conditions of the match (:meth:`Game.situations`), from its events."""
        events = [entry[0] for entry in self.entries if isinstance(entry, tuple) and len(entry) == 2]
        return get_game(self.game).situations(events, len(self.scores))


class Watch(Protocol):
    """Sees the engine at every step of a match (the conformance suite checks it so)."""

    def begun(self, state: Any, events: Sequence[Tagged]) -> None: ...

    def deciding(self, state: Any, seat: int, legal: Sequence[Any]) -> None: ...

    def applied(self, state: Any, seat: int, action: Any, events: Sequence[Tagged]) -> None: ...


@dataclass
class _Seat:
    link: Link | None
    bank: float = 0.0  # what is left of the seat's time bank
    fault: Fault = Fault.NONE
    reason: str = ""  # why it faulted, for the log
    rejected: int = 0
    waiting: list[Any] = field(default_factory=list)  # its events, not yet delivered
    waiting_since: float = 0.0  # when the oldest of them happened (monotonic)

    @property
    def playing(self) -> bool:
        return self.link is not None and not self.fault

    def faulted(self, fault: Fault, reason: str) -> None:
        self.fault, self.reason = fault, reason


def ranks_after_faults(outcome: Outcome, faulted: Sequence[bool]) -> tuple[int, ...]:
    """Faulting seats share the last place; the others keep their order ahead of them."""
    if not any(faulted):
        return outcome.ranks
    keys = [(0, 0) if bad else (1, -rank) for rank, bad in zip(outcome.ranks, faulted, strict=True)]
    return competition_ranks(keys)


async def run_match(
    *,
    game_name: str,
    players: int,
    seed: int,
    options: dict[str, OptionValue],
    links: Sequence[Awaitable[Link]],
    settings: MatchSettings,
    match_id: str = "",
    seat_names: Sequence[str] = (),
    is_alive: Callable[[int], Awaitable[bool]] | None = None,
    watch: Watch | None = None,
    journal: list[LogEntry] | None = None,
    ended: Callable[[int], Awaitable[object] | None] | None = None,
) -> MatchReport:
    """Play one match to the end. ``links[s]`` resolves when seat s's bot connects.

    ``is_alive(seat)`` tells whether the process behind a seat still runs, to
    tell a crash from a disconnect; ``ended(seat)``, an awaitable (or None) that resolves
    once the seat's bot can no longer connect (its process ended): a seat not connected by
    then is a no-show at once, not at the start timeout. ``watch`` sees the engine at every step.
    ``journal``: the list the log's entries are appended to as the match is played
    (``MatchReport.entries``; a new one by default), which the caller may read meanwhile
    from the event loop, for a live view: whenever the referee waits, it ends on a whole
    step (a decision with the faults before it and the events after it).
    """
    game = get_game(game_name)
    state = game.new(players, seed, options)
    started_at = time.time()
    clock = time.monotonic()
    fallback = random.Random(f"fallback:{seed}")
    seats = await _connect(links, settings.start_timeout_s, ended)
    log: list[LogEntry] = journal if journal is not None else []  # encoded at the end
    for number, seat in enumerate(seats):
        seat.bank = settings.time_bank_s
        if seat.fault:
            log.append(LoggedFault(number, seat.fault.value, seat.reason))

    await asyncio.gather(*(  # every seat's stream is its own: all at once
        seat.link.start(MatchStart(match_id, game.name, game.version, number, players,
                                   dict(options), tuple(seat_names), settings.move_timeout_s,
                                   settings.time_bank_s))
        for number, seat in enumerate(seats) if seat.link is not None))

    mail = _Mail(seats, log, settings.event_delay_s)
    opening = game.opening_events(state)
    if watch is not None:
        watch.begun(state, opening)
    mail.post(opening)
    decision_id = 0
    while (to_act := game.to_act(state)) is not None:
        if due := mail.take_due(skip=seats[to_act]):  # the seat to act gets its own with the request
            await _deliver(due)
        legal = list(game.legal_actions(state))
        if watch is not None:
            watch.deciding(state, to_act, legal)
        seat = seats[to_act]
        asked_at = time.monotonic()
        answer: Answer | None = None
        if seat.playing:
            decision_id += 1
            answer = await _ask(seat, decision_id, game.observe(state, to_act), legal,
                                settings.move_timeout_s, mail)
            if settings.move_timeout_s > 0:  # time beyond the move's own comes from the bank
                over = time.monotonic() - asked_at - settings.move_timeout_s
                seat.bank = max(0.0, seat.bank - max(0.0, over))
            if seat.fault == Fault.DISCONNECTED and is_alive is not None \
                    and not await is_alive(to_act):
                seat.faulted(Fault.CRASHED, "its process died")
            if seat.fault:
                log.append(LoggedFault(to_act, seat.fault.value, seat.reason))
        used_fallback = answer is None
        action, note = (fallback.choice(legal), "") if answer is None else answer
        events = game.apply(state, action)
        if watch is not None:
            watch.applied(state, to_act, action, events)
        kept, cut = cut_note(note) if note else ("", 0)
        log.append((0 if used_fallback else decision_id, to_act, action, used_fallback,
                    time.monotonic() - asked_at, kept, cut))
        mail.post(events)

    return await _finish(game, state, seats, log, decision_id, started_at, clock)


async def _finish(game: Game[Any, Any, Any], state: Any, seats: list[_Seat],
                  log: list[LogEntry], decisions: int, started_at: float,
                  clock: float) -> MatchReport:
    """Tell every seat the outcome (after its last events), end the streams, and report."""
    outcome = game.outcome(state)
    assert outcome is not None
    faults = tuple(s.fault for s in seats)
    reasons = tuple(s.reason if s.fault else "" for s in seats)
    ranks = ranks_after_faults(outcome, [bool(f) for f in faults])
    await asyncio.gather(*(_dismiss(seat, MatchEnd(outcome.scores, ranks, faults, seat.waiting))
                           for seat in seats if seat.link is not None))
    return MatchReport(
        game=game.name,
        scores=outcome.scores,
        ranks=ranks,
        faults=faults,
        reasons=reasons,
        entries=log,
        decisions=decisions,
        rejected_replies=sum(s.rejected for s in seats),
        started_at=started_at,
        duration_s=time.monotonic() - clock,
    )


async def _dismiss(seat: _Seat, end: MatchEnd) -> None:
    """Tell a seat the outcome (after its last events) and end its stream."""
    assert seat.link is not None
    if seat.playing:
        await seat.link.end(end)
    await seat.link.close()


async def _connect(links: Sequence[Awaitable[Link]], timeout: float,
                   ended: Callable[[int], Awaitable[object] | None] | None) -> list[_Seat]:
    """Wait (together, up to ``timeout``) for every seat's bot to connect; a seat whose bot
    is gone (``ended``) is waited for no longer."""
    claims = [asyncio.ensure_future(_claimed(link, seat, ended)) for seat, link in enumerate(links)]
    try:
        if claims:
            await asyncio.wait(claims, timeout=timeout or None)
    finally:  # nothing is left waiting: not after the timeout, nor when the match is cancelled
        for claim in claims:
            claim.cancel()
    seats = []
    for claim in claims:
        answered = claim.done() and not claim.cancelled() and claim.exception() is None
        link = claim.result() if answered else None
        if link is not None:
            seats.append(_Seat(link))
        else:
            seats.append(_Seat(None, fault=Fault.NO_SHOW,
                               reason="its process ended before it connected" if answered
                               else f"did not connect within {timeout:g} s"))
    return seats


async def _claimed(link: Awaitable[Link], seat: int,
                   ended: Callable[[int], Awaitable[object] | None] | None) -> Link | None:
    """``link`` once its bot connects, or None if the bot's ``ended`` comes first."""
    gone = None if ended is None else ended(seat)
    if gone is None:
        return await link
    claim, end = asyncio.ensure_future(link), asyncio.ensure_future(gone)
    try:
        await asyncio.wait((claim, end), return_when=asyncio.FIRST_COMPLETED)
    finally:  # also when the wait is cancelled
        end.cancel()
        if not claim.done():
            claim.cancel()
    return None if claim.cancelled() else claim.result()


Answer = tuple[Any, str]
"""A seat's answer taken: the action, and the bot's note on it as sent."""


async def _ask(seat: _Seat, decision_id: int, observation: Any, legal: list[Any],
               timeout_s: float, mail: _Mail) -> Answer | None:
    """Ask a seat for a decision; its :data:`Answer`, or ``None`` with the seat's fault set.

    The request carries the seat's waiting events. While the bot thinks, the
    other seats' events go out as they fall due (see :class:`_Mail`).
    """
    assert seat.link is not None
    if timeout_s > 0:
        timeout_s += seat.bank
    waiting, seat.waiting = seat.waiting, []
    await seat.link.decide(Decision(decision_id, timeout_s, observation, legal, waiting))
    deadline = time.monotonic() + timeout_s if timeout_s > 0 else None
    mail.waiting_on(seat)
    try:
        return await _answer(seat, decision_id, legal, deadline)
    finally:
        if (sending := mail.done_waiting()) is not None:
            await sending


async def _answer(seat: _Seat, decision_id: int, legal: list[Any],
                  deadline: float | None) -> Answer | None:
    """The seat's answer to the decision (rejecting whatever else it sent meanwhile)."""
    assert seat.link is not None
    rejected = 0
    while True:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            reply = await seat.link.receive(wait)
        except TimeoutError:
            seat.faulted(Fault.TIMEOUT, f"no answer to decision {decision_id} in time")
            return None
        if reply is None:
            seat.faulted(Fault.DISCONNECTED, "its stream closed")
            return None
        if type(reply) is Choice and reply.decision_id == decision_id:
            if reply.index is not None:
                if reply.index < len(legal):
                    return legal[reply.index], reply.note
                seat.faulted(Fault.ILLEGAL_ACTION,
                             f"chose index {reply.index} of {len(legal)} legal actions")
            elif reply.unreadable:
                seat.faulted(Fault.MALFORMED, "answered something that is no action of this game")
            elif reply.action in legal:
                return reply.action, reply.note
            else:
                seat.faulted(Fault.ILLEGAL_ACTION, "chose an action that is not legal now")
            return None
        if isinstance(reply, Failed):  # the bot gives up: its own error
            seat.faulted(Fault.ERROR, reply.message)
            await seat.link.close()
            return None
        if isinstance(reply, Garbled):
            seat.faulted(Fault.MALFORMED, "sent bytes that are no message of the protocol")
            return None
        if rejected == MAX_REJECTED_IN_TURN:  # a flood: read no further
            seat.faulted(Fault.DISCONNECTED,
                         f"sent more than {MAX_REJECTED_IN_TURN} messages that were no answer")
            await seat.link.close()
            return None
        rejected += 1
        seat.rejected += 1
        if seat.rejected <= MAX_NOTICES:  # a bot cannot make the referee write without end
            about = reply.decision_id if isinstance(reply, Choice) else 0
            await seat.link.notice(f"rejected: expected a choice for decision {decision_id}", about)


async def _deliver(due: Sequence[tuple[Link, list[Any]]]) -> None:
    """Send events on their own (each seat's stream is written by one task at a time)."""
    for link, events in due:
        await link.events(events)


class _Mail:
    """Each seat's events on their way: logged at once, delivered by the rule in the module doc.

    While the referee waits on one seat's decision, a timer sends the other
    seats' events as they fall due (in a task of its own, joined before the
    referee writes again, so that no stream has two writers).
    """

    def __init__(self, seats: Sequence[_Seat], log: list[LogEntry],
                 delay_s: float) -> None:
        self.seats = seats
        self.log = log
        self.delay_s = delay_s
        self._asked: _Seat | None = None  # the seat whose decision the referee waits on
        self._timer: asyncio.TimerHandle | None = None
        self._sending: asyncio.Task[None] | None = None

    def post(self, events: Sequence[Tagged]) -> None:
        """Log every event with its audience and queue it for each playing seat that may see it."""
        if not events:
            return
        now = time.monotonic()
        playing = [(number, seat) for number, seat in enumerate(self.seats) if seat.playing]
        for tagged in events:
            event = tagged.event
            audience = tagged.visible_to
            self.log.append((event, audience))
            for number, seat in playing:
                if audience is None or number in audience:
                    if not seat.waiting:
                        seat.waiting_since = now
                    seat.waiting.append(event)

    def due_in(self, now: float) -> float | None:
        """Seconds until some seat's waiting events fall due (``None``: no seat has any)."""
        oldest = min((s.waiting_since for s in self.seats if s.waiting and s.playing), default=None)
        return None if oldest is None else oldest + self.delay_s - now

    def take_due(self, skip: _Seat | None = None) -> list[tuple[Link, list[Any]]]:
        """The events that waited long enough or piled up (not ``skip``'s), taken from their
        queues to be sent on their own, with the link of each seat they go to."""
        now = time.monotonic()
        due = []
        for seat in self.seats:
            if not seat.waiting or seat is skip or seat.link is None:
                continue
            if not seat.playing:
                seat.waiting = []  # a faulted seat is no longer told anything
            elif seat.waiting_since + self.delay_s <= now or len(seat.waiting) >= MAX_WAITING_EVENTS:
                due.append((seat.link, seat.waiting))
                seat.waiting = []
        return due

    # -- while the referee waits on a decision ---------------------------------------
    def waiting_on(self, seat: _Seat) -> None:
        self._asked = seat
        self._arm()

    def done_waiting(self) -> asyncio.Task[None] | None:
        """The wait is over; the timer's sending still under way, if any (to be awaited)."""
        self._asked = None
        return self._sending

    def _arm(self) -> None:
        if self._timer is not None or self._sending is not None:
            return
        due = self.due_in(time.monotonic())
        if due is not None:
            self._timer = asyncio.get_running_loop().call_later(max(0.0, due), self._ring)

    def _ring(self) -> None:
        self._timer = None
        if self._asked is None:
            return  # the referee is busy: it sends what is due before its next wait
        due = self.due_in(time.monotonic())
        if due is not None and due > 0:
            self._arm()  # the queues moved on since the timer was set
        elif due is not None:
            self._sending = asyncio.ensure_future(_deliver(self.take_due(skip=self._asked)))
            self._sending.add_done_callback(self._sent)

    def _sent(self, _: asyncio.Task[None]) -> None:
        self._sending = None
        if self._asked is not None:
            self._arm()
