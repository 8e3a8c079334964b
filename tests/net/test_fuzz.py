"""Fuzzing the bot-facing service while real bots play a real match on it.

Random bytes and random, valid-but-hostile ``BotMessage``s go to ``Attend`` and
``Play`` (each call with a deadline); the server must never crash or hang, and the
matches played meanwhile must finish without a fault. About 10 s by default;

    ARENA_FUZZ_SECONDS=300 ARENA_FUZZ_SEED=7 pytest tests/net/test_fuzz.py

runs longer, from another seed.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import Counter
from pathlib import Path

import grpc

from arena.match.referee import MatchReport, MatchSettings
from arena.net.bot_service import MatchHost
from arena.v1 import arena_pb2 as pb
from tests.helpers import attend_call, on_server, play_call, spec, started, unknown_field

FUZZ_SECONDS = float(os.environ.get("ARENA_FUZZ_SECONDS", "10"))
FUZZ_SEED = int(os.environ.get("ARENA_FUZZ_SEED", "2026"))
SETTINGS = MatchSettings(move_timeout_s=5, start_timeout_s=10)


def hostile_message(rng: random.Random, credentials: list[str]) -> bytes:
    """Random bytes, or a BotMessage that parses but should never be accepted."""
    kind = rng.randrange(9)
    huge = rng.choice([0, 1, 2**32, 2**63, 2**64 - 1, rng.getrandbits(64)])
    if kind == 0:
        return rng.randbytes(rng.randrange(0, 300))
    if kind == 1:
        return b""
    if kind == 2:  # a hello with a guessed, truncated or recycled credential
        guess = rng.choice(credentials) if credentials else "x"
        guess = rng.choice([guess, guess[:-1], guess + "A", "", rng.randbytes(24).hex()])
        return pb.BotMessage(hello=pb.Hello(credential=guess)).SerializeToString()
    if kind == 3:
        return pb.BotMessage(choice=pb.Choice(decision_id=huge, index=rng.getrandbits(32))
                             ).SerializeToString()
    if kind == 4:  # an action with no game in it, or an empty choice
        choice = pb.Choice(decision_id=huge)
        if rng.random() < 0.5:
            choice.action.SetInParent()
        return pb.BotMessage(choice=choice).SerializeToString()
    if kind == 5:  # unknown fields, some shaped like a MatchEnd
        end = pb.RefereeMessage(end=pb.MatchEnd(scores=[1e9], ranks=[1])).SerializeToString()
        return unknown_field(rng.randrange(3, 2000), rng.choice([end, rng.randbytes(50)]))
    if kind == 6:  # a valid message with random bytes flipped
        data = bytearray(pb.BotMessage(choice=pb.Choice(decision_id=huge, index=1)).SerializeToString())
        for _ in range(rng.randrange(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    if kind == 7:  # a length prefix that lies
        return b"\x12" + bytes([0xFF] * rng.randrange(1, 11)) + rng.randbytes(5)
    return rng.randbytes(rng.randrange(1000, 20_000))


async def fuzz(port: int, rng: random.Random, seconds: float, credentials: list[str]) -> Counter[str]:
    """Throw hostile calls at the server until ``seconds`` are up; tally how they ended."""
    outcomes: Counter[str] = Counter()
    deadline = time.monotonic() + seconds
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:

        async def one_play() -> None:
            call = play_call(channel)
            try:
                for _ in range(rng.randrange(1, 6)):
                    await call.write(hostile_message(rng, credentials))
                if rng.random() < 0.5:
                    await call.done_writing()
                await asyncio.wait_for(call.read(), 2.0)
                outcomes["play answered"] += 1
            except grpc.aio.AioRpcError as err:
                outcomes[f"play {err.code().name}"] += 1
            except asyncio.InvalidStateError:  # refused before all was written: the call is over
                outcomes["play ended"] += 1
            except TimeoutError:
                outcomes["play waiting"] += 1
            finally:
                call.cancel()

        async def one_attend() -> None:
            request = rng.choice([rng.randbytes(rng.randrange(0, 200)),
                                  pb.AttendRequest(token=rng.randbytes(8).hex()).SerializeToString()])
            call = channel.unary_stream("/arena.v1.BotService/Attend",
                                        request_serializer=lambda b: b,
                                        response_deserializer=lambda b: b)(request, timeout=1.0)
            try:
                await call.read()
                outcomes["attend answered"] += 1
            except grpc.aio.AioRpcError as err:
                outcomes[f"attend {err.code().name}"] += 1

        while time.monotonic() < deadline:
            await asyncio.gather(*(rng.choice([one_play, one_attend])() for _ in range(8)))
    return outcomes


def test_fuzzing_the_bot_service_breaks_nothing(tmp_path: Path) -> None:
    rng = random.Random(FUZZ_SEED)

    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[list[MatchReport], Counter[str]]:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        heur = await started(host, port, tmp, "heuristic", "python -m bots.face_card_kill_card")
        reports: list[MatchReport] = []
        fuzzing = True

        async def keep_playing() -> None:
            number = 0
            while fuzzing or number == 0:
                number += 1
                reports.append(await host.play(spec(f"m{number}", (rnd.token, heur.token) * 2,
                                                    seed=number, settings=SETTINGS)))

        try:
            games = asyncio.create_task(keep_playing())
            outcomes = await fuzz(port, rng, FUZZ_SECONDS, [])
            fuzzing = False
            await asyncio.wait_for(games, 60)
            # afterwards the server still answers: a refusal for a stranger, a match for the bots
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                call = attend_call(channel, "stranger")
                try:
                    await asyncio.wait_for(call.read(), 5)
                    outcomes["late attend answered"] += 1
                except grpc.aio.AioRpcError as err:
                    outcomes[f"late attend {err.code().name}"] += 1
            reports.append(await asyncio.wait_for(host.play(spec(
                "last", (heur.token, rnd.token), seed=99, settings=SETTINGS)), 60))
            return reports, outcomes
        finally:
            await asyncio.gather(rnd.stop(), heur.stop())

    reports, outcomes = on_server(tmp_path, scenario)
    assert len(reports) >= 3
    for report in reports:
        assert report.faults == ("",) * len(report.faults), report.faults
        assert report.rejected_replies == 0
    assert outcomes["late attend UNAUTHENTICATED"] == 1, outcomes
    assert not any(key.endswith("answered") for key in outcomes), outcomes  # nothing hostile got in
    assert sum(outcomes.values()) > 100, outcomes
