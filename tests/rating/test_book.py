"""The rating book on its own, no database: counting, history, and the very floats of ``rate``."""

from __future__ import annotations

import random

import pytest

from arena.rating import DEFAULT, Placed, RatingBook, RatingLine, RatingMove, make_env, rate

GAME = "some-game"


def _move(bot_id: int, game: str, match_id: int, finish_seq: int, mu: float, sigma: float) -> RatingMove:
    return {"bot_id": bot_id, "game": game, "match_id": match_id, "finish_seq": finish_seq,
            "mu": mu, "sigma": sigma}


def test_a_match_counts_matches_wins_and_faults_per_distinct_bot() -> None:
    book = RatingBook()
    # bot 1 sits twice (wins one seat, faults the other), bot 2 faults, bot 3 plays cleanly
    placed = [Placed(1, 1), Placed(2, 2, faulted=True), Placed(1, 3, faulted=True), Placed(3, 3)]
    moves = book.apply(GAME, 7, 1, placed)
    assert [m["bot_id"] for m in moves] == [1, 2, 3]
    one, two, three = (book.line(b, GAME) for b in (1, 2, 3))
    assert one is not None and two is not None and three is not None
    assert (one.matches, one.wins, one.faults) == (1, 1, 1)  # once each, however many seats
    assert (two.matches, two.wins, two.faults) == (1, 0, 1)
    assert (three.matches, three.wins, three.faults) == (1, 0, 0)


def test_ties_for_first_are_wins_for_everyone_tied() -> None:
    book = RatingBook()
    book.apply(GAME, 1, 1, [Placed(1, 1), Placed(2, 1), Placed(3, 3)])
    assert [book.lines[b, GAME].wins for b in (1, 2, 3)] == [1, 1, 0]


def test_counts_add_up_over_matches() -> None:
    book = RatingBook()
    for seq in range(1, 6):
        book.apply(GAME, seq, seq, [Placed(1, 1), Placed(2, 2, faulted=seq % 2 == 0)])
    assert (book.lines[1, GAME].matches, book.lines[1, GAME].wins) == (5, 5)
    assert (book.lines[2, GAME].matches, book.lines[2, GAME].wins) == (5, 0)
    assert book.lines[2, GAME].faults == 2


def test_a_match_with_one_distinct_bot_rates_and_counts_nothing() -> None:
    book = RatingBook({(1, GAME): RatingLine(30.0, 3.0, 4, 2, 1)})
    assert book.apply(GAME, 9, 1, [Placed(1, 1), Placed(1, 2, faulted=True), Placed(1, 3)]) == []
    assert book.apply(GAME, 10, 2, []) == []
    assert book.lines == {(1, GAME): RatingLine(30.0, 3.0, 4, 2, 1)}
    assert book.history == [] and book.take_changed() == []


def test_one_match_gives_what_rate_gives() -> None:
    priors = {1: (30.0, 4.0), 2: (22.0, 6.0)}
    book = RatingBook({(b, GAME): RatingLine(*pair, 3, 1, 0) for b, pair in priors.items()})
    placed = [Placed(3, 2), Placed(1, 1), Placed(2, 2), Placed(4, 4)]
    moves = book.apply(GAME, 5, 17, placed)
    expected = rate(priors, [(p.bot_id, p.rank) for p in placed], tie_key=5)
    assert moves == [_move(b, GAME, 5, 17, *pair) for b, pair in expected.items()]
    assert {b: (book.lines[b, GAME].mu, book.lines[b, GAME].sigma) for b in expected} == expected


def test_many_matches_give_the_same_floats_as_rate_step_by_step() -> None:
    """Bit for bit: the book only feeds each bot's last rating back into ``rate``."""
    draw = random.Random(11)
    book = RatingBook()
    priors: dict[tuple[int, str], tuple[float, float]] = {}
    history: list[RatingMove] = []
    for seq in range(1, 301):
        game = draw.choice(("kill", "king"))
        seats = [(draw.randrange(8), draw.randint(1, 4)) for _ in range(draw.randint(2, 5))]
        new = rate({b: priors[b, game] for b, _ in seats if (b, game) in priors}, seats,
                   tie_key=1000 + seq)
        for bot, pair in new.items():
            priors[bot, game] = pair
            history.append(_move(bot, game, 1000 + seq, seq, *pair))
        book.apply(game, 1000 + seq, seq, [Placed(b, r) for b, r in seats])
    assert {key: (line.mu, line.sigma) for key, line in book.lines.items()} == priors
    assert book.take_history() == history
    assert book.history == []


def test_games_are_rated_apart() -> None:
    book = RatingBook()
    book.apply("a", 1, 1, [Placed(1, 1), Placed(2, 2)])
    book.apply("b", 2, 2, [Placed(2, 1), Placed(1, 2)])
    assert book.lines[1, "a"].mu == book.lines[2, "b"].mu > DEFAULT[0]
    assert sorted(book.lines) == [(1, "a"), (1, "b"), (2, "a"), (2, "b")]


def test_changed_lines_come_out_once_in_key_order() -> None:
    book = RatingBook({(5, GAME): RatingLine(*DEFAULT)})
    book.apply(GAME, 1, 1, [Placed(5, 1), Placed(2, 2)])
    book.apply(GAME, 2, 2, [Placed(2, 1), Placed(5, 2)])
    changed = book.take_changed()
    assert [key for key, _ in changed] == [(2, GAME), (5, GAME)]
    assert changed[1][1] is book.lines[5, GAME] and changed[1][1].matches == 2
    assert book.take_changed() == []


def test_a_rank_below_one_leaves_the_book_as_it_was() -> None:
    book = RatingBook({(1, GAME): RatingLine(25.0, 8.0, 1, 0, 0)})
    with pytest.raises(ValueError, match="rank"):
        book.apply(GAME, 3, 3, [Placed(1, 0), Placed(2, 1)])
    assert book.lines == {(1, GAME): RatingLine(25.0, 8.0, 1, 0, 0)} and book.history == []


def test_another_environment_is_used_when_given() -> None:
    env = make_env(draw_probability=0.3)
    book = RatingBook(env=env)
    moves = book.apply(GAME, 1, 1, [Placed(1, 1), Placed(2, 1)])
    assert [(m["mu"], m["sigma"]) for m in moves] == list(rate({}, [(1, 1), (2, 1)], env).values())
    assert moves != RatingBook().apply(GAME, 1, 1, [Placed(1, 1), Placed(2, 1)])
