"""A new version's validation on a real ``arena serve``: an author submits over gRPC, the
version plays its unrated validation in its sandbox, and only a version without a fault is
accepted; a broken one is refused with its fault and the end of its log, and nothing of it is
kept."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.app.validation import NOT_VALIDATED, VALIDATED, ValidationRules
from arena.players.submissions import SUBMITTED_DIR
from arena.storage.store import Store
from tests.helpers import cli, eventually
from tests.served import Served, remote

pytestmark = pytest.mark.usefixtures("sandboxed")

GAME = "face-card-kill-card"
BOT = '''
import sys
from bots.random_bot import RandomBot
from sdk.run import run

print("KIND version starting", flush=True)

class Bot(RandomBot):
    def act(self, observation, legal_actions):
        if "KIND" == "broken":
            raise RuntimeError("this version is broken")
        return super().act(observation, legal_actions)

run(Bot)
'''


def _folder(tmp: Path, name: str, kind: str) -> Path:
    folder = tmp / f"{name}-{kind}"
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(
        f'name = "{name}"\ncommand = "python bot.py"\ngames = ["{GAME}"]\n')
    (folder / "bot.py").write_text(BOT.replace("KIND", kind))
    return folder


def test_the_rules_pick_the_games_a_version_is_validated_in() -> None:
    assert VALIDATED.games_of(["kill", "king"]) == ["kill", "king"]
    assert NOT_VALIDATED.games_of(["kill", "king"]) == []
    assert ValidationRules(games=("king", "knives")).games_of(["kill", "king"]) == ["king"]


def test_a_version_that_faults_in_its_validation_is_refused_and_a_sound_one_accepted(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    token = cli("author", "add", "ann", db=db).stdout.splitlines()[2].strip()
    served = Served(db, "--no-web", validation=True)
    try:
        began = time.monotonic()
        sound = remote(served, token, "bot", "submit", str(_folder(tmp_path, "ann-bot", "sound")),
                       "--json")
        took = time.monotonic() - began
        assert json.loads(sound.stdout)["submission"]["bot"].startswith("ann-bot@")
        broken = _folder(tmp_path, "ann-bot", "broken")
        refused = remote(served, token, "bot", "submit", str(broken), check=False)
        assert refused.returncode == 1
        line = refused.stderr.strip().splitlines()[-1]
        assert line.startswith("error: submission of ann-bot refused: the new version of ann-bot "
                               f"faulted in its validation match of {GAME} against copies of "
                               "itself: error (RuntimeError: this version is broken)"), line
        assert line.endswith("(the end of its log is above)")
        assert "broken version starting" in refused.stdout  # the end of its log, for its author
        dead = _folder(tmp_path, "ann-bot", "dead")
        (dead / "bot.py").write_text('print("dead version starting", flush=True)\nraise SystemExit(3)\n')
        refused = remote(served, token, "bot", "submit", str(dead), check=False)
        assert refused.returncode == 1 and refused.stderr.strip().splitlines()[-1] == \
            "error: submission of ann-bot refused: the new version of ann-bot did not start for " \
            "its validation (the end of its log is above)"
        assert "dead version starting" in refused.stdout
        kept = sorted(p.name for p in (tmp_path / "arena-data" / SUBMITTED_DIR).iterdir())
        assert len(kept) == 1  # the sound version's code; the refused ones' are gone
        listed = json.loads(remote(served, token, "bot", "list", "--json").stdout)["bots"]
    finally:
        served.stop()
    assert [b["version"] for b in listed if b["name"] == "ann-bot"] == \
        [json.loads(sound.stdout)["submission"]["bot"].split("@")[1]]  # the broken one: not kept
    store = Store(str(db))
    assert store.list_tournaments() == [] and store.list_matches(limit=10) == []  # unrated
    assert store.get_bot("ann-bot").validated == (GAME,)  # what its validation played, kept
    store.close()
    print(f"a sound version's submission with its validation: {took:.1f} s")


GATED = '''
import os
import time

while not os.path.exists("release"):  # the test lets it start once it has tried a second one
    time.sleep(0.05)
''' + BOT.replace("KIND", "gated")


def test_an_author_has_one_submission_under_way_until_its_validation_ends(tmp_path: Path) -> None:
    """A second submission while the first one's validation plays is refused: an author
    cannot run validations (bot processes) side by side."""
    db = tmp_path / "arena.db"
    token = cli("author", "add", "ann", db=db).stdout.splitlines()[2].strip()
    gated = _folder(tmp_path, "ann-bot", "gated")
    (gated / "bot.py").write_text(GATED)
    served = Served(db, "--no-web", validation=True)
    try:
        first = subprocess.Popen(
            [sys.executable, "-m", "arena", "bot", "submit", str(gated), "--json", "--arena",
             served.address, "--token", token], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        data = tmp_path / "arena-data"
        eventually("its validation to start", lambda: list(data.glob("validation-*")))
        second = remote(served, token, "bot", "submit",
                        str(_folder(tmp_path, "ann-other", "sound")), check=False)
        assert second.returncode == 1 and "a submission of yours is under way" in second.stderr
        code = eventually("its code installed", lambda: next(
            (p.parent for p in (data / SUBMITTED_DIR).rglob("bot.py")
             if "the test lets it start" in p.read_text()), None))
        (code / "release").touch()
        out, err = first.communicate(timeout=180)
        assert first.returncode == 0, err
        assert json.loads(out)["submission"]["bot"].startswith("ann-bot@")
    finally:
        served.stop()
