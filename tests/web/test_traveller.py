"""The duplicate traveller (``/tournaments/{id}/deals/{deal}``) over a real duplicate tournament
of bundled bots (``arena tournament run`` as a process: the Face Card / Kill Card heuristic,
the random bot and the search bot, three seats, two deals of three rotations each) served by a
real web server: the page and its JSON against the stored results (seats, scores, ranks;
matchpoints computed here from the results alone), the partings against the logs (read here
decision by decision, each link checked against the replay's own frame at that step), the
tournament page's links, and the queries answered from indexes.
"""

from __future__ import annotations

import itertools
import re
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from markupsafe import escape

from arena.match.replay import LogLine, describe, read_log
from arena.storage.store import MatchInfo, MatchStatus, SeatInfo, Store
from tests.web.replay_fixtures import Server, add_bot, play_tournament
from tests.web.test_pages import _unindexed

GAME = "face-card-kill-card"
PLAYERS = 3
BOTS = {"heuristic": "python -m bots.face_card_kill_card", "random": "python -m bots.random_bot",
        "search": "python -m bots.search --budget 0.02"}


@dataclass
class Duplicate:
    """A finished duplicate tournament, its store and the web server over it."""

    db: Path
    store: Store
    url: str
    tournament_id: int
    statements: list[tuple[str, Any]] = field(default_factory=list)  # SQL the app ran
    capture: bool = False

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.url + path, timeout=60)

    def json(self, path: str) -> Any:
        reply = self.get(path)
        assert reply.status_code == 200, (path, reply.status_code, reply.text)
        return reply.json()

    def deals(self) -> list[list[MatchInfo]]:
        """The tournament's deals, each its matches in schedule order (read from the store
        here, by seed: the test's own grouping, not the app's)."""
        found: dict[int, list[MatchInfo]] = {}
        for match in sorted(self.store.tournament_matches(self.tournament_id),
                            key=lambda m: m.index):
            found.setdefault(match.seed, []).append(self.store.get_match(match.id))
        return list(found.values())


@pytest.fixture(scope="module")
def duplicate(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Duplicate]:
    db = tmp_path_factory.mktemp("traveller") / "arena.db"
    for name, command in BOTS.items():
        add_bot(db, name, command)
    play_tournament(db, GAME, list(BOTS), "--players", str(PLAYERS), "--repetitions", "2",
                    "--deals", "duplicate")
    store = Store(str(db))
    found = Duplicate(db, store, "", 1)

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any,
               _many: bool) -> None:
        if found.capture:
            found.statements.append((statement, parameters))

    sa.event.listen(store._read, "before_cursor_execute", record)
    try:
        with Server(store) as server:
            found.url = server.url
            yield found
    finally:
        store.close()


# ---------------------------------------------------------------- computed here, from the results


def place(seat: SeatInfo, players: int) -> int:
    """A seat's place: its rank, last when it faulted (as the ratings count a seat)."""
    assert seat.rank is not None
    return players if seat.fault else seat.rank


def expected_matchpoints(matches: Sequence[MatchInfo]) -> dict[tuple[int, int], float]:
    """(match id, seat): its matchpoints against the other finished rotations' same seat."""
    finished = [m for m in matches if m.status is MatchStatus.FINISHED]
    found: dict[tuple[int, int], float] = {}
    for match in finished:
        for seat in match.seats:
            mine = place(seat, len(match.seats))
            total = 0.0
            for other in finished:
                if other.id == match.id:
                    continue
                theirs = place(other.seats[seat.seat], len(other.seats))
                total += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
            found[match.id, seat.seat] = total
    return found


def decisions(match: MatchInfo) -> list[LogLine]:
    assert match.log is not None
    return [line for line in read_log(match.game, match.log) if line.kind == "decision"]


def first_difference(a: Sequence[LogLine], b: Sequence[LogLine]) -> int | None:
    """The number (from 1) of the first decision two logs differ in (None: none)."""
    for number, (x, y) in enumerate(zip(a, b, strict=False), 1):
        if (x.seat, x.value) != (y.seat, y.value):
            return number
    return None


def check_traveller(site: Any, doc: dict[str, Any], matches: Sequence[MatchInfo]) -> None:
    """A traveller's JSON against the stored matches of its deal (``site.json`` fetches a
    replay): seats, scores, ranks, matchpoints and totals, and every parting against the logs
    and against the replay's frame its links open."""
    assert doc["deal"] == matches[0].id
    assert [r["id"] for r in doc["rotations"]] == [m.id for m in matches]
    points = expected_matchpoints(matches)
    finished = [m for m in matches if m.status is MatchStatus.FINISHED]
    totals: dict[str, list[float]] = {}
    for rotation, match in zip(doc["rotations"], matches, strict=True):
        assert rotation["status"] == str(match.status)
        assert rotation["void"] is (match.status is MatchStatus.VOID)
        for seat, stored in zip(rotation["seats"], match.seats, strict=True):
            assert (seat["seat"], seat["bot"], seat["score"], seat["rank"]) == \
                (stored.seat, stored.bot, stored.score, stored.rank)
            if match.status is MatchStatus.FINISHED:
                assert seat["place"] == place(stored, len(match.seats))
                assert seat["matchpoints"] == points[match.id, stored.seat]
                assert seat["top"] == len(finished) - 1
                assert sum(c["points"] for c in seat["against"]) == seat["matchpoints"]
                line = totals.setdefault(stored.bot, [0.0, 0])
                line[0] += points[match.id, stored.seat]
                line[1] += len(finished) - 1
            else:
                assert "matchpoints" not in seat
    assert {t["bot"]: [t["matchpoints"], t["top"]] for t in doc["totals"]} == totals
    check_partings(site, doc["partings"], finished)


def check_partings(site: Any, partings: list[dict[str, Any]],
                   finished: Sequence[MatchInfo]) -> None:
    """Every parting is where rotations with the same decisions so far chose differently, at
    the replay's step it links; every two finished rotations that differ part exactly once, at
    their first differing decision."""
    logs = {m.id: decisions(m) for m in finished}
    by_id = {m.id: m for m in finished}
    frames: dict[int, list[dict[str, Any]]] = {}
    for parting in partings:
        number, seat = parting["decision"], parting["seat"]
        members = [c["match_id"] for choice in parting["choices"] for c in choice["by"]]
        assert len(members) == len(set(members)) >= 2 and len(parting["choices"]) >= 2
        shared = logs[members[0]][:number - 1]
        for match_id in members:  # the same history up to the parting
            assert [(x.seat, x.value) for x in logs[match_id][:number - 1]] == \
                [(x.seat, x.value) for x in shared]
        chosen = []
        for choice in parting["choices"]:
            for who in choice["by"]:
                line = logs[who["match_id"]][number - 1]
                assert line.seat == seat and describe(line.value) == choice["choice"]
                assert who["fallback"] is line.fallback
                assert who["bot"] == by_id[who["match_id"]].seats[seat].bot
                assert who["replay"] == f"/matches/{who['match_id']}?view=full#step={number}"
                if who["match_id"] not in frames:  # the replay's own frame at that step
                    frames[who["match_id"]] = site.json(
                        f"/api/matches/{who['match_id']}/replay?view=full")["frames"]
                frame = frames[who["match_id"]][number]
                assert frame["step"] == number
                assert (frame["decision"]["seat"], frame["decision"]["choice"]) == \
                    (seat, choice["choice"])
            chosen.append(logs[choice["by"][0]["match_id"]][number - 1].value)
        assert all(a != b for a, b in itertools.combinations(chosen, 2)), "choices differ"
    for a, b in itertools.combinations(finished, 2):
        where = first_difference(logs[a.id], logs[b.id])
        apart = [p["decision"] for p in partings if parts(p, a.id, b.id)]
        assert apart == ([] if where is None else [where]), (a.id, b.id, where, partings)


def parts(parting: dict[str, Any], a: int, b: int) -> bool:
    """Whether a parting separates the rotations of matches ``a`` and ``b``."""
    side = {c["match_id"]: number for number, choice in enumerate(parting["choices"])
            for c in choice["by"]}
    return a in side and b in side and side[a] != side[b]


# ---------------------------------------------------------------- the tests


def test_the_traveller_sets_each_deal_s_rotations_side_by_side(duplicate: Duplicate) -> None:
    deals = duplicate.deals()
    assert len(deals) == 2 and all(len(d) == PLAYERS for d in deals)
    partings = 0
    for matches in deals:
        assert all(m.status is MatchStatus.FINISHED for m in matches)
        assert len({tuple(s.bot for s in m.seats) for m in matches}) == PLAYERS  # rotated
        doc = duplicate.json(f"/api/tournaments/1/deals/{matches[0].id}")
        assert doc["version"] == 1
        check_traveller(duplicate, doc["traveller"], matches)
        partings += len(doc["traveller"]["partings"])
        for totals in doc["traveller"]["totals"]:  # every bot held every hand once
            assert (totals["seats"], totals["top"]) == (PLAYERS, PLAYERS * (PLAYERS - 1))

        page = duplicate.get(f"/tournaments/1/deals/{matches[0].id}")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        text = page.text
        assert f'href="/api/tournaments/1/deals/{matches[0].id}"' in text  # its JSON
        points = expected_matchpoints(matches)
        for match in matches:
            assert f'href="/matches/{match.id}?view=full"' in text
            for seat in match.seats:
                cell = re.search(rf'<td data-match="{match.id}" data-seat="{seat.seat}">(.*?)</td>',
                                 text, re.S)
                assert cell is not None, (match.id, seat.seat)
                assert f'href="/bots/{seat.bot}"' in cell.group(1)
                assert f"score {seat.score:.1f}" in cell.group(1)
                assert f"rank {seat.rank}" in cell.group(1)
                assert f'data-field="matchpoints">{points[match.id, seat.seat]:g}<' in cell.group(1)
        for totals in doc["traveller"]["totals"]:
            row = re.search(rf'<tr data-bot="{re.escape(totals["bot"])}">(.*?)</tr>', text, re.S)
            assert row is not None and f'>{totals["matchpoints"]:g}<' in row.group(1)
        for parting in doc["traveller"]["partings"]:
            for choice in parting["choices"]:
                assert f"<code>{escape(choice['choice'])}</code>" in text
                for who in choice["by"]:
                    assert f'href="{who["replay"]}"' in text
    assert partings >= 2, "three different bots part somewhere in two deals"


def test_any_rotation_finds_its_deal_and_the_tournament_page_links_every_traveller(
        duplicate: Duplicate) -> None:
    deals = duplicate.deals()
    for matches in deals:
        for match in matches[1:]:
            assert duplicate.json(f"/api/tournaments/1/deals/{match.id}")["traveller"]["deal"] \
                == matches[0].id
            moved = duplicate.get(f"/tournaments/1/deals/{match.id}")
            assert moved.status_code == 307
            assert moved.headers["location"] == f"/tournaments/1/deals/{matches[0].id}"
    page = duplicate.get("/tournaments/1").text  # a link on every match's row, to its deal
    deal_of = {m.id: matches[0].id for matches in deals for m in matches}
    schedule = sorted((m for matches in deals for m in matches), key=lambda m: m.index)
    assert re.findall(r'<a class="traveller" href="([^"]+)">', page) == \
        [f"/tournaments/1/deals/{deal_of[m.id]}" for m in schedule]
    assert 'id="travellers"' in page
    # an unknown tournament or match, or a match of another tournament: 404, one line
    for path, message in (("/tournaments/1/deals/999", "tournament 1 has no match 999"),
                          ("/tournaments/7/deals/1", "no tournament with id 7")):
        for prefix in ("", "/api"):
            reply = duplicate.get(prefix + path)
            assert reply.status_code == 404 and message in reply.text, (prefix, path)
            if prefix:
                assert reply.json() == {"version": 1, "error": reply.json()["error"]}
                assert "\n" not in reply.json()["error"]


def test_the_traveller_s_queries_are_answered_from_an_index(duplicate: Duplicate) -> None:
    first = duplicate.deals()[0][0].id
    duplicate.statements.clear()
    duplicate.capture = True
    try:
        for path in (f"/tournaments/1/deals/{first}", f"/api/tournaments/1/deals/{first}",
                     "/tournaments/1"):
            assert duplicate.get(path).status_code == 200
    finally:
        duplicate.capture = False
    checked = 0
    with sqlite3.connect(duplicate.db) as db:
        for statement, parameters in {(s, tuple(p) if isinstance(p, (list, tuple)) else p)
                                      for s, p in duplicate.statements}:
            if not statement.lstrip().upper().startswith(("SELECT", "WITH")):
                continue
            plan = [row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)]
            checked += 1
            assert not [line for line in plan if _unindexed(line, statement)], \
                f"{plan}\n{statement}"
            if "seed IN" in statement or "match.seed =" in statement:
                assert any("ix_match_tournament_seed" in line for line in plan), plan
    assert checked >= 5
