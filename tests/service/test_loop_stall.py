"""Nothing blocks the event loop of ``arena serve`` that runs the match clocks: a real server
over 10,000 finished matches plays a tournament of real bot processes on a 50 ms move clock
while 20 heavy reads are served at once (lists of 10,000 matches and tournament reports over
the operator service, tournament pages of the web app it serves in the same process). The
server's own loop watch (:mod:`arena.service.loop_watch`) says how long its loop was held:
its CPU measure, which a loaded machine does not inflate, stays under 20 ms; and no seat of
the matches played meanwhile faulted, where the machine has the CPU for a 50 ms clock (its
load average at most twice its CPUs, and no seat faulted before the reads). The scenario is the benchmark's
(:mod:`benchmarks.loop`, section ``loop``).
"""

from __future__ import annotations

import asyncio
import os
import time
import warnings
from pathlib import Path

import pytest

from arena.service import loop_watch
from benchmarks import loop
from tests.served import OPERATOR, Served

LONGEST_STALL_MS = 20.0


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    """A database of 10,000 finished matches and the two bots of the tournament to play."""
    db = tmp_path_factory.mktemp("loop") / "arena.db"
    return db, loop.seed(db)


def test_heavy_reads_hold_no_match_clock(filled: tuple[Path, list[int]], tmp_path: Path) -> None:
    db, tournaments = filled
    watched = tmp_path / "loop.jsonl"
    served = Served(db, env={loop_watch.ENV: str(watched)})
    try:
        outcome = loop.play(served.address, OPERATOR, served.web, tournaments, watched)
        stall = loop.stall_during(watched, outcome)
    finally:
        output = served.stop()
    assert "Traceback" not in output, output
    assert outcome.answered == {"ListMatches of 10,000": 7, "GetTournament": 7, "web page": 6}
    assert outcome.in_play and outcome.finished_meanwhile >= 1, outcome  # clocks ran meanwhile
    assert stall.ticks > 0
    assert stall.cpu_ms < LONGEST_STALL_MS, (
        f"the loop ran {stall.cpu_ms:.1f} ms without turning while the reads were served "
        f"(wall: {stall.wall_ms:.0f} ms)")
    # The clock's faults. On a machine shared with other work the system preempts the server
    # and its bots, and the reads' worker threads hold the GIL, for longer than 50 ms of wall
    # time whatever the loop runs (at a load of 25 on 2 cores a third of the seats faulted
    # while the reads were served, with the loop's CPU stalls under 11 ms): there the faults
    # cannot tell the loop's own stalls from the machine's; the CPU measure above does.
    # Asserted where the machine has the CPU for the clock, and seats played before the reads
    # kept it.
    faulted = (f"{outcome.faults_meanwhile} seats faulted in the {outcome.finished_meanwhile} "
               f"matches played while the reads were served, {outcome.quiet_faults} in the "
               f"{outcome.quiet} before them, at a load average of {outcome.load:.1f}")
    if outcome.load <= 2 * (os.cpu_count() or 1) and outcome.quiet_faults == 0:
        assert outcome.faults_meanwhile == 0, faulted
    elif outcome.faults_meanwhile:
        warnings.warn(f"not asserted on a machine this loaded: {faulted}", stacklevel=1)


def test_the_watch_sees_a_blocked_loop() -> None:
    """The control: a callback that holds the loop 60 ms of CPU is seen, by both measures."""
    periods: list[loop_watch.Period] = []

    async def main() -> None:
        watch = loop_watch.LoopWatch(asyncio.get_running_loop(), periods.append, period_s=10.0)
        watch.start()
        await asyncio.sleep(0.05)
        began = time.thread_time()
        while time.thread_time() - began < 0.06:  # a blocking call, on the loop's thread
            pass
        await asyncio.sleep(0.05)
        watch.stop()

    asyncio.run(main())
    [period] = periods
    assert period.ticks >= 2
    assert period.cpu_ms >= 60.0 and period.wall_ms >= 60.0
