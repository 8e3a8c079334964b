"""``--arena HOST:PORT`` and ``--token``: the commands that talk to a server (``arena serve``)
instead of the local database, and ``arena match watch``.

``ARENA_REMOTE``, ``ARENA_REMOTE_TOKEN`` and ``ARENA_REMOTE_CA`` set them for a whole shell
(named apart from ``ARENA_SERVER`` and ``ARENA_TOKEN``, which a bot gets from the arena).
The gRPC client (:mod:`arena.service.client`) is imported only when a command is given
``--arena``: the local commands never load it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from arena.cli.common import Failure

if TYPE_CHECKING:
    from arena.app.operations import Operations
    from arena.service.client import ArenaClient

ArenaOption = Annotated[str | None, typer.Option(
    "--arena", envvar="ARENA_REMOTE", metavar="HOST:PORT",
    help="Ask the arena server at HOST:PORT (`arena serve`; unix:PATH for its operator socket) "
    "instead of the local database.", show_envvar=True)]
LocalOnlyArenaOption = Annotated[str | None, typer.Option(
    "--arena", envvar="ARENA_REMOTE", metavar="HOST:PORT", hidden=True,
    help="Refused: this command works on the local database only.")]
"""``--arena`` (ARENA_REMOTE) of a command that works here only: hidden from its help, and
refused by :func:`local_only`."""
TokenOption = Annotated[str | None, typer.Option(
    "--token", envvar="ARENA_REMOTE_TOKEN", metavar="TOKEN",
    help="Your token for --arena: the operator's, or your author token.", show_envvar=True)]
CaOption = Annotated[str | None, typer.Option(
    "--tls-ca", envvar="ARENA_REMOTE_CA", metavar="FILE",
    help="The certificate (PEM) to trust for an --arena server that speaks TLS.",
    show_envvar=True)]


@contextlib.contextmanager
def remote(arena: str | None, token: str | None, tls_ca: str | None) -> Iterator[ArenaClient]:
    """A client of the server at ``arena`` for the body; a refusal from it (or no answer)
    ends the command with its one line and its kind's exit code."""
    from arena.service.client import ArenaClient, RemoteError

    assert arena is not None
    host, sep, port = arena.rpartition(":")
    if not arena.startswith("unix:") and (not sep or not host or not port.isdigit()):
        raise Failure(f"--arena must be HOST:PORT (or unix:PATH), not {arena!r}")
    if not token and not arena.startswith("unix:"):
        raise Failure("--arena needs your token: --token TOKEN (or ARENA_REMOTE_TOKEN)")
    try:
        with ArenaClient(arena, token, tls_ca) as client:
            yield client
    except RemoteError as err:  # an ArenaError: main() says its one line
        if err.log:
            from arena.cli.common import console

            console.print(err.log, highlight=False, markup=False, soft_wrap=True)
        raise



@contextlib.contextmanager
def operations(db: str, arena: str | None, token: str | None,
               tls_ca: str | None) -> Iterator[Operations]:
    """The arena a command works on: the server at ``arena`` (``--arena``), else the local
    database ``db``; one interface either way (:class:`arena.app.operations.Operations`)."""
    if arena is not None:
        with remote(arena, token, tls_ca) as client:
            yield client
        return
    from arena.app.operations import LocalOperations
    from arena.cli.common import data_dir_for, open_store

    yield LocalOperations(lambda reading: open_store(db, reading=reading), data_dir_for(db),
                          exists=lambda: "://" in db or Path(db).exists())


def local_only(arena: str | None, command: str) -> None:
    """Refuse, in one line, ``--arena`` (or ARENA_REMOTE) for a command that works on the
    local database only, before anything is opened or written."""
    if arena is not None:
        raise Failure(f"`arena {command}` works on the local database only (--db), not on a "
                      f"server: drop --arena {arena} (or unset ARENA_REMOTE)")
