"""Control groups: limits on a bot as a whole (all its processes together), where the machine allows.

A bot's limits are held by a *parent* group of its own (:class:`BotBudget`) under
``card-arena/`` in each controller it uses: ``memory`` (resident memory of all its
processes, tmpfs scratch included; the kernel's OOM killer acts inside the group),
``pids`` (its processes and threads together: a fork bomb stops there) and ``cpu``
(how many cores it may keep busy at once). Every process start of the bot (each of
its *lanes*, see :mod:`arena.tournament.local`, and each restart) gets a group of
its own *inside* that parent (:class:`BotGroups`, without limits of its own): it is
there to kill and count that one start, while the limits, being hierarchical, hold
for the sum of all the starts. So a bot with four lanes and 512 MB has 512 MB, not
4 x 512 MB. The parent is made with the bot's first group and removed with its
last (the executor removes what is left when it closes).

The launcher (:mod:`arena.players.limits`) moves itself into the start's groups
before it becomes the bot, so every descendant is inside from its first
instruction. After the start ends, :meth:`BotGroups.remove` kills anything left in
its groups and removes them (a group's subgroups too).

    card-arena/NAME-PID-N/          the bot's limits (memory, pids, cpu)
        NAME.laneL-M/               one start of one lane: its processes, no limits

Both layouts are handled: cgroup v1 (a hierarchy per controller, as on this
project's CI machines: the tree above is made in each) and cgroup v2 (one unified
hierarchy: the parent enables the controllers for its subgroups). Where neither is
writable, :func:`detect` says why and the limits fall back to per-process rlimits.
A group of one start may also be made on its own, with limits (:meth:`BotGroups.create`),
for a process that is the whole of what it limits.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import signal
import threading
import time
from dataclasses import dataclass, field
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
    """The groups of one start of one bot, one per controller's hierarchy (one in v2): made
    with limits of their own (:meth:`create`) or inside a :class:`BotBudget` (its
    :meth:`~BotBudget.join`), and joined by the launcher."""

    folders: tuple[Path, ...]
    budget: BotBudget | None = field(default=None, repr=False, compare=False)

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
        """The processes in the groups and in their subgroups."""
        found: set[int] = set()
        for top in self.folders:
            for folder in _tree(top):
                with contextlib.suppress(OSError, ValueError):
                    found.update(int(line) for line in (folder / "cgroup.procs").read_text().split())
        return found

    def oom_kills(self) -> int:
        """How often the kernel killed a process of these groups for going over a memory
        limit: their own, or one of a group above them. (Kills in subgroups count here on
        cgroup v2, not on v1: see :meth:`BotBudget.oom_kills`.)"""
        for folder in self.folders:
            for name in ("memory.oom_control", "memory.events"):
                with contextlib.suppress(OSError, ValueError):
                    for line in (folder / name).read_text().splitlines():
                        key, _, value = line.partition(" ")
                        if key == "oom_kill":
                            return int(value)
        return 0

    def memory_peak(self) -> int | None:
        """The most memory the groups held at once, in bytes, subgroups included (None: no
        memory controller, or a kernel that does not keep it)."""
        for folder in self.folders:
            for name in ("memory.peak", "memory.max_usage_in_bytes"):  # v2, v1
                with contextlib.suppress(OSError, ValueError):
                    return int((folder / name).read_text())
        return None

    def remove(self, wait_s: float = 5.0) -> None:
        """Kill whatever still runs in the groups and their subgroups, then remove them all
        (idempotent); a group inside a :class:`BotBudget` then leaves it."""
        deadline = time.monotonic() + wait_s
        for folder in self.folders:
            with contextlib.suppress(OSError):
                (folder / "cgroup.kill").write_text("1")  # v2 only: the whole subtree at once
        kills = 0
        while True:
            for pid in self.pids():
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            if self.budget is not None:  # the count goes with the group: read it while it is
                kills = max(kills, self.oom_kills())
            left = []
            for top in self.folders:
                for folder in _tree(top):  # subgroups before their parent
                    try:
                        folder.rmdir()
                    except FileNotFoundError:
                        pass
                    except OSError as err:
                        if err.errno != errno.EBUSY:
                            raise
                        if folder == top:
                            left.append(folder)
            if not left or time.monotonic() > deadline:
                self.folders = tuple(left)
                break
            time.sleep(0.02)
        budget, self.budget = self.budget, None
        if budget is not None:
            budget.left(self, kills)


class BotBudget:
    """The limits of one bot as a whole: a parent group per hierarchy, holding the limits,
    with a group of each process start of the bot inside (:meth:`join`).

    The parent is made by the first :meth:`join` and removed when the last group made by
    :meth:`join` is removed (and made again, with the same limits, if the bot starts again).
    Groups are removed from other threads (a stopping bot's), so the count is locked. What
    the bot used (the most memory at once, the kills for memory) is kept across parents.
    """

    def __init__(self, support: CgroupSupport, label: str, *, memory_mb: int | None,
                 processes: int | None, cpus: float | None, root: Path = ROOT) -> None:
        self.support, self.label, self.root = support, label, root
        self.memory_mb, self.processes, self.cpus = memory_mb, processes, cpus
        self._lock = threading.Lock()
        self._parent: BotGroups | None = None
        self._members: list[BotGroups] = []  # made by join, not yet removed
        self._peak: int | None = None  # of the parents removed so far
        self._oom_kills = 0  # of the groups removed so far

    @property
    def folders(self) -> tuple[Path, ...]:
        """The parent's folders, while it exists (empty otherwise)."""
        parent = self._parent
        return parent.folders if parent is not None else ()

    def join(self, label: str) -> BotGroups:
        """New groups for one start of the bot (``label`` names it), inside the parent: no
        limits of their own, the parent's for everything in it."""
        with self._lock:
            if self._parent is None:
                self._parent = BotGroups.create(self.support, self.label, memory_mb=self.memory_mb,
                                                processes=self.processes, cpus=self.cpus,
                                                root=self.root)
                if self.support.version == 2:  # controllers reach subgroups only when enabled
                    try:
                        (self._parent.folders[0] / "cgroup.subtree_control").write_text(
                            " ".join(f"+{c}" for c in self.support.controllers))
                    except OSError:
                        self._drop_parent()
                        raise
            name = f"{_safe(label)}-{next(_names)}"
            made: list[Path] = []
            try:
                for folder in self._parent.folders:
                    (folder / name).mkdir()
                    made.append(folder / name)
            except OSError:
                for folder in made:
                    with contextlib.suppress(OSError):
                        folder.rmdir()
                if not self._members:
                    self._drop_parent()
                raise
            groups = BotGroups(tuple(made), budget=self)
            self._members.append(groups)
            return groups

    def left(self, groups: BotGroups, oom_kills: int) -> None:
        """``groups``, made by :meth:`join`, were removed, their processes killed ``oom_kills``
        times for memory: the parent goes with the last of them."""
        with self._lock:
            self._oom_kills += oom_kills
            self._members = [g for g in self._members if g is not groups]
            if not self._members:
                self._drop_parent()

    def close(self) -> None:
        """Remove the parent now, with every group and process still in it."""
        with self._lock:
            members, self._members = self._members, []
            for groups in members:
                self._oom_kills += groups.oom_kills()
                groups.budget = None  # removed with the parent below
            self._drop_parent()

    def memory_peak(self) -> int | None:
        """The most memory the bot held at once, all its processes together, in bytes."""
        parent = self._parent
        now = parent.memory_peak() if parent is not None else None
        return max((p for p in (self._peak, now) if p is not None), default=None)

    def processes_now(self) -> int | None:
        """How many processes and threads the bot has now, all together (None: not known)."""
        for folder in self.folders:
            with contextlib.suppress(OSError, ValueError):
                return int((folder / "pids.current").read_text())
        return None

    def oom_kills(self) -> int:
        """How often the kernel killed a process of the bot for memory: the sum over its
        starts' groups (a parent's count takes in its subgroups' on cgroup v2, not on v1)."""
        with self._lock:
            return self._oom_kills + sum(groups.oom_kills() for groups in self._members)

    def _drop_parent(self) -> None:
        parent, self._parent = self._parent, None
        if parent is None:
            return
        peak = parent.memory_peak()
        if peak is not None:
            self._peak = max(peak, self._peak or 0)
        parent.remove()


def _tree(top: Path) -> list[Path]:
    """``top`` and the groups below it, each after the groups below it."""
    found: list[Path] = []
    with contextlib.suppress(OSError):
        for entry in top.iterdir():
            if entry.is_dir():
                found += _tree(entry)
    return [*found, top]


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
