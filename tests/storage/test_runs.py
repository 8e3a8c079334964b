"""A tournament's run lock: held by a real process, released by the kernel or PostgreSQL
when that process is killed with SIGKILL, on a SQLite file and on PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.storage.store import Store, StoreError
from tests.helpers import round_robin, three_bots

HOLDER = """
import sys, time
from arena.storage.store import Store
store = Store(sys.argv[1])
with store.running(int(sys.argv[2])):
    print("held", flush=True)
    time.sleep(120)
"""


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "arena.db")
    return str(request.getfixturevalue("pg_url"))


def test_a_run_killed_with_sigkill_reads_as_interrupted_and_frees_the_tournament(url: str) -> None:
    store = Store(url)
    ids = three_bots(store)
    tid = store.create_tournament("some-game", 3, {}, 1, 1, {}, ids, round_robin(ids, 3))
    store.mark_running(store.claim_unfinished(tid)[0].id)  # a run started it
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, url, str(tid)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert store.get_tournament(tid).status == "running"
        assert [t.status for t in store.list_tournaments()] == ["running"]
        with (pytest.raises(StoreError, match=f"tournament {tid} is being run by another process"),
              store.running(tid)):
            pass
    finally:
        holder.kill()
        holder.wait()
    assert store.get_tournament(tid).status == "interrupted"  # no word from the dead run
    with store.running(tid):  # free again: a resume may run it
        assert store.get_tournament(tid).status == "running"
    assert store.get_tournament(tid).status == "interrupted"


@pytest.mark.parametrize("close", ["cancel_tournament", "void_tournament"])
def test_a_run_of_a_closed_tournament_leaves_it_closed(tmp_path: Path, close: str) -> None:
    """A cancelled or voided tournament stays so when a run takes its lock (a resume, the
    scheduler that picked it up as it was cancelled): its run sees it closed and plays nothing."""
    store = Store(str(tmp_path / "arena.db"))
    ids = three_bots(store)
    tid = store.create_tournament("some-game", 3, {}, 1, 1, {}, ids, round_robin(ids, 3))
    getattr(store, close)(tid)
    closed = store.get_tournament(tid).status
    assert closed in ("cancelled", "voided")
    with store.running(tid):
        assert store.get_tournament(tid).status == closed
    assert store.get_tournament(tid).status == closed
