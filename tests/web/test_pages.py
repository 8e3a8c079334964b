"""The HTML pages: what they show, that they link to each other, escape what users and bots
wrote, load nothing from elsewhere, and that every query they make is answered from an index."""

from __future__ import annotations

import re
import sqlite3
from html.parser import HTMLParser
from pathlib import Path

from fastapi.testclient import TestClient

from arena.storage.store import MatchResult, ScheduledMatch
from leaderboard.web.app import create_app
from tests.helpers import GAME, migrated_store
from tests.web.conftest import ILLEGAL_COMMAND, MARKUP, Arena

PAGES = ["/", f"/leaderboard/{GAME}", "/tournaments", "/tournaments/1", "/tournaments/2",
         "/tournaments/1/leaderboard", "/tournaments/1?page=2&limit=4", "/bots", "/bots/random",
         "/bots/heuristic@1", "/bots/heuristic", "/bots/illegal", "/bots/far",
         "/tournaments?limit=1", "/bots?limit=2", "/bots/heuristic@1?limit=2", "/tv"]
STATIC = ["/static/style.css", "/static/live.js", "/static/tv.js"]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []  # every href and src
        self.scripts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)
            if tag == "script" and name == "src" and value is not None:
                self.scripts.append(value)


def _links(html: str) -> _Links:
    parser = _Links()
    parser.feed(html)
    return parser


def _text(html: str) -> str:
    """The page's text, tags gone and space folded (entities left as written)."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_every_page_is_html_with_the_nav_bar(played: Arena) -> None:
    for path in PAGES:
        reply = played.get(path)
        assert reply.status_code == 200, (path, reply.text[:300])
        assert reply.headers["content-type"].startswith("text/html")
        links = _links(reply.text).links
        for nav in ("/", "/leaderboard", "/tournaments", "/bots"):
            assert nav in links, (path, nav)


def test_the_leaderboard_page_shows_the_clis_numbers(played: Arena) -> None:
    html = played.get(f"/leaderboard/{GAME}").text
    text = _text(html)
    rows = [r for r in played.cli["leaderboard"]["leaderboard"] if r["pool"] == GAME]
    for row in rows:
        cells = (f"{row['rank']} {row['bot']} {row['rating']:.2f} {row['mu']:.2f} "
                 f"{row['sigma']:.2f} {row['matches']} {row['win_share'] * 100:.0f}% {row['faults']}")
        assert cells in text, cells
    assert html.count("<svg class=\"spark") == 3  # a sparkline a row
    assert "faults: the matches in which the bot timed out, crashed, disconnected" in text


def test_the_tournament_page_shows_settings_standings_crosstable_and_matches(played: Arena) -> None:
    report = played.cli["show"]["tournament"]
    html = played.get("/tournaments/1").text
    text = _text(html)
    assert "round-robin" in text and "6 of 6 matches finished" in text
    for row in report["standings"]:
        assert f"{row['rank']} {row['bot']} {row['rating']:.2f} {row['mu']:.2f}" in text
    cell = next(c for c in report["crosstable"] if c["bot"] == "heuristic@1")
    assert f"{cell['share'] * 100:.0f}% ({cell['n']})" in text
    for match in played.cli["export"]["matches"]:
        assert f'href="/matches/{match["id"]}"' in html
    assert str(report["id"]) in text and "seed" not in text.replace("no seed is shown", "")
    assert "/static/live.js" not in html  # finished: nothing to follow
    running = played.get("/tournaments/2").text
    assert _links(running).scripts == ["/static/live.js"]
    assert 'data-status="running"' in running and "0 of 4 matches finished" in _text(running)
    second = played.get("/tournaments/1?page=2&limit=4").text
    assert "page 2 of 2" in _text(second)
    assert [f"/matches/{m['id']}" for m in played.cli["export"]["matches"][4:]] == \
        sorted({link for link in _links(second).links if link.startswith("/matches/")})


def test_the_bot_page_shows_versions_chart_head_to_head_and_faults(played: Arena) -> None:
    html = played.get("/bots/illegal").text
    text = _text(html)
    faulted = sum(1 for m in played.cli["export"]["matches"] for s in m["seats"]
                  if s["bot"] == "illegal@1" and s["fault"])
    assert f"illegal-action {faulted} (seats)" in text
    assert html.count('<polyline class="mu"') == 1 and 'class="band"' in html
    assert "chose index " in text and " legal actions" in text  # each fault's reason
    bot = played.get("/bots/heuristic@1").text
    assert "random@1" in _text(bot) and "illegal@1" in _text(bot)
    assert "active" in _text(bot) and 'href="/bots/heuristic@2"' in bot


def test_what_users_and_bots_wrote_is_escaped(played: Arena) -> None:
    assert MARKUP in ILLEGAL_COMMAND
    for path in ("/bots/illegal", "/bots"):
        html = played.get(path).text
        assert MARKUP not in html
    html = played.get("/bots/illegal").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert _links(html).scripts == []
    error = played.get("/bots/%3Cimg%20src=x%20onerror=alert(1)%3E")  # in the message
    assert error.status_code == 404 and "<img" not in error.text
    assert "no bot &lt;img src=x onerror=alert(1)&gt;" in error.text


def test_nothing_is_loaded_from_another_host(played: Arena) -> None:
    for path in PAGES + STATIC:
        reply = played.get(path)
        assert reply.status_code == 200, path
        body = reply.text
        assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}", body, re.IGNORECASE), path
        if path.endswith(".css"):
            assert "@import" not in body and "url(" not in body
        for link in _links(body).links:
            assert link.startswith(("/", "?", "#")), (path, link)


def test_every_link_between_the_pages_leads_somewhere(played: Arena) -> None:
    seen: set[str] = set()
    todo = ["/"]
    while todo:
        path = todo.pop()
        if path in seen or len(seen) > 200:
            continue
        seen.add(path)
        reply = played.get(path, follow_redirects=True)
        assert reply.status_code == 200, (path, reply.status_code)
        if reply.headers["content-type"].startswith("text/html"):
            for link in _links(reply.text).links:
                if link.startswith("/matches/"):  # the replay viewer's pages
                    continue
                if link.startswith("/") and not link.startswith("/static/"):
                    todo.append(link.replace("&amp;", "&"))
    assert {"/bots/random@1", "/tournaments/1", f"/leaderboard/{GAME}", "/bots/far"} <= seen
    assert any(p.startswith("/api/") for p in seen)  # each page links its JSON


def test_unknown_pages_are_404_pages(played: Arena) -> None:
    for path, message in (("/bots/nobody", "no bot nobody"), ("/tournaments/99",
                          "no tournament with id 99"), ("/leaderboard/poker", "unknown game"),
                          ("/nowhere", "no page /nowhere")):
        reply = played.get(path)
        assert reply.status_code == 404 and reply.headers["content-type"].startswith("text/html")
        assert message in reply.text and "Traceback" not in reply.text
    bad = played.get("/tournaments?limit=0")
    assert bad.status_code == 422 and "limit: Input should be greater than or equal to 1" in bad.text


SMALL = {"bot", "tournament", "rating"}  # a row per bot, tournament, bot and pool
"""Tables a page may read whole; any other is the size of the matches (match, seat,
rating_history) and is read through an index."""


def _unindexed(line: str, statement: str) -> bool:
    """Whether a line of a query plan reads a big table without an index: a ``SCAN`` of
    anything but a small table or a subquery's rows, unless through an index and with a
    LIMIT (the latest N, in index order)."""
    found = re.match(r"SCAN (\S+)", line)
    if found is None:
        return False
    name = found.group(1)
    if (name in SMALL or name.startswith(("(", "anon_")) or re.fullmatch(r"p\d+", name)
            or re.search(rf"\bWITH {re.escape(name)} AS\b", statement)):
        return False  # a small table, or the rows of a subquery or CTE (itself explained)
    return not ("INDEX" in line and "LIMIT" in statement.upper())


def test_every_query_a_page_makes_is_answered_from_an_index(played: Arena) -> None:
    """The SQL each page and API call issues (captured from the store's engine), explained by
    SQLite: no table of the size of the matches is read whole (see :func:`_unindexed`)."""
    played.statements.clear()
    played.capture = True
    try:
        for path in [*PAGES, "/api/home", f"/api/leaderboard/{GAME}", "/api/bots/illegal",
                     "/api/bots/random/matches?limit=2", "/api/bots/illegal/faults",
                     "/api/tournaments/1/matches?page=2&limit=2", "/api/tournaments/2/progress",
                     "/api/tournaments/1/leaderboard"]:
            assert played.get(path).status_code == 200, path
    finally:
        played.capture = False
    statements = {(s, tuple(p) if isinstance(p, (list, tuple)) else p)
                  for s, p in played.statements}
    checked = 0
    lines: set[str] = set()
    with sqlite3.connect(played.db) as db:
        for statement, parameters in statements:
            if not statement.lstrip().upper().startswith(("SELECT", "WITH")):
                continue
            plan = [row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)]
            checked += 1
            lines.update(plan)
            bad = [line for line in plan if _unindexed(line, statement)]
            assert not bad, f"{bad}\n{statement}"
    assert checked > 20
    # the check sees the big tables' searches (it would see their scans)
    assert any(line.startswith("SEARCH seat USING") for line in lines)
    assert any("rating_history USING" in line for line in lines)
    assert _unindexed("SCAN match", "SELECT * FROM match")  # what it would refuse
    assert _unindexed("SCAN me", "SELECT 1")
    assert not _unindexed("SCAN recent", "WITH recent AS (SELECT 1) SELECT * FROM recent")


def test_a_game_rated_only_in_another_pool_shows_that_pool_by_default(tmp_path: Path) -> None:
    """As after `arena demo`, whose short matches are rated in pools of their own: the home
    page names that pool's leader, and the game's leaderboard opens on it."""
    store = migrated_store(tmp_path / "arena.db")
    a, b = (store.add_bot(name, "python -m bots.random_bot").id for name in ("ann", "bob"))
    tid = store.create_tournament("kill", 3, {"target_score": 11}, 1, 1, {}, [a, b],
                                  [ScheduledMatch(0, 5, (a, b, b))])
    [match] = store.claim_unfinished(tid)
    store.finish_match(match.id, MatchResult((11.0, 3.0, 2.0), (1, 2, 3), ("", "", "")))
    client = TestClient(create_app(store))
    kill = next(g for g in client.get("/api/home").json()["home"]["games"] if g["name"] == "kill")
    assert (kill["leader"]["bot"], kill["leader"]["pool"]) == ("ann@1", "kill[target_score=11]")
    board = client.get("/api/leaderboard/kill").json()
    assert board["pool"] == "kill[target_score=11]" and board["leaderboard"][0]["bot"] == "ann@1"
    assert client.get("/api/leaderboard/kill?pool=kill").json()["leaderboard"] == []
    assert "kill[target_score=11]" in client.get("/").text
