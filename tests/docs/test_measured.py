"""Every recorded benchmark run (``benchmarks/measured/``) is quoted somewhere, and every one
quoted exists: a record nothing cites goes, a citation of nothing is a broken figure."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEASURED = ROOT / "benchmarks" / "measured"
DOCUMENTS = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
CITED = re.compile(r"(\d{4}-\d{2}-\d{2})-([\w-]+?)\.json|`-([\w-]+?)\.json`")


def cited() -> set[str]:
    """The file names cited: in full (``2026-11-24-web.json``), or as a suffix of the one
    named just before on the same line (``-ladder.json``)."""
    names: set[str] = set()
    for document in DOCUMENTS:
        for line in document.read_text().splitlines():
            date = None
            for match in CITED.finditer(line):
                if match.group(1):
                    date = match.group(1)
                    names.add(f"{date}-{match.group(2)}.json")
                elif date is not None:
                    names.add(f"{date}-{match.group(3)}.json")
    return names


def test_every_recorded_run_is_cited_and_every_cited_one_is_recorded() -> None:
    recorded = {path.name for path in MEASURED.glob("*.json")}
    assert recorded, "no recorded runs found"
    assert recorded - cited() == set(), "recorded runs no document quotes"
    assert cited() - recorded == set(), "documents quote runs that are not recorded"
