"""The operator-facing gRPC service, and ``arena serve`` (bot + operator services).

Thin servicers: read from the store, encode, and map domain errors to gRPC
status codes in one place.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import os
import signal
import socket
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import grpc
from rich.console import Console

from arena.match.replay import read_log, view
from arena.net.bot_service import MatchHost, create_server
from arena.storage.store import MatchInfo, NotFoundError, Store, StoreError
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.codec import FAULT_NUMBERS, codec_for

if TYPE_CHECKING:
    Context = grpc.aio.ServicerContext[Any, Any]

T = TypeVar("T")


async def _read(context: Context, read: Callable[[], T]) -> T:
    """Run a store read; its errors become NOT_FOUND (unknown ids) or UNAVAILABLE (the database)."""
    try:
        return read()
    except StoreError as err:
        code = grpc.StatusCode.NOT_FOUND if isinstance(err, NotFoundError) \
            else grpc.StatusCode.UNAVAILABLE
        await context.abort(code, str(err))
        raise  # abort raises; this line only reassures the type checker


def _match_info(match: MatchInfo) -> pb.MatchInfo:
    return pb.MatchInfo(
        id=match.id, tournament_id=match.tournament_id or 0, game=match.game, status=match.status,
        seats=[pb.SeatRecord(seat=s.seat, bot=s.bot, score=s.score or 0.0, rank=s.rank or 0,
                             fault=FAULT_NUMBERS.get(s.fault, pb.FAULT_NONE))
               for s in match.seats])


class OperatorServicer(pb_grpc.OperatorServiceServicer):  # type: ignore[misc]
    """Bots, tournaments, matches and leaderboards, read from the store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def ListBots(self, request: pb.ListBotsRequest, context: Context) -> pb.ListBotsResponse:
        bots = await _read(context, self.store.list_bots)
        return pb.ListBotsResponse(bots=[
            pb.BotInfo(id=b.id, name=b.name, version=b.version, command=b.command, remote=b.remote)
            for b in bots])

    async def ListTournaments(self, request: pb.ListTournamentsRequest,
                              context: Context) -> pb.ListTournamentsResponse:
        tournaments = await _read(context, self.store.list_tournaments)
        return pb.ListTournamentsResponse(tournaments=[
            pb.TournamentInfo(id=t.id, game=t.game, status=t.status, players=t.players,
                              matches=t.total, finished=t.finished, bots=list(t.bots))
            for t in tournaments])

    async def ListMatches(self, request: pb.ListMatchesRequest,
                          context: Context) -> pb.ListMatchesResponse:
        matches = await _read(context, lambda: self.store.list_matches(
            request.tournament_id or None, request.limit or 100))
        return pb.ListMatchesResponse(matches=[_match_info(m) for m in matches])

    async def GetMatch(self, request: pb.GetMatchRequest, context: Context) -> pb.MatchRecord:
        """A match and its events: one seat's view, or the public view (everything once over)."""
        match = await _read(context, lambda: self.store.get_match(request.match_id))
        seat = request.seat if request.HasField("seat") else None
        if seat is not None and not 0 <= seat < len(match.seats):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"no seat {seat} in this match")
        record = pb.MatchRecord(match=_match_info(match))
        if match.log is not None:
            lines = read_log(match.game, match.log)
            if seat is None and match.status != "finished":
                lines = [line for line in lines if line.audience is None]
            codec = codec_for(match.game)
            record.events.extend(codec.event(line.value) for line in view(lines, seat)
                                 if line.kind == "event")
        return record

    async def Leaderboard(self, request: pb.LeaderboardRequest,
                          context: Context) -> pb.LeaderboardResponse:
        rows = await _read(context, lambda: self.store.leaderboard(request.game or None))
        return pb.LeaderboardResponse(rows=[
            pb.LeaderboardRow(game=r.game, bot=r.label, mu=r.mu, sigma=r.sigma,
                              conservative=r.conservative, matches=r.matches, wins=r.wins,
                              faults=r.faults) for r in rows])


OPERATOR_PREFIX = "/arena.v1.OperatorService/"


class OperatorAuth(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]
    """Operator methods need ``authorization: Bearer <operator token>``; bot methods
    are left to the bot service, which checks its own tokens and credentials."""

    def __init__(self, token: str) -> None:
        self._expected = f"Bearer {token}".encode()

    async def intercept_service(self, continuation: Callable[[Any], Any],
                                details: grpc.HandlerCallDetails) -> Any:
        if not details.method.startswith(OPERATOR_PREFIX):
            return await continuation(details)
        given = dict(details.invocation_metadata or ()).get("authorization", "")
        given_bytes = given.encode() if isinstance(given, str) else bytes(given)
        if hmac.compare_digest(given_bytes, self._expected):
            return await continuation(details)
        return grpc.unary_unary_rpc_method_handler(_refuse)


async def _refuse(request: Any, context: Context) -> None:
    await context.abort(grpc.StatusCode.UNAUTHENTICATED, "operator methods need the operator token")


class SocketPathError(ValueError):
    """The operator socket's path cannot be used."""


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


MAX_SOCKET_PATH = 107  # sun_path holds 108 bytes with the final NUL


async def _start_operator_socket(operator: OperatorServicer, path: Path) -> grpc.aio.Server:
    """The operator service alone on a Unix socket only its owner may open (mode 0600).

    Whoever can open the socket is the operator (it never leaves the machine, and
    the file's owner and mode decide who may connect), so it asks for no token.
    """
    server = grpc.aio.server()
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


async def serve(store: Store, address: str, console: Console, operator_token: str,
                credentials: grpc.ServerCredentials | None = None,
                operator_socket: Path | None = None) -> None:
    """Serve the bot and operator services on ``address`` until cancelled or SIGTERM; with
    ``credentials`` over TLS, and with ``operator_socket`` the operator service also
    on that Unix socket, without a token (see :func:`prepare_socket_path`)."""
    host = MatchHost()
    operator = OperatorServicer(store)

    def add_operator(server: grpc.aio.Server) -> None:
        pb_grpc.add_OperatorServiceServicer_to_server(operator, server)

    server, port = await create_server(host, address, [add_operator],
                                       [OperatorAuth(operator_token)], credentials=credentials)
    local: grpc.aio.Server | None = None
    try:
        if operator_socket is not None:
            local = await _start_operator_socket(operator, operator_socket)
        tls = "TLS" if credentials is not None else "plain text"
        console.print(f"referee listening on {address.rsplit(':', 1)[0]}:{port} ({tls}; Ctrl-C stops it)")
        if operator_socket is not None:
            console.print(f"operator socket unix:{operator_socket} (mode 0600, no token needed)")
        stopping = asyncio.Event()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopping.set)
        # Not server.wait_for_termination(): cancelled by Ctrl-C, it would leave stop() cancelled too.
        await stopping.wait()  # until SIGTERM, or until cancelled (Ctrl-C)
    finally:
        await server.stop(grace=1.0)
        if local is not None:
            await local.stop(grace=1.0)
        if operator_socket is not None:
            with contextlib.suppress(FileNotFoundError):
                if stat.S_ISSOCK(operator_socket.lstat().st_mode):
                    operator_socket.unlink()
        await asyncio.sleep(0)
