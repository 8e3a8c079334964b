"""The replay viewer's data and page: a match replays from its real (secret) deal to the very
events it logged, from every view; views are refused with one clear message where they must be."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arena.games import all_games, get_game
from arena.games.values import to_json
from arena.match.replay import describe, read_log, steps
from arena.storage.store import MatchResult, ScheduledMatch, Store
from arena.tournament.schedule import Deals
from leaderboard.web.app import create_app
from leaderboard.web.frames import private_fields
from tests.helpers import migrated_store
from tests.web.replay_fixtures import (
    add_bot,
    play_stored,
    play_tournament,
    random_bots,
    store_played_match,
)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return migrated_store(tmp_path / "arena.db")


@pytest.fixture
def client(store: Store) -> TestClient:
    return TestClient(create_app(store))


def merged(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The frames made whole again (each holds only what changed since the one before)."""
    out: list[dict[str, Any]] = []
    for frame in frames:
        before = out[-1] if out else {"public": {}, "seats": {}}
        seats = {s: {**before["seats"].get(s, {}), **own} for s, own in frame["seats"].items()}
        out.append({**frame, "public": {**before["public"], **frame["public"]}, "seats": seats})
    return out


def replay(client: TestClient, match_id: int, view: str) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}/replay", params={"view": view})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    assert data["error"] is None
    return data


def test_a_tournament_match_replays_from_its_secret_deal_to_the_logged_events(
        tmp_path: Path) -> None:
    """A real tournament's deals come from its secret key (an HMAC of the repetition, the
    group and, for independent deals, the rotation), each written with its match; the
    replay steps the engine from that stored deal through the logged decisions and shows
    exactly the logged events, decisions and think times."""
    db = tmp_path / "arena.db"
    add_bot(db, "random", "python -m bots.random_bot")
    add_bot(db, "kc-bot", "python -m bots.kings_corner")
    play_tournament(db, "kings-corner", ["random", "kc-bot"], "--players", "2")
    with sqlite3.connect(db) as connection:
        key, public_seed = connection.execute("select deal_key, seed from tournament").fetchone()
    store = Store(str(db))
    client = TestClient(create_app(store))
    matches = store.tournament_matches(1)
    assert len(matches) == 2
    deals = Deals(key=key)  # duplicate deals: both seat rotations play the same cards
    for match in matches:
        assert match.seed == deals.seed(int(public_seed), 0, 0, match.index)
        lines = read_log(match.game, store.get_match(match.id).log or b"")
        data = replay(client, match.id, "full")
        frames = data["frames"]
        decisions = [line for line in lines if line.kind == "decision"]
        assert data["final"] and data["steps"] == len(frames) == len(decisions) + 1
        shown = [(e["text"], e["to"]) for frame in frames for e in frame["events"]]
        logged = [(describe(line.value), None if line.audience is None else sorted(line.audience))
                  for line in lines if line.kind == "event"]
        assert shown == logged
        for frame, line in zip(frames[1:], decisions, strict=True):
            assert frame["decision"]["seat"] == line.seat
            assert frame["decision"]["choice"] == describe(line.value)
            assert frame["decision"]["offered"][frame["decision"]["chosen"]] == describe(line.value)
            assert frame["decision"]["seconds"] == round(line.seconds, 6) and line.seconds > 0
    store.close()


@pytest.mark.parametrize("name", list(all_games()))
def test_every_game_replays_from_every_view(store: Store, client: TestClient, name: str) -> None:
    game = get_game(name)
    players = game.default_players
    match_id = store_played_match(store, name, players, seed=11, options=dict(game.demo_options))
    match = store.get_match(match_id)
    states = [(game.spectate(step.state), [game.observe(step.state, s) for s in range(players)])
              for step in steps(name, players, match.seed, dict(match.options),
                                read_log(name, match.log or b""))]
    own = private_fields(game)
    public = merged(replay(client, match_id, "public")["frames"])
    assert len(public) == len(states)
    for frame, (view, _) in zip(public, states, strict=True):
        assert frame["public"] == to_json({f.name: getattr(view, f.name)
                                           for f in dataclasses.fields(view)})
        assert frame["seats"] == {}
        assert all(e.get("to") is None and "to" not in e for e in frame["events"])
        assert frame["decision"] is None or set(frame["decision"]) == {"seat", "seconds", "fallback"}
    seat = players - 1
    seen = merged(replay(client, match_id, f"seat:{seat}")["frames"])
    for frame, (_, observations) in zip(seen, states, strict=True):
        assert set(frame["seats"]) == {str(seat)}
        assert frame["seats"][str(seat)] == to_json(
            {field: getattr(observations[seat], field) for field in own})
        decision = frame["decision"]
        if decision is not None:
            assert ("choice" in decision) == (decision["seat"] == seat)
    full = merged(replay(client, match_id, "full")["frames"])
    assert set(full[0]["seats"]) == {str(s) for s in range(players)}
    assert all("choice" in f["decision"] for f in full[1:])


def test_unknown_matches_and_views_get_one_clear_message(store: Store, client: TestClient) -> None:
    match_id = store_played_match(store, "king", 4, seed=3, options={"quick": True})
    for url in ("/api/matches/999/replay", "/matches/999", "/api/matches/999/live"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "no match with id 999" in response.text
    response = client.get(f"/api/matches/{match_id}/replay?view=seat:9")
    assert response.status_code == 400
    assert response.json()["error"] == ("no view 'seat:9': this match has 4 seats, "
                                        "seat:0 to seat:3")
    assert client.get(f"/matches/{match_id}?view=seat:9").status_code == 400
    response = client.get(f"/api/matches/{match_id}/replay?view=everything")
    assert response.status_code == 400 and "public, seat:N" in response.json()["error"]


def test_seat_and_full_views_wait_for_the_match_and_every_rotation_of_its_deal(
        store: Store, client: TestClient) -> None:
    bots = random_bots(store, 2)
    schedule = [ScheduledMatch(index=i, seed=77, seat_bot_ids=tuple(bots[i:] + bots[:i]), lane=i)
                for i in range(2)]  # one duplicate deal, two seat rotations
    tournament = store.create_tournament("kings-corner", 2, {}, 1, 1, {}, bots, schedule,
                                         deal_key="00" * 32)
    first, second = (m.id for m in store.tournament_matches(tournament))

    def status(match_id: int, view: str) -> int:
        code: int = client.get(f"/api/matches/{match_id}/replay?view={view}").status_code
        return code

    assert [status(first, v) for v in ("public", "seat:0", "full")] == [200, 403, 403]
    log = play_stored(store, first, finish=False)  # running, no live log yet
    refused = client.get(f"/api/matches/{first}/replay?view=seat:1")
    assert refused.status_code == 403
    assert "running" in refused.json()["error"] and "view=public" in refused.json()["error"]
    public = replay(client, first, "public")
    assert public["frames"] == [] and not public["final"]
    page = client.get(f"/matches/{first}")
    assert page.status_code == 200 and 'class="view off"' in page.text
    store.finish_match(first, MatchResult(scores=(0.0, 0.0), ranks=(1, 1), faults=("", ""),
                                          log=log))
    refused = client.get(f"/api/matches/{first}/replay?view=full")
    assert refused.status_code == 403 and f"match {second}" in refused.json()["error"]
    play_stored(store, second)
    assert [status(m, v) for m in (first, second) for v in ("seat:0", "full")] == [200] * 4


def test_the_page_shows_the_match_and_its_views(store: Store, client: TestClient) -> None:
    match_id = store_played_match(store, "face-card-kill-card", 3, seed=5)
    page = client.get(f"/matches/{match_id}")
    assert page.status_code == 200
    text = page.text
    for expected in ('href="/bots/random-0@1"', "Face Card / Kill Card", 'id="slider"',
                     f'href="/matches/{match_id}?view=seat:2"', f'href="/matches/{match_id}?view=full"',
                     f'data-api="/api/matches/{match_id}/replay?view=public"',
                     '<script src="/static/replay.js"></script>', "hole_cards=1"):
        assert expected in text, expected
    assert "seed" not in text.lower()
    seat = client.get(f"/matches/{match_id}?view=seat:1")
    assert 'data-view="seat:1"' in seat.text and "class=\"view current\" data-view=\"seat:1\"" in seat.text
    for asset in ("/static/replay.js", "/static/cards.css"):
        assert client.get(asset).status_code == 200


def test_a_log_that_does_not_replay_says_why(store: Store, client: TestClient) -> None:
    match_id = store_played_match(store, "kings-corner", 2, seed=8)
    other = store_played_match(store, "kings-corner", 2, seed=9)
    assert store.path is not None
    with sqlite3.connect(store.path) as connection:  # the log of another deal
        connection.execute("update match set log = (select log from match where id = ?) "
                           "where id = ?", (other, match_id))
    data = client.get(f"/api/matches/{match_id}/replay").json()
    assert data["frames"] == [] and "not those the log has" in (data["error"] or "")
