"""Nothing blocks the event loop of ``arena serve`` that runs the match clocks: a real server
over 10,000 finished matches plays a tournament of real bot processes while 20 heavy reads are
served at once (lists of 10,000 matches and tournament reports over the operator service,
tournament pages of the web app it serves in the same process). The server's own loop watch
(:mod:`arena.service.loop_watch`) says how long its loop was held: its CPU measure, which a
loaded machine does not inflate, stays under 20 ms, and no seat of the matches played meanwhile
times out.

The scenario is the benchmark's (:mod:`benchmarks.loop`, section ``loop``): a 50 ms move
clock (0 seats faulted per 100 matches at a load of 2.4). Here each seat also has a time bank
of :data:`TIME_BANK_S` per match, so that the hiccups of a machine loaded by the rest of the
suite, adding up to less, time out no seat, while a loop held as it was before still does
(reads on the server's threads held it 2 s and more at a time, read after read: 47 seats of
100 matches faulted, benchmarks.loop's reference).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from arena.service import loop_watch
from benchmarks import loop
from tests.served import OPERATOR, Served

LONGEST_STALL_MS = 20.0
TIME_BANK_S = 2.0
"""1 s was not always enough in the suite's first minutes: one seat of 177 ran out of it at a
load average of 4.5, while the loop's longest stall stayed under the 20 ms test's limit."""


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    """A database of 10,000 finished matches and the two bots of the tournament to play."""
    db = tmp_path_factory.mktemp("loop") / "arena.db"
    return db, loop.seed(db)


@pytest.fixture(scope="module")
def served_reads(filled: tuple[Path, list[int]], tmp_path_factory: pytest.TempPathFactory
                 ) -> tuple[loop.Outcome, loop_watch.Period, str]:
    """One real `arena serve` playing a tournament while 20 heavy reads are served."""
    db, tournaments = filled
    watched = tmp_path_factory.mktemp("watch") / "loop.jsonl"
    served = Served(db, env={loop_watch.ENV: str(watched)})
    try:
        outcome = loop.play(served.address, OPERATOR, served.web, tournaments, watched, TIME_BANK_S)
        stall = loop.stall_during(watched, outcome)
    finally:
        output = served.stop()
    return outcome, stall, output


def test_heavy_reads_hold_the_loop_under_20_ms(
        served_reads: tuple[loop.Outcome, loop_watch.Period, str]) -> None:
    outcome, stall, output = served_reads
    assert "Traceback" not in output, output
    assert outcome.answered == {"ListMatches of 10,000": 7, "GetTournament": 7, "web page": 6}
    assert outcome.in_play and outcome.finished_meanwhile >= 1, outcome  # clocks ran meanwhile
    assert stall.ticks > 0
    assert stall.cpu_ms < LONGEST_STALL_MS, (
        f"the loop ran {stall.cpu_ms:.1f} ms without turning while the reads were served "
        f"(wall: {stall.wall_ms:.0f} ms)")


def test_heavy_reads_time_out_no_seat(
        served_reads: tuple[loop.Outcome, loop_watch.Period, str]) -> None:
    outcome, _, _ = served_reads
    assert outcome.quiet_faults == 0, "a seat timed out before the reads"
    assert outcome.faults_meanwhile == 0, (
        f"{outcome.faults_meanwhile} seats faulted in the {outcome.finished_meanwhile} matches "
        f"played while the reads were served, {outcome.quiet_faults} in the {outcome.quiet} "
        f"before them, at a load average of {outcome.load:.1f}")


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
    # seen well above the 20 ms the real test allows (a loaded CPU may lose a few ms of it)
    assert period.cpu_ms >= 2 * LONGEST_STALL_MS and period.wall_ms >= 2 * LONGEST_STALL_MS
