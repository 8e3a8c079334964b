"""The replay viewer draws what each view may see, in a real browser (Playwright driving Debian's
Chromium, as test_browser.py does) over real logged matches served by a real web server:

* all six games, from the public view and from a seat's: in every seat's place, exactly the
  cards the view holds for it are face up (its own cards in its seat's view, and the cards the
  rules make public: Kill's known cards, Face Card / Kill Card's face-up cards, Serial Killer's
  held cards) and the rest of its hand as backs; no card the view does not hold is drawn face
  up anywhere on the table;
* Kill: every seat's A, 2, 3 face up at the deal, a failed kill's revealed hand face up, and a
  Joker drawn as a Joker (a star and "JOKER", titled "Joker"), never as a "J";
* a live match that ends shows, without a reload, its status finished and its ranks and scores.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from arena.games import all_games, get_game
from arena.storage.store import MatchStatus, Store
from tests.helpers import arena, migrated_store
from tests.web.replay_fixtures import Server, gated_tournament, store_played_match
from tests.web.test_browser import CHROMIUM, page, playwright  # noqa: F401  (the browser, reused)
from tests.web.test_replay_views import kill_match

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="no Chromium at /usr/bin/chromium: scripts/install-system-packages --tests installs it")

T = TypeVar("T")
CARD = re.compile(r"^(X[12]?|[2-9TJQKAGM][SHDCN](#\d+)?)$")  # as replay.js reads a card


def apart(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in a thread of its own: the matches are played with asyncio, which
    cannot run in the thread that drives the browser (Playwright's loop runs there)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function, *args).result()


def codes(value: Any) -> list[str]:
    """Every card code in a JSON value (as the viewer would draw it)."""
    if isinstance(value, str):
        return [value] if CARD.match(value) else []
    if isinstance(value, list):
        return [c for item in value for c in codes(item)]
    if isinstance(value, dict):
        return [c for item in value.values() for c in codes(item)]
    return []


def whole(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for frame in frames:
        before = out[-1] if out else {"public": {}, "seats": {}}
        seats = {s: {**before["seats"].get(s, {}), **own} for s, own in frame["seats"].items()}
        out.append({"public": {**before["public"], **frame["public"]}, "seats": seats})
    return out


def expected(game: str, public: dict[str, Any], own: dict[str, Any] | None,
             seat: int) -> tuple[list[str], int]:
    """The cards a seat's place shows face up from this view, and how many backs (a hand's
    backs are drawn up to 14)."""
    if game == "kill":
        if public["face_up"][seat]:
            return public["face_up"][seat], 0
        if own is not None:
            return own["hand"] + ([own["gift"]] if own.get("gift") else []), 0
        known = public["shown"][seat]
        return known, max(0, min(public["hand_sizes"][seat], 14) - len(known))
    if game == "face-card-kill-card":
        if own is not None:
            return own["hole_cards"] + public["face_up"][seat], 0
        if public["holes"]:
            return public["holes"][seat] + public["face_up"][seat], 0
        return public["face_up"][seat], public["hole_counts"][seat]
    if game == "serial-killer":
        return public["held"][seat], 0
    if own is not None:  # king, knives, kings-corner: a hand, and (knives) a banker's cards
        return own["hand"] + (own.get("banked") or []) + (own.get("bank_seen") or []), 0
    return [], min(public["hand_sizes"][seat], 14)


def go_to(page: Any, step: int) -> None:  # noqa: F811
    page.evaluate("""step => { const s = document.getElementById('slider');
                                s.value = String(step); s.dispatchEvent(new Event('input')); }""",
                  step)
    playwright.expect(page.locator("#step-counter")).to_have_attribute("data-step", str(step))


def drawn(page: Any) -> dict[str, Any]:  # noqa: F811
    """What the table shows: per seat's place its face-up cards and backs, and every face-up
    card on the table."""
    result: dict[str, Any] = page.evaluate("""() => {
      const seats = {};
      document.querySelectorAll('#table .seat[data-seat]').forEach(p => {
        seats[p.dataset.seat] = {
          faces: Array.from(p.querySelectorAll('.card.face')).map(c => c.dataset.card),
          backs: p.querySelectorAll('.card.back').length };
      });
      const all = Array.from(document.querySelectorAll('#table .card.face')).map(c => c.dataset.card);
      return { seats: seats, all: all };
    }""")
    return result


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with migrated_store(tmp_path / "arena.db") as opened:
        yield opened


@pytest.mark.parametrize("name", list(all_games()))
def test_every_game_draws_what_its_view_may_see(store: Store, page: Any,  # noqa: F811
                                                name: str) -> None:
    game = get_game(name)
    players = game.default_players
    match_id = apart(store_played_match, store, name, players, 11, dict(game.demo_options))
    with Server(store) as server:
        for view in ("public", f"seat:{players - 1}"):
            doc = httpx.get(f"{server.url}/api/matches/{match_id}/replay?view={view}",
                            timeout=60).json()
            frames = whole(doc["frames"])
            page.goto(f"{server.url}/matches/{match_id}?view={view}")
            playwright.expect(page.locator("#step-counter")).to_have_attribute("data-step", "0")
            last = len(frames) - 1
            for step in sorted({0, 1, last // 3, last // 2, last - 1, last}):
                go_to(page, step)
                frame = frames[step]
                shown = drawn(page)
                allowed = set(codes(frame["public"])) | set(codes(frame["seats"]))
                leaked = set(shown["all"]) - allowed
                assert not leaked, f"{name} {view} step {step}: drawn but not in the view: {leaked}"
                assert sorted(shown["seats"]) == sorted(str(s) for s in range(players))
                for seat in range(players):
                    own = frame["seats"].get(str(seat))
                    faces, backs = expected(name, frame["public"], own, seat)
                    place = shown["seats"][str(seat)]
                    where = f"{name} {view} step {step} seat {seat}"
                    assert sorted(place["faces"]) == sorted(faces), where
                    assert place["backs"] == backs, where


def test_kill_draws_its_public_cards_and_jokers(store: Store, page: Any,  # noqa: F811
                                                tmp_path: Path) -> None:
    expect = playwright.expect
    match_id = apart(kill_match, store)
    with Server(store) as server:
        doc = httpx.get(f"{server.url}/api/matches/{match_id}/replay?view=public",
                        timeout=60).json()
        page.goto(f"{server.url}/matches/{match_id}")
        expect(page.locator("#step-counter")).to_have_attribute("data-step", "0")
        for seat, suit in enumerate("HDCS"):  # the deal: A, 2, 3 face up, one card hidden
            place = page.locator(f'#table .seat[data-seat="{seat}"]')
            for rank in "A23":
                expect(place.locator(f'.card.face[data-card="{rank}{suit}"]')).to_be_visible()
            expect(place.locator(".card.back")).to_have_count(1)
        page.screenshot(path=str(tmp_path / "kill-deal.png"), full_page=True)

        failed = next((i, e["data"]) for i, f in enumerate(doc["frames"]) for e in f["events"]
                      if e["type"] == "KillAttempt" and not e["data"]["success"])
        step, attempt = failed
        go_to(page, step)
        target = page.locator(f'#table .seat[data-seat="{attempt["target"]}"]')
        for code in attempt["target_hand"]:
            expect(target.locator(f'.card.face[data-card="{code}"]')).to_be_visible()
        expect(target.locator(".card.back")).to_have_count(0)
        expect(page.locator("#log li.current")).to_contain_text("KillAttempt")
        page.screenshot(path=str(tmp_path / "kill-failed-kill.png"), full_page=True)

        joker_step, joker = next((i, e["data"]["card"]) for i, f in enumerate(doc["frames"])
                                 for e in f["events"]
                                 if e["type"] == "Drew" and e["data"]["card"].startswith("X"))
        go_to(page, joker_step)
        card = page.locator(f'#table .card.face[data-card="{joker}"]').first
        expect(card).to_be_visible()
        expect(card).to_have_attribute("title", "Joker")
        expect(card).to_have_class(re.compile(r"\bjoker\b"))
        expect(card.locator(".rank")).to_have_text("\u2605")
        expect(card.locator(".corner")).to_have_text("JOKER")
        assert "J" not in card.locator(".rank").inner_text()
        page.screenshot(path=str(tmp_path / "kill-joker.png"), full_page=True)


def test_a_live_match_ends_in_its_result(tmp_path: Path, page: Any) -> None:  # noqa: F811
    expect = playwright.expect
    gated = gated_tournament(tmp_path)
    try:
        running, _ = gated.running(steps_at_least=3)
        with Server(gated.store) as server:
            page.goto(f"{server.url}/matches/{running.id}")
            expect(page.locator("#step-counter")).to_contain_text("(live)")
            expect(page.locator("#match-status .status")).to_have_text("running")
            ranks = page.locator('.match-seats td[data-field="rank"]')
            expect(ranks).to_have_text(["\u2013", "\u2013"])
            gated.gate.touch()  # the held bot answers: the match plays to its end
            expect(page.locator("#full-replay")).to_be_visible(timeout=120_000)
            expect(page.locator("#match-status .status")).to_have_text("finished")
            final = gated.store.get_match(running.id)
            assert final.status is MatchStatus.FINISHED
            seats = sorted(final.seats, key=lambda s: s.seat)
            expect(ranks).to_have_text([str(s.rank) for s in seats])
            expect(page.locator('.match-seats td[data-field="score"]')).to_have_text(
                [f"{s.score:.1f}" for s in seats])
            page.screenshot(path=str(tmp_path / "live-ended.png"), full_page=True)
    finally:
        gated.close()


def test_every_step_has_a_url_that_opens_the_viewer_there_in_any_view(
        store: Store, page: Any) -> None:  # noqa: F811
    expect = playwright.expect
    game = get_game("king")
    match_id = apart(store_played_match, store, "king", 4, 11, dict(game.demo_options))
    counter = page.locator("#step-counter")
    with Server(store) as server:
        last = len(httpx.get(f"{server.url}/api/matches/{match_id}/replay?view=public",
                             timeout=60).json()["frames"]) - 1
        page.goto(f"{server.url}/matches/{match_id}?view=seat:1#step=7")
        expect(counter).to_have_attribute("data-step", "7")
        page.click("#forward")
        expect(counter).to_have_attribute("data-step", "8")
        assert page.url == f"{server.url}/matches/{match_id}?view=seat:1#step=8"
        full = page.locator('a.view[data-view="full"]')
        expect(full).to_have_attribute("href", f"/matches/{match_id}?view=full#step=8")
        full.click()  # another view opens at the same moment
        expect(page.locator('strong.view.current[data-view="full"]')).to_be_visible()
        expect(counter).to_have_attribute("data-step", "8")
        page.evaluate("() => { window.location.hash = '#step=20'; }")  # a step's URL, here
        expect(counter).to_have_attribute("data-step", "20")
        page.goto(f"{server.url}/matches/{match_id}#step=999999")  # past the end: the last
        expect(counter).to_have_attribute("data-step", str(last))
        assert page.url.endswith(f"#step={last}")
        page.goto(f"{server.url}/matches/{match_id}?view=public#step=x")  # not a step: the first
        expect(counter).to_have_attribute("data-step", "0")
        assert page.url.endswith("?view=public#step=0")


def test_the_viewer_shows_a_bot_s_note_beside_its_decision_where_notes_are_public(
        tmp_path: Path, page: Any) -> None:  # noqa: F811
    """A real tournament with --public-notes, the noting bot a real sandboxed process: the
    viewer shows its note at its decision's step, as text (its markup shown, never obeyed),
    and says how much of a long one was cut."""
    expect = playwright.expect
    db = tmp_path / "arena.db"
    store = migrated_store(db)
    store.add_bot("noter", "python -m tests.bots.noter")
    store.add_bot("random", "python -m bots.random_bot")
    arena("tournament", "run", "--game", "kings-corner", "--bot", "noter", "--bot", "random",
          "--players", "2", "--seed", "4", "--public-notes", db=db)
    match = store.list_matches(limit=1)[0]
    with Server(store) as server:
        frames = httpx.get(f"{server.url}/api/matches/{match.id}/replay",
                           timeout=60).json()["frames"]
        noted = [f for f in frames if f["decision"] and "note" in f["decision"]]
        assert len(noted) >= 2  # the noter's answers: a short note, then a long one, cut
        first, second = noted[0], noted[1]
        page.goto(f"{server.url}/matches/{match.id}#step={first['step']}")
        note = page.locator("#decision .note")
        expect(note).to_have_text("its note: " + first["decision"]["note"])
        assert first["decision"]["note"].startswith("<b>") and note.locator("b").count() == 0
        page.goto(f"{server.url}/matches/{match.id}?view=full#step={second['step']}")
        expect(page.locator("#decision .note")).to_contain_text(
            f"({16 * 1024 - 256} more bytes cut)")
    store.close()
