"""Bots that misbehave on purpose, for the referee's tests.

    python -m tests.bots.misbehaving crash      # dies when asked for its first decision
    python -m tests.bots.misbehaving spawn      # starts a grandchild process, then plays
    python -m tests.bots.misbehaving exit       # exits at once
    python -m tests.bots.misbehaving flood      # plays, writing a megabyte to stdout and stderr each move
    python -m tests.bots.misbehaving hang       # loops forever when asked to decide
    python -m tests.bots.misbehaving slow       # answers its first decision of a match late (SLOW_RELEASE)
    python -m tests.bots.misbehaving stall      # stops itself (SIGSTOP) when asked to decide
    python -m tests.bots.misbehaving illegal    # answers an action that is never legal
    python -m tests.bots.misbehaving forge      # answers for a decision id it was not asked, then legally
    python -m tests.bots.misbehaving hog        # allocates without end when asked to decide
    python -m tests.bots.misbehaving files      # opens files until refused (reports how many), then plays
    python -m tests.bots.misbehaving limits     # prints its resource limits (cgroups too), then plays
    python -m tests.bots.misbehaving spy [DUMP [DIR]]  # plays, dumps all it learns to DUMP (-: stdout)
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bots.random_bot import RandomBot
from sdk.bot import MatchInfo
from sdk.run import run


class CrashingBot(RandomBot):
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        os._exit(3)


class FloodingBot(RandomBot):
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        sys.stdout.write("x" * 500_000 + "\n")
        sys.stderr.write("y" * 500_000 + "\n")
        return super().act(observation, legal_actions)


class HangingBot(RandomBot):
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        while True:
            pass


class SlowBot(RandomBot):
    """Answers its first decision of a match only once the file named by the match's id
    exists in the folder ``$SLOW_RELEASE`` (the test writes it once the referee has cut the
    seat off): an answer late by the event, not by a guess at the clock."""

    def __init__(self) -> None:
        super().__init__(0)
        self.decisions = 0
        self.match_id = ""

    def on_start(self, match: MatchInfo) -> None:
        super().on_start(match)
        self.match_id = match.match_id

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.decisions += 1
        if self.decisions == 1:
            gate = Path(os.environ["SLOW_RELEASE"]) / self.match_id
            given_up = time.monotonic() + 600  # a safety net for a test that failed meanwhile
            while not gate.exists() and time.monotonic() < given_up:
                time.sleep(0.01)
        return super().act(observation, legal_actions)


class StallingBot(RandomBot):
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        os.kill(os.getpid(), signal.SIGSTOP)
        return super().act(observation, legal_actions)


class IllegalBot(RandomBot):
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return "resign"  # not an action of any game: the SDK sends it; the referee refuses it


class HoggingBot(RandomBot):
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        hoard = []
        while True:  # 64 MB at a time, touched so that it is really used
            hoard.append(bytearray(b"x" * (64 << 20)))


class FileHoardingBot(RandomBot):
    """Opens files until the system refuses (at most 10,000), says how it ended, plays on."""

    def __init__(self) -> None:
        super().__init__(0)
        handles = []
        try:
            for _ in range(10_000):
                handles.append(open(os.devnull, "rb"))  # noqa: SIM115 (kept open on purpose)
            print(f"no limit hit after {len(handles)} open files", flush=True)
        except OSError as err:
            name = errno.errorcode.get(err.errno or 0, str(err.errno))
            print(f"{name} after {len(handles)} open files", flush=True)
        for handle in handles:
            handle.close()


def spy(dump_to: str = "-", read_dir: str = "") -> None:
    """A raw client that plays index 0 and records everything it learns: its argv, its
    environment, every message received (as bytes) and the files under ``read_dir`` (each
    after a line ``FILE path``). Each seat appends a dump to the file ``dump_to`` when its
    match ends; to stdout (the bot's log) with ``-``, for a bot that can write nowhere else."""
    import asyncio
    from pathlib import Path

    import grpc

    from arena.v1 import arena_pb2 as pb
    from arena.v1 import arena_pb2_grpc as pb_grpc

    def dump(received: list[bytes]) -> None:
        parts = [repr(sys.argv).encode(), repr(dict(os.environ)).encode(), *received]
        for path in sorted(Path(read_dir).rglob("*")) if read_dir else []:
            if path.is_file():
                parts.append(f"FILE {path}\n".encode() + path.read_bytes())
        if dump_to == "-":
            sys.stdout.buffer.write(b"\n--\n".join(parts) + b"\n==\n")
            sys.stdout.buffer.flush()
            return
        with open(dump_to, "ab") as out:
            out.write(b"\n--\n".join(parts) + b"\n==\n")

    async def seat(stub: Any, assignment: Any, received: list[bytes]) -> None:
        call = stub.Play()
        await call.write(pb.BotMessage(hello=pb.Hello(credential=assignment.credential)))
        async for message in call:
            received.append(message.SerializeToString())
            if message.WhichOneof("kind") == "decision":
                did = message.decision.decision_id
                await call.write(pb.BotMessage(choice=pb.Choice(decision_id=did, index=0)))
            elif message.WhichOneof("kind") == "end":
                break
        dump(received)

    async def attend() -> None:
        async with grpc.aio.insecure_channel(os.environ["ARENA_SERVER"]) as channel:
            stub = pb_grpc.BotServiceStub(channel)
            tasks = set()
            async for assignment in stub.Attend(pb.AttendRequest(token=os.environ["ARENA_TOKEN"])):
                task = asyncio.create_task(seat(stub, assignment, [assignment.SerializeToString()]))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            await asyncio.gather(*tasks)

    try:
        asyncio.run(attend())
    except grpc.RpcError:
        sys.exit(1)


CGROUP_FILES = {"memory": ("memory.limit_in_bytes", "memory.max"), "pids": ("pids.max",),
                "cpu": ("cpu.cfs_quota_us", "cpu.max")}


def print_limits() -> None:
    """Its rlimits, and the limits of the arena's control groups it is in (``CGROUP file
    value``), where it can read them: not in the sandbox, which shows no /sys."""
    from pathlib import Path

    for name in ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NPROC", "RLIMIT_NOFILE"):
        print(f"{name} {resource.getrlimit(getattr(resource, name))}", flush=True)
    try:
        groups = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        groups = []
    for line in groups:  # v1: "4:memory:/card-arena/bot/start"; v2: "0::/card-arena/bot/start"
        _, names, path = line.split(":", 2)
        if not path.startswith("/card-arena/"):
            continue
        path = "/".join(path.split("/")[:3])  # the bot's group, with its limits (its start's inside)
        for controller in names.split(",") if names else list(CGROUP_FILES):
            folder = Path("/sys/fs/cgroup", controller if names else "", path.lstrip("/"))
            for name in CGROUP_FILES.get(controller, ()):
                with contextlib.suppress(OSError):
                    print(f"CGROUP {name} {(folder / name).read_text().strip()}", flush=True)


def forge() -> None:
    """A raw client that first answers a decision it was not asked, then plays legally."""
    import asyncio

    import grpc

    from arena.v1 import arena_pb2 as pb
    from arena.v1 import arena_pb2_grpc as pb_grpc

    async def seat(stub: Any, assignment: Any) -> None:
        call = stub.Play()
        await call.write(pb.BotMessage(hello=pb.Hello(credential=assignment.credential)))
        async for message in call:
            if message.WhichOneof("kind") == "decision":
                did = message.decision.decision_id
                await call.write(pb.BotMessage(choice=pb.Choice(decision_id=did + 7, index=0)))
                await call.write(pb.BotMessage(choice=pb.Choice(decision_id=did, index=0)))
            elif message.WhichOneof("kind") == "end":
                break

    async def attend() -> None:
        async with grpc.aio.insecure_channel(os.environ["ARENA_SERVER"]) as channel:
            stub = pb_grpc.BotServiceStub(channel)
            tasks = set()
            async for assignment in stub.Attend(pb.AttendRequest(token=os.environ["ARENA_TOKEN"])):
                task = asyncio.create_task(seat(stub, assignment))
                tasks.add(task)
                task.add_done_callback(tasks.discard)

    try:
        asyncio.run(attend())
    except grpc.RpcError:
        sys.exit(1)


MODES = {"crash": CrashingBot, "flood": FloodingBot, "hang": HangingBot, "stall": StallingBot,
         "illegal": IllegalBot, "hog": HoggingBot, "slow": SlowBot}


def main(mode: str) -> None:
    if mode == "spawn":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        pid_file = os.environ.get("GRANDCHILD_PID_FILE")
        if pid_file:
            with open(pid_file, "w") as out:
                out.write(str(child.pid))
        run(RandomBot)
    elif mode == "exit":
        sys.exit(0)
    elif mode in MODES:
        run(MODES[mode])
    elif mode == "forge":
        forge()
    elif mode == "spy":
        spy(*sys.argv[2:4])
    elif mode == "files":
        run(FileHoardingBot)
    elif mode == "limits":
        print_limits()
        run(RandomBot)
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main(sys.argv[1])
