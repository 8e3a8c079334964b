"""Bot names that cannot be squatted: the fold that says when two names read alike, and the
names kept for the bundled bots.

A bot's name belongs to whoever registered it first (an author's submission, or the
operator's ``arena bot add``), and the store refuses a *new* name that reads like a name
someone else has: ``kiII-bot``, ``kill_bot``, ``Kill-Bot.`` and ``killbot`` are all
``kill-bot`` to a reader, so they are all the owner of ``kill-bot``'s to take. Whether two
names read alike is decided by :func:`fold` alone; :func:`fold_sql` is the same fold as a
SQL expression (built from the same table, so the two cannot drift apart), to find the
look-alikes of a name in the database without reading every name.

The bundled bots' names (:func:`reserved_folds`) are the operator's to register, never an
author's: an author cannot submit under them or under anything that folds like them.

:func:`claim` is the rule as the store applies it, in the transaction that writes the
version; :func:`check_unambiguous` keeps a bare ``NAME`` from picking another owner's
version than the asker means. What a name may hold at all is :data:`BOT_NAME`.
"""

from __future__ import annotations

import functools
import re

import sqlalchemy as sa
from sqlalchemy.orm import Mapped
from sqlmodel import Session, col

from arena.errors import ErrorKind
from arena.games import all_games
from arena.storage.errors import NotAllowedError, StoreError
from arena.storage.tables import Author, Bot

BOT_NAME = re.compile(r"[A-Za-z0-9._-]{1,64}")
"""What a bot's name and version may be: letters, digits, ``.``, ``_`` and ``-``, 1 to 64 of
them (they name log files and appear in every table, so nothing else is let in)."""


def check_bot_name(text: str, what: str = "bot name") -> None:
    """A :class:`StoreError` unless ``text`` matches :data:`BOT_NAME`."""
    if BOT_NAME.fullmatch(text) is None:
        shown = repr(text[:40]) + (f"... ({len(text)} characters)" if len(text) > 40 else "")
        raise StoreError(f"bad {what} {shown}: use 1 to 64 letters, digits, '.', '_' or '-'",
                         kind=ErrorKind.BAD_REQUEST)

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


RANDOM_BOT, SEARCH_BOT = "random", "search"
"""The bundled bots that play every game: their names."""


def heuristic_bot(game: str) -> str:
    """The name of ``game``'s bundled heuristic bot."""
    return f"{game}-bot"


def bundled_names() -> tuple[str, ...]:
    """The names the bundled bots are registered under (``arena demo``, the README):
    ``random``, ``search``, and ``GAME-bot`` for every game."""
    return (RANDOM_BOT, SEARCH_BOT, *(heuristic_bot(game) for game in all_games()))


@functools.cache
def reserved_folds() -> frozenset[str]:
    """The folds of the bundled bots' names: no author may own a name that folds to one
    (worked out when first asked: it reads every game)."""
    return frozenset(fold(name) for name in bundled_names())


def reserved(name: str) -> str | None:
    """The bundled bot's name that ``name`` reads like, or None."""
    folded = fold(name)
    if folded not in reserved_folds():
        return None
    return next(n for n in bundled_names() if fold(n) == folded)


# ---------------------------------------------------------------- the rule, in the database


def look_alikes(s: Session, name: str) -> list[tuple[str, int | None]]:
    """Every version's (name, owner) among the registered names that fold like ``name``
    (itself included), oldest first; the owner is the version's author, None the
    operator."""
    return [(str(other), None if author_id is None else int(author_id))
            for other, author_id in s.execute(
                sa.select(col(Bot.name), col(Bot.author_id))
                .where(fold_sql(col(Bot.name)) == fold(name)).order_by(col(Bot.id)))]


def _owner_text(s: Session, owner: int | None) -> str:
    """``the operator`` or ``author NAME``, as messages say it."""
    if owner is None:
        return "the operator"
    author = s.get(Author, owner)
    return f"author {author.name}" if author is not None else "another author"


def _owns(s: Session, owner: int | None) -> str:
    """``is the operator's`` or ``belongs to author NAME``, as messages say it."""
    return "is the operator's" if owner is None else f"belongs to {_owner_text(s, owner)}"


def claim(s: Session, name: str, author_id: int | None, *, adding: bool) -> int | None:
    """Whether ``author_id`` (None: the operator) may register a version under ``name``,
    and the author that version belongs to; a :class:`NotAllowedError` (one line) if not.

    A name belongs to whoever registered its first version. An existing name takes
    versions from its owner only, except that the operator may submit a version of an
    author's bot (it stays the author's) but not ``arena bot add`` one (``adding``): that
    would make the operator's bot a version of the author's. A new name is refused when it
    reads like (folds as) a name someone else owns; an author may never take a bundled
    bot's name or a look-alike of it, the operator registers those freely."""
    if not fold(name):
        raise StoreError(f"bad bot name {name!r}: it needs a letter or a digit",
                         kind=ErrorKind.BAD_REQUEST)
    if author_id is not None and (kept := reserved(name)) is not None:
        like = "" if kept == name else f" (it reads like {kept})"
        raise NotAllowedError(f"the bot name {name} is kept for the bundled bots{like}: "
                              "submit under another name")
    owners: dict[str, int | None] = {}
    for other, owner in look_alikes(s, name):
        owners.setdefault(other, owner)  # a name's owner: its first version's
    what = "submit" if author_id is not None else "register the operator's bot"
    if name in owners:
        owner = owners[name]
        if owner == author_id:
            return author_id
        if author_id is None and not adding:
            return owner  # the operator submits a version of an author's bot: it stays hers
        raise NotAllowedError(f"the bot name {name} {_owns(s, owner)}: {what} under another "
                              "name")
    for other, owner in owners.items():
        if owner != author_id:
            raise NotAllowedError(f"the bot name {name} reads like {other}, which "
                                  f"{_owns(s, owner)}: {what} under another name")
    return author_id


def check_unambiguous(s: Session, name: str) -> None:
    """Refuse to pick ``name``'s newest version when that could be another owner's than the
    asker means: a name, or a look-alike of it, with versions of more than one owner (a
    database from before names were owned), or a bundled bot's name held by an author.
    ``NAME@VERSION`` says which, and always works."""
    held = sorted(set(look_alikes(s, name)), key=lambda pair: (pair[0], pair[1] or 0))
    if name not in {other for other, _ in held}:
        return  # no such bot: the caller says so
    if len({owner for _, owner in held}) > 1:
        listed = ", ".join(f"{other} ({_owner_text(s, owner)}'s)" for other, owner in held)
        raise NotAllowedError(f"bot {name} is ambiguous: versions of {listed}; say which "
                              "with NAME@VERSION (`arena bot list` lists them)")
    owner = held[0][1]
    if owner is not None and reserved(name) is not None:
        raise NotAllowedError(f"bot {name} is {_owner_text(s, owner)}'s, not a bundled bot: say "
                              "which version with NAME@VERSION (`arena bot list` lists them)")


__all__ = ["BOT_NAME", "RANDOM_BOT", "SEARCH_BOT", "bundled_names", "check_bot_name",
           "check_unambiguous", "claim", "fold", "fold_sql", "heuristic_bot", "look_alikes",
           "reserved", "reserved_folds"]
