"""The smaller untruths: a submitted version listed as what it is, and a bot entered only
in a game its manifest says it plays (a tournament, a ladder: refused in one line, nothing
written)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.storage.store import Store
from tests.helpers import cli

MANIFEST = 'name = "killer"\ncommand = "python bot.py"\ngames = ["kill"]\n'
BOT = "from bots.random_bot import RandomBot\nfrom sdk.run import run\n\nrun(RandomBot)\n"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database with a managed bot, and a version submitted for Kill alone."""
    db = tmp_path / "arena.db"
    folder = tmp_path / "killer"
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(MANIFEST)
    (folder / "bot.py").write_text(BOT)
    cli("bot", "submit", str(folder), "--label", "v1", db=db)
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    return db


def test_bot_list_names_a_submitted_version_as_submitted_as_its_json_does(db: Path) -> None:
    kinds = {b["bot"]: b["kind"] for b in json.loads(
        cli("bot", "list", "--json", db=db).stdout)["bots"]}
    assert kinds == {"killer@v1": "submitted", "random@1": "managed"}
    table = cli("bot", "list", db=db).stdout
    rows = {line.split("│")[2].strip(): line.split("│")[3].strip()
            for line in table.splitlines() if line.count("│") > 4 and "@" in line}
    assert rows == kinds


@pytest.mark.parametrize("command", [
    ("ladder", "start", "kings-corner", "--bot", "killer", "--matches", "1"),
    ("tournament", "run", "--game", "kings-corner", "--bot", "killer", "--bot", "random"),
    ("tournament", "create", "--game", "kings-corner", "--bot", "killer", "--bot", "random"),
    ("tournament", "run", "--game", "kings-corner", "--format", "gauntlet", "--bot", "random",
     "--field", "killer"),
])
def test_a_bot_is_refused_a_game_its_manifest_does_not_name(db: Path,
                                                            command: tuple[str, ...]) -> None:
    refused = cli(*command, db=db, check=False)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.strip() == ("error: killer@v1 does not play kings-corner (its "
                                      "manifest names kill)")
    assert Store(str(db)).list_tournaments() == []  # nothing written


def test_a_ladder_still_enters_a_bot_registered_without_games_in_any_game(db: Path) -> None:
    cli("bot", "add", "other", "--command", "python -m bots.random_bot", db=db)
    done = cli("ladder", "start", "kings-corner", "--players", "2", "--bot", "random",
               "--bot", "other", "--matches", "1", db=db)
    played = {s.bot for m in Store(str(db)).list_matches(None, 10) for s in m.seats}
    assert played == {"random@1", "other@1"}, done.stdout


def test_match_play_refuses_the_bot_of_its_folder_a_game_its_manifest_does_not_name(
        tmp_path: Path) -> None:
    folder = tmp_path / "killer"
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(MANIFEST)
    (folder / "bot.py").write_text(BOT)
    refused = cli("match", "play", "--game", "kings-corner", "--bot", "python bot.py", "--bot",
                  "python -m bots.random_bot", cwd=folder, check=False)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.strip() == ("error: the bot of this folder (python bot.py) does not "
                                      "play kings-corner (its arena-bot.toml names kill)")
    assert sorted(p.name for p in folder.iterdir()) == ["arena-bot.toml", "bot.py"]
    # the game it names, it plays
    played = cli("match", "play", "--game", "kill", "--bot", "python bot.py", "--bot",
                 "python -m bots.random_bot", "--bot", "python -m bots.random_bot", cwd=folder)
    assert "the same deals again" in played.stdout
