"""The win-probability graph under the replay, in a real browser (Playwright driving Debian's
Chromium, as test_browser.py does) over a real match played through the real referee and
served by a real web server: the chart is drawn under the replay once the graph is computed,
one line per seat with its bot in the legend, and clicking a marked swing shows the replay at
that step.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from arena.app import graphs
from arena.games import get_game
from arena.storage.store import Store
from tests.helpers import migrated_store
from tests.web.replay_fixtures import Server, store_played_match
from tests.web.test_browser import CHROMIUM, page, playwright  # noqa: F401  (the browser, reused)
from tests.web.test_replay_views_browser import apart

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="no Chromium at /usr/bin/chromium: scripts/install-system-packages --tests installs it")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with migrated_store(tmp_path / "arena.db") as opened:
        yield opened


def test_the_graph_is_drawn_under_the_replay_and_a_swing_opens_its_step(
        store: Store, page: Any, tmp_path: Path) -> None:  # noqa: F811
    expect = playwright.expect
    game = get_game("kings-corner")
    match_id = apart(store_played_match, store, game.name, 3, 6, dict(game.demo_options))
    bots = [s.bot for s in sorted(store.get_match(match_id).seats, key=lambda s: s.seat)]
    with Server(store) as server:
        page.goto(f"{server.url}/matches/{match_id}")
        expect(page.locator("#win-graph-none")).to_have_text(
            "win-probability graph: not computed yet")

        graphs.compute(store, match_id, cap_s=1.0)
        swings = httpx.get(f"{server.url}/api/matches/{match_id}/graph",
                           timeout=60).json()["graph"]["swings"]
        assert swings
        page.goto(f"{server.url}/matches/{match_id}")
        counter = page.locator("#step-counter")
        expect(counter).to_have_attribute("data-step", "0")
        chart = page.locator("#replay #win-graph #win-graph-chart")
        expect(chart.locator("svg polyline.seat-line")).to_have_count(len(bots))
        expect(chart.locator("ul.win-legend li")).to_have_count(len(bots))
        for seat, bot in enumerate(bots):
            expect(chart.locator(f'ul.win-legend li[data-seat="{seat}"]')).to_contain_text(
                f"seat {seat}: {bot}")
        marks = chart.locator("svg a.swing")
        expect(marks).to_have_count(len(swings))
        page.screenshot(path=str(tmp_path / "win-graph.png"), full_page=True)

        swing = swings[-1]
        mark = chart.locator(f'svg a.swing[data-step="{swing["step"]}"]')
        mark.scroll_into_view_if_needed()
        mark.locator("circle").click()
        expect(counter).to_have_attribute("data-step", str(swing["step"]))
        assert page.url == f"{server.url}{swing['replay']}"
        expect(page.locator("#decision")).to_contain_text(f"Step {swing['step']}")
        page.screenshot(path=str(tmp_path / "win-graph-swing.png"), full_page=True)
