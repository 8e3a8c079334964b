"""What a replay view holds of Kill's public cards, from real logged matches: every seat's face-up
A, 2 and 3, and a failed kill's revealed hand, are in the public view the engine gives
(``Game.spectate``: its ``shown`` cards), so the viewer draws them from the view itself; and no
card the view shows as known is anywhere but in that seat's hand, nor unseen by any other seat.
(The drawing itself, for all six games, is checked in a browser: test_replay_views_browser.py.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arena.games import get_game
from arena.games.kill import Drew, KillAttempt
from arena.match.replay import read_log, steps
from arena.storage.store import Store
from leaderboard.web.app import create_app
from tests.helpers import migrated_store
from tests.web.replay_fixtures import store_played_match
from tests.web.test_replay import merged, replay

SUITS = "HDCS"


def kill_match(store: Store) -> int:
    """A one-round Kill match of random play with a failed kill and a Joker drawn face up (the
    first seed that has both)."""
    for seed in range(1, 60):
        match_id = store_played_match(store, "kill", 4, seed, {"rounds": 1})
        events = [line.value for line in read_log("kill", store.get_match(match_id).log or b"")
                  if line.kind == "event" and line.audience is None]
        if any(isinstance(e, KillAttempt) and not e.success for e in events) and \
                any(isinstance(e, Drew) and e.card.code.startswith("X") for e in events):
            return match_id
    raise AssertionError("no seed gave a failed kill and a Joker drawn")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return migrated_store(tmp_path / "arena.db")


def test_kill_public_view_holds_the_cards_every_seat_has_seen(store: Store) -> None:
    match_id = kill_match(store)
    client = TestClient(create_app(store))
    frames = merged(replay(client, match_id, "public")["frames"])
    match = store.get_match(match_id)
    lines = read_log("kill", match.log or b"")
    # the deal: every seat's A, 2, 3 of its suit, face up to all; the fourth card hidden
    opening = frames[0]["public"]
    assert [sorted(h) for h in opening["shown"]] == [sorted(f"{r}{SUITS[s]}" for r in "A23")
                                                     for s in range(4)]
    assert opening["hand_sizes"] == [4, 4, 4, 4]
    failed = 0
    for frame in frames:
        for event in frame["events"]:
            if event["type"] == "KillAttempt" and not event["data"]["success"]:
                failed += 1
                target, killer = event["data"]["target"], event["data"]["seat"]
                # the target's hand, revealed to all, stays face up while it holds it
                assert sorted(frame["public"]["shown"][target]) == sorted(event["data"]["target_hand"])
                # the failed killer leaves the round, its hand face up
                assert frame["public"]["statuses"][killer] == "kill_failed"
                assert len(frame["public"]["face_up"][killer]) == 4
                assert frame["public"]["shown"][killer] == []
    assert failed >= 1
    # what the view shows as known is true (in that hand, in the real state) and was seen by
    # every other seat in an event it was shown (the whole log, audiences and all)
    seen: list[set[str]] = [set() for _ in range(4)]
    game = get_game("kill")
    walked = steps("kill", 4, match.seed, dict(match.options), lines)
    for frame, step in zip(frames, walked, strict=True):
        for line in step.events:
            for seat in range(4):
                if line.audience is None or seat in line.audience:
                    seen[seat] |= _codes(line.value)
        hands = [{c.code for c in game.observe(step.state, s).hand} for s in range(4)]
        for seat, shown in enumerate(frame["public"]["shown"]):
            assert set(shown) <= hands[seat], (frame["step"], seat, shown, hands[seat])
            for other in range(4):
                if other != seat:
                    assert set(shown) <= seen[other], (frame["step"], seat, other)


def _codes(value: Any) -> set[str]:
    found: set[str] = set()
    if hasattr(value, "code") and not isinstance(value, type):
        found.add(str(value.code))
    elif isinstance(value, (tuple, list)):
        for item in value:
            found |= _codes(item)
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            found |= _codes(getattr(value, name))
    return found
