"""What the referee and a seat say to each other, as typed values.

The referee sends a :class:`MatchStart`, then a :class:`Decision` whenever the
seat must act (with the events it may see since its last delivery), events on
their own (:class:`Events`) when they have waited long enough, a
:class:`Notice` when it rejects a message, and the :class:`MatchEnd`. The seat
answers each decision with a :class:`Choice`. A link (``arena.match.links``)
carries these values to the seat's bot: over gRPC (``arena.net`` encodes them as
``arena.v1`` messages) or in-process to a Python bot. Observations, actions and
events are the game's own typed values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.games.base import OptionValue
from arena.match.faults import Fault

NOTE_BYTES = 256
"""The most of a note on an answer that is kept, in bytes of UTF-8."""


def cut_note(note: str) -> tuple[str, int]:
    """A bot's note as the log keeps it: its first :data:`NOTE_BYTES` bytes of UTF-8 (never
    half a character), and how many bytes were cut. A note is never a fault."""
    data = note.encode("utf-8", "replace")  # a surrogate from an in-process bot: "?"
    if len(data) <= NOTE_BYTES:
        return data.decode("utf-8"), 0
    kept = data[:NOTE_BYTES].decode("utf-8", "ignore")
    return kept, len(data) - len(kept.encode("utf-8"))


@dataclass(frozen=True, slots=True)
class MatchStart:
    match_id: str
    game: str
    game_version: int
    seat: int
    players: int
    options: Mapping[str, OptionValue]
    seat_names: tuple[str, ...]
    move_timeout_s: float
    time_bank_s: float


@dataclass(slots=True)  # made at every decision: not frozen, which costs 0.4 us more each
class Decision:
    """The seat must act: answer with a :class:`Choice` naming ``decision_id``.

    ``time_left_s`` is the move's time plus what is left of the seat's bank (0:
    no deadline); ``events`` are the seat's events since its last delivery, which
    come first.
    """

    decision_id: int
    time_left_s: float
    observation: Any
    legal_actions: Sequence[Any]
    events: Sequence[Any]


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """The outcome after faults, for every seat, with this seat's last events."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    faults: tuple[Fault, ...]
    events: Sequence[Any] = ()


@dataclass(slots=True)  # read at every decision: not frozen, as Decision
class Choice:
    """A seat's answer to decision ``decision_id``: the index of a legal action, or an
    action named in full. ``unreadable``: it named neither, or something that is no
    action of this game."""

    decision_id: int
    index: int | None = None
    action: Any = None
    unreadable: bool = False
    note: str = ""  # the bot's note on its answer, as sent (:func:`cut_note` cuts it)


@dataclass(frozen=True, slots=True)
class OtherMessage:
    """Anything a seat sent that is no choice (a second hello, say)."""

    kind: str


@dataclass(frozen=True, slots=True)
class Garbled:
    """Bytes that are no message of the protocol at all."""


@dataclass(frozen=True, slots=True)
class Failed:
    """The bot gives up its seat because of an error of its own (``arena.v1.Failure``)."""

    message: str


Reply = Choice | OtherMessage | Garbled | Failed
