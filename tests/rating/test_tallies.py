"""The tallies kept as matches are rated give what the pure figures give over the same
matches: standings and crosstable as :mod:`arena.rating.standings` computes them, and the
head-to-head counts pair by pair."""

from __future__ import annotations

import random

import pytest

from arena.rating.figures import read_match
from arena.rating.standings import Played, Seat, crosstable, standings
from arena.rating.stats import compare
from arena.rating.tallies import Tallies, TournamentTally


def _matches(seed: int, count: int, bots: int = 4, seats: int = 3) -> list[Played]:
    draw = random.Random(seed)
    out = []
    for index in range(count):
        seated = [draw.randrange(bots) + 1 for _ in range(seats)]  # a bot may fill two seats
        ranks = [draw.randint(1, seats) for _ in range(seats)]
        faults = ["timeout" if draw.random() < 0.15 else "" for _ in range(seats)]
        out.append(Played(1000 + index, index, tuple(
            Seat(b, r, f) for b, r, f in zip(seated, ranks, faults, strict=True))))
    return out


def test_a_tournament_tally_is_the_standings_and_crosstable_of_its_matches() -> None:
    played = _matches(1, 60)
    tally = TournamentTally()
    for match in played:
        tally.add(match.match_id, match.seats)
    rows, table = tally.table()
    assert rows == standings(played, "any")
    assert table == crosstable(played, [r.bot_id for r in rows])


def test_a_tally_started_part_way_ends_where_one_from_the_start_does() -> None:
    played = _matches(2, 40)
    whole = TournamentTally()
    for match in played:
        whole.add(match.match_id, match.seats)
    first = TournamentTally()
    for match in played[:17]:
        first.add(match.match_id, match.seats)
    resumed = TournamentTally(first.book.lines, first.pairs)  # as the store reloads it
    for match in played[17:]:
        resumed.add(match.match_id, match.seats)
    assert resumed.table() == whole.table()


def test_head_to_head_counts_each_pair_by_pool_with_its_rank_sum() -> None:
    played = _matches(3, 50)
    tallies = Tallies()
    for match in played:
        tallies.add("pool-a" if match.index % 2 else "pool-b", None, match.match_id, match.seats)
    for pool, parity in (("pool-a", 1), ("pool-b", 0)):
        mine = [m for m in played if m.index % 2 == parity]
        for a in range(1, 5):
            for b in range(1, 5):
                ranks = [(ra, rb) for m in mine
                         for x, y, ra, rb in read_match((s.bot_id, s.rank, s.fault)
                                                        for s in m.seats).pairs()
                         if (x, y) == (a, b)]
                cell = tallies.head_to_head.get((a, pool, b))
                if not ranks:
                    assert cell is None
                    continue
                counted = compare(ranks)
                assert cell == [counted.wins, counted.losses, counted.ties,
                                sum(ra for ra, _ in ranks)]


def test_tournament_matches_move_their_tournament_and_the_head_to_head() -> None:
    played = _matches(4, 10)
    tallies = Tallies()
    for match in played:
        tallies.add("pool", 7, match.match_id, match.seats)
    alone = TournamentTally()
    for match in played:
        alone.add(match.match_id, match.seats)
    assert set(tallies.tournaments) == {7}
    assert tallies.tournaments[7].table() == alone.table()
    assert sum(cell[0] + cell[1] + cell[2] for cell in tallies.head_to_head.values()) == \
        sum(sum(cell) for cell in alone.pairs.values())


def test_a_rank_below_one_changes_nothing() -> None:
    tallies = Tallies()
    tallies.add("pool", 1, 1, (Seat(1, 1), Seat(2, 2)))
    before = (dict(tallies.head_to_head), dict(tallies.tournaments[1].pairs))
    with pytest.raises(ValueError, match="1 or more"):
        tallies.add("pool", 1, 2, (Seat(1, 0), Seat(2, 1)))
    assert (tallies.head_to_head, tallies.tournaments[1].pairs) == before


def test_compare_counts_as_every_pair_tally() -> None:
    result = compare([(1, 2), (2, 1), (3, 3), (1, 4)])
    assert (result.wins, result.losses, result.ties, result.n) == (2, 1, 1, 4)
