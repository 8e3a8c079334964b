"""The traveller in a real browser (Playwright driving Debian's Chromium, as test_browser.py
does), over the real duplicate tournament of test_traveller.py: from the tournament page a
spectator follows a deal's traveller link, then a parting's link, and the replay opens in the
full view at that step, showing the decision the parting names."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import CHROMIUM, page, playwright  # noqa: F401  (the browser, reused)
from tests.web.test_traveller import Duplicate, duplicate  # noqa: F401  (the tournament, reused)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="no Chromium at /usr/bin/chromium: scripts/install-system-packages --tests installs it")


def test_a_spectator_follows_a_traveller_to_the_moment_two_rotations_parted(
        duplicate: Duplicate, page: Any, tmp_path: Path) -> None:  # noqa: F811
    expect = playwright.expect
    first_deal = duplicate.deals()[0][0].id
    page.goto(f"{duplicate.url}/tournaments/1")
    link = page.locator("a.traveller").first
    expect(link).to_have_attribute("href", f"/tournaments/1/deals/{first_deal}")
    link.click()
    expect(page).to_have_url(f"{duplicate.url}/tournaments/1/deals/{first_deal}")
    expect(page.locator("h1")).to_contain_text(f"Deal {first_deal}")
    expect(page.locator("#rotations td[data-seat]")).to_have_count(3 * 3)
    page.screenshot(path=str(tmp_path / "traveller.png"), full_page=True)

    doc = duplicate.json(f"/api/tournaments/1/deals/{first_deal}")["traveller"]
    parting = doc["partings"][0]
    choice = parting["choices"][-1]
    chooser = choice["by"][0]
    step = page.locator(f'#partings a.step[href="{chooser["replay"]}"]')
    expect(step).to_have_count(1)
    step.click()
    expect(page).to_have_url(re.compile(
        rf"/matches/{chooser['match_id']}\?view=full#step={parting['decision']}$"))
    expect(page.locator('strong.view.current[data-view="full"]')).to_be_visible()
    expect(page.locator("#step-counter")).to_have_attribute("data-step",
                                                            str(parting["decision"]))
    decision = page.locator("#decision")
    expect(decision).to_contain_text(f"Step {parting['decision']}: seat {parting['seat']}")
    expect(decision).to_contain_text(f"chose {choice['choice']}")
    page.screenshot(path=str(tmp_path / "parting.png"), full_page=True)
