"""An author's loop in a real browser (Playwright driving Debian's Chromium) against a real
``arena serve``: sign in with a token, submit a bot through the form (its validation played
in the sandbox), see it among their bots, read its log per lane once the server has played
it, read its notes beside its decisions in a replay, sign out, and the notes are gone."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import httpx

from arena.storage.store import MatchStatus, Store
from tests.helpers import cli
from tests.served import OPERATOR, Served, eventually, remote
from tests.web.test_browser import CHROMIUM, page, playwright  # noqa: F401  (the fixture)

GAME = "face-card-kill-card"
NOTER = '''
import sys
from bots.random_bot import RandomBot
from sdk.run import run


class Noter(RandomBot):
    """Random, and says so on every answer; a line in its log for every match."""

    def on_start(self, match):
        super().on_start(match)
        print(f"thinking in seat {match.seat}", file=sys.stderr, flush=True)

    def act(self, observation, legal_actions):
        self.note(f"one of {len(legal_actions)}, <i>at random</i>")
        return super().act(observation, legal_actions)


run(Noter)
'''


def _archive(where: Path) -> Path:
    path = where / "ann-noter.zip"
    with zipfile.ZipFile(path, "w") as made:
        made.writestr("arena-bot.toml", f'name = "ann-noter"\ncommand = "python bot.py"\n'
                                        f'games = ["{GAME}"]\n')
        made.writestr("bot.py", NOTER)
    return path


def test_an_author_signs_in_submits_reads_logs_and_notes_and_signs_out(
        tmp_path: Path, page: Any) -> None:  # noqa: F811
    expect = playwright.expect
    db = tmp_path / "arena.db"
    token = cli("author", "add", "ann", db=db).stdout.splitlines()[2].strip()
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    server = Served(db, "--validation-game", GAME, "--scrimmage-matches", "1000",
                    validation=True)
    try:
        page.goto(server.web + "/me")  # signed out: to the sign-in form
        expect(page.locator("h1")).to_have_text("Sign in")
        page.fill("input[name=token]", "a wrong token")
        page.click("button[type=submit]")
        expect(page.locator(".refused")).to_contain_text("that token is no author's")
        page.fill("input[name=token]", token)
        page.click("button[type=submit]")
        expect(page.locator("h1")).to_contain_text("ann")
        expect(page.locator("nav .me")).to_have_text("ann")

        page.set_input_files("input[name=archive]", str(_archive(tmp_path)))
        page.fill("input[name=label]", "v1")
        page.click("form.submit button[type=submit]")  # validated on the server first
        expect(page.locator("#submission")).to_contain_text("Accepted: ann-noter@v1")
        expect(page.locator("table").first).to_contain_text("ann-noter@v1")
        expect(page.locator("td.validation").first).to_have_text(f"passed in {GAME}")

        created = json.loads(remote(server, OPERATOR, "tournament", "create", "--game", GAME,
                                    "--bot", "ann-noter", "--bot", "random", "--players", "2",
                                    "-n", "2", "--deals", "independent", "--json").stdout)
        tid = created["tournament"]["id"]

        def finished() -> list[int]:
            with Store(str(db)) as store:
                found = store.get_tournament(tid)
                return [m.id for m in store.tournament_matches(tid)
                        if m.status is MatchStatus.FINISHED] if found.finished == 4 else []

        matches = eventually("the tournament to finish", finished)

        page.goto(server.web + "/me")
        page.click("a[href='/me/bots/ann-noter@v1/log']")
        expect(page.locator("h1")).to_contain_text("Log of ann-noter@v1")
        expect(page.locator("pre.log").first).to_contain_text("thinking in seat")

        noted = None
        for match_id in matches:
            frames = httpx.get(f"{server.web}/api/matches/{match_id}/replay?view=full",
                               cookies={c["name"]: c["value"] for c in page.context.cookies()},
                               timeout=60).json()["frames"]
            steps = [f["step"] for f in frames if f["decision"] and "note" in f["decision"]]
            if steps:
                noted = (match_id, steps[0])
                break
        assert noted is not None, "no note of ann's bot in any replay"
        match_id, step = noted
        page.goto(f"{server.web}/matches/{match_id}?view=full#step={step}")
        note = page.locator("#decision .note")
        expect(note).to_contain_text("at random</i>")  # its markup shown as text
        assert note.locator("i").count() == 0

        # a scrimmage, asked for through the form: queued, played, its page shows its result
        page.goto(server.web + "/me")
        page.select_option("form.scrimmage select[name=game]", GAME)
        page.select_option("form.scrimmage select[name=bot]", "ann-noter@v1")
        page.fill("form.scrimmage input[name=against]", "random")
        page.fill("form.scrimmage input[name=sets]", "2")
        page.click("form.scrimmage button[type=submit]")
        expect(page.locator("#scrimmages p.accepted")).to_contain_text("queued: 4 matches")
        scrimmage = int(page.locator("#scrimmages p.accepted a").inner_text())
        expect(page.locator("table.scrimmages")).to_contain_text("ann-noter@v1, random@1")

        def scrimmaged() -> bool:
            with Store(str(db)) as store:
                return store.get_tournament(scrimmage).status.ended
        eventually("the scrimmage to be played", scrimmaged)
        page.goto(f"{server.web}/tournaments/{scrimmage}")
        expect(page.locator("main")).to_contain_text("ann-noter@v1")
        expect(page.locator("main")).to_contain_text("scrimmage")
        # over the hour's matches (4 asked, 1,000 allowed; 500 sets are 1,000 more): one line
        page.goto(server.web + "/me")
        page.fill("form.scrimmage input[name=against]", "random")
        page.fill("form.scrimmage input[name=sets]", "500")
        page.click("form.scrimmage button[type=submit]")
        expect(page.locator("#scrimmages p.refused")).to_contain_text("in the last hour")
        expect(page.locator("table.scrimmages tbody tr")).to_have_count(1)  # nothing queued

        page.goto(server.web + "/me")
        page.click("form.signout button[type=submit]")
        expect(page.locator("nav .me")).to_have_text("Sign in")
        page.goto(f"{server.web}/matches/{match_id}?view=full#step={step}")
        expect(page.locator("#decision")).to_be_visible()
        expect(page.locator("#decision .note")).to_have_count(0)
        page.goto(server.web + "/me")
        expect(page.locator("h1")).to_have_text("Sign in")
    finally:
        server.stop()
