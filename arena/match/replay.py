"""Stored match logs: read them, show them from any seat's view, replay them.

A log (``arena.v1.MatchLog``) holds every decision and every event with the
seats allowed to see it. With the match's game, options and seed it replays
through the engine to the very same events, which :func:`replay` checks.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any

from arena.games import get_game
from arena.games.base import OptionValue
from arena.v1 import arena_pb2 as pb
from arena.wire.codec import codec_for


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
    codec = codec_for(game_name)
    lines = []
    for entry in pb.MatchLog.FromString(data).entries:
        if entry.WhichOneof("entry") == "decision":
            d = entry.decision
            lines.append(LogLine("decision", codec.decode_action(d.action), d.seat, d.fallback))
        else:
            e = entry.event
            audience = None if e.public else frozenset(e.visible_to)
            lines.append(LogLine("event", codec.decode_event(e.event), audience=audience))
    return lines


def view(lines: list[LogLine], seat: int | None) -> list[LogLine]:
    return [line for line in lines if line.visible(seat)]


def replay(game_name: str, players: int, seed: int, options: dict[str, OptionValue],
           lines: list[LogLine]) -> bool:
    """Re-play the logged decisions through the engine; True if every event is reproduced."""
    game = get_game(game_name)
    state = game.new(players, seed, options)
    expected = [(line.value, line.audience) for line in lines if line.kind == "event"]
    produced = [(t.event, t.visible_to) for t in game.opening_events(state)]
    for line in lines:
        if line.kind == "decision":
            produced.extend((t.event, t.visible_to) for t in game.apply(state, line.value))
    return produced == expected and game.is_over(state)


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
