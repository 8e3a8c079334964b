"""(12) Submitting a bot with one small dependency: ``arena bot submit`` as a user runs it.

The wall time of the whole command (a new process, the archive checked and kept, the
requirement's wheel downloaded by the arena and installed offline in the build sandbox,
the version registered), with one
requirement from the package index (``six``, one small pure-Python wheel; skipped when the
index cannot be reached), against a bot without requirements; and a second submission of
the same code, a no-op.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from benchmarks.common import Row

MANIFEST = ('name = "NAME"\ncommand = "python bot.py"\ngames = ["kill"]\n'
            'requirements = "requirements.txt"\n')
BOT = "from bots.random_bot import RandomBot\nfrom sdk.run import run\nrun(RandomBot)\n"


def _folder(root: Path, name: str, requirement: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(MANIFEST.replace("NAME", name))
    (folder / "bot.py").write_text(BOT)
    (folder / "requirements.txt").write_text(requirement + "\n")
    return folder


def _submit(folder: Path, db: Path) -> float:
    began = time.perf_counter()
    subprocess.run([sys.executable, "-m", "arena", "bot", "submit", str(folder), "--db", str(db)],
                   check=True, capture_output=True, timeout=600)
    return time.perf_counter() - began


def _index_reachable() -> bool:
    try:
        with urllib.request.urlopen("https://pypi.org/simple/six/", timeout=5):
            return True
    except OSError:
        return False


def run(quick: bool) -> list[Row]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="arena-bench-submit-") as tmp:
        root = Path(tmp)
        db = root / "arena.db"
        plain = _folder(root, "plain", "")
        (plain / "requirements.txt").unlink()
        (plain / "arena-bot.toml").write_text(MANIFEST.replace("NAME", "plain").replace(
            'requirements = "requirements.txt"\n', ""))
        floor = _submit(plain, db)
        if not _index_reachable():
            return [Row("12 submit", "submit a bot with one package from the index (six)",
                        float("nan"), "s", note="skipped: the package index is unreachable")]
        indexed = _folder(root, "indexed", "six==1.16.0")
        took = _submit(indexed, db)
        again = _submit(indexed, db)
        rows.append(Row("12 submit", "submit a bot with one package from the index (six)", took,
                        "s", "no requirements", floor, took / floor,
                        note=f"the arena's pip downloads its wheel, then installs it offline in "
                             f"the build sandbox (no network); the same code again, a no-op: "
                             f"{again:.2f} s; a bot "
                             f"without requirements: {floor:.2f} s"))
    return rows


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
