"""Managed bot processes: started once, kept for many matches, restarted after a crash.

Each bot runs its registered command in its folder, as a child process in a
process group of its own, with the referee's address and a fresh token in an
environment of its own (``ARENA_SERVER``, ``ARENA_TOKEN``: never on the command
line, and nothing of the arena's variables). With a :class:`Sandbox` (the normal
case) the command runs in bubblewrap and reaches the referee only through its Unix
socket; see :mod:`arena.players.sandbox`. With cgroup ``support``, the bot's memory,
processes and CPU are limited as a whole (:mod:`arena.players.cgroups`): each start
gets a group inside the bot's :class:`~arena.players.cgroups.BotBudget`, which holds
the limits. Several processes of one bot (its lanes) share one budget, given by whoever
starts them, so the limits are for all of them together; a process given none has a
budget of its own. ``limits`` not covered by cgroups are per-process rlimits, applied
by the launcher of :mod:`arena.players.limits`.

Stopping a bot ends all of it: its process group, the sandbox's PID namespace
(whose init takes every descendant with it), and whatever is left in its groups.
Its stdout and stderr go to a log file that only the arena writes, capped at
``log_cap`` bytes per start (the rest is read and dropped).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import shlex
import shutil
import signal
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from arena.errors import ArenaError
from arena.players.cgroups import BotBudget, BotGroups, CgroupSupport
from arena.players.limits import ResourceLimits
from arena.players.sandbox import SOCKET_INSIDE, Sandbox
from arena.wire.tokens import new_token

LOG_CAP_BYTES = 1_000_000
STOP_GRACE_S = 3.0
PASSED_ON = ("PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "PYTHONPATH", "VIRTUAL_ENV")
"""The arena's variables an unsandboxed bot gets (a sandboxed one gets its own, fixed ones)."""


class BotCommandError(ArenaError, ValueError):
    """A bot's command cannot be run (empty, unparsable or not found)."""


def parse_command(command: str, folder: Path | None = None) -> list[str]:
    """The argv of a bot command run in ``folder`` (default: the current one);
    ``python``/``python3`` means the arena's own interpreter."""
    try:
        argv = shlex.split(command)
    except ValueError as err:
        raise BotCommandError(f"cannot parse bot command {command!r}: {err}") from None
    if not argv:
        raise BotCommandError("the bot command is empty")
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    elif "/" in argv[0] and folder is not None and not os.path.isabs(argv[0]):
        if not os.access(folder / argv[0], os.X_OK):
            raise BotCommandError(f"bot command not found: {argv[0]!r} in {str(folder)!r} "
                                  f"(in {command!r})")
    elif shutil.which(argv[0]) is None:
        raise BotCommandError(f"bot command not found: {argv[0]!r} (in {command!r})")
    return argv


@dataclass
class BotProcess:
    """One managed bot: its command, its token, and the process running it (if any)."""

    name: str
    command: str
    server: str  # HOST:PORT, or unix:PATH (the only way in from a sandbox)
    log_dir: Path
    token: str = field(default_factory=lambda: new_token(24))
    process: asyncio.subprocess.Process | None = None
    starts: int = 0
    start_seconds: float = 0.0
    log_cap: int = LOG_CAP_BYTES
    limits: ResourceLimits | None = None
    folder: Path | None = None  # its working directory (default: the arena's)
    deps: Path | None = None  # a submitted version's installed requirements (on PYTHONPATH)
    env: Mapping[str, str] = field(default_factory=dict)  # more variables for the bot
    sandbox: Sandbox | None = None
    cgroups: CgroupSupport | None = None
    budget: BotBudget | None = None  # the bot's limits as a whole, shared by its processes
    groups: BotGroups | None = field(default=None, init=False, repr=False)  # of this start
    _logger: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.argv = parse_command(self.command, self.folder)

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def ensure_running(self) -> None:
        """Start the process if it is not running (first use, or after a crash)."""
        if self.alive:
            return
        began = time.perf_counter()
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log_path = self.log_path
        if log_path.exists() and log_path.stat().st_size > LOG_CAP_BYTES:
            log_path.replace(log_path.with_suffix(".log.1"))
        env = {"ARENA_SERVER": self.server, "ARENA_TOKEN": self.token, "ARENA_BOT_NAME": self.name,
               "PYTHONUNBUFFERED": "1",
               "ARENA_RETRY": "0",  # a managed bot ends when the arena does, not wait for it
               **({"PYTHONPATH": str(self.deps)} if self.deps is not None else {}),
               **self.env}
        folder = (self.folder or Path.cwd()).resolve()
        argv = self.argv
        if self.sandbox is not None:
            socket = self.server.removeprefix("unix:")
            if socket == self.server:
                raise ValueError(f"a sandboxed bot reaches the referee by a unix: socket, "
                                 f"not {self.server!r}")
            env["ARENA_SERVER"] = f"unix:{SOCKET_INSIDE}"
            argv = self.sandbox.command(argv, folder, Path(socket), env,
                                        shown=() if self.deps is None else (self.deps,))
            env = {}  # bwrap sets the bot's environment; bwrap itself needs none
        else:
            env = {**{k: os.environ[k] for k in PASSED_ON if k in os.environ}, **env}
        self._remove_groups()  # of the previous start, if it crashed
        if self.limits is not None:  # what cgroups cannot hold is a per-process rlimit
            controllers = self.cgroups.controllers if self.cgroups is not None else ()
            whole, per_process = self.limits.split(controllers)
            if self.cgroups is not None and controllers:
                if self.budget is None:  # a bot of one process: the budget is its own
                    self.budget = BotBudget(self.cgroups, self.name, memory_mb=whole.memory_mb,
                                            processes=whole.processes, cpus=whole.cpus)
                self.groups = self.budget.join(self.name)
            join = self.groups.procs_files if self.groups is not None else []
            argv = per_process.wrap(argv, join)
        self.process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, env=env, start_new_session=True, cwd=folder)
        assert self.process.stdout is not None
        self._logger = asyncio.create_task(_capture(self.process.stdout, log_path, self.log_cap))
        self.starts += 1
        self.start_seconds += time.perf_counter() - began

    @property
    def log_path(self) -> Path:
        return self.log_dir / log_name(self.name)

    def last_words(self, lines: int = 5, width: int = 400) -> str:
        """How its start went, for people: its exit code if it ended, and the last lines of
        its log (on one line, clipped)."""
        process = self.process
        ended = "" if process is None or process.returncode is None else \
            f"exited with code {process.returncode}; "
        try:
            tail = self.log_path.read_text(errors="replace").strip().splitlines()[-lines:]
        except OSError:
            tail = []
        said = " | ".join(line.strip() for line in tail if line.strip()) or "(its log is empty)"
        if len(said) > width:
            said = "..." + said[-width:]
        return f"{ended}last lines of its log: {said}"

    async def ended(self) -> None:
        """Once the process (as started now) has ended; at once if none runs."""
        if self.process is not None:
            await self.process.wait()

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
        await asyncio.to_thread(self._remove_groups)  # and whatever is left in its groups
        if self._logger is not None:  # the pipe closes once the whole group is gone
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._logger, 2.0)

    def _remove_groups(self) -> None:
        groups, self.groups = self.groups, None
        if groups is not None:
            groups.remove()

    @property
    def oom_kills(self) -> int:
        """How often the kernel killed one of its processes for memory, this start."""
        return self.groups.oom_kills() if self.groups is not None else 0


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


def log_name(label: str) -> str:
    """The log file of the bot ``label``: the label itself when it is safe as a file name (every
    name registered now is), else a safe form of it with a hash, so two labels never share one."""
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_.@") else "_" for c in label)[:80]
    if safe != label or safe.startswith("."):
        safe = f"{safe}-{hashlib.sha256(label.encode()).hexdigest()[:12]}"
    return f"{safe}.log"
