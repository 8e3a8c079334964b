"""`arena author add|list|token`, `arena tournament create` on the local database, and the
client options' own mistakes: one line each."""

from __future__ import annotations

import json
from pathlib import Path

from arena.storage.store import Store
from arena.wire.tokens import digest
from tests.helpers import cli


def test_authors_get_a_token_once_stored_hashed_and_renewed(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    added = cli("author", "add", "ann", db=db).stdout.splitlines()
    assert added[0] == "added author ann"
    token = added[2].strip()
    assert len(token) >= 40 and not token.startswith("-")
    with Store(str(db)) as store:
        assert store.author_by_token_hash(digest(token)).name == "ann"
    assert token.encode() not in db.read_bytes()  # its hash only
    again = cli("author", "add", "ann", db=db, check=False)
    assert again.returncode == 1 and again.stderr.strip() == \
        "error: author ann already exists (`arena author token ann` issues a new token)"
    bad = cli("author", "add", "ann smith", db=db, check=False)
    assert bad.returncode == 1 and bad.stderr.startswith("error: bad author name 'ann smith'")
    renewed = cli("author", "token", "ann", db=db).stdout.splitlines()[2].strip()
    assert renewed != token
    with Store(str(db)) as store:
        assert store.author_by_token_hash(digest(renewed)).name == "ann"
        assert [a.name for a in store.list_authors()] == ["ann"]
    listed = json.loads(cli("author", "list", "--json", db=db).stdout)["authors"]
    assert [(a["name"], a["bots"]) for a in listed] == [("ann", [])]
    missing = cli("author", "token", "bob", db=db, check=False)
    assert missing.returncode == 1 and missing.stderr.strip() == "error: no author bob"


def test_a_tournament_created_locally_is_queued_for_a_server_on_that_database(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    cli("bot", "add", "other", "--command", "python -m bots.random_bot", db=db)
    made = json.loads(cli("tournament", "create", "--game", "face-card-kill-card", "--bot",
                          "random", "--bot", "other", "--players", "2", "--json",
                          db=db).stdout)["tournament"]
    assert (made["status"], made["total"], made["finished"]) == ("queued", 2, 0)
    with Store(str(db)) as store:
        assert [t.id for t in store.tournaments_to_serve()] == [made["id"]]
        assert store.get_tournament(made["id"]).settings["served"] is True
    shown = cli("tournament", "list", db=db).stdout
    assert "queued" in shown


def test_client_options_say_what_is_wrong(tmp_path: Path) -> None:
    no_token = cli("bot", "list", "--arena", "127.0.0.1:9", db=tmp_path / "a.db", check=False,
                   env={"ARENA_REMOTE_TOKEN": ""})
    assert no_token.returncode == 1 and no_token.stderr.strip() == \
        "error: --arena needs your token: --token TOKEN (or ARENA_REMOTE_TOKEN)"
    bad = cli("leaderboard", "--arena", "nowhere", "--token", "x", check=False)
    assert bad.returncode == 1 and bad.stderr.strip() == \
        "error: --arena must be HOST:PORT (or unix:PATH), not 'nowhere'"
    down = cli("tournament", "list", "--arena", "127.0.0.1:9", "--token", "x", check=False)
    assert down.returncode == 1 and down.stdout == ""
    lines = down.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot reach the arena at 127.0.0.1:9")


def test_bot_log_shows_the_end_of_each_process_log(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    logs = tmp_path / "arena-data" / "logs"
    logs.mkdir(parents=True)
    (logs / "random@1.log").write_text("first words\n" + "x" * 100 + "\nlast words\n")
    (logs / "random@1.lane1.log").write_text("lane one\n")
    shown = cli("bot", "log", "random", "--bytes", "20", db=db).stdout
    assert shown.splitlines() == ["--- random@1 (its end)", "xxxxxxxx", "last words",
                                  "--- random@1.lane1", "lane one"]
    missing = cli("bot", "log", "nobody", db=db, check=False)
    assert missing.returncode == 1 and missing.stderr.strip() == "error: no bot nobody"
