"""The fast free-for-all TrueSkill against the library itself: the very same floats.

``trueskill.TrueSkill.rate`` (the generic factor graph) is the reference
throughout; every comparison is exact equality, not a tolerance.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator

import pytest
import trueskill
from trueskill import backends

from arena.rating import ffa
from arena.rating import ratings as rt

Pair = tuple[float, float]


def library(env: trueskill.TrueSkill, priors: list[Pair], ranks: list[int]) -> list[Pair] | str:
    """What ``env.rate`` gives for one-player teams: the ratings, or the name of what it raised."""
    try:
        return rt.rate_with_library(priors, ranks, env)
    except (ArithmeticError, ValueError) as error:
        return type(error).__name__


def fast(env: trueskill.TrueSkill, priors: list[Pair], ranks: list[int]) -> list[Pair] | str:
    model = ffa.for_env(env)
    assert model is not None
    try:
        return model.rate(priors, ranks)
    except (ArithmeticError, ValueError) as error:
        return type(error).__name__


def random_matches(
    seed: int, count: int, mu: tuple[float, float], sigma: tuple[float, float]
) -> Iterator[tuple[list[Pair], list[int]]]:
    """2-8 seats, random priors, random ranks (ties common); every tenth match all tied."""
    rng = random.Random(seed)
    for k in range(count):
        n = rng.randint(2, 8)
        priors = [(rng.uniform(*mu), rng.uniform(*sigma)) for _ in range(n)]
        ranks = [1] * n if k % 10 == 0 else [rng.randint(1, n) for _ in range(n)]
        yield priors, ranks


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts how often the fast path truncates, takes the exact zero-precision sum, or
    hands a match to the library (the real functions still run)."""
    counts = {"truncate": 0, "exact_sum": 0, "library": 0}

    def counting(name: str, real: Callable[..., object]) -> Callable[..., object]:
        def wrapper(*args: object, **kwargs: object) -> object:
            counts[name] += 1
            return real(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(ffa, "_truncate", counting("truncate", ffa._truncate))
    monkeypatch.setattr(ffa, "_sum_exact", counting("exact_sum", ffa._sum_exact))
    monkeypatch.setattr(trueskill.TrueSkill, "rate", counting("library", trueskill.TrueSkill.rate))
    return counts


def test_cdf_and_pdf_are_the_librarys() -> None:
    points = [0.0, -0.0, 1e-300, -1e-300, 0.5, -0.5, 8.0, -8.0, 40.0, -40.0, 1e3, -1e3]
    rng = random.Random(3)
    points += [rng.uniform(-12, 12) for _ in range(5000)]
    for x in points:
        assert ffa.cdf(x) == backends.cdf(x), x
        assert ffa.pdf(x) == backends.pdf(x), x


def test_same_floats_as_the_library_over_random_matches(spy: dict[str, int]) -> None:
    env = rt.ENV
    cases = list(random_matches(1, 3000, mu=(-10, 60), sigma=(0.3, 12)))
    tied = 0
    for priors, ranks in cases:
        expected = library(env, priors, ranks)
        assert isinstance(expected, list), (priors, ranks)
        assert fast(env, priors, ranks) == expected, (priors, ranks)
        tied += len(set(ranks)) < len(ranks)
    assert tied > 1000  # ties, including all-tied matches, are well represented
    # The fast path did the work itself (the library ran only as the reference), and the
    # lopsided results in the sample took the library's zero-precision sum.
    assert spy["library"] == len(cases)
    assert spy["exact_sum"] > 0


def test_same_floats_where_the_chain_needs_every_sweep(spy: dict[str, int]) -> None:
    env = rt.ENV
    at_limit = 0
    for priors, ranks in random_matches(2, 600, mu=(-30, 80), sigma=(0.2, 15)):
        n = len(priors)
        spy["truncate"] = 0
        expected = library(env, priors, ranks)
        got = fast(env, priors, ranks)
        assert got == expected, (priors, ranks)
        if n > 2 and isinstance(got, list):
            at_limit += spy["truncate"] == ffa.SWEEPS * 2 * (n - 2)
    assert at_limit > 0  # some matches stopped at the library's sweep limit, not by converging


@pytest.mark.parametrize("seed", range(6))
def test_same_floats_in_other_environments(seed: int) -> None:
    rng = random.Random(seed)
    mu = rng.uniform(0, 1500)
    sigma = mu / rng.uniform(2, 6) or 1.0
    env = trueskill.TrueSkill(
        mu=mu, sigma=sigma, beta=sigma / rng.uniform(1, 4), tau=sigma / rng.uniform(30, 300),
        draw_probability=rng.choice([0.0, 0.05, 0.1, 0.3, 0.6]), backend=None,
    )
    for priors, ranks in random_matches(seed, 200, mu=(0.5 * mu, 1.5 * mu), sigma=(0.1 * sigma, sigma)):
        assert fast(env, priors, ranks) == library(env, priors, ranks), (priors, ranks)


@pytest.mark.parametrize(
    "priors, ranks",
    [
        ([(-1000.0, 0.5), (1000.0, 0.5)], [1, 2]),  # an upset too big for double precision
        ([(-1000.0, 0.5), (1000.0, 0.5)], [1, 1]),
        ([(25.0, 1e170), (25.0, 8.0)], [1, 2]),  # a precision that underflows to zero
        ([(25.0, 1e170), (25.0, 8.0), (20.0, 3.0)], [1, 2, 2]),
        ([(25.0, 0.0), (25.0, 8.0)], [1, 2]),
    ],
)
def test_degenerate_matches_fail_like_the_library(priors: list[Pair], ranks: list[int]) -> None:
    expected = library(rt.ENV, priors, ranks)
    assert isinstance(expected, str)  # the library refuses these ...
    assert fast(rt.ENV, priors, ranks) == expected  # ... with the same exception


def test_an_exact_zero_precision_is_handled_without_the_library(spy: dict[str, int]) -> None:
    # A win so expected that the truncation message has zero precision: the library
    # divides by zero and carries on with an infinite variance.
    priors, ranks = [(60.0, 1.0), (-10.0, 1.0), (25.0, 8.0)], [1, 2, 2]
    expected = library(rt.ENV, priors, ranks)
    assert isinstance(expected, list) and all(math.isfinite(mu) for mu, _ in expected)
    spy["library"] = 0
    assert fast(rt.ENV, priors, ranks) == expected
    assert spy["exact_sum"] > 0
    assert spy["library"] == 0


def test_malformed_calls_are_refused_like_the_library() -> None:
    model = ffa.for_env(rt.ENV)
    assert model is not None
    with pytest.raises(ValueError, match="multiple"):
        model.rate([(25.0, 8.0)], [1])
    with pytest.raises(ValueError, match="ranks"):
        model.rate([(25.0, 8.0), (25.0, 8.0)], [1])


def test_environment_constants_are_computed_once_per_environment() -> None:
    model = ffa.for_env(rt.ENV)
    assert model is not None
    assert ffa.for_env(rt.make_env()) is model
    assert model.draw_margin == trueskill.calc_draw_margin(rt.DRAW_PROBABILITY, 2, rt.ENV)
    assert (model.beta2, model.tau2) == (rt.BETA ** 2, rt.TAU ** 2)
    assert ffa.for_env(rt.make_env(beta=5.0)) is not model


def wrapped_backend_env() -> trueskill.TrueSkill:
    """The arena's numbers, but with cdf/pdf/ppf the fast path cannot vouch for."""
    backend = (
        lambda x: backends.cdf(x), lambda x: backends.pdf(x), lambda x: backends.ppf(x)
    )
    return trueskill.TrueSkill(
        mu=rt.MU, sigma=rt.SIGMA, beta=rt.BETA, tau=rt.TAU,
        draw_probability=rt.DRAW_PROBABILITY, backend=backend,
    )


def test_environments_it_cannot_reproduce_are_left_to_the_library() -> None:
    dynamic = trueskill.TrueSkill(draw_probability=lambda a, b, env: 0.1, backend=None)
    assert ffa.for_env(dynamic) is None
    assert ffa.for_env(wrapped_backend_env()) is None
    with pytest.raises(ValueError, match="supported"):
        ffa.FreeForAll(dynamic)
    seats = [(1, 1), (2, 2), (3, 2)]
    order = sorted(seats, key=lambda seat: (seat[1], rt.tie_order(0, seat[0])))  # rate()'s
    expected = rt.rate_with_library([rt.DEFAULT] * 3, [rank for _, rank in order], dynamic)
    assert rt.rate({}, seats, dynamic) == dict(zip([b for b, _ in order], expected, strict=True))


def test_rate_gives_the_librarys_numbers_with_bots_in_several_seats(spy: dict[str, int]) -> None:
    # rate() through the fast path and through the library path (an environment with
    # wrapped but identical backend functions) must agree exactly, including the mean
    # a bot in several seats gets.
    reference = wrapped_backend_env()
    rng = random.Random(9)
    ratings: dict[int, rt.RatingPair] = {}
    for _ in range(400):
        seats = [(rng.randrange(6), rng.randint(1, 4)) for _ in range(rng.randint(2, 6))]
        spy["library"] = 0
        got = rt.rate(ratings, seats)
        assert spy["library"] == 0
        assert got == rt.rate(ratings, seats, reference)
        ratings.update(got)
    assert len(ratings) == 6
