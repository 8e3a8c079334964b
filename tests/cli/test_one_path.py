"""The command line is one code path over one interface, locally and with ``--arena``: the
commands that a server answers do the same there as here, and the local-only ones refuse
``--arena`` (or ARENA_REMOTE) in one line, before they open or create a database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.served import OPERATOR, Served, remote

LOCAL_ONLY = [  # the command, and its arguments
    ("bot add", ("someone", "--command", "python -m bots.random_bot")),
    ("bot token", ("someone",)),
    ("bot remove", ("someone",)),
    ("author add", ("ann",)),
    ("author token", ("ann",)),
    ("author list", ()),
    ("tournament run", ("--game", "kill", "--bot", "random", "--bot", "random")),
    ("ladder start", ("kill",)),
    ("compare", ("a", "b", "--game", "kill")),
    ("ratings rebuild", ()),
    ("match list", ()),
    ("match show", ("1",)),
    ("match graph", ("1",)),
    ("dataset export", ("dataset",)),
    ("web", ()),
    ("serve", ()),
    ("demo", ()),
]


@pytest.mark.parametrize(("command", "args"), LOCAL_ONLY, ids=[c for c, _ in LOCAL_ONLY])
def test_a_local_only_command_refuses_a_server_in_one_line_and_writes_nothing(
        tmp_path: Path, command: str, args: tuple[str, ...]) -> None:
    env = {"ARENA_REMOTE": "127.0.0.1:9", "ARENA_REMOTE_TOKEN": "t"}
    refused = cli(*command.split(), *args, check=False, cwd=tmp_path, env=env)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    line = refused.stderr.strip()
    assert "\n" not in line and "Traceback" not in refused.stderr
    assert f"`arena {command}` works on the local database only" in line, line
    assert "ARENA_REMOTE" in line
    assert list(tmp_path.iterdir()) == [], "a local-only command refused wrote nothing"


def test_bot_add_with_arena_remote_set_creates_no_database(tmp_path: Path) -> None:
    refused = cli("bot", "add", "mine", "--command", "python -m bots.random_bot",
                  check=False, cwd=tmp_path, env={"ARENA_REMOTE": "127.0.0.1:9"})
    assert refused.returncode == 1
    assert not (tmp_path / "arena.db").exists()


@pytest.mark.timeout(900)  # a served arena and eight commands, on a loaded machine
def test_bots_logs_and_cancel_answer_alike_here_and_on_a_server(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    cli("bot", "add", "other", "--command", "python -m bots.random_bot", db=db)
    queued = json.loads(cli("tournament", "create", "--game", "kill", "--bot", "random",
                            "--bot", "other", "--json", db=db).stdout)["tournament"]
    here_bots = json.loads(cli("bot", "list", "--json", db=db).stdout)["bots"]
    here_log = cli("bot", "log", "random", db=db).stdout
    served = Served(db, "--no-web", "--no-sandbox", "--parallel", "1")
    try:
        there_bots = json.loads(remote(served, OPERATOR, "bot", "list", "--json").stdout)["bots"]
        assert [(b["name"], b["version"], b["command"]) for b in there_bots] == \
            [(b["name"], b["version"], b["command"]) for b in here_bots]
        there_log = remote(served, OPERATOR, "bot", "log", "random").stdout
        assert there_log.splitlines()[0].startswith(("random@1 has no log yet", "--- random@1"))
        assert here_log.splitlines()[0].startswith(("random@1 has no log yet", "--- random@1"))
        cancelled = remote(served, OPERATOR, "tournament", "cancel", str(queued["id"]))
        assert cancelled.stdout.startswith(f"tournament {queued['id']} cancelled: ")
        unknown = remote(served, OPERATOR, "tournament", "cancel", "999", check=False)
        assert unknown.returncode == 1 and "no tournament" in unknown.stderr, unknown.stderr
    finally:
        served.stop()
    again = cli("tournament", "cancel", "999", db=db, check=False)
    assert again.returncode == 1 and "no tournament" in again.stderr, again.stderr
