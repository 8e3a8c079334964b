"""docs/training.md, every command at a small scale: the heuristic bot's decisions recorded by a
real tournament and exported, a policy trained on them and by self-play, the submission folder
it writes submitted, and the trained bot playing sandboxed matches without a fault."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

from arena.storage.store import Fault, MatchStatus, Store
from tests.helpers import arena

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "training.md"
SMALL = {  # what the page runs at full scale, and what this test runs instead
    "--repetitions 250": "--repetitions 3",
    "train.py data trained": "train.py data trained --selfplay 40 --rounds 2 --epochs 2 --deals 4",
    "--sprt elo0=0,elo1=100": "--sets 2",
    "--sets 200": "--sets 2",
}


def _commands() -> list[str]:
    """The page's commands, in order (but the install), at the small scale."""
    text = DOC.read_text(encoding="utf-8")
    for full in SMALL:
        assert full in text, f"docs/training.md no longer says {full!r}: update SMALL"
    lines = [line.strip() for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M)
             for line in block.splitlines() if line.strip()]
    assert lines[0].startswith("pip install") and not any("pip" in c for c in lines[1:])
    small = []
    for line in lines[1:]:
        for full, reduced in SMALL.items():
            line = line.replace(full, reduced)
        small.append(line)
    return small


def test_the_training_page_trains_submits_and_plays_a_bot(tmp_path: Path) -> None:
    said: dict[str, str] = {}
    for command in _commands():
        words = shlex.split(command)
        if words[0] == "python":  # the example, from the repository, in this folder
            done = subprocess.run([sys.executable, str(ROOT / words[1]), *words[2:]],
                                  cwd=tmp_path, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, done.stdout + done.stderr
        else:
            assert words[0] == "arena", command
            done = arena(*words[1:], cwd=tmp_path, timeout=600)
        said[command] = done.stdout

    trained = tmp_path / "trained"
    assert sorted(p.name for p in trained.iterdir()) == \
        ["arena-bot.toml", "bot.py", "policy.npz", "policy.py"]
    manifest = tomllib.loads((trained / "arena-bot.toml").read_text())
    assert manifest == {"name": "trained", "command": "python bot.py",
                        "games": ["serial-killer"]}
    training = next(out for command, out in said.items() if "train.py" in command)
    assert re.search(r"imitation: [\d,]+ decisions of serial-killer at 3 seats", training)
    assert re.search(r"picks the dataset's action in [\d.]+% of them", training)
    assert re.search(r"self-play round 2: 40 decisions tried two ways, \d+ where one action "
                     r"did better", training), training
    assert "self-play: against the imitation policy, the improved one's mean rank" in training
    assert next(out for command, out in said.items() if "bot submit" in command).startswith(
        "submitted trained@")

    with Store(str(tmp_path / "arena.db")) as store:
        trained_id = store.get_bot("trained").id
        for tid in (2, 3):  # the two versus: every match played, the trained bot never faults
            matches = store.list_matches(tid, 100)
            assert len(matches) == 2 * 3, tid
            assert all(m.status is MatchStatus.FINISHED for m in matches)
            seats = [s for m in matches for s in m.seats if s.bot_id == trained_id]
            assert len(seats) == 6 and all(s.fault is Fault.NONE for s in seats), seats
    shown = next(out for command, out in said.items() if "tournament show 3" in command)
    assert re.search(r"sets: 2 complete, trained@\w+ against serial-killer-bot@1: "
                     r"W \d, D \d, L \d", shown), shown
