"""The arena's one error base and the one rule turning an error into an answer.

Every domain error (an unknown game, a bad option, an unknown bot, a name taken, a database
that cannot be used, ...) is an :class:`ArenaError` with a :class:`ErrorKind`; its message
is one line that says what was wrong. Each front end answers a kind the same way, from the
one table here: the command line's exit code, the operator service's gRPC status (by name:
gRPC is not imported below ``arena.service``) and the web's HTTP status.

This module is the lowest layer of ``arena`` (below ``games``, which defines domain errors
of its own): every layer may import it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


@dataclass(frozen=True)
class Answer:
    """How every front end answers one kind of error."""

    exit_code: int
    grpc_status: str
    """The name of a ``grpc.StatusCode`` member."""
    http_status: int


class ErrorKind(enum.Enum):
    """What kind of refusal an error is; :attr:`answer` says how each front end reports it."""

    BAD_REQUEST = Answer(1, "INVALID_ARGUMENT", 400)
    """The request itself is wrong: a bad value, option, name or file."""
    NOT_FOUND = Answer(1, "NOT_FOUND", 404)
    """No game, bot, tournament, match or pool has the name or id asked for."""
    NOT_ALLOWED = Answer(1, "PERMISSION_DENIED", 403)
    """Not the asker's to see or do (another author's bot, a secret view)."""
    CONFLICT = Answer(1, "FAILED_PRECONDITION", 409)
    """Right in itself, but not in the state things are in (a name taken, a tournament
    running)."""
    BUSY = Answer(1, "RESOURCE_EXHAUSTED", 429)
    """A cap is reached (uploads, builds, watches, an archive's size): try again later or
    with less."""
    UNAVAILABLE = Answer(1, "UNAVAILABLE", 503)
    """The database (or the server) cannot be used."""

    @property
    def answer(self) -> Answer:
        value: Answer = self.value
        return value

    @property
    def exit_code(self) -> int:
        return self.answer.exit_code

    @property
    def grpc_status(self) -> str:
        return self.answer.grpc_status

    @property
    def http_status(self) -> int:
        return self.answer.http_status


class ArenaError(Exception):
    """A domain error: one line, and its :class:`ErrorKind`. A subclass sets its usual kind
    (``kind = ErrorKind.NOT_FOUND``); one raise may say another (``kind=`` when raised)."""

    kind: ErrorKind = ErrorKind.BAD_REQUEST

    def __init__(self, message: str = "", *, kind: ErrorKind | None = None) -> None:
        super().__init__(message)
        if kind is not None:
            self.kind = kind


def kind_of_status(name: str) -> ErrorKind | None:
    """The kind whose gRPC status is called ``name`` (for a client reading a refusal)."""
    for kind in ErrorKind:
        if kind.grpc_status == name:
            return kind
    return None


__all__ = ["Answer", "ArenaError", "ErrorKind", "kind_of_status"]
