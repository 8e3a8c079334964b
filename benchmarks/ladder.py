"""(11) The ladder's throughput against a round-robin of the same bots.

Six bundled bots in Kill (four seats, one round a match, so that the arena's own work per
match shows): a round-robin of them (15 groups x 4 rotations = 60 matches, as ``arena
tournament run`` plays it: duplicate deals, a process per lane), against the ladder with
them entered, stopped after as many matches. Both in the sandbox with ``--parallel 2``, on
fresh SQLite files, in alternating pairs; the ratio is the median of the pairs' matches
per minute, ladder over round-robin (target >= 0.9).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from arena.storage.store import Store
from arena.tournament import RunSettings, create_tournament, run_until_done
from arena.tournament.ladder import create_ladder, run_ladder
from benchmarks.common import Row

GAME = "kill"
PLAYERS = 4
OPTIONS = {"rounds": "1"}
BOTS = [(f"random{i}", f"python -m bots.random_bot --seed {i}") for i in range(3)] + \
    [(f"kill{i}", "python -m bots.kill") for i in range(3)]


def _bots(store: Store) -> list[str]:
    for name, command in BOTS:
        store.add_bot(name, command)
    return [name for name, _ in BOTS]


def round_robin(folder: Path) -> tuple[int, float]:
    """Matches played and their matches per minute (wall, start-up included)."""
    store = Store(str(folder / "arena.db"))
    settings = RunSettings(parallel=2)
    tid = create_tournament(store, GAME, _bots(store), PLAYERS, 1, None, OPTIONS, settings)
    summary = run_until_done(store, tid, folder, settings)
    store.close()
    return summary.played, 60 * summary.played / summary.wall_s


def ladder(folder: Path, matches: int) -> tuple[int, float]:
    store = Store(str(folder / "arena.db"))
    settings = RunSettings(parallel=2)
    names = _bots(store)
    lid = create_ladder(store, GAME, PLAYERS, OPTIONS, settings, named=names)

    async def main() -> float:
        stop = asyncio.Event()

        async def count() -> None:
            while store.get_tournament(lid).total < matches:
                await asyncio.sleep(0.02)
            stop.set()

        counter = asyncio.ensure_future(count())
        began = time.perf_counter()
        await run_ladder(store, lid, folder, settings, stop)
        counter.cancel()
        return time.perf_counter() - began

    wall = asyncio.run(main())
    played = store.get_tournament(lid).finished
    store.close()
    return played, 60 * played / wall


def run(quick: bool) -> list[Row]:
    pairs = 1 if quick else 3
    ratios, robin_rates, ladder_rates = [], [], []
    for _ in range(pairs):
        with tempfile.TemporaryDirectory(prefix="arena-bench-") as a, \
                tempfile.TemporaryDirectory(prefix="arena-bench-") as b:
            played, robin = round_robin(Path(a))
            _, rate = ladder(Path(b), played)
        robin_rates.append(robin)
        ladder_rates.append(rate)
        ratios.append(rate / robin)
    ratio = statistics.median(ratios)
    return [
        Row("11 ladder", "round-robin of 6 bots, Kill (1 round), --parallel 2",
            statistics.median(robin_rates), "matches/min",
            note=f"{played} matches, sandboxed, duplicate deals (4 lanes a bot); "
                 f"runs: {', '.join(f'{r:.0f}' for r in robin_rates)}"),
        Row("11 ladder", "ladder of the same 6 bots, as many matches",
            statistics.median(ladder_rates), "matches/min", "round-robin", statistics.median(
                robin_rates), ratio, ">= 0.9x", ratio >= 0.9,
            f"median of {pairs} alternating pairs: {', '.join(f'{r:.2f}' for r in ratios)}; "
            "fresh secret deals, one process a bot, groups chosen as it goes"),
    ]


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
