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
        # two still in play, each with two matches running (no run holds them here, so they
        # read as interrupted; the web benchmark holds their runs)
        in_play = [t for t in tournaments if str(t.status) == "interrupted"]
        assert len(in_play) == 2
        assert all(len(store.running_matches([t.id], 10)) == 2 for t in in_play)
        # duplicate deals: each group's seat rotations share a seed
        some = tournaments[0]
        played = store.tournament_matches(some.id)
        deals = {(m.index // some.players): m.seed for m in played}
        assert len(played) == some.total
        assert all(played[i].seed == deals[i // some.players] for i in range(some.total))
        assert len(set(deals.values())) == len(deals) == some.total // some.players
        faults = [f for bot in store.list_bots() for f in store.bot_faults(bot.id, None, 100)]
        assert faults and all(f.reason == REASONS[str(f.fault)] for f in faults)
