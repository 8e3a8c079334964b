"""A bot's limits over all its lanes: the figures of the attack that once went through, now.

* A 6-seat round-robin (face-card-kill-card) of a hoarding bot and the random bot, in the
  sandbox, with ``--bot-memory 512MB``: every process of the hoarder (six lanes, and each
  restart of one) holds 400 MB from its start. The most the hoarder held at once, all its
  processes together, read from its group (``memory.max_usage_in_bytes`` / ``memory.peak``),
  against the attack when the limits were per lane (2,546 MB at once), and the same run
  with its memory unlimited (what the lanes would hold together now without a limit).
* The random bot in all twelve lanes of a 12-seat game under the default limits: the
  processes and threads its lanes hold together, against the default ``--bot-processes``
  (all twelve must fit, or an honest bot could not play 12 seats).
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from arena.match.referee import MatchSettings
from arena.players import cgroups, sandbox
from arena.players.limits import ResourceLimits
from arena.storage.store import Store
from arena.tournament import LocalExecutor, RunSettings, create_tournament
from arena.tournament.executor import Entrant, MatchJob
from arena.tournament.local import BotUsage
from arena.tournament.run import run_tournament
from benchmarks.common import Row

PROJECT = Path(__file__).resolve().parents[1]
GAME = "face-card-kill-card"
MiB = 1 << 20
LIMIT_MB = 512
HOARD_MB = 400
BEFORE_MB = 2546  # the attack, with a limit per lane: held at once by one bot's six lanes


def _hoarder_peak(root: Path, memory_mb: int | None) -> tuple[float, int, int, int]:
    """(the most the hoarder held at once, MiB; its kernel kills; matches finished, of all)."""
    db = root / "arena.db"
    store = Store(str(db))
    store.add_bot("hoarder", f"python -m tests.players.hostile.hoard --mb {HOARD_MB}",
                  folder=str(PROJECT))
    store.add_bot("random", "python -m bots.random_bot", folder=str(PROJECT))
    settings = RunSettings(parallel=2, move_timeout_s=5, start_timeout_s=20,
                           limits=ResourceLimits(memory_mb=memory_mb, processes=None))
    tid = create_tournament(store, GAME, ["hoarder", "random"], 6, 1, 7, {}, settings)
    executor = LocalExecutor(root / "arena-data", settings, hidden=(db,))
    asyncio.run(run_tournament(store, tid, root / "arena-data", settings, executor=executor))
    info = store.get_tournament(tid)
    store.close()
    usage = executor.bot_usage()["hoarder@1"]
    return (usage.memory_peak or 0) / MiB, usage.oom_kills, info.finished, info.total


def twelve_lanes(root: Path) -> tuple[list[tuple[str, ...]], BotUsage]:
    """The random bot in all twelve lanes of a 12-seat game under the default limits, a match
    per lane: each match's faults ("" for none), and what the bot used as a whole (read while
    its lanes still run)."""
    lanes = 12
    entrant = Entrant(1, "random@1", command="python -m bots.random_bot", folder=str(PROJECT),
                      lanes=lanes)
    assert entrant.limits == ResourceLimits()  # the defaults
    executor = LocalExecutor(root / "arena-data", RunSettings())

    async def run() -> tuple[list[tuple[str, ...]], BotUsage]:
        await executor.start([entrant])
        try:
            reports = [await executor.play(MatchJob(
                match_id=lane + 1, index=lane, game=GAME, players=lanes, seed=lane, options={},
                seats=(entrant,) * lanes, clocks=MatchSettings(10, 20), lane=lane))
                for lane in range(lanes)]
            return ([tuple(str(fault) for fault in report.faults) for report in reports],
                    executor.bot_usage()["random@1"])
        finally:
            await executor.close()

    return asyncio.run(run())


def run(quick: bool) -> list[Row]:
    support = cgroups.detect()
    if not support.has("memory") or not sandbox.check().works:
        return [Row("bot-limits", "skipped: no memory cgroup or no sandbox here", 0, "",
                    note=support.why_not or sandbox.check().why_not)]
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="arena-bench-lanes-") as tmp:
        limited = Path(tmp) / "limited"
        limited.mkdir()
        held, kills, finished, total = _hoarder_peak(limited, LIMIT_MB)
        rows.append(Row("bot-limits", f"6 lanes x {HOARD_MB} MB, --bot-memory {LIMIT_MB}MB: "
                        "most held at once", held, "MiB", "the attack, a limit per lane",
                        BEFORE_MB, ratio=held / BEFORE_MB, target=f"<= {LIMIT_MB} MiB",
                        met=held <= LIMIT_MB and finished == total,
                        note=f"{kills} of its processes killed by the kernel; "
                             f"{finished} of {total} matches finished"))
        free = Path(tmp) / "free"
        free.mkdir()
        unlimited, _, _, _ = _hoarder_peak(free, None)
        rows.append(Row("bot-limits", "the same, memory unlimited: held at once", unlimited,
                        "MiB", f"--bot-memory {LIMIT_MB}MB", LIMIT_MB,
                        ratio=unlimited / LIMIT_MB, target=f"> {LIMIT_MB} MiB (the attack is real)",
                        met=unlimited > LIMIT_MB))
        if support.has("pids"):
            twelve = Path(tmp) / "twelve"
            twelve.mkdir()
            faults, usage = twelve_lanes(twelve)
            pids = usage.processes or 0
            clean = sum(all(not fault for fault in match) for match in faults)
            default = ResourceLimits().processes or 0
            rows.append(Row("bot-limits", "random bot, 12 lanes: processes and threads together",
                            pids, "tasks", "default --bot-processes", default,
                            ratio=pids / default if default else None,
                            target=f"< {default}, 12 lanes clean", met=pids < default
                            and clean == 12, note=f"{clean} of 12 lanes played without a fault"))
    return rows
