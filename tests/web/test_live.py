"""A running match on the web: the run loop writes its log so far (at most twice a second,
never for a short match), and the live feed serves its public frames as they come, then its
end."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

import arena.tournament.run as run_module
from arena.games import get_game
from arena.match.conformance import play_random
from arena.match.links import LocalLink, Player
from arena.match.referee import MatchReport, run_match
from arena.storage.store import ScheduledMatch, Store
from arena.tournament import RunSettings, run_tournament
from arena.tournament.executor import Entrant, Executor, MatchJob
from arena.tournament.run import LIVE_LOG_EVERY_S
from arena.wire.codec import codec_for
from arena.wire.messages import LogEntry, match_log, read_match_log
from tests.helpers import migrated_store
from tests.web.replay_fixtures import Server, gated_tournament, random_bots


class Sleepy(Player):
    """Plays the first legal action after ``pause`` seconds."""

    def __init__(self, pause: float) -> None:
        self.pause = pause

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        time.sleep(self.pause)
        return legal_actions[0]


class Referee(Executor):
    """Plays each match in this process through the real referee, its log kept for
    :meth:`live_log` as the local executor keeps it; seats answer after ``pause``."""

    def __init__(self, pause: float) -> None:
        self.pause = pause
        self.journals: dict[int, list[LogEntry]] = {}

    async def start(self, entrants: Sequence[Entrant]) -> None:
        pass

    async def play(self, job: MatchJob) -> MatchReport:
        links = [LocalLink(Sleepy(self.pause)) for _ in range(job.players)]

        async def ready(link: LocalLink) -> LocalLink:
            return link

        journal = self.journals[job.match_id] = []
        return await run_match(game_name=job.game, players=job.players, seed=job.seed,
                               options=dict(job.options), links=[ready(link) for link in links],
                               settings=job.clocks, journal=journal)

    def live_log(self, match_id: int) -> Sequence[LogEntry] | None:
        return self.journals.get(match_id)

    async def close(self) -> None:
        pass


class Recording(Store):
    """A store that notes when each running match's log was written, and what."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.writes: list[tuple[float, int, bytes]] = []

    def write_live_log(self, match_id: int, data: bytes) -> bool:
        self.writes.append((time.monotonic(), match_id, data))
        return super().write_live_log(match_id, data)


def run_one(tmp_path: Path, pause: float) -> tuple[Recording, int]:
    """One match of Kings in the Corner to one point (33 decisions: seats playing their first
    legal action), each seat answering after ``pause``."""
    store = Recording(str(tmp_path / "arena.db"))
    bots = random_bots(store, 2)
    game = get_game("kings-corner")
    tournament = store.create_tournament(
        game.name, 2, dict(game.parse_options(2, {"target_score": "1"})), 1, 1, {}, bots,
        [ScheduledMatch(index=0, seed=5, seat_bot_ids=tuple(bots))])
    asyncio.run(run_tournament(store, tournament, tmp_path, RunSettings(parallel=1),
                               executor=Referee(pause)))
    return store, store.tournament_matches(tournament)[0].id


def test_a_running_match_log_is_written_at_most_twice_a_second(tmp_path: Path) -> None:
    store, match_id = run_one(tmp_path, pause=0.1)  # 3.3 s or more: 6 writes or so
    times = [when for when, _, _ in store.writes]
    assert len(times) >= 3, "a match of a few seconds writes its log as it goes"
    assert all(later - earlier >= LIVE_LOG_EVERY_S * 0.9
               for earlier, later in itertools.pairwise(times))
    final = store.get_match(match_id)
    codec = codec_for(final.game)
    entries = read_match_log(codec, final.log or b"")
    for _, written_id, data in store.writes:  # each write: the log so far, whole steps
        assert written_id == match_id
        so_far = read_match_log(codec, data)
        assert so_far == entries[:len(so_far)]
    assert store.live_log(match_id) is None  # cleared by the finish
    store.close()


def test_a_short_match_never_writes_its_running_log(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # a match that ends within the interval writes nothing before its finish: an interval no
    # loaded machine outlasts for this match (at 0.5 s, a load of 5 once took 0.9 s)
    interval = 60.0
    monkeypatch.setattr(run_module, "LIVE_LOG_EVERY_S", interval)
    store, match_id = run_one(tmp_path, pause=0.0)
    assert store.get_match(match_id).duration_s is not None
    assert store.get_match(match_id).duration_s < interval  # type: ignore[operator]
    assert store.writes == []
    store.close()


def test_logs_concatenate() -> None:
    """The writer encodes only the entries new since its last write: a MatchLog's bytes are
    its entries' bytes one after another."""
    game = get_game("king")
    store_log: list[LogEntry] = []
    trace = play_random(game, 4, 3, {"quick": True})
    state = game.new(4, 3, game.parse_options(4, {"quick": True}))
    store_log.extend((t.event, t.visible_to) for t in game.opening_events(state))
    for number, action in enumerate(trace.actions, start=1):
        seat = game.to_act(state)
        assert seat is not None
        store_log.append((number, seat, action, False, 0.001 * number, "", 0))
        store_log.extend((t.event, t.visible_to) for t in game.apply(state, action))
    codec = codec_for("king")
    cut = len(store_log) // 3
    pieces = match_log(codec, store_log[:cut]) + match_log(codec, store_log[cut:])
    assert pieces == match_log(codec, store_log)
    assert read_match_log(codec, pieces) == store_log


def sse(response: httpx.Response) -> Iterator[tuple[str, str]]:
    """(event, data) of each server-sent event of a streaming response."""
    event, data = "message", list[str]()
    for line in response.iter_lines():
        if line == "":
            if data:
                yield event, "\n".join(data)
            event, data = "message", []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())


def test_the_live_feed_follows_a_running_match_to_its_end(tmp_path: Path) -> None:
    gated = gated_tournament(tmp_path)
    try:
        match, _ = gated.running()
        with Server(gated.store) as server, httpx.Client(base_url=server.url, timeout=30) as web:
            page = web.get(f"/matches/{match.id}")
            assert page.status_code == 200 and 'data-live="true"' in page.text
            so_far = web.get(f"/api/matches/{match.id}/replay").json()
            assert not so_far["final"] and so_far["steps"] >= 3
            frames: list[dict[str, Any]] = []
            ended: dict[str, Any] = {}
            with web.stream("GET", f"/api/matches/{match.id}/live") as feed:
                assert feed.headers["content-type"].startswith("text/event-stream")
                for event, data in sse(feed):
                    if event == "frame":
                        frames.append(json.loads(data))
                        if len(frames) == so_far["steps"]:
                            assert frames == so_far["frames"]
                            gated.gate.touch()  # the match goes on: new frames come
                    elif event == "end":
                        ended = json.loads(data)
                        break
            gated.open()
            assert ended["status"] == "finished"
            final = web.get(f"/api/matches/{match.id}/replay").json()
            assert final["final"] and len(final["frames"]) > so_far["steps"]
            assert frames == final["frames"]  # live, then the end: the same frames as the replay
            resumed = []
            with web.stream("GET", f"/api/matches/{match.id}/live",
                            headers={"Last-Event-ID": str(len(frames) - 2)}) as feed:
                resumed = [(event, json.loads(data)) for event, data in sse(feed)]
            assert [e for e, _ in resumed] == ["frame", "frame", "end"]
            assert [d for _, d in resumed[:2]] == frames[-2:]
    finally:
        gated.close()


@pytest.mark.parametrize("status", ["pending", "void"])
def test_the_live_feed_of_a_match_that_is_not_running(tmp_path: Path, status: str) -> None:
    store = migrated_store(tmp_path / "arena.db")
    bots = random_bots(store, 2)
    match_id = store.create_match("kings-corner", {}, 3, bots)
    if status == "void":
        store.void_match(match_id)
    with Server(store) as server, httpx.Client(base_url=server.url, timeout=10) as web:
        if status == "void":
            with web.stream("GET", f"/api/matches/{match_id}/live") as feed:
                events = list(sse(feed))
            assert [e for e, _ in events] == ["end"] and json.loads(events[0][1])["status"] == "void"
        else:  # a pending match: the feed waits for it (here: for a while)
            with pytest.raises(httpx.ReadTimeout), \
                    web.stream("GET", f"/api/matches/{match_id}/live", timeout=1.5) as feed:
                list(sse(feed))
    store.close()
