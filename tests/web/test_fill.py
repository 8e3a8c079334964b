"""The benchmark's filler makes a database the arena reads as its own: a small fill."""

from __future__ import annotations

from pathlib import Path

from arena.storage.store import Store
from benchmarks.fill import REASONS, fill


def test_a_filled_database_reads_back_with_its_faults_and_their_reasons(tmp_path: Path) -> None:
    db = tmp_path / "filled.db"
    fill(db, 3000, say=lambda *_: None)
    with Store(str(db)) as store:
        tournaments = store.list_tournaments()
        assert sum(t.total for t in tournaments) == 3000
        assert any(str(t.status) == "running" for t in tournaments)  # some still in play
        faults = [f for bot in store.list_bots() for f in store.bot_faults(bot.id, None, 100)]
        assert faults and all(f.reason == REASONS[str(f.fault)] for f in faults)
