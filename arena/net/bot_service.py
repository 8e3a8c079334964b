"""The gRPC referee server: hosts many matches at once for bots that attend.

Thin servicers: decode, hand off to the :class:`MatchHost`, encode. The host
hands out one random credential per seat of each match (kept only as a hash,
compared in constant time, valid until that match ends) and runs the match
with :func:`arena.match.referee.run_match`.

Limits against hostile bots: small messages (a bot only ever sends a Hello and
Choices), the shared server options (:mod:`arena.net.server_options`: a bounded
number of streams per connection, keepalive pings that find dead or frozen peers),
a bounded number of Attend streams per token, and a deadline on every
write to a bot, so a bot that stops reading its stream (HTTP/2 flow control)
cannot stall the match. A bot's messages are read only when the referee waits on
its decision, so what it sends meanwhile waits in its own flow-control window
(the referee bounds what it reads per decision). The waits without a deadline
are the ones that end with the match (``link.finished``) or with the bot's
attendance (the Attend queue), or when the peer goes away.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from arena.games.base import OptionValue
from arena.match.links import Link
from arena.match.protocol import Decision, MatchEnd, MatchStart, Reply
from arena.match.referee import MatchReport, MatchSettings, run_match
from arena.net.seat_wire import SeatWire
from arena.net.server_options import server_options
from arena.net.tls import server_credentials
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.messages import ATTENDING_MARK, LogEntry
from arena.wire.tokens import digest, new_token

SERVICE = pb.DESCRIPTOR.services_by_name["BotService"].full_name
HELLO_TIMEOUT_S = 10.0
MAX_RECEIVE_BYTES = 64 * 1024       # a Hello or a Choice is well under 1 KB
MAX_ATTEND_STREAMS = 1              # per bot token: whoever else holds a copy is refused
MAX_BOT_CONNECTIONS = 4             # on a managed bot's own socket (a restart needs a second)
MAX_BOT_CALLS = 64                  # calls at once on a managed bot's own socket
MAX_REMOTE_CONNECTIONS = 512        # on the port for remote bots, all of them together
SEND_TIMEOUT_S = 10.0               # per write, for matches without a move deadline
NO_ANSWER = "no answer in time"     # why a seat's call ends when its clock runs out


def send_timeout(settings: MatchSettings) -> float:
    """How long each message the referee writes may wait for the bot to take it: as long as
    the seat may take over one decision (its move clock and its time bank), or
    :data:`SEND_TIMEOUT_S` in a match without a clock. A write only waits when the bot has
    stopped reading; on a busy machine a write the bot takes at once may still finish a
    scheduling delay later, which the bank covers as it covers a late answer."""
    if not settings.move_timeout_s:
        return SEND_TIMEOUT_S
    return settings.move_timeout_s + settings.time_bank_s


@dataclass(frozen=True)
class MatchSpec:
    """One match to host: the game and, per seat, the bot playing it, named by the
    SHA-256 of its token (:func:`digest`) — all a host knows of a remote bot."""

    match_id: str
    game: str
    players: int
    seed: int
    options: dict[str, OptionValue]
    seat_token_hashes: tuple[str, ...]
    seat_names: tuple[str, ...]
    settings: MatchSettings = field(default_factory=MatchSettings)


@dataclass
class _PendingSeat:
    match_id: str
    game: str
    seat: int
    credential_hash: str
    link: asyncio.Future[Link]
    send_timeout_s: float = SEND_TIMEOUT_S


@dataclass
class _Attendee:
    """A bot (by token) and the assignments waiting for it."""

    queue: asyncio.Queue[pb.Assignment | None] = field(default_factory=asyncio.Queue)
    streams: int = 0


class _Alarm:
    """A deadline for one awaited operation at a time, on a timer that is re-armed lazily.

    When the operation is still pending at its deadline the alarm calls
    ``ring`` (which ends the call with a status for the bot, and so fails the
    operation); if that cannot get through (a bot that stopped reading holds
    even the status back) the awaiting task is cancelled ``FORCE_AFTER_S`` later,
    which resets the stream. Unlike ``asyncio.timeout`` it keeps one timer per
    link instead of scheduling and cancelling one per operation: the next
    deadline is almost always later than the armed timer, which then only
    re-arms itself when it fires early.
    """

    FORCE_AFTER_S = 1.0
    __slots__ = ("_deadline", "_handle", "_loop", "_ring", "_task", "forced", "rang")

    def __init__(self, ring: Callable[[], None]) -> None:
        self._loop = asyncio.get_running_loop()
        self._deadline: float | None = None
        self._handle: asyncio.TimerHandle | None = None
        self._ring = ring
        self._task: asyncio.Task[Any] | None = None  # the task awaiting the operation
        self.rang = False
        self.forced = False

    def set(self, seconds: float) -> None:
        self._deadline = deadline = self._loop.time() + seconds
        self._task = asyncio.current_task(self._loop)  # given the loop: no getpid() system call
        if self._handle is None or self._handle.when() > deadline:
            if self._handle is not None:
                self._handle.cancel()
            self._handle = self._loop.call_at(deadline, self._check)

    def clear(self) -> None:
        self._deadline = None
        self._task = None

    def took(self) -> bool:
        """Whether the alarm cancelled the current task (a ``CancelledError`` of its own)."""
        if not self.forced:
            return False
        self.forced = False
        task = asyncio.current_task(self._loop)
        if task is not None:
            task.uncancel()
        return True

    def _check(self) -> None:
        self._handle = None
        if self._deadline is None:
            return
        if self._loop.time() + 0.001 < self._deadline:  # armed for an earlier operation: wait on
            self._handle = self._loop.call_at(self._deadline, self._check)
            return
        self._deadline = None
        self.rang = True
        self._ring()
        self._loop.call_later(self.FORCE_AFTER_S, self._force)

    def _force(self) -> None:
        if self._task is not None:  # the operation is still pending
            self.forced = True
            self._task.cancel()


class GrpcLink:
    """A seat's Play stream, seen by the referee as a :class:`arena.match.links.Link`.

    It writes the referee's typed messages as ``arena.v1.RefereeMessage`` bytes and
    reads the bot's ``BotMessage`` bytes into typed replies (:class:`SeatWire`).

    The referee reads the stream itself, only while it waits on the seat's
    decision (no reader task and no queue between the two: a hop fewer per
    decision). A read or a write that does not finish in time (a silent bot, or
    one that stopped reading so that flow control holds the write back) ends the
    call with ``DEADLINE_EXCEEDED`` and a reason for the bot; the pending
    operation fails at once, and the referee marks the seat with a timeout or a
    disconnect. The seat is out of the match either way.
    """

    def __init__(self, context: grpc.aio.ServicerContext[pb.BotMessage, pb.RefereeMessage],
                 wire: SeatWire, send_timeout_s: float = SEND_TIMEOUT_S) -> None:
        self._context = context
        self.peer: str = context.peer()  # the connection the seat is played over
        self._wire = wire
        self._gone = False
        self._send_timeout_s = send_timeout_s
        self._alarm = _Alarm(self._cut_off)
        self._silent_reader = f"the bot read nothing for {send_timeout_s:g} s"
        self._why = ""  # why a cut-off call ends: the reason of the operation pending
        self._ending: asyncio.Task[None] | None = None  # the cut-off, held until done
        self._asked = 0  # the decision id the bot was last asked
        self.finished = asyncio.Event()

    def hang_up(self) -> None:
        """Stop talking to this bot: its Play call ends."""
        self._gone = True
        self.finished.set()

    # -- the referee's messages (each the coroutine of its write: one frame less) --------
    def start(self, start: MatchStart) -> Coroutine[Any, Any, None]:
        return self._write(self._wire.start(start))

    def decide(self, decision: Decision) -> Coroutine[Any, Any, None]:
        self._asked = decision.decision_id
        return self._write(self._wire.decision(decision))

    def events(self, events: Sequence[Any]) -> Coroutine[Any, Any, None]:
        return self._write(self._wire.events(events))

    def notice(self, text: str, decision_id: int) -> Coroutine[Any, Any, None]:
        return self._write(self._wire.notice(text, decision_id))

    def end(self, end: MatchEnd) -> Coroutine[Any, Any, None]:
        return self._write(self._wire.end(end))

    async def _write(self, message: bytes) -> None:
        if self._gone:
            return
        self._why = self._silent_reader
        self._alarm.set(self._send_timeout_s)
        try:
            await self._context.write(message)  # type: ignore[arg-type]  # bytes: see _as_is
        except asyncio.CancelledError:
            if not self._alarm.took():
                raise
            self.hang_up()
        except Exception:  # cut off, or the stream is gone (grpc raises several types for that)
            self.hang_up()
        finally:
            self._alarm.clear()

    # -- the bot's messages --------------------------------------------------------------
    async def receive(self, timeout: float | None) -> Reply | None:
        if self._gone:
            return None
        if timeout is not None:
            self._why = NO_ANSWER
            self._alarm.set(timeout)
        try:
            message = await self._context.read()
        except asyncio.CancelledError:
            if not self._alarm.took():
                raise
            self.hang_up()
            raise TimeoutError from None
        except Exception:  # cut off, or the stream is gone
            self.hang_up()
            if self._alarm.rang:
                raise TimeoutError from None
            return None
        finally:
            self._alarm.clear()
        if not isinstance(message, bytes):  # grpc.aio.EOF: the bot closed its side
            self.hang_up()
            return None
        return self._wire.reply(message, self._asked)

    def _cut_off(self) -> None:
        """End the call with a status that tells the bot why; its pending operation fails."""
        async def end() -> None:
            with contextlib.suppress(Exception):
                await self._context.abort(grpc.StatusCode.DEADLINE_EXCEEDED,
                                          f"{self._why}: this seat is out of the match")

        self._ending = asyncio.ensure_future(end())

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
        self.admit_hash(digest(token))

    def admit_hash(self, token_hash: str) -> None:
        """Let the bot whose token has this SHA-256 (hex) attend: a remote bot, whose
        token is known only to its author and kept by the store as this hash."""
        self._attendees.setdefault(token_hash, _Attendee())

    def dismiss(self, token: str) -> None:
        """End the bot's attendance: its Attend stream closes."""
        self.dismiss_hash(digest(token))

    def dismiss_hash(self, token_hash: str) -> None:
        attendee = self._attendees.pop(token_hash, None)
        if attendee is not None:
            for _ in range(max(1, attendee.streams)):
                attendee.queue.put_nowait(None)

    def attendee(self, token: str) -> _Attendee | None:
        """The admitted bot with this token, compared with every admitted one in constant time."""
        key = digest(token)
        found = None
        for stored, attendee in self._attendees.items():
            if hmac.compare_digest(stored, key):
                found = attendee
        return found

    def attending(self, token_hash: str) -> bool:
        """Whether the bot with this token hash has an Attend stream open right now."""
        attendee = self._attendees.get(token_hash)
        return attendee is not None and attendee.streams > 0

    def still_open(self, assignment: pb.Assignment) -> bool:
        """Whether the seat this assignment offers can still be taken (its match has not ended)."""
        return digest(assignment.credential) in self._pending

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
                   is_alive: Callable[[int], Awaitable[bool]] | None = None,
                   journal: list[LogEntry] | None = None,
                   ended: Callable[[int], Awaitable[object] | None] | None = None,
                   ) -> MatchReport:
        """Offer every seat to its bot, then referee the match to its end (``journal``: the
        log so far, as :func:`~arena.match.referee.run_match` keeps it; ``ended``: when each
        seat's bot can no longer connect, as ``run_match`` takes it)."""
        loop = asyncio.get_running_loop()
        seats: list[_PendingSeat] = []
        for seat, key in enumerate(spec.seat_token_hashes):
            credential = new_token(24)
            pending = _PendingSeat(spec.match_id, spec.game, seat, digest(credential),
                                   loop.create_future(), send_timeout(spec.settings))
            self._pending[pending.credential_hash] = pending
            seats.append(pending)
            attendee = self._attendees.get(key)
            if attendee is not None:
                attendee.queue.put_nowait(pb.Assignment(match_id=spec.match_id, seat=seat,
                                                        credential=credential, game=spec.game))
        try:
            report = await run_match(
                game_name=spec.game, players=spec.players, seed=spec.seed, options=spec.options,
                links=[s.link for s in seats], settings=spec.settings, match_id=spec.match_id,
                seat_names=spec.seat_names, is_alive=is_alive, journal=journal, ended=ended)
            report.peers = tuple(_peer(s.link) for s in seats)
            return report
        finally:
            for pending in seats:  # credentials expire with the match
                self._pending.pop(pending.credential_hash, None)
                if not pending.link.done():
                    pending.link.cancel()
                elif not pending.link.cancelled() and pending.link.exception() is None:
                    await pending.link.result().close()  # its Play call ends even if the match failed


def _peer(link: asyncio.Future[Link]) -> str | None:
    """The connection a seat was played over, if its bot ever took it."""
    if link.done() and not link.cancelled() and link.exception() is None:
        taken = link.result()
        return taken.peer if isinstance(taken, GrpcLink) else None
    return None


class BotServicer(pb_grpc.BotServiceServicer):  # type: ignore[misc]
    """The bot service; with ``only``, for one bot (the token hash given) and no other."""

    def __init__(self, host: MatchHost, only: str | None = None) -> None:
        self.host = host
        self.only = only

    async def Attend(self, request: pb.AttendRequest,
                     context: grpc.aio.ServicerContext[pb.AttendRequest, pb.Assignment]
                     ) -> AsyncIterator[pb.Assignment]:
        attendee = self.host.attendee(request.token)
        if self.only is not None and not hmac.compare_digest(digest(request.token), self.only):
            attendee = None  # another bot's token, on this bot's socket
        if attendee is None:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown bot token")
            return
        if attendee.streams >= MAX_ATTEND_STREAMS:
            await context.abort(grpc.StatusCode.ALREADY_EXISTS,
                                "this bot token is attending already, on another connection "
                                "(one Attend stream per token)")
            return
        attendee.streams += 1  # counted before any await: streams at once see each other
        try:
            await context.send_initial_metadata((ATTENDING_MARK,))  # the bot knows it is in
            while True:
                assignment = await attendee.queue.get()
                if assignment is None:
                    return
                if not self.host.still_open(assignment):
                    continue  # its match ended while the bot was away (a no-show): nothing to play
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
            data = await asyncio.wait_for(context.read(), HELLO_TIMEOUT_S)
            hello = pb.BotMessage.FromString(data)  # type: ignore[arg-type]  # bytes: see _as_is
        except TimeoutError:
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "no hello")
            return
        except Exception:  # bytes that are no BotMessage, or no message at all (the bot closed)
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the first message must be hello")
            return
        if hello.WhichOneof("kind") != "hello":
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the first message must be hello")
            return
        pending = self.host.claim_seat(hello.hello.credential)
        if pending is None or pending.link.done():
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown or expired seat credential")
            return
        link = GrpcLink(context, SeatWire.for_game(pending.game), pending.send_timeout_s)
        pending.link.set_result(link)
        await link.finished.wait()  # the referee reads and writes the stream until then


def _add_bot_service(servicer: BotServicer, server: grpc.aio.Server) -> None:
    """The generated ``add_BotServiceServicer_to_server``, but Play passes bytes as they are,
    both ways: a seat's link writes serialized ``RefereeMessage``s and reads a bot's
    ``BotMessage``s itself, only while the referee waits on that seat (:class:`SeatWire`)."""
    handlers = {
        "Attend": grpc.unary_stream_rpc_method_handler(
            servicer.Attend, request_deserializer=pb.AttendRequest.FromString,
            response_serializer=pb.Assignment.SerializeToString),
        "Play": grpc.stream_stream_rpc_method_handler(
            servicer.Play, request_deserializer=_as_is, response_serializer=_as_is),
    }
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    server.add_registered_method_handlers(SERVICE, handlers)  # type: ignore[attr-defined]


def _as_is(message: bytes) -> bytes:
    return message


async def create_server(host: MatchHost, address: str = "127.0.0.1:0",
                        extra_servicers: Sequence[Callable[[grpc.aio.Server], None]] = (),
                        interceptors: Sequence[grpc.aio.ServerInterceptor[Any, Any]] = (),
                        credentials: grpc.ServerCredentials | None = None,
                        only: str | None = None, max_connections: int | None = None,
                        max_calls: int | None = None) -> tuple[grpc.aio.Server, int]:
    """A started gRPC server for ``host`` on ``address``; returns it and the bound port.

    With ``credentials`` (see :mod:`arena.net.tls`) the port speaks TLS only. With
    ``only`` (a token hash) it serves that bot alone. Connections beyond
    ``max_connections`` are closed as they come; calls beyond ``max_calls`` at once
    are refused (``RESOURCE_EXHAUSTED``).
    """
    server = grpc.aio.server(interceptors=list(interceptors),
                             options=server_options(MAX_RECEIVE_BYTES, max_connections),
                             maximum_concurrent_rpcs=max_calls)
    _add_bot_service(BotServicer(host, only), server)
    for add in extra_servicers:
        add(server)
    port = bind(server, address, credentials)
    await server.start()
    return server, port


def bind(server: grpc.aio.Server, address: str, credentials: grpc.ServerCredentials | None) -> int:
    """Add a port on ``address`` to ``server`` (TLS only with ``credentials``); the port bound.
    One clear ``OSError`` when it cannot be bound."""
    try:
        if credentials is None:
            port = server.add_insecure_port(address)
        else:
            port = server.add_secure_port(address, credentials)
    except RuntimeError as err:  # grpc's word for "cannot bind"
        raise OSError(f"cannot listen on {address} (in use?)") from err
    if port == 0:
        raise OSError(f"cannot listen on {address} (in use?)")
    return port


class BotServer:
    """A started bot service for a :class:`MatchHost`, seen from above the network layer:
    the port it listens on and a way to stop it, with no gRPC object to hold."""

    def __init__(self, server: grpc.aio.Server, port: int, tls: bool) -> None:
        self._server = server
        self.port = port
        self.tls = tls

    @classmethod
    async def start(cls, host: MatchHost, address: str = "127.0.0.1:0",
                    tls: tuple[str | Path, str | Path] | None = None) -> BotServer:
        """Listen on ``address`` (port 0: any free one) for remote bots, at most
        :data:`MAX_REMOTE_CONNECTIONS` connections at once; with ``tls`` (certificate chain
        and key, PEM files: see :mod:`arena.net.tls`) the port speaks TLS only. A port
        that cannot be bound is an ``OSError``."""
        credentials = server_credentials(*tls) if tls is not None else None
        server, port = await create_server(host, address, credentials=credentials,
                                           max_connections=MAX_REMOTE_CONNECTIONS)
        return cls(server, port, tls is not None)

    @classmethod
    async def for_bot(cls, host: MatchHost, socket: Path, token_hash: str) -> BotServer:
        """One managed bot's own service, on the Unix socket ``socket`` (made private to
        this user): it admits that bot's token only, and caps its connections
        (:data:`MAX_BOT_CONNECTIONS`) and calls (:data:`MAX_BOT_CALLS`), so that no bot,
        however many processes it starts, can use up the arena's descriptors."""
        server, _ = await create_server(host, f"unix:{socket}", only=token_hash,
                                        max_connections=MAX_BOT_CONNECTIONS,
                                        max_calls=MAX_BOT_CALLS)
        return cls(server, 0, False)

    async def stop(self, grace: float = 1.0) -> None:
        """Stop listening; calls still open get ``grace`` seconds to end."""
        await self._server.stop(grace=grace)
