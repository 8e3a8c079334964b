"""(6) Memory: the referee's resident memory per concurrent match.

Runs in a fresh interpreter (``python -m benchmarks.memory N PARK``) so nothing
else of the benchmark is in the heap. It plays one match to warm every cache,
takes the RSS, then starts N King matches over instant in-memory links whose
bots stop answering after PARK decisions each (so every match is parked mid-game,
waiting on a decision, its log and state live), and takes the RSS again.
The gRPC streams of a real server are not included.
"""

from __future__ import annotations

import asyncio
import gc
import json
import subprocess
import sys
from typing import Any

import psutil

from arena.games import get_game
from arena.match.links import Link
from arena.match.referee import MatchSettings, run_match
from benchmarks.common import InstantLink, Row

GAME = "king"
PLAYERS = 4
SETTINGS = MatchSettings(move_timeout_s=0, start_timeout_s=30)
TARGET_BYTES = 1_000_000


async def _measure(n: int, park: int) -> dict[str, Any]:
    options = dict(get_game(GAME).parse_options(PLAYERS))
    process = psutil.Process()

    async def ready(link: InstantLink) -> Link:
        return link

    async def match(seed: int, park_after: int | None) -> tuple[list[InstantLink], Any]:
        links = [InstantLink(seat, park_after=park_after) for seat in range(PLAYERS)]
        task = asyncio.ensure_future(run_match(
            game_name=GAME, players=PLAYERS, seed=seed, options=options,
            links=[ready(link) for link in links], settings=SETTINGS))
        return links, task

    _, warm = await match(10**6, None)
    report = await warm
    gc.collect()
    before = process.memory_info().rss
    running = [await match(seed, park) for seed in range(n)]
    while not all(any(link.parked.is_set() for link in links) for links, _ in running):
        await asyncio.sleep(0.05)
    gc.collect()
    after = process.memory_info().rss
    decisions = sum(link.decisions for links, _ in running for link in links)
    for _, task in running:
        task.cancel()
    await asyncio.gather(*(task for _, task in running), return_exceptions=True)
    return {"matches": n, "rss_before": before, "rss_after": after,
            "per_match": (after - before) / n, "decisions_in": decisions / n,
            "full_log_bytes": len(report.log), "full_decisions": report.decisions}


def run(quick: bool) -> list[Row]:
    n, park = (250, 10) if quick else (1000, 10)
    out = subprocess.run([sys.executable, "-m", "benchmarks.memory", str(n), str(park)],
                         check=True, capture_output=True, text=True, timeout=420)
    m = json.loads(out.stdout)
    per = m["per_match"]
    return [Row("6 memory", f"referee RSS per parked match at {n:,} concurrent", per / 1e6, "MB",
                "target", TARGET_BYTES / 1e6, per / TARGET_BYTES, "< 1 MB at 1,000", per < TARGET_BYTES,
                f"King, parked after ~{m['decisions_in']:.0f} decisions; RSS "
                f"{m['rss_before'] / 1e6:.0f} -> {m['rss_after'] / 1e6:.0f} MB; in-memory links "
                f"(no gRPC streams); a finished match's log is {m['full_log_bytes'] / 1e3:.0f} kB")]


if __name__ == "__main__":
    print(json.dumps(asyncio.run(_measure(int(sys.argv[1]), int(sys.argv[2])))))
