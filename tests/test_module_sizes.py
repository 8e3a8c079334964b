"""Small modules: none of the arena, the SDK, the bundled bots or the web app is over
:data:`MAX_LINES` lines, but the games' rules (one module per game) and the generated code."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 600
EXEMPT = ("arena/games/", "arena/v1/")


def _lengths() -> dict[str, int]:
    found = {}
    for package in ("arena", "sdk", "bots", "leaderboard"):
        for path in (ROOT / package).rglob("*.py"):
            name = path.relative_to(ROOT).as_posix()
            if not name.startswith(EXEMPT):
                found[name] = len(path.read_text().splitlines())
    return found


def test_no_module_is_over_600_lines_but_the_games_and_the_generated_code() -> None:
    lengths = _lengths()
    assert len(lengths) > 100
    over = {name: n for name, n in lengths.items() if n > MAX_LINES}
    assert over == {}
    assert lengths["arena/players/submissions.py"] <= MAX_LINES
