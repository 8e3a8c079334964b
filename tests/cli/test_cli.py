"""The `arena` command as a user runs it: real processes, a real SQLite file, real gRPC."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from arena.match.replay import read_log, replay
from arena.storage.store import Store
from arena.wire.tokens import digest
from tests.helpers import (
    GAME,
    add_bots,
    arena,
    arena_seeing,
    assert_rebuild_changes_nothing,
    cli,
    eventually,
    finished_matches,
    migrated_store,
    new_marker,
    processes_with,
    wait_until_gone,
)


def test_tournament_run_list_leaderboard_and_match_views(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    marker = new_marker("test")
    add_bots(db, marker)
    result, seen = arena_seeing(marker, "tournament", "run", "--game", GAME, "--bot", "random",
                                "--bot", "heuristic", "--seed", "7", "--parallel", "3", db=db)
    assert "tournament 1: 12 matches" in result.stdout
    assert seen, "no bot process was ever found by its marker"
    assert not processes_with(marker), "a bot process outlived the tournament"
    store = Store(str(db))
    tournament = store.get_tournament(1)
    assert tournament.finished == tournament.total == 12 and tournament.status == "finished"
    matches = store.list_matches(1, 100)
    assert len(matches) == 12 and all(m.status == "finished" for m in matches)
    for match in matches:
        assert sorted(s.fault for s in match.seats) == [""] * 4
    full = store.get_match(matches[0].id)
    assert full.log is not None
    assert replay(GAME, 4, full.seed, dict(full.options), read_log(GAME, full.log))

    listing = cli("tournament", "list", db=db).stdout
    assert "12/12" in listing
    board = cli("leaderboard", "--game", GAME, db=db).stdout
    rows = store.leaderboard(GAME)
    assert sorted(r.label for r in rows) == ["heuristic@1", "random@1"]
    at = [board.find(r.label) for r in rows]
    assert -1 not in at and at == sorted(at), "the board lists both bots, best first"

    seat_view = cli("match", "show", str(full.id), "--seat", "0", db=db).stdout
    everything = cli("match", "show", str(full.id), db=db).stdout
    assert "HoleSeen(seat=0" in seat_view and "HoleSeen(seat=1" not in seat_view
    assert "HoleSeen(seat=1" in everything

    before = {(r.label, round(r.mu, 9), round(r.sigma, 9)) for r in store.leaderboard(GAME)}
    cli("ratings", "rebuild", db=db)
    after = {(r.label, round(r.mu, 9), round(r.sigma, 9)) for r in Store(str(db)).leaderboard(GAME)}
    assert before == after


def test_resume_after_kill_finishes_every_match_exactly_once(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    marker = new_marker("kill")
    add_bots(db, marker)
    command = [sys.executable, "-m", "arena", "tournament", "run", "--game", GAME,
               "--bot", "random", "--bot", "heuristic", "--repetitions", "6", "--seed", "3",
               "--parallel", "2", "--db", str(db)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        eventually("the tournament to get going", lambda: finished_matches(db) >= 10, every=0.05)
        assert processes_with(marker), "no bot process is found by its marker"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    total = Store(str(db)).get_tournament(1).total
    assert finished_matches(db) < total, "the kill came too late to test anything"
    wait_until_gone(marker)  # bots notice the referee is gone and exit by themselves

    arena("tournament", "resume", "1", db=db)
    store = Store(str(db))
    assert store.get_tournament(1).finished == total
    with sqlite3.connect(db) as connection:
        statuses = connection.execute("select status, count(*) from match group by status").fetchall()
        seqs = connection.execute("select count(distinct finish_seq), count(*) from match").fetchone()
        history = connection.execute("select count(*) from rating_history").fetchone()[0]
    assert statuses == [("finished", total)]
    assert seqs == (total, total)
    assert history == 2 * total  # one rating update per bot per match, none twice
    assert_rebuild_changes_nothing(store)


def test_sigterm_stops_taking_matches_finishes_the_running_ones_and_exits_0(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    marker = new_marker("term")
    add_bots(db, marker)
    command = [sys.executable, "-m", "arena", "tournament", "run", "--game", GAME,
               "--bot", "random", "--bot", "heuristic", "--repetitions", "6", "--seed", "5",
               "--parallel", "2", "--db", str(db)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "COLUMNS": "200"})
    eventually("the tournament to get going", lambda: finished_matches(db) >= 5, every=0.05)
    running = processes_with(marker)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, out + err
    assert "stopped on request" in out and "Traceback" not in err
    assert running, "no bot process was found by its marker"
    assert not processes_with(marker)
    store = Store(str(db))
    tournament = store.get_tournament(1)
    assert tournament.status == "interrupted" and 5 <= tournament.finished < tournament.total
    with sqlite3.connect(db) as connection:
        running = connection.execute("select count(*) from match where status = 'running'").fetchone()
    assert running == (0,)  # the matches in play were finished, not left half done
    arena("tournament", "resume", "1", db=db)
    assert Store(str(db)).get_tournament(1).finished == tournament.total


RUN = ["tournament", "run", "--game", GAME, "--bot", "random", "--bot", "heuristic"]
RUN_REMOTE = ["tournament", "run", "--game", GAME, "--bot", "random", "--bot", "faraway"]


@pytest.mark.parametrize(("args", "message"), [
    (["tournament", "run", "--game", "chess", "--bot", "random", "--bot", "heuristic"],
     "unknown game 'chess'"),
    (["tournament", "run", "--game", GAME, "--bot", "random", "--bot", "nobody"], "nobody"),
    ([*RUN, "--option", "ace_value=7"], "ace_value"),
    ([*RUN, "--option", "colour=red"], "no option 'colour'"),
    ([*RUN, "--players", "13"], "2 to 12 players"),
    (["tournament", "run", "--game", GAME, "--bot", "random", "--bot", "random"], "only once"),
    ([*RUN, "--bot-memory", "0"], "bot memory must be at least 1 MB"),
    ([*RUN, "--bot-memory", "lots"], "bot memory must be a size"),
    ([*RUN, "--bot-cpu-seconds", "-5"], "--bot-cpu-seconds must be at least 1"),
    ([*RUN, "--bot-open-files", "0"], "--bot-open-files must be at least 1"),
    ([*RUN, "--bot-processes", "few"], "--bot-processes must be a positive whole number"),
    (["bot", "add", "ghost", "--command", "no-such-program --play"], "not found"),
    (["bot", "add", "random", "--command", "python -m bots.random_bot"], "random"),
    (["match", "show", "999"], "999"),
    (["tournament", "resume", "42"], "42"),
    (["leaderboard", "--game", "poker"], "unknown game 'poker'"),
    (["bot", "add", "both", "--command", "python -m bots.random_bot", "--remote"], "not both"),
    (["bot", "add", "neither"], "give either --command CMD (a managed bot) or --remote"),
    (["bot", "add", "lost", "--command", "python -m bots.random_bot", "--dir", "no-such-folder"],
     "--dir 'no-such-folder' is not a folder"),
    (["bot", "add", "lost", "--command", "python -m bots.random_bot", "--dir", "README.md"],
     "--dir 'README.md' is not a folder"),
    (["bot", "add", "far", "--remote", "--dir", "."], "--dir is for managed bots (--command)"),
    (["bot", "add", "lost", "--command", "./no-such-bot", "--dir", "arena"],
     "bot command not found: './no-such-bot' in"),
    (["bot", "token", "random"], "random@1 is managed, not remote"),
    (RUN_REMOTE, "faraway@1 is a remote bot: give --listen HOST:PORT"),
    ([*RUN_REMOTE, "--listen", "7000"], "--listen must be HOST:PORT"),
    ([*RUN_REMOTE, "--listen", "127.0.0.1:0", "--tls-cert", "cert.pem"],
     "give both --tls-cert and --tls-key"),
    ([*RUN_REMOTE, "--listen", "127.0.0.1:0", "--tls-cert", "no-such-cert.pem",
      "--tls-key", "no-such-key.pem"], "cannot read the TLS certificate 'no-such-cert.pem'"),
    ([*RUN, "--tls-cert", "README.md", "--tls-key", "README.md"], "secure the --listen address"),
    ([*RUN_REMOTE, "--listen", "127.0.0.1:0", "--tls-cert", "README.md", "--tls-key", "README.md"],
     "not a PEM certificate and key"),
    (["serve", "--port", "0", "--tls-key", "key.pem"], "give both --tls-cert and --tls-key"),
    (["serve", "--port", "0", "--tls-cert", "no-such-cert.pem", "--tls-key", "no-such-key.pem"],
     "cannot read the TLS certificate"),
    (["serve", "--port", "0", "--operator-socket", "README.md"], "exists and is not a socket"),
    # formats: a gauntlet, a match between two bots and its SPRT
    ([*RUN, "--format", "swiss"], "--format must be one of round-robin, gauntlet, versus"),
    ([*RUN, "--field", "faraway"], "--field is for a gauntlet or a match between two bots"),
    ([*RUN, "--sets", "10"], "--sets and --sprt are for a match between two bots"),
    ([*RUN, "--format", "gauntlet"], "a gauntlet needs at least one challenger and a field"),
    ([*RUN, "--format", "gauntlet", "--field", "random"], "each bot may be named only once"),
    ([*RUN, "--format", "versus", "--bot", "faraway", "--listen", "127.0.0.1:0"],
     "exactly two --bot (A and B), not 3"),
    ([*RUN, "--format", "versus"], "a 4-player game needs a field for the 2 other seats"),
    ([*RUN, "--format", "versus", "--players", "2", "--deals", "independent"],
     "played on duplicate sets: --deals independent does not apply"),
    ([*RUN, "--format", "versus", "--players", "2", "--repetitions", "3"],
     "as long as its --sets, not --repetitions"),
    ([*RUN, "--format", "versus", "--players", "2", "--sprt", "elo0=10,elo1=0"],
     "--sprt: SPRT elo0 must be below elo1"),
    ([*RUN, "--format", "versus", "--players", "2", "--sprt", "elo1=5"],
     "--sprt needs at least elo0= and elo1="),
    ([*RUN, "--format", "versus", "--players", "2", "--sprt", "elo0=0,elo1=5,gamma=1"],
     "--sprt takes elo0=, elo1=, alpha= and beta="),
    ([*RUN, "--format", "versus", "--players", "2", "--sprt", "elo0=0,elo1=x"],
     "--sprt elo1 must be a number, not 'x'"),
    ([*RUN, "--format", "versus", "--players", "2", "--sprt", "elo0=0,elo1=5,alpha=0.7"],
     "SPRT alpha must be strictly between 0 and 0.5"),
    # names that would break tables, log files or the terminal, and settings that cannot hold
    (["bot", "add", "[/bold]", "--command", "python -m bots.random_bot"],
     "bad bot name '[/bold]': use 1 to 64 letters, digits, '.', '_' or '-'"),
    (["bot", "add", "a" * 300, "--command", "python -m bots.random_bot"],
     "... (300 characters): use 1 to 64 letters"),
    (["bot", "add", "b" * 100_000, "--command", "python -m bots.random_bot"],
     "... (100000 characters): use 1 to 64 letters"),
    (["bot", "add", "a/b", "--command", "python -m bots.random_bot"], "bad bot name 'a/b'"),
    (["bot", "add", "fine", "--version", "1 2", "--command", "python -m bots.random_bot"],
     "bad bot version '1 2'"),
    (["bot", "add", "far", "--remote", "--version", "../x"], "bad bot version '../x'"),
    ([*RUN, "--move-timeout", "inf"], "--move-timeout must be a finite number of seconds"),
    ([*RUN, "--start-timeout", "inf"], "--start-timeout must be a finite number of seconds"),
    ([*RUN, "--time-bank", "inf"], "--time-bank must be a finite number of seconds"),
    ([*RUN, "--event-delay", "inf"], "--event-delay must be a finite number of seconds"),
    ([*RUN, "--bot-cpus", "0"], "--bot-cpus must be a positive number of cores"),
    ([*RUN, "--deals", "shuffled"], "--deals must be duplicate or independent"),
])
def test_user_mistakes_get_one_clear_line(tmp_path: Path, args: list[str], message: str) -> None:
    db = tmp_path / "arena.db"
    store = migrated_store(db)  # the bots of add_bots(), registered without two more processes
    store.add_bot("random", "python -m bots.random_bot")
    store.add_bot("heuristic", "python -m bots.face_card_kill_card")
    store.add_bot("faraway", token_hash=digest("a remote bot's token"))
    bots_before = Store(str(db)).list_bots()
    size_before = db.stat().st_size
    result = cli(*args, db=db, check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert message in result.stderr
    assert result.stderr.strip().count("\n") == 0, result.stderr
    assert Store(str(db)).list_tournaments() == []
    assert Store(str(db)).list_bots() == bots_before
    assert db.stat().st_size >= size_before
    assert Path("README.md").is_file()


def test_bots_are_added_listed_and_removed(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    add_bots(db)
    assert "heuristic@1" in cli("bot", "list", db=db).stdout
    cli("bot", "add", "heuristic", "--version", "2", "--command",
        "python -m bots.face_card_kill_card --target 12", db=db)
    cli("bot", "remove", "heuristic", "--version", "1", db=db)
    listing = cli("bot", "list", db=db).stdout
    assert "heuristic@2" in listing and "heuristic@1" not in listing
    again = cli("bot", "remove", "heuristic", "--version", "1", db=db, check=False)
    assert again.returncode == 1 and "Traceback" not in again.stderr


BOT_IN_ITS_FOLDER = """\
import os
from sdk.bot import Bot
from sdk.run import run

class First(Bot):
    def act(self, observation, legal_actions):
        return list(legal_actions)[0]

print("cwd", os.getcwd(), "data", open("data.txt").read().strip(), flush=True)
run(First)
"""  # the SDK only: a bot in a folder of its own sees nothing else of this repository


def test_a_managed_bot_runs_in_its_folder_by_default_the_current_one(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    here, there = tmp_path / "here", tmp_path / "there"
    for folder in (here, there):
        folder.mkdir()
        (folder / "bot.py").write_text(BOT_IN_ITS_FOLDER)
        (folder / "data.txt").write_text(f"beside the bot in {folder.name}\n")
    (there / "run-bot").write_text(f"#!/bin/sh\nexec {sys.executable} bot.py\n")
    (there / "run-bot").chmod(0o755)
    added = cli("bot", "add", "plain", "--command", "python bot.py", db=db, cwd=here)
    assert f"added bot plain@1: python bot.py (in {here.resolve()})" in added.stdout
    cli("bot", "add", "placed", "--command", "./run-bot", "--dir", "../there", db=db, cwd=here)
    # a bundled bot runs from any folder: the sandbox shows the installed ``bots`` package
    cli("bot", "add", "bundled", "--command", "python -m bots.random_bot", db=db, cwd=here)
    store = Store(str(db))
    assert store.get_bot("plain").folder == str(here.resolve())  # absolute, whatever was given
    assert store.get_bot("placed").folder == str(there.resolve())
    # played from elsewhere, each bot runs in its own folder (in the sandbox, as by default)
    cli("tournament", "run", "--game", GAME, "--bot", "plain", "--bot", "placed", "--bot",
        "bundled", "--players", "2", "--seed", "1", db=db, cwd=tmp_path)
    tournament = store.get_tournament(1)
    assert tournament.finished == tournament.total > 0
    assert {s.fault for m in store.list_matches(1, 100) for s in m.seats} == {""}
    for name, folder in (("plain", here), ("placed", there)):
        log = (tmp_path / "arena-data" / "logs" / f"{name}@1.log").read_text()
        assert f"cwd {folder.resolve()} data beside the bot in {folder.name}" in log, log


def test_a_missing_bot_folder_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    result = cli("bot", "add", "lost", "--command", "python -m bots.random_bot", "--dir",
                 str(tmp_path / "gone"), db=db, check=False)
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr
    assert result.stderr.strip() == f"error: --dir {str(tmp_path / 'gone')!r} is not a folder"
    assert not db.exists()  # refused before the database was opened
    remote = cli("bot", "add", "far", "--remote", "--dir", str(tmp_path), db=db, check=False)
    assert remote.returncode == 1 and remote.stderr.strip().count("\n") == 0
    assert "--dir is for managed bots" in remote.stderr and "token" not in remote.stdout
    assert not db.exists()


def test_games_lists_every_game_with_its_options() -> None:
    out = cli("games").stdout
    for name in ("kill", "face-card-kill-card", "serial-killer", "king", "kings-corner", "knives"):
        assert name in out
    assert "target_score = 31" in out and "= true" in out


def test_a_bad_database_is_a_clear_error(tmp_path: Path) -> None:
    result = cli("bot", "list", db=tmp_path, check=False)   # a folder, not a file
    assert result.returncode == 1 and "Traceback" not in result.stderr
    result = cli("bot", "list", "--db", "nosuchdriver://x/y", check=False)
    assert result.returncode == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["tournamnet", "list"], "No such command"),
    (["tournament", "run", "--game", GAME, "--parallel", "0"], "--parallel"),
    (["tournament", "run", "--game", GAME, "--bot", "random", "--move-timeout", "0"],
     "--move-timeout"),
    (["tournament", "run", "--game", GAME, "--bot", "random", "--move-timeout", "-1"],
     "--move-timeout"),
    (["tournament", "run", "--game", GAME, "--bot", "random", "--start-timeout", "0"],
     "--start-timeout"),
    (["tournament", "run", "--game", GAME, "--bot", "random", "--time-bank", "-5"], "--time-bank"),
    (["tournament", "run", "--game", GAME, "--bot", "random", "--event-delay", "-1"], "--event-delay"),
    (["tournament", "run", "--game", GAME, "--bot", "random", "--players", "four"], "--players"),
])
def test_typos_on_the_command_line_get_usage_not_tracebacks(tmp_path: Path, args: list[str],
                                                            message: str) -> None:
    db = tmp_path / "a.db"
    add_bots(db)
    result = cli(*args, db=db, check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr + result.stdout
    assert message in result.stderr
    assert Store(str(db)).list_tournaments() == []


RESUMABLE = ["--game", GAME, "--bot", "random", "--bot", "heuristic", "--seed", "7",
             "--move-timeout", "10", "--option", "dealer=0"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with one finished tournament (created with RESUMABLE), copied per test."""
    db = tmp_path_factory.mktemp("played") / "arena.db"
    add_bots(db)
    cli("tournament", "run", *RESUMABLE, "--event-delay", "0", db=db)
    return db


@pytest.mark.parametrize(("args", "message"), [
    (["--move-timeout", "5"], "--move-timeout 10"),
    (["--seed", "8"], "--seed 7"),
    (["--bot", "random"], "--bot heuristic@1, random@1"),
    (["--repetitions", "3"], "--repetitions 1"),
    (["--option", "dealer=1"], "--option"),
    (["--game", "king"], "--game face-card-kill-card"),
    (["--time-bank", "2"], "--time-bank 0"),
    (["--event-delay", "0.5"], "--event-delay 0"),
    (["--bot-memory", "1GB"], "--bot-memory 2048"),
    (["--bot-processes", "unlimited"], "--bot-processes 256"),
    (["--bot-cpus", "2"], "--bot-cpus 1"),
])
def test_resuming_with_changed_settings_is_refused(tmp_path: Path, played: Path, args: list[str],
                                                   message: str) -> None:
    db = tmp_path / "arena.db"
    shutil.copy(played, db)
    size, before = db.stat().st_size, Store(str(db)).list_matches(1, limit=1000)
    result = cli("tournament", "resume", "1", *args, db=db, check=False)
    assert result.returncode == 1 and "Traceback" not in result.stderr + result.stdout
    assert message in result.stderr and "keeps its settings" in result.stderr, result.stderr
    assert result.stderr.strip().count("\n") == 0, result.stderr
    assert Store(str(db)).list_matches(1, limit=1000) == before and db.stat().st_size == size


def test_resuming_with_the_same_settings_is_accepted(tmp_path: Path, played: Path) -> None:
    db = tmp_path / "arena.db"
    shutil.copy(played, db)
    result = cli("tournament", "resume", "1", *RESUMABLE, "--parallel", "3", "--event-delay", "0",
                 "--bot-memory", "2GiB", "--bot-processes", "256", "--bot-cpus", "1",
                 "--bot-open-files", "256", "--bot-cpu-seconds", "unlimited", db=db)
    assert "0 of" in result.stdout
    saved = Store(str(db)).get_tournament(1).settings
    assert (saved["event_delay_s"], saved["move_timeout_s"]) == (0.0, 10.0)


@pytest.mark.parametrize("url", [":memory:", "sqlite://", "sqlite:///:memory:",
                                 "sqlite:///file::memory:?cache=shared"])
def test_a_database_that_keeps_nothing_is_refused(tmp_path: Path, url: str) -> None:
    result = cli("bot", "list", "--db", url, cwd=tmp_path, check=False)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"error: --db {url!r} is a database in memory, gone when the command ends: give a file "
        "(e.g. arena.db) or a server URL"]
    assert list(tmp_path.iterdir()) == []  # no file named ':memory:', nothing at all


def test_names_from_users_are_never_rich_markup(tmp_path: Path) -> None:
    """Names stored before names were checked (or by another tool) print as they are."""
    db = tmp_path / "arena.db"
    store = Store(str(db))
    store.add_bot("plain", "python -m bots.random_bot")
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.begin() as connection:
        connection.execute(sa.text("update bot set name = '[/bold]' where name = 'plain'"))
    engine.dispose()
    listed = cli("bot", "list", db=db)
    assert "[/bold]@1" in listed.stdout


def test_remote_tokens_never_start_with_a_dash() -> None:
    """About one in 64 random url-safe tokens does: `--token -x...` then reads as an option."""
    from arena.wire.tokens import new_token

    tokens = [new_token() for _ in range(3000)]  # without the rule, ~47 would
    assert not [t for t in tokens if t.startswith("-")] and len(set(tokens)) == 3000
