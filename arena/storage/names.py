"""Bot names that cannot be squatted: the fold that says when two names read alike, and the
names kept for the bundled bots.

A bot's name belongs to whoever registered it first (an author's submission, or the
operator's ``arena bot add``), and the store refuses a *new* name that reads like a name
someone else has: ``kiII-bot``, ``kill_bot``, ``Kill-Bot.`` and ``killbot`` are all
``kill-bot`` to a reader, so they are all the owner of ``kill-bot``'s to take. Whether two
names read alike is decided by :func:`fold` alone; :func:`fold_sql` is the same fold as a
SQL expression (built from the same table, so the two cannot drift apart), to find the
look-alikes of a name in the database without reading every name.

The bundled bots' names (:data:`RESERVED`) are the operator's to register, never an
author's: an author cannot submit under them or under anything that folds like them.
"""

from __future__ import annotations

import functools

import sqlalchemy as sa
from sqlalchemy.orm import Mapped

from arena.games import all_games

_FOLDS: tuple[tuple[str, str], ...] = (
    ("-", ""), ("_", ""), (".", ""),  # separators, wherever they are, do not tell names apart
    ("i", "l"), ("1", "l"),  # I, l, 1 (and i, as I lower-cased) look alike
    ("0", "o"),  # O and 0 look alike
)
"""The fold after lower-casing, in order: each (character, what it becomes)."""


def fold(name: str) -> str:
    """The form of a bot name that look-alikes share: two names are the same name to a
    reader, and so to ownership, when their folds are equal.

    The rule: letters lower-cased; the separators ``-``, ``_`` and ``.`` left out wherever
    they stand (inside, leading or trailing); ``I``, ``i``, ``l`` and ``1`` all become
    ``l``; ``O`` and ``0`` become ``o``. (Names hold only ASCII letters, digits and those
    separators, see ``BOT_NAME``, so no other look-alike can be written.) A name of
    separators alone folds to ``""``: it is no name to own."""
    folded = name.lower()
    for old, new in _FOLDS:
        folded = folded.replace(old, new)
    return folded


def fold_sql(column: sa.ColumnElement[str] | Mapped[str]) -> sa.ColumnElement[str]:
    """:func:`fold` of ``column`` in SQL (``lower`` and ``replace``, on SQLite and
    PostgreSQL alike), from the same table of replacements."""
    return functools.reduce(lambda expr, pair: sa.func.replace(expr, *pair), _FOLDS,
                            sa.func.lower(column))


def bundled_names() -> tuple[str, ...]:
    """The names the bundled bots are registered under (``arena demo``, the README):
    ``random``, and ``GAME-bot`` for every game."""
    return ("random", *(f"{game}-bot" for game in all_games()))


RESERVED: frozenset[str] = frozenset(fold(name) for name in bundled_names())
"""The folds of the bundled bots' names: no author may own a name that folds to one."""


def reserved(name: str) -> str | None:
    """The bundled bot's name that ``name`` reads like, or None."""
    folded = fold(name)
    if folded not in RESERVED:
        return None
    return next(n for n in bundled_names() if fold(n) == folded)


__all__ = ["RESERVED", "bundled_names", "fold", "fold_sql", "reserved"]
