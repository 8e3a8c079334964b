"""(4) Tournament cost: a 6-bot round-robin of Kill with ``--parallel 2``.

Wall time, the share spent starting bot processes, and the time spent in the
database per match (every :class:`arena.storage.store.Store` call the runner makes is
timed by a thin subclass; the store's code is unchanged).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from arena.games import get_game
from arena.net.bot_service import MatchHost, create_server
from arena.players.process import BotProcess
from arena.storage.store import Store
from arena.tournament import RunSettings, round_robin, run_until_done
from benchmarks.common import Row

GAME = "kill"
PLAYERS = 4
BOTS = (("random", "python -m bots.random_bot"), ("kill-bot", "python -m bots.kill"))
TIMED = ("claim_unfinished", "mark_running", "finish_match", "get_tournament", "get_bot_by_id",
         "set_tournament_status")


class TimedStore(Store):
    """A Store that adds up the wall time of each method the tournament runner calls."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def __getattribute__(self, name: str) -> Any:
        attribute = super().__getattribute__(name)
        if name not in TIMED:
            return attribute
        seconds, calls = super().__getattribute__("seconds"), super().__getattribute__("calls")

        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return attribute(*args, **kwargs)
            finally:
                seconds[name] += time.perf_counter() - began
                calls[name] += 1

        return timed


async def _time_to_ready(commands: list[str], tmp: Path) -> float:
    """Seconds from spawning the bots (all at once) until every one attends the server."""
    host = MatchHost()
    server, port = await create_server(host)
    bots = [BotProcess(f"b{i}", c, f"127.0.0.1:{port}", tmp / "ready-logs")
            for i, c in enumerate(commands)]
    try:
        for bot in bots:
            host.admit(bot.token)
        began = time.perf_counter()
        await asyncio.gather(*(bot.ensure_running() for bot in bots))
        while not all((a := host.attendee(b.token)) is not None and a.streams > 0 for b in bots):
            if time.perf_counter() - began > 60:
                raise RuntimeError("bots did not attend within 60 s")
            await asyncio.sleep(0.005)
        return time.perf_counter() - began
    finally:
        for bot in bots:
            host.dismiss(bot.token)
        await asyncio.gather(*(b.stop() for b in bots), return_exceptions=True)
        await server.stop(grace=0.5)


def run(quick: bool) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp_name:
        tmp = Path(tmp_name)
        store = TimedStore(str(tmp / "arena.db"))
        try:
            game = get_game(GAME)
            raw = {"rounds": "1"} if quick else {}
            options = dict(game.parse_options(PLAYERS, raw))
            ids = [store.add_bot(name, command, version=str(v)).id
                   for name, command in BOTS for v in range(1, 4)]
            schedule = round_robin(ids, PLAYERS, 1, seed=7)
            settings = RunSettings(parallel=2, move_timeout_s=10, start_timeout_s=30)
            tid = store.create_tournament(GAME, PLAYERS, options, 7, 1, {"parallel": 2}, ids,
                                          schedule)
            summary = run_until_done(store, tid, tmp, settings)
            matches = store.list_matches(tid, limit=10_000)
            db_seconds = sum(store.seconds.values())
            per_match = (store.seconds["mark_running"] + store.seconds["finish_match"]) / len(matches)
            ready_s = asyncio.run(_time_to_ready([c for _, c in BOTS for _ in range(3)], tmp))
            match_s = sum(m.duration_s or 0 for m in matches) / len(matches)
        finally:
            store.close()
    size = "1 round per match (quick)" if quick else "full matches (to 31)"
    wall = summary.wall_s
    spawn_share = summary.bot_start_s / wall
    ready_share = ready_s / wall
    return [
        Row("4 tournament", f"6-bot Kill round-robin, {len(matches)} matches, --parallel 2", wall, "s",
            note=f"{size}; {summary.faults} faults; {match_s:.2f} s per match (referee clock)"),
        Row("4 tournament", "bot process start (runner's bot_start_s)", spawn_share * 100, "% of wall",
            "tournament wall time", wall, spawn_share, "< 5%", spawn_share < 0.05,
            f"{summary.bot_start_s * 1000:.0f} ms: spawning only (create_subprocess_exec)"),
        Row("4 tournament", "bot start to ready (6 bots, spawn to Attend)", ready_share * 100,
            "% of wall", "tournament wall time", wall, ready_share, "< 5%", ready_share < 0.05,
            f"{ready_s:.2f} s measured separately; interpreter start + imports + connect"),
        Row("4 tournament", "database time per match", per_match * 1000, "ms/match",
            note=f"mark_running + finish_match; all store calls {db_seconds:.2f} s "
                 f"= {db_seconds / wall:.1%} of wall"),
    ]


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
