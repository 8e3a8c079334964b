"""What `arena` says and does about the sandbox: which limits apply, and a machine without it."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from tests.helpers import GAME, arena, cli, finished_matches


def _three_bots(db: Path) -> list[str]:
    for name in ("a", "b", "c"):
        cli("bot", "add", name, "--command", "python -m bots.random_bot", db=db)
    return ["--game", GAME, "--players", "2", "--bot", "a", "--bot", "b", "--bot", "c",
            "--seed", "3"]


def _without_bwrap(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH has everything a run needs but bubblewrap."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(sys.executable, bin_dir / "python")
    assert shutil.which("bwrap", path=str(bin_dir)) is None
    return {"PATH": str(bin_dir)}


@pytest.mark.usefixtures("sandboxed")
def test_a_run_says_how_its_bots_are_contained(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    done = arena("tournament", "run", *_three_bots(db), "--bot-memory", "900MB",
                 "--bot-processes", "40", "--bot-cpus", "0.5", db=db)
    assert "sandbox: bubblewrap" in done.stdout and "no network" in done.stdout
    assert ("per bot: memory 900 MB, 40 processes, 0.5 CPU (cgroup v1); "
            "per process: 256 open files (rlimit)") in done.stdout
    assert finished_matches(db) == 6


def test_without_bubblewrap_managed_bots_are_refused_unless_no_sandbox(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    args = _three_bots(db)
    env = _without_bwrap(tmp_path)
    refused = arena("tournament", "run", *args, db=db, env=env, check=False)
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        "error: cannot sandbox managed bots: bubblewrap (bwrap) is not installed; install "
        "bubblewrap (scripts/install-system-packages), or pass --no-sandbox to run them "
        "uncontained"]
    assert finished_matches(db) == 0
    resumed = arena("tournament", "resume", "1", "--no-sandbox", db=db, env=env)
    assert "sandbox: off (--no-sandbox)" in resumed.stdout
    assert finished_matches(db) == 6


def test_a_bubblewrap_that_cannot_make_namespaces_is_said_so_with_its_remedy(
        tmp_path: Path) -> None:
    """bwrap installed, but the machine refuses it the namespaces (a container, a sysctl):
    the one line says why and what to change, not to install it."""
    db = tmp_path / "arena.db"
    args = _three_bots(db)
    env = _without_bwrap(tmp_path)
    refusing = Path(env["PATH"]) / "bwrap"
    refusing.write_text("#!/bin/sh\n[ \"$1\" = --version ] && echo 'bubblewrap 0.8.0' && exit 0\n"
                        "echo 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    refusing.chmod(0o755)
    refused = arena("tournament", "run", *args, db=db, env=env, check=False)
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        "error: cannot sandbox managed bots: bubblewrap cannot make namespaces here: bwrap: No "
        "permissions to create new namespace; let this user make namespaces (user namespaces "
        "may be turned off, e.g. by sysctl kernel.unprivileged_userns_clone=0 or a container's "
        "seccomp policy), or pass --no-sandbox to run them uncontained"]
    assert finished_matches(db) == 0


def test_the_demo_runs_without_bubblewrap_and_says_so(tmp_path: Path) -> None:
    done = arena("demo", "--db", str(tmp_path / "demo.db"), "--game", GAME, "--repetitions", "1",
                 env=_without_bwrap(tmp_path), timeout=300)
    assert ("sandbox unavailable (bubblewrap (bwrap) is not installed): the bundled bots, which "
            "this project wrote, run without it") in done.stdout
    # the round-robin's 12, and the search bot's set against the heuristic: 4 rotations
    assert finished_matches(tmp_path / "demo.db") == 12 + 4
