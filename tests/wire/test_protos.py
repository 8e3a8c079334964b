"""The generated code in arena/v1 is exactly what protos/ generates now."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_generated_code_matches_protos(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(ROOT / "protos" / "generate.py"), "--out", str(tmp_path)],
                   check=True, capture_output=True)
    fresh = {p.name: p.read_bytes() for p in (tmp_path / "arena" / "v1").iterdir()}
    committed = {p.name: p.read_bytes() for p in (ROOT / "arena" / "v1").iterdir()
                 if p.is_file() and p.suffix in (".py", ".pyi", ".typed")}
    assert sorted(fresh) == sorted(committed), "run: python protos/generate.py"
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert not stale, f"stale generated files {stale}: run python protos/generate.py"
