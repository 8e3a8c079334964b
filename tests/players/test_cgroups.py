"""Control groups for bots, on this machine's real cgroup hierarchy (skipped where there is none)."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator

import pytest

from arena.players import cgroups
from arena.players.cgroups import BotGroups, CgroupSupport
from arena.players.limits import ResourceLimits
from tests.helpers import running

SUPPORT = cgroups.detect()
pytestmark = pytest.mark.skipif(not SUPPORT.controllers,
                                reason=f"no usable cgroups here: {SUPPORT.why_not}")


@pytest.fixture
def groups() -> Iterator[BotGroups]:
    made = BotGroups.create(SUPPORT, "test bot@1", memory_mb=300, processes=12, cpus=0.5)
    yield made
    made.remove()


def _read(groups: BotGroups, name: str) -> str:
    for folder in groups.folders:
        if (folder / name).exists():
            return (folder / name).read_text().strip()
    raise AssertionError(f"no {name} in {groups.folders}")


def test_a_group_gets_the_limits_asked_for(groups: BotGroups) -> None:
    if SUPPORT.version == 1:
        assert _read(groups, "memory.limit_in_bytes") == str(300 * 2**20)
        assert _read(groups, "cpu.cfs_quota_us") == "50000"
    else:
        assert _read(groups, "memory.max") == str(300 * 2**20)
        assert _read(groups, "cpu.max") == "50000 100000"
    assert _read(groups, "pids.max") == "12"
    assert all("card-arena/test_bot_1-" in str(folder) for folder in groups.folders)


def test_the_launcher_joins_the_groups_and_remove_kills_everything_left(groups: BotGroups) -> None:
    argv = ResourceLimits(None, None, None, None, None).wrap(
        ["sh", "-c", "sleep 60 & sleep 60 & wait"], groups.procs_files)
    shell = subprocess.Popen(argv, start_new_session=True)
    deadline = time.monotonic() + 10
    while len(groups.pids()) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    members = groups.pids()
    assert shell.pid in members and len(members) == 3  # the shell and both sleeps
    folders = groups.folders
    groups.remove()
    assert shell.wait(timeout=10) == -9
    assert not any(folder.exists() for folder in folders)
    assert not any(os.path.exists(f"/proc/{pid}/cgroup") and running(pid) for pid in members)


def test_the_groups_of_a_dead_arena_are_swept_with_what_runs_in_them() -> None:
    dead = 2**22 + 7  # above any pid this kernel hands out: an arena that is gone
    support = CgroupSupport(SUPPORT.version, SUPPORT.controllers)
    parents = ([cgroups.ROOT / cgroups.PARENT] if SUPPORT.version == 2 else
               [cgroups.ROOT / c / cgroups.PARENT for c in SUPPORT.controllers])
    left = [parent / f"orphan-{dead}-1" for parent in parents]
    for folder in left:
        folder.mkdir()
    sleeper = subprocess.Popen(ResourceLimits(None, None, None, None, None).wrap(
        ["sleep", "60"], [str(left[0] / "cgroup.procs")]))
    deadline = time.monotonic() + 10
    while sleeper.pid not in BotGroups((left[0],)).pids() and time.monotonic() < deadline:
        time.sleep(0.02)  # the launcher has joined the group
    ours = BotGroups.create(SUPPORT, "alive", memory_mb=None, processes=None, cpus=None)
    try:
        assert cgroups.sweep(support) >= len(left)
        assert sleeper.wait(timeout=10) == -9
        assert not any(folder.exists() for folder in left)
        assert all(folder.exists() for folder in ours.folders)  # this arena's are kept
    finally:
        ours.remove()
