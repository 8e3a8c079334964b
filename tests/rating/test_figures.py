"""What one match counts for each bot (:mod:`arena.rating.figures`), and the books that use it:
a bot seated twice counts the match once, a faulted seat never wins, an all-fault match is
rated for no one."""

from __future__ import annotations

import pytest

from arena.rating import DEFAULT, Placed, RatingBook
from arena.rating.figures import BotInMatch, read_match
from arena.rating.standings import Seat, StandingsBook


def test_a_bot_seated_twice_counts_its_best_seat_once() -> None:
    reading = read_match([(7, 3, ""), (8, 1, ""), (7, 2, ""), (9, 4, ""), (8, 5, "")])
    assert reading.counted and reading.rated
    assert reading.bots == (BotInMatch(7, 2, 2, False, ""), BotInMatch(8, 2, 1, True, ""),
                            BotInMatch(9, 1, 4, False, ""))
    assert sorted(reading.pairs()) == [(7, 8, 2, 1), (7, 9, 2, 4), (8, 7, 1, 2), (8, 9, 1, 4),
                                       (9, 7, 4, 2), (9, 8, 4, 1)]


def test_a_faulted_seat_is_last_and_never_a_win() -> None:
    # two seats faulted: the referee ranks them level behind the others (rank 3 of 4)
    reading = read_match([(1, 1, ""), (2, 3, "timeout"), (3, 2, ""), (2, 3, "crashed")])
    assert reading.rated
    assert reading.bots[1] == BotInMatch(2, 2, 4, False, "timeout")  # its first fault's kind
    # a made-up result with a faulted seat ranked first is still no win, and it is last
    odd = read_match([(1, 1, "error"), (2, 2, "")])
    assert odd.bots == (BotInMatch(1, 1, 2, False, "error"), BotInMatch(2, 1, 2, False, ""))


def test_an_all_fault_match_counts_but_is_rated_for_no_one_and_won_by_no_one() -> None:
    reading = read_match([(1, 1, "crashed"), (2, 1, "illegal-action"), (3, 1, "no-show")])
    assert reading.counted and not reading.rated
    assert [(b.rank, b.won, b.fault) for b in reading.bots] == [
        (3, False, "crashed"), (3, False, "illegal-action"), (3, False, "no-show")]
    assert {(a, b): (ra, rb) for a, b, ra, rb in reading.pairs()}[1, 2] == (3, 3)  # level

    book = RatingBook()
    assert book.apply("kill", 1, 1, [Placed(1, 1, True), Placed(2, 1, True)]) == []
    line = book.line(1, "kill")
    assert line is not None and (line.mu, line.sigma) == DEFAULT
    assert (line.matches, line.wins, line.faults) == (1, 0, 1)
    assert book.take_history() == []

    standings = StandingsBook()
    standings.apply(1, [Seat(1, 1, "crashed"), Seat(2, 1, "timeout")])
    [first, second] = standings.standings()
    assert (first.mu, first.sigma, first.matches, first.wins, first.mean_rank) == (
        *DEFAULT, 1, 0, 2.0)
    assert (first.faults, second.faults) == ({"crashed": 1}, {"timeout": 1})


def test_one_bot_alone_counts_nothing_and_a_bad_rank_is_refused() -> None:
    assert not read_match([(4, 1, ""), (4, 2, "")]).counted
    book = RatingBook()
    assert book.apply("kill", 1, 1, [Placed(4, 1), Placed(4, 2)]) == []
    assert book.line(4, "kill") is None
    with pytest.raises(ValueError, match="rank of bot 5 must be 1 or more"):
        book.apply("kill", 2, 2, [Placed(4, 1), Placed(5, 0)])
    assert book.lines == {}


def test_standings_and_the_global_book_agree_on_a_bot_seated_twice() -> None:
    seats = [Seat(1, 2, ""), Seat(2, 1, ""), Seat(1, 3, ""), Seat(3, 4, ""), Seat(2, 5, "error")]
    book = RatingBook()
    book.apply("knives", 10, 1, [Placed(s.bot_id, s.rank, bool(s.fault)) for s in seats])
    standings = StandingsBook()
    standings.apply(10, seats)
    for row in standings.standings():
        line = book.line(row.bot_id, "knives")
        assert line is not None
        assert (row.mu, row.sigma, row.matches, row.wins, sum(row.faults.values())) == (
            line.mu, line.sigma, line.matches, line.wins, line.faults)
    assert {r.bot_id: (r.matches, r.wins, r.mean_rank) for r in standings.standings()} == {
        1: (1, 0, 2.0), 2: (1, 1, 1.0), 3: (1, 0, 4.0)}
