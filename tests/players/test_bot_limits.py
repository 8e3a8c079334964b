"""The limits of a bot are the bot's, not each of its processes': a bot that spreads over its
lanes (one process per seat rotation of a duplicate deal) gets no more than its limit in all.

A real tournament, in the real sandbox, on this machine's real control groups: a 4-seat game
between a hoarding bot and the random bot, so each bot has four lanes (four processes, each
with its own sandbox), and every process of the hoarder holds ``HOARD_MB`` as it starts,
which alone is well under the bot's limit and, over four lanes, well above it. What the bot
held at once is read from its parent group (``memory.max_usage_in_bytes`` on cgroup v1,
``memory.peak`` on v2) through :meth:`LocalExecutor.bot_usage`. The control plays the same
tournament with the bot's memory unlimited: its lanes then do hold more than the limit
together, so the test can see the attack.

Where cgroups are missing these tests are skipped, and failed in CI (``CI`` set), which
must exercise them.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.players import cgroups
from arena.players.limits import ResourceLimits
from arena.storage.store import Store
from arena.tournament import LocalExecutor, RunSettings, create_tournament
from arena.tournament.local import BotUsage
from arena.tournament.run import run_tournament
from benchmarks.lanes import twelve_lanes
from tests.helpers import GAME, processes_with

PROJECT = Path(__file__).resolve().parents[2]
MiB = 1 << 20
SUPPORT = cgroups.detect()
SEATS = 4  # seat rotations of a duplicate deal: four lanes, four processes of each bot
LIMIT_MB = 500  # the hoarder's memory, all its processes together
HOARD_MB = 150  # what each process of the hoarder holds: two lanes fit in the limit, not four
HOARDER = "hoarder"
ATTACK_LINE = re.compile(r"^ATTACK hoard (\{.*\})$", re.MULTILINE)


@pytest.fixture
def whole_bot_cgroups(sandboxed: None) -> None:
    """Memory cgroups and the sandbox: skipped where there are none, failed in CI."""
    if not SUPPORT.has("memory"):
        if os.environ.get("CI"):
            pytest.fail(f"cgroups must be usable in CI: {SUPPORT.why_not}")
        pytest.skip(f"no usable memory cgroup here: {SUPPORT.why_not}")


@dataclass
class Played:
    usage: BotUsage  # the hoarder's, read from its parent group
    total: int
    statuses: list[tuple[str, int]]
    faults: dict[str, list[str]]  # by bot name, a fault per seat played ("" for none)
    held: int  # how many of the hoarder's process starts got all they asked for
    parents: list[Path]  # the hoarder's parent groups seen while it played


def play(tmp_path: Path, memory_mb: int | None, marker: str) -> Played:
    """A 4-seat round-robin of the hoarder and the random bot, sandboxed, the hoarder's memory
    limited to ``memory_mb`` for the bot as a whole (None: unlimited)."""
    db = tmp_path / "arena.db"
    data = tmp_path / "arena-data"
    store = Store(str(db))
    store.add_bot(HOARDER, f"python -m tests.players.hostile.hoard --mb {HOARD_MB} "
                           f"--marker {marker}", folder=str(PROJECT))
    store.add_bot("random", f"python -m bots.random_bot {marker}", folder=str(PROJECT))
    settings = RunSettings(parallel=2, move_timeout_s=5, start_timeout_s=20,
                           limits=ResourceLimits(memory_mb=memory_mb, processes=None))
    tid = create_tournament(store, GAME, [HOARDER, "random"], SEATS, 1, 7, {}, settings)
    executor = LocalExecutor(data, settings, hidden=(db,))
    parents: set[Path] = set()

    async def run() -> None:
        watching = asyncio.create_task(_watch_parents(parents))
        try:
            await run_tournament(store, tid, data, settings, executor=executor)
        finally:
            watching.cancel()

    asyncio.run(run())
    info = store.get_tournament(tid)
    faults: dict[str, list[str]] = {}
    for match in store.list_matches(tid, 1000):
        for seat in match.seats:
            faults.setdefault(seat.bot.split("@")[0], []).append(str(seat.fault))
    store.close()
    with sqlite3.connect(db) as connection:
        statuses = connection.execute("select status, count(*) from match group by status").fetchall()
    logs = "".join(path.read_text(errors="replace")
                   for path in (data / "logs").glob(f"{HOARDER}@1*.log"))
    held = [json.loads(body)["held_mb"] for body in ATTACK_LINE.findall(logs)]
    assert all(mb == HOARD_MB for mb in held), held
    return Played(executor.bot_usage()[f"{HOARDER}@1"], info.total, statuses, faults, len(held),
                  sorted(parents))


async def _watch_parents(seen: set[Path]) -> None:
    """Note the hoarder's parent groups (to check that they are gone afterwards)."""
    base = cgroups.ROOT / "memory" / cgroups.PARENT if SUPPORT.version == 1 else \
        cgroups.ROOT / cgroups.PARENT
    while True:
        seen.update(p for p in base.glob(f"{HOARDER}_1-{os.getpid()}-*") if p.is_dir())
        await asyncio.sleep(0.05)


@pytest.fixture
def marker() -> Iterator[str]:
    text = f"bot-limits-{os.urandom(6).hex()}"
    yield text
    assert not processes_with(text), "bot processes outlived the tournament"


def test_a_bots_lanes_together_are_held_to_its_memory_limit(
        tmp_path: Path, whole_bot_cgroups: None, marker: str) -> None:
    played = play(tmp_path, LIMIT_MB, marker)
    # every match is accounted for: played to its end and recorded, whatever the hoarder did
    assert played.total > 0 and played.statuses == [("finished", played.total)]
    assert played.faults["random"] == [""] * len(played.faults["random"])
    # the bot as a whole never held more than its limit, and it did push against it
    usage = played.usage
    assert usage.memory_limit_mb == LIMIT_MB
    assert usage.memory_peak is not None
    assert usage.memory_peak <= LIMIT_MB * MiB, usage
    assert usage.memory_peak >= (LIMIT_MB - 8) * MiB, usage  # it got to the limit
    # the lanes beyond it were killed by the kernel: a lane killed in a match faulted there
    # (crashed), one killed while starting missed its match (a no-show: seen in CI), one
    # killed between its matches was started again for the next
    assert usage.oom_kills >= 1, usage
    assert set(played.faults[HOARDER]) <= {"", "crashed", "no-show"}, played.faults[HOARDER]
    assert played.held >= 2  # some lanes got their share (two fit), the others were killed
    # the bot's parent group is gone with its last lane
    assert played.parents, "the hoarder's parent group was never seen"
    assert not any(parent.exists() for parent in played.parents), played.parents


def test_control_unlimited_the_same_lanes_hold_more_than_the_limit_together(
        tmp_path: Path, whole_bot_cgroups: None, marker: str) -> None:
    """Without the limit the attack works: the four lanes together hold more than the limit
    (before limits were per bot, a limit per lane let them)."""
    played = play(tmp_path, None, marker)
    assert played.total > 0 and played.statuses == [("finished", played.total)]
    usage = played.usage
    assert usage.memory_limit_mb is None and usage.oom_kills == 0
    assert usage.memory_peak is not None
    assert usage.memory_peak > LIMIT_MB * MiB, usage
    assert played.held == SEATS  # every lane got its share, and kept it
    assert set(played.faults[HOARDER]) == {""}


def test_an_honest_bot_plays_in_all_twelve_lanes_within_the_default_limits(
        tmp_path: Path, whole_bot_cgroups: None) -> None:
    """The defaults are for the bot as a whole, so they must leave room for its twelve lanes
    in a 12-seat game (a sandboxed Python bot takes about ten processes and threads)."""
    lanes = 12
    faults, usage = twelve_lanes(tmp_path)
    assert faults == [("",) * lanes] * lanes, faults
    assert usage.oom_kills == 0 and usage.memory_limit_mb == ResourceLimits().memory_mb
    if SUPPORT.has("pids"):  # all twelve lanes, while they ran, within the default
        assert usage.processes is not None and usage.processes < (ResourceLimits().processes or 0)
