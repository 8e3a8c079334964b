"""Authors on the web, in process (the app over a real SQLite file, a real submission desk):
signing in and out, the CSRF check of every form, wrong tokens throttled, a session that ends
when it expires or the token changes, an author's own bots, logs and notes only, and the
submit form's caps and refusals. Everything public stays public signed out."""

from __future__ import annotations

import base64
import io
import json
import re
import sqlite3
import time
import zipfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from itsdangerous import TimestampSigner

from arena.app import authors
from arena.app.signin import SESSION_S, THROTTLE_FAILURES, signed_in
from arena.app.submitting import MAX_ARCHIVE_BYTES, SubmissionDesk
from arena.app.validation import NOT_VALIDATED
from arena.storage.store import Store
from arena.wire.tokens import digest
from leaderboard.web.app import create_app
from tests.helpers import cli, migrated_store

BOT = "from bots.random_bot import RandomBot\nfrom sdk.run import run\nrun(RandomBot)\n"


def _archive(name: str, body: str = BOT) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as made:
        made.writestr("arena-bot.toml", f'name = "{name}"\ncommand = "python bot.py"\n'
                                        'games = ["face-card-kill-card"]\n')
        made.writestr("bot.py", body)
    return data.getvalue()


def _csrf(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None, page
    return found.group(1)


def _sign_in(client: TestClient, token: str) -> int:
    form = client.get("/signin")
    done = client.post("/signin", data={"token": token, "csrf_token": _csrf(form.text)},
                       follow_redirects=False)
    return int(done.status_code)


def _main(text: str) -> str:
    return text.split("<main>", 1)[1].split("</main>", 1)[0]


@pytest.fixture
def arena(tmp_path: Path) -> tuple[Store, TestClient, dict[str, str]]:
    store = migrated_store(tmp_path / "arena.db")
    tokens = {name: authors.add(store, name)[1] for name in ("ann", "bob")}
    app = create_app(store)
    app.state.desk = SubmissionDesk(store, tmp_path / "arena-data", NOT_VALIDATED)
    return store, TestClient(app), tokens


def test_an_author_signs_in_sees_their_page_and_signs_out(
        arena: tuple[Store, TestClient, dict[str, str]]) -> None:
    _, client, tokens = arena
    assert client.get("/me", follow_redirects=False).headers["location"] == "/signin"
    assert "Sign in" in client.get("/").text
    assert _sign_in(client, tokens["ann"]) == 303
    me = client.get("/me")
    assert me.status_code == 200 and "<h1>ann" in me.text and 'href="/me">ann</a>' in me.text
    cookie = client.cookies.get("arena_session")
    assert cookie and tokens["ann"] not in cookie  # the session keeps a hash, never the token
    # signing out needs the form's CSRF token too
    assert client.post("/signout", data={"csrf_token": "forged"}).status_code == 403
    again = client.get("/me")  # each form page signs a token of its own: the latest counts
    assert again.status_code == 200
    out = client.post("/signout", data={"csrf_token": _csrf(again.text)},
                      follow_redirects=False)
    assert out.status_code == 303
    assert client.get("/me", follow_redirects=False).headers["location"] == "/signin"
    # a copy of the cookie taken before signing out (a stolen one) is signed out too
    client.cookies.set("arena_session", cookie)
    assert client.get("/me", follow_redirects=False).headers["location"] == "/signin"


def test_a_session_cookie_made_without_the_apps_key_signs_in_no_one(
        arena: tuple[Store, TestClient, dict[str, str]]) -> None:
    """Someone who knows what a session holds (even ann's token's hash) but not the app's
    key cannot make a cookie that signs them in."""
    _, client, tokens = arena
    held = {"token_hash": digest(tokens["ann"]), "since": time.time(), "sid": "forged",
            "author": "ann"}
    payload = base64.b64encode(json.dumps(held).encode())
    for forged in (TimestampSigner("not the app's key").sign(payload).decode(),
                   payload.decode(), payload.decode() + ".x.y"):
        client.cookies.set("arena_session", forged)
        me = client.get("/me", follow_redirects=False)
        assert me.status_code == 303 and me.headers["location"] == "/signin"


def test_a_form_without_its_csrf_token_or_from_another_site_is_refused(
        arena: tuple[Store, TestClient, dict[str, str]]) -> None:
    _, client, tokens = arena
    no_token = client.post("/signin", data={"token": tokens["ann"]})
    assert no_token.status_code == 403 and "came from elsewhere" in no_token.text
    # a token of this site's form, posted without the cookie it was issued with (another
    # site's page cannot send it): refused
    token = _csrf(client.get("/signin").text)
    client.cookies.clear()
    refused = client.post("/signin", data={"token": tokens["ann"], "csrf_token": token})
    assert refused.status_code == 403
    assert client.get("/me", follow_redirects=False).status_code == 303  # not signed in


def test_wrong_tokens_are_refused_in_one_line_and_throttled(
        arena: tuple[Store, TestClient, dict[str, str]]) -> None:
    _, client, tokens = arena
    page = client.get("/signin")
    wrong = client.post("/signin", data={"token": "guess", "csrf_token": _csrf(page.text)})
    assert wrong.status_code == 403
    assert "that token is no author&#39;s" in _main(wrong.text) and "Traceback" not in wrong.text
    for _ in range(THROTTLE_FAILURES - 1):  # each refusal is a new form, with its own token
        wrong = client.post("/signin", data={"token": "guess", "csrf_token": _csrf(wrong.text)})
        assert wrong.status_code == 403
    # the tenth wrong token within the minute blocks the address: even the right one now
    blocked = client.post("/signin", data={"token": tokens["ann"],
                                           "csrf_token": _csrf(wrong.text)})
    assert blocked.status_code == 429 and "too many wrong tokens" in blocked.text
    assert client.get("/me", follow_redirects=False).status_code == 303


def test_a_session_ends_when_it_expires_or_the_author_has_a_new_token(
        arena: tuple[Store, TestClient, dict[str, str]]) -> None:
    store, client, tokens = arena
    hashed = digest(tokens["ann"])
    now = time.time()
    assert signed_in(store, hashed, now - 60) is not None
    assert signed_in(store, hashed, now - SESSION_S - 1) is None  # expired
    assert signed_in(store, hashed, now + 60) is None  # from the future: forged
    assert signed_in(store, "x" * 64, now) is None
    assert _sign_in(client, tokens["ann"]) == 303
    assert client.get("/me").status_code == 200
    authors.issue_token(store, "ann")  # a new token: every session of the old one is over
    assert client.get("/me", follow_redirects=False).headers["location"] == "/signin"


def test_the_submit_form_takes_an_archive_with_the_same_caps_and_refusals(
        arena: tuple[Store, TestClient, dict[str, str]]) -> None:
    store, client, tokens = arena
    _sign_in(client, tokens["ann"])

    def submit(data: bytes, label: str = "", csrf: str | None = None) -> tuple[int, str]:
        token = csrf if csrf is not None else _csrf(client.get("/me").text)
        done = client.post("/me/submit", data={"csrf_token": token, "label": label},
                           files={"archive": ("bot.zip", data, "application/zip")})
        return done.status_code, _main(done.text)

    code, page = submit(_archive("ann-rand"), label="v1")
    assert code == 200 and "Accepted" in page and 'href="/bots/ann-rand@v1"' in page
    assert [b.label for b in store.list_bots()] == ["ann-rand@v1"]
    assert store.get_bot("ann-rand").author_id is not None
    assert store.get_bot("ann-rand").validated is None  # this desk validates nothing
    assert "none: accepted without one" in _main(client.get("/me").text)
    code, page = submit(_archive("ann-rand"))
    assert code == 200 and "kept already" in page and len(store.list_bots()) == 1

    code, page = submit(b"not an archive")
    assert code in (400, 422) and "Refused" in page and "Traceback" not in page
    code, page = submit(_archive("ann-rand"), label="bad label!")
    assert code == 400 and "label" in page
    code, page = submit(_archive("x") + b"\0" * (MAX_ARCHIVE_BYTES + 70_000))
    assert code == 429 and "at most" in page  # over the cap: refused, nothing kept
    code, page = submit(_archive("ann-two"), csrf="forged")
    assert code == 403
    assert [b.label for b in store.list_bots()] == ["ann-rand@v1"]  # nothing else kept

    # another author's name is theirs
    client.post("/signout", data={"csrf_token": _csrf(client.get("/me").text)})
    _sign_in(client, tokens["bob"])
    code, page = submit(_archive("ann-rand"), label="v2")
    assert code == 403 and "ann" in page
    assert "ann-rand" not in _main(client.get("/me").text)  # bob's page: his bots only


def test_an_author_reads_their_own_bots_logs_and_no_one_elses(
        tmp_path: Path, arena: tuple[Store, TestClient, dict[str, str]]) -> None:
    _, client, tokens = arena
    _sign_in(client, tokens["ann"])
    client.post("/me/submit", data={"csrf_token": _csrf(client.get("/me").text), "label": "1"},
                files={"archive": ("bot.zip", _archive("ann-rand"), "application/zip")})
    logs = tmp_path / "arena-data" / "logs"
    logs.mkdir(parents=True)
    (logs / "ann-rand@1.log").write_text("lane 0 says hello\n")
    (logs / "ann-rand@1.lane1.log").write_text("lane 1 says <b>hi</b>\n")
    page = client.get("/me/bots/ann-rand@1/log")
    assert page.status_code == 200, page.text
    assert "lane 0 says hello" in page.text and "lane 1 says &lt;b&gt;hi&lt;/b&gt;" in page.text

    client.post("/signout", data={"csrf_token": _csrf(client.get("/me").text)})
    assert client.get("/me/bots/ann-rand@1/log", follow_redirects=False).status_code == 303
    _sign_in(client, tokens["bob"])
    refused = client.get("/me/bots/ann-rand@1/log")
    assert refused.status_code == 403 and "lane 0" not in refused.text


def test_an_author_signed_in_reads_their_own_bots_notes_in_a_replay(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    store = migrated_store(db)
    token = authors.add(store, "ann")[1]
    store.close()
    # ann's noter, as an author's bot would be after its submission; and the operator's random
    cli("bot", "add", "noter", "--command", "python -m tests.bots.noter", db=db)
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    with sqlite3.connect(db) as raw:  # the test's shortcut to an author's bot (a submission's)
        raw.execute("UPDATE bot SET author_id = (SELECT id FROM author) WHERE name = 'noter'")
    raw.close()
    cli("tournament", "run", "--game", "face-card-kill-card", "--bot", "noter", "--bot",
        "random", "--players", "2", "--repetitions", "12", "--seed", "3", db=db)
    store = Store(str(db))
    client = TestClient(create_app(store))
    noted = []
    for match in store.list_matches(limit=100):
        seat = next(s.seat for s in match.seats if s.bot == "noter@1")
        noted.append((match.id, seat))

    def notes(match_id: int) -> list[tuple[int, str]]:
        frames = client.get(f"/api/matches/{match_id}/replay?view=full").json()["frames"]
        return [(f["decision"]["seat"], f["decision"]["note"]) for f in frames
                if f["decision"] and "note" in f["decision"]]

    assert all(notes(match_id) == [] for match_id, _ in noted)  # signed out: none
    _sign_in(client, token)
    seen = [notes(match_id) for match_id, _ in noted]
    assert any(seen)
    for (_, seat), found in zip(noted, seen, strict=True):
        assert all(s == seat for s, _ in found)  # its own bot's seat only
    store.close()
