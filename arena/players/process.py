"""Managed bot processes: started once, kept for many matches, restarted after a crash.

Each bot runs its registered command as a child process in a process group of
its own, with the referee's address and a fresh token in its environment
(``ARENA_SERVER``, ``ARENA_TOKEN``: never on the command line, where other
users could read them). Stopping a bot ends its whole process group, so no
child or grandchild survives it. Its stdout and stderr go to a log file, capped
at ``log_cap`` bytes per start (the rest is read and dropped). With ``limits``, the
command runs through the launcher of :mod:`arena.players.limits`, so memory, CPU time,
processes and open files are bounded for the bot's whole process tree.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shlex
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from arena.players.limits import ResourceLimits

LOG_CAP_BYTES = 1_000_000
STOP_GRACE_S = 3.0


class BotCommandError(ValueError):
    """A bot's command cannot be run (empty, unparsable or not found)."""


def parse_command(command: str) -> list[str]:
    """The argv of a bot command; ``python``/``python3`` means the arena's own interpreter."""
    try:
        argv = shlex.split(command)
    except ValueError as err:
        raise BotCommandError(f"cannot parse bot command {command!r}: {err}") from None
    if not argv:
        raise BotCommandError("the bot command is empty")
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    elif shutil.which(argv[0]) is None:
        raise BotCommandError(f"bot command not found: {argv[0]!r} (in {command!r})")
    return argv


@dataclass
class BotProcess:
    """One managed bot: its command, its token, and the process running it (if any)."""

    name: str
    command: str
    server: str
    log_dir: Path
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    process: asyncio.subprocess.Process | None = None
    starts: int = 0
    start_seconds: float = 0.0
    log_cap: int = LOG_CAP_BYTES
    limits: ResourceLimits | None = None
    _logger: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.argv = parse_command(self.command)

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def ensure_running(self) -> None:
        """Start the process if it is not running (first use, or after a crash)."""
        if self.alive:
            return
        began = time.perf_counter()
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log_path = self.log_dir / f"{_safe(self.name)}.log"
        if log_path.exists() and log_path.stat().st_size > LOG_CAP_BYTES:
            log_path.replace(log_path.with_suffix(".log.1"))
        env = dict(os.environ, ARENA_SERVER=self.server, ARENA_TOKEN=self.token,
                   ARENA_BOT_NAME=self.name, PYTHONUNBUFFERED="1",
                   ARENA_TLS="", ARENA_TLS_CA="",  # managed bots use the private plain-text port
                   ARENA_RETRY="0")  # and end when the arena does, not wait for it to come back
        argv = self.limits.wrap(self.argv) if self.limits is not None else self.argv
        self.process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, env=env, start_new_session=True)
        assert self.process.stdout is not None
        self._logger = asyncio.create_task(_capture(self.process.stdout, log_path, self.log_cap))
        self.starts += 1
        self.start_seconds += time.perf_counter() - began

    async def is_alive(self, grace_s: float = 0.5) -> bool:
        """Whether the process still runs, giving a dying one ``grace_s`` to be reaped."""
        if self.process is None:
            return False
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.process.wait(), grace_s)
        return self.process.returncode is None

    async def stop(self) -> None:
        """End the bot's whole process group: TERM, then KILL after a grace period."""
        process = self.process
        if process is None:
            return
        if process.returncode is None:
            _signal_group(process.pid, signal.SIGTERM)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), STOP_GRACE_S)
        _signal_group(process.pid, signal.SIGKILL)  # grandchildren too, even if the leader left
        if process.returncode is None:
            await process.wait()
        if self._logger is not None:  # the pipe closes once the whole group is gone
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._logger, 2.0)


async def _capture(stream: asyncio.StreamReader, path: Path, cap: int) -> None:
    """Copy a bot's output to its log, up to ``cap`` bytes per start; drop the rest.

    The pipe is always read, so a bot that floods its output never blocks on it
    and never fills the disk; when the disk refuses the log (full, read-only),
    the output is still read and dropped.
    """
    written = dropped = 0
    try:
        log: BinaryIO | None = open(path, "ab")  # noqa: SIM115 (closed below, whatever happens)
    except OSError:
        log = None  # a full or read-only disk: drain the pipe all the same
    try:
        while chunk := await stream.read(1 << 16):
            room = cap - written if log is not None else 0
            if room > 0 and log is not None:
                try:
                    log.write(chunk[:room])
                    log.flush()
                    written += min(room, len(chunk))
                except OSError:
                    log.close()
                    log = None
            dropped += max(0, len(chunk) - max(room, 0))
        if dropped and log is not None:
            with contextlib.suppress(OSError):
                log.write(f"\n[arena: log capped at {cap} bytes; {dropped} more bytes dropped]\n"
                          .encode())
    finally:
        if log is not None:
            with contextlib.suppress(OSError):
                log.close()


def _signal_group(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_.@" else "_" for c in name)
