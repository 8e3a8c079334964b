"""(13) The Ray executor against the local one, on this machine.

``ray``: the 6-bot Kill round-robin of section 4 (the same 60 matches, public-seed deals,
sandboxed bots, ``--parallel 2``) played in pairs, once with the local executor and once
with the Ray executor on a one-node Ray cluster started here (``ray start --head
--num-cpus 2``, as an operator starts one), the order alternating from pair to pair.
Each Ray run pays what ``arena tournament run --executor ray`` pays: joining the
cluster, shipping the code, an actor on the node and its bots' start. The figure is the
median of the pairs' throughput ratios (local wall over Ray wall; target >= 0.9).

The per-match overhead of the Ray path: for each match, the time ``play`` took as the run
loop saw it less the referee's own clock of the match (``duration_s``); the median of that
over the Ray runs' matches, less the same over the local runs' matches, is what the actor
call, the report's trip through Ray and the node's extra step cost each match.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.games import get_game
from arena.match.referee import MatchReport
from arena.storage.store import Store
from arena.tournament import RunSettings, round_robin, run_until_done
from arena.tournament.executor import Entrant, Executor, MatchJob
from arena.tournament.run import executor_for
from benchmarks import tournament
from benchmarks.common import Row

FULL_PAIRS = 4
QUICK_PAIRS = 1
TARGET_RATIO = 0.9
CPUS = 2


class _Timed(Executor):
    """An executor with each match's ``play`` timed, as the run loop waits for it."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self.extra_s: list[float] = []  # per match: play's wall time less the match's own

    async def start(self, entrants: Sequence[Entrant]) -> None:
        await self.inner.start(entrants)

    async def play(self, job: MatchJob) -> MatchReport:
        began = time.perf_counter()
        report = await self.inner.play(job)
        self.extra_s.append(time.perf_counter() - began - report.duration_s)
        return report

    async def close(self) -> None:
        await self.inner.close()

    @property
    def bot_start_s(self) -> float:
        return self.inner.bot_start_s


@dataclass(frozen=True)
class Ran:
    wall_s: float
    matches: int
    faults: int
    extra_s: list[float]
    outcome: tuple[tuple[float | None, ...], ...]


def play(tmp: Path, quick: bool, executor: str, address: str | None) -> Ran:
    """Section 4's round-robin on a fresh SQLite file, with the given executor."""
    tmp.mkdir(parents=True, exist_ok=True)
    store = Store(str(tmp / "arena.db"))
    try:
        game = get_game(tournament.GAME)
        options = dict(game.parse_options(tournament.PLAYERS, {"rounds": "1"} if quick else {}))
        ids = [store.add_bot(name, command, version=str(v)).id
               for name, command in tournament.BOTS for v in range(1, 4)]
        schedule = round_robin(ids, tournament.PLAYERS, 1, seed=7, deals=tournament.DEALS)
        settings = RunSettings(parallel=2, move_timeout_s=10, start_timeout_s=30,
                               executor=executor, ray_address=address)
        tid = store.create_tournament(tournament.GAME, tournament.PLAYERS, options, 7, 1,
                                      {"parallel": 2}, ids, schedule)
        timed = _Timed(executor_for(store, tmp, settings))
        summary = run_until_done(store, tid, tmp, settings, executor=timed)
        matches = sorted(store.list_matches(tid, limit=10_000), key=lambda m: m.id)
        for kept in {m.node.split("bot logs ", 1)[1].split(",", 1)[0] for m in matches if m.node}:
            shutil.rmtree(Path(kept).parent, ignore_errors=True)  # the node's folder of logs
        return Ran(summary.wall_s, len(matches), summary.faults, timed.extra_s,
                   tuple(tuple(seat.score for seat in m.seats) for m in matches))
    finally:
        store.close()


class _Head:
    """A one-node Ray cluster on this machine, in a session of its own."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")
        self.address = f"127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [str(Path(sys.executable).with_name("ray")), "start", "--head", "--block",
             "--port", str(port), "--num-cpus", str(CPUS), "--node-ip-address", "127.0.0.1",
             "--temp-dir", self.temp, "--include-dashboard", "false", "--disable-usage-stats"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 60
        while not _listening(port):
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise RuntimeError("the Ray head did not start")
            time.sleep(0.2)
        time.sleep(2)  # the raylet registers after the GCS listens

    def stop(self) -> None:
        self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(30)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def run(quick: bool) -> list[Row]:
    pairs = QUICK_PAIRS if quick else FULL_PAIRS
    head = _Head()
    runs: list[tuple[Ran, Ran]] = []
    try:
        with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp_name:
            tmp = Path(tmp_name)
            for pair in range(pairs):
                order = ("local", "ray") if pair % 2 == 0 else ("ray", "local")
                ran = {kind: play(tmp / f"{pair}-{kind}", quick, kind,
                                  head.address if kind == "ray" else None) for kind in order}
                runs.append((ran["local"], ran["ray"]))
                print(f"  pair {pair + 1}/{pairs}: local {ran['local'].wall_s:.2f} s, "
                      f"ray {ran['ray'].wall_s:.2f} s", file=sys.stderr, flush=True)
    finally:
        head.stop()
    ratios = [local.wall_s / on_ray.wall_s for local, on_ray in runs]
    ratio = statistics.median(ratios)
    wall_local = statistics.median(local.wall_s for local, _ in runs)
    wall_ray = statistics.median(on_ray.wall_s for _, on_ray in runs)
    extra_local = statistics.median(s for local, _ in runs for s in local.extra_s) * 1000
    extra_ray = statistics.median(s for _, on_ray in runs for s in on_ray.extra_s) * 1000
    same = len({r.outcome for pair in runs for r in pair}) == 1
    matches = runs[0][0].matches
    faults = sum(r.faults for pair in runs for r in pair)
    size = "1 round per match (quick)" if quick else "full matches (to 31)"
    return [
        Row("13 ray", f"6-bot Kill round-robin, {matches} matches, Ray executor (1 node, "
            f"{CPUS} CPUs)", matches / wall_ray * 60, "matches/min", "local executor, same run",
            matches / wall_local * 60, ratio, f">= {TARGET_RATIO:.2f}x", ratio >= TARGET_RATIO,
            f"median of {pairs} pairs, order alternating; pair ratios "
            f"{', '.join(f'{r:.3f}' for r in ratios)}; walls (s) local "
            f"{', '.join(f'{a.wall_s:.2f}' for a, _ in runs)}, ray "
            f"{', '.join(f'{b.wall_s:.2f}' for _, b in runs)}; {size}; {faults} faults; "
            + ("every run played the same matches" if same else "the runs' outcomes DIFFER")),
        Row("13 ray", "per-match overhead of the Ray path", extra_ray - extra_local, "ms",
            note=f"median of play's wall time less the match's own clock: {extra_ray:.1f} ms "
                 f"through Ray, {extra_local:.1f} ms locally"),
    ]
