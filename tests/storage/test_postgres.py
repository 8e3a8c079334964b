"""The store and a whole tournament on a real PostgreSQL server.

The server is the ``pgserver`` package's PostgreSQL (installed by the ``dev``
extra), started once per test process on a Unix socket in a temporary folder;
each test gets a fresh database.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path

from arena.storage.store import Store, StoreError
from tests.helpers import (
    GAME,
    cli,
    eventually,
    finish_all,
    new_marker,
    processes_with,
    round_robin,
    three_bots,
    wait_until_gone,
)


def test_concurrent_writers_on_postgres_finish_each_match_once(pg_url: str) -> None:
    store = Store(pg_url)
    ids = [*three_bots(store), store.add_bot("dan", "d").id]
    tid = store.create_tournament("face-card-kill-card", 3, {}, 1, 6, {}, ids,
                                  round_robin(ids, 3, repeats=6))
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        stored = pool.starmap(finish_all, [(pg_url, tid, w) for w in range(4)])
    assert sum(stored) == 24  # each match stored by exactly one worker
    assert sorted(m.finish_seq or 0 for m in store.list_matches(tid)) == list(range(1, 25))
    assert sum(r.matches for r in store.leaderboard()) == 24 * 3
    board = store.leaderboard()
    store.rebuild_ratings()
    assert store.leaderboard() == board
    store.close()


def test_a_tournament_on_postgres_survives_kill_9_and_resumes(pg_url: str, tmp_path: Path) -> None:
    marker = new_marker("pg")  # on the bots' command lines (they ignore it)
    cli("bot", "add", "random", "--command", f"python -m bots.random_bot {marker}",
        env={"ARENA_DB": pg_url})
    cli("bot", "add", "heuristic", "--command", f"python -m bots.face_card_kill_card {marker}",
        env={"ARENA_DB": pg_url})
    process = subprocess.Popen(
        [sys.executable, "-m", "arena", "tournament", "run", "--game", GAME, "--bot", "random",
         "--bot", "heuristic", "--repetitions", "4", "--seed", "3", "--parallel", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path,
        env={**os.environ, "ARENA_DB": pg_url})
    store = Store(pg_url)

    def finished_matches() -> int:
        try:
            return store.get_tournament(1).finished
        except StoreError:
            return 0

    try:
        eventually("the tournament to get going", lambda: finished_matches() >= 8, every=0.05)
        assert processes_with(marker), "no bot process is found by its marker"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    total = store.get_tournament(1).total
    assert finished_matches() < total, "the kill came too late to test anything"
    wait_until_gone(marker)
    subprocess.run([sys.executable, "-m", "arena", "tournament", "resume", "1"], cwd=tmp_path,
                   check=True, capture_output=True, timeout=120, env={**os.environ, "ARENA_DB": pg_url})
    assert store.get_tournament(1).finished == total
    seqs = sorted(m.finish_seq or 0 for m in store.list_matches(1, limit=total))
    assert seqs == list(range(1, total + 1))  # each match finished and rated once
    board = store.leaderboard(GAME)
    assert sum(r.matches for r in board) == 2 * total
    store.rebuild_ratings()
    assert store.leaderboard(GAME) == board
    assert (tmp_path / "arena-data" / "logs").is_dir()  # bot logs beside the run, not in the database
    store.close()


def test_a_bad_postgres_url_is_one_clear_line(postgres_server: str) -> None:
    url = "postgresql+psycopg://postgres@/no_such_database?host=/nonexistent-socket-dir"
    result = cli("bot", "list", env={"ARENA_DB": url}, check=False)
    assert result.returncode == 1 and "Traceback" not in result.stderr + result.stdout
    assert result.stderr.strip().count("\n") == 0 and "no_such_database" in result.stderr
