"""Control groups: limits on a bot as a whole (all its processes together), where the machine allows.

Each start of a managed bot gets a group of its own under ``card-arena/`` in
each controller it uses: ``memory`` (resident memory of all its processes, tmpfs
scratch included; the kernel's OOM killer acts inside the group), ``pids`` (its
processes and threads together: a fork bomb stops there) and ``cpu`` (how many
cores it may keep busy at once). The launcher (:mod:`arena.players.limits`) moves
itself into the groups before it becomes the bot, so every descendant is inside
from its first instruction. After the bot ends, :meth:`BotGroups.remove` kills
anything left in the groups and removes them.

Both layouts are handled: cgroup v1 (a hierarchy per controller, as on this
project's CI machines) and cgroup v2 (one unified hierarchy). Where neither is
writable, :func:`detect` says why and the limits fall back to per-process rlimits.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
PARENT = "card-arena"
CONTROLLERS = ("memory", "pids", "cpu")
CPU_PERIOD_US = 100_000
_names = itertools.count(1)


@dataclass(frozen=True)
class CgroupSupport:
    """Which whole-bot limits this machine's cgroups can enforce."""

    version: int  # 1 or 2; 0: none usable
    controllers: tuple[str, ...]  # of CONTROLLERS, those usable
    why_not: str = ""  # when some or all are missing

    def has(self, controller: str) -> bool:
        return controller in self.controllers

    @property
    def label(self) -> str:
        return f"cgroup v{self.version}" if self.version else "no cgroups"


def detect(root: Path = ROOT) -> CgroupSupport:
    """The controllers under ``root`` in which this process can create a group and set limits."""
    if (root / "cgroup.controllers").exists():
        return _detect_v2(root)
    usable, refused = [], []
    for controller in CONTROLLERS:
        base = root / controller
        if not (base / "cgroup.procs").exists():
            refused.append(f"{controller}: not mounted")
            continue
        try:
            parent = base / PARENT
            parent.mkdir(exist_ok=True)
            probe = parent / f"probe-{os.getpid()}"
            probe.mkdir()
            probe.rmdir()
            usable.append(controller)
        except OSError as err:
            refused.append(f"{controller}: {err.strerror or err}")
    return CgroupSupport(1 if usable else 0, tuple(usable), "; ".join(refused))


def _detect_v2(root: Path) -> CgroupSupport:
    parent = root / PARENT
    try:
        parent.mkdir(exist_ok=True)
        available = (root / "cgroup.controllers").read_text().split()
        wanted = [c for c in CONTROLLERS if c in available]
        # Controllers reach a group only when its parent enables them for its children.
        for folder in (root, parent):
            enabled = (folder / "cgroup.subtree_control").read_text().split()
            missing = [c for c in wanted if c not in enabled]
            if missing:
                (folder / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in missing))
        enabled = (parent / "cgroup.subtree_control").read_text().split()
    except OSError as err:
        return CgroupSupport(0, (), f"cgroup v2 at {root} is not writable: {err.strerror or err}")
    usable = tuple(c for c in CONTROLLERS if c in enabled)
    missing = [c for c in CONTROLLERS if c not in usable]
    return CgroupSupport(2 if usable else 0, usable,
                         f"not enabled: {', '.join(missing)}" if missing else "")


@dataclass
class BotGroups:
    """The groups of one start of one bot: created with their limits, joined by the launcher."""

    folders: tuple[Path, ...]

    @classmethod
    def create(cls, support: CgroupSupport, label: str, *, memory_mb: int | None,
               processes: int | None, cpus: float | None, root: Path = ROOT) -> BotGroups:
        """New groups for a bot (``label`` names it in the path) with these limits set."""
        name = f"{_safe(label)}-{os.getpid()}-{next(_names)}"
        folders: dict[str, Path] = {}
        if support.version == 2:
            folder = root / PARENT / name
            folder.mkdir()
            folders = {c: folder for c in support.controllers}
        else:
            for controller in support.controllers:
                folder = root / controller / PARENT / name
                folder.mkdir()
                folders[controller] = folder
        groups = cls(tuple(dict.fromkeys(folders.values())))
        try:
            _set_limits(support.version, folders, memory_mb, processes, cpus)
        except OSError:
            groups.remove()
            raise
        return groups

    @property
    def procs_files(self) -> list[str]:
        """The files the launcher writes its pid to, to join every group."""
        return [str(folder / "cgroup.procs") for folder in self.folders]

    def pids(self) -> set[int]:
        found: set[int] = set()
        for folder in self.folders:
            with contextlib.suppress(OSError, ValueError):
                found.update(int(line) for line in (folder / "cgroup.procs").read_text().split())
        return found

    def oom_kills(self) -> int:
        """How often the kernel killed a process of the bot for going over its memory limit."""
        for folder in self.folders:
            for name in ("memory.oom_control", "memory.events"):
                with contextlib.suppress(OSError, ValueError):
                    for line in (folder / name).read_text().splitlines():
                        key, _, value = line.partition(" ")
                        if key == "oom_kill":
                            return int(value)
        return 0

    def remove(self, wait_s: float = 5.0) -> None:
        """Kill whatever still runs in the groups, then remove them (idempotent)."""
        deadline = time.monotonic() + wait_s
        for folder in self.folders:
            with contextlib.suppress(OSError):
                (folder / "cgroup.kill").write_text("1")  # v2 only: the whole group at once
        while True:
            for pid in self.pids():
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            left = []
            for folder in self.folders:
                try:
                    folder.rmdir()
                except FileNotFoundError:
                    pass
                except OSError as err:
                    if err.errno != errno.EBUSY:
                        raise
                    left.append(folder)
            if not left or time.monotonic() > deadline:
                self.folders = tuple(left)
                return
            time.sleep(0.02)


def sweep(support: CgroupSupport, root: Path = ROOT) -> int:
    """Remove the groups left by arenas that died (``kill -9``) with whatever runs in them;
    how many were removed. Groups of arenas still running are left alone."""
    parents = ([root / PARENT] if support.version == 2
               else [root / c / PARENT for c in support.controllers])
    removed = 0
    for parent in parents:
        try:
            folders = [f for f in parent.iterdir() if f.is_dir()]
        except OSError:
            continue
        for folder in folders:
            owner = folder.name.rsplit("-", 2)
            if len(owner) != 3 or not owner[1].isdigit() or _alive(int(owner[1])):
                continue
            with contextlib.suppress(OSError):
                BotGroups((folder,)).remove(wait_s=1.0)
                removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _set_limits(version: int, folders: dict[str, Path], memory_mb: int | None,
                processes: int | None, cpus: float | None) -> None:
    memory, pids, cpu = folders.get("memory"), folders.get("pids"), folders.get("cpu")
    if memory is not None and memory_mb is not None:
        limit = str(memory_mb * 2**20)
        if version == 2:
            (memory / "memory.max").write_text(limit)
            with contextlib.suppress(OSError):
                (memory / "memory.swap.max").write_text("0")
        else:
            (memory / "memory.limit_in_bytes").write_text(limit)
            with contextlib.suppress(OSError):  # swap accounting may be off
                (memory / "memory.memsw.limit_in_bytes").write_text(limit)
    if pids is not None and processes is not None:
        (pids / "pids.max").write_text(str(processes))
    if cpu is not None and cpus is not None:
        quota = max(1000, int(cpus * CPU_PERIOD_US))
        if version == 2:
            (cpu / "cpu.max").write_text(f"{quota} {CPU_PERIOD_US}")
        else:
            (cpu / "cpu.cfs_period_us").write_text(str(CPU_PERIOD_US))
            (cpu / "cpu.cfs_quota_us").write_text(str(quota))


def _safe(label: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in label)[:40]
