"""How a seat can fail in a match: the referee records one fault per seat at most."""

from __future__ import annotations

from enum import StrEnum


class Fault(StrEnum):
    """A seat's fault. The value is the name storage and the SDK speak ("" for none);
    the wire's ``arena.v1.Fault`` enum has one member per value (``FAULT_ILLEGAL_ACTION``
    is "illegal-action")."""

    NONE = ""
    TIMEOUT = "timeout"            # no valid answer before the move deadline (and time bank)
    DISCONNECTED = "disconnected"  # the seat's stream closed mid-match
    CRASHED = "crashed"            # the bot's process died
    ILLEGAL_ACTION = "illegal-action"  # answered an action that is not legal now
    MALFORMED = "malformed"        # answered something that is not an action of this game
    NO_SHOW = "no-show"            # never connected before the start deadline
    ERROR = "error"                # the bot reported an exception of its own (message in the log)
