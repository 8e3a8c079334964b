"""The gRPC referee server: hosts many matches at once for bots that attend.

Thin servicers: decode, hand off to the :class:`MatchHost`, encode. The host
hands out one random credential per seat of each match (kept only as a hash,
compared in constant time, valid until that match ends) and runs the match
with :func:`arena.referee.run_match`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc

from arena.games.base import OptionValue
from arena.referee import Link, MatchReport, MatchSettings, run_match
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc

HELLO_TIMEOUT_S = 10.0


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class MatchSpec:
    """One match to host: the game and, per seat, the token of the bot playing it."""

    match_id: str
    game: str
    players: int
    seed: int
    options: dict[str, OptionValue]
    seat_tokens: tuple[str, ...]
    seat_names: tuple[str, ...]
    settings: MatchSettings = field(default_factory=MatchSettings)


@dataclass
class _PendingSeat:
    match_id: str
    seat: int
    credential_hash: str
    link: asyncio.Future[Link]


@dataclass
class _Attendee:
    """A bot (by token) and the assignments waiting for it."""

    queue: asyncio.Queue[pb.Assignment | None] = field(default_factory=asyncio.Queue)
    streams: int = 0


class GrpcLink:
    """A seat's Play stream, seen by the referee as a :class:`arena.referee.Link`."""

    def __init__(self, context: grpc.aio.ServicerContext[pb.BotMessage, pb.RefereeMessage]) -> None:
        self._context = context
        self._inbox: asyncio.Queue[pb.BotMessage | None] = asyncio.Queue()
        self._gone = False
        self.finished = asyncio.Event()

    def deliver(self, message: pb.BotMessage | None) -> None:
        self._inbox.put_nowait(message)

    async def send(self, message: pb.RefereeMessage) -> None:
        if self._gone or self.finished.is_set():
            return
        try:
            await self._context.write(message)
        except Exception:  # the stream is gone (grpc raises several types for that)
            self._gone = True

    async def receive(self, timeout: float | None) -> pb.BotMessage | None:
        if not self._inbox.empty():  # the answer is often here already: no timer, no wait
            return self._inbox.get_nowait()
        async with asyncio.timeout(timeout):  # a timer, not wait_for's extra task per receive
            return await self._inbox.get()

    def drain(self) -> list[pb.BotMessage]:
        waiting = []
        while not self._inbox.empty():
            message = self._inbox.get_nowait()
            if message is None:
                self._inbox.put_nowait(None)  # keep the end-of-stream mark
                break
            waiting.append(message)
        return waiting

    async def close(self) -> None:
        self.finished.set()


class MatchHost:
    """Runs matches and connects each seat to the bot whose token it names."""

    def __init__(self) -> None:
        self._attendees: dict[str, _Attendee] = {}
        self._pending: dict[str, _PendingSeat] = {}

    # -- bots ----------------------------------------------------------------------
    def admit(self, token: str) -> None:
        """Let a bot with this token attend (and be offered seats)."""
        self._attendees.setdefault(digest(token), _Attendee())

    def dismiss(self, token: str) -> None:
        """End the bot's attendance: its Attend stream closes."""
        attendee = self._attendees.pop(digest(token), None)
        if attendee is not None:
            for _ in range(max(1, attendee.streams)):
                attendee.queue.put_nowait(None)

    def attendee(self, token: str) -> _Attendee | None:
        return self._attendees.get(digest(token))

    def claim_seat(self, credential: str) -> _PendingSeat | None:
        """The pending seat for this credential, taken (each credential works once)."""
        key = digest(credential)
        for stored, seat in list(self._pending.items()):
            if hmac.compare_digest(stored, key):
                del self._pending[stored]
                return seat
        return None

    # -- matches -------------------------------------------------------------------
    async def play(self, spec: MatchSpec,
                   is_alive: Callable[[int], Awaitable[bool]] | None = None) -> MatchReport:
        """Offer every seat to its bot, then referee the match to its end."""
        loop = asyncio.get_running_loop()
        seats: list[_PendingSeat] = []
        for seat, token in enumerate(spec.seat_tokens):
            credential = secrets.token_urlsafe(24)
            pending = _PendingSeat(spec.match_id, seat, digest(credential), loop.create_future())
            self._pending[pending.credential_hash] = pending
            seats.append(pending)
            attendee = self._attendees.get(digest(token))
            if attendee is not None:
                attendee.queue.put_nowait(pb.Assignment(match_id=spec.match_id, seat=seat,
                                                        credential=credential, game=spec.game))
        try:
            return await run_match(
                game_name=spec.game, players=spec.players, seed=spec.seed, options=spec.options,
                links=[s.link for s in seats], settings=spec.settings, match_id=spec.match_id,
                seat_names=spec.seat_names, is_alive=is_alive)
        finally:
            for pending in seats:  # credentials expire with the match
                self._pending.pop(pending.credential_hash, None)
                if not pending.link.done():
                    pending.link.cancel()


class BotServicer(pb_grpc.BotServiceServicer):  # type: ignore[misc]
    def __init__(self, host: MatchHost) -> None:
        self.host = host

    async def Attend(self, request: pb.AttendRequest,
                     context: grpc.aio.ServicerContext[pb.AttendRequest, pb.Assignment]
                     ) -> AsyncIterator[pb.Assignment]:
        attendee = self.host.attendee(request.token)
        if attendee is None:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown bot token")
            return
        attendee.streams += 1
        try:
            while True:
                assignment = await attendee.queue.get()
                if assignment is None:
                    return
                try:
                    yield assignment
                except BaseException:
                    attendee.queue.put_nowait(assignment)  # not delivered: keep it for a restart
                    raise
        finally:
            attendee.streams -= 1

    async def Play(self, request_iterator: AsyncIterator[pb.BotMessage],
                   context: grpc.aio.ServicerContext[pb.BotMessage, pb.RefereeMessage]) -> None:
        try:
            hello = await asyncio.wait_for(context.read(), HELLO_TIMEOUT_S)
        except TimeoutError:
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "no hello")
            return
        if not isinstance(hello, pb.BotMessage) or hello.WhichOneof("kind") != "hello":
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the first message must be hello")
            return
        pending = self.host.claim_seat(hello.hello.credential)
        if pending is None or pending.link.done():
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown or expired seat credential")
            return
        link = GrpcLink(context)
        pending.link.set_result(link)
        reader = asyncio.create_task(_read_into(context, link))
        try:
            await link.finished.wait()
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader


async def _read_into(context: grpc.aio.ServicerContext[pb.BotMessage, pb.RefereeMessage],
                     link: GrpcLink) -> None:
    try:
        while True:
            message = await context.read()
            if not isinstance(message, pb.BotMessage):  # grpc.aio.EOF: the bot closed its side
                break
            link.deliver(message)
    except Exception:
        pass
    finally:
        link.deliver(None)


async def create_server(host: MatchHost, address: str = "127.0.0.1:0",
                        extra_servicers: Sequence[Callable[[grpc.aio.Server], None]] = (),
                        interceptors: Sequence[grpc.aio.ServerInterceptor[Any, Any]] = (),
                        ) -> tuple[grpc.aio.Server, int]:
    """A started gRPC server for ``host`` on ``address``; returns it and the bound port."""
    server = grpc.aio.server(interceptors=list(interceptors), options=[
        ("grpc.so_reuseport", 0),  # a port in use is an error, not a second listener
        ("grpc.max_receive_message_length", 4 * 1024 * 1024),
        ("grpc.max_send_message_length", 16 * 1024 * 1024),
    ])
    pb_grpc.add_BotServiceServicer_to_server(BotServicer(host), server)
    for add in extra_servicers:
        add(server)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as err:  # grpc's word for "cannot bind"
        raise OSError(f"cannot listen on {address} (in use?)") from err
    if port == 0:
        raise OSError(f"cannot listen on {address} (in use?)")
    await server.start()
    return server, port
