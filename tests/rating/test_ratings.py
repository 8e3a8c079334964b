"""TrueSkill ratings: published numbers, symmetry, ties, bots filling several seats."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
import trueskill
from hypothesis import given
from hypothesis import strategies as st

from arena.rating import ratings as rt


def test_environment_is_the_documented_one() -> None:
    env = rt.ENV
    assert (env.mu, env.sigma, env.beta, env.tau) == pytest.approx(
        (25.0, 25 / 3, 25 / 6, 25 / 300)
    )
    assert env.draw_probability == pytest.approx(0.1)


def test_two_player_win_from_defaults_gives_published_numbers() -> None:
    # The numbers in trueskill's documentation for a 1-vs-1 win (draw probability 0.1).
    new = rt.rate({}, [(1, 1), (2, 2)])
    assert new[1] == pytest.approx((29.396, 7.171), abs=1e-3)
    assert new[2] == pytest.approx((20.604, 7.171), abs=1e-3)


def test_draw_from_defaults_gives_published_numbers() -> None:
    new = rt.rate({}, [(1, 1), (2, 1)])
    assert new[1] == pytest.approx((25.0, 6.458), abs=1e-3)
    assert new[2] == new[1]


def test_agrees_with_trueskill_used_directly() -> None:
    env = rt.make_env()
    priors = {1: (30.0, 4.0), 2: (22.0, 6.0), 3: (25.0, 8.0), 4: (18.0, 2.5)}
    seats = [(1, 1), (2, 2), (3, 2), (4, 4)]
    seats.sort(key=lambda seat: (seat[1], rt.tie_order(0, seat[0])))  # the order rate() uses
    expected = env.rate(
        [(env.create_rating(*priors[b]),) for b, _ in seats], ranks=[r for _, r in seats]
    )
    got = rt.rate(priors, seats, env)
    for (bot, _), (rating,) in zip(seats, expected, strict=True):
        assert got[bot] == (rating.mu, rating.sigma)


def test_winner_gains_loser_loses_and_sigma_shrinks() -> None:
    new = rt.rate({}, [(1, 3), (2, 1), (3, 2)])
    assert new[2][0] > new[3][0] > new[1][0]
    assert all(sigma < rt.SIGMA for _, sigma in new.values())


def test_unknown_bots_start_from_the_defaults() -> None:
    seats = [(1, 1), (2, 2)]
    assert rt.rate({}, seats) == rt.rate({1: rt.DEFAULT, 2: rt.DEFAULT}, seats)


def test_fewer_than_two_distinct_bots_changes_nothing() -> None:
    assert rt.rate({}, []) == {}
    assert rt.rate({}, [(1, 1)]) == {}
    assert rt.rate({1: (30.0, 3.0)}, [(1, 1), (1, 2), (1, 3)]) == {}


def test_bot_in_several_seats_gets_the_mean_of_its_seats() -> None:
    env = rt.ENV
    seats = [(1, 1), (2, 2), (1, 3)]
    (a,), (b,), (c,) = env.rate([(env.create_rating(),)] * 3, ranks=[1, 2, 3])
    new = rt.rate({}, seats)
    assert new[1] == pytest.approx(((a.mu + c.mu) / 2, (a.sigma + c.sigma) / 2))
    assert new[2] == (b.mu, b.sigma)


def test_bad_rank_is_refused() -> None:
    with pytest.raises(ValueError, match="rank"):
        rt.rate({}, [(1, 0), (2, 1)])


def test_conservative_estimate() -> None:
    assert rt.conservative(25.0, 25 / 3) == pytest.approx(0.0)


def test_global_setup_is_not_used() -> None:
    before = trueskill.global_env()
    rt.rate({}, [(1, 1), (2, 2)])
    assert trueskill.global_env() is before


ratings_st = st.tuples(st.floats(0, 50), st.floats(0.5, 10))


@given(
    a=ratings_st,
    b=ratings_st,
    c=ratings_st,
    ranks=st.lists(st.integers(1, 3), min_size=3, max_size=3),
)
def test_deterministic_and_symmetric_under_seat_order(
    a: tuple[float, float], b: tuple[float, float], c: tuple[float, float], ranks: list[int]
) -> None:
    priors = {1: a, 2: b, 3: c}
    seats = list(zip((1, 2, 3), ranks, strict=True))
    first = rt.rate(priors, seats)
    assert first == rt.rate(dict(priors), list(seats))
    assert rt.rate(priors, seats[::-1]) == first



def _tie_drift(rate_match: Callable[[int, dict[int, rt.RatingPair], list[tuple[int, int]]],
                                     dict[int, rt.RatingPair]], seed: int) -> float:
    """Two identical bots (1 and 2) and a third play 600 matches in which 1 and 2 always tie
    (first or second together, by a coin); how far 2's mu ends above 1's."""
    coin = random.Random(seed)
    ratings: dict[int, rt.RatingPair] = {}
    for match_id in range(600):
        seats = [(1, 1), (2, 1), (3, 3)] if coin.random() < 0.5 else [(1, 2), (2, 2), (3, 1)]
        ratings.update(rate_match(seed * 10_000 + match_id, ratings, seats))
    return ratings[2][0] - ratings[1][0]


def test_ties_favour_no_bot_whichever_was_registered_first() -> None:
    env = rt.make_env()

    def by_id(_: int, ratings: dict[int, rt.RatingPair],
              seats: list[tuple[int, int]]) -> dict[int, rt.RatingPair]:
        """Tied bots in id order, as the arena used to rate them."""
        order = sorted(seats, key=lambda seat: (seat[1], seat[0]))
        new = rt.rate_with_library([ratings.get(b, rt.DEFAULT) for b, _ in order],
                                   [rank for _, rank in order], env)
        return dict(zip([b for b, _ in order], new, strict=True))

    def ours(match_id: int, ratings: dict[int, rt.RatingPair],
             seats: list[tuple[int, int]]) -> dict[int, rt.RatingPair]:
        return rt.rate(ratings, seats, env, tie_key=match_id)

    bias = _tie_drift(by_id, 0)
    assert bias > 1e-2  # the bot registered later gained in every tie: +0.016 mu
    drifts = [_tie_drift(ours, seed) for seed in range(8)]
    assert max(abs(d) for d in drifts) < bias / 3, drifts  # within noise, either way
    assert min(drifts) < 0 < max(drifts), drifts  # and neither bot is always ahead


def test_two_faulted_seats_are_no_tie() -> None:
    # bot 1 played; bots 2 and 3 crashed, ranked level behind it by the referee
    priors = {1: (30.0, 2.0), 2: (25.0, 6.0), 3: (24.0, 7.0)}
    seats = [(1, 1), (2, 2), (3, 2)]
    new = rt.rate(priors, seats, tie_key=7, faulted=[1, 2])
    as_ranked = rt.rate(priors, seats, tie_key=7)
    # each faulted bot is rated as losing to the seat that played, and to nobody else
    assert new[2] == rt.rate(priors, [(1, 1), (2, 2)], tie_key=7)[2]
    assert new[3] == rt.rate(priors, [(1, 1), (3, 2)], tie_key=7)[3]
    # the tie would have made TrueSkill surer of two skills it never saw
    assert new[2][1] > as_ranked[2][1] and new[3][1] > as_ranked[3][1]
    assert new[1] == as_ranked[1]  # the bot that played is rated from the match as ranked


def test_a_bot_that_also_played_a_clean_seat_is_rated_from_the_whole_match() -> None:
    priors = {1: (25.0, 8.0), 2: (25.0, 8.0)}
    seats = [(1, 1), (2, 2), (2, 3)]  # bot 2's second seat faulted
    assert rt.rate(priors, seats, faulted=[2]) == rt.rate(priors, seats)


def test_a_bot_that_always_faults_loses_rating_without_growing_sure_of_it() -> None:
    strong, crash, hang = 1, 2, 3
    ratings: dict[int, rt.RatingPair] = {strong: (33.6, 1.0)}
    for match in range(16):
        ratings.update(rt.rate(ratings, [(strong, 1), (crash, 2), (hang, 2)], tie_key=match,
                               faulted=[1, 2]))
    tied: dict[int, rt.RatingPair] = {strong: (33.6, 1.0)}
    for match in range(16):
        tied.update(rt.rate(tied, [(strong, 1), (crash, 2), (hang, 2)], tie_key=match))
    # rated as ties, the two faulty bots kept a high rating: sure of it, as if they had played
    assert rt.conservative(*tied[crash]) > 15
    assert rt.conservative(*ratings[crash]) < 8 and ratings[crash][1] > 3 * tied[crash][1] / 2
