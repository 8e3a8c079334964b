"""`arena demo` as a user runs it, in a folder of its own: real processes, the real CLI, the
database it keeps, what it replaces and what it refuses to."""

from __future__ import annotations

import hashlib
from pathlib import Path

from arena.games import all_games
from arena.storage.store import Store
from tests.helpers import arena, cli

DEMO_DB = "arena-demo.db"
GAMES = list(all_games())


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` by relative path, with a digest of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_demo_keeps_its_results_where_the_heuristics_lead_and_a_rerun_replaces_them(
        tmp_path: Path) -> None:
    own_log = tmp_path / "arena-data" / "logs" / "mine@1.log"  # another database's bot's log
    own_log.parent.mkdir(parents=True)
    own_log.write_text("not the demo's\n")

    first = arena("demo", cwd=tmp_path, timeout=240)
    assert "Leaderboard" in first.stdout and "random@1" in first.stdout
    assert "explore it: arena leaderboard --db arena-demo.db --all-pools" in first.stdout
    assert "arena tournament list --db arena-demo.db" in first.stdout
    assert "in a browser: arena web --db arena-demo.db" in first.stdout
    explored = cli("leaderboard", "--all-pools", db=tmp_path / DEMO_DB).stdout
    assert all(f"{game}-bot@1" in explored for game in GAMES)
    store = Store(str(tmp_path / DEMO_DB))
    tournaments = store.list_tournaments()
    # per game, the round-robin of random and the heuristic, then the search bot's match
    # against the heuristic (the other seats random)
    assert sorted((t.game, t.settings["format"]["kind"]) for t in tournaments) == sorted(
        (game, kind) for game in GAMES for kind in ("round-robin", "versus"))
    assert all(t.status == "finished" and t.finished == t.total > 0 for t in tournaments)
    for game in GAMES:
        board = {row.name: row for row in store.leaderboard(game)}
        assert set(board) == {f"{game}-bot", "random", "search"}, (game, board)
        assert board[f"{game}-bot"].mu > board["random"].mu, (game, board)
        assert board["search"].faults == 0 and board["search"].matches > 0, (game, board)
    store.close()
    demo_log = tmp_path / "arena-data" / "logs" / "random@1.log"
    assert demo_log.exists()
    demo_log.write_text("the earlier demo's\n")

    # Again, shorter (one game, one repetition): the earlier demo's results are gone.
    again = arena("demo", "--game", GAMES[0], "--repetitions", "1", cwd=tmp_path, timeout=180)
    assert "explore it:" in again.stdout
    store = Store(str(tmp_path / DEMO_DB))
    replaced = store.list_tournaments()
    # the round-robin once, and the search bot's one set: a deal in each seat rotation
    assert sorted((t.game, t.finished, t.total) for t in replaced) == [(GAMES[0], 4, 4),
                                                                       (GAMES[0], 12, 12)]
    assert len(store.list_matches(limit=1000)) == 16
    store.close()
    assert "the earlier demo's" not in demo_log.read_text()
    assert own_log.read_text() == "not the demo's\n"


def test_the_demo_refuses_a_database_of_its_name_that_it_did_not_make(tmp_path: Path) -> None:
    db = tmp_path / DEMO_DB
    store = Store(str(db))
    store.add_bot("random", "python -m bots.random_bot")
    store.add_bot("mine", "python -m bots.random_bot")
    store.close()
    before = fingerprint(tmp_path)
    refused = cli("demo", cwd=tmp_path, check=False)
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        "error: arena-demo.db exists and is not a database made by `arena demo`; the demo "
        "replaces only its own: move it away or give another --db"]
    assert fingerprint(tmp_path) == before


def test_the_demo_refuses_a_file_that_is_no_arena_database(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    refused = cli("demo", "--db", "notes.txt", cwd=tmp_path, check=False)
    assert refused.returncode == 1
    assert refused.stderr.startswith("error: notes.txt exists and is not a database made by")
    assert notes.read_text() == "my notes\n" and sorted(tmp_path.iterdir()) == [notes]
