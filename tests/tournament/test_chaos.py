"""The chaos tournament, short: every match finishes, every misbehaviour is a fault."""

from __future__ import annotations

import os
import time
from pathlib import Path

from arena.players.process import LOG_CAP_BYTES
from tests.chaos import ALLOWED, run_chaos
from tests.helpers import processes_with


def test_chaos_tournament_runs_to_the_end_with_every_fault_recorded(tmp_path: Path) -> None:
    marker = f"arena-chaos-{os.getpid()}-{time.monotonic_ns()}"
    os.environ["ARENA_TEST_MARKER"] = marker
    try:
        report = run_chaos(tmp_path / "chaos.db", players=2, repetitions=1, parallel=4)
    finally:
        os.environ.pop("ARENA_TEST_MARKER", None)
    assert report.finished == report.matches == 8 * 7 // 2 * 2
    for bot, counts in report.faults.items():
        assert set(counts) <= ALLOWED[bot], (bot, counts)
    for bot in ("crash", "hang", "stall", "illegal"):  # 14 matches each
        assert sum(n for fault, n in report.faults[bot].items() if fault) >= 10, bot
    assert report.bad_not_last == 0 and report.bad_last > 0
    assert 0 < report.flood_log_bytes < LOG_CAP_BYTES + 1000  # captured, and capped
    assert not processes_with(marker), "a bot process outlived the chaos tournament"
