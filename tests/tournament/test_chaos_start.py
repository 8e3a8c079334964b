"""The chaos run survives a bot that is gone before it attends: a hostile bot that kills
itself at start (``tests/players/hostile/quitter.py``, or the ``connections`` attacker when
its children take every connection of its socket first, as on a busy machine) costs its own
seats only, as no-shows, and ``python -m tests.chaos`` ends with its report, not a
traceback. The control shows the attack is real: without ``--keep-going`` the same bot
stops the whole tournament before a single match."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from arena.storage.store import Store
from arena.tournament import BotsDidNotStart
from tests.chaos import TWIN, run_chaos
from tests.helpers import processes_with, wait_until_gone

ROOT = Path(__file__).resolve().parents[2]
CROWD = ("random", "heuristic")  # with the twin and the quitter: 4 bots, 12 matches


def test_a_bot_that_kills_itself_at_start_is_a_no_show_and_the_rest_play_on(
        tmp_path: Path, sandboxed: None) -> None:
    marker = f"arena-chaos-{os.getpid()}-{time.monotonic_ns()}"
    seen: set[int] = set()
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.05):
            seen.update(processes_with(marker))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        # A start timeout no loaded machine reaches (at 1.5 s, a good bot's start on a
        # machine at load 10 was a no-show): the quitter's exit is seen when it happens.
        report = run_chaos(tmp_path / "chaos.db", players=2, repetitions=1, parallel=2,
                           move_timeout=1.0, start_timeout=120.0, marker=marker, bots=CROWD,
                           attackers=("quitter",))
    finally:
        done.set()
        watcher.join()
    assert report.bots == 4
    assert report.finished == report.matches == 12  # every match accounted for
    assert dict(report.faults["quitter"]) == {"no-show": 6}
    for bot in (*CROWD, TWIN):  # nobody else lost a seat to it
        assert dict(report.faults[bot]) == {"": 6}, (bot, report.faults[bot])
    assert report.wins["quitter"] == 0
    # it did start, and killed itself, in each of its two lanes (its own words in its logs)
    assert list(report.attacks["quitter"]) == ["quitter@1.lane1.log", "quitter@1.log"]
    assert all(report.attacks["quitter"].values()), report.attacks["quitter"]
    assert seen, "the marker on the bots' command lines finds none of their processes"
    wait_until_gone(marker, 5, "the chaos tournament")  # the last bots are ending


def test_control_without_keep_going_the_quitter_stops_the_tournament_before_any_match(
        tmp_path: Path, sandboxed: None) -> None:
    db = tmp_path / "chaos.db"
    with pytest.raises(BotsDidNotStart, match="bot quitter@1 did not start"):
        run_chaos(db, players=2, repetitions=1, parallel=2, bots=CROWD,
                  attackers=("quitter",), keep_going=False)
    store = Store(str(db))
    try:
        (tournament,) = store.list_tournaments()
        assert tournament.finished == 0 and tournament.total == 12
        assert tournament.status == "interrupted"
        # every match accounted for: none played, none lost, all left to resume
        matches = store.tournament_matches(tournament.id)
        assert len(matches) == 12 and {str(m.status) for m in matches} == {"pending"}
    finally:
        store.close()


def test_the_documented_command_ends_with_its_report(tmp_path: Path, sandboxed: None) -> None:
    command = [sys.executable, "-m", "tests.chaos", "--bots", ",".join(CROWD),
               "--attackers", "quitter", "--repetitions", "1", "--parallel", "2",
               "--db", str(tmp_path / "chaos.db")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("12/12 matches finished in "), lines
    assert "  quitter      no-show: 6" in lines
    assert lines[-1] == "bot processes left after the tournament: 0"


def test_a_tournament_that_cannot_start_is_one_line_not_a_traceback(tmp_path: Path,
                                                                      sandboxed: None) -> None:
    command = [sys.executable, "-m", "tests.chaos", "--bots", "random", "--attackers", "quitter",
               "--no-keep-going", "--db", str(tmp_path / "chaos.db")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    (line,) = result.stdout.splitlines()
    assert line.startswith("chaos check failed: the tournament could not be played: "
                           "bot quitter@1 did not start"), line


def test_an_unknown_bot_is_one_line_and_nothing_runs(tmp_path: Path) -> None:
    db = tmp_path / "chaos.db"
    result = subprocess.run([sys.executable, "-m", "tests.chaos", "--attackers", "quittr",
                             "--db", str(db)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1].endswith("error: no such bot: quittr")
    assert not db.exists()
