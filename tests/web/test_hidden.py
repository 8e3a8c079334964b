"""Hidden information stays hidden on the web: while a real match runs (a real tournament of
real bots, held running by a bot that waits), every page and every piece of data about it,
whatever view is asked for, carries no card the public has not seen; seat and full views
are refused. Once it has finished they are served (and do carry those cards)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import httpx

from tests.web.replay_fixtures import (
    Server,
    gated_tournament,
    hand_cards,
    hidden_cards,
    tokens,
)

QUIET_S = 3.0
"""How long the live feed of the held match is read after its last line."""


def test_no_hidden_card_of_a_running_match_reaches_the_web(tmp_path: Path) -> None:
    gated = gated_tournament(tmp_path, game="kings-corner", hold=6)
    try:
        match, data = gated.running(steps_at_least=5)
        hidden, hands = hidden_cards(match, data), hand_cards(match, data)
        # the hands (7 cards each to start, the gate bot's at least) and the stock
        assert len(hidden) >= 20, hidden
        seats = [f"seat:{s}" for s in range(len(match.seats))]
        views = ["public", *seats, "full", "SEAT:0", "seat:00", "seat:1 ", "all", "", "seat:-1"]
        bots = sorted({s.bot for s in match.seats})
        with Server(gated.store) as server, httpx.Client(base_url=server.url, timeout=30) as web:
            bodies: dict[str, str] = {}

            def get(url: str, **params: str) -> httpx.Response:
                response = web.get(url, params=params)
                bodies[f"{url} {params}"] = response.text
                return response

            get("/")
            for url in (f"/matches/{match.id}", f"/api/matches/{match.id}/replay"):
                assert get(url).status_code == 200
                for view in views:
                    response = get(url, view=view)
                    if view == "public":
                        assert response.status_code == 200
                    else:
                        assert response.status_code in (400, 403), (url, view)
                    if view in (*seats, "full"):
                        assert response.status_code == 403
                        assert "open once it has finished" in response.text
            for url in (f"/tournaments/{match.tournament_id}",
                        f"/api/tournaments/{match.tournament_id}",
                        f"/api/tournaments/{match.tournament_id}/matches", "/tournaments",
                        "/api/tournaments", *(f"/bots/{b}" for b in bots),
                        *(f"/api/bots/{b}" for b in bots), "/leaderboard/kings-corner",
                        "/api/leaderboard/kings-corner", "/openapi.json"):
                get(url)  # whatever their status, they say nothing of the cards
            feed: list[str] = []
            # the feed's frames so far come at once; then it is read until it has been quiet
            # for QUIET_S, a few of its polls of the running match (its keep-alive comment
            # comes only after 15 s)
            quiet = httpx.Timeout(30, read=QUIET_S)
            with web.stream("GET", f"/api/matches/{match.id}/live", timeout=quiet) as stream:
                assert stream.status_code == 200
                with contextlib.suppress(httpx.ReadTimeout):
                    for line in stream.iter_lines():
                        feed.append(line)
            bodies["live feed"] = "\n".join(feed)
            public = json.loads(bodies[f"/api/matches/{match.id}/replay {{'view': 'public'}}"])
            assert public["steps"] >= 5 and not public["final"]
            assert sum(line.startswith("event: frame") for line in feed) == public["steps"]
            shown = tokens(bodies[f"/api/matches/{match.id}/replay {{'view': 'public'}}"])
            assert len(shown) >= 4, "the public view shows the cards on the table"
            for where, body in bodies.items():
                leaked = tokens(body) & hidden
                assert not leaked, f"{where} shows hidden cards {sorted(leaked)}"

            gated.open()
            for view in ("full", *seats):
                response = web.get(f"/api/matches/{match.id}/replay", params={"view": view})
                assert response.status_code == 200, response.text
            full = web.get(f"/api/matches/{match.id}/replay", params={"view": "full"}).text
            assert hands and hands <= hidden and hands <= tokens(full), \
                "the full view shows the hands once the match has finished"
            assert web.get(f"/matches/{match.id}", params={"view": "seat:0"}).status_code == 200
    finally:
        gated.close()
