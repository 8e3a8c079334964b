"""The terminal leaderboard and match list render the store's values."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from arena.storage.store import MatchResult
from leaderboard import print_leaderboard, render_leaderboard, render_matches
from tests.helpers import migrated_store


def text_of(renderable: object) -> str:
    console = Console(record=True, width=160, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_leaderboard_and_matches_render(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "a.db")
    a = store.add_bot("ann", "x").id
    b = store.add_bot("bob", "y", version="2").id
    mid = store.create_match("g", {}, 1, [a, b])
    store.finish_match(mid, MatchResult((2.0, 1.0), (1, 2), ("", "timeout"), duration_s=0.5))
    store.create_match("g", {}, 2, [b, a])
    rows = store.leaderboard()
    out = text_of(render_leaderboard(rows, "g"))
    assert "Leaderboard — g" in out
    lines = [line for line in out.splitlines() if "@" in line]
    assert "ann@1" in lines[0] and "100%" in lines[0]
    assert "bob@2" in lines[1] and "0%" in lines[1]
    assert f"{rows[0].conservative:.2f}" in lines[0]
    matches = text_of(render_matches(store.list_matches()))
    assert "ann@1 #1 (2)" in matches and "bob@2 #2 (1) timeout" in matches
    assert "pending" in matches and "finished" in matches and "0.5s" in matches

    console = Console(record=True, width=160, color_system=None)
    print_leaderboard(console, [])
    assert "no rated matches yet" in console.export_text()
