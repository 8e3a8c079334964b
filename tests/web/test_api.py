"""The JSON API: the same documents as the CLI's ``--json`` (docs/json.md), pages that join up
to whole lists, 404s and 422s with one clear message."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import GAME
from tests.web.conftest import Arena


def _all_pages(played: Arena, path: str, key: str) -> list[dict[str, Any]]:
    """Every item of a paginated list, following its ``next`` links."""
    items: list[dict[str, Any]] = []
    seen = 0
    while path:
        page = played.json(path)
        assert page["version"] == 1
        items += page[key]
        path = page.get("next")
        seen += 1
        assert seen < 100
    return items


def test_the_leaderboard_is_the_clis(played: Arena) -> None:
    board = played.json(f"/api/leaderboard/{GAME}")
    cli = [row for row in played.cli["leaderboard"]["leaderboard"] if row["pool"] == GAME]
    assert len(cli) == 3  # the three bots that played
    assert [{k: v for k, v in row.items() if k != "trend"} for row in board["leaderboard"]] == cli
    assert (board["game"], board["pool"], board["total"], board["next"]) == (GAME, GAME, 3, None)
    for row in board["leaderboard"]:  # a sparkline: its last ratings, the last the current one
        assert 2 <= len(row["trend"]) <= 30 and row["trend"][-1] == pytest.approx(row["rating"])
    first, second = played.json(f"/api/leaderboard/{GAME}?limit=2"), None
    assert [r["bot"] for r in first["leaderboard"]] == [r["bot"] for r in cli[:2]]
    second = played.json(first["next"])
    assert [r["bot"] for r in second["leaderboard"]] == [cli[2]["bot"]] and second["next"] is None
    assert second["leaderboard"][0]["rank"] == 3


def test_a_tournament_is_the_clis_show(played: Arena) -> None:
    shown = played.cli["show"]
    web = played.json("/api/tournaments/1")
    # its presence (thousands of matches read) is a page of its own on the web
    assert web["tournament"].pop("presence") is None
    presence = {**shown["tournament"]}.pop("presence")
    assert web == {**shown, "tournament": {k: v for k, v in shown["tournament"].items()
                                           if k != "presence"}}
    assert played.json("/api/tournaments/1/presence") == {"version": 1, "presence": presence}
    assert played.json("/api/tournaments/1/leaderboard") == played.cli["own_leaderboard"]
    report = played.cli["show"]["tournament"]
    assert report["matches"]["finished"] == 6 and "deal_key" not in str(played.json(
        "/api/tournaments/1"))
    progress = played.json("/api/tournaments/2/progress")["progress"]
    assert progress == {"id": 2, "status": "running", "finished_at": None,
                        "matches": {"total": 4, "finished": 0, "running": 0, "pending": 4,
                                    "void": 0}}


def test_tournament_lists_and_matches_page_through_everything(played: Arena) -> None:
    listed = _all_pages(played, "/api/tournaments?limit=1", "tournaments")
    assert listed == played.cli["tournaments"]["tournaments"]
    assert [t["id"] for t in listed] == [2, 1]
    matches = _all_pages(played, "/api/tournaments/1/matches?limit=4", "matches")
    assert matches == played.cli["export"]["matches"]
    assert [m["index"] for m in matches] == list(range(6))
    page2 = played.json("/api/tournaments/1/matches?limit=4&page=2")
    assert [m["index"] for m in page2["matches"]] == [4, 5] and page2["next"] is None
    assert page2["pages"] == 2


def test_bots_page_through_every_version(played: Arena) -> None:
    bots = _all_pages(played, "/api/bots?limit=2", "bots")
    assert [b["bot"] for b in bots] == ["far@1", "heuristic@1", "heuristic@2", "illegal@1",
                                       "random@1"]
    # none removed: the very same rows, but for the operator's folder (not shown in public)
    # and with the author (None: the operator's)
    cli = {b["bot"]: {**{k: v for k, v in b.items() if k != "folder"}, "author": None}
           for b in played.cli["bots"]["bots"]}
    assert {b["bot"]: b for b in bots} == cli


def test_a_bot_has_versions_ratings_history_head_to_head_matches_and_faults(played: Arena) -> None:
    doc = played.json("/api/bots/heuristic@1")["bot"]
    assert (doc["bot"], [v["bot"] for v in doc["versions"]]) == (
        "heuristic@1", ["heuristic@1", "heuristic@2"])
    assert played.json("/api/bots/heuristic")["bot"]["bot"] == "heuristic@2"  # the newest
    [rating] = doc["ratings"]
    board = {r["bot"]: r for r in played.cli["leaderboard"]["leaderboard"]}
    assert rating == board["heuristic@1"]
    [history] = doc["history"]
    assert (history["pool"], history["matches"]) == (GAME, 4)
    assert len(history["points"]) == 4
    assert history["points"][-1]["mu"] == pytest.approx(rating["mu"])
    mine = {h["opponent"]: h for h in doc["head_to_head"]}
    assert set(mine) == {"random@1", "illegal@1"}
    compared = played.cli["compare"]["comparison"]  # `arena compare heuristic@1 random`
    assert {k: mine["random@1"][k] for k in ("n", "wins", "losses", "ties", "share", "low",
                                             "high", "los")} == \
        {k: compared[k] for k in ("n", "wins", "losses", "ties", "share", "low", "high", "los")}
    shared = [{s["bot"]: s["rank"] for s in m["seats"]} for m in played.cli["export"]["matches"]
              if {s["bot"] for s in m["seats"]} == {"heuristic@1", "illegal@1"}]
    assert len(shared) == 2
    against = mine["illegal@1"]
    assert (against["n"], against["wins"], against["losses"], against["ties"]) == (
        2, sum(r["heuristic@1"] < r["illegal@1"] for r in shared),
        sum(r["heuristic@1"] > r["illegal@1"] for r in shared),
        sum(r["heuristic@1"] == r["illegal@1"] for r in shared))
    assert against["mean_rank"] == sum(r["heuristic@1"] for r in shared) / 2
    played_matches = [m for m in played.cli["export"]["matches"]
                      if any(s["bot"] == "heuristic@1" for s in m["seats"])]
    pages = _all_pages(played, "/api/bots/heuristic@1/matches?limit=3", "matches")
    assert pages == sorted(played_matches, key=lambda m: -m["id"])
    assert doc["matches"] == pages  # the first page (limit 20) holds them all
    assert doc["faults"] == [] and doc["fault_counts"] == {}


def test_a_bots_faults_name_the_match_and_the_fault(played: Arena) -> None:
    doc = played.json("/api/bots/illegal")["bot"]
    expected = [(m["id"], s["seat"]) for m in played.cli["export"]["matches"]
                for s in m["seats"] if s["bot"] == "illegal@1" and s["fault"]]
    assert len(expected) >= 2  # it faults whenever it must decide (most of its 4 matches)
    assert doc["fault_counts"] == {"illegal-action": len(expected)}
    faults = _all_pages(played, "/api/bots/illegal/faults?limit=1", "faults")
    assert [(f["match_id"], f["seat"]) for f in faults] == sorted(expected, reverse=True)
    assert {f["fault"] for f in faults} == {"illegal-action"}
    # with its reason, from the match log, where the referee wrote it
    assert all(f["reason"].startswith("chose index ") and "legal actions" in f["reason"]
               for f in faults), faults
    assert doc["ratings"][0]["faults"] == len(expected)


def test_the_home_document(played: Arena) -> None:
    home = played.json("/api/home")["home"]
    assert [g["name"] for g in home["games"]] == ["face-card-kill-card", "kill",
                                                  "serial-killer", "king", "kings-corner",
                                                  "knives"]
    leader = played.cli["leaderboard"]["leaderboard"][0]
    assert home["games"][0]["leader"] == leader
    assert all(g["leader"] is None for g in home["games"][1:])
    assert [t["id"] for t in home["running"]] == [2]
    assert home["recent_matches"] == [m for m in played.cli["matches"]["matches"]
                                      if m["status"] == "finished"]


@pytest.mark.parametrize(("path", "message"), [
    ("/api/bots/nobody", "no bot nobody"),
    ("/api/bots/random@9", "no bot random@9 (versions of random: 1)"),
    ("/api/bots/%3Cb%3E", "no bot <b>"),
    ("/api/tournaments/99", "no tournament with id 99"),
    ("/api/tournaments/99/matches", "no tournament with id 99"),
    ("/api/leaderboard/poker", "unknown game 'poker'"),
    ("/api/leaderboard/kill?pool=king", "'king' is no rating pool of kill"),
    ("/api/nothing", "no page /api/nothing"),
])
def test_unknown_things_are_404_with_one_line(played: Arena, path: str, message: str) -> None:
    reply = played.get(path)
    assert reply.status_code == 404
    error = reply.json()["error"]
    assert message in error and "\n" not in error and "Traceback" not in reply.text


@pytest.mark.parametrize(("path", "message"), [
    ("/api/tournaments?limit=1000", "limit: Input should be less than or equal to 100"),
    ("/api/leaderboard/kill?page=0", "page: Input should be greater than or equal to 1"),
    ("/api/tournaments/abc", "tournament_id: Input should be a valid integer"),
    ("/api/bots/random/matches?before=x", "before: Input should be a valid integer"),
])
def test_bad_parameters_are_422_with_one_line(played: Arena, path: str, message: str) -> None:
    reply = played.get(path)
    assert reply.status_code == 422
    assert message in reply.json()["error"] and "\n" not in reply.json()["error"]


def test_openapi_is_served_and_no_docs_page_loads_from_a_cdn(played: Arena) -> None:
    schema = played.json("/openapi.json")
    assert "/api/leaderboard/{game}" in schema["paths"] and "/api/bots/{label}" in schema["paths"]
    assert played.get("/docs").status_code == 404 and played.get("/redoc").status_code == 404
