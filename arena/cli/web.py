"""``arena web``: the web app (leaderboards, bots, tournaments, matches) over a local database."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated

import typer

from arena.app.graph_worker import GraphWorker
from arena.app.graphs import DEFAULT_CAP_S
from arena.cli.common import DEFAULT_DB, DbOption, Failure, console, open_store
from arena.cli.remote import LocalOnlyArenaOption, local_only

WEB_PORT = 8000
"""The web app's port unless told otherwise (``arena web --port``, ``arena serve --web-port``)."""

GraphCpuOption = Annotated[float, typer.Option(
    "--graph-cpu", envvar="ARENA_GRAPH_CPU", min=0.0, max=600.0, metavar="SECONDS",
    help="CPU seconds each finished "
    "match's win-probability graph may take, computed in the background by a process of its "
    "own at the lowest priority once the match's deal is over (0: none computed).")]


def web_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")]
    = WEB_PORT,
    graph_cpu: GraphCpuOption = DEFAULT_CAP_S,
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Serve the web app over a database until interrupted: leaderboards, bots with their
    rating history and head-to-head results, tournaments with standings and crosstables,
    and matches, each page with its data as JSON under /api/ (docs/web.md).

    The database must exist (it creates none). The app only reads it; a worker beside it
    writes the finished matches' win-probability graphs (--graph-cpu 0: none)."""
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
    with GraphWorker(store.url, graph_cpu), contextlib.suppress(KeyboardInterrupt):
        asyncio.run(web.serve())
    store.close()
    console.print("stopped")
