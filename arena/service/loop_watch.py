"""How long the event loop was kept from turning: the loop of ``arena serve`` runs the
operator service, the web app and the scheduler's match clocks, so a call that blocks it
delays every match's clock.

A :class:`LoopWatch` puts a timer on the loop every :data:`TICK_S` and gives two measures
of each gap between two ticks:

- **wall**: how late the tick ran (wall-clock lateness). What a match clock on this loop
  feels, but inflated on a loaded machine, where the system preempts the process;
- **CPU**: the CPU time the loop's own thread spent between the two ticks
  (:func:`time.thread_time`): what the loop ran without turning, whatever the machine's load
  (time preempted, or waiting for the GIL a worker thread holds, is not counted). An upper
  bound of the longest callback's CPU time in that gap: every callback run in the gap counts.

The figures are kept per :data:`PERIOD_S` (:class:`Period`). ``arena serve`` watches its loop
when the environment variable :data:`ENV` names a file: a JSON line per period is appended
to it as the period ends, and the last (partial) one at shutdown.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

ENV = "ARENA_LOOP_WATCH"
"""The environment variable naming the file ``arena serve`` writes its loop's periods to."""
TICK_S = 0.002
PERIOD_S = 0.5


@dataclass(frozen=True)
class Period:
    """The longest stalls of the loop from ``began`` to ``ended`` (:func:`time.time`, seconds),
    over ``ticks`` gaps: ``wall_ms``, the latest a tick ran; ``cpu_ms``, the most CPU time the
    loop's thread spent between two ticks."""

    began: float
    ended: float
    ticks: int
    wall_ms: float
    cpu_ms: float

    def line(self) -> str:
        return json.dumps(asdict(self))

    @staticmethod
    def read(path: Path) -> list[Period]:
        """The periods written to ``path`` (a last line cut short by a crash is left out)."""
        periods = []
        for text in path.read_text().splitlines():
            try:
                periods.append(Period(**json.loads(text)))
            except (ValueError, TypeError):
                continue
        return periods


def longest(periods: list[Period], began: float, ended: float) -> Period:
    """The longest stalls of the periods that overlap ``began`` to ``ended`` (:func:`time.time`),
    as one period; ValueError if none does."""
    within = [p for p in periods if p.ended >= began and p.began <= ended]
    if not within:
        raise ValueError("no period of the loop's watch overlaps that time")
    return Period(min(p.began for p in within), max(p.ended for p in within),
                  sum(p.ticks for p in within), max(p.wall_ms for p in within),
                  max(p.cpu_ms for p in within))


class LoopWatch:
    """Ticks on ``loop`` every ``tick_s`` from :meth:`start` to :meth:`stop`; each period of
    ``period_s`` ends in a :class:`Period` given to ``report``."""

    def __init__(self, loop: asyncio.AbstractEventLoop, report: Callable[[Period], None],
                 tick_s: float = TICK_S, period_s: float = PERIOD_S) -> None:
        self._loop = loop
        self._report = report
        self._tick_s = tick_s
        self._period_s = period_s
        self._handle: asyncio.TimerHandle | None = None
        self._due = self._cpu = self._period_end = self._began = 0.0
        self._ticks = 0
        self._wall = self._spent = 0.0

    def start(self) -> None:
        self._begin_period()
        self._cpu = time.thread_time()
        self._due = self._loop.time() + self._tick_s
        self._handle = self._loop.call_at(self._due, self._tick)

    def _begin_period(self) -> None:
        self._began = time.time()
        self._period_end = self._loop.time() + self._period_s
        self._ticks, self._wall, self._spent = 0, 0.0, 0.0

    def _tick(self) -> None:
        now, cpu = self._loop.time(), time.thread_time()
        self._ticks += 1
        self._wall = max(self._wall, now - self._due)
        self._spent = max(self._spent, cpu - self._cpu)
        if now >= self._period_end:
            self._end_period()
            self._begin_period()
        self._cpu = time.thread_time()  # the report's own writing is not counted
        self._due = self._loop.time() + self._tick_s
        self._handle = self._loop.call_at(self._due, self._tick)

    def _end_period(self) -> None:
        self._report(Period(self._began, time.time(), self._ticks, round(1000 * self._wall, 3),
                            round(1000 * self._spent, 3)))

    def stop(self) -> None:
        """No more ticks; the period under way is reported as it stands."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
            self._end_period()


class FileWatch:
    """A :class:`LoopWatch` of the running loop whose periods are appended to ``path``, a JSON
    line each, written as they end."""

    def __init__(self, path: Path) -> None:
        self._file: IO[str] = path.open("a")
        self._watch = LoopWatch(asyncio.get_running_loop(), self._write)
        self._watch.start()

    def _write(self, period: Period) -> None:
        self._file.write(period.line() + "\n")
        self._file.flush()

    def stop(self) -> None:
        self._watch.stop()
        self._file.close()


def from_environment() -> FileWatch | None:
    """A watch of the running loop writing to the file :data:`ENV` names; None without it."""
    path = os.environ.get(ENV)
    return FileWatch(Path(path)) if path else None


__all__ = ["ENV", "FileWatch", "LoopWatch", "Period", "from_environment", "longest"]
