"""Serving the web app with uvicorn: alone (``arena web``) or inside another asyncio program
(``arena serve``, beside its gRPC services, in the same event loop).

The listening socket is bound first (:func:`bind`), so that a port in use is one clear
error before anything starts, and port 0 gives a free port whose URL can be printed.

Connections are capped in total and per client address (:mod:`arena.net.doors`), in the HTTP
protocol's ``connection_made``: uvicorn still accepts every connection itself, so a
request's ``request.client`` is the real client's address (the live feed's caps count by it).
The app has no WebSocket route, so none is served (``ws="none"``): every connection stays
with the capped HTTP protocol for its whole life.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Iterator

import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from arena.app.live import PENDING_LIMIT_S
from arena.app.records import Store
from arena.app.scrimmages import ScrimmageDesk
from arena.app.submitting import SubmissionDesk
from arena.net.doors import (
    ACCEPT_BATCH,
    Door,
    IntervalLog,
    capped_protocol,
    descriptor_budget,
    listening_socket,
)
from leaderboard.web.app import create_app


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: any free port); ``OSError`` if it
    cannot be had (in use, no such address)."""
    return listening_socket(host, port)


def url_of(host: str, sock: socket.socket) -> str:
    """The URL a browser opens for the app on this socket."""
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


class _Quiet(uvicorn.Server):
    """A uvicorn server that leaves signals alone: the program around it owns them."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def web_door() -> Door:
    """The web's door with the caps the descriptor limit allows (raised first, where allowed);
    refusals counted in a line a while on stderr."""
    budget = descriptor_budget()
    return Door("web", budget.web_total, budget.per_address, IntervalLog())


class WebServer:
    """The web app over ``store`` on a socket bound already (see :func:`bind`), behind
    ``door`` (by default :func:`web_door`)."""

    def __init__(self, store: Store, host: str, sock: socket.socket, *, embedded: bool,
                 door: Door | None = None, live_wait_s: float = PENDING_LIMIT_S) -> None:
        self.sock = sock
        self.url = url_of(host, sock)
        self.door = door if door is not None else web_door()
        self.app = app = create_app(store, live_wait_s=live_wait_s)
        config = uvicorn.Config(app, log_level="warning", access_log=False,
                                timeout_graceful_shutdown=2, lifespan="off",
                                http=capped_protocol(AutoHTTPProtocol, self.door), ws="none",
                                backlog=ACCEPT_BATCH)
        self.server = _Quiet(config) if embedded else uvicorn.Server(config)

    def take_submissions(self, desk: SubmissionDesk, scrimmages: ScrimmageDesk) -> None:
        """Let signed-in authors submit through the web's form to ``desk`` and ask for
        scrimmages at ``scrimmages`` (``arena serve``'s: the operator service's own), and read
        their bots' logs under the desk's data folder."""
        self.app.state.desk = desk
        self.app.state.scrimmages = scrimmages

    async def serve(self) -> None:
        """Serve until :meth:`stop` (or, not embedded, Ctrl-C or SIGTERM)."""
        try:
            await self.server.serve(sockets=[self.sock])
        finally:
            self.sock.close()

    async def stop(self, task: asyncio.Task[None]) -> None:
        """Stop the server ``task`` runs: open requests get a moment to finish."""
        self.server.should_exit = True
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout=5)
        except (TimeoutError, asyncio.CancelledError):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


__all__ = ["WebServer", "bind", "url_of"]
