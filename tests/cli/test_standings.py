"""`arena tournament show`, `arena compare` and a tournament's state after its run dies,
through the real CLI, on real tournaments of real bot processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from arena.storage.store import Store
from tests.helpers import GAME, add_bots, arena, cli, eventually


def test_tournament_show_and_compare_on_a_gauntlet(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    add_bots(db)  # random and heuristic (the Face Card / Kill Card bot)
    cli("bot", "add", "other", "--command", "python -m bots.random_bot", db=db)
    cli("tournament", "run", "--game", GAME, "--players", "2", "--format", "gauntlet",
        "--bot", "heuristic", "--field", "random", "--field", "other", "--repetitions", "3",
        "--seed", "5", db=db)
    shown = cli("tournament", "show", "1", db=db).stdout
    assert "gauntlet (heuristic@1 against random@1, other@1)" in shown
    assert "finished: 12 of 12 matches finished, 0 void, 0 to play" in shown
    assert "Standings" in shown and "Crosstable" in shown and "faults: none" in shown

    report = json.loads(cli("tournament", "show", "1", "--json", db=db).stdout)
    assert report["version"] == 1
    tournament = report["tournament"]
    assert (tournament["format"], tournament["challengers"], tournament["field"]) == (
        "gauntlet", ["heuristic@1"], ["random@1", "other@1"])
    assert tournament["matches"] == {"total": 12, "finished": 12, "running": 0, "pending": 0,
                                     "void": 0}
    rows = {row["bot"]: row for row in tournament["standings"]}
    assert rows["heuristic@1"]["matches"] == 12 and rows["random@1"]["matches"] == 6
    assert sum(row["wins"] for row in rows.values()) >= 12  # a winner a match (ties: more)
    cells = {(c["bot"], c["opponent"]): c for c in tournament["crosstable"]}
    # the field never played itself; the challenger met each of them in 6 matches
    assert ("random@1", "other@1") not in cells and cells["heuristic@1", "random@1"]["n"] == 6
    mirrored = cells["random@1", "heuristic@1"]
    assert mirrored["wins"] == cells["heuristic@1", "random@1"]["losses"]
    assert "seed" not in json.dumps(report)  # deals are secret

    # the tournament's own leaderboard: its standings, whatever else the bots played
    cli("tournament", "run", "--game", GAME, "--players", "2", "--bot", "random", "--bot",
        "other", "--seed", "6", db=db)
    own = json.loads(cli("leaderboard", "--tournament", "1", "--json", db=db).stdout)
    assert [(r["bot"], r["matches"], r["rating"]) for r in own["leaderboard"]] == [
        (r["bot"], r["matches"], r["rating"]) for r in tournament["standings"]]
    pooled = {r["bot"]: r["matches"] for r in
              json.loads(cli("leaderboard", "--json", db=db).stdout)["leaderboard"]}
    assert pooled["random@1"] == 6 + 2 and rows["random@1"]["matches"] == 6
    assert "Leaderboard" in cli("leaderboard", "--tournament", "2", db=db).stdout
    wrong = cli("leaderboard", "--tournament", "2", "--game", "kill", db=db, check=False)
    assert wrong.returncode == 1 and "tournament 2 is a face-card-kill-card tournament" in wrong.stderr
    missing = cli("leaderboard", "--tournament", "99", db=db, check=False)
    assert missing.returncode == 1 and "no tournament with id 99" in missing.stderr

    compared = json.loads(cli("compare", "heuristic", "random", "--game", GAME, "--json",
                              db=db).stdout)["comparison"]
    assert compared["n"] == 6 and compared["wins"] + compared["losses"] + compared["ties"] == 6
    assert compared["low"] <= compared["share"] <= compared["high"]
    assert 0 <= compared["los"] <= 1
    board = {row.label: row.conservative for row in Store(str(db)).leaderboard(GAME)}
    assert compared["rating_difference"] == board["heuristic@1"] - board["random@1"]
    said = cli("compare", "heuristic", "random", "--game", GAME, db=db).stdout
    assert "heuristic@1 against random@1 in face-card-kill-card: 6 shared matches" in said
    assert "likelihood that heuristic@1 is the stronger" in said
    alone = cli("compare", "heuristic", "nobody-else", "--game", GAME, db=db, check=False)
    assert alone.returncode == 1 and "nobody-else" in alone.stderr
    cli("bot", "add", "idle", "--command", "python -m bots.random_bot", db=db)
    never = cli("compare", "heuristic", "idle", "--game", GAME, db=db).stdout
    assert "no finished face-card-kill-card match in common" in never
    same = cli("compare", "random", "random", "--game", GAME, db=db, check=False)
    assert same.returncode == 1 and "compare two different bots" in same.stderr


def test_a_killed_run_reads_as_interrupted_and_a_second_run_at_once_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    add_bots(db)
    command = [sys.executable, "-m", "arena", "tournament", "run", "--game", GAME, "--bot",
               "random", "--bot", "heuristic", "--players", "2", "--repetitions", "500", "--parallel", "1",
               "--db", str(db)]
    run = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           env={**os.environ, "COLUMNS": "200"}, start_new_session=True)
    try:
        store = Store(str(db))
        eventually("two finished matches", lambda: bool(store.list_tournaments())
                   and store.get_tournament(1).finished >= 2, every=0.2)
        assert store.get_tournament(1).status == "running"
        listed = json.loads(cli("tournament", "list", "--json", db=db).stdout)
        assert [t["status"] for t in listed["tournaments"]] == ["running"]
        twice = arena("tournament", "resume", "1", db=db, check=False)
        assert twice.returncode == 1
        assert "tournament 1 is being run by another process already" in twice.stderr
    finally:
        os.killpg(run.pid, signal.SIGKILL)  # the arena and its bots, at once
        run.wait()
    assert Store(str(db)).get_tournament(1).status == "interrupted"
    assert "interrupted" in cli("tournament", "list", db=db).stdout
    # (a resume after a kill -9 finishing every match once: tests/cli/test_cli.py)
