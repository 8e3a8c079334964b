"""Every page and command opens for every kind of tournament, and says what is true of it.

Real tournaments of real bots (Kings in the Corner, two seats, a few matches each) in one
SQLite file: a round-robin, a gauntlet, a versus over all its sets, a versus stopped by its
SPRT, a ladder, a cancelled tournament, a voided one and an interrupted one (a match under
way when its run died). Each is walked through ``tournament show`` (text and ``--json``),
``leaderboard --tournament`` and ``tournament list``, on this machine and over ``--arena``
(a real ``arena serve`` on the same file), and through every web page and JSON document of
that server: no traceback, no error status, and the status word and figures each one
shows are the tournament's own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from arena.storage.store import ScheduledMatch, Store
from tests.helpers import cli
from tests.served import OPERATOR, Served, remote

GAME = "kings-corner"
SPRT = "elo0=0,elo1=300,alpha=0.1,beta=0.1"


@dataclass
class Field:
    db: Path
    kinds: dict[str, int]  # kind: tournament id
    folder: Path  # a managed bot's folder, the operator's path
    sprt_run: str  # what `tournament run` printed for the SPRT versus


def _id(output: str) -> int:
    found = re.search(r"tournament (\d+)", output)
    assert found is not None, output
    return int(found.group(1))


@pytest.fixture(scope="module")
def field(tmp_path_factory: pytest.TempPathFactory) -> Field:
    root = tmp_path_factory.mktemp("every-kind")
    db = root / "arena.db"
    folder = root / "operator-private-folder"
    folder.mkdir()
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    cli("bot", "add", "other", "--command", "python -m bots.random_bot", "--dir", str(folder),
        db=db)
    cli("bot", "add", "corner", "--command", "python -m bots.kings_corner", db=db)
    short = ("--option", "target_score=1")  # a match is one deal: the kinds are the subject
    two = ("--game", GAME, "--players", "2", *short)
    kinds: dict[str, int] = {}
    kinds["round-robin"] = _id(cli("tournament", "run", *two, "--bot", "random", "--bot",
                                   "other", db=db).stdout)
    kinds["gauntlet"] = _id(cli("tournament", "run", *two, "--format", "gauntlet", "--bot",
                                "corner", "--field", "random", db=db).stdout)
    kinds["versus"] = _id(cli("tournament", "run", *two, "--format", "versus", "--bot",
                              "corner", "--bot", "random", "--sets", "2", db=db).stdout)
    sprt_run = cli("tournament", "run", *two, "--format", "versus", "--bot", "corner", "--bot",
                   "random", "--sprt", SPRT, "--sets", "200", db=db).stdout
    kinds["sprt"] = _id(sprt_run)
    ladder = cli("ladder", "start", GAME, "--players", "2", *short, "--bot", "random", "--bot",
                 "other", "--matches", "2", db=db).stdout
    found = re.search(r"ladder (\d+)", ladder)
    assert found is not None, ladder
    kinds["ladder"] = int(found.group(1))
    kinds["voided"] = _id(cli("tournament", "run", *two, "--bot", "random", "--bot", "other",
                              db=db).stdout)
    cli("tournament", "void", str(kinds["voided"]), db=db)
    store = Store(str(db))
    bots = {b.name: b.id for b in store.list_bots()}
    pair = (bots["random"], bots["other"])
    kinds["cancelled"] = store.create_tournament(GAME, 2, {}, 7, 1, {}, list(pair), [
        ScheduledMatch(0, 3, pair), ScheduledMatch(1, 3, pair[::-1])])
    cli("tournament", "cancel", str(kinds["cancelled"]), db=db)
    # a run that died with a match under way (kill -9): no lock held, a match not pending
    kinds["interrupted"] = store.create_tournament(GAME, 2, {}, 8, 1, {}, list(pair), [
        ScheduledMatch(0, 4, pair), ScheduledMatch(1, 4, pair[::-1])])
    first = store.list_matches(kinds["interrupted"], 10)[-1]
    assert first.index == 0 and store.mark_running(first.id)
    store.close()
    return Field(db, kinds, folder, sprt_run)


STATUS = {"round-robin": "finished", "gauntlet": "finished", "versus": "finished",
          "sprt": "finished", "ladder": "finished", "voided": "voided",
          "cancelled": "cancelled", "interrupted": "interrupted"}


@pytest.fixture(scope="module")
def served(field: Field) -> Iterator[Served]:
    server = Served(field.db, "--no-sandbox")
    try:
        yield server
    finally:
        server.stop()


def _clean(done: str) -> str:
    assert "Traceback" not in done and "Error" not in done, done
    return done


def test_an_sprt_run_shows_sets_and_its_llr_not_a_total_it_never_reaches(field: Field) -> None:
    said = field.sprt_run
    assert re.search(r"\d+ sets? played, LLR -?\d+\.\d\d in \[-?\d+\.\d\d, \d+\.\d\d\]", said), said
    assert "up to 200 duplicate sets, until its SPRT decides" in said
    assert "400" not in said  # its cap in matches (200 sets of 2) is no figure of its run
    assert "decided early by its SPRT" in said and "accepted" in said


@pytest.mark.parametrize("where", ["local", "remote"])
def test_every_kind_opens_in_every_command(field: Field, served: Served, where: str) -> None:
    def run(*args: str) -> str:  # in this process, as a command needing none of its own
        if where == "remote":
            return _clean(remote(served, OPERATOR, *args).stdout)
        return _clean(cli(*args, db=field.db).stdout)

    listed = {row["id"]: row for row in json.loads(run("tournament", "list", "--json"))
              ["tournaments"]}
    table = run("tournament", "list")
    for kind, tid in field.kinds.items():
        assert listed[tid]["status"] == STATUS[kind], (kind, listed[tid])
        report = json.loads(run("tournament", "show", str(tid), "--json"))["tournament"]
        assert report["id"] == tid and report["status"] == STATUS[kind]
        shown = run("tournament", "show", str(tid))
        assert shown.splitlines()[1].startswith(STATUS[kind] + ":"), shown
        board = json.loads(run("leaderboard", "--tournament", str(tid), "--json"))
        assert isinstance(board["leaderboard"], list)
        run("leaderboard", "--tournament", str(tid))
        if kind in ("round-robin", "gauntlet", "versus", "sprt", "ladder"):
            assert report["matches"]["finished"] > 0 and board["leaderboard"], kind
    sprt = listed[field.kinds["sprt"]]["sprt"]
    assert sprt["decision"] in ("H1", "H0") and 1 <= sprt["sets"] < 200, sprt
    verdict = "is better" if sprt["decision"] == "H1" else "is not better"
    row = next(line for line in table.splitlines() if re.match(
        rf"\W*{field.kinds['sprt']} ", line))
    assert f"{sprt['sets']} sets, {sprt['decision']}: corner@1 {verdict}" in row, row
    assert "void" not in row and "/400" not in row and "finished" in row
    assert listed[field.kinds["versus"]]["sprt"] is None  # all its sets: no test to show
    versus = json.loads(run("tournament", "show", str(field.kinds["versus"]), "--json"))
    tally = versus["tournament"]["set_tally"]
    assert tally["sets"] == versus["tournament"]["sets"] == \
        tally["wins"] + tally["draws"] + tally["losses"], tally
    a, b = versus["tournament"]["challengers"]
    assert f"sets: {tally['sets']} complete, {a} against {b}: W {tally['wins']}, " \
        f"D {tally['draws']}, L {tally['losses']}" in run("tournament", "show",
                                                          str(field.kinds["versus"]))
    assert json.loads(run("tournament", "show", str(field.kinds["round-robin"]), "--json"))[
        "tournament"]["set_tally"] is None
    shown = run("tournament", "show", str(field.kinds["sprt"])).splitlines()[1]
    assert shown.startswith(f"finished: {sprt['sets']} sets played (at most 200), "), shown
    assert f"of {listed[field.kinds['sprt']]['total']} matches" not in shown


def test_every_kind_opens_on_every_web_page(field: Field, served: Served) -> None:
    with httpx.Client(base_url=served.web, timeout=60) as web:
        def page(path: str) -> str:
            answer = web.get(path)
            assert answer.status_code == 200, (path, answer.status_code, answer.text[:500])
            assert "Traceback" not in answer.text
            return answer.text

        listing = page("/tournaments")
        page("/")
        api = {t["id"]: t for t in web.get("/api/tournaments").json()["tournaments"]}
        for kind, tid in field.kinds.items():
            page(f"/tournaments/{tid}")
            page(f"/tournaments/{tid}/leaderboard")
            document = json.loads(page(f"/api/tournaments/{tid}"))["tournament"]
            assert document["status"] == api[tid]["status"] == STATUS[kind], kind
            page(f"/api/tournaments/{tid}/leaderboard")
        sprt = api[field.kinds["sprt"]]["sprt"]
        verdict = "is better" if sprt["decision"] == "H1" else "is not better"
        said = f"{sprt['sets']}</span> sets, <span data-field=\"decision\">" \
               f"{sprt['decision']}: corner@1 {verdict}"
        assert said in listing
        detail = page(f"/tournaments/{field.kinds['sprt']}")
        assert f"{sprt['sets']} sets played of at most 200" in detail
        assert 'role="progressbar"' not in detail.split("<h2>Standings")[0]
        assert "cancelled" in listing


def test_the_public_bot_page_shows_its_author_and_no_folder_of_the_operator(
        field: Field, served: Served) -> None:
    with httpx.Client(base_url=served.web, timeout=60) as web:
        html = web.get("/bots/other")
        doc = web.get("/api/bots/other").json()["bot"]
        listed = web.get("/api/bots").json()["bots"]
    assert html.status_code == 200 and "by the arena's operator" in html.text
    assert doc["author"] is None and "folder" not in doc
    assert str(field.folder) not in html.text + json.dumps(doc) + json.dumps(listed)
    # the operator's own list still has it
    assert str(field.folder) in cli("bot", "list", db=field.db).stdout
