"""Resource limits for managed bots: which applies how, and the launcher's command line.

Where the machine's control groups allow (:mod:`arena.players.cgroups`), memory,
processes and CPU are limited for the bot *as a whole*: every process it starts, in
every one of its lanes (a process per seat rotation, :mod:`arena.tournament.local`),
counts against one budget. The rest, and everything on a machine without usable
cgroups, are per-process rlimits (:meth:`ResourceLimits.split` decides which).

A bot's command runs as ``python -I -S .../launcher.py --join FILE ... --memory-mb N
... -- CMD ARGS``: the launcher (:mod:`arena.players.launcher`) writes its pid to each
group's ``cgroup.procs`` (joining it), lowers its own rlimits with ``setrlimit`` and
then becomes the bot (or the sandbox holding the bot) with ``execvp``. Groups and
rlimits are inherited, so they hold for the bot's whole process tree from its first
instruction.

What each limit means:

* memory: with a ``memory`` cgroup, the resident memory of all the bot's processes
  together (its scratch tmpfs included); beyond it the kernel kills a process of the
  bot. Otherwise address space per process (``RLIMIT_AS``): a Python bot with gRPC
  maps about 600 MB before it allocates anything, hence the default of 2048 MB, and
  allocations beyond it fail (``MemoryError`` in Python, ``bad_alloc`` in C++).
* processes: with a ``pids`` cgroup, the bot's processes and threads together
  (default 256: a sandboxed Python bot takes about 10 per lane, and has up to 12
  lanes). Without one it is not limited: ``RLIMIT_NPROC`` would count *every* process
  of the user (and is not enforced for root).
* cpus: with a ``cpu`` cgroup, how many cores the bot may keep busy at once (default
  1); not limited without one.
* cpu seconds: CPU time of one process start (``RLIMIT_CPU``), summed over every match
  it plays until it is restarted; on reaching it the bot gets SIGXCPU, and SIGKILL a
  few seconds later. Per-move time is the move timeout's business, not this one's.
* open files: file descriptors per process (``RLIMIT_NOFILE``); beyond it ``open``
  fails with EMFILE.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from arena.errors import ArenaError

LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "launcher.py")
"""The launcher's file, run as a script (:mod:`arena.players.launcher`)."""
UNLIMITED_WORDS = ("unlimited", "none", "off")

_UNITS = {"": 1, "k": 1 / 1024, "m": 1, "g": 1024, "t": 1024 * 1024}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)


FLAGS = {"--bot-memory": "memory_mb", "--bot-cpu-seconds": "cpu_seconds",
         "--bot-processes": "processes", "--bot-open-files": "open_files", "--bot-cpus": "cpus"}
"""The command line's flag of each limit."""


class LimitError(ArenaError, ValueError):
    """A resource limit given by the user is not usable."""


class WholeBot(NamedTuple):
    """The limits held by control groups, for all of a bot's processes together."""

    memory_mb: int | None
    processes: int | None
    cpus: float | None


@dataclass(frozen=True)
class LimitTexts:
    """The limits of a bot as written on a command line or in a request, before parsing."""

    memory: str
    cpu_seconds: str
    processes: str
    cpus: str
    open_files: str


@dataclass(frozen=True)
class ResourceLimits:
    """Limits for each managed bot (``None``: not limited)."""

    memory_mb: int | None = 2048
    cpu_seconds: int | None = None
    processes: int | None = 256
    open_files: int | None = 256
    cpus: float | None = 1.0

    def __post_init__(self) -> None:
        for name, value in self.as_settings().items():
            if name == "bot_cpus":
                if value is not None and (not isinstance(value, int | float) or not value > 0):
                    raise LimitError(f"{name} must be a positive number of cores or unlimited, "
                                     f"not {value!r}")
            elif value is not None and (not isinstance(value, int) or value < 1):
                raise LimitError(f"{name} must be a positive whole number or unlimited, not {value!r}")

    def as_settings(self) -> dict[str, int | float | None]:
        """The limits as saved with a tournament's settings."""
        return {"bot_memory_mb": self.memory_mb, "bot_cpu_seconds": self.cpu_seconds,
                "bot_processes": self.processes, "bot_open_files": self.open_files,
                "bot_cpus": self.cpus}

    def split(self, controllers: Sequence[str]) -> tuple[WholeBot, ResourceLimits]:
        """(the whole-bot limits for the cgroup ``controllers`` available, the per-process
        rlimits for the rest). Processes never fall back to ``RLIMIT_NPROC`` (see above)."""
        whole = WholeBot(self.memory_mb if "memory" in controllers else None,
                         self.processes if "pids" in controllers else None,
                         self.cpus if "cpu" in controllers else None)
        per_process = ResourceLimits(
            memory_mb=None if "memory" in controllers else self.memory_mb,
            cpu_seconds=self.cpu_seconds, processes=None, open_files=self.open_files, cpus=None)
        return whole, per_process

    def describe(self, controllers: Sequence[str], cgroups: str) -> str:
        """Which limit applies how, in one line, e.g. for ``arena tournament run``'s output."""
        whole, per_process = self.split(controllers)
        parts = [text for value, text in ((whole.memory_mb, f"memory {whole.memory_mb} MB"),
                                          (whole.processes, f"{whole.processes} processes"),
                                          (whole.cpus, f"{whole.cpus or 0:g} CPU"))
                 if value is not None]
        per = [text for value, text in (
            (per_process.memory_mb, f"address space {per_process.memory_mb} MB"),
            (per_process.open_files, f"{per_process.open_files} open files"),
            (per_process.cpu_seconds, f"{per_process.cpu_seconds} CPU seconds")) if value is not None]
        unlimited = [name for name, value in (
            ("memory", whole.memory_mb or per_process.memory_mb), ("processes", whole.processes),
            ("CPU", whole.cpus)) if value is None]
        text = f"per bot: {', '.join(parts)} ({cgroups})" if parts else "per bot: nothing"
        if per:
            text += f"; per process: {', '.join(per)} (rlimit)"
        if unlimited:
            text += f"; not limited: {', '.join(unlimited)}"
        return text

    @classmethod
    def from_texts(cls, texts: LimitTexts) -> ResourceLimits:
        """The limits as the ``--bot-*`` options (and the operator service) give them, parsed."""
        return cls(memory_mb=parse_memory(texts.memory),
                   cpu_seconds=parse_count("--bot-cpu-seconds", texts.cpu_seconds),
                   processes=parse_count("--bot-processes", texts.processes),
                   open_files=parse_count("--bot-open-files", texts.open_files),
                   cpus=parse_cpus(texts.cpus))

    def texts(self) -> LimitTexts:
        """The limits as the ``--bot-*`` options write them (``2048MB``, ``unlimited``)."""
        def count(value: int | None) -> str:
            return "unlimited" if value is None else str(value)

        return LimitTexts(memory="unlimited" if self.memory_mb is None else f"{self.memory_mb}MB",
                          cpu_seconds=count(self.cpu_seconds), processes=count(self.processes),
                          cpus="unlimited" if self.cpus is None else f"{self.cpus:g}",
                          open_files=count(self.open_files))

    @classmethod
    def from_settings(cls, saved: Mapping[str, Any]) -> ResourceLimits:
        """The limits saved with a tournament; defaults for settings saved before they existed."""
        default = cls()

        def pick(key: str, fallback: int | None) -> int | None:
            value = saved.get(key, fallback)
            return None if value is None else int(value)

        cpus = saved.get("bot_cpus", default.cpus)
        return cls(pick("bot_memory_mb", default.memory_mb),
                   pick("bot_cpu_seconds", default.cpu_seconds),
                   pick("bot_processes", default.processes),
                   pick("bot_open_files", default.open_files),
                   None if cpus is None else float(cpus))

    def wrap(self, argv: Sequence[str], join: Sequence[str] = ()) -> list[str]:
        """``argv`` run through the launcher with these rlimits, after joining the groups
        whose ``cgroup.procs`` files are ``join`` (unchanged if there is nothing to do)."""
        flags: list[str] = [arg for path in join for arg in ("--join", path)]
        for flag, value in (("--memory-mb", self.memory_mb), ("--cpu-seconds", self.cpu_seconds),
                            ("--processes", self.processes), ("--open-files", self.open_files)):
            if value is not None:
                flags += [flag, str(value)]
        if not flags:
            return list(argv)
        return [sys.executable, "-I", "-S", LAUNCHER, *flags, "--", *argv]


def parse_memory(text: str) -> int | None:
    """Megabytes from ``512``, ``512M``, ``512MB``, ``2G``, ``2GiB`` (binary units), or unlimited."""
    if text.strip().lower() in UNLIMITED_WORDS:
        return None
    match = _SIZE.match(text)
    if match is None:
        raise LimitError(f"bot memory must be a size like 512MB or 2GiB (or unlimited), not {text!r}")
    megabytes = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    if megabytes < 1:
        raise LimitError(f"bot memory must be at least 1 MB, not {text!r}")
    return megabytes


def parse_cpus(text: str) -> float | None:
    """A positive number of cores (``1``, ``0.5``), or unlimited."""
    if text.strip().lower() in UNLIMITED_WORDS:
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 10_000:
        raise LimitError(f"--bot-cpus must be a positive number of cores or unlimited, not {text!r}")
    return value


def parse_count(what: str, text: str) -> int | None:
    """A positive whole number, or unlimited."""
    if text.strip().lower() in UNLIMITED_WORDS:
        return None
    try:
        value = int(text)
    except ValueError:
        raise LimitError(f"{what} must be a positive whole number or unlimited, not {text!r}") from None
    if value < 1:
        raise LimitError(f"{what} must be at least 1 (or unlimited), not {text!r}")
    return value


DEFAULT_LIMITS = ResourceLimits()
"""The limits of every bot unless a tournament says otherwise: the one place they are written."""
DEFAULT_LIMIT_TEXTS = DEFAULT_LIMITS.texts()
""":data:`DEFAULT_LIMITS` as the ``--bot-*`` options write them."""
