"""Control groups for bots, on this machine's real cgroup hierarchy (skipped where there is none,
except in CI, where they must be usable: there these tests run, and fail)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.players import cgroups
from arena.players.cgroups import BotBudget, BotGroups, CgroupSupport
from arena.players.limits import ResourceLimits
from tests.helpers import eventually, running

SUPPORT = cgroups.detect()
pytestmark = pytest.mark.skipif(not SUPPORT.controllers and not os.environ.get("CI"),
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
        # once its sleeps are killed the shell becomes a third sleep, so that it is still
        # there to be killed: a shell that ended on its own as they died would exit 0
        ["sh", "-c", "sleep 60 & sleep 60 & wait; exec sleep 60"], groups.procs_files)
    shell = subprocess.Popen(argv, start_new_session=True)
    eventually("the shell and both sleeps in the groups", lambda: len(groups.pids()) >= 3,
               every=0.02)
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
    eventually("the launcher to join the group",
               lambda: sleeper.pid in BotGroups((left[0],)).pids(), every=0.02)
    ours = BotGroups.create(SUPPORT, "alive", memory_mb=None, processes=None, cpus=None)
    try:
        assert cgroups.sweep(support) >= len(left)
        assert sleeper.wait(timeout=10) == -9
        assert not any(folder.exists() for folder in left)
        assert all(folder.exists() for folder in ours.folders)  # this arena's are kept
    finally:
        ours.remove()


def _file(folder: Path, name: str) -> str:
    return (folder / name).read_text().strip()


def _controller(folders: tuple[Path, ...], name: str) -> Path:
    """The folder of ``folders`` that holds the file ``name`` (v1: one folder per controller)."""
    return next(folder for folder in folders if (folder / name).exists())


@pytest.mark.skipif(not SUPPORT.has("pids") and not os.environ.get("CI"),
                    reason=f"no usable pids cgroup here: {SUPPORT.why_not}")
def test_the_starts_of_one_bot_share_its_limits_and_its_group_goes_with_the_last() -> None:
    """Two starts (two lanes) of one bot, each a family that would have 23 processes: alone
    each fits the bot's 30, together they get 30, not 46, and they are counted apart."""
    budget = BotBudget(SUPPORT, "two lanes@1", memory_mb=300, processes=30, cpus=None)
    lanes = [budget.join("two lanes@1"), budget.join("two lanes@1.lane1")]
    parent = _controller(budget.folders, "pids.max")
    assert all(str(lane.folders[0]).startswith(str(budget.folders[0]) + "/") for lane in lanes)
    assert _file(parent, "pids.max") == "30"
    assert all(_file(_controller(lane.folders, "pids.max"), "pids.max") == "max" for lane in lanes)
    if SUPPORT.has("memory"):
        limit = "memory.max" if SUPPORT.version == 2 else "memory.limit_in_bytes"
        assert _file(_controller(budget.folders, limit), limit) == str(300 * 2**20)
    family = [sys.executable, "-m", "tests.bots.family", "forks", "2", "10"]
    unlimited = ResourceLimits(None, None, None, None, None)
    started = [subprocess.Popen(unlimited.wrap(family, lane.procs_files), stdout=subprocess.PIPE,
                                text=True, start_new_session=True) for lane in lanes]
    try:
        counts = []
        for process in started:
            assert process.stdout is not None
            line = process.stdout.readline()  # once its family has forked all it could
            assert line.startswith("processes "), line
            counts.append(int(line.split()[1]))
        assert sum(counts) <= 30 < 2 * 23, counts  # both families, within the bot's limit
        assert _file(parent, "pids.current") == "30"  # the bot's budget is used up, no more
        assert sum(len(lane.pids()) for lane in lanes) == 30  # each start in its own group
        first = lanes[0].folders
        lanes[0].remove()  # one lane ends: its processes and group go, the bot's stays
        assert not any(folder.exists() for folder in first)
        assert started[0].wait(timeout=10) == -9
        assert all(folder.exists() for folder in budget.folders)
        assert started[1].poll() is None
        kept = budget.folders
        lanes[1].remove()  # the last lane ends: the bot's group goes too
        assert started[1].wait(timeout=10) == -9
        assert budget.folders == () and not any(folder.exists() for folder in kept)
    finally:
        budget.close()
        for process in started:
            process.kill()
            process.wait()


def test_a_bot_starts_again_in_a_new_group_with_the_same_limits() -> None:
    budget = BotBudget(SUPPORT, "again@1", memory_mb=200, processes=12, cpus=0.5)
    first = budget.join("again@1")
    gone = budget.folders
    first.remove()
    assert budget.folders == () and not any(folder.exists() for folder in gone)
    second = budget.join("again@1")
    try:
        assert budget.folders and budget.folders != gone
        if SUPPORT.has("pids"):
            assert _file(_controller(budget.folders, "pids.max"), "pids.max") == "12"
    finally:
        second.remove()
    assert budget.folders == ()


def test_the_nested_groups_of_a_dead_arena_are_swept_with_what_runs_in_them() -> None:
    dead = 2**22 + 11  # above any pid this kernel hands out: an arena that is gone
    parents = ([cgroups.ROOT / cgroups.PARENT] if SUPPORT.version == 2 else
               [cgroups.ROOT / c / cgroups.PARENT for c in SUPPORT.controllers])
    bots = [parent / f"orphan-{dead}-1" for parent in parents]
    lanes = [bot / "orphan.lane1-2" for bot in bots]
    for folder in (*bots, *lanes):
        folder.mkdir()
    sleeper = subprocess.Popen(ResourceLimits(None, None, None, None, None).wrap(
        ["sleep", "60"], [str(lane / "cgroup.procs") for lane in lanes]))
    eventually("the launcher to join the lane's group",
               lambda: sleeper.pid in BotGroups((lanes[0],)).pids(), every=0.02)
    assert sleeper.pid in BotGroups(tuple(bots)).pids()  # a bot's group counts its lanes'
    assert cgroups.sweep(CgroupSupport(SUPPORT.version, SUPPORT.controllers)) >= len(bots)
    assert sleeper.wait(timeout=10) == -9
    assert not any(folder.exists() for folder in (*lanes, *bots))
