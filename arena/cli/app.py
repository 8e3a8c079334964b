"""The ``arena`` command line: the typer app, each command group and command registered on
it (in the order of ``arena --help``), the help's layout, and ``main``.

Each command group lives in a module of its own with its typer app (``bots``, ``authors``,
``tournaments``, ``matches``, ``ladder``, ``datasets``), and so does each command of the top level
(``games``, ``results``: leaderboard, ratings and compare, ``web``, ``serve``, ``demo``);
what they share is :mod:`arena.cli.common`'s. The commands only parse their arguments, call
the layers below (through :func:`arena.cli.remote.operations`, here or on a server), and
print.

Every user mistake (an unknown game, a bad option, a missing bot command, an
unknown id, an unusable database) ends with one clear line on stderr and exit
code 1; usage mistakes get typer's usage message and exit code 2.
"""

from __future__ import annotations

import os

# gRPC's C core logs failures (a port in use, ...) on its own; the CLI says them once, clearly.
os.environ.setdefault("GRPC_VERBOSITY", "NONE")

import functools
import inspect
import resource
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.text import Text

from arena.cli import (
    authors,
    bots,
    datasets,
    demo,
    games,
    ladder,
    matches,
    results,
    scrimmage,
    serve,
    tournaments,
    web,
)
from arena.cli.common import close_stores, errors
from arena.errors import ArenaError

app = typer.Typer(help="Card Arena: tournaments for card-game bots over gRPC.",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)
app.command("games")(games.games_command)
app.command("compare")(results.compare_command)
app.command("leaderboard")(results.leaderboard_command)
app.command("ratings")(results.ratings_command)
app.command("web")(web.web_command)
app.command("serve")(serve.serve_command)
app.command("demo")(demo.demo_command)
app.command("scrimmage")(scrimmage.scrimmage_command)
app.add_typer(bots.bot_app, name="bot")
app.add_typer(tournaments.tournament_app, name="tournament")
app.add_typer(matches.match_app, name="match")
app.add_typer(authors.author_app, name="author")
app.add_typer(ladder.ladder_app, name="ladder")
app.add_typer(datasets.dataset_app, name="dataset")


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


@functools.cache
def command_line() -> Callable[[], Any]:
    """The ``arena`` command as click runs it, its help tidied (:func:`tidy_help`): built
    once per process."""
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
    finally:
        close_stores()
