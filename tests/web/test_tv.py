"""The TV page (#30 part 1): the strongest running table featured, kept until it ends or a
clearly better one starts, the other live matches under it; in process over a real SQLite
file, and in a real browser over a real running match."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from arena.app.tv import MARGIN, Candidate, pick
from arena.storage.store import MatchInfo, MatchResult, MatchStatus, ScheduledMatch, Store
from leaderboard.web.app import create_app
from tests.helpers import migrated_store
from tests.web.replay_fixtures import Server, gated_tournament
from tests.web.test_browser import page, playwright  # noqa: F401  (the fixture)

GAME = "face-card-kill-card"
POLL_MS = 3000
"""How often the TV page looks at /api/tv again (leaderboard/web/static/tv.js)."""
TEMPLATE = MatchInfo(id=0, tournament_id=None, index=0, game=GAME, options={}, seed=0,
                     status=MatchStatus.RUNNING, created_at=datetime.now(UTC), started_at=None,
                     finished_at=None, duration_s=None, finish_seq=None, seats=())


def _candidate(match_id: int, rating: float) -> Candidate:
    return Candidate(dataclasses.replace(TEMPLATE, id=match_id), rating)


def test_the_pick_stays_until_it_ends_or_a_clearly_better_match_starts() -> None:
    assert pick([], None) is None
    first = [_candidate(1, 10.0), _candidate(2, 30.0), _candidate(3, 30.0)]
    chosen = pick(first, None)
    assert chosen is not None and chosen.match.id == 2  # the strongest; the older of equals
    slightly = [*first, _candidate(4, 30.0 + MARGIN - 0.1)]
    assert pick(slightly, 2) == first[1]  # not better by the margin: it stays
    clearly = [*first, _candidate(5, 30.0 + MARGIN)]
    assert pick(clearly, 2) == clearly[-1]  # better by the margin: it takes the screen
    assert pick([_candidate(1, 10.0), _candidate(3, 30.0)], 2) == _candidate(3, 30.0)  # 2 ended
    assert pick([_candidate(1, 10.0), _candidate(3, 12.0)], 1) == _candidate(1, 10.0)


def _rated(store: Store) -> dict[str, int]:
    """Bots a, b, c, d rated a > b > c > d by finished matches of their own; their ids."""
    ids = {name: store.add_bot(name, "python -m bots.random_bot").id for name in "abcd"}
    pairs = [(x, y) for x in "abcd" for y in "abcd" if x < y] * 4
    tid = store.create_tournament(GAME, 2, {}, 1, 1, {}, list(ids.values()), [
        ScheduledMatch(i, i, (ids[x], ids[y])) for i, (x, y) in enumerate(pairs)])
    for match in store.claim_unfinished(tid):
        store.finish_match(match.id, MatchResult((1.0, 0.0), (1, 2), ("", "")))
    return ids


def test_the_tv_features_the_strongest_running_table_and_lists_the_others(
        tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    ids = _rated(store)
    tables = [("c", "d"), ("a", "b"), ("b", "c")]
    tid = store.create_tournament(GAME, 2, {}, 1, 2, {}, list(ids.values()), [
        ScheduledMatch(i, 100 + i, (ids[x], ids[y])) for i, (x, y) in enumerate(tables)])
    matches = sorted(store.list_matches(tid), key=lambda m: m.index)
    client = TestClient(create_app(store))
    nothing = client.get("/tv")
    assert nothing.status_code == 200 and "No match is being played now" in nothing.text
    for match in matches:
        store.mark_running(match.id)
    # no run holds the tournament: its "running" matches are a dead run's, never featured
    assert client.get("/api/tv").json()["tv"] == {"featured": None, "others": [],
                                                  "margin": MARGIN}
    with store.running(tid):  # as its run does while it plays
        _featured(store, client, matches)
    store.close()


def _featured(store: Store, client: TestClient, matches: list[MatchInfo]) -> None:
    tv = client.get("/api/tv").json()["tv"]
    strongest = matches[1].id  # a and b
    assert tv["featured"]["id"] == strongest
    assert [m["id"] for m in tv["others"]] == [matches[2].id, matches[0].id]  # b+c, then c+d
    assert tv["featured"]["rating"] > tv["others"][0]["rating"] > tv["others"][1]["rating"]
    shown = client.get("/tv").text
    assert f'<iframe class="tv" src="/matches/{strongest}"' in shown and "a@1, b@1" in shown
    # it ends: the next strongest takes the screen, and the list goes on without it
    store.finish_match(strongest, MatchResult((1.0, 0.0), (1, 2), ("", "")))
    tv = client.get("/api/tv").json()["tv"]
    assert tv["featured"]["id"] == matches[2].id and len(tv["others"]) == 1


def test_the_tv_shows_a_live_match_in_the_browser_and_follows_it_to_its_end(
        tmp_path: Path, page: Any) -> None:  # noqa: F811
    expect = playwright.expect
    gated = gated_tournament(tmp_path, game="kings-corner", hold=4)
    try:
        running, _ = gated.running(steps_at_least=3)
        with Server(gated.store) as server:
            page.goto(server.url + "/tv")
            expect(page.locator("#tv .featured")).to_contain_text(f"#{running.id}")
            viewer = page.frame_locator("iframe.tv")
            expect(viewer.locator("h1")).to_contain_text(f"{running.id}")
            gated.open()  # the match and its tournament end: the page follows on its own
            expect(page.locator("#tv .nothing")).to_be_visible()
    finally:
        gated.close()


def test_in_the_browser_the_tv_moves_only_to_a_clearly_better_table(
        tmp_path: Path, page: Any) -> None:  # noqa: F811
    """Rated a 25.1, b 17.4, c 9.5, d -0.9 (conservative): a+d (24.2) is featured; b+c
    (26.9) starts, better by less than the margin: the page lists it and stays; a+b (42.5)
    starts, better by more: the page moves to it while a+d still runs."""
    expect = playwright.expect
    store = migrated_store(tmp_path / "arena.db")
    ids = _rated(store)
    tables = [("a", "d"), ("b", "c"), ("a", "b")]
    tid = store.create_tournament(GAME, 2, {}, 1, 2, {}, list(ids.values()), [
        ScheduledMatch(i, 200 + i, (ids[x], ids[y])) for i, (x, y) in enumerate(tables)])
    ad, bc, ab = (m.id for m in sorted(store.list_matches(tid), key=lambda m: m.index))
    try:
        with store.running(tid), Server(store) as server:
            store.mark_running(ad)
            page.clock.install()  # the page's timers: its next look comes when the test says
            page.goto(server.url + "/tv")
            expect(page.locator("#tv")).to_have_attribute("data-featured", str(ad))
            store.mark_running(bc)
            page.clock.run_for(POLL_MS)
            expect(page.locator("table.live")).to_contain_text(f"#{bc}")  # polled and listed
            expect(page.locator("#tv")).to_have_attribute("data-featured", str(ad))  # stays
            tv = httpx.get(server.url + "/api/tv", timeout=60).json()["tv"]  # the page's app
            assert tv["featured"]["id"] == ad and tv["others"][0]["id"] == bc
            assert 0 < tv["others"][0]["rating"] - tv["featured"]["rating"] < MARGIN
            store.mark_running(ab)
            page.clock.run_for(POLL_MS)
            expect(page.locator("#tv")).to_have_attribute("data-featured", str(ab))
            expect(page.locator("table.live")).to_contain_text(f"#{ad}")  # a+d runs on
    finally:
        store.close()
