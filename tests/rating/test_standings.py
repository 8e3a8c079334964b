"""Standings and crosstables from a tournament's finished matches."""

from __future__ import annotations

import pytest

from arena.rating.book import Placed, RatingBook
from arena.rating.standings import Played, Seat, crosstable, paired_ranks, standings

GAME = "kill"


def match(match_id: int, *seats: tuple[int, int] | tuple[int, int, str]) -> Played:
    return Played(match_id, match_id - 1, tuple(Seat(*seat) for seat in seats))


PLAYED = [
    match(1, (1, 1), (2, 2), (3, 3)),
    match(2, (2, 1), (3, 2), (1, 3, "timeout")),
    match(3, (3, 1), (1, 1), (2, 3)),  # 3 and 1 tied first
    match(4, (1, 1), (2, 2)),
]


def test_standings_rate_the_matches_alone_in_schedule_order_and_count_what_happened() -> None:
    rows = {row.bot_id: row for row in standings(list(reversed(PLAYED)), GAME)}
    book = RatingBook()
    for m in PLAYED:  # the arena's own book, match after match in schedule order
        book.apply(GAME, m.match_id, m.match_id, [Placed(s.bot_id, s.rank, s.fault != "")
                                                   for s in m.seats])
    for bot_id, row in rows.items():
        line = book.line(bot_id, GAME)
        assert line is not None and (row.mu, row.sigma) == (line.mu, line.sigma)
    assert (rows[1].matches, rows[1].wins) == (4, 3) and rows[1].mean_rank == pytest.approx(1.5)
    assert rows[1].faults == {"timeout": 1} and rows[2].faults == {}
    assert (rows[3].matches, rows[3].wins) == (3, 1) and rows[3].win_share == pytest.approx(1 / 3)
    ordered = standings(PLAYED, GAME)
    assert [r.rating for r in ordered] == sorted((r.rating for r in ordered), reverse=True)


def test_the_crosstable_pairs_every_two_bots_that_met() -> None:
    assert paired_ranks(PLAYED, 1, 3) == [(1, 3), (3, 2), (1, 1)]
    table = crosstable(PLAYED, [1, 2, 3])
    one_two = table[1, 2]
    assert (one_two.n, one_two.wins, one_two.losses, one_two.ties) == (4, 3, 1, 0)
    assert table[2, 1].wins == 1 and table[2, 1].share == pytest.approx(1 - one_two.share)
    one_three = table[1, 3]
    assert (one_three.n, one_three.wins, one_three.losses, one_three.ties) == (3, 1, 1, 1)
    assert one_three.share == pytest.approx(0.5)
    lonely = crosstable([*PLAYED, match(5, (4, 1), (5, 2))], [1, 4])
    assert (1, 4) not in lonely and (4, 1) not in lonely  # they never met
