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
"""

from __future__ import annotations

import sys
import tempfile
import time
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
except OSError:
    pass
print("made", made, file=sys.stderr, flush=True)
sys.exit(1)
'''
HOG = '''
import sys
chunks = []
for i in range(64):
    chunks.append(bytearray(64 * 2**20))
    print("held", (i + 1) * 64, file=sys.stderr, flush=True)
'''
DISK_FILL = '''
import sys
written = 0
try:
    with open("{build}/deps/big", "wb") as out:
        for _ in range(1024):
            out.write(b"x" * 2**20)
            out.flush()
            written += 1
except OSError:
    pass
print("wrote", written, file=sys.stderr, flush=True)
sys.exit(1)
'''
FOREVER = "import time; time.sleep(3600)"


def _run(folder: Path, program: str, limits: buildbox.BuildLimits) -> tuple[str, float, str]:
    """(its log, its seconds, why it was refused or "")."""
    folder.mkdir()
    began = time.perf_counter()
    with (folder / "build.log").open("wb") as file:
        log = buildbox.Log(file)
        try:
            buildbox.run_build([sys.executable, "-c", program], folder, folder / "out", log,
                               time.monotonic() + limits.wall_s, limits)
            why = ""
        except BuildError as err:
            why = str(err)
    return log.text(), time.perf_counter() - began, why


def _last(log: str, word: str) -> int:
    found = [int(line.split()[1]) for line in log.splitlines() if line.startswith(word + " ")]
    return max(found) if found else 0


def _disk(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and
               p.name != "build.log")


def _wheel(folder: Path) -> Path:
    import base64
    import hashlib
    import zipfile
    files = {"tinydep/__init__.py": b"VALUE = 1\n",
             "tinydep-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: tinydep\n"
                                               b"Version: 1.0\n",
             "tinydep-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: hand\n"
                                            b"Root-Is-Purelib: true\nTag: py3-none-any\n"}
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    files["tinydep-1.0.dist-info/RECORD"] = ("\n".join([*record, "tinydep-1.0.dist-info/RECORD,,"])
                                             + "\n").encode()
    made = folder / "tinydep-1.0-py3-none-any.whl"
    with zipfile.ZipFile(made, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return made


def run(quick: bool) -> list[Row]:
    defaults = buildbox.BuildLimits()
    controllers = cgroups.detect().controllers
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="arena-bench-builds-") as tmp:
        root = Path(tmp)
        if "pids" in controllers:
            log, took, _ = _run(root / "forks", FORK_BOMB, defaults)
            rows.append(Row("builds", "fork bomb: processes made before fork was refused",
                            _last(log, "made"), "processes", "the attack, unlimited", 301,
                            target=f"< {defaults.tasks} (the build's tasks)",
                            met=_last(log, "made") < defaults.tasks,
                            note=f"stopped and cleaned up in {took:.1f} s"))
        if "memory" in controllers:
            log, took, why = _run(root / "hog", HOG, defaults)
            held = _last(log, "held")
            rows.append(Row("builds", "memory hog: MiB held before the kernel killed it", held,
                            "MiB", "the attack, unlimited", 3 * 1024,
                            target=f"< {defaults.memory_mb} MiB", met=held < defaults.memory_mb
                            and "memory" in why, note=why))
        log, took, why = _run(root / "fill", DISK_FILL, defaults)
        left = _disk(root / "fill")
        rows.append(Row("builds", "disk filler: MiB written before its tmpfs was full",
                        _last(log, "wrote"), "MiB", "the attack, left on disk for good", 1024,
                        target=f"<= {defaults.output_mb} MiB, 0 left",
                        met=_last(log, "wrote") <= defaults.output_mb and left == 0,
                        note=f"{left} bytes left on the server's disk after"))
        capped = buildbox.BuildLimits(wall_s=5)
        _, took, why = _run(root / "forever", FOREVER, capped)
        rows.append(Row("builds", "a build that never ends: stopped after", took, "s",
                        "its wall-clock cap (default 300 s)", capped.wall_s,
                        took / capped.wall_s, note=why))
        code = root / "code"
        code.mkdir()
        (code / "requirements.txt").write_text(f"./{_wheel(code).name}\n")
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
