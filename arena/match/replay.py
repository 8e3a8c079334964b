"""Stored match logs: read them, show them from any seat's view, replay them.

A log (``arena.v1.MatchLog``) holds every decision and every event with the
seats allowed to see it. With the match's game, options and seed it replays
through the referee to the very same decisions and events, which :func:`replay` checks.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from arena.games import get_game
from arena.games.base import GameError, OptionValue
from arena.match.links import LocalLink, Player
from arena.match.referee import MatchReport, MatchSettings, run_match
from arena.wire.codec import codec_for
from arena.wire.messages import read_match_log


@dataclass(frozen=True)
class LogLine:
    """One decision or event of a match log, decoded."""

    kind: str                          # "decision" or "event"
    value: Any                         # the action or the event
    seat: int | None = None            # the deciding seat (decisions)
    fallback: bool = False             # chosen by the fallback policy (decisions)
    audience: frozenset[int] | None = None  # events: who may see it (None: everyone)

    def visible(self, seat: int | None) -> bool:
        """Whether this line belongs to ``seat``'s view (``None``: the full record)."""
        if seat is None:
            return True
        if self.kind == "decision":
            return self.seat == seat
        return self.audience is None or seat in self.audience


def read_log(game_name: str, data: bytes) -> list[LogLine]:
    return [LogLine("decision", e[2], e[1], e[3]) if len(e) == 5
            else LogLine("event", e[0], audience=e[1])
            for e in read_match_log(codec_for(game_name), data)]


def view(lines: list[LogLine], seat: int | None) -> list[LogLine]:
    return [line for line in lines if line.visible(seat)]


def replay(game_name: str, players: int, seed: int, options: dict[str, OptionValue],
           lines: list[LogLine]) -> bool:
    """Play the logged decisions again through the referee; True if every decision and
    every event (with its audience) comes out as logged.

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
    return read_log(game.name, report.log) == lines


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
