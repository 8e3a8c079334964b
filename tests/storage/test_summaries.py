"""The summaries kept as matches are rated (head-to-head counts, tournament standings and
crosstables) equal the old recomputation from the matches, and a rebuild, to the bit: on a
real tournament played by real bot processes through the CLI, and on a tournament finished
out of order (matches waiting for an earlier one), voided, cut short; on SQLite and on a
real PostgreSQL server."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from arena.app.documents import tournament_report
from arena.games import pool_of
from arena.rating.figures import read_match
from arena.rating.standings import crosstable, standings
from arena.storage.store import HeadToHead, MatchResult, ScheduledMatch, Store
from arena.storage.tables import SUMMARY_TABLES
from tests.conftest import new_postgres_database
from tests.helpers import GAME, cli

RATED_SEATS = """
SELECT m.id, m.game, m.options, s.bot_id, s.rank, s.fault
FROM "match" m JOIN seat s ON s.match_id = m.id
WHERE m.status = 'finished' AND m.finish_seq IS NOT NULL
ORDER BY m.id, s.seat
"""
"""The seats of every rated match, from which a bot's head-to-head is recounted."""


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return new_postgres_database(request.getfixturevalue("postgres_server"))
    return f"sqlite:///{tmp_path / 'arena.db'}"


def _recounted_head_to_head(store: Store, bot_id: int, pool: str) -> list[HeadToHead]:
    """A bot's head-to-head in a pool counted afresh from the seats of every rated match (as
    :mod:`arena.rating.figures` reads a match)."""
    seats: dict[int, list[tuple[int, int, str]]] = {}
    pools: dict[int, str] = {}
    with sa.create_engine(store.url, poolclass=sa.pool.NullPool).connect() as conn:
        for match_id, game, options, bot, rank, fault in conn.execute(sa.text(RATED_SEATS)):
            chosen = json.loads(options) if isinstance(options, str) else options
            pools[match_id] = pool_of(game, chosen)
            seats.setdefault(match_id, []).append((int(bot), int(rank), fault or ""))
    counts: dict[int, list[int]] = {}
    for match_id, seated in seats.items():
        if pools[match_id] != pool:
            continue
        for a, opponent, mine, theirs in read_match(seated).pairs():
            if a == bot_id:
                found = counts.setdefault(opponent, [0, 0, 0, 0])
                found[0 if mine < theirs else 1 if mine > theirs else 2] += 1
                found[3] += mine
    return [HeadToHead(pool, opponent, *found) for opponent, found in sorted(counts.items())]


def _summary_rows(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    engine = sa.create_engine(store.url, poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        rows = {table: [tuple(row) for row in conn.execute(sa.text(
            f"SELECT * FROM {table} ORDER BY 1, 2, 3"))] for table in SUMMARY_TABLES}
    engine.dispose()
    return rows


def assert_summaries_as_recomputed(store: Store) -> None:
    """Every tournament's standings and crosstable as the report computed them from its
    finished matches, and every bot's head-to-head counted afresh from the seats; exact
    floats."""
    for tournament in store.list_tournaments():
        played = store.tournament_played(tournament.id)
        old = standings(played, tournament.game)
        rows, table = store.tournament_standings(tournament.id)
        assert rows == old
        assert list(table.items()) == list(crosstable(played, [r.bot_id for r in old]).items())
    for bot in store.list_bots(include_removed=True):
        pools = sorted({r.pool for r in store.bot_ratings(bot.id)})
        expected = [row for pool in pools
                    for row in _recounted_head_to_head(store, bot.id, pool)]
        assert store.head_to_head(bot.id) == expected


def assert_rebuild_gives_the_same(store: Store) -> None:
    before = _summary_rows(store)
    store.rebuild_ratings()
    assert _summary_rows(store) == before


def _result(draw: random.Random, seats: tuple[int, ...], fault: bool = False) -> MatchResult:
    scores = [float(draw.randrange(3)) for _ in seats]
    ranks = tuple(1 + sum(o > s for o in scores) for s in scores)
    faults = tuple("timeout" if fault and i == 0 else "crashed" if fault and i == 2 else ""
                   for i in range(len(seats)))
    return MatchResult(tuple(scores), ranks, faults)


def test_a_real_tournament_reads_the_same_incremental_rebuilt_and_recomputed(url: str) -> None:
    env = {"ARENA_DB": url}
    for name, module in (("random", "bots.random_bot"), ("heuristic", "bots.face_card_kill_card"),
                         ("other", "bots.random_bot")):
        cli("bot", "add", name, "--command", f"python -m {module}", env=env)
    cli("tournament", "run", "--game", GAME, "--players", "3", "--bot", "random", "--bot",
        "heuristic", "--bot", "other", "--repetitions", "2", "--seed", "4", "--parallel", "2",
        env=env)
    with Store(url) as store:
        assert store.get_tournament(1).finished == 6
        assert_summaries_as_recomputed(store)
        report = tournament_report(store, store.get_tournament(1))
        assert_rebuild_gives_the_same(store)
        assert_summaries_as_recomputed(store)
        assert tournament_report(store, store.get_tournament(1)) == report


def test_out_of_order_voided_and_cut_short_tournaments_read_as_recomputed(url: str) -> None:
    store = Store(url)
    draw = random.Random(5)
    bots = [store.add_bot(f"b{i}", "x").id for i in range(5)]
    # a round-robin of 4 seats in which a bot may hold two seats, in a pool of its own
    schedule = [ScheduledMatch(i, i, (bots[i % 5], bots[(i + 1) % 5], bots[(i + 2) % 5],
                                      bots[i % 5] if i % 3 == 0 else bots[(i + 3) % 5]))
                for i in range(24)]
    variant = {"target_score": 11}
    first = store.create_tournament("kill", 4, variant, 1, 1, {}, bots, schedule)
    todo = store.claim_unfinished(first)
    order = list(range(len(todo)))
    draw.shuffle(order)  # played in parallel: a match waits for the earlier ones to be rated
    waited = 0
    for step, number in enumerate(order):
        match = todo[number]
        store.finish_match(match.id, _result(draw, match.seat_bot_ids, fault=step % 5 == 0))
        if step % 4 == 0:
            assert_summaries_as_recomputed(store)  # the waiting matches counted too
            waited = max(waited, sum(m.status == "finished" and m.finish_seq is None
                                     for m in store.list_matches(first)))
    assert waited > 3
    assert_summaries_as_recomputed(store)
    assert store.bot_ratings(bots[0])[0].pool == pool_of("kill", variant)

    # ad-hoc matches, a tournament of the standard rules cut short, another voided
    for seed in range(4):
        seats = tuple(draw.sample(bots, 3))
        store.finish_match(store.create_match("kill", {}, seed, seats), _result(draw, seats))
    two = [ScheduledMatch(i, i, tuple(draw.sample(bots[:3], 2))) for i in range(10)]
    second = store.create_tournament("kill", 2, {}, 2, 1, {}, bots[:3], two)
    third = store.create_tournament("kill", 2, {}, 3, 1, {}, bots[:3], two)
    for tournament in (second, third):
        todo = store.claim_unfinished(tournament)
        for match in todo[1:7]:  # the first never comes: the others wait for it
            store.finish_match(match.id, _result(draw, match.seat_bot_ids))
        if tournament == second:
            store.void_match(todo[0].id)  # given up: the others are rated
    assert_summaries_as_recomputed(store)
    store.void_unfinished(second)  # cut short: its finished matches stay, rated
    store.void_unfinished(third)
    assert_summaries_as_recomputed(store)
    assert_rebuild_gives_the_same(store)
    store.void_tournament(third)  # out of the ratings: its standings go too
    assert store.tournament_standings(third) == ([], {})
    assert_summaries_as_recomputed(store)
    assert_rebuild_gives_the_same(store)
    store.close()
