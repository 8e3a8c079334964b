"""The arena protects itself: its database file vanishing mid-run, and its descriptors."""

from __future__ import annotations

import hashlib
import os
import resource
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from arena.cli.app import raise_open_files_limit
from tests.helpers import GAME, cli, eventually, finished_matches


def _start_run(db: Path) -> subprocess.Popen[str]:
    for name in ("a", "b", "c"):
        cli("bot", "add", name, "--command", "python -m bots.random_bot", db=db)
    command = [sys.executable, "-m", "arena", "tournament", "run", "--game", GAME, "--players", "2",
               "--bot", "a", "--bot", "b", "--bot", "c", "--repetitions", "20", "--seed", "5",
               "--parallel", "1", "--db", str(db)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200"})


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_database_file_deleted_or_replaced_mid_run_stops_it_with_one_line(
        tmp_path: Path, how: str) -> None:
    db = tmp_path / "arena.db"
    run = _start_run(db)
    eventually("the tournament to get going",
               lambda: finished_matches(db) >= 2 or run.poll() is not None, every=0.05)
    assert finished_matches(db) >= 2, "the tournament did not get going"
    if how == "deleted":
        db.unlink()
    else:
        # A whole copy (its write-ahead log included), made through SQLite, closed, and
        # fingerprinted: the run must not write a byte of it once it is in place.
        other = tmp_path / "other.db"
        with closing(sqlite3.connect(db)) as source, closing(sqlite3.connect(other)) as copy:
            source.backup(copy)
        assert finished_matches(other) >= 2
        fingerprint = hashlib.sha256(other.read_bytes()).hexdigest()
        os.replace(other, db)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 1, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "was deleted or replaced while the arena was using it" in lines[0]
    assert "the tournament stopped after" in lines[0] and "Traceback" not in err
    assert "Leaderboard" not in out  # no leaderboard from a database that is gone
    if how == "replaced":  # the file put in its place was not written by the run
        # Compared byte for byte before anything opens it: SQLite would read the old
        # database's write-ahead log, still beside it, into any connection to the path.
        assert hashlib.sha256(db.read_bytes()).hexdigest() == fingerprint


def test_the_arena_raises_its_open_files_limit_to_the_hard_limit() -> None:
    script = ("import resource; from arena.cli.app import raise_open_files_limit; "
              "print(raise_open_files_limit(), resource.getrlimit(resource.RLIMIT_NOFILE))")

    def lowered() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 2048))

    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           preexec_fn=lowered, timeout=60, check=True).stdout
    assert shown.strip() == "(256, 2048) (2048, 2048)"
    assert raise_open_files_limit()[1] == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
