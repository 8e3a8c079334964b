"""Where a build runs: contained like a bot, with limits, and its result copied out as hostile.

:func:`run_build` runs one build step (``pip install --no-index`` of wheels the arena
downloaded, in practice) through :mod:`arena.players.buildstep`:

* in the build sandbox (:meth:`arena.players.sandbox.Sandbox.build_command`): **no
  network at all** (a network namespace of its own, so nothing of the host's loopback:
  no database, Ray, operator port or web app), the wheels read-only, and nothing
  writable but a tmpfs of :attr:`BuildLimits.output_mb` (pip's target and temporary
  files live there, and go with the sandbox);
* in control groups of its own, like a bot (:mod:`arena.players.cgroups`, joined by the
  launcher of :mod:`arena.players.limits`): memory (the tmpfs counts), tasks and CPU; where
  the machine has no cgroups, the launcher's per-process rlimits;
* under a wall-clock cap: at the deadline the whole tree is killed (its process group,
  the sandbox's PID namespace with it, and whatever is left in its groups);
* its output (a tar on the step's standard output) is copied into the real ``deps``
  folder by the arena (:func:`copy_out`), under a size cap: folders, regular files, and
  links that lead inside it; anything else refuses the build. Its log is capped too.

The defaults (:class:`BuildLimits`) hold a build to 1 GiB of memory, 128 tasks, one CPU,
300 s and 512 MiB of output: a large scientific package installs within them.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import posixpath
import signal
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO

from arena.players import cgroups
from arena.players.limits import ResourceLimits
from arena.players.sandbox import BUILD_INSIDE, Sandbox, SandboxUnavailable, UnsafeFolder, checked_folder
from arena.players.submissions import BuildError, CappedReader, SubmissionError, remove

BUILD_TIMEOUT_S = 300.0
"""Wall-clock seconds of one build, download and install together."""
BUILD_MEMORY_MB = 1024
"""Memory of a build's processes together, its tmpfs included (cgroup ``memory``)."""
BUILD_TASKS = 128
"""Processes and threads of a build together (cgroup ``pids``)."""
BUILD_CPUS = 1.0
"""Cores a build may keep busy at once (cgroup ``cpu``)."""
BUILD_OUTPUT_MB = 512
"""A build's tmpfs, and the most the arena copies out of it into ``deps``."""
DOWNLOAD_MB = 512
"""The most the arena's own ``pip download`` may bring in (the wheels, their temporary files)."""
MAX_OUTPUT_ENTRIES = 100_000
"""Files, folders and links in a build's output."""
BUILD_LOG_BYTES = 1_000_000
"""The most of a build's output kept in its log; the rest is read and dropped."""
STEP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "buildstep.py")
"""The step run in the sandbox, as a script (:mod:`arena.players.buildstep`)."""


@dataclass(frozen=True)
class BuildLimits:
    """The limits of one build (see the module's constants for what each means)."""

    memory_mb: int = BUILD_MEMORY_MB
    tasks: int = BUILD_TASKS
    cpus: float = BUILD_CPUS
    wall_s: float = BUILD_TIMEOUT_S
    output_mb: int = BUILD_OUTPUT_MB
    download_mb: int = DOWNLOAD_MB


DEFAULT_LIMITS = BuildLimits()


@dataclass(frozen=True)
class BuildOutcome:
    """What a build step used: its seconds, and the most memory it held at once (bytes;
    None where the machine does not say)."""

    seconds: float
    memory_peak: int | None


class Log:
    """A build's log file, written by several threads, capped at ``cap`` bytes."""

    def __init__(self, file: BinaryIO, cap: int = BUILD_LOG_BYTES) -> None:
        self._file, self._left, self._lock = file, cap, threading.Lock()
        self._kept = bytearray()
        self.dropped = 0

    def write(self, data: bytes) -> None:
        with self._lock:
            kept = data[:max(self._left, 0)]
            if kept:
                self._kept += kept
                with contextlib.suppress(OSError):
                    self._file.write(kept)
                    self._file.flush()
            self._left -= len(kept)
            self.dropped += len(data) - len(kept)

    def text(self) -> str:
        """What was kept of it so far."""
        with self._lock:
            return self._kept.decode("utf-8", "replace")

    def note(self, text: str) -> None:
        """A line of the arena's own in the log."""
        self.write(f"[arena] {text}\n".encode())


@functools.cache
def _support() -> cgroups.CgroupSupport:
    return cgroups.detect()


def run_build(argv: Sequence[str], folder: Path, target: Path, log: Log, deadline: float,
              limits: BuildLimits = DEFAULT_LIMITS, sandbox: bool = True) -> BuildOutcome:
    """Run ``argv`` as a build step (see the module's note) in ``folder`` (read-only in the
    sandbox), its output copied into ``target`` (a new folder); ``deadline`` is on the
    :func:`time.monotonic` clock. The step writes into ``BUILD_DIR/deps``: the command is
    given ``{build}`` in its arguments replaced by that folder. A failure, a limit hit or a
    refused output raises :class:`BuildError` (one line; the log says more) and leaves no
    ``target``. Without the ``sandbox``, the step runs as this user on a folder of
    ``target``'s parent (for trusted bots, on a machine without bubblewrap)."""
    began = time.perf_counter()
    scratch = BUILD_INSIDE if sandbox else str(target.parent / ".build-scratch")
    command = [sys.executable, "-I", "-S", STEP, scratch, "--",
               *(arg.replace("{build}", scratch) for arg in argv)]
    env: dict[str, str] = {}
    if sandbox:
        try:
            command = Sandbox().build_command(command, folder, {}, build_mb=limits.output_mb)
        except UnsafeFolder as err:
            raise BuildError(f"its requirements could not be installed ({err})", "") from None
        except SandboxUnavailable as err:
            raise SubmissionError(f"cannot build its requirements in the sandbox: {err}") \
                from None
    else:
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "HOME")}
    support = _support()
    whole, per_process = ResourceLimits(memory_mb=limits.memory_mb, cpu_seconds=None,
                                        processes=limits.tasks, open_files=4096,
                                        cpus=limits.cpus).split(support.controllers)
    groups = None
    if support.controllers:
        groups = cgroups.BotGroups.create(support, "build", memory_mb=whole.memory_mb,
                                          processes=whole.processes, cpus=whole.cpus)
    try:
        stopped = supervise(per_process.wrap(command, groups.procs_files if groups else []),
                             env, folder, log, deadline, groups,
                             lambda stream: copy_out(stream, target, limits.output_mb * 2**20),
                             late=f"it took longer than {limits.wall_s:g} s")
        peak = groups.memory_peak() if groups is not None else None
        if stopped.why is None and groups is not None and groups.oom_kills():
            stopped = _Stopped(stopped.status, f"it went over its {limits.memory_mb} MB of memory")
    except BaseException:
        _remove_quietly(target)
        raise
    finally:
        if groups is not None:
            groups.remove()
        if not sandbox:
            _remove_quietly(Path(scratch))
    if stopped.why is not None or stopped.status != 0:
        _remove_quietly(target)
        why = stopped.why or f"pip exited with code {stopped.status}"
        log.note(f"the build was stopped: {why}" if stopped.why else why)
        raise BuildError(f"its requirements could not be installed ({why})", "")
    if not target.is_dir():  # the step said nothing: nothing was installed
        target.mkdir()
    return BuildOutcome(time.perf_counter() - began, peak)


@dataclass(frozen=True)
class _Stopped:
    status: int | None  # its exit status; None: killed by the arena
    why: str | None  # why the arena stopped it


def supervise(command: Sequence[str], env: Mapping[str, str], cwd: Path, log: Log,
               deadline: float, groups: cgroups.BotGroups | None,
               output: Callable[[IO[bytes]], None] | None = None,
               over: Callable[[], str | None] | None = None,
               late: str = "it took too long") -> _Stopped:
    """Run ``command`` until it ends, its ``deadline`` passes or ``over`` says why it must stop
    (checked a few times a second); its standard error (and output, without an ``output``
    reader) goes to ``log``. ``output`` reads its standard output; its refusal
    (:class:`BuildError`) stops the command too."""
    process = subprocess.Popen(
        list(command), cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE if output is not None else subprocess.STDOUT,
        start_new_session=True)
    why: list[str] = []

    def kill(reason: str) -> None:
        if reason and not why:
            why.append(reason)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        if groups is not None:
            with contextlib.suppress(OSError):
                for pid in groups.pids():
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)

    def watch() -> None:
        while True:
            try:
                process.wait(timeout=max(0.0, min(0.2, deadline - time.monotonic())))
                return
            except subprocess.TimeoutExpired:
                pass
            if time.monotonic() >= deadline:
                kill(late)
                return
            said = over() if over is not None else None
            if said is not None:
                kill(said)
                return

    logged = process.stderr if output is not None else process.stdout
    assert logged is not None and process.stdout is not None
    threads = [threading.Thread(target=_drain, args=(logged, log), daemon=True),
               threading.Thread(target=watch, daemon=True)]
    for thread in threads:
        thread.start()
    try:
        if output is not None:
            try:
                output(process.stdout)
            except BuildError as err:
                kill(str(err))
            finally:
                _drain(process.stdout, None)  # the rest, if refused: the step must not block
    finally:
        threads[1].join()
        process.wait()
        kill("")  # what it left behind (a daemon holding its output open) goes too
        threads[0].join(timeout=5.0)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    return _Stopped(process.returncode if not why else None, why[0] if why else None)


def _drain(stream: IO[bytes], log: Log | None) -> None:
    with contextlib.suppress(OSError, ValueError):
        while chunk := stream.read(1 << 16):
            if log is not None:
                log.write(chunk)


def _remove_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        remove(path)


# ---------------------------------------------------------------- copying the output out


def copy_out(stream: IO[bytes], target: Path, cap: int) -> None:
    """Copy a build's output (an uncompressed tar) into the new folder ``target``: folders,
    regular files (modes 0644/0755), and links that lead inside ``target``, made last and
    checked again physically; at most ``cap`` bytes of tar and :data:`MAX_OUTPUT_ENTRIES`
    entries. Anything else (a path out, a hard link, a device, a FIFO) is a
    :class:`BuildError`; nothing is read from a stream that is empty (nothing built)."""
    capped = io.BufferedReader(CappedReader(  # + the tar's own headers
        stream, cap + 2**22,
        BuildError(f"its installed packages come to more than {cap // 2**20} MiB", "")))
    if not capped.peek(1):
        return
    target.mkdir()
    links: list[tuple[str, str]] = []
    entries = 0
    try:
        with tarfile.open(fileobj=capped, mode="r|") as archive:
            for member in archive:
                path = _clean(member.name)
                if path is None:
                    continue
                entries += 1
                if entries > MAX_OUTPUT_ENTRIES:
                    raise BuildError(f"its installed packages hold more than "
                                     f"{MAX_OUTPUT_ENTRIES:,} files", "")
                where = target / path
                if member.isdir():
                    where.mkdir(parents=True, exist_ok=True)
                elif member.isreg():
                    where.parent.mkdir(parents=True, exist_ok=True)
                    source = archive.extractfile(member)
                    assert source is not None
                    with open(where, "xb") as out:
                        while chunk := source.read(1 << 20):
                            out.write(chunk)
                    where.chmod(0o755 if member.mode & 0o111 else 0o644)
                elif member.issym():
                    joined = posixpath.normpath(posixpath.join(posixpath.dirname(path),
                                                               member.linkname))
                    if member.linkname.startswith("/") or joined == ".." or \
                            joined.startswith("../"):
                        raise BuildError(f"its installed packages hold a link out of their "
                                         f"folder ({path!r})", "")
                    links.append((path, member.linkname))
                else:
                    raise BuildError(f"its installed packages hold something that is no "
                                     f"file, folder or link ({path!r})", "")
        for path, link in links:
            (target / path).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(link, target / path)
        checked_folder(target, deep=True)
    except UnsafeFolder as err:
        raise BuildError(f"its installed packages are refused: {err}", "") from None
    except (tarfile.TarError, OSError, EOFError) as err:
        raise BuildError(f"its installed packages could not be copied out "
                         f"({getattr(err, 'strerror', None) or type(err).__name__})", "") from None


def _clean(name: str) -> str | None:
    """A member's relative path, normalized; None for the top; refused if it leads out."""
    if "\x00" in name or "\\" in name or name.startswith("/"):
        raise BuildError(f"its installed packages hold a strange path ({name[:80]!r})", "")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise BuildError(f"its installed packages hold a path out of their folder "
                         f"({name[:80]!r})", "")
    return "/".join(parts) or None


__all__ = ["BUILD_CPUS", "BUILD_MEMORY_MB", "BUILD_OUTPUT_MB", "BUILD_TASKS", "BUILD_TIMEOUT_S",
           "DEFAULT_LIMITS", "DOWNLOAD_MB", "BuildLimits", "BuildOutcome", "Log", "copy_out", "run_build",
           "supervise"]
