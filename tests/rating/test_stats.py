"""The statistics of "which bot is better": the SPRT on duplicate sets, Elo estimates, compare.

The SPRT is checked where it matters, on its promise: simulated versus matches of
known truth (per-set scores drawn from a trinomial, or from rotations, with A's
true Elo exactly at ``elo0`` or exactly at ``elo1``) must show error rates within
``alpha`` and ``beta`` up to the sampling error of the simulation. Everything is
seeded, so the runs are the same every time.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import FrozenInstanceError

import pytest

from arena.rating.stats import (
    Comparison,
    SprtAccumulator,
    SprtSettings,
    SprtState,
    compare,
    expected_score,
    likelihood_of_superiority,
    sprt,
    wilson_interval,
)

Draw = Callable[[random.Random], float]
"""Draws one set's score."""

CAP = 20_000


def first_decision(scores: list[float], settings: SprtSettings) -> tuple[int, SprtState] | None:
    """The 0-based index of the set whose score first decided the test, with the state then
    (what a caller checking after every set sees); None if no prefix reaches a bound."""
    accumulator = SprtAccumulator(settings)
    for index, score in enumerate(scores):
        accumulator.add(score)
        if accumulator.decision() is not None:
            return index, accumulator.state()
    return None


def trinomial(elo: float, draw_rate: float) -> Draw:
    """Per-set scores 1 / 0.5 / 0 with expected score that of ``elo`` and the given share of draws."""
    s = expected_score(elo)
    p_win = s - draw_rate / 2
    p_loss = 1 - s - draw_rate / 2
    assert p_win >= 0 and p_loss >= 0

    def draw(rng: random.Random) -> float:
        u = rng.random()
        return 1.0 if u < p_win else 0.0 if u < p_win + p_loss else 0.5

    return draw


def rotations(elo: float, seats: int) -> Draw:
    """Finer scores: the share of ``seats`` rotations A won, each won with the truth's expected score."""
    s = expected_score(elo)

    def draw(rng: random.Random) -> float:
        return sum(rng.random() < s for _ in range(seats)) / seats

    return draw


def simulate(
    settings: SprtSettings, draw: Draw, runs: int, seed: int
) -> tuple[dict[str | None, int], list[int]]:
    """Run ``runs`` tests to a decision (or ``CAP`` sets): how often each decision came, and the lengths."""
    rng = random.Random(seed)
    outcomes: dict[str | None, int] = {"H0": 0, "H1": 0, None: 0}
    lengths = []
    for _ in range(runs):
        accumulator = SprtAccumulator(settings)
        decision = None
        while decision is None and accumulator.n < CAP:
            accumulator.add(draw(rng))
            decision = accumulator.decision()
        outcomes[decision] += 1
        lengths.append(accumulator.n)
    return outcomes, lengths


def allowed(rate: float, runs: int) -> float:
    """The promised error rate plus three standard errors of a proportion measured over ``runs`` runs."""
    return rate + 3 * math.sqrt(rate * (1 - rate) / runs)


# --- the SPRT's promise --------------------------------------------------------------------------

RUNS = 1000

# (settings, truth -> score generator): wide bounds so that a run ends within a few hundred sets
# (the defaults, 0 and 10 Elo, need some 4,700 sets a run: too slow for a unit test).
PROMISE_CASES = [
    pytest.param(SprtSettings(elo0=0, elo1=50), lambda elo: trinomial(elo, 0.3), id="0-50-draws30"),
    pytest.param(SprtSettings(elo0=0, elo1=50), lambda elo: trinomial(elo, 0.0), id="0-50-nodraws"),
    pytest.param(SprtSettings(elo0=-20, elo1=60, alpha=0.1, beta=0.05), lambda elo: rotations(elo, 4),
                 id="-20-60-rotations"),
    pytest.param(SprtSettings(elo0=0, elo1=150), lambda elo: trinomial(elo, 0.5), id="0-150-draws50"),
]


@pytest.mark.parametrize(("settings", "source"), PROMISE_CASES)
def test_false_positives_stay_within_alpha(settings: SprtSettings, source: Callable[[float], Draw]) -> None:
    outcomes, _ = simulate(settings, source(settings.elo0), RUNS, seed=17)
    assert outcomes[None] == 0
    assert outcomes["H1"] / RUNS <= allowed(settings.alpha, RUNS), outcomes


@pytest.mark.parametrize(("settings", "source"), PROMISE_CASES)
def test_false_negatives_stay_within_beta(settings: SprtSettings, source: Callable[[float], Draw]) -> None:
    outcomes, _ = simulate(settings, source(settings.elo1), RUNS, seed=71)
    assert outcomes[None] == 0
    assert outcomes["H0"] / RUNS <= allowed(settings.beta, RUNS), outcomes


def test_a_much_stronger_bot_is_found_quickly() -> None:
    settings = SprtSettings(elo0=0, elo1=50)
    outcomes, lengths = simulate(settings, trinomial(200, 0.3), 300, seed=5)
    assert outcomes["H1"] >= 297, outcomes
    lengths.sort()
    assert lengths[len(lengths) // 2] <= 60, lengths[len(lengths) // 2]
    assert lengths[-1] < CAP // 10


def test_a_much_weaker_bot_is_rejected_quickly() -> None:
    settings = SprtSettings(elo0=0, elo1=50)
    outcomes, lengths = simulate(settings, trinomial(-150, 0.3), 300, seed=6)
    assert outcomes["H0"] == 300, outcomes
    assert sorted(lengths)[150] <= 60


def test_the_defaults_decide_the_right_way_on_clear_evidence() -> None:
    # The default bounds (0 and 10 Elo) with a truth far outside them: a sanity check at the defaults.
    settings = SprtSettings()
    stronger, _ = simulate(settings, trinomial(60, 0.3), 50, seed=8)
    weaker, _ = simulate(settings, trinomial(-50, 0.3), 50, seed=9)
    assert stronger["H1"] >= 49 and weaker["H0"] >= 49, (stronger, weaker)


# --- the LLR itself ------------------------------------------------------------------------------


def reference_llr(scores: list[float], settings: SprtSettings) -> float:
    """The GSPRT's LLR under the normal model, computed from scratch in two passes."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / n
    var_0 = var + (mean - settings.s0) ** 2
    var_1 = var + (mean - settings.s1) ** 2
    return n / 2 * math.log(var_0 / var_1)


def test_llr_matches_the_normal_model() -> None:
    rng = random.Random(3)
    settings = SprtSettings(elo0=-5, elo1=25)
    for _ in range(50):
        scores = [rng.choice((0.0, 0.25, 0.5, 0.5, 0.75, 1.0, 1.0)) for _ in range(rng.randint(2, 300))]
        if len(set(scores)) == 1:
            continue
        expected = reference_llr(scores, settings)
        assert sprt(scores, settings).llr == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_llr_is_the_printed_linear_formula_for_narrow_bounds() -> None:
    # fishtest / cutechess / fastchess print n (s1 - s0) (2 mean - s0 - s1) / (2 var): the first-order term.
    settings = SprtSettings(elo0=0, elo1=2)
    scores = ([1.0] * 230 + [0.5] * 300 + [0.0] * 200) * 3
    n = len(scores)
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / n
    linear = n * (settings.s1 - settings.s0) * (2.0 * mean - settings.s0 - settings.s1) / (2.0 * var)
    assert linear > 0.5
    # ln(v0 / v1) = (d0^2 - d1^2) / v - ...: the next term is (d0^2 + d1^2) / (2 v) relative, here ~0.2%.
    assert sprt(scores, settings).llr == pytest.approx(linear, rel=5e-3)


def test_llr_direction_and_bounds() -> None:
    settings = SprtSettings(elo0=0, elo1=10, alpha=0.05, beta=0.05)
    assert settings.lower == pytest.approx(math.log(0.05 / 0.95))
    assert settings.upper == pytest.approx(math.log(0.95 / 0.05))
    assert settings.lower == pytest.approx(-2.944, abs=1e-3)
    good = sprt([1.0, 0.5, 1.0, 0.0] * 10, settings)  # mean 0.625
    bad = sprt([0.0, 0.5, 0.0, 1.0] * 10, settings)  # mean 0.375
    assert good.llr > 0 > bad.llr
    midway = sprt([1.0, 0.0] * 10, SprtSettings(elo0=-10, elo1=10))
    assert midway.llr == pytest.approx(0.0, abs=1e-12)  # mean 0.5 is as likely under both


def test_equal_scores_are_decided_and_nothing_is_before_min_sets() -> None:
    settings = SprtSettings(elo0=0, elo1=100)
    # a bot that wins every set is better (no variance is no reason to play on forever)
    all_wins = first_decision([1.0] * 500, settings)
    assert all_wins is not None and all_wins[1].decision == "H1" and all_wins[0] < 20
    # nothing but even sets: A is not better by elo1
    all_draws = first_decision([0.5] * 500, settings)
    assert all_draws is not None and all_draws[1].decision == "H0" and all_draws[1].draws < 100
    assert first_decision([0.0] * 500, settings) is not None
    assert sprt([1.0] * 5, settings).decision is None  # too few sets, however clear
    # Nine sets that would cross the upper bound, but min_sets is 10.
    nine = [1.0] * 8 + [0.0]
    early = sprt(nine, SprtSettings(elo0=0, elo1=400))
    assert early.llr > early.upper and early.decision is None
    assert sprt(nine, SprtSettings(elo0=0, elo1=400, min_sets=9)).decision == "H1"
    assert sprt([], settings) == SprtState(llr=0.0, lower=settings.lower, upper=settings.upper, n=0,
                                           wins=0, draws=0, losses=0, decision=None)


def test_decisions_and_counts() -> None:
    settings = SprtSettings(elo0=0, elo1=100)
    state = sprt([1.0] * 30 + [0.0] * 5 + [0.5] * 5 + [0.75, 0.25], settings)
    assert (state.n, state.wins, state.draws, state.losses) == (42, 31, 5, 6)
    assert state.decision == "H1" and state.llr >= state.upper
    state = sprt([0.0] * 30 + [1.0] * 5 + [0.5] * 5, settings)
    assert state.decision == "H0" and state.llr <= state.lower


def test_first_decision_finds_the_crossing() -> None:
    settings = SprtSettings(elo0=0, elo1=100)
    scores = [1.0, 0.0] * 10 + [1.0] * 40 + [0.0] * 200
    found = first_decision(scores, settings)
    assert found is not None
    index, state = found
    assert state.decision == "H1" and state.n == index + 1
    assert sprt(scores[:index + 1], settings) == state
    assert sprt(scores[:index], settings).decision is None
    for k in range(settings.min_sets, index):
        assert sprt(scores[:k], settings).decision is None
    # The whole record ends well below: read at the end, the LLR says H0.
    assert sprt(scores, settings).decision == "H0"
    assert first_decision([1.0, 0.0] * 10, settings) is None  # LLR about -0.75
    assert first_decision([], settings) is None


def test_accumulator_equals_batch() -> None:
    settings = SprtSettings(elo0=-10, elo1=30)
    rng = random.Random(11)
    scores = [rng.choice((0.0, 0.5, 1.0)) for _ in range(400)]
    accumulator = SprtAccumulator(settings)
    for k, score in enumerate(scores, start=1):
        accumulator.add(score)
        if k % 50 == 0:
            assert accumulator.state() == sprt(scores[:k], settings)


@pytest.mark.parametrize("score", [-0.1, 1.5, math.nan, math.inf, True, "1"])
def test_bad_scores_are_refused(score: object) -> None:
    accumulator = SprtAccumulator(SprtSettings())
    with pytest.raises(ValueError, match="score must be a number from 0 to 1"):
        accumulator.add(score)  # type: ignore[arg-type]
    assert accumulator.n == 0


def test_describe() -> None:
    state = SprtState(llr=1.234, lower=-2.944, upper=2.944, n=40, wins=20, draws=12, losses=8, decision=None)
    assert state.describe() == "LLR 1.23 [-2.94, 2.94], 40 sets (W 20, D 12, L 8): continue"
    won = SprtState(llr=3.01, lower=-2.944, upper=2.944, n=1, wins=1, draws=0, losses=0, decision="H1")
    assert won.describe() == "LLR 3.01 [-2.94, 2.94], 1 set (W 1, D 0, L 0): H1 accepted"
    lost = SprtState(llr=-3.0, lower=-2.944, upper=2.944, n=12, wins=1, draws=0, losses=11, decision="H0")
    assert lost.describe().endswith(": H0 accepted")
    real = sprt([1.0] * 20 + [0.5] * 12 + [0.0] * 8, SprtSettings())
    assert real.describe().startswith(f"LLR {real.llr:.2f} [-2.94, 2.94], 40 sets (W 20, D 12, L 8): ")


# --- settings ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"elo0": 10, "elo1": 10}, "elo0 must be below elo1"),
        ({"elo0": 20, "elo1": 5}, "elo0 must be below elo1"),
        ({"alpha": 0.0}, "alpha must be strictly between 0 and 0.5"),
        ({"alpha": 0.5}, "alpha must be strictly between 0 and 0.5"),
        ({"alpha": -0.1}, "alpha must be strictly between 0 and 0.5"),
        ({"beta": 0.0}, "beta must be strictly between 0 and 0.5"),
        ({"beta": 0.7}, "beta must be strictly between 0 and 0.5"),
        ({"elo1": math.inf}, "elo1 must be a finite number"),
        ({"elo0": math.nan}, "elo0 must be a finite number"),
        ({"alpha": "0.05"}, "alpha must be a finite number"),
        ({"min_sets": 0}, "min_sets must be a whole number of at least 1"),
        ({"min_sets": 2.5}, "min_sets must be a whole number of at least 1"),
    ],
)
def test_settings_are_validated(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SprtSettings(**kwargs)  # type: ignore[arg-type]


def test_settings_defaults_and_frozen() -> None:
    settings = SprtSettings()
    assert (settings.elo0, settings.elo1, settings.alpha, settings.beta) == (0, 10, 0.05, 0.05)
    assert settings.min_sets == 10
    assert settings.s0 == 0.5
    assert settings.s1 == pytest.approx(0.514387, abs=1e-6)
    with pytest.raises(FrozenInstanceError):
        settings.elo1 = 20  # type: ignore[misc]


# --- compare -------------------------------------------------------------------------------------


def test_a_wilson_interval_holds_its_share_at_the_ends() -> None:
    """At a share of 0 or 1 the interval's end is the share itself, not a rounding away."""
    for n in range(1, 200):
        for share in (0.0, 1.0, 0.5):
            low, high = wilson_interval(share, n)
            assert 0.0 <= low <= share <= high <= 1.0, (share, n, low, high)


def test_wilson_known_values() -> None:
    low, high = wilson_interval(0.8, 10)
    assert low == pytest.approx(0.4902, abs=5e-4)
    assert high == pytest.approx(0.9433, abs=5e-4)
    low, high = wilson_interval(0.5, 100)
    assert (low, high) == pytest.approx((0.4038, 0.5962), abs=5e-4)
    low, high = wilson_interval(0.0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=5e-4)
    assert wilson_interval(1.0, 10) == pytest.approx((1 - 0.2775, 1.0), abs=5e-4)
    assert wilson_interval(0.3, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(1.2, 5)


def test_los_known_values() -> None:
    assert likelihood_of_superiority(10, 0) == pytest.approx(0.99922, abs=1e-5)
    assert likelihood_of_superiority(0, 10) == pytest.approx(1 - 0.99922, abs=1e-5)
    assert likelihood_of_superiority(7, 7) == 0.5
    assert likelihood_of_superiority(0, 0) == 0.5
    assert likelihood_of_superiority(60, 40) == pytest.approx(0.97725, abs=1e-5)  # Phi(2)
    with pytest.raises(ValueError):
        likelihood_of_superiority(-1, 3)


def test_compare_counts_and_ties() -> None:
    # (rank of A, rank of B), lower is better.
    pairs = [(1, 2), (2, 1), (1, 1), (1, 3), (3, 2), (2, 2), (1, 4)]
    result = compare(pairs)
    assert (result.n, result.wins, result.losses, result.ties) == (7, 3, 2, 2)
    assert result.share == pytest.approx((3 + 1) / 7)  # a tie counts half
    assert (result.low, result.high) == wilson_interval(4 / 7, 7)
    assert result.los == likelihood_of_superiority(3, 2)
    assert result.low < result.share < result.high


def test_compare_eight_of_ten() -> None:
    result = compare([(1, 2)] * 8 + [(3, 1)] * 2)
    assert result.share == 0.8
    assert (result.low, result.high) == pytest.approx((0.4902, 0.9433), abs=5e-4)
    assert result.los == pytest.approx(0.5 * (1 + math.erf(6 / math.sqrt(20))))


def test_compare_only_ties_and_nothing() -> None:
    ties = compare([(2, 2)] * 6)
    assert (ties.wins, ties.losses, ties.ties, ties.share, ties.los) == (0, 0, 6, 0.5, 0.5)
    assert ties.low < 0.5 < ties.high
    empty = compare([])
    assert empty == Comparison(n=0, wins=0, losses=0, ties=0, share=0.5, low=0.0, high=1.0, los=0.5)


def test_comparison_as_dict_is_json() -> None:
    result = compare([(1, 2), (2, 1), (1, 2)])
    data = result.as_dict()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {"n", "wins", "losses", "ties", "share", "low", "high", "los"}
    assert data["n"] == 3 and data["wins"] == 2 and data["share"] == pytest.approx(2 / 3)
