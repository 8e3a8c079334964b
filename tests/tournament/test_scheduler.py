"""The server's scheduler stopped mid-tournament (as ``arena serve`` stops on SIGTERM): the
matches in play finish, the tournament is queued again with the rest still pending, and the
next scheduler plays exactly those, so that every match is played once. Real bot processes
(unsandboxed: the sandbox is not the subject), a real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path

from arena.storage.store import Store
from arena.tournament import RunSettings, create_tournament
from arena.tournament.scheduler import Scheduler
from arena.tournament.settings import PerRun
from tests.helpers import eventually_async, migrated_store

GAME = "face-card-kill-card"
UNSANDBOXED = PerRun(sandbox=False)


def _queued(store: Store) -> int:
    for name in ("ann", "bob"):
        store.add_bot(name, "python -m bots.random_bot")
    return create_tournament(store, GAME, ["ann", "bob"], 2, 30, 7, {},
                             RunSettings(parallel=1), queued=True)


def test_a_scheduler_stopped_mid_tournament_queues_it_again_and_the_next_plays_the_rest(
        tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    tournament = _queued(store)
    total = store.get_tournament(tournament).total

    async def stopped_midway() -> None:
        scheduler = Scheduler(store, tmp_path, parallel=1, per_run=UNSANDBOXED, poll_s=0.05)
        running = asyncio.create_task(scheduler.run())
        await eventually_async("two matches played",
                               lambda: store.get_tournament(tournament).finished >= 2)
        running.cancel()  # what serve does on SIGTERM: the scheduler stops every job
        await asyncio.gather(running, return_exceptions=True)

    asyncio.run(stopped_midway())
    info = store.get_tournament(tournament)
    assert info.status == "queued", info.status
    assert 2 <= info.finished < total
    played_before = {m.id for m in store.list_matches(tournament_id=tournament, limit=1000)
                     if m.status == "finished"}
    assert len(played_before) == info.finished
    assert {m.status for m in store.list_matches(tournament_id=tournament, limit=1000)} <= {
        "finished", "pending"}  # none left running

    async def to_the_end() -> None:
        scheduler = Scheduler(store, tmp_path, parallel=1, per_run=UNSANDBOXED, poll_s=0.05)
        running = asyncio.create_task(scheduler.run())
        await eventually_async("the tournament finished",
                               lambda: store.get_tournament(tournament).status == "finished")
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)

    asyncio.run(to_the_end())
    info = store.get_tournament(tournament)
    matches = store.list_matches(tournament_id=tournament, limit=1000)
    assert info.finished == total == len(matches)
    assert all(m.status == "finished" for m in matches)
    ranked = {row.name: row.matches for row in store.leaderboard(GAME)}
    assert ranked == {"ann": total, "bob": total}  # each match rated once
    store.close()
