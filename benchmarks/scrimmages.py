"""The ladder's throughput with authors' scrimmages running beside it, against without.

The ladder of ``benchmarks.ladder`` (six bundled bots in Kill, one round a match, in the
sandbox, ``--parallel 2``) plays as many matches twice on fresh SQLite files: alone, and
while a scrimmage (a versus of two of the bots, far longer than the measurement) is played
as ``arena serve``'s scheduler plays one: with the server's two match slots and the
scrimmages' share of them (``--scrimmage-share 0.25``: one slot). The figure is the ladder's
matches per minute with over without, in alternating pairs (the median ratio).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from arena.app.scrimmages import SCRIMMAGES
from arena.storage.store import Store
from arena.tournament import RunSettings, create_tournament
from arena.tournament.ladder import create_ladder, run_ladder
from arena.tournament.run import run_tournament
from arena.tournament.scheduler import _Both
from benchmarks.common import Row
from benchmarks.ladder import GAME, OPTIONS, PLAYERS, _bots

SERVER_SLOTS = 2


def ladder_rate(folder: Path, matches: int, scrimmage: bool) -> tuple[float, int]:
    """The ladder's matches per minute over its first ``matches``, and the scrimmage's
    matches played meanwhile (0 without one)."""
    store = Store(str(folder / "arena.db"))
    settings = RunSettings(parallel=2)
    names = _bots(store)
    lid = create_ladder(store, GAME, PLAYERS, OPTIONS, settings, named=names)
    # far longer than the measurement (two of the bots, 125 deals in 4 rotations: 500
    # matches), stopped with the ladder
    sid = create_tournament(store, GAME, names[:2], PLAYERS, 125, None, OPTIONS,
                            RunSettings(parallel=2, scrimmage_of=1))

    async def main() -> float:
        stop, done = asyncio.Event(), asyncio.Event()

        async def count() -> None:
            while store.get_tournament(lid).total < matches:
                await asyncio.sleep(0.02)
            stop.set()

        share = asyncio.Semaphore(SCRIMMAGES.slots(SERVER_SLOTS))
        slots = asyncio.Semaphore(SERVER_SLOTS)
        scrimmaging = asyncio.ensure_future(run_tournament(
            store, sid, folder, RunSettings(parallel=2, scrimmage_of=1), stop=done,
            slots=_Both(share, slots))) if scrimmage else None
        counter = asyncio.ensure_future(count())
        began = time.perf_counter()
        await run_ladder(store, lid, folder, settings, stop)
        wall = time.perf_counter() - began
        counter.cancel()
        done.set()
        if scrimmaging is not None:
            await scrimmaging
        return wall

    wall = asyncio.run(main())
    played = store.get_tournament(lid).finished
    scrimmaged = store.get_tournament(sid).finished
    store.close()
    return 60 * played / wall, scrimmaged


def run(quick: bool) -> list[Row]:
    matches = 30 if quick else 60
    pairs = 1 if quick else 3
    ratios, alone, beside, side = [], [], [], []
    for _ in range(pairs):
        with tempfile.TemporaryDirectory(prefix="arena-bench-") as a, \
                tempfile.TemporaryDirectory(prefix="arena-bench-") as b:
            rate, _ = ladder_rate(Path(a), matches, scrimmage=False)
            with_rate, scrimmaged = ladder_rate(Path(b), matches, scrimmage=True)
        alone.append(rate)
        beside.append(with_rate)
        side.append(scrimmaged)
        ratios.append(with_rate / rate)
    ratio = statistics.median(ratios)
    return [
        Row("scrimmages", f"ladder alone, {matches} matches (Kill, 6 bots, --parallel 2)",
            statistics.median(alone), "matches/min",
            note=f"runs: {', '.join(f'{r:.0f}' for r in alone)}"),
        Row("scrimmages", "ladder with a scrimmage beside it (share 0.25 of 2 slots)",
            statistics.median(beside), "matches/min", "ladder alone", statistics.median(alone),
            ratio, "", None,
            f"median of {pairs} alternating pairs: {', '.join(f'{r:.2f}' for r in ratios)}; "
            f"scrimmage matches played meanwhile: {', '.join(map(str, side))}"),
    ]


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
