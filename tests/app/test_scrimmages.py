"""Scrimmages, in process (a real SQLite file, the tournament's own run): an author's versions
against others, unrated (its own standings only, no rating, no head-to-head, also after a
rebuild), within the limits per author (scrimmages waiting, matches an hour), refused in one
line with nothing written; and their share of the scheduler's match slots."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from arena.app import authors
from arena.app.scrimmages import OverLimit, ScrimmageDesk, ScrimmageRequest, ScrimmageRules
from arena.errors import ArenaError, ErrorKind
from arena.storage.store import Store
from arena.tournament import RunSettings, create_tournament, run_until_done
from arena.tournament.scheduler import _Both
from tests.helpers import migrated_store
from tests.inprocess import InProcessExecutor

GAME = "face-card-kill-card"


def _arena(tmp_path: Path) -> tuple[Store, int, int]:
    """A store with ann's bots ann-a and ann-b, bob's bob-a, and the operator's random; (the
    store, ann's id, bob's id)."""
    db = tmp_path / "arena.db"
    store = migrated_store(db)
    ann, bob = (authors.add(store, name)[0].id for name in ("ann", "bob"))
    for name in ("ann-a", "ann-b", "bob-a", "random"):
        store.add_bot(name, "python -m bots.random_bot")
    with sqlite3.connect(db) as raw:  # as their submissions would have made them
        raw.execute("UPDATE bot SET author_id = ? WHERE name LIKE 'ann-%'", (ann,))
        raw.execute("UPDATE bot SET author_id = ? WHERE name = 'bob-a'", (bob,))
    raw.close()
    return store, ann, bob


def test_a_scrimmage_counts_in_its_own_standings_and_moves_no_rating(tmp_path: Path) -> None:
    store, ann, _ = _arena(tmp_path)
    desk = ScrimmageDesk(store, ScrimmageRules())
    versus = desk.request(ann, ScrimmageRequest(game=GAME, mine=["ann-a"], against=["random"],
                                                sets=3))
    field = desk.request(ann, ScrimmageRequest(game=GAME, mine=["ann-a", "ann-b"],
                                               against=["bob-a"], sets=1))
    assert versus.settings["format"]["kind"] == "versus" and versus.settings["scrimmage_of"] == ann
    assert field.settings["format"]["kind"] == "round-robin"
    control = create_tournament(store, GAME, ["ann-a", "random"], 2, 2, 1, {}, RunSettings())
    for tid in (versus.id, field.id, control):
        run_until_done(store, tid, tmp_path, RunSettings(parallel=2),
                       executor=InProcessExecutor())
        assert store.get_tournament(tid).finished == store.get_tournament(tid).total > 0

    standings, _ = store.tournament_standings(versus.id)
    assert sorted(s.bot_id for s in standings) == sorted(
        store.get_bot(n).id for n in ("ann-a", "random"))
    assert sum(s.matches for s in store.tournament_standings(field.id)[0]) > 0

    def rated() -> tuple[dict[str, int], int]:
        board = {f"{row.name}@{row.version}": row.matches for row in store.leaderboard(GAME)}
        return board, len(store.head_to_head(store.get_bot("ann-a").id))

    board, pairs = rated()
    control_matches = store.get_tournament(control).total
    assert board == {"ann-a@1": control_matches, "random@1": control_matches}  # control only
    assert "ann-b@1" not in board and "bob-a@1" not in board and pairs == 1
    assert store.rebuild_ratings() > 0
    assert rated() == (board, pairs)  # a rebuild leaves scrimmages out too
    assert sum(s.matches for s in store.tournament_standings(versus.id)[0]) > 0
    store.close()


def test_an_author_asks_only_with_their_own_versions_and_in_one_line(tmp_path: Path) -> None:
    store, ann, _ = _arena(tmp_path)
    desk = ScrimmageDesk(store, ScrimmageRules())

    def refused(mine: list[str], against: list[str], sets: int = 2,
                sprt: str | None = None) -> ArenaError:
        with pytest.raises(ArenaError) as caught:
            desk.request(ann, ScrimmageRequest(game=GAME, mine=mine, against=against, sets=sets,
                                               sprt=sprt))
        return caught.value

    theirs = refused(["bob-a"], ["random"])
    assert theirs.kind is ErrorKind.NOT_ALLOWED and "not a bot of yours" in str(theirs)
    assert str(refused([], ["random"])) == "name at least one version of your own bots (--bot)"
    assert "from 2 to 8 bots" in str(refused(["ann-a"], []))
    assert "--sets must be from 1" in str(refused(["ann-a"], ["random"], sets=0))
    assert "two bots" in str(refused(["ann-a"], ["random", "bob-a"], sprt="elo0=0,elo1=10"))
    assert refused(["ann-a"], ["nobody"]).kind is ErrorKind.NOT_FOUND
    assert store.list_tournaments() == []  # nothing written
    store.close()


def test_an_authors_limits_refuse_in_one_line_and_write_nothing(tmp_path: Path) -> None:
    store, ann, bob = _arena(tmp_path)
    # a versus of 3 sets at a table of two: 6 matches
    desk = ScrimmageDesk(store, ScrimmageRules(matches_per_hour=15, queued=2))
    ask = ScrimmageRequest(game=GAME, mine=["ann-a"], against=["random"], sets=3)
    first = desk.request(ann, ask)
    size = first.total
    desk.request(ann, ask)
    with pytest.raises(OverLimit, match="scrimmages not finished yet") as waiting:
        desk.request(ann, ask)
    assert waiting.value.kind is ErrorKind.BUSY
    assert desk.request(bob, ScrimmageRequest(game=GAME, mine=["bob-a"], against=["random"],
                                              sets=3))  # another author's limits are theirs
    store.cancel_tournament(first.id)  # one less waiting, but its matches were asked for
    assert size == 6 and 2 * size <= 15 < 3 * size
    with pytest.raises(OverLimit, match="in the last hour"):
        desk.request(ann, ask)
    assert len(store.list_tournaments()) == 3  # the refusals wrote nothing
    later = datetime.now(UTC) + timedelta(minutes=61)
    assert desk.request(ann, ask, now=later).total == size  # an hour on: allowed again
    store.close()


def test_scrimmages_hold_at_most_their_share_of_the_slots() -> None:
    """The scheduler's pair of semaphores: scrimmage matches never hold more than their
    share, and the server's other matches still get every slot left."""

    async def main() -> tuple[int, int]:
        share, slots = asyncio.Semaphore(1), asyncio.Semaphore(4)
        busy = {"scrimmage": 0, "other": 0}
        most = {"scrimmage": 0, "other": 0}
        gate = asyncio.Event()

        async def match(kind: str) -> None:
            async with _Both(share, slots) if kind == "scrimmage" else slots:
                busy[kind] += 1
                most[kind] = max(most[kind], busy[kind])
                await gate.wait()
                busy[kind] -= 1

        tasks = [asyncio.create_task(match("scrimmage")) for _ in range(5)]
        tasks += [asyncio.create_task(match("other")) for _ in range(3)]
        while sum(busy.values()) < 4:  # every slot taken: one scrimmage and three others
            await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(*tasks)
        return most["scrimmage"], most["other"]

    assert asyncio.run(main()) == (1, 3)
    assert ScrimmageRules(share=0.25).slots(2) == 1 and ScrimmageRules(share=0.5).slots(8) == 4
