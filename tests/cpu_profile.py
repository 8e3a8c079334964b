"""Where the suite's CPU goes: a pytest plugin that writes, for every test, its wall time and
the CPU time of the pytest process and of the child processes it reaped while the test ran
(the ``arena`` commands, servers and bots a test starts and waits for), one JSON object a
line::

    python -m pytest -n 2 -p tests.cpu_profile      # to cpu-profile.jsonl (or $CPU_PROFILE)
    python -m tests.cpu_profile cpu-profile.jsonl   # the files that cost the most CPU

A process a test leaves to someone else to reap (a grandchild whose parent is gone) is not
counted: the figures are a floor. Under ``-n`` every worker appends to the same file.
"""

from __future__ import annotations

import collections
import json
import os
import resource
import sys
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

OUT = Path(os.environ.get("CPU_PROFILE", "cpu-profile.jsonl"))


def _now() -> tuple[float, float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (time.monotonic(), own.ru_utime + own.ru_stime,
            reaped.ru_utime + reaped.ru_stime)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[
        None, Any, None]:
    wall, own, reaped = _now()
    yield
    wall_after, own_after, reaped_after = _now()
    with OUT.open("a", encoding="utf-8") as file:
        file.write(json.dumps({"id": item.nodeid, "wall": wall_after - wall,
                               "self": own_after - own, "children": reaped_after - reaped})
                   + "\n")


def summary(path: Path, top: int = 30) -> str:
    """The files of the suite by CPU spent, most first, with their summed wall time."""
    by_file: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for line in path.read_text(encoding="utf-8").splitlines():
        test = json.loads(line)
        row = by_file[test["id"].split("::")[0]]
        row[0] += test["self"]
        row[1] += test["children"]
        row[2] += test["wall"]
        row[3] += 1
    total = [sum(row[i] for row in by_file.values()) for i in range(4)]
    lines = [f"{total[3]:.0f} tests: {total[0] + total[1]:,.0f} CPU s ({total[0]:,.0f} in "
             f"pytest, {total[1]:,.0f} in children), {total[2]:,.0f} s of summed wall time",
             f"{'CPU s':>8} {'wall s':>8} {'tests':>5}  file"]
    for name, (own, reaped, wall, tests) in sorted(
            by_file.items(), key=lambda item: -(item[1][0] + item[1][1]))[:top]:
        lines.append(f"{own + reaped:8.1f} {wall:8.1f} {tests:5.0f}  {name}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(Path(sys.argv[1] if len(sys.argv) > 1 else OUT)))
