"""Names that cannot be squatted, through the real doors: `arena serve` as a process, authors
added with `arena author add` submitting with `arena bot submit --arena` and their tokens,
the operator's `arena bot add` and `--bot` on the database the server uses.

Each look-alike of another author's name and each bundled bot's name (and a look-alike of
it) is refused in one line, with nothing written; the operator's `bot add` of an author's
name is refused the same way; `--bot NAME` plays the owner's bot, or says in one line that
the name is ambiguous when a database from before names were owned holds versions of two
owners, and `NAME@VERSION` still plays either.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

from arena.players.submissions import SUBMITTED_DIR
from arena.storage.names import bundled_names
from arena.storage.store import Store
from tests.helpers import cli
from tests.served import OPERATOR, Served, remote

GAME = "face-card-kill-card"
LOOK_ALIKES = ("Hill-bot", "hiII-bot", "hill_bot", "hill-bot.", "HILL-BOT", "hi11-b0t", "hillbot")
BUNDLED_LOOK_ALIKES = ("Kill-bot", "kiII-bot", "kill_bot", "kill-bot.", "KILL-BOT", "Rand0m")


def _folder(where: Path, name: str) -> Path:
    folder = where / f"submitted-{len(list(where.iterdir()))}"
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(
        f'name = "{name}"\ncommand = "python bot.py"\ngames = ["{GAME}"]\n')
    (folder / "bot.py").write_text("from bots.random_bot import RandomBot\n"
                                   "from sdk.run import run\n\nrun(RandomBot)\n")
    return folder


def _bots(db: Path) -> list[tuple[str, str, int | None]]:
    with sqlite3.connect(db) as connection:
        return sorted(connection.execute("select name, version, author_id from bot").fetchall())


def _files(folder: Path) -> list[str]:
    """Every path under ``folder``, relative to it."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def _one_line_error(run: subprocess.CompletedProcess[str]) -> str:
    """A clean refusal: exit code 1, nothing on stdout, one line on stderr (returned)."""
    assert run.returncode == 1, run
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stdout == "", run
    return run.stderr.strip()


def test_authors_cannot_squat_names_and_the_operator_cannot_take_an_authors(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    folders = tmp_path / "folders"
    folders.mkdir()
    ann = cli("author", "add", "ann", db=db).stdout.splitlines()[2].strip()
    eve = cli("author", "add", "eve", db=db).stdout.splitlines()[2].strip()
    cli("bot", "add", "house", "--command", "python -m bots.random_bot", db=db)
    server = Served(db, "--no-web")
    try:
        sent = json.loads(remote(server, ann, "bot", "submit", str(_folder(folders, "hill-bot")),
                                 "--label", "v1", "--json").stdout)["submission"]
        assert (sent["bot"], sent["author"]) == ("hill-bot@v1", "ann")
        before = _bots(db)
        kept = _files(tmp_path / "arena-data" / SUBMITTED_DIR)
        assert kept  # ann's bot

        for name in LOOK_ALIKES:
            said = _one_line_error(remote(server, eve, "bot", "submit",
                                          str(_folder(folders, name)), check=False))
            assert said == (f"error: the bot name {name} reads like hill-bot, which belongs "
                            "to author ann: submit under another name")
        for name in (*bundled_names(), *BUNDLED_LOOK_ALIKES):
            said = _one_line_error(remote(server, eve, "bot", "submit",
                                          str(_folder(folders, name)), check=False))
            assert said.startswith(f"error: the bot name {name} is kept for the bundled bots"), \
                said
        said = _one_line_error(remote(server, eve, "bot", "submit",
                                      str(_folder(folders, "H0use")), check=False))
        assert said == ("error: the bot name H0use reads like house, which is the operator's: "
                        "submit under another name")
        assert _bots(db) == before  # nothing written by any refusal
        assert _files(tmp_path / "arena-data" / SUBMITTED_DIR) == kept  # nor kept on disk
        listed = json.loads(remote(server, eve, "bot", "list", "--json").stdout)["bots"]
        assert sorted((b["bot"], b["author"]) for b in listed) == [
            ("hill-bot@v1", "ann"), ("house@1", None)]

        # the operator's `bot add` of ann's name, or one that reads like it: refused, nothing
        # written; the bundled names are the operator's to register
        for name in ("hill-bot", "Hill_Bot"):
            said = _one_line_error(cli("bot", "add", name, "--command",
                                       "python -m bots.random_bot", db=db, check=False))
            assert said.startswith(f"error: the bot name {name} ")
            assert said.endswith("author ann: register the operator's bot under another name")
        assert _bots(db) == before
        cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
        cli("bot", "add", "kill-bot", "--command", "python -m bots.kill", db=db)

        # `--bot NAME` plays the owner's bot: ann's hill-bot, the operator's random
        made = json.loads(remote(server, OPERATOR, "tournament", "create", "--game", GAME,
                                 "--bot", "hill-bot", "--bot", "random", "--players", "2",
                                 "--json").stdout)["tournament"]
        assert sorted(made["bots"]) == ["hill-bot@v1", "random@1"]
    finally:
        server.stop()

    # a database from before names were owned: the operator's version of ann's bot
    with sqlite3.connect(db) as connection:
        connection.execute("insert into bot (name, version, command, removed, created_at) "
                           "values ('hill-bot', 'op', 'python -m bots.random_bot', 0, "
                           "CURRENT_TIMESTAMP)")
    tournaments = len(Store(str(db)).list_tournaments())
    said = _one_line_error(cli("tournament", "create", "--game", GAME, "--bot", "hill-bot",
                               "--bot", "random", "--players", "2", db=db, check=False))
    assert said == ("error: bot hill-bot is ambiguous: versions of hill-bot (the operator's), "
                    "hill-bot (author ann's); say which with NAME@VERSION (`arena bot list` "
                    "lists them)")
    assert len(Store(str(db)).list_tournaments()) == tournaments  # nothing created
    for version in ("op", "v1"):
        made = json.loads(cli("tournament", "create", "--game", GAME, "--bot",
                              f"hill-bot@{version}", "--bot", "random", "--players", "2",
                              "--json", db=db).stdout)["tournament"]
        assert sorted(made["bots"]) == [f"hill-bot@{version}", "random@1"]
