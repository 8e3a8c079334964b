"""Connect a bot to a referee and play every seat it is offered.

``run(MyBot)`` reads the server address and the bot's token from the command
line (``--server HOST:PORT --token T``) or from the environment
(``ARENA_SERVER``, ``ARENA_TOKEN``, which is how the arena starts managed bots),
attends, and plays each offered seat on its own stream and thread with a fresh
``MyBot()``. It returns when the arena ends the bot's attendance.
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import grpc

from arena.codec import codec_for, decode_options
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from sdk.bot import Bot, MatchInfo, Result

log = logging.getLogger("sdk")

CLIENT = "card-arena-sdk/0.1.0"
FAULTS = {v: k.removeprefix("FAULT_").lower().replace("_", "-") for k, v in pb.Fault.items()}
FAULTS[pb.FAULT_NONE] = ""


def run(bot_factory: Callable[[], Bot], argv: Sequence[str] | None = None) -> None:
    """Attend the arena and play until dismissed (the entry point of a bot process)."""
    parser = argparse.ArgumentParser(description="A Card Arena bot.")
    parser.add_argument("--server", default=os.environ.get("ARENA_SERVER", ""),
                        help="referee address HOST:PORT (default: $ARENA_SERVER)")
    parser.add_argument("--token", default=os.environ.get("ARENA_TOKEN", ""),
                        help="this bot's token (default: $ARENA_TOKEN)")
    args, _ = parser.parse_known_args(argv)
    if not args.server or not args.token:
        parser.error("give --server and --token (or set ARENA_SERVER and ARENA_TOKEN)")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        attend(bot_factory, args.server, args.token)
    except grpc.RpcError as err:
        code = err.code() if isinstance(err, grpc.Call) else None
        print(f"bot: the arena at {args.server} ended the connection: {code}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)


def attend(bot_factory: Callable[[], Bot], server: str, token: str) -> None:
    with grpc.insecure_channel(server) as channel:
        stub = pb_grpc.BotServiceStub(channel)
        threads: list[threading.Thread] = []
        for assignment in stub.Attend(pb.AttendRequest(token=token, client=CLIENT)):
            thread = threading.Thread(target=play_seat, args=(stub, assignment, bot_factory()),
                                      name=f"seat-{assignment.match_id}-{assignment.seat}",
                                      daemon=True)
            thread.start()
            threads = [t for t in threads if t.is_alive()] + [thread]
        for thread in threads:
            thread.join(timeout=5)


def play_seat(stub: pb_grpc.BotServiceStub, assignment: pb.Assignment, bot: Bot) -> None:
    """Play one seat of one match to its end."""
    outbox: queue.Queue[pb.BotMessage | None] = queue.Queue()
    outbox.put(pb.BotMessage(hello=pb.Hello(credential=assignment.credential)))
    requests: Iterator[pb.BotMessage] = iter(outbox.get, None)
    codec = codec_for(assignment.game)
    try:
        for message in stub.Play(requests):
            kind = message.WhichOneof("kind")
            if kind == "decision":
                outbox.put(pb.BotMessage(choice=_decide(bot, codec, message.decision)))
            elif kind == "events":
                bot.on_events([codec.decode_event(e) for e in message.events.events])
            elif kind == "start":
                start = message.start
                bot.on_start(MatchInfo(start.match_id, start.game, start.game_version, start.seat,
                                       start.players, decode_options(start.options),
                                       tuple(start.seat_names), start.move_timeout_s))
            elif kind == "end":
                end = message.end
                bot.on_end(Result(tuple(end.scores), tuple(end.ranks),
                                  tuple(FAULTS.get(f, str(f)) for f in end.faults)))
            elif kind == "notice":
                log.warning("referee: %s", message.notice.text)
    except grpc.RpcError as err:
        if isinstance(err, grpc.Call) and err.code() != grpc.StatusCode.CANCELLED:
            log.warning("match %s seat %s: %s", assignment.match_id, assignment.seat, err.details())
    except Exception:
        log.exception("match %s seat %s: the bot failed; leaving the match",
                      assignment.match_id, assignment.seat)
    finally:
        outbox.put(None)


def _decide(bot: Bot, codec: Any, request: pb.DecisionRequest) -> pb.Choice:
    observation = codec.decode_observation(request.observation)
    legal = [codec.decode_action(a) for a in request.legal_actions]
    action = bot.act(observation, legal)
    choice = pb.Choice(decision_id=request.decision_id)
    try:
        choice.index = legal.index(action)
    except ValueError:
        choice.action.CopyFrom(codec.action(action))  # not legal: the referee will say so
    return choice
