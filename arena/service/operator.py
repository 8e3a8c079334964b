"""The operator-facing gRPC service: bots, tournaments, matches and leaderboards, read-only.

Thin servicers: read from the store, encode, and map domain errors to gRPC
status codes in one place. ``arena serve`` serves it (:mod:`arena.service.serve`).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import grpc

from arena.match.replay import read_log, view
from arena.storage.store import MatchInfo, NotFoundError, Store, StoreError
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.codec import codec_for
from arena.wire.messages import FAULT_NUMBERS

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
    """Operator methods need ``authorization: Bearer <operator token>``; other methods
    (a bot service on the same server) are left to their own checks."""

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
