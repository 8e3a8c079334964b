"""The arena's own messages around game values: what the referee sends a seat, match
logs, faults and options as ``arena.v1`` messages.

Their scalar fields are serialized by protobuf; game values are the game codec's
bytes (observations, offered actions and events, from the memo of repeated
history, :mod:`arena.wire.memo`), joined as fields.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf.message import DecodeError

from arena.errors import ArenaError, ErrorKind
from arena.games.base import OptionValue
from arena.v1 import arena_pb2 as pb
from arena.wire.codec import CodecError, GameCodec
from arena.wire.memo import delimited, field_key

# The initial metadata an Attend call gets once the arena has accepted the bot's
# token (a refused call ends without it): the SDK knows it is in before any seat.
ATTENDING_MARK = ("arena-attending", "1")

# -- faults ----------------------------------------------------------------------
# A fault's name is its enum name in words: FAULT_ILLEGAL_ACTION is "illegal-action";
# no fault is "". Storage and the SDK speak names, the wire speaks the enum.
FAULT_NUMBERS: dict[str, pb.Fault] = {
    "" if number == pb.FAULT_NONE else name.removeprefix("FAULT_").lower().replace("_", "-"):
    typing.cast(pb.Fault, number) for name, number in pb.Fault.items()
}
FAULT_NAMES: dict[int, str] = {number: name for name, number in FAULT_NUMBERS.items()}


# -- options ---------------------------------------------------------------------
def encode_options(options: dict[str, OptionValue], target: Any) -> None:
    """Fill a ``map<string, OptionValue>`` field from typed options."""
    for key, value in options.items():
        slot = target[key]
        if isinstance(value, bool):
            slot.bool_value = value
        elif isinstance(value, int):
            slot.int_value = value
        else:
            slot.text_value = value


def decode_options(source: Any) -> dict[str, OptionValue]:
    out: dict[str, OptionValue] = {}
    for key, slot in source.items():
        which = slot.WhichOneof("value")
        out[key] = getattr(slot, which) if which else ""
    return out


# -- what the referee sends a seat --------------------------------------------------
def _key(message: type[Any], name: str) -> bytes:
    return field_key(message.DESCRIPTOR.fields_by_name[name].number)


# A message's bytes are the concatenation of its fields' bytes: each message below is
# its scalar fields as protobuf serializes them, then the game values' fields, joined
# from the codec's memo without being parsed back (see arena.wire.memo).
_DECISION = _key(pb.RefereeMessage, "decision")
_OBSERVATION = _key(pb.DecisionRequest, "observation")
_LEGAL_ACTIONS = _key(pb.DecisionRequest, "legal_actions")
_REQUEST_EVENTS = _key(pb.DecisionRequest, "events")
_EVENTS = _key(pb.RefereeMessage, "events")
_EVENTS_EVENTS = _key(pb.Events, "events")
_END = _key(pb.RefereeMessage, "end")
_END_EVENTS = _key(pb.MatchEnd, "events")


def decision_message(codec: GameCodec, decision_id: int, time_left_s: float, observation: Any,
                     legal_actions: Iterable[Any], events: Iterable[Any]) -> bytes:
    """A ``RefereeMessage`` asking for a decision (``time_left_s`` 0: no deadline)."""
    scalars = pb.DecisionRequest(decision_id=decision_id, time_left_s=time_left_s)
    return delimited(_DECISION, scalars.SerializeToString()
                     + delimited(_OBSERVATION, codec.observation_bytes(observation))
                     + codec.action_pieces(_LEGAL_ACTIONS, legal_actions)
                     + codec.event_pieces(_REQUEST_EVENTS, events))


def events_message(codec: GameCodec, events: Iterable[Any]) -> bytes:
    """A ``RefereeMessage`` with events on their own."""
    return delimited(_EVENTS, codec.event_pieces(_EVENTS_EVENTS, events))


def end_message(codec: GameCodec, scores: Sequence[float], ranks: Sequence[int],
                faults: Sequence[str], events: Iterable[Any]) -> bytes:
    """A ``RefereeMessage`` ending the match (faults by name), with the seat's last events."""
    scalars = pb.MatchEnd(scores=scores, ranks=ranks,
                          faults=[FAULT_NUMBERS[fault] for fault in faults])
    return delimited(_END, scalars.SerializeToString() + codec.event_pieces(_END_EVENTS, events))


# -- match logs ------------------------------------------------------------------
LoggedDecision = tuple[int, int, Any, bool, float, str, int]
"""A decision: its id, the seat, the action, whether the fallback chose it, its seconds, the
bot's note on it and the note's bytes that were cut."""
LoggedEvent = tuple[Any, frozenset[int] | None]  # the event, its audience (None: all)


@dataclass(frozen=True, slots=True)
class LoggedFault:
    """A seat's fault as the log keeps it: when it happened (its place among the entries),
    its name (:data:`FAULT_NUMBERS`) and why."""

    seat: int
    fault: str
    reason: str


LogEntry = LoggedDecision | LoggedEvent | LoggedFault
REASON_LENGTH = 500
"""The longest reason a log keeps (a bot's own error message is cut there)."""


def failure_message(error: BaseException) -> str:
    """What a bot says of its own error in an ``arena.v1.Failure``: ``KeyError: '7H'``."""
    text = str(error)
    message = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return message[:REASON_LENGTH]


_LOGGED_ACTION = _key(pb.LoggedDecision, "action")
_LOGGED_EVENT = _key(pb.LoggedEvent, "event")


def match_log(codec: GameCodec, entries: Iterable[LogEntry]) -> bytes:
    """A ``MatchLog``'s bytes from its entries in order: decisions (:data:`LoggedDecision`),
    events (event, audience) and faults."""
    log = pb.MatchLog()
    add = log.entries.add
    actions, events = codec.action_pieces, codec.event_pieces
    for entry in entries:
        if isinstance(entry, LoggedFault):
            fault = add().fault
            fault.seat, fault.fault = entry.seat, FAULT_NUMBERS[entry.fault]
            fault.reason = entry.reason[:REASON_LENGTH]
        elif len(entry) == 7:
            decision = add().decision
            decision.decision_id, decision.seat = entry[0], entry[1]
            decision.MergeFromString(actions(_LOGGED_ACTION, [entry[2]]))
            decision.fallback, decision.seconds = entry[3], entry[4]
            if entry[5] or entry[6]:
                decision.note, decision.note_cut = entry[5], entry[6]
        else:
            logged = add().event
            logged.MergeFromString(events(_LOGGED_EVENT, [entry[0]]))
            audience = entry[1]
            if audience is None:
                logged.public = True
            else:
                logged.visible_to.extend(sorted(audience))
    return log.SerializeToString()


def fault_reasons(data: bytes) -> dict[int, str]:
    """Each faulting seat's reason in a ``MatchLog``'s bytes, without decoding its game
    values; none for bytes that are no ``MatchLog``."""
    try:
        entries = pb.MatchLog.FromString(data).entries
    except DecodeError:
        return {}
    return {e.fault.seat: e.fault.reason for e in entries if e.WhichOneof("entry") == "fault"}


class LogError(ArenaError):
    """Stored bytes that are no match log of the game (a damaged database)."""

    kind = ErrorKind.CONFLICT


def read_match_log(codec: GameCodec, data: bytes) -> list[LogEntry]:
    """The entries of a ``MatchLog``'s bytes, as :func:`match_log` takes them; bytes that are
    none: :class:`LogError`."""
    try:
        return _read_match_log(codec, data)
    except (DecodeError, CodecError) as error:
        raise LogError(f"its log does not read: {error}") from None


@dataclass(frozen=True)
class LoggedChoice:
    """A decision of a match log with its action left encoded: ``action``, its bytes (the
    same action, the same bytes), for comparing what was chosen without decoding the log
    (:func:`decode_choice` decodes one)."""

    seat: int
    action: bytes
    fallback: bool


def read_choices(data: bytes) -> list[LoggedChoice]:
    """The decisions of a ``MatchLog``'s bytes in order, their actions encoded (events and
    faults are skipped, undecoded); bytes that are none: :class:`LogError`."""
    try:
        entries = pb.MatchLog.FromString(data).entries
    except DecodeError as error:
        raise LogError(f"its log does not read: {error}") from None
    return [LoggedChoice(e.decision.seat, e.decision.action.SerializeToString(deterministic=True),
                         e.decision.fallback)
            for e in entries if e.WhichOneof("entry") == "decision"]


def decode_choice(codec: GameCodec, choice: LoggedChoice) -> Any:
    """The action of a :class:`LoggedChoice`, decoded as :func:`read_match_log` would."""
    try:
        return codec.decode_action(pb.GameAction.FromString(choice.action))
    except (DecodeError, CodecError) as error:
        raise LogError(f"its log does not read: {error}") from None


def _read_match_log(codec: GameCodec, data: bytes) -> list[LogEntry]:
    entries: list[LogEntry] = []
    for entry in pb.MatchLog.FromString(data).entries:
        kind = entry.WhichOneof("entry")
        if kind == "decision":
            d = entry.decision
            entries.append((d.decision_id, d.seat, codec.decode_action(d.action), d.fallback,
                            d.seconds, d.note, d.note_cut))
        elif kind == "fault":
            f = entry.fault
            entries.append(LoggedFault(f.seat, FAULT_NAMES.get(f.fault, str(f.fault)), f.reason))
        else:
            e = entry.event
            entries.append((codec.decode_event(e.event),
                            None if e.public else frozenset(e.visible_to)))
    return entries
