"""A build held to its limits: the figures of the attacks that once went through, now.

Each hostile "build" is a Python program run the way pip is run at a submission
(:func:`arena.players.buildbox.run_build`: the build sandbox without network, its control
groups, its wall-clock cap, its size-capped tmpfs), with the default limits:

* a fork bomb: the processes it made before ``fork`` was refused (the attack made 301);
* a memory hog: the most it held before the kernel killed it (the attack held 3 GiB);
* a disk filler: what it wrote before its tmpfs was full, and what was left on the server's
  disk after (the attack left a 1 GiB file for good);
* a build that never ends, with a 5 s cap (the default is 300 s): when it was stopped;
* a real build: a vendored wheel downloaded by the arena and installed offline.

The hostile programs, :func:`contained` and the hand-made :func:`wheel` are those of the
tests (``tests/players/test_builds.py``): what is measured here is what they assert.
"""

from __future__ import annotations

import base64
import hashlib
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from arena.players import buildbox, builds, cgroups
from arena.players.submissions import BuildError
from benchmarks.common import Row

FORK_BOMB = '''
import os, sys, time
made = 0
try:
    for _ in range(2000):
        if os.fork() == 0:
            time.sleep(3600)
            os._exit(0)
        made += 1
except OSError as err:
    print("fork refused after", made, err.strerror, file=sys.stderr, flush=True)
    sys.exit(1)
print("made", made, file=sys.stderr)
'''
HOG = '''
import sys
chunks = []
for i in range(64):
    chunks.append(bytearray(64 * 2**20))  # 4 GiB in all, every page touched
    print("held MiB", (i + 1) * 64, file=sys.stderr, flush=True)
'''
DISK_FILL = '''
import sys
written = 0
try:
    with open("{build}/deps/big", "wb") as out:
        for _ in range(1024):  # 1 GiB
            out.write(b"x" * 2**20)
            out.flush()
            written += 1
except OSError as err:
    print("refused after MiB", written, err.strerror, file=sys.stderr)
    sys.exit(1)
print("wrote all MiB", written, file=sys.stderr)
'''
FOREVER = "import time; time.sleep(3600)"


def contained(folder: Path, program: str, limits: buildbox.BuildLimits,
              *args: str) -> tuple[str, BuildError | None, buildbox.BuildOutcome | None]:
    """``program`` run as a build (the way pip is run) in ``folder`` (made if need be; its log
    ``build.log``, its output ``out``), with ``limits``: its log, the refusal if any, and what
    it used."""
    folder.mkdir(exist_ok=True)
    with (folder / "build.log").open("wb") as file:
        log = buildbox.Log(file)
        try:
            outcome = buildbox.run_build([sys.executable, "-c", program, *args], folder,
                                         folder / "out", log, time.monotonic() + limits.wall_s,
                                         limits)
        except BuildError as err:
            return log.text(), err, None
    return log.text(), None, outcome


def _run(folder: Path, program: str, limits: buildbox.BuildLimits) -> tuple[str, float, str]:
    """(its log, its seconds, why it was refused or "")."""
    began = time.perf_counter()
    log, refused, _ = contained(folder, program, limits)
    return log, time.perf_counter() - began, str(refused or "")


def _last(log: str, *said: str) -> int:
    """The largest number logged right after any of ``said`` (0: none)."""
    found = [int(line[len(words):].split()[0]) for line in log.splitlines()
             for words in said if line.startswith(words + " ")]
    return max(found, default=0)


def _disk(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and
               p.name != "build.log")


def wheel(folder: Path, name: str, source: str, metadata: str = "") -> Path:
    """A pure-Python wheel of ``name`` made by hand (no build, no network): its module is
    ``source``; ``metadata``: more lines of its METADATA (``Requires-Dist: ...``)."""
    info = f"{name}-1.0.dist-info"
    files = {f"{name}/__init__.py": source.encode(),
             f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n{metadata}"
                                 .encode(),
             f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\n"
                              b"Tag: py3-none-any\n"}
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    made = folder / f"{name}-1.0-py3-none-any.whl"
    with zipfile.ZipFile(made, "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)
    return made


def run(quick: bool) -> list[Row]:
    defaults = buildbox.BuildLimits()
    controllers = cgroups.detect().controllers
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="arena-bench-builds-") as tmp:
        root = Path(tmp)
        if "pids" in controllers:
            log, took, _ = _run(root / "forks", FORK_BOMB, defaults)
            made = _last(log, "fork refused after", "made")
            rows.append(Row("builds", "fork bomb: processes made before fork was refused",
                            made, "processes", "the attack, unlimited", 301,
                            target=f"< {defaults.tasks} (the build's tasks)",
                            met=made < defaults.tasks,
                            note=f"stopped and cleaned up in {took:.1f} s"))
        if "memory" in controllers:
            log, took, why = _run(root / "hog", HOG, defaults)
            held = _last(log, "held MiB")
            rows.append(Row("builds", "memory hog: MiB held before the kernel killed it", held,
                            "MiB", "the attack, unlimited", 3 * 1024,
                            target=f"< {defaults.memory_mb} MiB", met=held < defaults.memory_mb
                            and "memory" in why, note=why))
        log, took, why = _run(root / "fill", DISK_FILL, defaults)
        left = _disk(root / "fill")
        wrote = _last(log, "refused after MiB", "wrote all MiB")
        rows.append(Row("builds", "disk filler: MiB written before its tmpfs was full",
                        wrote, "MiB", "the attack, left on disk for good", 1024,
                        target=f"<= {defaults.output_mb} MiB, 0 left",
                        met=wrote <= defaults.output_mb and left == 0,
                        note=f"{left} bytes left on the server's disk after"))
        capped = buildbox.BuildLimits(wall_s=5)
        _, took, why = _run(root / "forever", FOREVER, capped)
        rows.append(Row("builds", "a build that never ends: stopped after", took, "s",
                        "its wall-clock cap (default 300 s)", capped.wall_s,
                        took / capped.wall_s, note=why))
        code = root / "code"
        code.mkdir()
        vendored = wheel(code, "tinydep", "VALUE = 1\n")
        (code / "requirements.txt").write_text(f"./{vendored.name}\n")
        (root / "version").mkdir()
        took = builds.build(code, "requirements.txt", root / "version" / "deps",
                            root / "version" / "build.log")
        rows.append(Row("builds", "a vendored wheel: downloaded by the arena, installed offline",
                        took, "s", note="pip download on the host, then pip install --no-index "
                                        "in the build sandbox without network, in its cgroups"))
    return rows


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
