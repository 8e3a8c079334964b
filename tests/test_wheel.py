"""The wheel ships the arena, the SDK, the bundled bots and the web app, and nothing of the
checkout's own tools: no benchmarks, no scripts (the screenshots), no tests. The wheel is built
for real (``pip wheel``, offline: no build isolation) from a copy of the checkout's files that
git does not ignore (setuptools would reuse a stale ``build/`` folder of the checkout) and its
files are listed."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = {"arena", "sdk", "bots", "leaderboard"}


def _copy_of_the_checkout(to: Path) -> Path:
    tracked = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=ROOT, check=True, capture_output=True, timeout=60)
    for name in filter(None, tracked.stdout.decode().split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted in the work tree is left out
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)
    return to


def test_the_wheel_holds_the_packages_and_no_tool_of_the_checkout(tmp_path: Path) -> None:
    source = _copy_of_the_checkout(tmp_path / "source")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps",
                    "--no-build-isolation", "--quiet", "-w", str(tmp_path / "out")],
                   check=True, capture_output=True, timeout=600)
    [wheel] = (tmp_path / "out").glob("card_arena-*.whl")
    with zipfile.ZipFile(wheel) as opened:
        names = opened.namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops - SHIPPED == {next(t for t in tops if t.endswith(".dist-info"))}, sorted(tops)
    assert not [n for n in names if "screenshot" in n or "benchmark" in n
                or n.split("/")[0] in ("tests", "scripts", "protos")]
    for wanted in ("arena/__main__.py", "arena/storage/alembic.ini",
                   "arena/storage/migrations/versions/0010_fault_reasons.py",
                   "arena/storage/migrations/script.py.mako", "arena/v1/arena_pb2.pyi",
                   "arena/wire/tokens.py", "sdk/run.py", "leaderboard/web/app.py"):
        assert wanted in names, wanted
    assert any(n.startswith("leaderboard/web/templates/") for n in names)
    shipped_py = {n for n in names if n.endswith(".py")}
    in_checkout = {p.relative_to(source).as_posix() for package in SHIPPED
                   for p in (source / package).rglob("*.py")}
    assert in_checkout - shipped_py == set()  # every module of the packages, and no other
    assert shipped_py - in_checkout == set()
