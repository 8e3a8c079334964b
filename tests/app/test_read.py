"""The read use cases of arena.app (boards, reports, matches) on real SQLite stores: what
they return, and that the secrecy rule is applied where they show fault reasons."""

from __future__ import annotations

import pytest

from arena.app import boards, matches, reports
from arena.app.visibility import Sight
from arena.games import get_game
from arena.storage.store import MatchResult, MatchStatus, NotFoundError, ScheduledMatch, Store
from tests.helpers import result_for, round_robin, three_bots
from tests.web.replay_fixtures import play_stored

GAME = "face-card-kill-card"


def _won(seats: tuple[int, ...], winner: int, fault: int | None = None,
         reason: str = "") -> MatchResult:
    """A result in which seat ``winner`` ranks first and the others tie second; ``fault``: a
    seat that timed out (with ``reason``)."""
    ranks = tuple(1 if i == winner else 2 for i in range(len(seats)))
    faults = tuple("timeout" if i == fault else "" for i in range(len(seats)))
    reasons = tuple(reason if i == fault else "" for i in range(len(seats)))
    return MatchResult(tuple(float(3 - r) for r in ranks), ranks, faults, log=b"x",
                       duration_s=0.1, reasons=reasons)


def _play(store: Store, schedule: list[ScheduledMatch], results: dict[int, MatchResult],
          bots: list[int]) -> tuple[int, list[int]]:
    """A tournament of ``schedule``; the matches at the indexes of ``results`` finished with
    them, the others left pending."""
    tid = store.create_tournament(GAME, 2, {}, 1, 1, {}, bots, schedule)
    ids = [m.id for m in store.claim_unfinished(tid)]
    for index, result in results.items():
        store.mark_running(ids[index])
        store.finish_match(ids[index], result)
    return tid, ids


def test_compare_counts_the_shared_matches_and_gives_both_ratings(store: Store) -> None:
    a, b, c = three_bots(store)
    schedule = [ScheduledMatch(i, 100 + i, (a, b)) for i in range(4)] + \
        [ScheduledMatch(4, 200, (a, c))]
    _play(store, schedule, {0: _won((a, b), 0), 1: _won((a, b), 0), 2: _won((a, b), 1),
                            3: _won((a, b), 0), 4: _won((a, c), 1)}, [a, b, c])
    found = boards.compare(store, GAME, "ann", "bob@1")
    assert (found.game, found.a.label, found.b.label) == (GAME, "ann@1", "bob@1")
    assert (found.result.n, found.result.wins, found.result.losses, found.result.ties) == (4, 3, 1, 0)
    board = {row.name: row.conservative for row in store.leaderboard(pool=GAME)}
    assert (found.rating_a, found.rating_b) == (board["ann"], board["bob"])
    assert found.rating_difference == pytest.approx(board["ann"] - board["bob"])
    with pytest.raises(boards.SameBot):
        boards.compare(store, GAME, "ann", "ann@1")


def test_a_pool_board_chooses_the_standard_pool_and_refuses_another_games(store: Store) -> None:
    a, b, c = three_bots(store)
    _play(store, round_robin([a, b, c], 2), {0: _won((a, b), 0), 1: _won((b, c), 0)}, [a, b, c])
    board = boards.pool_board(store, GAME)
    assert (board.game, board.pool, board.pools) == (GAME, GAME, (GAME,))
    assert [row.name for row in board.rows] == [row.name for row in store.leaderboard(pool=GAME)]
    with pytest.raises(NotFoundError, match="no rating pool of"):
        boards.pool_board(store, GAME, "kill")
    assert boards.game_leaders(store)[GAME] == board.rows[0]
    assert boards.leaderboard(store, GAME) == list(board.rows)


def test_resolve_bot_takes_the_newest_version_not_removed(store: Store) -> None:
    store.add_bot("ann", "run ann", "1")
    store.add_bot("ann", "run ann", "2")
    newest, bob = store.add_bot("ann", "run ann", "3").id, store.add_bot("bob", "run bob").id
    _play(store, [ScheduledMatch(0, 1, (newest, bob))], {0: _won((newest, bob), 0)},
          [newest, bob])
    store.remove_bot("ann", "3")  # it played: kept, removed
    bot, versions = boards.resolve_bot(store, "ann")
    assert bot.label == "ann@2" and [v.version for v in versions] == ["1", "2", "3"]
    assert boards.resolve_bot(store, "ann@3")[0].removed
    for label in ("ann@9", "nobody", "bad name!"):
        with pytest.raises(NotFoundError):
            boards.resolve_bot(store, label)


def test_a_fault_reason_is_hidden_while_another_rotation_of_its_deal_is_unplayed(
        store: Store) -> None:
    a, b, c = three_bots(store)
    schedule = [ScheduledMatch(0, 11, (a, b)), ScheduledMatch(1, 11, (b, a)),  # one deal
                ScheduledMatch(2, 12, (a, c))]
    _, ids = _play(store, schedule, {0: _won((a, b), 1, fault=0, reason="my hand: 7 8 9"),
                                     2: _won((a, c), 1, fault=0, reason="slow")}, [a, b, c])
    page = matches.bot_faults(store, a, None, 10)
    assert [(f.match_id, f.reason) for f in page.faults] == [(ids[2], "slow"), (ids[0], None)]
    assert not page.more and page.last_id == ids[0]
    assert [f.reason for f in boards.bot_page(store, "ann").faults.faults] == ["slow", None]
    hidden = matches.show_match(store, ids[0])
    assert hidden.refusal is not None and hidden.private_refusal is not None
    assert matches.show_match(store, ids[0], operator=True).refusal is None
    store.mark_running(ids[1])  # the other rotation plays: the first match shows nothing yet
    running = matches.show_match(store, ids[1], Sight.SEAT)
    assert running.refusal is not None and running.refusal.public_meanwhile
    assert matches.show_match(store, ids[1]).refusal is None
    store.finish_match(ids[1], _won((b, a), 0))
    assert [f.reason for f in matches.bot_faults(store, a, None, 10).faults] == \
        ["slow", "my hand: 7 8 9"]
    assert matches.show_match(store, ids[0], Sight.FULL).refusal is None


def test_match_pages_go_on_where_the_last_ended(store: Store) -> None:
    a, b, c = three_bots(store)
    tid, ids = _play(store, round_robin([a, b, c], 2, repeats=2),
                     {i: result_for((a, b), i) for i in range(6)}, [a, b, c])
    first = matches.tournament_match_page(store, tid, 1, 4)
    second = matches.tournament_match_page(store, tid, 2, 4)
    assert [m.id for m in first.matches + second.matches] == ids
    assert (first.more, second.more, first.total) == (True, False, 6)
    newest = matches.bot_matches(store, a, None, 2)
    older = matches.bot_matches(store, a, newest.last_id, 10)
    assert [m.id for m in newest.matches + older.matches] == sorted(
        (m for m in ids if a in {s.bot_id for s in store.get_match(m).seats}), reverse=True)
    log = matches.match_log(store, store.get_match(ids[0]))
    assert (log.data, log.final) == (store.get_match(ids[0]).log, True)


def test_a_report_and_an_export_say_what_the_store_keeps(store: Store) -> None:
    a, b, c = three_bots(store)
    tid, ids = _play(store, round_robin([a, b, c], 2), {0: _won((a, b), 0), 1: _won((b, c), 0)},
                     [a, b, c])
    store.void_match(ids[2])
    report = reports.show_tournament(store, tid)
    assert report.progress.counts == {MatchStatus.FINISHED: 2, MatchStatus.VOID: 1}
    assert (report.progress.kind, report.pool, report.sprt, report.sets) == \
        ("round-robin", GAME, None, None)
    rows, table = store.tournament_standings(tid)
    assert [(r.place, r.standing) for r in report.standings] == list(enumerate(rows, 1))
    assert report.standings[0].bot == "ann@1"
    assert len(report.crosstable) == len(table)
    export = reports.tournament_export(store, tid)
    assert [m.id for m in export.matches] == ids and export.progress.counts == report.progress.counts
    page = reports.tournament_page(store, None, 10)
    assert [p.tournament.id for p in page.tournaments] == [tid] and not page.more
    assert [r.bot_id for r in boards.tournament_leaderboard(store, report.tournament)] == \
        [r.bot_id for r in rows]


def test_a_match_record_shows_a_log_as_far_as_the_rule_allows(store: Store) -> None:
    a, b = (store.add_bot(name, "run").id for name in ("ann", "bob"))
    options = dict(get_game(GAME).parse_options(2))
    tid = store.create_tournament(GAME, 2, options, 1, 1, {}, [a, b], [
        ScheduledMatch(0, 7, (a, b)), ScheduledMatch(1, 7, (b, a))])  # one deal, two rotations
    first, second = (m.id for m in store.claim_unfinished(tid))
    play_stored(store, first)
    with pytest.raises(matches.Hidden, match=f"same cards as match {second}"):
        matches.match_record(store, first, operator=False)
    whole = matches.match_record(store, first, operator=True)  # the operator sees it all
    assert whole.lines is not None and any(line.audience is not None for line in whole.lines)
    seat = matches.match_record(store, first, 1, operator=True)
    assert seat.lines is not None and all(line.visible(1) for line in seat.lines)
    assert len(seat.lines) < len(whole.lines)
    with pytest.raises(matches.NoSuchSeat):
        matches.match_record(store, first, 2, operator=True)
    assert matches.match_record(store, second, operator=False).lines is None  # not played yet
    play_stored(store, second)
    assert matches.match_record(store, first, 0, operator=False).lines is not None
    assert [r.bot_id for r in boards.tournament_board(store, tid)] == \
        [r.bot_id for r in store.tournament_standings(tid)[0]]
    with pytest.raises(NotFoundError, match=f"tournament {tid} is a {GAME} tournament"):
        boards.tournament_board(store, tid, "kill")
