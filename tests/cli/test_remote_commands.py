"""Every command of ``arena --help`` with ARENA_REMOTE set to a real served arena: it works
on the server, or says in one line that it works on the local database only, and never
writes a file in the folder it is run in. The operator's commands over ``--arena`` (void,
export, resume) do what they do here, and refuse an author's token; ``ladder show`` shows
the server's ladder."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from arena.app import tournaments
from arena.app.tournaments import TournamentRequest
from arena.cli.app import command_line
from arena.storage.store import Store
from tests.helpers import GAME, cli, eventually
from tests.served import OPERATOR, Served

RANDOM = "python -m bots.random_bot"

ON_THE_SERVER = {  # the command, and its arguments (1: a finished tournament, 2: a ladder,
    # 3: an interrupted tournament), in the order they are run
    "games": (),
    "bot list": (),
    "bot log": ("random",),
    "leaderboard": (),
    "tournament list": (),
    "tournament show": ("1",),
    "tournament export": ("1",),
    "match watch": ("1",),
    "ladder show": (GAME,),
    "tournament create": ("--game", GAME, "--bot", "random", "--bot", "other", "--players", "2"),
    "tournament cancel": ("4",),
    "tournament resume": ("3",),
    "tournament void": ("1",),
    "bot submit": ("{bot}",),
}
LOCAL_ONLY = {
    "bot add": ("mine", "--command", RANDOM),
    "bot token": ("random",),
    "bot remove": ("random",),
    "author add": ("bob",),
    "author token": ("ann",),
    "author list": (),
    "tournament run": ("--game", GAME, "--bot", "random", "--bot", "other"),
    "ladder start": (GAME,),
    "compare": ("random", "other", "--game", GAME),
    "ratings": ("rebuild",),
    "match list": (),
    "match show": ("1",),
    "match graph": ("1",),
    "dataset export": ("dataset",),
    "web": (),
    "serve": (),
    "demo": (),
}
OPERATOR_ONLY = {"tournament void": "VoidTournament", "tournament export": "ExportTournament",
                 "tournament resume": "ResumeTournament"}
AUTHORS_ON_THE_SERVER = {  # an author's, asked of a server only (here: refused, ann has no bot)
    "scrimmage": (GAME, "--bot", "random", "--against", "other"),
}
ANYWHERE = {  # they use no arena's data: the same with a server named or not
    "match play": ("--game", GAME, "--bot", RANDOM, "--bot", RANDOM, "--no-sandbox"),
}


def _commands() -> set[str]:
    """Every command ``arena --help`` leads to, each by its words (``tournament show``)."""
    found: set[str] = set()

    def walk(command: Any, words: tuple[str, ...]) -> None:
        subcommands = getattr(command, "commands", None)
        if not subcommands:
            found.add(" ".join(words))
        for name, sub in (subcommands or {}).items():
            walk(sub, (*words, name))

    walk(command_line(), ())
    return found


def test_every_command_is_on_the_server_local_only_or_uses_no_arena() -> None:
    assert _commands() == set(ON_THE_SERVER) | set(LOCAL_ONLY) | set(ANYWHERE) | \
        set(AUTHORS_ON_THE_SERVER)


def _submission(where: Path) -> Path:
    folder = where / "submitted"
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(
        f'name = "sent"\ncommand = "python bot.py"\ngames = ["{GAME}"]\n')
    (folder / "bot.py").write_text("from bots.random_bot import RandomBot\n"
                                   "from sdk.run import run\n\nrun(RandomBot)\n")
    return folder


def _arena_with_everything(db: Path) -> str:
    """Two bots, a finished tournament (1), a ladder (2), a tournament interrupted before
    its first match (3), and an author; the author's token."""
    cli("bot", "add", "random", "--command", RANDOM, db=db)
    cli("bot", "add", "other", "--command", RANDOM, db=db)
    cli("tournament", "run", "--game", GAME, "--bot", "random", "--bot", "other",
        "--players", "2", "--no-sandbox", db=db)
    cli("ladder", "start", GAME, "--bot", "random", "--bot", "other", "--players", "2",
        "--matches", "2", "--no-sandbox", db=db)
    store = Store(str(db))
    try:  # created, as `tournament run` does, and never played: no process runs it
        assert tournaments.create(store, TournamentRequest(
            game=GAME, bots=["random", "other"], players=2)).id == 3
    finally:
        store.close()
    added = cli("author", "add", "ann", db=db).stdout
    return str(re.findall(r"^[\w-]{40,}$", added, re.M)[0])


@pytest.mark.timeout(900)  # a served arena, a tournament, a ladder and thirty commands
def test_every_command_over_a_served_arena_works_there_or_refuses_and_writes_nothing(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    author = _arena_with_everything(db)
    here = {fmt: cli("tournament", "export", "1", "--format", fmt, db=db).stdout
            for fmt in ("json", "csv")}
    played = len(json.loads(here["json"])["matches"])
    ladder_here = cli("ladder", "show", GAME, db=db).stdout
    bot = _submission(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    served = Served(db, "--no-web", "--no-sandbox", "--parallel", "1")
    env = {"ARENA_REMOTE": served.address, "ARENA_REMOTE_TOKEN": OPERATOR}

    def run(command: str, *args: str, token: str = OPERATOR) -> Any:
        done = cli(*command.split(), *args, check=False, cwd=empty,
                   env={**env, "ARENA_REMOTE_TOKEN": token})
        assert list(empty.iterdir()) == [], f"`arena {command}` wrote in its folder"
        return done

    def statuses() -> dict[int, tuple[str, int]]:
        listed = json.loads(run("tournament list", "--json").stdout)["tournaments"]
        return {t["id"]: (t["status"], t["void"]) for t in listed}

    try:
        before = statuses()
        for command, method in OPERATOR_ONLY.items():
            for target in ("1", "3"):
                refused = run(command, target, token=author)
                assert refused.returncode == 1, refused.stdout
                assert refused.stderr.strip() == \
                    f"error: {method} is for the operator: author ann may not call it", \
                    refused.stderr
        assert statuses() == before  # the author voided, resumed and queued nothing
        said = {}
        for command, args in ON_THE_SERVER.items():
            done = run(command, *(a.format(bot=bot) for a in args))
            assert done.returncode == 0, f"arena {command}: {done.stdout}{done.stderr}"
            said[command] = done.stdout
        for command, args in AUTHORS_ON_THE_SERVER.items():  # the server's own refusal
            done = run(command, *args, token=author)
            assert done.returncode == 1 and done.stderr.startswith(
                "error: random@1 is not a bot of yours"), done.stderr
            alone = cli(command, *args, check=False)  # no server named: one line
            assert alone.returncode == 1 and alone.stderr.startswith(
                "error: a scrimmage is asked of a server"), alone.stderr
        for command, args in {**LOCAL_ONLY, **ANYWHERE}.items():
            done = run(command, *args)
            if command in ANYWHERE:
                assert done.returncode == 0, f"arena {command}: {done.stdout}{done.stderr}"
                continue
            assert done.returncode == 1, f"arena {command}: {done.stdout}{done.stderr}"
            named = " ".join((command, *args)) if command == "ratings" else command
            assert done.stderr.strip() == f"error: `arena {named}` works on the local " \
                f"database only (--db), not on a server: drop --arena {served.address} (or " \
                "unset ARENA_REMOTE)", done.stderr

        # ladder show: the server's ladder, as shown here (before a bot of its game came)
        assert said["ladder show"] == ladder_here
        assert said["tournament resume"] == "tournament 3 queued on the server: " \
            f"{played} of {played} matches left, which its scheduler plays\n"
        # export: the same text as here (before tournament 1 was void), in JSON and in CSV
        assert said["tournament export"] == here["json"]
        written = tmp_path / "there.csv"
        wrote = run("tournament export", "1", "--format", "csv", "--output", str(written))
        assert wrote.stdout == f"wrote {played} matches of tournament 1 to {written}\n"
        voided = here["csv"].replace(",finished,", ",void,")
        assert written.read_text() == voided != here["csv"]
        # void: every match of tournament 1 void, on the server's database
        assert said["tournament void"] == f"tournament 1 void: its {played} finished matches " \
            "no longer count; ratings rebuilt\n"
        listed = {t["id"]: t for t in json.loads(run("tournament list", "--json").stdout)
                  ["tournaments"]}
        assert listed[1]["status"] == "voided" and listed[1]["void"] == played, listed[1]
        # resume: the scheduler played what was left of tournament 3
        eventually("tournament 3 to be played to its end", lambda: json.loads(
            run("tournament show", "3", "--json").stdout)["tournament"]["status"] == "finished")
        report = json.loads(run("tournament show", "3", "--json").stdout)["tournament"]
        assert report["matches"]["finished"] == report["matches"]["total"] > 0
    finally:
        served.stop()
    store = Store(str(db))
    try:  # what the server did is in the database
        assert str(store.get_tournament(1).status) == "voided"
        assert str(store.get_tournament(3).status) == "finished"
    finally:
        store.close()
