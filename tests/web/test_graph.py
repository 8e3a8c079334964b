"""The win-probability graph on the web (leaderboard/web/graphs.py) over a real web server and
real matches played through the real referee: its JSON and its drawn fragment before and after
it is computed, the match page's place for it, and the secrecy rule: nothing of a finished
rotation's graph while another rotation of its duplicate deal is to play.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from arena.app import graphs
from arena.games import get_game
from arena.storage.store import Store
from tests.app.test_graph_worker import duplicate_deal
from tests.helpers import migrated_store
from tests.web.replay_fixtures import Server, store_played_match
from tests.web.test_traveller_secrecy import play


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with migrated_store(tmp_path / "arena.db") as opened:
        yield opened


def test_a_finished_match_s_graph_before_and_after_it_is_computed(store: Store) -> None:
    game = get_game("kings-corner")
    match_id = store_played_match(store, game.name, 3, 6, dict(game.demo_options))
    bots = [s.bot for s in sorted(store.get_match(match_id).seats, key=lambda s: s.seat)]
    with Server(store) as server:
        page = httpx.get(f"{server.url}/matches/{match_id}", timeout=60).text
        assert f'<section id="win-graph" class="win-graph" data-src="/matches/{match_id}/graph"' \
            in page and '<script src="/static/graph.js" defer>' in page
        assert httpx.get(f"{server.url}/api/matches/{match_id}/graph", timeout=60).json() == {
            "version": 1, "graph": None, "match_id": match_id, "reason": "not computed yet"}
        fragment = httpx.get(f"{server.url}/matches/{match_id}/graph", timeout=60).text
        assert "win-probability graph: not computed yet" in fragment and "<svg" not in fragment

        made = graphs.compute(store, match_id, cap_s=1.0)
        doc = httpx.get(f"{server.url}/api/matches/{match_id}/graph", timeout=60).json()["graph"]
        assert doc["estimate"] == "from the full deal"
        assert doc["seats"] == [{"seat": seat, "bot": bot} for seat, bot in enumerate(bots)]
        assert (doc["steps"], doc["rollouts"], doc["evaluated"]) == \
            (made.steps, made.rollouts, list(made.evaluated))
        assert len(doc["series"]) == made.steps
        assert [doc["series"][step] for step in made.evaluated] == \
            [[round(c, 4) for c in point] for point in made.chances]
        swings = doc["swings"]
        assert 1 <= len(swings) <= graphs.SWINGS
        assert [s["step"] for s in swings] == sorted(s["step"] for s in swings)
        for swing in swings:
            assert swing["replay"] == f"/matches/{match_id}#step={swing['step']}"
            assert swing["bot"] == bots[swing["seat"]]
            before = dict(zip(made.evaluated, made.chances, strict=True))
            assert swing["change"] == pytest.approx(
                before[swing["step"]][swing["seat"]] - before[swing["from"]][swing["seat"]],
                abs=1e-4)

        fragment = httpx.get(f"{server.url}/matches/{match_id}/graph", timeout=60).text
        assert fragment.count('<polyline class="seat-line') == 3
        for seat, bot in enumerate(bots):
            assert f"seat {seat}: {bot}" in fragment
        marks = re.findall(r'<a class="swing" href="#step=(\d+)"', fragment)
        assert [int(m) for m in marks] == [s["step"] for s in swings]


def test_no_graph_of_a_rotation_while_its_deal_is_in_play(store: Store) -> None:
    deal = duplicate_deal(store)
    play(store, deal[0])
    with Server(store) as server:
        reason = (f"match {deal[0]} deals the same cards as match {deal[1]}, which is not "
                  f"finished yet: match {deal[0]} is shown once that match has finished")
        api = httpx.get(f"{server.url}/api/matches/{deal[0]}/graph", timeout=60)
        assert api.status_code == 403 and api.json() == {"version": 1, "error": reason}
        fragment = httpx.get(f"{server.url}/matches/{deal[0]}/graph", timeout=60)
        assert fragment.status_code == 403 and reason in fragment.text
        pending = httpx.get(f"{server.url}/api/matches/{deal[1]}/graph", timeout=60).json()
        assert pending["graph"] is None
        assert pending["reason"] == f"match {deal[1]} is pending: its graph is computed once it " \
            "has finished"
        assert 'id="win-graph"' not in httpx.get(f"{server.url}/matches/{deal[1]}",
                                                 timeout=60).text
        missing = httpx.get(f"{server.url}/api/matches/999/graph", timeout=60)
        assert missing.status_code == 404 and missing.json()["error"] == "no match with id 999"
