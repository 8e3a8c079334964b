"""Failing well: a bot that cannot start stops the tournament with its last words."""

from __future__ import annotations

from pathlib import Path

from arena.storage.store import Store
from tests.helpers import GAME, arena

BROKEN = "python -c \"import sys; print('cannot load my model.bin', flush=True); sys.exit(3)\""


def test_a_bot_that_does_not_start_stops_the_tournament_with_its_last_words(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    arena("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    arena("bot", "add", "broken", "--command", BROKEN, db=db)
    run = arena("tournament", "run", "--game", GAME, "--players", "2", "--bot", "random",
                "--bot", "broken", "--seed", "1", "--start-timeout", "2", db=db, check=False)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr and run.stderr.strip().count("\n") == 0, run.stderr
    assert ("bot broken@1 did not start: exited with code 3; last lines of its log: "
            "cannot load my model.bin") in run.stderr
    assert "--keep-going" in run.stderr and "arena tournament resume 1" in run.stderr
    store = Store(str(db))
    tournament = store.get_tournament(1)
    assert tournament.status == "interrupted" and tournament.finished == 0
    assert store.leaderboard(GAME) == []  # nothing rated

    # asked to, it plays on: every seat of the broken bot a no-show, recorded and rated
    kept = arena("tournament", "resume", "1", "--keep-going", db=db)
    assert "Leaderboard" in kept.stdout
    tournament = store.get_tournament(1)
    assert tournament.status == "finished" and tournament.finished == tournament.total == 2
    faults = {seat.bot: seat.fault for m in store.list_matches(1, 10) for seat in m.seats}
    assert faults == {"broken@1": "no-show", "random@1": ""}
