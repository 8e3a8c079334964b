"""(4) Tournament cost: a 6-bot round-robin of Kill with ``--parallel 2``.

Wall time, the share spent starting bot processes, and the time spent in the
database per match (every :class:`arena.storage.store.Store` call the runner makes is
timed by a thin subclass; the store's code is unchanged). The tournament runs as
``arena tournament run`` runs it: managed bots in the sandbox, each on a Unix
socket of its own (:func:`play` with ``sandbox=False`` is ``--no-sandbox``).
"""

from __future__ import annotations

import contextlib
import hashlib
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from arena.games import get_game
from arena.players import sandbox as bwrap
from arena.players.process import BotProcess
from arena.storage.store import Store
from arena.tournament import Entrant, LocalExecutor, RunSettings, round_robin, run_until_done
from arena.tournament.schedule import Deals
from benchmarks.common import Row

GAME = "kill"
PLAYERS = 4
BOTS = (("random", "python -m bots.random_bot --seed 1"), ("kill-bot", "python -m bots.kill"))
"""A seeded random bot and the (deterministic) Kill bot, on deals from the public seed: every
run plays the same 60 matches, so runs compare as equal work (unseeded, or on the default
secret deals, a match's length varies by a factor of two or three)."""
DEALS = Deals(from_seed=True)  # duplicate deals, as by default: a process per lane (rotation)
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


class TimedExecutor(LocalExecutor):
    """The local executor, with the clock read at its start, its first bot spawn and its
    end (the first lane of every bot attending): the time the tournament's first matches
    wait for. The lanes past the first start in the background afterwards; what matches
    waited for them is the executor's own ``lane_wait_s``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.start_s = 0.0  # start() as a whole: sockets, servers, spawns, until lane 0 attends
        self.spawn_to_ready_s = 0.0  # from the first spawn until then
        self.processes = 0  # a process per managed bot and lane
        self._spawns: list[float] = []

    async def start(self, entrants: Sequence[Entrant]) -> None:
        began = time.perf_counter()
        spawns = self._spawns
        real = BotProcess.ensure_running

        async def ensure_running(process: BotProcess) -> None:
            if not process.alive:
                spawns.append(time.perf_counter())
            await real(process)

        # the executor builds its own BotProcess objects: only their start is timed here
        with mock.patch.object(BotProcess, "ensure_running", ensure_running):
            await super().start(entrants)
        ended = time.perf_counter()
        self.start_s = ended - began
        self.spawn_to_ready_s = ended - min(spawns, default=ended)
        self.processes = sum(e.lanes for e in entrants if not e.remote)


@dataclass
class Played:
    """One tournament run."""

    sandbox: bool
    matches: int
    faults: int
    wall_s: float
    bot_start_s: float  # the runner's own figure: the summed spawning calls
    start_s: float  # the executor's start, until the first lane of every bot attends
    spawn_to_ready_s: float  # of which from the first spawn on
    lane_wait_s: float  # matches waiting for a later lane to attend, summed
    processes: int  # bot processes (6 bots x their lanes)
    match_s: float  # mean match duration (referee clock)
    db_s: float  # all timed store calls
    db_per_match_s: float  # mark_running + finish_match per match
    outcome: tuple[tuple[float | None, ...], ...]  # every match's scores, by match id

    @property
    def decided(self) -> str:
        """A short fingerprint of the outcome: equal for runs that played the same matches."""
        return hashlib.sha256(repr(self.outcome).encode()).hexdigest()[:8]

    @property
    def start_share(self) -> float:
        """What the tournament waited for bots to start: the executor's start, and every
        wait of a match for its lane (counted whole, although the other match slot plays on
        meanwhile)."""
        return (self.start_s + self.lane_wait_s) / self.wall_s


@contextlib.contextmanager
def _fresh_sandbox_check() -> Iterator[None]:
    """Each run pays the sandbox's check, as each ``arena tournament run`` does (it is cached
    per process)."""
    bwrap.check.cache_clear()
    yield


def play(tmp: Path, quick: bool, sandbox: bool = True) -> Played:
    """The round-robin on a fresh SQLite file in ``tmp``, with or without the sandbox."""
    tmp.mkdir(parents=True, exist_ok=True)
    store = TimedStore(str(tmp / "arena.db"))
    try:
        game = get_game(GAME)
        raw = {"rounds": "1"} if quick else {}
        options = dict(game.parse_options(PLAYERS, raw))
        ids = [store.add_bot(name, command, version=str(v)).id
               for name, command in BOTS for v in range(1, 4)]
        schedule = round_robin(ids, PLAYERS, 1, seed=7, deals=DEALS)
        settings = RunSettings(parallel=2, move_timeout_s=10, start_timeout_s=30, sandbox=sandbox)
        tid = store.create_tournament(GAME, PLAYERS, options, 7, 1, {"parallel": 2}, ids, schedule)
        executor = TimedExecutor(tmp, settings, hidden=(store.path,) if store.path else ())
        with _fresh_sandbox_check():
            summary = run_until_done(store, tid, tmp, settings, executor=executor)
        matches = sorted(store.list_matches(tid, limit=10_000), key=lambda m: m.id)
        per_match = (store.seconds["mark_running"] + store.seconds["finish_match"]) / len(matches)
        return Played(sandbox, len(matches), summary.faults, summary.wall_s, summary.bot_start_s,
                      executor.start_s, executor.spawn_to_ready_s, executor.lane_wait_s,
                      executor.processes,
                      sum(m.duration_s or 0 for m in matches) / len(matches),
                      sum(store.seconds.values()), per_match,
                      tuple(tuple(seat.score for seat in m.seats) for m in matches))
    finally:
        store.close()


def run(quick: bool) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp_name:
        result = play(Path(tmp_name), quick, sandbox=True)
    size = "1 round per match (quick)" if quick else "full matches (to 31)"
    wall = result.wall_s
    spawn_share = result.bot_start_s / wall
    ready_share = result.start_share
    return [
        Row("4 tournament", f"6-bot Kill round-robin, {result.matches} matches, --parallel 2", wall, "s",
            note=f"{size}; sandboxed bots (the default); {result.faults} faults; "
                 f"{result.match_s:.2f} s per match (referee clock)"),
        Row("4 tournament", "bot process start (runner's bot_start_s)", spawn_share * 100, "% of wall",
            "tournament wall time", wall, spawn_share, "< 5%", spawn_share < 0.05,
            f"{result.bot_start_s * 1000:.0f} ms: the spawning calls, summed over the "
            f"{result.processes} processes, and the matches' waits for their lanes"),
        Row("4 tournament", "bot start to ready (6 bots x lanes, spawn to Attend)", ready_share * 100,
            "% of wall", "tournament wall time", wall, ready_share, "< 5%", ready_share < 0.05,
            f"{result.start_s:.2f} s: the executor's start in this run (sockets, servers, sandbox, "
            f"spawns, until the first lane of every bot attends), of which "
            f"{result.spawn_to_ready_s:.2f} s from the first spawn; then {result.lane_wait_s:.2f} s "
            f"of matches waiting for the other lanes ({result.processes} processes in all: 6 bots "
            "x 4 lanes, one per rotation of a duplicated deal, the later ones started in the "
            "background)"),
        Row("4 tournament", "database time per match", result.db_per_match_s * 1000, "ms/match",
            note=f"mark_running + finish_match; all store calls {result.db_s:.2f} s "
                 f"= {result.db_s / wall:.1%} of wall"),
    ]


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
