"""The live feeds' shared reader and caps (arena.app.live), over a real SQLite store and a match
played through the real referee: however many spectators follow a match, the store is read
once per change (a cheap look at the match's status and log size otherwise), and what they
are sent is made once per change; the caps count per client, per match and in total."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from arena.app.live import FeedRefused, LiveFeeds, Snapshot
from arena.games import get_game
from arena.storage.store import MatchResult, MatchStatus, Store
from tests.helpers import migrated_store
from tests.web.replay_fixtures import play_stored, random_bots

GAME = "kings-corner"
SPECTATORS = 50


class Counting(Store):
    """A store that counts the reads a live feed may make."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.calls: dict[str, int] = {"get_match": 0, "live_log": 0, "live_progress": 0}

    def get_match(self, match_id: int) -> Any:
        self.calls["get_match"] += 1
        return super().get_match(match_id)

    def live_log(self, match_id: int) -> bytes | None:
        self.calls["live_log"] += 1
        return super().live_log(match_id)

    def live_progress(self, match_id: int) -> tuple[MatchStatus, int | None]:
        self.calls["live_progress"] += 1
        return super().live_progress(match_id)


def _match(store: Store) -> int:
    bots = random_bots(store, 2)
    return store.create_match(GAME, dict(get_game(GAME).parse_options(2)), 11, bots)


def test_many_spectators_share_one_reader(tmp_path: Path) -> None:
    store = Counting(str(tmp_path / "arena.db"))
    match_id = _match(store)
    log = play_stored(store, match_id, finish=False)  # running, its whole log at hand
    cuts = [len(log) // 4, len(log) // 2, 3 * len(log) // 4]
    derived: list[int | None] = []

    def derive(snapshot: Snapshot) -> int | None:
        size = None if snapshot.log is None else len(snapshot.log)
        derived.append(size)
        return size

    async def scenario() -> list[list[int | None]]:
        feeds = LiveFeeds(store, derive, total=None, per_match=None, per_client=None,
                          poll_s=0.02)
        seen: list[list[int | None]] = [[] for _ in range(SPECTATORS)]
        arrived = [asyncio.Event() for _ in cuts]

        async def follow(i: int) -> None:
            with feeds.open(match_id, f"client-{i}") as feed:
                async for update in feed.updates():
                    assert update is not None
                    seen[i].append(update.value)
                    for cut, event in zip(cuts, arrived, strict=True):
                        if update.value == cut and all(cut in s for s in seen):
                            event.set()

        followers = [asyncio.create_task(follow(i)) for i in range(SPECTATORS)]
        await asyncio.sleep(0)
        assert feeds.readers == 1 and feeds.open_feeds == SPECTATORS
        for cut, event in zip(cuts, arrived, strict=True):  # the run loop writes as it goes
            await asyncio.to_thread(store.write_live_log, match_id, log[:cut])
            await event.wait()
        await asyncio.to_thread(store.finish_match, match_id, MatchResult(
            scores=(0.0, 0.0), ranks=(1, 1), faults=("", ""), log=log))
        await asyncio.gather(*followers)
        assert feeds.readers == 0 and feeds.open_feeds == 0  # the reader went with its feeds
        return seen

    seen = asyncio.run(scenario())
    assert all(s[-1] == len(log) and s[-2] == cuts[-1] for s in seen), seen[0]
    assert derived[-4:] == [*cuts, len(log)]  # made once per change, whoever looks
    assert len(derived) <= len(cuts) + 2  # (and once before the first write, maybe)
    assert store.calls["get_match"] <= 3  # at the start and at the end, not per spectator
    assert store.calls["live_log"] <= len(cuts) + 1
    store.close()


def test_the_caps_count_per_client_per_match_and_in_total(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    matches = [_match(store) for _ in range(3)]

    async def scenario() -> None:
        feeds = LiveFeeds(store, lambda snapshot: None, total=3, per_match=2, per_client=2)
        a = [feeds.open(matches[0], "a"), feeds.open(matches[0], "a")]
        with pytest.raises(FeedRefused) as refused:
            feeds.open(matches[1], "a")
        assert refused.value.cap == "client" and str(refused.value) == \
            "2 live feeds are open from this client already; close one first"
        with pytest.raises(FeedRefused) as refused:
            feeds.open(matches[0], "b")
        assert refused.value.cap == "match"
        b = feeds.open(matches[1], "b")
        with pytest.raises(FeedRefused) as refused:
            feeds.open(matches[2], "c")
        assert refused.value.cap == "total" and str(refused.value) == \
            "3 live feeds are open on this server; try again later"
        exempt = feeds.open(matches[2], None)  # the operator's: not counted, never refused
        a[0].close()
        c = feeds.open(matches[2], "c")  # a place given back is free again
        for feed in (a[1], b, exempt, c):
            feed.close()
        assert feeds.open_feeds == 0 and feeds.readers == 0

    asyncio.run(scenario())
    store.close()


def test_a_feed_on_a_match_that_does_not_start_ends(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    match_id = _match(store)

    async def scenario() -> tuple[list[Any], bool]:
        feeds = LiveFeeds(store, lambda snapshot: snapshot.match.status, total=None,
                          per_match=None, per_client=None, poll_s=0.02, pending_limit_s=0.5)
        with feeds.open(match_id, "a") as feed:
            got = [u if u is None else u.value async for u in feed.updates(keepalive_s=0.1)]
            return got, feed.expired

    got, expired = asyncio.run(scenario())
    assert expired and got[0] == MatchStatus.PENDING and None in got  # and kept alive meanwhile
    store.close()
