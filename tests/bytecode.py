"""The project's modules compiled to bytecode once, before the suite starts its processes (a
plugin of ``tests/conftest.py``).

The suite starts several hundred Python processes: `arena` commands, servers, bots. Where
``PYTHONDONTWRITEBYTECODE`` is set, as on the machines CI runs on, no process writes the
bytecode it compiles, so each one compiles again every module of the project it imports:
about a fifth of a CPU second for each `arena` process. Compiling them once here, into the
usual ``__pycache__`` folders that Python reads whatever that variable says, spares that.
"""

from __future__ import annotations

import compileall
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("arena", "sdk", "bots", "leaderboard", "tests", "benchmarks")


def pytest_sessionstart(session: pytest.Session) -> None:
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller did it
        return
    for package in PACKAGES:
        if (ROOT / package).is_dir():
            compileall.compile_dir(ROOT / package, quiet=2)
