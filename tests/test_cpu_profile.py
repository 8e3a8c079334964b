"""The suite's CPU profile (tests/cpu_profile.py) sums each file's tests, most CPU first."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cpu_profile import summary


def test_the_summary_sums_each_files_tests_most_cpu_first(tmp_path: Path) -> None:
    profile = tmp_path / "cpu.jsonl"
    tests = [("tests/a.py::one", 1.0, 0.5, 3.0), ("tests/b.py::two", 0.25, 4.0, 9.0),
             ("tests/a.py::three", 0.5, 0.0, 1.0)]
    profile.write_text("".join(json.dumps({"id": i, "self": s, "children": c, "wall": w}) + "\n"
                               for i, s, c, w in tests))
    assert summary(profile).splitlines() == [
        "3 tests: 6 CPU s (2 in pytest, 4 in children), 13 s of summed wall time",
        "   CPU s   wall s tests  file",
        "     4.2      9.0     1  tests/b.py",
        "     2.0      4.0     2  tests/a.py"]
