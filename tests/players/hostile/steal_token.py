"""Attack 5: steal another bot's token and take its seats; flood with its own.

    python -m tests.players.hostile.steal_token [--only TEXT]

Looks for tokens other than its own in the environment, command line and stack of
every process in sight and in the files it can read (``/tmp``, its folder, ``/run``);
attends with each one found (on the socket found beside it, else on its own) and with
a few made-up ones, and plays any seat it is offered with them. Then opens several
connections of its own at once, each attending with its own token. Reports what it
found, which attendances were accepted and how many seats it took.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from typing import Any

from .common import (
    INSIDE_SOCKET,
    SERVER,
    error,
    honest,
    own_token,
    parse,
    parser,
    play,
    processes,
    read,
    report,
    stack,
    tokens_in,
)

HOLD_S = 1.5  # how long a stolen attendance waits for a seat
FLOOD = 8  # connections of its own at once


def find_tokens(only: list[str]) -> dict[str, dict[str, str]]:
    """token -> where it was found and the server named beside it (if any)."""
    found: dict[str, dict[str, str]] = {}

    def look(data: bytes, where: str) -> None:
        server = SERVER.search(data)
        for token in tokens_in(data):
            found.setdefault(token, {"where": where,
                                     "server": server.group(1).decode() if server else ""})

    for pid in processes(only):
        for part in ("environ", "cmdline"):
            data = read(f"/proc/{pid}/{part}")
            if isinstance(data, bytes):
                look(data, f"/proc/{pid}/{part}")
        memory = stack(pid)
        if isinstance(memory, bytes):
            look(memory, f"/proc/{pid}/mem")
    for root in ("/tmp", os.getcwd(), "/run") if not only else ():
        for folder, _, names in os.walk(root):
            for name in names:
                data = read(os.path.join(folder, name))
                if isinstance(data, bytes):
                    look(data, os.path.join(folder, name))
    found.pop(own_token(), None)
    return found


class Attendance:
    """One Attend call on a connection of its own (no shared subchannel)."""

    def __init__(self, server: str, token: str) -> None:
        import grpc

        from arena.v1 import arena_pb2 as pb
        from arena.v1 import arena_pb2_grpc as pb_grpc

        self.outcome: dict[str, Any] = {"server": server, "token": token[:6] + "...", "seats": 0}
        self.channel = grpc.aio.insecure_channel(server,
                                                 options=[("grpc.use_local_subchannel_pool", 1)])
        self.stub = pb_grpc.BotServiceStub(self.channel)
        self.call = self.stub.Attend(pb.AttendRequest(token=token))

    async def open(self) -> dict[str, Any]:
        """Whether the arena accepted the token (its mark, in the initial metadata)."""
        from arena.wire.messages import ATTENDING_MARK

        try:
            metadata = await asyncio.wait_for(self.call.initial_metadata(), 3)
            self.outcome["accepted"] = any((key, value) == ATTENDING_MARK
                                           for key, value in metadata or ())
            if not self.outcome["accepted"]:
                self.outcome["refused"] = (await self.call.code()).name
        except Exception as err:
            self.outcome["accepted"] = False
            self.outcome["refused"] = _status(err)
        return self.outcome

    async def hold(self, seconds: float) -> None:
        """Play, honestly, every seat offered for ``seconds``; then hang up."""
        from sdk.run import play_seat

        seats: list[asyncio.Task[None]] = []
        if self.outcome["accepted"]:
            try:
                async with asyncio.timeout(seconds):
                    async for assignment in self.call:
                        self.outcome["seats"] += 1
                        seats.append(asyncio.create_task(
                            play_seat(self.stub, assignment, honest()())))
            except TimeoutError:
                pass
            except Exception as err:
                self.outcome["ended"] = _status(err)
            if seats:
                await asyncio.wait(seats, timeout=10)
        self.call.cancel()
        await self.channel.close(None)


def _status(err: BaseException) -> str:
    code = getattr(err, "code", None)
    return str(getattr(code() if callable(code) else None, "name", error(err)))


async def attack(found: dict[str, dict[str, str]]) -> None:
    own_server = os.environ.get("ARENA_SERVER", INSIDE_SOCKET)
    # tokens of others, each on the socket found beside it (else its own)
    stolen = [Attendance(where["server"] or own_server, token) for token, where in found.items()]
    opened = await asyncio.gather(*(a.open() for a in stolen))
    report("steal_token_stolen", attendances=opened,
           accepted=sum(1 for o in opened if o["accepted"]))
    await asyncio.gather(*(a.hold(HOLD_S) for a in stolen))
    report("steal_token_seats", taken=sum(a.outcome["seats"] for a in stolen))
    # made-up tokens
    guessed = [Attendance(own_server, guess) for guess in ("", "x", secrets.token_urlsafe(24))]
    report("steal_token_guessed", attendances=await asyncio.gather(*(a.open() for a in guessed)))
    await asyncio.gather(*(a.hold(0) for a in guessed))
    # its own token, on many connections at once (the tournament starts with the first)
    flood = [Attendance(own_server, own_token()) for _ in range(FLOOD)]
    opened = await asyncio.gather(*(a.open() for a in flood))
    report("steal_token_flood", attendances=opened,
           accepted=sum(1 for o in opened if o["accepted"]))
    await asyncio.gather(*(a.hold(1.0) for a in flood))


def main() -> None:
    args = parse(parser(__doc__ or ""))
    found = find_tokens(args.only)
    report("steal_token_found", found={t[:6] + "...": where for t, where in found.items()})
    asyncio.run(attack(found))
    play()


if __name__ == "__main__":
    main()
