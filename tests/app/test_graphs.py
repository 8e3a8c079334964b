"""The win-probability graph's estimate (arena.app.graphs) on real finished matches: matches of
bundled games played through the real referee and stored as a tournament stores them, their
graphs computed from their stored logs and deals, from the full deal.

A graph has one point per decision and one for the start, each seat's chance in [0, 1], the
chances of a step summing to 1; its last step is the match's own result (first place shared
among the seats ranked first; a seat that faulted never first); it keeps to its CPU cap, and a
step's chances depend on the match alone (the cap decides only how many steps are computed).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.app import graphs
from arena.app.graphs import NotFinished, first_shares, series
from arena.games import get_game
from arena.match.replay import read_log
from arena.storage.store import MatchInfo, Store, StoredGraph
from tests.helpers import migrated_store
from tests.web.replay_fixtures import random_bots, store_played_match
from tests.web.test_traveller_secrecy import play

SLACK_S = 0.1
"""CPU seconds over the cap a graph may take: the clock is read every few moves."""


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with migrated_store(tmp_path / "arena.db") as opened:
        yield opened


def decisions(match: MatchInfo) -> int:
    return sum(1 for line in read_log(match.game, match.log or b"") if line.kind == "decision")


def final_shares(match: MatchInfo) -> tuple[float, ...]:
    """Each seat's share of the first place as stored (ranks after faults)."""
    seats = sorted(match.seats, key=lambda s: s.seat)
    return first_shares([s.rank or 0 for s in seats])


def check_graph(match: MatchInfo, graph: StoredGraph, cap_s: float) -> list[tuple[float, ...]]:
    """What every graph of a finished match must be; its series."""
    assert graph.error is None
    assert graph.steps == decisions(match) + 1  # the start, then a point per decision
    assert graph.evaluated[0] == 0 and graph.evaluated[-1] == graph.steps - 1
    assert list(graph.evaluated) == sorted(set(graph.evaluated))
    assert graph.rollouts == graphs.rollouts_for(graph.steps - 1)
    assert 0 < graph.cpu_s <= cap_s + SLACK_S
    points = series(graph)
    assert len(points) == graph.steps
    for step, point in enumerate(points):
        assert len(point) == len(match.seats)
        assert all(0.0 <= chance <= 1.0 for chance in point), (step, point)
        assert sum(point) == pytest.approx(1.0, abs=1e-3), (step, point)
    assert points[-1] == final_shares(match)  # the end is the result itself
    return points


def test_a_short_match_is_computed_at_every_step_and_the_same_again(store: Store) -> None:
    game = get_game("face-card-kill-card")
    match_id = store_played_match(store, game.name, 4, 3)
    match = store.get_match(match_id)
    graph = graphs.compute(store, match_id, cap_s=10.0)
    check_graph(match, graph, 10.0)
    assert graph.evaluated == tuple(range(graph.steps))  # well within the cap: every step
    assert graph.rollouts == graphs.MAX_ROLLOUTS
    assert store.win_graph(match_id) == graph  # kept
    assert graphs.compute(store, match_id) == graph  # and not computed again
    again = graphs.compute(store, match_id, cap_s=10.0, replace=True)
    assert (again.evaluated, again.chances) == (graph.evaluated, graph.chances)  # seeded


@pytest.mark.parametrize(("name", "options"), [("king", {"quick": "true"}),
                                               ("kings-corner", {"target_score": "25"})])
def test_a_long_match_keeps_to_its_cap_and_its_steps_do_not_depend_on_it(
        store: Store, name: str, options: dict[str, str]) -> None:
    game = get_game(name)
    match_id = store_played_match(store, game.name, game.default_players, 5, options)
    match = store.get_match(match_id)
    cap = 0.4  # doubled where the machine is slower and its start and end take more
    while True:
        began = time.process_time()
        short = graphs.made(match, cap_s=cap)
        spent = time.process_time() - began
        if short.error is None or cap >= 6.4:
            break
        assert short.error == f"its start and its end take more than {cap:g} CPU s"
        cap *= 2
    assert spent <= cap + SLACK_S  # reading the log and every rollout within the cap
    check_graph(match, short, cap)
    assert len(short.evaluated) < short.steps  # not every step: the cap ends it
    assert graphs.rollouts_for(short.steps - 1) < graphs.MAX_ROLLOUTS  # fewer for a long match
    tiny = graphs.made(match, cap_s=0.01)  # not even the start: no graph, and why
    assert tiny.error == "its start and its end take more than 0.01 CPU s"
    assert tiny.cpu_s <= 0.01 + SLACK_S and tiny.evaluated == ()
    longer = graphs.made(match, cap_s=3 * cap)
    check_graph(match, longer, 3 * cap)
    assert len(longer.evaluated) > len(short.evaluated)
    steps = dict(zip(longer.evaluated, longer.chances, strict=True))
    # the same steps first, with the same chances: the cap decides only how far it gets
    assert {s: steps[s] for s in short.evaluated} == dict(zip(short.evaluated, short.chances,
                                                             strict=True))


def test_a_seat_that_faults_has_no_chance_from_its_fault_on(store: Store) -> None:
    """A seat answering illegal actions faults at its first decision; the referee's fallback
    plays it on, and it ranks last: from that step on its chance is 0."""
    game = get_game("face-card-kill-card")
    ids = random_bots(store, 4)
    match_id = store.create_match(game.name, dict(game.parse_options(4)), 8, ids)
    play(store, match_id, illegal=2)
    match = store.get_match(match_id)
    assert match.seats[2].fault
    lines = read_log(match.game, match.log or b"")
    first_fault = next(i for i, line in enumerate(lines) if line.kind == "fault")
    faulted_at = 1 + sum(1 for line in lines[:first_fault] if line.kind == "decision")
    graph = graphs.compute(store, match_id, cap_s=10.0)
    points = check_graph(match, graph, 10.0)
    assert graph.evaluated == tuple(range(graph.steps))
    assert [point[2] for point in points[faulted_at:]] == [0.0] * (graph.steps - faulted_at)
    assert final_shares(match)[2] == 0.0


def test_no_graph_of_a_match_not_finished_and_a_log_that_does_not_replay(store: Store) -> None:
    game = get_game("face-card-kill-card")
    match_id = store.create_match(game.name, dict(game.parse_options(3)), 2,
                                  random_bots(store, 3))
    with pytest.raises(NotFinished, match=f"match {match_id} is pending"):
        graphs.compute(store, match_id)
    assert store.win_graph(match_id) is None
    played = store.get_match(store_played_match(store, game.name, 3, 2))
    cut = graphs.made(MatchInfo(**{**played.__dict__, "log": (played.log or b"")[:-40]}))
    assert cut.error is not None and cut.evaluated == ()
