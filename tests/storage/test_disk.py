"""The database's disk refuses writes in the middle of a tournament.

A full disk is provoked with a real file size limit on the arena process
(writes past it fail with EFBIG, as on a full disk); a read-only one by making
the database files immutable while the arena runs (root only: ``chattr +i``).
Either way the run stops taking matches, says so in one line, exits 1, leaves
no bot process behind, and loses nothing: resume finishes the tournament.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.storage.store import Store
from tests.helpers import (
    GAME,
    assert_rebuild_changes_nothing,
    cli,
    eventually,
    finished_matches,
    new_marker,
    processes_with,
    run_seeing,
    wait_until_gone,
)

RUN = ["tournament", "run", "--game", GAME, "--bot", "random", "--bot", "heuristic",
       "--repetitions", "10", "--seed", "4", "--parallel", "2"]

LIMITED = """
import os, resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
os.execv(sys.executable, [sys.executable, "-m", "arena", *sys.argv[2:]])
"""


def _register(db: Path, marker: str) -> None:
    """The two bots, with ``marker`` on their command lines (they ignore it)."""
    cli("bot", "add", "random", "--command", f"python -m bots.random_bot --seed 2 {marker}",
        db=db)
    cli("bot", "add", "heuristic", "--command", f"python -m bots.face_card_kill_card {marker}",
        db=db)


def _check_stopped_cleanly(result: subprocess.CompletedProcess[str], db: Path, marker: str) -> int:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "the tournament stopped" in lines[0], result.stderr
    assert "arena tournament resume 1" in lines[0]
    wait_until_gone(marker)
    return finished_matches(db)


def _resume_finishes_everything(db: Path) -> None:
    cli("tournament", "resume", "1", db=db)
    store = Store(str(db))
    tournament = store.get_tournament(1)
    assert tournament.finished == tournament.total and tournament.status == "finished"
    assert sum(r.matches for r in store.leaderboard(GAME)) == 2 * tournament.total  # none twice
    assert_rebuild_changes_nothing(store)


def test_a_full_disk_stops_the_tournament_with_one_clear_line(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    marker = new_marker("full")
    _register(db, marker)
    limit = 600_000  # per file: room for the schedule and some results (the log is bigger)
    result, seen = run_seeing([sys.executable, "-c", LIMITED, str(limit), *RUN, "--db", str(db)],
                              marker, env={**os.environ, "COLUMNS": "200"})
    assert seen, "no bot process was ever found by its marker"
    finished = _check_stopped_cleanly(result, db, marker)
    assert "full or read-only" in result.stderr
    assert 0 < finished < Store(str(db)).get_tournament(1).total
    _resume_finishes_everything(db)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("chattr") is None,
                    reason="making a file immutable needs root and chattr")
def test_a_read_only_database_mid_run_stops_the_tournament(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    marker = new_marker("ro")
    _register(db, marker)
    process = subprocess.Popen([sys.executable, "-m", "arena", *RUN, "--db", str(db)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "COLUMNS": "200"})
    files = [db, Path(f"{db}-wal")]
    try:
        eventually("the tournament to get going", lambda: finished_matches(db) >= 5, every=0.02)
        assert processes_with(marker), "no bot process is found by its marker"
        subprocess.run(["chattr", "+i", *map(str, files)], check=True)
        out, err = process.communicate(timeout=120)
    finally:
        subprocess.run(["chattr", "-i", *map(str, files)], check=False)
        if process.poll() is None:
            process.kill()
            process.wait()
    finished = _check_stopped_cleanly(subprocess.CompletedProcess(process.args, process.returncode,
                                                                  out, err), db, marker)
    assert finished < Store(str(db)).get_tournament(1).total
    assert not processes_with(marker)
    _resume_finishes_everything(db)
