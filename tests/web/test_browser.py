"""The arena in a real browser (Playwright driving Debian's Chromium, headless): a real web
server over a real SQLite file holding a tournament of the bundled bots, and a match held
running by a bot that waits. Home, a leaderboard, a bot page (its chart drawn), a match
stepped with the keyboard, a seat's view with its hand face up, and a running match's live
view taking a new step. Each step saves a screenshot in the test's ``tmp_path``.

Chromium comes from ``scripts/install-system-packages --tests``; without it these tests are
skipped (never in CI, which installs it)."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.replay_fixtures import Gated, Server, add_bot, gated_tournament, play_tournament

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed "
                                 "(pip install -e '.[dev]')")

CHROMIUM = next((path for path in (os.environ.get("ARENA_CHROMIUM", ""), "/usr/bin/chromium",
                                   shutil.which("chromium") or "", "/usr/bin/chromium-browser")
                 if path and Path(path).exists()), None)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="no Chromium at /usr/bin/chromium: scripts/install-system-packages --tests installs it")


@pytest.fixture
def arena_site(tmp_path: Path) -> Iterator[tuple[Server, Gated]]:
    db = tmp_path / "arena.db"
    add_bot(db, "kings-corner-bot", "python -m bots.kings_corner")
    add_bot(db, "random-kc", "python -m bots.random_bot")
    play_tournament(db, "kings-corner", ["kings-corner-bot", "random-kc"], "--players", "2",
                    "--repetitions", "2")
    gated = gated_tournament(tmp_path, game="kings-corner", hold=4)
    try:
        with Server(gated.store) as server:
            yield server, gated
    finally:
        gated.close()


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Any]:
    assert CHROMIUM is not None, "CI must have Chromium (scripts/install-system-packages --tests)"
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=["--no-sandbox"] if os.getuid() == 0 else [])
        tab = browser.new_page(viewport={"width": 1360, "height": 1000})
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        # a safety net, not a guess at speed: every expectation waits for its event, and a
        # machine at a load of 10 can take this long to play the moves behind one
        tab.set_default_timeout(90_000)
        playwright.expect.set_options(timeout=90_000)  # expect's own default is 5 s
        yield tab
        browser.close()
        assert not errors, errors


def test_a_spectator_clicks_through_the_arena(arena_site: tuple[Server, Gated], page: Any,
                                              tmp_path: Path) -> None:
    server, gated = arena_site
    expect = playwright.expect
    shots = tmp_path / "screenshots"
    shots.mkdir()

    def shot(name: str) -> None:
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)

    running, _ = gated.running(steps_at_least=3)

    page.goto(server.url + "/")
    expect(page.locator("h1")).to_contain_text("Card Arena")
    shot("1-home")

    page.locator('a[href="/leaderboard/kings-corner"]').first.click()
    expect(page).to_have_url(re.compile(r"/leaderboard/kings-corner"))
    expect(page.locator("body")).to_contain_text("kings-corner-bot@1")
    shot("2-leaderboard")

    page.locator('a[href="/bots/kings-corner-bot@1"]').first.click()
    expect(page).to_have_url(re.compile(r"/bots/kings-corner-bot"))
    chart = page.locator('svg[aria-label^="rating history"]').first
    expect(chart).to_be_visible()
    assert chart.locator("polyline, path, circle").count() > 0, "the chart draws the history"
    shot("3-bot")

    page.locator('a[href^="/matches/"]').first.click()
    expect(page).to_have_url(re.compile(r"/matches/\d+#step=\d+$"))  # the step shown: its URL
    counter = page.locator("#step-counter")
    expect(counter).to_have_attribute("data-step", "0")
    expect(page.locator(".felt .compass .pile")).to_have_count(9)  # eight piles and the stock
    before = page.locator("#table").inner_html()
    shot("4-match")
    page.locator("body").press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_attribute("data-step", "3")
    expect(page.locator("#log li.current")).to_have_attribute("data-step", "3")
    assert page.locator("#table").inner_html() != before, "the table changes as the match goes"
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_attribute("data-step", "2")
    page.keyboard.press("End")
    last = int(page.locator("#slider").get_attribute("max") or 0)
    assert last > 3
    expect(counter).to_have_attribute("data-step", str(last))
    page.keyboard.press("Home")
    expect(counter).to_have_attribute("data-step", "0")
    assert page.locator('.hand.face[data-seat="1"] .card').count() == 0, \
        "the public view shows no hand"
    shot("5-stepped")

    page.locator('a.view[data-view="seat:1"]').click()
    expect(page).to_have_url(re.compile(r"view=seat:1"))
    expect(page.locator('.hand.face[data-seat="1"] .card.face').first).to_be_visible()
    assert page.locator('.hand.face[data-seat="1"] .card.face').count() == 7  # the deal
    assert page.locator('.hand.face[data-seat="0"]').count() == 0
    expect(page.locator('.hand.hidden[data-seat="0"] .card.back').first).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#decision")).to_contain_text("Step 1")
    shot("6-seat-view")

    page.goto(f"{server.url}/matches/{running.id}")
    expect(page.locator("#live-note")).to_be_visible()
    expect(page.locator('a.view[data-view="seat:0"]')).to_have_count(0)  # refused while it runs
    expect(counter).to_contain_text("(live)")
    steps_now = int(page.locator("#slider").get_attribute("max") or 0)
    events_now = page.locator("#log li").count()
    shot("7-live")
    gated.gate.touch()  # the held bot answers: the match goes on
    expect(page.locator("#log li")).not_to_have_count(events_now, timeout=120_000)
    assert int(page.locator("#slider").get_attribute("max") or 0) > steps_now
    expect(page.locator("#full-replay")).to_be_visible(timeout=180_000)
    shot("8-live-ended")
