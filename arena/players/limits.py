"""Resource limits for managed bot processes, and the tiny launcher that applies them.

A bot's command runs as ``python -I -S .../arena/limits.py --memory-mb N ... -- CMD ARGS``:
the launcher lowers its own limits with ``setrlimit`` and then becomes the bot with
``execvp``. Limits are inherited, so they hold for the bot's whole process tree.

Why a launcher: setting limits in the child between fork and exec (``preexec_fn``)
is unsafe in a process with threads (gRPC runs several), and ``prlimit`` after the
spawn races with a child that allocates at once. The launcher needs only the standard
library and starts without ``site`` (about 10 ms), so it adds little to a bot's start.

What each limit means (they are POSIX rlimits, counted per process):

* memory: address space (``RLIMIT_AS``), i.e. virtual memory. A Python bot with gRPC
  maps about 600 MB before it allocates anything, hence the default of 2048 MB.
  Allocations beyond the limit fail (``MemoryError`` in Python, ``bad_alloc`` in C++).
* cpu seconds: CPU time of one process start (``RLIMIT_CPU``), summed over every match
  it plays until it is restarted; on reaching it the bot gets SIGXCPU, and SIGKILL a
  few seconds later. Per-move time is the move timeout's business, not this one's.
* processes: ``RLIMIT_NPROC``, which counts *every* process of the user the bot runs
  as, not just the bot's. It is not enforced for root (nor for CAP_SYS_RESOURCE), and
  for an ordinary user it also counts the user's other processes, so it is off by
  default; it is useful when bots run as a dedicated unprivileged user.
* open files: file descriptors per process (``RLIMIT_NOFILE``); beyond it ``open``
  fails with EMFILE.
"""

from __future__ import annotations

import os
import re
import resource
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

LAUNCHER = os.path.abspath(__file__)
CPU_GRACE_S = 5  # between SIGXCPU (soft limit) and SIGKILL (hard limit)
UNLIMITED_WORDS = ("unlimited", "none", "off")

_UNITS = {"": 1, "k": 1 / 1024, "m": 1, "g": 1024, "t": 1024 * 1024}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)


class LimitError(ValueError):
    """A resource limit given by the user is not usable."""


@dataclass(frozen=True)
class ResourceLimits:
    """Limits for each bot process (``None``: not limited)."""

    memory_mb: int | None = 2048
    cpu_seconds: int | None = None
    processes: int | None = None
    open_files: int | None = 256

    def __post_init__(self) -> None:
        for name, value in self.as_settings().items():
            if value is not None and (not isinstance(value, int) or value < 1):
                raise LimitError(f"{name} must be a positive whole number or unlimited, not {value!r}")

    def as_settings(self) -> dict[str, int | None]:
        """The limits as saved with a tournament's settings."""
        return {"bot_memory_mb": self.memory_mb, "bot_cpu_seconds": self.cpu_seconds,
                "bot_processes": self.processes, "bot_open_files": self.open_files}

    @classmethod
    def from_settings(cls, saved: Mapping[str, Any]) -> ResourceLimits:
        """The limits saved with a tournament; defaults for settings saved before they existed."""
        default = cls()

        def pick(key: str, fallback: int | None) -> int | None:
            value = saved.get(key, fallback)
            return None if value is None else int(value)

        return cls(pick("bot_memory_mb", default.memory_mb),
                   pick("bot_cpu_seconds", default.cpu_seconds),
                   pick("bot_processes", default.processes),
                   pick("bot_open_files", default.open_files))

    def wrap(self, argv: Sequence[str]) -> list[str]:
        """``argv`` run through the launcher with these limits (unchanged if there are none)."""
        flags: list[str] = []
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


# -- the launcher ------------------------------------------------------------------------
_RESOURCES = {"--memory-mb": (resource.RLIMIT_AS, 1024 * 1024), "--cpu-seconds": (resource.RLIMIT_CPU, 1),
              "--processes": (resource.RLIMIT_NPROC, 1), "--open-files": (resource.RLIMIT_NOFILE, 1)}


def _lower(kind: int, soft: int, hard: int) -> None:
    """Lower a limit; never raise it above the hard limit already in force."""
    _, current_hard = resource.getrlimit(kind)
    if current_hard != resource.RLIM_INFINITY:
        hard = min(hard, current_hard)
        soft = min(soft, hard)
    resource.setrlimit(kind, (soft, hard))


def launch(args: Sequence[str]) -> None:
    """Apply ``--flag N`` limits, then become the command after ``--`` (never returns)."""
    args = list(args)
    if "--" not in args or args.index("--") == len(args) - 1:
        raise SystemExit("usage: limits.py [--memory-mb N] [--cpu-seconds N] [--processes N] "
                         "[--open-files N] -- COMMAND [ARGS...]")
    split = args.index("--")
    flags, command = args[:split], args[split + 1:]
    if len(flags) % 2:
        raise SystemExit(f"limits: a value is missing in {flags}")
    for flag, text in zip(flags[::2], flags[1::2], strict=True):
        if flag not in _RESOURCES or not text.isdigit() or int(text) < 1:
            raise SystemExit(f"limits: bad limit {flag} {text}")
        kind, unit = _RESOURCES[flag]
        value = int(text) * unit
        grace = CPU_GRACE_S if kind == resource.RLIMIT_CPU else 0
        try:
            _lower(kind, value, value + grace)
        except (ValueError, OSError) as err:
            raise SystemExit(f"limits: cannot set {flag} {text}: {err}") from None
    try:
        os.execvp(command[0], command)
    except OSError as err:
        print(f"limits: cannot run {command[0]!r}: {err}", file=sys.stderr)
        os._exit(127)


if __name__ == "__main__":
    launch(sys.argv[1:])
