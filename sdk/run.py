"""Connect a bot to a referee and play every seat it is offered.

``run(MyBot)`` reads the server address and the bot's token from the command
line (``--server HOST:PORT --token T``) or from the environment
(``ARENA_SERVER``, ``ARENA_TOKEN``, which is how the arena starts managed bots),
attends, and plays each offered seat on its own stream with a fresh ``MyBot()``.
It returns when the arena ends the bot's attendance.

A remote bot reaching an arena over TLS adds ``--tls-ca FILE`` (the PEM
certificate to trust, e.g. the arena's self-signed one; env ``ARENA_TLS_CA``) or
``--tls`` alone to trust the system's root certificates (env ``ARENA_TLS=1``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import grpc

from arena.codec import FAULT_NAMES, CodecError, codec_for, decode_options
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from sdk.bot import Bot, MatchInfo, Result

log = logging.getLogger("sdk")

CLIENT = "card-arena-sdk/0.1.0"
OUT_OF_MEMORY_EXIT = 137


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
    args, _ = parser.parse_known_args(argv)
    if not args.server or not args.token:
        parser.error("give --server and --token (or set ARENA_SERVER and ARENA_TOKEN)")
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
        attend(bot_factory, args.server, args.token, credentials)
    except grpc.RpcError as err:
        why = f"{err.code().name} ({err.details()})" if isinstance(err, grpc.Call) else str(err)
        print(f"bot: the arena at {args.server} refused or ended the connection: {why}",
              file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)


def attend(bot_factory: Callable[[], Bot], server: str, token: str,
           credentials: grpc.ChannelCredentials | None = None) -> None:
    asyncio.run(attend_async(bot_factory, server, token, credentials))


async def attend_async(bot_factory: Callable[[], Bot], server: str, token: str,
                       credentials: grpc.ChannelCredentials | None = None) -> None:
    """Attend until dismissed, playing each offered seat on its own stream (over TLS
    with ``credentials``, e.g. ``grpc.ssl_channel_credentials(root_certificates=...)``)."""
    channel = grpc.aio.insecure_channel(server) if credentials is None \
        else grpc.aio.secure_channel(server, credentials)
    async with channel:
        stub = pb_grpc.BotServiceStub(channel)
        seats: set[asyncio.Task[None]] = set()
        async for assignment in stub.Attend(pb.AttendRequest(token=token, client=CLIENT)):
            task = asyncio.create_task(play_seat(stub, assignment, bot_factory()))
            seats.add(task)
            task.add_done_callback(seats.discard)
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
    try:
        await call.write(pb.BotMessage(hello=pb.Hello(credential=assignment.credential)))
        async for message in call:
            kind = message.WhichOneof("kind")
            if kind == "decision":
                request = message.decision
                if request.events:  # what happened since the last delivery comes first
                    bot.on_events([codec.decode_event(e) for e in request.events])
                await call.write(pb.BotMessage(choice=_decide(bot, codec, request)))
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
        # The referee ends a seat's stream when the seat is out of the match (its clock ran
        # out, or a flood): grpc reports a cancelled call, or refuses the late write.
        if not isinstance(err, grpc.Call) or err.code() == grpc.StatusCode.CANCELLED:
            log.warning("match %s seat %s: the referee ended this seat's stream (out of time?); "
                        "the match goes on without it", assignment.match_id, assignment.seat)
        else:
            log.warning("match %s seat %s: %s", assignment.match_id, assignment.seat, err.details())
    except MemoryError:
        # Out of memory (e.g. at the arena's memory limit) the process is in no state to go
        # on: it ends, the arena records a crash and starts it afresh for its next match.
        with contextlib.suppress(Exception):
            print(f"bot: out of memory in match {assignment.match_id}; exiting", file=sys.stderr)
        os._exit(OUT_OF_MEMORY_EXIT)
    except Exception:
        log.exception("match %s seat %s: the bot failed; leaving the match",
                      assignment.match_id, assignment.seat)
        call.cancel()


def _decide(bot: Bot, codec: Any, request: pb.DecisionRequest) -> pb.Choice:
    observation = codec.decode_observation(request.observation)
    legal = [codec.decode_action(a) for a in request.legal_actions]
    action = bot.act(observation, legal)
    choice = pb.Choice(decision_id=request.decision_id)
    try:
        choice.index = legal.index(action)
    except ValueError:
        log.warning("the bot chose %r, which is not a legal action", action)
        try:
            choice.action.CopyFrom(codec.action(action))  # the referee will refuse it
        except (CodecError, TypeError, AttributeError):
            choice.index = len(legal)  # not an action at all: refused just the same
    return choice
