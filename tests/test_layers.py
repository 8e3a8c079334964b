"""The layer contract (``lint-imports``, in the test command) really fails on an upward import."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    lint_imports = Path(sys.executable).parent / "lint-imports"
    return subprocess.run([str(lint_imports), "--config", str(tree / "pyproject.toml"), "--no-cache"],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=120)


def _copy(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    for package in ("arena", "sdk", "bots", "leaderboard"):
        shutil.copytree(ROOT / package, tree / package,
                        ignore=shutil.ignore_patterns("__pycache__", "docs"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    assert _lint(tree).returncode == 0, "the copy keeps the contract, as the project does"
    cards = tree / "arena" / "games" / "cards.py"
    cards.write_text(cards.read_text() + "\nimport arena.storage.store  # noqa: E402\n")
    broken = _lint(tree)
    assert broken.returncode != 0
    assert "arena.games.cards -> arena.storage.store" in broken.stdout, broken.stdout


def test_the_sdk_may_not_reach_server_code(tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    bot = tree / "sdk" / "bot.py"
    bot.write_text(bot.read_text() + "\nimport arena.tournament  # noqa: E402\n")
    broken = _lint(tree)
    assert broken.returncode != 0 and "sdk.bot -> arena.tournament" in broken.stdout, broken.stdout


def test_a_view_may_not_reach_the_store(tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    view = tree / "leaderboard" / "terminal.py"
    view.write_text(view.read_text() + "\nimport arena.storage.store  # noqa: E402\n")
    broken = _lint(tree)
    assert broken.returncode != 0, broken.stdout
    assert "leaderboard.terminal -> arena.storage.store" in broken.stdout, broken.stdout
