"""Failing well: a bot that cannot start stops the tournament with its last words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.storage.store import ScheduledMatch, Store
from tests.helpers import GAME, cli

BROKEN = "python -c \"import sys; print('cannot load my model.bin', flush=True); sys.exit(3)\""


def test_a_bot_that_does_not_start_stops_the_tournament_with_its_last_words(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    cli("bot", "add", "broken", "--command", BROKEN, db=db)
    run = cli("tournament", "run", "--game", GAME, "--players", "2", "--bot", "random",
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
    kept = cli("tournament", "resume", "1", "--keep-going", db=db)
    assert "Leaderboard" in kept.stdout
    tournament = store.get_tournament(1)
    assert tournament.status == "finished" and tournament.finished == tournament.total == 2
    faults = {seat.bot: seat.fault for m in store.list_matches(1, 10) for seat in m.seats}
    assert faults == {"broken@1": "no-show", "random@1": ""}


def test_cancel_voids_the_rest_and_void_takes_a_tournament_out_of_the_ratings(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    cli("bot", "add", "other", "--command", "python -m bots.random_bot", db=db)
    cli("tournament", "run", "--game", GAME, "--players", "2", "--bot", "random", "--bot",
        "other", "--repetitions", "2", "--seed", "1", db=db)
    store = Store(str(db))
    # a second tournament, interrupted before its matches were played
    second = store.create_tournament(GAME, 2, {}, 5, 1, {}, [1, 2], [
        ScheduledMatch(0, 11, (1, 2)), ScheduledMatch(1, 11, (2, 1))])
    before = {r.label: (r.mu, r.sigma, r.matches) for r in store.leaderboard(GAME)}
    said = cli("tournament", "cancel", str(second), db=db).stdout
    assert f"tournament {second} cancelled: 2 unfinished matches void" in said
    assert store.get_tournament(second).status == "cancelled"
    listed = {row["id"]: row["status"] for row in json.loads(
        cli("tournament", "list", "--json", db=db).stdout)["tournaments"]}
    assert listed == {second: "cancelled", 1: "finished"}
    again = cli("tournament", "resume", str(second), db=db, check=False)
    assert again.returncode != 0 and "was cancelled" in again.stderr + again.stdout
    assert store.get_tournament(second).status == "cancelled"  # a resume does not revive it
    assert {r.label: (r.mu, r.sigma, r.matches) for r in store.leaderboard(GAME)} == before

    gone = cli("tournament", "void", "1", db=db).stdout
    assert "tournament 1 void: its 4 finished matches no longer count; ratings rebuilt" in gone
    assert store.leaderboard(GAME) == []  # nothing else was played
    assert {str(m.status) for m in store.list_matches(1, 10)} == {"void"}
    assert all(s.rank is not None for m in store.list_matches(1, 10) for s in m.seats)  # on record
    # and it reads voided, not finished, wherever its status is shown
    assert store.get_tournament(1).status == "voided"
    listed = {row["id"]: row["status"] for row in json.loads(
        cli("tournament", "list", "--json", db=db).stdout)["tournaments"]}
    assert listed == {second: "cancelled", 1: "voided"}
    shown = json.loads(cli("tournament", "show", "1", "--json", db=db).stdout)
    assert shown["tournament"]["status"] == "voided"
    assert "voided" in cli("tournament", "list", db=db).stdout
    again = cli("tournament", "resume", "1", db=db, check=False)
    assert again.returncode != 0 and "was voided" in again.stderr + again.stdout
    assert store.get_tournament(1).status == "voided"  # a resume does not revive it
    missing = cli("tournament", "cancel", "42", db=db, check=False)
    assert missing.returncode == 1 and "no tournament with id 42" in missing.stderr


@pytest.mark.parametrize("command", [
    ["bot", "list"], ["tournament", "list"], ["tournament", "show", "1"], ["leaderboard"],
    ["match", "list"], ["compare", "a", "b", "--game", GAME], ["tournament", "cancel", "1"],
    ["ratings", "rebuild"], ["tournament", "export", "1"], ["leaderboard", "--json"]])
def test_commands_that_only_read_never_create_a_database(tmp_path: Path,
                                                          command: list[str]) -> None:
    db = tmp_path / "mistyped.db"
    result = cli(*command, db=db, check=False)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"no database '{db}' (this command creates none)" in result.stderr
    assert not db.exists() and list(tmp_path.iterdir()) == []


BUGGY_BOT = '''
import os
import sys
from sdk import Bot
from sdk.run import run

class Buggy(Bot):
    def __init__(self):
        self.moves = 0

    def act(self, observation, legal_actions):
        self.moves += 1
        if self.moves == 2:
            if sys.argv[1] == "raise":
                raise KeyError("no plan for this hand")
            os._exit(9)
        return legal_actions[0]

run(Buggy)
'''


def test_a_bots_exception_is_an_error_with_its_message_not_a_disconnect(tmp_path: Path) -> None:
    """A bot whose ``act`` raises gives up its seat with a Failure: the seat's fault is
    ``error`` (its process lives on), the match log keeps the bot's message where it
    happened, and its own log the traceback. A bot whose process dies is ``crashed``."""
    db = tmp_path / "arena.db"
    (tmp_path / "buggy.py").write_text(BUGGY_BOT)
    cli("bot", "add", "raises", "--command", "python buggy.py raise", "--dir", str(tmp_path), db=db)
    cli("bot", "add", "dies", "--command", "python buggy.py exit", "--dir", str(tmp_path), db=db)
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    cli("tournament", "run", "--game", "kill", "--players", "3", "--bot", "raises", "--bot",
        "dies", "--bot", "random", "--seed", "1", db=db)
    store = Store(str(db))
    matches = store.list_matches(1, 100)
    assert len(matches) == 3 and {str(m.status) for m in matches} == {"finished"}
    faults = {(seat.bot, seat.fault) for m in matches for seat in m.seats}
    assert faults == {("raises@1", "error"), ("dies@1", "crashed"), ("random@1", "")}

    shown = json.loads(cli("match", "show", str(matches[0].id), "--json", db=db).stdout)["match"]
    errors = [line for line in shown["log"] if line["kind"] == "fault"]
    seat = next(s["seat"] for s in shown["seats"] if s["bot"] == "raises@1")
    assert {"seat": seat, "fault": "error", "reason": "KeyError: 'no plan for this hand'",
            "audience": [seat]}.items() <= next(e for e in errors if e["seat"] == seat).items()
    crash = next(e for e in errors if e["seat"] != seat)
    assert crash["fault"] == "crashed" and crash["reason"] == "its process died"
    # the fault comes where it happened: after the bot's first decision, before its next one
    decisions = [i for i, line in enumerate(shown["log"])
                 if line["kind"] == "decision" and line["seat"] == seat and not line["fallback"]]
    assert len(decisions) == 1 and shown["log"].index(next(
        e for e in errors if e["seat"] == seat)) > decisions[0]
    # a seat's view holds its own fault only
    other = json.loads(cli("match", "show", str(matches[0].id), "--json", "--seat",
                           str(next(s["seat"] for s in shown["seats"] if s["bot"] == "random@1")),
                           db=db).stdout)["match"]
    assert not [line for line in other["log"] if line["kind"] == "fault"]
    printed = cli("match", "show", str(matches[0].id), db=db).stdout
    assert f"seat {seat} is out of the match: error (KeyError: 'no plan for this hand')" in printed

    logs = list((tmp_path / "arena-data" / "logs").glob("raises*")) or \
        list(db.parent.rglob("raises*.log"))
    assert logs and "KeyError: 'no plan for this hand'" in "".join(p.read_text() for p in logs)
    assert "Traceback" in "".join(p.read_text() for p in logs)
