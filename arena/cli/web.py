"""``arena web``: the web app (leaderboards, bots, tournaments, matches) over a local database."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated

import typer

from arena.cli.common import DEFAULT_DB, DbOption, Failure, console, open_store
from arena.cli.remote import LocalOnlyArenaOption, local_only

WEB_PORT = 8000
"""The web app's port unless told otherwise (``arena web --port``, ``arena serve --web-port``)."""


def web_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")]
    = WEB_PORT,
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Serve the web app over a database until interrupted: leaderboards, bots with their
    rating history and head-to-head results, tournaments with standings and crosstables,
    and matches, each page with its data as JSON under /api/ (docs/web.md).

    It only reads: the database must exist (it creates none)."""
    local_only(arena, "web")
    store = open_store(db, reading=True)
    from leaderboard.web.server import WebServer, bind

    try:
        sock = bind(host, port)
    except OSError as err:
        raise Failure(f"cannot serve on {host}:{port}: {err.strerror or err}") from None
    web = WebServer(store, host, sock, embedded=False)
    console.print(f"web app at {web.url} (database {store.where}; Ctrl-C stops it)",
                  highlight=False)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(web.serve())
    store.close()
    console.print("stopped")
