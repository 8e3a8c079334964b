"""`arena match play`: ad-hoc matches between bot commands, nothing registered or kept."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from arena.storage.store import Store
from tests.helpers import cli

CORNER, RANDOM = "python -m bots.kings_corner", "python -m bots.random_bot --seed 3"  # deterministic


def scratch_folders() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob("arena-match-*"))


def test_ad_hoc_matches_print_the_result_and_how_to_play_the_same_deals_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the command's scratch folder in a temporary folder of this test's own: the other
    # worker's tests play ad-hoc matches too, in the machine's
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    first = cli("match", "play", "--game", "kings-corner", "--bot", CORNER, "--bot", RANDOM,
                "--deals", "2", "--seed", "5", cwd=Path.cwd()).stdout
    assert scratch_folders() == set()  # no database, no log left behind
    assert "bot1 won" in first and "bot2 won" in first and first.count("0:bot") == 4
    again = re.search(r"the same deals again: (.*)", first)
    assert again is not None and "--deals 2 --seed 5" in again.group(1)
    second = cli("match", "play", "--game", "kings-corner", "--bot", CORNER, "--bot", RANDOM,
                 "--deals", "2", "--seed", "5", "--keep", str(tmp_path / "kept")).stdout
    table = [line for line in first.splitlines() if "#" in line and ":bot" in line]
    assert table == [line for line in second.splitlines() if "#" in line and ":bot" in line]
    kept = Store(str(tmp_path / "kept" / "arena.db"))
    assert [b.command for b in kept.list_bots()] == [CORNER, RANDOM]
    assert len(kept.tournament_matches(1)) == 4  # 2 deals x 2 seat rotations


def test_ad_hoc_matches_refuse_bad_input_in_one_line(tmp_path: Path) -> None:
    for args, message in [
        (["--game", "kings-corner", "--bot", RANDOM], "give at least two --bot commands"),
        (["--game", "king", "--bot", RANDOM, "--bot", RANDOM], "king takes 4 to 4 players, not 2"),
        (["--game", "kings-corner", "--bot", RANDOM, "--bot", "no-such-program"],
         "bot command not found"),
        (["--game", "kings-corner", "--bot", RANDOM, "--bot", RANDOM, "--keep", str(tmp_path)],
         "exists already"),
    ]:
        result = cli("match", "play", *args, check=False)
        assert result.returncode == 1 and message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr and result.stderr.strip().count("\n") == 0
