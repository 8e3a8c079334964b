"""The ``arena`` command line: the typer app, the options every command shares, and ``main``.

Each command group lives in a module of its own (``games``, ``bots``,
``tournaments``, ``results``, ``serve``, ``demo``), which registers its commands
on the apps below; ``arena.cli`` imports them all. The commands only parse their
arguments, call the layers below, and print.

Every user mistake (an unknown game, a bad option, a missing bot command, an
unknown id, an unusable database) ends with one clear line on stderr and exit
code 1; usage mistakes get typer's usage message and exit code 2.
"""

from __future__ import annotations

import os

# gRPC's C core logs failures (a port in use, ...) on its own; the CLI says them once, clearly.
os.environ.setdefault("GRPC_VERBOSITY", "NONE")

import inspect
import resource
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.text import Text

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

app = typer.Typer(help="Card Arena: tournaments for card-game bots over gRPC.",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)
bot_app = typer.Typer(help="Register and list bots.", no_args_is_help=True)
tournament_app = typer.Typer(help="Run, resume and list tournaments: round-robins, gauntlets and "
                             "matches between two bots.", no_args_is_help=True)
match_app = typer.Typer(help="Play ad-hoc matches; list and show finished ones.",
                        no_args_is_help=True)
app.add_typer(bot_app, name="bot")
app.add_typer(tournament_app, name="tournament")
app.add_typer(match_app, name="match")

DbOption = Annotated[str, typer.Option("--db", envvar="ARENA_DB",
                                       help="SQLite file or SQLAlchemy URL.")]
TournamentArgument = Annotated[int, typer.Argument(help="The tournament's id.")]


class Failure(ArenaError):
    """A user mistake found by the CLI itself."""


def open_store(db: str, *, reading: bool = False) -> Store:
    """The database at ``db``; ``reading``: for a command that only reads (or changes what
    is there), which never creates one: a SQLite file that does not exist is an error."""
    if keeps_nothing(db):
        raise Failure(f"--db {db!r} is a database in memory, gone when the command ends: "
                      "give a file (e.g. arena.db) or a server URL")
    if reading and "://" not in db and not Path(db).exists():
        raise Failure(f"no database {db!r} (this command creates none): give --db the file "
                      "your tournaments were played on")
    return Store(db)


def data_dir_for(db: str) -> Path:
    """Where bot logs go: beside a SQLite file, else in ./arena-data."""
    if "://" not in db:
        return Path(db).resolve().parent / "arena-data"
    return Path("arena-data").resolve()


def shown(value: object) -> str:
    """A value as the command line writes it (booleans in lower case)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def raise_open_files_limit() -> tuple[int, int]:
    """Raise this process's open-files soft limit to its hard limit; (before, after)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = hard
    if hard == resource.RLIM_INFINITY:  # the kernel's own ceiling is the real one
        nr_open = Path("/proc/sys/fs/nr_open")
        ceiling = int(nr_open.read_text()) if nr_open.exists() else soft
    if soft == resource.RLIM_INFINITY or soft >= ceiling:
        return soft, soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
    except (ValueError, OSError):
        return soft, soft
    return soft, ceiling


def reflowed(text: str) -> str:
    """A docstring as help: each paragraph one line, which the terminal wraps at its own
    width (a docstring's hard line breaks would break a sentence mid-line in every narrower
    or wider terminal). A paragraph with an indented or bulleted line keeps its lines."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(
        p if any(line[:1].isspace() or line.lstrip().startswith(("-", "*", "$"))
                 for line in p.splitlines()) else " ".join(line.strip() for line in p.splitlines())
        for p in paragraphs)


def literal(text: str) -> str:
    """Help text as it is to be read: the help is printed as rich markup, which would take
    ``kill[target_score=11]`` or ``card-arena[ray]`` for a tag and drop it, so every bracket
    is escaped (one already escaped stays as it is)."""
    return escape(text.replace("\\[", "["))


def tidy_help(command: Any) -> None:
    """``command`` (a click command, as typer builds it) and everything under it with its
    help :func:`reflowed` and :func:`literal`: what every ``--help`` prints, whatever the
    terminal's width."""
    for attribute in ("help", "short_help"):
        text = getattr(command, attribute, None)
        if text:
            setattr(command, attribute, literal(reflowed(text)))
    for param in command.params:
        text = getattr(param, "help", None)
        if text:
            param.help = literal(reflowed(text))
    for sub in getattr(command, "commands", {}).values():
        tidy_help(sub)


def command_line() -> Callable[[], Any]:
    """The ``arena`` command as click runs it, its help tidied (:func:`tidy_help`)."""
    command = typer.main.get_command(app)
    tidy_help(command)
    return command


def main() -> None:
    # Every connection, bot pipe and log is a descriptor: the arena takes all it may have.
    raise_open_files_limit()
    # Past a file size limit a write should fail (EFBIG: a clear "disk full" error) rather
    # than kill the arena; bot processes get the default back (subprocess restores it).
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        command_line()()
    except ArenaError as err:  # every domain error: its one line, its kind's exit code
        errors.print(Text("error:", style="red"), str(err), highlight=False, soft_wrap=True)
        sys.exit(err.kind.exit_code)
