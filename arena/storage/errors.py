"""The store's errors, and the checks of a value given to it that say what is wrong in one
line."""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from arena.errors import ArenaError, ErrorKind


class StoreError(ArenaError):
    """A storage operation failed; the message is one line and says why. Unless raised with
    another kind (a name taken, a bad value), the database could not be used."""

    kind = ErrorKind.UNAVAILABLE


class NotFoundError(StoreError):
    """No bot, tournament or match has the id, name or token asked for."""

    kind = ErrorKind.NOT_FOUND


class NotAllowedError(StoreError):
    """The change asked for is not the asker's to make (another author's bot name)."""

    kind = ErrorKind.NOT_ALLOWED


class DatabaseGone(StoreError):
    """The SQLite file this store opened was deleted or replaced: nothing more is written."""


def one_line(error: BaseException) -> str:
    """The first line of what a database error says (its driver's message when it has one)."""
    orig = getattr(error, "orig", None)
    text = str(orig if orig is not None else error).strip()
    return text.splitlines()[0] if text else type(error).__name__


_Choice = TypeVar("_Choice", bound=StrEnum)


def member(enum: type[_Choice], value: _Choice | str, what: str) -> _Choice:
    """``value`` as a member of ``enum`` (a member or its value as a plain string)."""
    try:
        return enum(value)
    except ValueError:
        choices = ", ".join(repr(member.value) for member in enum)
        raise StoreError(f"bad {what} {value!r} (one of {choices})",
                         kind=ErrorKind.BAD_REQUEST) from None


def seed_text(seed: int) -> str:
    """A seed as it is stored (text: a 64-bit unsigned number does not fit every database's
    integer)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= 2**64 - 1:
        raise StoreError(f"a seed must be a whole number from 0 to 2**64 - 1, not {seed!r}",
                         kind=ErrorKind.BAD_REQUEST)
    return str(seed)


__all__ = ["DatabaseGone", "NotAllowedError", "NotFoundError", "StoreError", "member",
           "one_line", "seed_text"]
