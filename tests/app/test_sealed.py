"""Sealed deals (arena.app.visibility): a running match shows every hand live only while every
bot still to play its deal runs in the arena's sandbox. The rule both ways, pure; then over a
real SQLite file: the store's record of how each match started, its refusal to start a sealed
deal unsealed, the use cases and the live feeds asking the rule, and a run without the sandbox
refusing such a tournament before anything starts (the run loop and the command line)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from arena.app import matches
from arena.app.live import LiveFeeds, Snapshot
from arena.app.visibility import InPlay, Rotation, Sight, may_show, refusal
from arena.errors import ErrorKind
from arena.storage.store import MatchStatus, ScheduledMatch, Store, StoreError
from arena.tournament import RunSettings, run_tournament
from arena.tournament.errors import SealedDeal
from arena.wire.tokens import digest
from tests.helpers import cli, migrated_store

GAME = "kings-corner"
RUNNING, PENDING = MatchStatus.RUNNING, MatchStatus.PENDING
OPENS = "its seat and full views open once it has finished"


def _shown(deal: tuple[Rotation, ...] | None, sight: Sight = Sight.FULL,
           operator: bool = False) -> str | None:
    refused = may_show(5, RUNNING, sight, operator=operator, in_play=None, deal=deal)
    assert refused is None or refused.public_meanwhile  # the public view goes on meanwhile
    return None if refused is None else refused.text


def test_a_running_match_shows_every_hand_only_while_its_deal_is_sealed() -> None:
    sealed = Rotation(5, 0, RUNNING, True)
    waiting = Rotation(6, 1, PENDING, False)  # not started: its seats are what counts
    also = Rotation(7, 2, RUNNING, True)
    for sight in (Sight.SEAT, Sight.FULL):
        assert _shown((sealed,), sight) is None
        assert _shown((sealed, waiting, also), sight) is None
    # the match itself: run without the sandbox, or a remote bot in one of its seats
    assert _shown((Rotation(5, 0, RUNNING, False),)) == (
        "match 5 is running, and it runs without the sandbox (--no-sandbox), where bots may "
        f"read the web: {OPENS}")
    assert _shown((Rotation(5, 0, RUNNING, False, ((1, "far@1"),)), waiting)) == (
        "match 5 is running, and seat 1 is a remote bot (far@1), which may read the web: "
        f"{OPENS}, and every other rotation of its deal with it")
    # another rotation of its deal still to play: a remote seat (pending or running), or run
    # without the sandbox
    later = Rotation(6, 2, PENDING, False, ((0, "far@1"), (1, "near@2")))
    assert _shown((sealed, later)) == (
        "match 5 is running, and seat 0 of match 6 (rotation 3 of its deal) is a remote bot "
        f"(far@1), which may read the web: {OPENS}, and every other rotation of its deal with it")
    assert _shown((sealed, Rotation(7, 1, RUNNING, False))) == (
        "match 5 is running, and match 7 (rotation 2 of its deal) runs without the sandbox "
        f"(--no-sandbox), where bots may read the web: {OPENS}, and every other rotation of its "
        "deal with it")
    # what the store did not say is not sealed: not looked up, or the match not running there
    assert _shown(None) == f"match 5 is running: {OPENS}"
    assert _shown((Rotation(5, 0, PENDING, False),)) == f"match 5 is not running: {OPENS}"
    assert _shown((waiting,)) == f"match 5 is not running: {OPENS}"
    # the public view, and the operator: always
    assert _shown((Rotation(5, 0, RUNNING, False),), Sight.PUBLIC) is None
    assert _shown(None, operator=True) is None
    # the other statuses as before, whatever the deal says
    for status in (PENDING, MatchStatus.VOID):
        assert may_show(5, status, Sight.FULL, operator=False, in_play=None,
                        deal=(sealed,)) is not None
    assert may_show(5, MatchStatus.FINISHED, Sight.PUBLIC, operator=False, in_play=InPlay(6),
                    deal=(sealed,)) is not None


def _bots(store: Store) -> dict[str, int]:
    """ann and bob, managed by the arena, and far, a remote bot: their ids."""
    return {"ann": store.add_bot("ann", "python -m bots.random_bot").id,
            "bob": store.add_bot("bob", "python -m bots.random_bot").id,
            "far": store.add_bot("far", token_hash=digest("far's token")).id}


def _deal(store: Store, bots: dict[str, int], second: tuple[str, str]) -> tuple[int, list[int]]:
    """A tournament: ann and bob play one deal, then ``second`` plays its second rotation, and
    bob and ann another deal; its id and its matches' ids in schedule order."""
    a, b = bots["ann"], bots["bob"]
    schedule = [ScheduledMatch(0, 11, (a, b)),
                ScheduledMatch(1, 11, tuple(bots[name] for name in second), lane=1),
                ScheduledMatch(2, 12, (b, a))]
    tid = store.create_tournament(GAME, 2, {}, 1, 1, {}, list(bots.values()), schedule)
    return tid, [m.id for m in store.claim_unfinished(tid)]


def test_the_store_keeps_how_each_match_started_and_plays_a_sealed_deal_sealed(
        store: Store) -> None:
    bots = _bots(store)
    tid, (first, second, other) = _deal(store, bots, ("far", "ann"))
    assert store.deal_rotations(first) == (
        Rotation(first, 0, PENDING, False), Rotation(second, 1, PENDING, False, ((0, "far@1"),)))
    assert store.sealed_deal_to_play(tid) is None
    assert store.mark_running(first, sealed=True)
    assert store.deal_rotations(second)[0] == Rotation(first, 0, RUNNING, True)
    assert store.sealed_deal_to_play(tid) == first  # itself, until it has finished
    with pytest.raises(StoreError, match=f"match {second} deals the cards match {first} was "
                                         "played with in the sandbox") as refused:
        store.mark_running(second)  # its rotation was sealed: so is it
    assert refused.value.kind is ErrorKind.CONFLICT
    assert store.get_match(second).status is PENDING  # nothing written
    assert store.mark_running(other)  # another deal, unsealed: as asked
    store.claim_unfinished(tid)  # a crash: both back to pending, the first still sealed once
    with pytest.raises(StoreError):
        store.mark_running(first)  # its replay too
    assert store.mark_running(first, sealed=True)
    assert [r.match_id for r in store.deal_rotations(first)] == [first, second]
    # the same seed outside a tournament: no other rotation
    ad_hoc = store.create_match(GAME, {}, 11, [bots["far"], bots["ann"]])
    assert store.mark_running(ad_hoc) and store.deal_rotations(ad_hoc) == (
        Rotation(ad_hoc, 0, RUNNING, False, ((0, "far@1"),)),)


def test_the_use_cases_and_the_live_feeds_ask_the_rule_of_the_deal(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    bots = _bots(store)
    _, (first, _, _) = _deal(store, bots, ("bob", "ann"))  # every seat the arena's
    _, (remote_deal, remote_rotation, _) = _deal(store, bots, ("far", "ann"))
    for match_id in (first, remote_deal):
        store.mark_running(match_id, sealed=True)
    shown = matches.show_match(store, first, Sight.FULL)
    assert shown.refusal is None and shown.private_refusal is None
    hidden = matches.show_match(store, remote_deal, Sight.SEAT)
    assert hidden.refusal is not None and f"match {remote_rotation} (rotation 2 of its deal)" \
        in hidden.refusal.text and hidden.refusal == hidden.private_refusal
    assert matches.show_match(store, remote_deal).refusal is None  # its public view
    assert refusal(store, store.get_match(remote_deal), Sight.FULL) == hidden.refusal

    async def snapshots() -> list[Snapshot]:
        feeds = LiveFeeds(store, lambda snapshot: snapshot, total=None, per_match=None,
                          per_client=None, poll_s=0.02)
        found = []
        for match_id in (first, remote_deal):
            with feeds.open(match_id, "a spectator") as feed:
                async for update in feed.updates():
                    assert update is not None
                    found.append(update.value)
                    break
        return found

    sealed, unsealed = asyncio.run(snapshots())
    assert sealed.deal is not None and sealed.deal[0].sealed
    assert matches.feed_refusal(sealed, Sight.FULL) is None
    assert matches.feed_refusal(unsealed, Sight.PUBLIC) is None
    assert matches.feed_refusal(unsealed, Sight.FULL) == hidden.refusal
    store.close()


def test_a_run_without_the_sandbox_refuses_a_deal_that_started_sealed(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    store = migrated_store(db)
    tid, (first, second, other) = _deal(store, _bots(store), ("bob", "ann"))
    store.mark_running(first, sealed=True)  # a run in the sandbox, interrupted
    store.close()
    with Store(str(db)) as store:
        with pytest.raises(SealedDeal, match=f"tournament {tid} was played in the sandbox"):
            asyncio.run(run_tournament(store, tid, tmp_path, RunSettings(sandbox=False)))
        assert {m.id: m.status for m in store.tournament_matches(tid)} == \
            {first: PENDING, second: PENDING, other: PENDING}  # nothing was played
        assert store.get_tournament(tid).status == "interrupted"
    resumed = cli("tournament", "resume", str(tid), "--no-sandbox", db=db, check=False)
    assert resumed.returncode != 0
    said = [line for line in (resumed.stdout + resumed.stderr).splitlines() if line.strip()]
    assert len(said) >= 1 and "resume it in the sandbox (without --no-sandbox)" in said[-1], said
    assert "Traceback" not in resumed.stderr
