"""What every command of the ``arena`` command line shares: the consoles (stdout's, made for
a terminal or a pipe, and stderr's), the ``--db`` option and the local database opened from it,
where bot logs go, and :class:`Failure`, a mistake the command line finds itself."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.output import InertConsole
from arena.errors import ArenaError
from arena.storage.store import Store, keeps_nothing

DEFAULT_DB = "arena.db"
PIPED_WIDTH = 1_000_000
"""The console's width when stdout is no terminal: wide enough that nothing is ever wrapped or
cut (tables take only the width their cells need; a pipe or file has no edge)."""


def _on_terminal() -> bool:
    try:
        return sys.stdout is not None and sys.stdout.isatty()
    except (ValueError, OSError):  # closed or detached
        return False


def stdout_console() -> InertConsole:
    """The console for stdout. On a terminal: its width, rich tables folding long cells. Piped
    or redirected: no width at all to speak of (COLUMNS does not apply), and no soft wrapping
    of long lines, so that a table row or a long command stays one whole line for grep, cut
    and friends."""
    if _on_terminal():
        return InertConsole(markup=False)
    return InertConsole(markup=False, width=PIPED_WIDTH, soft_wrap=True)


# Names, commands, logs and messages come from users and bots: never read as rich markup, and
# made inert (arena.cli.output.inert) before they reach a terminal.
console = stdout_console()
errors = InertConsole(stderr=True, markup=False)

DbOption = Annotated[str, typer.Option("--db", envvar="ARENA_DB",
                                       help="SQLite file or SQLAlchemy URL.")]
TournamentArgument = Annotated[int, typer.Argument(help="The tournament's id.")]


class Failure(ArenaError):
    """A user mistake found by the CLI itself."""


_opened: list[Store] = []
"""The stores this command has opened, closed when it ends (:func:`close_stores`)."""


def open_store(db: str, *, reading: bool = False) -> Store:
    """The database at ``db``, open until the command ends; ``reading``: for a command that
    only reads (or changes what is there), which never creates one: a SQLite file that does
    not exist is an error."""
    if keeps_nothing(db):
        raise Failure(f"--db {db!r} is a database in memory, gone when the command ends: "
                      "give a file (e.g. arena.db) or a server URL")
    if reading and "://" not in db and not Path(db).exists():
        raise Failure(f"no database {db!r} (this command creates none): give --db the file "
                      "your tournaments were played on")
    store = Store(db)
    _opened.append(store)
    return store


def close_stores() -> None:
    """Close every store the command opened: their connections are released and a SQLite
    file's write-ahead log is checkpointed, whether the command ended well or not."""
    while _opened:
        _opened.pop().close()


def data_dir_for(db: str) -> Path:
    """Where bot logs go: beside a SQLite file, else in ./arena-data."""
    if "://" not in db:
        return Path(db).resolve().parent / "arena-data"
    return Path("arena-data").resolve()


def shown(value: object) -> str:
    """A value as the command line writes it (booleans in lower case)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
