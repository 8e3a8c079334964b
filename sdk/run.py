"""Connect a bot to a referee and play every seat it is offered.

``run(MyBot)`` reads the server address and the bot's token from the command
line (``--server HOST:PORT --token T``) or from the environment
(``ARENA_SERVER``, ``ARENA_TOKEN``, which is how the arena starts managed bots),
attends, and plays each offered seat on its own stream with a fresh ``MyBot()``.
It returns when the arena ends the bot's attendance.

A remote bot reaching an arena over TLS adds ``--tls-ca FILE`` (the PEM
certificate to trust, e.g. the arena's self-signed one; env ``ARENA_TLS_CA``) or
``--tls`` alone to trust the system's root certificates (env ``ARENA_TLS=1``).

While the arena cannot be reached (not started yet, restarting, a network
glitch) the bot tries again, for up to ``--retry SECONDS`` (env ``ARENA_RETRY``;
60 by default, counted from the first failure since it last attended), so a
remote bot may be started before its tournament and survives a resumed one.
The arena starts its managed bots with ``ARENA_RETRY=0``: they end with it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import grpc

from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.codec import CodecError, codec_for
from arena.wire.messages import ATTENDING_MARK, FAULT_NAMES, decode_options, failure_message
from sdk.bot import Bot, MatchInfo, Result

log = logging.getLogger("sdk")

CLIENT = "card-arena-sdk/0.1.0"
OUT_OF_MEMORY_EXIT = 137
DEFAULT_RETRY_S = 60.0
RETRY_PAUSES_S = (0.2, 0.5, 1.0, 2.0, 5.0)  # between attempts; the last one repeats


def run(bot_factory: Callable[[], Bot], argv: Sequence[str] | None = None) -> None:
    """Attend the arena and play until dismissed (the entry point of a bot process)."""
    parser = argparse.ArgumentParser(description="A Card Arena bot.")
    parser.add_argument("--server", default=os.environ.get("ARENA_SERVER", ""),
                        help="referee address HOST:PORT (default: $ARENA_SERVER)")
    parser.add_argument("--token", default=os.environ.get("ARENA_TOKEN", ""),
                        help="this bot's token (default: $ARENA_TOKEN)")
    parser.add_argument("--tls", action="store_true",
                        default=os.environ.get("ARENA_TLS", "") not in ("", "0"),
                        help="connect over TLS, trusting the system's root certificates "
                             "(default: $ARENA_TLS=1)")
    parser.add_argument("--tls-ca", metavar="FILE", default=os.environ.get("ARENA_TLS_CA", ""),
                        help="connect over TLS, trusting this PEM certificate (default: $ARENA_TLS_CA)")
    parser.add_argument("--retry", metavar="SECONDS", default=os.environ.get("ARENA_RETRY", ""),
                        help=f"how long to keep trying while the arena cannot be reached "
                             f"(default: $ARENA_RETRY or {DEFAULT_RETRY_S:g}; 0: give up at once)")
    args, _ = parser.parse_known_args(argv)
    if not args.server or not args.token:
        parser.error("give --server and --token (or set ARENA_SERVER and ARENA_TOKEN)")
    try:
        retry_s = float(args.retry) if args.retry != "" else DEFAULT_RETRY_S
    except ValueError:
        retry_s = -1.0
    if not retry_s >= 0 or retry_s == float("inf"):
        parser.error(f"--retry must be a number of seconds, 0 or more, not {args.retry!r}")
    credentials = None
    if args.tls or args.tls_ca:
        root = None
        if args.tls_ca:
            try:
                with open(args.tls_ca, "rb") as file:
                    root = file.read()
            except OSError as err:
                parser.error(f"cannot read --tls-ca {args.tls_ca!r}: {err.strerror or err}")
        credentials = grpc.ssl_channel_credentials(root_certificates=root)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        attend(bot_factory, args.server, args.token, credentials, retry_s)
    except grpc.RpcError as err:
        code = _status(err)
        why = f"{code.name} ({_details(err)})" if code is not None else str(err)
        print(f"bot: the arena at {args.server} refused or ended the connection: {why}",
              file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)


def attend(bot_factory: Callable[[], Bot], server: str, token: str,
           credentials: grpc.ChannelCredentials | None = None, retry_s: float = 0.0) -> None:
    asyncio.run(attend_async(bot_factory, server, token, credentials, retry_s))


async def attend_async(bot_factory: Callable[[], Bot], server: str, token: str,
                       credentials: grpc.ChannelCredentials | None = None,
                       retry_s: float = 0.0) -> None:
    """Attend until dismissed, playing each offered seat on its own stream (over TLS
    with ``credentials``, e.g. ``grpc.ssl_channel_credentials(root_certificates=...)``).

    While the arena is unreachable (``UNAVAILABLE``), or still holds this token's
    previous Attend stream (``ALREADY_EXISTS``: a connection that dropped without a
    word, until the arena's keepalive finds it gone), it tries again for up to
    ``retry_s`` seconds from the first failure since it last attended; any other
    refusal (a wrong token, say) ends it at once.
    """
    failed_at: float | None = None
    attempt = 0
    while True:
        try:
            await _attend_once(bot_factory, server, token, credentials)
            return  # dismissed: the tournament is over
        except _Attended:
            failed_at, attempt = None, 0  # it was in: the next outage gets the whole window
        except grpc.RpcError as err:
            if _status(err) not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.ALREADY_EXISTS):
                raise
            now = asyncio.get_running_loop().time()
            failed_at = now if failed_at is None else failed_at
            if now - failed_at >= retry_s:
                raise
            if attempt == 0:
                log.warning("the arena at %s cannot be reached (%s); trying again for up to %g s",
                            server, _details(err), retry_s)
            await asyncio.sleep(RETRY_PAUSES_S[min(attempt, len(RETRY_PAUSES_S) - 1)])
            attempt += 1


def _status(err: BaseException) -> grpc.StatusCode | None:
    """The status of a failed call (``grpc.aio`` errors are no ``grpc.Call``, but have one)."""
    code = getattr(err, "code", None)
    status = code() if callable(code) else None
    return status if isinstance(status, grpc.StatusCode) else None


def _details(err: BaseException) -> str:
    details = getattr(err, "details", None)
    return str(details() if callable(details) else err)


class _Attended(Exception):
    """The arena accepted the bot, then the connection was lost (worth trying again at once)."""


async def _attend_once(bot_factory: Callable[[], Bot], server: str, token: str,
                       credentials: grpc.ChannelCredentials | None) -> None:
    channel = grpc.aio.insecure_channel(server) if credentials is None \
        else grpc.aio.secure_channel(server, credentials)
    async with channel:
        stub = pb_grpc.BotServiceStub(channel)
        seats: set[asyncio.Task[None]] = set()
        call = stub.Attend(pb.AttendRequest(token=token, client=CLIENT))
        # the arena sends this mark as soon as it accepts the token (empty on a refusal)
        metadata = await call.initial_metadata() or ()
        accepted = any((key, value) == ATTENDING_MARK for key, value in metadata)
        try:
            async for assignment in call:
                task = asyncio.create_task(play_seat(stub, assignment, bot_factory()))
                seats.add(task)
                task.add_done_callback(seats.discard)
        except grpc.RpcError as err:
            if accepted and _status(err) == grpc.StatusCode.UNAVAILABLE:
                log.warning("lost the connection to the arena at %s: %s", server, _details(err))
                raise _Attended() from err
            raise
        finally:
            if seats:
                await asyncio.wait(seats, timeout=5)


async def play_seat(stub: Any, assignment: pb.Assignment, bot: Bot) -> None:
    """Play one seat of one match to its end.

    Events reach ``on_events`` in order, all of them before the ``act`` or
    ``on_end`` they precede: those riding on a decision request or on the match
    end are handed over first. The bot's methods run on the event loop: a slow ``act`` holds up this
    process's other seats, never the referee (each seat has its own clock).
    """
    codec = codec_for(assignment.game)
    call = stub.Play()
    late: str | None = None  # the clock's verdict on the answer sent last, if it was late
    try:
        await call.write(pb.BotMessage(hello=pb.Hello(credential=assignment.credential)))
        async for message in call:
            late = None
            kind = message.WhichOneof("kind")
            if kind == "decision":
                request = message.decision
                if request.events:  # what happened since the last delivery comes first
                    bot.on_events([codec.decode_event(e) for e in request.events])
                asked = time.monotonic()
                choice = _decide(bot, codec, request, assignment)
                took = time.monotonic() - asked
                try:
                    await call.write(pb.BotMessage(choice=choice))
                except (grpc.RpcError, asyncio.InvalidStateError):
                    _say_late(assignment, await _why_ended(call, took, request.time_left_s))
                    return
                if request.time_left_s and took > request.time_left_s:
                    # the write may still go out (the stream's end not come through yet): the
                    # referee refuses it, and the end of the stream says so below
                    late = _out_of_time(took, request.time_left_s)
            elif kind == "events":
                bot.on_events([codec.decode_event(e) for e in message.events.events])
            elif kind == "start":
                start = message.start
                bot.on_start(MatchInfo(start.match_id, start.game, start.game_version, start.seat,
                                       start.players, decode_options(start.options),
                                       tuple(start.seat_names), start.move_timeout_s,
                                       start.time_bank_s))
            elif kind == "end":
                end = message.end
                if end.events:
                    bot.on_events([codec.decode_event(e) for e in end.events])
                bot.on_end(Result(tuple(end.scores), tuple(end.ranks),
                                  tuple(FAULT_NAMES.get(f, str(f)) for f in end.faults)))
                break
            elif kind == "notice":
                log.warning("referee: %s", message.notice.text)
        with contextlib.suppress(grpc.RpcError, RuntimeError):
            await call.done_writing()
    except (grpc.RpcError, asyncio.InvalidStateError) as err:
        # The referee ends a seat's stream when the seat is out of the match, with a status
        # that says why (its clock ran out, say); a late write is refused without one.
        if late is not None:  # an answer past its time went out as the stream ended
            _say_late(assignment, late)
        elif _status(err) in (None, grpc.StatusCode.CANCELLED):
            log.warning("match %s seat %s: the referee ended this seat's stream; "
                        "the match goes on without it", assignment.match_id, assignment.seat)
        else:
            log.warning("match %s seat %s: %s", assignment.match_id, assignment.seat, _details(err))
    except MemoryError:
        # Out of memory (e.g. at the arena's memory limit) the process is in no state to go
        # on: it ends, the arena records a crash and starts it afresh for its next match.
        with contextlib.suppress(Exception):
            print(f"bot: out of memory in match {assignment.match_id}; exiting", file=sys.stderr)
        os._exit(OUT_OF_MEMORY_EXIT)
    except Exception as error:
        log.exception("match %s seat %s: the bot failed; leaving the match",
                      assignment.match_id, assignment.seat)
        await _give_up(call, error)


async def _give_up(call: Any, error: Exception) -> None:
    """Tell the referee that the bot failed (the seat ends with an ``error`` fault, the
    message in the match log), then read on until the referee ends the stream."""
    try:
        await call.write(pb.BotMessage(failure=pb.Failure(message=failure_message(error))))
        await call.done_writing()
        async for _ in call:
            pass
    except (grpc.RpcError, asyncio.InvalidStateError):
        pass  # the referee had ended the seat's stream already
    except BaseException:
        call.cancel()
        raise


def _say_late(assignment: pb.Assignment, why: str) -> None:
    log.warning("match %s seat %s: the referee ended this seat's stream before its answer went "
                "out (%s); the match goes on without it", assignment.match_id, assignment.seat,
                why)


def _out_of_time(took_s: float, time_left_s: float) -> str:
    return f"out of time: the answer took {took_s:.2f} s of the {time_left_s:.2f} s it had"


async def _why_ended(call: Any, took_s: float, time_left_s: float, wait_s: float = 5.0) -> str:
    """Why the referee ended a seat's call while its bot was deciding: the status the
    referee ended it with, where it came through (``no answer in time: this seat is out of
    the match``), else what the clock says: the referee's clock and this one run alike."""
    if time_left_s and took_s > time_left_s:
        return _out_of_time(took_s, time_left_s)
    try:  # a failed write has no status of its own: the call's comes with reading on
        async with asyncio.timeout(wait_s):
            async for _ in call:
                pass
            code, details = await call.code(), await call.details()
    except grpc.RpcError as err:
        code, details = _status(err), _details(err)
    except (TimeoutError, asyncio.InvalidStateError):
        return "no reason given"
    if code in (None, grpc.StatusCode.OK, grpc.StatusCode.CANCELLED, grpc.StatusCode.INTERNAL) \
            or not details:
        return "no reason given"
    return str(details)


def _decide(bot: Bot, codec: Any, request: pb.DecisionRequest,
            assignment: pb.Assignment) -> pb.Choice:
    observation = codec.decode_observation(request.observation)
    legal = [codec.decode_action(a) for a in request.legal_actions]
    action = bot.act(observation, legal)
    choice = pb.Choice(decision_id=request.decision_id, note=bot.take_note())
    try:
        choice.index = legal.index(action)
    except ValueError:
        log.warning("match %s seat %s decision %s: the bot chose %r, which is not one of its %d "
                    "legal actions; the referee will refuse it", assignment.match_id,
                    assignment.seat, request.decision_id, action, len(legal))
        try:
            choice.action.CopyFrom(codec.action(action))  # the referee will refuse it
        except (CodecError, TypeError, AttributeError):
            choice.index = len(legal)  # not an action at all: refused just the same
    return choice
