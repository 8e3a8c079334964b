"""A trivial bot over raw gRPC: answers every decision at once with a random legal index.

No SDK, no decoding of observations or events (whether they ride on a decision
request, on the match end or come on their own): the cheapest client there is,
so what is measured is the referee and the transport.

    python -m benchmarks.trivial_bot                       # attend (ARENA_SERVER, ARENA_TOKEN)
    python -m benchmarks.trivial_bot --pingpong ADDR SEAT  # the bare ping-pong client
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
from typing import Any

import grpc

from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc

PINGPONG_METHOD = "/bench.PingPong/Play"
_random = random.Random(0)


async def answer_all(call: Any) -> None:
    """Reply to every decision on ``call`` until the match ends."""
    async for message in call:
        kind = message.WhichOneof("kind")
        if kind == "decision":
            request = message.decision
            await call.write(pb.BotMessage(choice=pb.Choice(
                decision_id=request.decision_id,
                index=_random.randrange(len(request.legal_actions)))))
        elif kind == "end":
            break
    await call.done_writing()


async def play_seat(stub: Any, assignment: pb.Assignment) -> None:
    call = stub.Play()
    await call.write(pb.BotMessage(hello=pb.Hello(credential=assignment.credential)))
    with contextlib.suppress(grpc.RpcError):
        await answer_all(call)


async def attend(server: str, token: str) -> None:
    async with grpc.aio.insecure_channel(server) as channel:
        stub = pb_grpc.BotServiceStub(channel)
        seats: set[asyncio.Task[None]] = set()
        async for assignment in stub.Attend(pb.AttendRequest(token=token)):
            task = asyncio.create_task(play_seat(stub, assignment))
            seats.add(task)
            task.add_done_callback(seats.discard)


async def pingpong(server: str, seat: int) -> None:
    async with grpc.aio.insecure_channel(server) as channel:
        # grpc.aio's stub types want a request iterator; writing by hand needs none
        method: Any = channel.stream_stream(PINGPONG_METHOD,
                                            request_serializer=pb.BotMessage.SerializeToString,
                                            response_deserializer=pb.RefereeMessage.FromString)
        call = method()
        await call.write(pb.BotMessage(hello=pb.Hello(credential=str(seat))))
        await answer_all(call)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--pingpong"]:
        asyncio.run(pingpong(argv[1], int(argv[2])))
    else:
        asyncio.run(attend(os.environ["ARENA_SERVER"], os.environ["ARENA_TOKEN"]))


if __name__ == "__main__":
    main(sys.argv[1:])
