"""Formats: a gauntlet, and a match between two bots over duplicate sets that an SPRT may end."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import pytest

from arena.rating.stats import SprtSettings
from arena.storage.store import MatchResult, Store
from arena.tournament import Plan, RunSettings, TournamentError, create_tournament, run_until_done
from arena.tournament.formats import VERSUS, Format, watch
from arena.tournament.schedule import gauntlet, versus
from tests.helpers import cli, migrated_store
from tests.inprocess import InProcessExecutor

GAME = "face-card-kill-card"


def test_a_gauntlet_plays_each_challenger_against_the_field_and_never_the_field_alone() -> None:
    schedule = gauntlet([1, 2], [10, 11, 12, 13], 3, 2, seed=5)
    challengers = {1, 2}
    for match in schedule:
        # exactly one challenger a match: the field never plays itself, challengers never meet
        assert len(set(match.seat_bot_ids) & challengers) == 1, match
    per_challenger = Counter(next(iter(set(m.seat_bot_ids) & challengers)) for m in schedule)
    # C(4, 2) = 6 groups of the field per challenger, 3 rotations, 2 repetitions
    assert per_challenger == {1: 6 * 3 * 2, 2: 6 * 3 * 2}
    seats = Counter((bot, seat) for m in schedule for seat, bot in enumerate(m.seat_bot_ids))
    assert {seats[1, seat] for seat in range(3)} == {12}  # each seat as often: no seat favoured
    with pytest.raises(TournamentError, match="both a challenger and in the field"):
        gauntlet([1], [1, 2], 2, 1, 5)
    with pytest.raises(TournamentError, match="at least one challenger and a field"):
        gauntlet([1], [], 2, 1, 5)


def test_a_versus_match_plays_set_after_set_each_one_deal_in_every_rotation() -> None:
    schedule = versus(1, 2, [10, 11, 12], 4, 6, seed=5)
    assert len(schedule) == 6 * 4
    by_set = defaultdict(list)
    for match in schedule:
        by_set[match.index // 4].append(match)
    fields = []
    for _, matches in sorted(by_set.items()):
        assert len({m.seed for m in matches}) == 1  # one deal a set
        assert sorted(m.lane for m in matches) == [0, 1, 2, 3]  # each rotation by its own lane
        assert {tuple(sorted(m.seat_bot_ids)) for m in matches} == {tuple(sorted(matches[0].seat_bot_ids))}
        assert {m.seat_bot_ids.index(1) for m in matches} == {0, 1, 2, 3}  # A in every seat
        fields.append(tuple(sorted(set(matches[0].seat_bot_ids) - {1, 2})))
    assert fields == [(10, 11), (10, 12), (11, 12)] * 2  # the field's draws in turn
    assert len({m.seed for m in schedule}) == 6  # a new deal each set
    for bad, message in [((1, 1, [3], 2), "two different bots"), ((1, 2, [2], 2), "also be in"),
                         ((1, 2, [], 3), "needs a field for the 1 other seats")]:
        with pytest.raises(TournamentError, match=message):
            versus(*bad, sets=3, seed=1)


def new_versus(store: Store, sets: int, sprt: SprtSettings | None) -> int:
    store.add_bot("alpha", "python -m bots.random_bot")
    store.add_bot("beta", "python -m bots.random_bot")
    return create_tournament(store, GAME, ["alpha", "beta"], 2, 1, 3, {}, RunSettings(),
                             plan=Plan(kind=VERSUS, sets=sets, sprt=sprt))


def finish_sets(store: Store, tid: int, outcomes: str) -> None:
    """Finish the first sets by hand: per set ``W`` (A above B in both rotations), ``L`` (the
    reverse) or ``D`` (each above once)."""
    ids = {b.label: b.id for b in store.list_bots()}
    a = ids["alpha@1"]
    matches = sorted(store.list_matches(tid, 10_000), key=lambda m: m.index)
    for number, outcome in enumerate(outcomes):
        for rotation, match in enumerate(matches[2 * number: 2 * number + 2]):
            a_first = outcome == "W" or (outcome == "D" and rotation == 0)
            ranks = tuple(1 if (seat.bot_id == a) == a_first else 2 for seat in match.seats)
            store.finish_match(match.id, MatchResult(scores=(0.0, 0.0), ranks=ranks,
                                                     faults=("", "")))


def test_watch_scores_complete_sets_in_order_up_to_the_first_unfinished(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    tid = new_versus(store, 10, None)
    finish_sets(store, tid, "WLD")
    tournament = store.get_tournament(tid)
    fmt = Format.from_settings(tournament.settings)
    assert fmt.kind == VERSUS and fmt.sets == 10 and fmt.sprt is None
    matches = store.list_matches(tid, 100)
    assert watch(matches, fmt, 2).scores == [1.0, 0.0, 0.5]
    # a set with one rotation played is not complete, nor is any set after it
    later = sorted(matches, key=lambda m: m.index)
    store.finish_match(later[7].id, MatchResult((0.0, 0.0), (1, 2), ("", "")))
    assert watch(store.list_matches(tid, 100), fmt, 2).scores == [1.0, 0.0, 0.5]
    assert watch(matches, fmt, 2).state is None  # no SPRT asked for


def test_a_match_decided_before_an_interruption_is_ended_on_resume_without_playing(
        tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    tid = new_versus(store, 200, SprtSettings(elo0=0, elo1=100))
    finish_sets(store, tid, "W" * 12)  # written, and then the arena was killed
    executor = InProcessExecutor()
    summary = run_until_done(store, tid, tmp_path, RunSettings(), executor=executor)
    assert executor.jobs == [] and executor.started == []
    assert summary.decided is not None and "H1 accepted" in summary.decided
    tournament = store.get_tournament(tid)
    statuses = Counter(m.status for m in store.list_matches(tid, 1000))
    assert tournament.status == "finished" and statuses == {"finished": 24, "void": 400 - 24}
    ratings = {row.label: row.matches for row in store.leaderboard(GAME)}
    assert ratings == {"alpha@1": 24, "beta@1": 24}  # every finished match rated, once


def test_an_sprt_match_between_a_strong_and_a_weak_bot_stops_early(tmp_path: Path) -> None:
    """Real bots, over the real CLI: the Kings in the Corner bot against the random bot."""
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    cli("bot", "add", "corner", "--command", "python -m bots.kings_corner", db=db)
    run = cli("tournament", "run", "--game", "kings-corner", "--players", "2", "--format",
              "versus", "--bot", "corner", "--bot", "random", "--sprt", "elo0=0,elo1=150",
              "--sets", "300", "--parallel", "2", "--option", "target_score=1",  # one deal
              db=db)
    assert "decided early" in run.stdout and "H1 accepted" in run.stdout, run.stdout
    store = Store(str(db))
    tournament = store.get_tournament(1)
    statuses = Counter(str(m.status) for m in store.list_matches(1, 1000))
    assert tournament.status == "finished" and tournament.total == 600
    assert statuses["finished"] + statuses["void"] == 600 and statuses["finished"] < 100
    state = watch(store.list_matches(1, 1000), Format.from_settings(tournament.settings), 2).state
    assert state is not None and state.decision == "H1" and state.n >= 10
    listing = cli("tournament", "list", db=db).stdout
    assert "finished" in listing
    again = cli("tournament", "resume", "1", db=db)  # nothing left: it plays nothing
    assert Counter(str(m.status) for m in store.list_matches(1, 1000)) == statuses, again.stdout
