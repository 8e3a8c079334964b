"""Storage on real SQLite files: bots, tournaments, resuming, atomic finishes, ratings."""

from __future__ import annotations

import multiprocessing
import random
import sqlite3
from pathlib import Path
from types import MappingProxyType

import pytest

from arena.match.faults import Fault
from arena.rating import ratings as rt
from arena.storage import ratings as storage_ratings
from arena.storage.store import (
    MatchResult,
    MatchStatus,
    ScheduledMatch,
    Store,
    StoreError,
    TournamentStatus,
)
from tests.helpers import finish_all, migrated_store, open_and_add, result_for, round_robin, three_bots

GAME = "some-game"  # the store never looks a game up: any name will do










# ---------------------------------------------------------------- bots


def test_add_list_get_bots(store: Store) -> None:
    a1 = store.add_bot("ann", "run ann")
    a2 = store.add_bot("ann", "run ann v2", version="2")
    b = store.add_bot("bob", "")
    assert [x.label for x in store.list_bots()] == ["ann@1", "ann@2", "bob@1"]
    assert store.get_bot("ann") == a2  # newest registered
    assert store.get_bot("ann", "1") == a1
    assert store.get_bot_by_id(b.id) == b
    assert not a1.remote


def test_duplicate_bot_is_refused(store: Store) -> None:
    store.add_bot("ann", "x")
    with pytest.raises(StoreError, match=r"bot ann@1 already exists"):
        store.add_bot("ann", "y")


def test_bad_bot_names_are_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="bad bot name"):
        store.add_bot("", "x")
    with pytest.raises(StoreError, match="bad bot name"):
        store.add_bot("a@b", "x")


def test_unknown_ids_give_store_errors(store: Store) -> None:
    with pytest.raises(StoreError, match="no bot zed"):
        store.get_bot("zed")
    with pytest.raises(StoreError, match="no bot with id 42"):
        store.get_bot_by_id(42)
    with pytest.raises(StoreError, match="no match with id 7"):
        store.get_match(7)
    with pytest.raises(StoreError, match="no tournament with id 3"):
        store.get_tournament(3)
    with pytest.raises(StoreError, match="no bot with id 98, 99"):
        store.create_match(GAME, {}, 1, [99, 98])


def test_remote_bot_found_by_token_hash(store: Store) -> None:
    bot = store.add_bot("far", version="1", token_hash="abc123")
    assert bot.remote
    assert store.get_bot_by_token_hash("abc123") == bot
    with pytest.raises(StoreError):
        store.get_bot_by_token_hash("nope")


def test_a_remote_bots_token_hash_is_replaced_and_the_old_one_no_longer_finds_it(store: Store) -> None:
    bot = store.add_bot("far", token_hash="old-hash")
    assert store.bot_token_hash(bot.id) == "old-hash"
    assert store.set_bot_token_hash("far", None, "new-hash").id == bot.id
    assert store.bot_token_hash(bot.id) == "new-hash"
    assert store.get_bot_by_token_hash("new-hash").id == bot.id
    with pytest.raises(StoreError):
        store.get_bot_by_token_hash("old-hash")
    managed = store.add_bot("local", "python -m bots.random_bot")
    with pytest.raises(StoreError, match="managed, not remote"):
        store.set_bot_token_hash("local", "1", "some-hash")
    with pytest.raises(StoreError, match="not a remote bot"):
        store.bot_token_hash(managed.id)


def test_removing_a_bot_that_never_played_deletes_it(store: Store) -> None:
    store.add_bot("ann", "x")
    assert store.remove_bot("ann") is True
    assert store.list_bots(include_removed=True) == []
    store.add_bot("ann", "x")  # the name is free again


def test_removing_a_bot_that_played_hides_it_but_keeps_history(store: Store) -> None:
    a, b, _ = three_bots(store)
    match = store.create_match(GAME, {}, 5, [a, b])
    store.finish_match(match, MatchResult((1.0, 0.0), (1, 2), ("", "")))
    assert store.remove_bot("ann") is False
    assert [x.name for x in store.list_bots()] == ["bob", "cat"]
    assert [x.name for x in store.list_bots(include_removed=True)] == ["ann", "bob", "cat"]
    assert [r.name for r in store.leaderboard()] == ["bob"]
    assert len(store.leaderboard(include_removed=True)) == 2
    assert store.get_match(match).seats[0].bot == "ann@1"
    assert len(store.rating_history(a, GAME)) == 1
    with pytest.raises(StoreError, match="removed"):
        store.add_bot("ann", "x")


# ---------------------------------------------------------------- tournaments


def test_create_tournament_writes_every_match_pending(store: Store) -> None:
    ids = three_bots(store)
    schedule = round_robin(ids, 3, repeats=2)
    big_seed = 2**63
    tid = store.create_tournament(
        GAME, 3, {"target": 5}, big_seed, 2, {"move_timeout": 1.5}, ids, schedule
    )
    info = store.get_tournament(tid)
    assert (info.total, info.finished, info.status) == (6, 0, "running")
    assert info.seed == big_seed
    assert info.options == {"target": 5}
    assert info.settings == {"move_timeout": 1.5}
    assert info.bots == ("ann@1", "bob@1", "cat@1")
    matches = store.list_matches(tid)
    assert {m.status for m in matches} == {"pending"}
    by_index = {m.index: m for m in matches}
    for planned in schedule:
        stored = by_index[planned.index]
        assert stored.seed == planned.seed
        assert tuple(s.bot_id for s in stored.seats) == planned.seat_bot_ids
    assert [t.id for t in store.list_tournaments()] == [tid]


def test_create_tournament_is_all_or_nothing(store: Store) -> None:
    ids = three_bots(store)
    bad = [*round_robin(ids, 3), ScheduledMatch(99, 1, (ids[0], ids[1], 12345))]
    with pytest.raises(StoreError, match="no bot with id 12345"):
        store.create_tournament(GAME, 3, {}, 1, 1, {}, ids, bad)
    assert store.list_tournaments() == []
    assert store.list_matches() == []


def test_schedule_with_wrong_seat_count_is_refused(store: Store) -> None:
    ids = three_bots(store)
    with pytest.raises(StoreError, match="seats"):
        store.create_tournament(GAME, 2, {}, 1, 1, {}, ids, round_robin(ids, 3))


def test_tournament_status(store: Store) -> None:
    ids = three_bots(store)
    tid = store.create_tournament(GAME, 3, {}, 1, 1, {}, ids, round_robin(ids, 3))
    store.set_tournament_status(tid, "interrupted")
    assert store.get_tournament(tid).status == "interrupted"
    store.set_tournament_status(tid, "finished")
    assert store.get_tournament(tid).finished_at is not None
    with pytest.raises(StoreError, match="bad tournament status"):
        store.set_tournament_status(tid, "done")


def test_statuses_and_faults_come_back_as_enums_given_as_enums_or_plain_strings(
    store: Store,
) -> None:
    ids = three_bots(store)
    tid = store.create_tournament(GAME, 3, {}, 1, 1, {}, ids, round_robin(ids, 3))
    info = store.get_tournament(tid)
    assert info.status == "running" and info.status is TournamentStatus.RUNNING
    store.set_tournament_status(tid, TournamentStatus.INTERRUPTED)
    assert store.get_tournament(tid).status is TournamentStatus.INTERRUPTED
    store.set_tournament_status(tid, "finished")
    assert store.get_tournament(tid).status is TournamentStatus.FINISHED
    first, *rest = store.claim_unfinished(tid)
    result = MatchResult((1.0, 0.0, 0.0), (1, 2, 2), (Fault.TIMEOUT, "crashed", ""))
    assert store.finish_match(first.id, result)
    match = store.get_match(first.id)
    assert match.status == "finished" and match.status is MatchStatus.FINISHED
    assert [s.fault for s in match.seats] == [Fault.TIMEOUT, Fault.CRASHED, Fault.NONE]
    assert [s.fault for s in match.seats] == ["timeout", "crashed", ""]
    assert all(type(s.fault) is Fault for s in match.seats)
    assert [m.id for m in store.list_matches(tid, status="finished")] == [first.id]
    assert {m.id for m in store.list_matches(tid, status=MatchStatus.PENDING)} == {m.id for m in rest}
    assert {m.status for m in store.list_matches(tid)} == {MatchStatus.FINISHED, MatchStatus.PENDING}


def test_a_fault_or_status_that_is_not_one_of_the_values_is_refused(store: Store) -> None:
    a, b, _ = three_bots(store)
    mid = store.create_match(GAME, {}, 1, [a, b])
    with pytest.raises(StoreError, match="bad fault 'exploded'") as info:
        store.finish_match(mid, MatchResult((1.0, 0.0), (1, 2), ("", "exploded")))
    assert "\n" not in str(info.value)
    match = store.get_match(mid)
    assert (match.status, [s.fault for s in match.seats]) == (MatchStatus.PENDING, ["", ""])
    assert store.leaderboard() == []
    with pytest.raises(StoreError, match="bad match status 'done'"):
        store.list_matches(status="done")


def test_options_and_settings_are_stored_as_json_values(store: Store) -> None:
    ids = three_bots(store)
    options = {"deck": ["A", "K"], "rules": {"jokers": False, "limit": None}, "target": 2.5}
    tid = store.create_tournament(GAME, 3, MappingProxyType(options), 1, 1,
                                  MappingProxyType({"move_timeout": 1.5}), ids, round_robin(ids, 3))
    info = store.get_tournament(tid)
    assert (info.options, info.settings, info.bot_ids) == (options, {"move_timeout": 1.5}, tuple(ids))
    assert all(m.options == options for m in store.claim_unfinished(tid))
    mid = store.create_match(GAME, MappingProxyType({"x": [1, {"y": True}]}), 5, ids[:2])
    assert store.get_match(mid).options == {"x": [1, {"y": True}]}


def test_claim_unfinished_resets_running_and_skips_finished(store: Store) -> None:
    ids = three_bots(store)
    schedule = round_robin(ids, 3, repeats=2)
    tid = store.create_tournament(GAME, 3, {}, 7, 2, {}, ids, schedule)
    todo = store.claim_unfinished(tid)
    assert [m.index for m in todo] == [0, 1, 2, 3, 4, 5]
    assert todo[0].seat_bot_ids == schedule[0].seat_bot_ids
    store.finish_match(todo[0].id, result_for(todo[0].seat_bot_ids, todo[0].seed))
    assert store.mark_running(todo[1].id)
    assert store.get_match(todo[1].id).status == "running"
    store.void_match(todo[5].id)
    # ... the runner crashes here; a new one resumes:
    again = store.claim_unfinished(tid)
    assert [m.index for m in again] == [1, 2, 3, 4]
    assert store.get_match(todo[1].id).status == "pending"
    assert store.get_match(todo[1].id).started_at is None


def test_mark_running_refuses_finished_match(store: Store) -> None:
    a, b, _ = three_bots(store)
    mid = store.create_match(GAME, {}, 1, [a, b])
    store.finish_match(mid, MatchResult((1.0, 0.0), (1, 2), ("", "")))
    assert store.mark_running(mid) is False
    assert store.get_match(mid).status == "finished"


# ---------------------------------------------------------------- finishing


def test_finish_match_stores_everything(store: Store) -> None:
    a, b, c = three_bots(store)
    mid = store.create_match(GAME, {"x": True}, 2**63 - 1, [a, b, c])
    store.mark_running(mid)
    log = b"\x00\x01opaque protobuf bytes\xff"
    assert store.finish_match(
        mid, MatchResult((3.0, 1.0, 1.0), (1, 2, 2), ("", "crashed", ""), log, None, 1.25)
    )
    m = store.get_match(mid)
    assert (m.status, m.duration_s, m.log, m.finish_seq) == ("finished", 1.25, log, 1)
    assert m.started_at is not None and m.finished_at is not None
    assert [(s.bot, s.score, s.rank, s.fault) for s in m.seats] == [
        ("ann@1", 3.0, 1, ""), ("bob@1", 1.0, 2, "crashed"), ("cat@1", 1.0, 2, ""),
    ]
    assert store.list_matches()[0].log is None  # lists never carry logs
    board = {r.name: r for r in store.leaderboard(GAME)}
    assert (board["ann"].matches, board["ann"].wins, board["ann"].faults) == (1, 1, 0)
    assert (board["bob"].matches, board["bob"].wins, board["bob"].faults) == (1, 0, 1)
    expected = rt.rate({}, [(a, 1), (b, 2), (c, 2)])
    assert (board["ann"].mu, board["ann"].sigma) == expected[a]


def test_finish_match_twice_is_stored_once(store: Store) -> None:
    a, b, _ = three_bots(store)
    mid = store.create_match(GAME, {}, 1, [a, b])
    first = MatchResult((1.0, 0.0), (1, 2), ("", ""), b"first")
    assert store.finish_match(mid, first) is True
    board = store.leaderboard()
    assert store.finish_match(mid, MatchResult((0.0, 1.0), (2, 1), ("", ""), b"second")) is False
    assert store.leaderboard() == board
    assert store.get_match(mid).log == b"first"
    assert store.get_match(mid).finish_seq == 1
    assert len(store.rating_history(a, GAME)) == 1


def test_finish_match_keeps_the_node_a_match_was_played_on(store: Store) -> None:
    a, b, _ = three_bots(store)
    node = "node 10.0.0.7 (id abc): bot logs /x, Ray logs /y"
    tid = store.create_tournament(GAME, 2, {}, 1, 1, {}, [a, b], round_robin([a, b], 2))
    elsewhere, here = (m.id for m in store.claim_unfinished(tid))
    assert store.get_match(elsewhere).node is None  # nothing before it finishes
    store.finish_match(elsewhere, MatchResult((1.0, 0.0), (1, 2), ("", ""), b"log", node=node))
    store.finish_match(here, MatchResult((0.0, 1.0), (2, 1), ("", ""), b"log"))
    assert (store.get_match(elsewhere).node, store.get_match(here).node) == (node, None)
    assert {m.id: m.node for m in store.list_matches(tid)} == {elsewhere: node, here: None}
    with Store(store.url) as again:  # read back by another store, from the file
        assert again.get_match(elsewhere).node == node


def test_finish_match_is_atomic(store: Store) -> None:
    a, b, _ = three_bots(store)
    mid = store.create_match(GAME, {}, 1, [a, b])
    with pytest.raises(StoreError, match="2 seats"):
        store.finish_match(mid, MatchResult((1.0,), (1,), ("",)))
    # A failure inside the transaction, after the match row was changed:
    with pytest.raises(ValueError, match="rank"):
        store.finish_match(mid, MatchResult((1.0, 0.0), (0, 1), ("", "")))
    m = store.get_match(mid)
    assert (m.status, m.finish_seq, m.log) == ("pending", None, None)
    assert all(s.rank is None for s in m.seats)
    assert store.leaderboard() == []


def test_self_play_is_stored_but_not_rated(store: Store) -> None:
    (a, *_) = three_bots(store)
    mid = store.create_match(GAME, {}, 1, [a, a, a])
    assert store.finish_match(mid, MatchResult((1.0, 2.0, 3.0), (3, 2, 1), ("", "", "")))
    assert store.get_match(mid).status == "finished"
    assert store.leaderboard() == []


def test_finish_seq_follows_finish_order(store: Store) -> None:
    a, b, _ = three_bots(store)
    mids = [store.create_match(GAME, {}, i, [a, b]) for i in range(3)]
    for mid in reversed(mids):
        store.finish_match(mid, MatchResult((1.0, 0.0), (1, 2), ("", "")))
    assert [store.get_match(m).finish_seq for m in mids] == [3, 2, 1]


def test_a_tournament_is_rated_in_schedule_order_whatever_the_finish_order(tmp_path: Path) -> None:
    boards, seqs = [], []
    for order in ("forward", "shuffled"):
        store = Store(str(tmp_path / f"{order}.db"))
        ids = [*three_bots(store), store.add_bot("dan", "d").id]
        tid = store.create_tournament(GAME, 3, {}, 1, 3, {}, ids, round_robin(ids, 3, repeats=3))
        todo = store.claim_unfinished(tid)
        if order == "shuffled":
            random.Random(4).shuffle(todo)
            while todo[0].index == 0:  # the first match in schedule order must come late
                random.Random(5).shuffle(todo)
            first = todo[0]
            store.finish_match(first.id, result_for(first.seat_bot_ids, first.seed))
            assert store.leaderboard() == []  # waits for the matches scheduled before it
            assert store.get_match(first.id).finish_seq is None
            todo = todo[1:]
        for m in todo:
            store.finish_match(m.id, result_for(m.seat_bot_ids, m.seed))
        matches = sorted(store.list_matches(tid), key=lambda m: m.index)
        seqs.append([m.finish_seq for m in matches])
        boards.append([(r.name, r.mu, r.sigma, r.matches) for r in store.leaderboard()])
        board = store.leaderboard()
        store.rebuild_ratings()
        assert store.leaderboard() == board
        store.close()
    assert seqs[0] == seqs[1] == list(range(1, 13))
    assert boards[0] == boards[1]  # exact floats


def test_a_void_match_does_not_hold_up_the_ratings(store: Store) -> None:
    ids = three_bots(store)
    tid = store.create_tournament(GAME, 3, {}, 1, 1, {}, ids, round_robin(ids, 3))
    first, second, third = store.claim_unfinished(tid)
    store.finish_match(third.id, result_for(third.seat_bot_ids, third.seed))
    store.finish_match(second.id, result_for(second.seat_bot_ids, second.seed))
    assert store.leaderboard() == []
    store.void_match(first.id)
    assert [store.get_match(m.id).finish_seq for m in (first, second, third)] == [None, 1, 2]
    assert sum(r.matches for r in store.leaderboard()) == 6


# ---------------------------------------------------------------- ratings and leaderboard


def play_tournament(store: Store, ids: list[int], players: int, repeats: int) -> int:
    tid = store.create_tournament(
        GAME, players, {}, 1, repeats, {}, ids, round_robin(ids, players, repeats)
    )
    for m in store.claim_unfinished(tid):
        store.mark_running(m.id)
        fault = 0 if m.index % 5 == 0 else None
        store.finish_match(m.id, result_for(m.seat_bot_ids, m.seed, fault))
    return tid


def test_rebuild_gives_the_same_numbers(store: Store) -> None:
    ids = [*three_bots(store), store.add_bot("dan", "d").id]
    play_tournament(store, ids, 3, repeats=4)
    play_tournament(store, ids[:2], 3, repeats=2)  # bots in several seats
    board = store.leaderboard()
    histories = {b: store.rating_history(b, GAME) for b in ids}
    assert store.rebuild_ratings() == 16 + 4
    assert store.leaderboard() == board  # exact floats, not approx
    assert {b: store.rating_history(b, GAME) for b in ids} == histories


def everything_rated(store: Store, ids: list[int]) -> tuple[object, ...]:
    return (store.leaderboard(), {b: store.rating_history(b, GAME) for b in ids})


def test_rebuild_writing_history_in_small_chunks_gives_the_same_numbers(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage_ratings, "HISTORY_CHUNK", 5)  # many bulk writes, a partial last one
    ids = [*three_bots(store), store.add_bot("dan", "d").id]
    play_tournament(store, ids, 3, repeats=3)
    before = everything_rated(store, ids)
    assert store.rebuild_ratings() == 12
    assert everything_rated(store, ids) == before


def test_failed_rebuild_changes_nothing(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage_ratings, "HISTORY_CHUNK", 3)  # history written before the failure
    ids = three_bots(store)
    play_tournament(store, ids, 2, repeats=4)
    before = everything_rated(store, ids)
    last = store.list_matches(limit=1)[0].id
    with sqlite3.connect(tmp_path / "arena.db") as db:  # a stored rank no rating can take
        db.execute("UPDATE seat SET rank = 0 WHERE match_id = ? AND seat = 0", (last,))
    with pytest.raises(StoreError, match=f"stored match {last}: rank of bot .* not 0"):
        store.rebuild_ratings()
    assert everything_rated(store, ids) == before


def _all_rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the tables a void touches, read straight from the file."""
    with sqlite3.connect(path) as db:
        return {table: db.execute(f'SELECT * FROM "{table}" ORDER BY 1, 2').fetchall()
                for table in ("tournament", "match", "seat", "rating", "rating_history",
                              "head_to_head", "tournament_standing", "tournament_pair")}


def test_voiding_a_tournament_reads_voided_and_leaves_it_out_of_every_rating(
        store: Store) -> None:
    ids = three_bots(store)
    voided, kept = play_tournament(store, ids, 2, repeats=2), play_tournament(store, ids, 3, 1)
    other = store.get_tournament(kept)
    assert store.void_tournament(voided) == 6
    tournament = store.get_tournament(voided)
    assert tournament.status is TournamentStatus.VOIDED and tournament.finished_at is not None
    assert {m.status for m in store.tournament_matches(voided)} == {MatchStatus.VOID}
    assert sum(r.matches for r in store.leaderboard()) == 3 * 3  # the kept one's matches only
    assert store.get_tournament(kept) == other  # untouched
    assert voided not in {t.id for t in store.tournaments_to_serve()}


def test_a_failure_at_the_end_of_a_void_leaves_everything_as_it_was(
        store: Store, tmp_path: Path) -> None:
    """One transaction: the database refuses the last rows the void writes (the rebuilt
    standings of the other tournament), and the matches, the tournament, the ratings and the
    summaries are as they were before it."""
    ids = three_bots(store)
    voided = play_tournament(store, ids, 2, repeats=2)
    play_tournament(store, ids, 3, repeats=1)
    db = tmp_path / "arena.db"
    before = _all_rows(db)
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TRIGGER refuse BEFORE INSERT ON tournament_standing "
                     "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END")
    with pytest.raises(StoreError, match="the disk is full"):
        store.void_tournament(voided)
    assert _all_rows(db) == before
    assert store.get_tournament(voided).status is not TournamentStatus.VOIDED
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER refuse")
    assert store.void_tournament(voided) == 6  # and it can be done once the disk has room
    assert store.get_tournament(voided).status is TournamentStatus.VOIDED


def test_rebuild_counts_a_finished_match_without_seats(store: Store, tmp_path: Path) -> None:
    ids = three_bots(store)
    play_tournament(store, ids, 2, repeats=1)
    before = everything_rated(store, ids)
    with sqlite3.connect(tmp_path / "arena.db") as db:
        db.execute(
            "INSERT INTO match (\"index\", game, options, seed, status, created_at, finish_seq) "
            "VALUES (0, ?, '{}', '7', 'finished', '2024-01-01 00:00:00', 99)", (GAME,)
        )
    assert store.rebuild_ratings() == 3 + 1
    assert everything_rated(store, ids) == before


def test_matches_finished_after_a_rebuild_move_the_rebuilt_ratings(tmp_path: Path) -> None:
    rebuilt, plain = migrated_store(tmp_path / "rebuilt.db"), migrated_store(tmp_path / "plain.db")
    ids = three_bots(rebuilt)
    assert three_bots(plain) == ids
    for store in (rebuilt, plain):
        play_tournament(store, ids, 3, repeats=2)
    rebuilt.rebuild_ratings()  # new rating rows: later updates must find them
    for store in (rebuilt, plain):
        play_tournament(store, ids, 2, repeats=2)
    assert everything_rated(rebuilt, ids) == everything_rated(plain, ids)
    assert [r.matches for r in rebuilt.leaderboard()] == [10, 10, 10]
    rebuilt.close()
    plain.close()


def test_leaderboard_orders_by_conservative_estimate(store: Store) -> None:
    a, b, c = three_bots(store)
    for i in range(6):  # ann always beats bob, bob always beats cat
        mid = store.create_match(GAME, {}, i, [c, b, a])
        store.finish_match(mid, MatchResult((0.0, 1.0, 2.0), (3, 2, 1), ("", "", "")))
    other = store.create_match("other-game", {}, 1, [c, a])
    store.finish_match(other, MatchResult((2.0, 0.0), (1, 2), ("", "")))
    rows = store.leaderboard(GAME)
    assert [r.name for r in rows] == ["ann", "bob", "cat"]
    assert rows[0].conservative == pytest.approx(rows[0].mu - 3 * rows[0].sigma)
    assert rows[0].win_share == 1.0 and rows[2].win_share == 0.0
    everything = store.leaderboard()
    assert len(everything) == 5
    keys = [r.conservative for r in everything]
    assert keys == sorted(keys, reverse=True)
    assert [r.name for r in store.leaderboard("other-game")] == ["cat", "ann"]


def test_rating_history_follows_the_matches(store: Store) -> None:
    a, b, _ = three_bots(store)
    for i in range(3):
        store.finish_match(
            store.create_match(GAME, {}, i, [a, b]), MatchResult((1.0, 0.0), (1, 2), ("", ""))
        )
    history = store.rating_history(a, GAME)
    assert [h.finish_seq for h in history] == [1, 2, 3]
    assert history[0].mu < history[1].mu < history[2].mu
    assert (history[-1].mu, history[-1].sigma) == (store.leaderboard()[0].mu,
                                                   store.leaderboard()[0].sigma)


# ---------------------------------------------------------------- concurrency




def test_concurrent_writers_wait_and_finish_each_match_once(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.db")
    store = Store(path)
    ids = [*three_bots(store), store.add_bot("dan", "d").id]
    tid = store.create_tournament(GAME, 3, {}, 1, 6, {}, ids, round_robin(ids, 3, repeats=6))
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        stored = pool.starmap(finish_all, [(path, tid, w) for w in range(4)])
    assert sum(stored) == 24  # each match stored by exactly one worker
    info = store.get_tournament(tid)
    assert (info.finished, info.total) == (24, 24)
    seqs = sorted(m.finish_seq or 0 for m in store.list_matches(tid))
    assert seqs == list(range(1, 25))
    assert sum(r.matches for r in store.leaderboard()) == 24 * 3
    board = store.leaderboard()
    store.rebuild_ratings()
    assert store.leaderboard() == board




def test_concurrent_openers_of_a_fresh_file_all_succeed(tmp_path: Path) -> None:
    path = str(tmp_path / "fresh.db")
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        labels = pool.starmap(open_and_add, [(path, w) for w in range(4)])
    assert sorted(labels) == [f"bot{w}@1" for w in range(4)]
    assert len(Store(path).list_bots()) == 4


def test_sqlite_file_is_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    Store(str(path)).add_bot("ann", "x")
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# ---------------------------------------------------------------- bad databases


def test_bad_url_is_a_store_error() -> None:
    with pytest.raises(StoreError, match="cannot use database URL nosuch://") as info:
        Store("nosuch://somewhere/db")
    assert "\n" not in str(info.value)


def test_password_is_not_shown(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as info:
        Store("nosuch://user:secret@host/db")
    assert "secret" not in str(info.value)


def test_directory_as_path_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        Store(str(tmp_path))


def test_missing_directory_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no directory"):
        Store(str(tmp_path / "nope" / "arena.db"))


def test_not_a_database_file_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are not the tables you are looking for\n" * 50)
    with pytest.raises(StoreError, match="file is not a database"):
        Store(str(path))


def test_read_only_database_reads_but_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    with Store(str(path)) as writable:
        writable.add_bot("ann", "x")
    # Opened read-only by URL: chmod alone does not stop root, who runs CI in containers.
    ro = Store(f"sqlite:///file:{path}?mode=ro&uri=true")
    assert [b.name for b in ro.list_bots()] == ["ann"]
    with pytest.raises(StoreError, match="readonly database") as info:
        ro.add_bot("bob", "y")
    assert "\n" not in str(info.value)


def test_a_new_database_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "private.db"
    store = Store(str(path))
    store.add_bot("ann", "run ann")  # a write: the WAL and shared-memory files appear too
    modes = {f.name: f.stat().st_mode & 0o777 for f in tmp_path.iterdir()}
    store.close()
    assert modes["private.db"] == 0o600 and modes.get("private.db-wal", 0o600) == 0o600
    assert all(mode & 0o077 == 0 for mode in modes.values()), modes


def test_deals_in_play_are_the_matches_whose_cards_another_rotation_has_still_to_deal(
        tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    a, b, c = three_bots(store)
    tid = store.create_tournament(GAME, 2, {}, 1, 1, {}, [a, b, c], [
        ScheduledMatch(0, 11, (a, b)), ScheduledMatch(1, 11, (b, a)),  # one deal, two rotations
        ScheduledMatch(2, 12, (a, c)), ScheduledMatch(3, 12, (c, a))])
    first, second, third, fourth = (m.id for m in store.claim_unfinished(tid))
    for match in (first, third, fourth):
        store.finish_match(match, result_for((a, b), 5))
    # the first match's cards are dealt again by the second, unplayed: hidden until it is
    assert store.deals_in_play([first, second, third, fourth]) == {first}
    assert [store.deal_in_play(m) is not None for m in (first, second, third, fourth)] == \
        [True, False, False, False]
    assert store.deals_in_play([]) == set()
    store.finish_match(second, result_for((b, a), 6))
    assert store.deals_in_play([first, second]) == set()
