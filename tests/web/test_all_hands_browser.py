"""Every hand live, in a real browser (Playwright driving Debian's Chromium, as
test_browser.py does) over the real tournaments of test_all_hands.py: a running match whose
every bot plays in the sandbox offers all hands, and its viewer draws every seat's hand face up
as the match goes on; a match run without the sandbox, and one whose deal a remote bot has still
to play, offer the public view only and say why."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.players import sandbox
from tests.web.arena_serve import release
from tests.web.test_all_hands import Tables, start_tables, stop_tables
from tests.web.test_browser import CHROMIUM, page, playwright  # noqa: F401  (the browser, reused)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="no Chromium at /usr/bin/chromium: scripts/install-system-packages --tests installs it")


@pytest.fixture
def held(tmp_path: Path) -> Iterator[Tables]:
    found = sandbox.check()
    if not found.works:
        if os.environ.get("CI"):
            pytest.fail(f"the sandbox must run in CI: {found.why_not}")
        pytest.skip(f"no sandbox on this machine: {found.why_not}")
    tables = start_tables(tmp_path)
    try:
        yield tables
    finally:
        stop_tables(tables.tables.values(), tables.store, tables.server)


def test_the_all_hands_view_is_offered_live_where_it_is_safe_and_refused_elsewhere(
        held: Tables, page: Any, tmp_path: Path) -> None:  # noqa: F811
    expect = playwright.expect
    url = held.server.url

    # run without the sandbox: the public view, and why not the others
    page.goto(f"{url}/matches/{held['open'].held.id}")
    expect(page.locator("#private-refused")).to_contain_text(
        "runs without the sandbox (--no-sandbox), where bots may read the web")
    expect(page.locator("#all-hands")).to_have_count(0)
    expect(page.locator('.view.off[data-view="full"]')).to_be_visible()
    expect(page.locator("#live-note")).to_contain_text("the public view")
    expect(page.locator("#step-counter")).to_contain_text("(live)")

    # all in the sandbox, but the deal's other rotation has a remote bot: the same
    remote = held["remote"].held
    page.goto(f"{url}/matches/{remote.id}")
    expect(page.locator("#private-refused")).to_contain_text("is a remote bot (far@1)")
    expect(page.locator("#all-hands")).to_have_count(0)
    expect(page.locator('.hand.face[data-seat="0"]')).to_have_count(0)  # backs only
    expect(page.locator('.hand.hidden[data-seat="0"] .card.back').first).to_be_visible()

    # every bot of the deal in the sandbox: all hands, offered and drawn live
    sealed = held["sealed"]
    page.goto(f"{url}/matches/{sealed.held.id}")
    offer = page.locator("#all-hands")
    expect(offer).to_contain_text("every hand is shown live")
    expect(page.locator("#private-refused")).to_have_count(0)
    offer.get_by_role("link", name="All hands, live").click()
    expect(page).to_have_url(re.compile(rf"/matches/{sealed.held.id}\?view=full(#step=\d+)?$"))
    expect(page.locator("#live-note")).to_contain_text("Live: every hand")
    for seat in (0, 1):
        expect(page.locator(f'.hand.face[data-seat="{seat}"] .card.face').first).to_be_visible()
    expect(page.locator("#step-counter")).to_contain_text("(live)")
    page.screenshot(path=str(tmp_path / "all-hands-live.png"), full_page=True)
    steps = page.locator("#log li").count()
    gate = [s.bot for s in sealed.held.seats].index(f"{sealed.gate}@1")
    release(sealed.folder, gate)  # the match goes on to the gate's second hold: new steps
    expect(page.locator("#log li")).not_to_have_count(steps)  # come, every hand still shown
    for seat in (0, 1):
        expect(page.locator(f'.hand.face[data-seat="{seat}"] .card.face').first).to_be_visible()
    release(sealed.folder, gate, again=True)
    # it ends while the deal's other rotation is still to play: its last steps are not shown
    expect(page.locator("#full-replay")).to_be_visible()
    expect(page.locator(".ended-note")).to_contain_text("deals the same cards as match")
