"""``arena serve``: the operator service on its own, over TCP (token, optional TLS) and
optionally on a Unix socket (no token; the file's owner and mode decide who connects), and
the web app (:mod:`leaderboard.web`) on its own HTTP port, in the same event loop, which
also runs the scheduler's match clocks: the operator service's store reads go to reader
processes (:mod:`arena.service.reads`) for as long as it serves.

Both public doors are capped (:mod:`arena.net.doors`): the operator port is a front door
that relays to the gRPC server on a loopback port, wrong tokens are throttled per address
(:class:`arena.service.auth.Throttle`), and the server says in its first lines what
protects it (:func:`protections`).

It serves no bot service: bots play in tournaments, and connect to the address
a tournament listens on (``arena tournament run --listen``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import signal
import socket
import stat
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import grpc
from rich.console import Console

from arena.app.live import PENDING_LIMIT_S
from arena.app.scrimmages import SCRIMMAGES, ScrimmageRules
from arena.app.validation import VALIDATED, ValidationRules
from arena.errors import ArenaError
from arena.net.bot_service import bind
from arena.net.doors import (
    BUILDS,
    Budget,
    Door,
    IntervalLog,
    Relay,
    descriptor_budget,
    install_accept_log,
    listening_socket,
)
from arena.net.server_options import server_options
from arena.players import cgroups, sandbox
from arena.service import loop_watch, reads
from arena.service.auth import Throttle
from arena.service.operator import OperatorAuth, OperatorServicer
from arena.service.operator_token import TokenHash
from arena.storage.store import Store
from arena.tournament.ladder import run_ladder
from arena.tournament.scheduler import Scheduler
from arena.tournament.settings import EVERY_RUN, PerRun, RunSettings
from arena.v1 import arena_pb2_grpc as pb_grpc
from leaderboard.web.server import WebServer

COLLECTOR_THRESHOLDS = (700, 10, 100)
"""The garbage collector's thresholds once the server's code is frozen: Python's defaults
but for the full collection, ten times rarer. A full collection holds the loop that runs the
match clocks however little it finds: 5 to 25 ms of the loop's CPU on this machine over the
20,000-odd objects a served tournament keeps alive besides the frozen ones (each reference
it follows is a miss of the CPU's cache in a large heap). With the default, heavy reads on
the server met one every second or two (``tests/service/test_loop_stall.py``, which failed
at 25 ms once in seven runs of the suite); with this, none in the same runs, while the
young generations, cheap to walk, are collected as often as before. Garbage in cycles that
has grown old waits longer to be freed."""

MAX_RECEIVE_BYTES = 128 * 1024
"""An operator's requests are a few fields, an upload's chunks 64 KiB (``CHUNK_BYTES``)."""


BACKEND_HOST = "127.0.0.1"
"""Where the gRPC server behind the operator port's door listens (a port of its own)."""
BACKEND_SLACK = 16


class SocketPathError(ArenaError, ValueError):
    """The operator socket's path cannot be used."""


MAX_SOCKET_PATH = 107  # sun_path holds 108 bytes with the final NUL


def prepare_socket_path(path: str) -> Path:
    """An absolute path ready for the operator socket: a stale socket left by a crash is
    removed; anything else already there (a file, a live server) is refused."""
    where = Path(path).absolute()
    if len(str(where).encode()) > MAX_SOCKET_PATH:
        raise SocketPathError(f"the socket path {str(where)!r} is longer than {MAX_SOCKET_PATH} bytes")
    if not where.parent.is_dir():
        raise SocketPathError(f"no folder {str(where.parent)!r} for the operator socket")
    if not where.exists() and not where.is_symlink():
        return where
    if not stat.S_ISSOCK(where.lstat().st_mode):
        raise SocketPathError(f"{str(where)!r} exists and is not a socket: choose another path")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(where))
        except OSError:  # nobody listens: a socket left behind by a server that died
            where.unlink()
            return where
    raise SocketPathError(f"a server already listens on {str(where)!r}")


class Front:
    """The operator port: its front door (:class:`arena.net.doors.Relay`, on the public
    socket) and the gRPC server behind it, on a loopback port only the door uses."""

    def __init__(self, relay: Relay, server: grpc.aio.Server, port: int) -> None:
        self.relay = relay
        self.server = server
        self.port = port

    async def stop(self) -> None:
        """Accept no more, give the calls in progress a moment, close what is left."""
        self.relay.close()
        await self.server.stop(grace=1.0)
        await self.relay.wait_closed()


async def _start_operator_server(operator: OperatorServicer, address: str,
                                 token: str | TokenHash,
                                 credentials: grpc.ServerCredentials | None, budget: Budget,
                                 log: IntervalLog) -> Front:
    """The operator service on ``address`` (TLS only with ``credentials``, end to end through
    the door), behind the door's caps, the token and its throttle."""
    host, _, port = address.rpartition(":")
    try:
        sock = listening_socket(host.strip("[]"), int(port))
    except OSError as err:
        raise OSError(f"cannot listen on {address} (in use?)") from err
    try:
        relay = Relay(Door("operator port", budget.operator_total, budget.per_address, log),
                      (BACKEND_HOST, 0), log)
        auth = OperatorAuth(token, operator.store, throttle=Throttle(), client_of=relay.client_of)
        # at most the door's connections and a few: a backstop, as only the door connects
        server = grpc.aio.server(interceptors=[auth], options=server_options(
            MAX_RECEIVE_BYTES, max_connections=budget.operator_total + BACKEND_SLACK))
        pb_grpc.add_OperatorServiceServicer_to_server(operator, server)
        relay.backend = (BACKEND_HOST, bind(server, f"{BACKEND_HOST}:0", credentials))
        await server.start()
        await relay.start(sock)
    except BaseException:
        sock.close()
        raise
    return Front(relay, server, sock.getsockname()[1])


def protections(per_run: PerRun, budget: Budget) -> list[str]:
    """What protects this server, said in its first lines: the sandbox, the cgroups, the
    builds, the doors' caps."""
    found = sandbox.check()
    if not per_run.sandbox:
        contained = "OFF (--no-sandbox): managed bots run as this user, uncontained"
    elif found.works:
        contained = (f"{found.version}: each managed bot sees only its folder and the runtime, "
                     "no network, no other process")
    else:
        contained = f"unavailable ({found.why_not})"
    groups = cgroups.detect()
    limits = (f"{', '.join(groups.controllers)} ({groups.label})" if groups.controllers
              else f"none, per-process rlimits only ({groups.why_not or groups.label})")
    return ["protections:", f"  sandbox: {contained}", f"  cgroups: {limits}", f"  {BUILDS}",
            f"  {budget.describe()}"]


async def _start_operator_socket(operator: OperatorServicer, path: Path) -> grpc.aio.Server:
    """The operator service alone on a Unix socket only its owner may open (mode 0600).

    Whoever can open the socket is the operator (it never leaves the machine, and
    the file's owner and mode decide who may connect), so it asks for no token.
    """
    server = grpc.aio.server(interceptors=[OperatorAuth(None)],  # every caller is the operator
                             options=server_options(MAX_RECEIVE_BYTES))
    pb_grpc.add_OperatorServiceServicer_to_server(operator, server)
    old = os.umask(0o177)  # the socket is created 0600: no moment when others could connect
    try:
        server.add_insecure_port(f"unix:{path}")
        await server.start()
    except RuntimeError as err:
        raise OSError(f"cannot listen on unix:{path}") from err
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    return server


def _ladder_job(store: Store, ladder: int, data_dir: Path, parallel: int, per_run: PerRun,
                console: Console) -> Callable[[asyncio.Event], Awaitable[object]]:
    settings = per_run.applied(RunSettings.from_saved(store.get_tournament(ladder).settings,
                                                      parallel))

    def job(stop: asyncio.Event) -> Awaitable[object]:
        return run_ladder(store, ladder, data_dir, settings, stop,
                          notice=lambda text: console.print(text, highlight=False))
    return job


async def serve(store: Store, address: str, console: Console, operator_token: str | TokenHash,
                credentials: grpc.ServerCredentials | None = None,
                operator_socket: Path | None = None, web: WebServer | None = None, *,
                data_dir: Path | None = None, parallel: int = 2, per_run: PerRun = EVERY_RUN,
                ladders: Sequence[int] = (), budget: Budget | None = None,
                log: IntervalLog | None = None, live_wait_s: float = PENDING_LIMIT_S,
                validation: ValidationRules = VALIDATED,
                scrimmages: ScrimmageRules = SCRIMMAGES) -> None:
    """Serve the operator service on ``address`` until cancelled or SIGTERM; with
    ``credentials`` over TLS, with ``operator_socket`` also on that Unix socket,
    without a token (see :func:`prepare_socket_path`), and with ``web`` the web app (its
    socket bound already), stopped with the rest. With ``data_dir`` (bot logs, submitted code)
    the scheduler plays queued tournaments, at most ``parallel`` matches at once, where and how
    ``per_run`` says (:mod:`arena.tournament.scheduler`: the executor, the sandbox), and keeps the
    ``ladders`` (tournament ids, :mod:`arena.tournament.ladder`) playing for as long as it runs.
    ``budget``: the doors' caps (by default from the descriptor limit, raised first); ``log``:
    where refusals and failed accepts are counted (by default a line a while on stderr);
    ``validation``: which new versions play a validation before they are accepted
    (:mod:`arena.app.validation`); ``scrimmages``: the authors' limits and the share of the
    match slots their scrimmages may hold (:mod:`arena.app.scrimmages`)."""
    budget = budget if budget is not None else descriptor_budget()
    log = log if log is not None else IntervalLog()
    install_accept_log(asyncio.get_running_loop(), log)
    scheduler = None if data_dir is None else Scheduler(
        store, data_dir, parallel, per_run=per_run, stop_grace_s=10.0,
        say=lambda text: console.print(text, highlight=False),
        scrimmage_slots=scrimmages.slots(parallel))
    operator = OperatorServicer(store, data_dir, scheduler, live_wait_s=live_wait_s,
                                validation=validation, scrimmages=scrimmages)
    front = await _start_operator_server(operator, address, operator_token, credentials,
                                         budget, log)
    stalls = loop_watch.from_environment()  # how long the loop is blocked, when asked
    local: grpc.aio.Server | None = None
    web_task: asyncio.Task[None] | None = None
    scheduling: asyncio.Task[None] | None = None
    readers = contextlib.AsyncExitStack()
    default_thresholds = gc.get_threshold()
    try:
        await readers.enter_async_context(reads.serving(store))  # reads: out of this process
        if operator_socket is not None:
            local = await _start_operator_socket(operator, operator_socket)
        if web is not None:  # the web's forms: the operator service's own desks
            web.take_submissions(operator.desk, operator.scrimmages)
            web_task = asyncio.create_task(web.serve())
        # What is loaded by now lives as long as the server: a full collection no longer walks
        # it (some 180,000 objects, 90 ms of the loop's thread each time, a stalled clock)
        gc.freeze()
        gc.set_threshold(*COLLECTOR_THRESHOLDS)
        # SIGTERM stops it cleanly from here on: before it says it listens, so that whoever
        # waits for that line and then stops it never meets the default (an abrupt end)
        stopping = asyncio.Event()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopping.set)
        tls = "TLS" if credentials is not None else "plain text"
        console.print(f"operator service listening on {address.rsplit(':', 1)[0]}:{front.port} "
                      f"({tls}; Ctrl-C stops it)")
        if operator_socket is not None:
            console.print(f"operator socket unix:{operator_socket} (mode 0600, no token needed)")
        if web is not None:
            console.print(f"web app at {web.url}", highlight=False)
        for line in protections(per_run, budget):
            console.print(line, highlight=False)
        if scheduler is not None:
            console.print(f"scheduler: plays queued tournaments, at most {parallel} matches at "
                          "once" + ("" if per_run.sandbox else ", managed bots WITHOUT the sandbox")
                          + (f", on Ray ({per_run.ray_address or 'RAY_ADDRESS'})"
                             if per_run.executor == "ray" else ""),
                          highlight=False)
            scheduling = asyncio.create_task(scheduler.run())
            for ladder in ladders:
                assert data_dir is not None  # a scheduler has one
                scheduler.start_job(f"ladder {ladder}", _ladder_job(store, ladder, data_dir,
                                                                    parallel, per_run, console))
                console.print(f"ladder {ladder} of {store.get_tournament(ladder).game}: playing",
                              highlight=False)
        # Not server.wait_for_termination(): cancelled by Ctrl-C, it would leave stop() cancelled too.
        await stopping.wait()  # until SIGTERM, or until cancelled (Ctrl-C)
    finally:
        if scheduling is not None:  # the matches in play finish (for a while), then stop
            scheduling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await scheduling
        if web is not None and web_task is not None:
            await web.stop(web_task)
        await front.stop()
        log.flush()
        if local is not None:
            await local.stop(grace=1.0)
        if operator_socket is not None:
            with contextlib.suppress(FileNotFoundError):
                if stat.S_ISSOCK(operator_socket.lstat().st_mode):
                    operator_socket.unlink()
        await readers.aclose()
        if stalls is not None:
            stalls.stop()
        gc.unfreeze()  # collectable again: the store's connections close at exit as before
        gc.set_threshold(*default_thresholds)
        await asyncio.sleep(0)
