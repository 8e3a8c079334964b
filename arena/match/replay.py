"""Stored match logs: read them, show them from any seat's view, replay them.

A log (``arena.v1.MatchLog``) holds every decision and every event with the
seats allowed to see it. With the match's game, options and seed it replays
through the referee to the very same decisions and events, which :func:`replay` checks.
:func:`steps` walks the engine through a log (whole, or a running match's so far) one
decision at a time, for viewers that show the table at every step.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Container, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from arena.games import get_game
from arena.games.base import GameError, OptionValue, Tagged
from arena.match.links import LocalLink, Player
from arena.match.referee import MatchReport, MatchSettings, run_match
from arena.wire.codec import codec_for
from arena.wire.messages import LogEntry, LoggedFault, read_match_log


@dataclass(frozen=True)
class LogLine:
    """One decision, event or fault of a match log, decoded."""

    kind: str                          # "decision", "event" or "fault"
    value: Any                         # the action, the event, or the fault (LoggedFault)
    seat: int | None = None            # the deciding or faulting seat
    fallback: bool = False             # chosen by the fallback policy (decisions)
    audience: frozenset[int] | None = None  # events: who may see it (None: everyone)
    seconds: float = field(default=0.0, compare=False)  # decisions: from the request to the answer
    note: str = field(default="", compare=False)  # decisions: the bot's note on its answer
    note_cut: int = field(default=0, compare=False)  # the bytes of it that were cut

    def visible(self, seat: int | None) -> bool:
        """Whether this line belongs to ``seat``'s view (``None``: the full record). A fault
        belongs to its seat's view only: a bot's own error message may name its cards."""
        if seat is None:
            return True
        if self.kind != "event":
            return self.seat == seat
        return self.audience is None or seat in self.audience


def _line(entry: LogEntry) -> LogLine:
    if isinstance(entry, LoggedFault):
        return LogLine("fault", entry, entry.seat)
    if len(entry) == 7:
        return LogLine("decision", entry[2], entry[1], entry[3], seconds=entry[4], note=entry[5],
                       note_cut=entry[6])
    return LogLine("event", entry[0], audience=entry[1])


def read_log(game_name: str, data: bytes) -> list[LogLine]:
    return [_line(entry) for entry in read_match_log(codec_for(game_name), data)]


def view(lines: list[LogLine], seat: int | None) -> list[LogLine]:
    return [line for line in lines if line.visible(seat)]


def replay(game_name: str, players: int, seed: int, options: dict[str, OptionValue],
           lines: list[LogLine]) -> bool:
    """Play the logged decisions again through the referee; True if every decision and
    every event (with its audience) comes out as logged. (Faults are not compared: a seat
    that faulted gives up here instead, for a reason of the replay's own.)

    Each seat answers with its logged actions in turn. A seat whose next logged
    decision was the fallback policy's (it had faulted) answers with no legal
    action instead, so it faults at the same moment and the referee's fallback
    generator, seeded as before, plays its seat from there.
    """
    game = get_game(game_name)
    scripts: list[list[LogLine]] = [[] for _ in range(players)]
    for line in lines:
        if line.kind == "decision" and line.seat is not None and 0 <= line.seat < players:
            scripts[line.seat].append(line)
    links = [LocalLink(_Script(script), threaded=False) for script in scripts]

    async def ready(link: LocalLink) -> LocalLink:
        return link

    async def play() -> MatchReport:
        return await run_match(game_name=game.name, players=players, seed=seed,
                               options=dict(options), links=[ready(link) for link in links],
                               settings=_UNTIMED)

    try:
        report = asyncio.run(play())
    except GameError:
        return False
    return _played(read_log(game.name, report.log)) == _played(lines)


def _played(lines: list[LogLine]) -> list[LogLine]:
    return [line for line in lines if line.kind != "fault"]


class ReplayError(GameError):
    """A log that does not replay: an action the engine refuses, or events other than logged."""


@dataclass
class Step:
    """One step of a match walked by :func:`steps`: the opening (``decision`` None) or one
    decision, and what the log has after it, with the engine's ``state`` just after it.

    ``state`` is the engine's own, changed in place by the next step: read it before asking
    for the next one."""

    index: int  # 0 for the opening, then one per decision
    state: Any
    decision: LogLine | None = None
    seat: int | None = None  # the seat that decided
    legal: Sequence[Any] = ()  # the actions it was offered, the choice among them
    events: list[LogLine] = field(default_factory=list)  # the events it caused, as logged
    faults: list[LogLine] = field(default_factory=list)  # faults logged before the decision


def steps(game_name: str, players: int, seed: int, options: dict[str, OptionValue],
          lines: Sequence[LogLine], offered: Container[int] | None = None) -> Iterator[Step]:
    """Walk the engine through a log (a finished match's, or a running match's so far): the
    match dealt from ``seed`` as the referee dealt it, then every logged decision applied
    in turn, each checked against the log (the seat to act, the action legal, the events
    and their audiences as logged); a :class:`ReplayError` where they differ. Faults logged
    after the last decision (a running match's log may end there) ride on the last step;
    a log with no event yet (a match still starting) gives no step. ``offered``: the seats
    whose decisions come with their legal actions (``Step.legal``; default: every seat)."""
    game = get_game(game_name)
    state = game.new(players, seed, options)
    opening = [_logged(t) for t in game.opening_events(state)]
    at = 0
    current = Step(0, state)
    while at < len(lines) and lines[at].kind != "decision":
        (current.events if lines[at].kind == "event" else current.faults).append(lines[at])
        at += 1
    if at == len(lines) and not current.events:
        return  # a running match's log before its opening: nothing to show yet
    _same(current.events, opening, "the opening")
    number = 0
    while at < len(lines):
        faults: list[LogLine] = []
        while at < len(lines) and lines[at].kind == "fault":
            faults.append(lines[at])
            at += 1
        if at == len(lines):
            current.faults.extend(faults)
            break
        yield current
        line = lines[at]
        at += 1
        number += 1
        seat = game.to_act(state)
        if line.kind != "decision" or seat != line.seat:
            raise ReplayError(f"decision {number} of the log is seat {line.seat}'s, but seat "
                              f"{seat} is to act")
        legal = list(game.legal_actions(state)) if offered is None or seat in offered else []
        try:
            caused = [_logged(t) for t in game.apply(state, line.value)]
        except GameError as error:
            raise ReplayError(f"decision {number} of the log does not replay: {error}") from None
        current = Step(number, state, line, seat, legal, faults=faults)
        while at < len(lines) and lines[at].kind == "event":
            current.events.append(lines[at])
            at += 1
        _same(current.events, caused, f"decision {number}")
    yield current


def _logged(tagged: Tagged) -> LogLine:
    return LogLine("event", tagged.event, audience=tagged.visible_to)


def _same(logged: list[LogLine], caused: list[LogLine], where: str) -> None:
    if logged != caused:
        raise ReplayError(f"the events of {where} are not those the log has")


_UNTIMED = MatchSettings(move_timeout_s=0.0, start_timeout_s=0.0, event_delay_s=3600.0)


class _Script(Player):
    """A seat that plays its logged actions, then gives up where the log has it fault."""

    def __init__(self, script: list[LogLine]) -> None:
        self.script = iter(script)

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        line = next(self.script, None)
        return _GIVE_UP if line is None or line.fallback else line.value


_GIVE_UP = object()  # no action of any game: the referee takes it for an illegal answer


def describe(value: Any) -> str:
    """A compact human form: ``Drew(seat=1, card=7H, face_up_total=7)``."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if hasattr(value, "code"):
            return str(value.code)
        parts = [f"{f.name}={describe(getattr(value, f.name))}" for f in dataclasses.fields(value)]
        return f"{type(value).__name__}({', '.join(parts)})"
    if isinstance(value, Enum):
        return value.name.lower()
    if isinstance(value, (tuple, list)):
        return "[" + " ".join(describe(v) for v in value) + "]"
    if isinstance(value, frozenset):
        return "{" + " ".join(describe(v) for v in sorted(value)) + "}"
    return str(value)
