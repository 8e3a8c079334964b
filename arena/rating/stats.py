"""Which bot is better: a sequential test for versus matches and the numbers of ``arena compare``.

Pure functions and small frozen dataclasses on plain numbers (standard library only):
no database, no clock, no I/O.

**SPRT on duplicate sets.** In a versus match bot A plays bot B over duplicate
sets (one deal played in every seat rotation). Each set gives A one paired
*score* in ``[0, 1]``: 1 if A placed above B over the set, 0 if below, 0.5 if even
(a finer score, such as the share of rotations in which A placed above B, is
accepted too). The scores of different sets are independent; the pairing inside a
set is what removes the luck of the deal, as fastchess's game pairs
(pentanomial) do for openings.

The hypotheses are about A's expected score ``s`` per set, read as a logistic Elo
difference ``s = 1 / (1 + 10 ** (-elo / 400))``: H0 is ``elo = elo0`` (A is not
better than ``elo0``), H1 is ``elo = elo1`` (A is stronger by ``elo1``), with
``s0``, ``s1`` their expected scores. The test is the generalized SPRT (GSPRT)
with the normal model of fishtest, cutechess and fastchess: the per-set scores
are taken as normal, and each hypothesis gets its maximum-likelihood variance
given its mean, ``var_j = var + (mean - s_j) ** 2`` (``mean`` and ``var`` empirical,
the variance in population form ``sum((x - mean) ** 2) / n``), whence

    LLR = n / 2 * ln(var_0 / var_1)

Its first-order expansion in ``s1 - s0`` is the formula those tools print,
``n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)``; the two
agree for the narrow bounds of engine testing, but with wide bounds (a
difference of tens of Elo, decided within a few hundred sets, the usual case
for bots of a card game) the linear form overshoots: in simulation, at
``elo0 = 0, elo1 = 50`` and alpha = 0.05 it accepts H1 in about 6.5% of runs
whose truth is ``elo0``, where the log form keeps to about 5%. The test
accepts H1 once ``LLR >= ln((1 - beta) / alpha)`` and H0 once
``LLR <= ln(beta / (1 - alpha))`` (Wald's bounds).

Small samples: the empirical variance of a handful of sets is unreliable (all
draws or all wins give zero), so the test decides nothing before
``SprtSettings.min_sets`` sets (10 by default), and the variance is taken as at
least ``1 / (4 (n + 1))``: a bot that wins every set is decided (H1) within a few
dozen sets instead of never, and a run of draws accepts H0 when H0 is the nearer
hypothesis. The simulations in ``tests/rating/test_stats.py`` check that the
promised error rates hold with these rules.

**Compare.** For two bots that shared matches, :func:`compare` counts how often A
placed above B, with a Wilson score interval and the likelihood of superiority
(LOS) that chess engine testers report.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from arena.rating.figures import outcome

Decision = Literal["H0", "H1"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def expected_score(elo: float) -> float:
    """The expected score of an Elo difference in the logistic model: ``1 / (1 + 10 ** (-elo / 400))``."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


# --- SPRT ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses and error rates of a sequential test.

    ``elo0`` / ``elo1``: Elo differences of H0 (A not better than ``elo0``) and H1
    (A stronger by ``elo1``); ``alpha``: the chance of accepting H1 when H0 is true
    (false positive); ``beta``: the chance of accepting H0 when H1 is true (false
    negative); ``min_sets``: no decision before this many sets.
    """

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    min_sets: int = 10

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ValueError(f"SPRT {name} must be a finite number, got {value!r}")
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT elo0 must be below elo1, got elo0={self.elo0!r} and elo1={self.elo1!r}")
        if not 0.0 < self.alpha < 0.5:
            raise ValueError(f"SPRT alpha must be strictly between 0 and 0.5, got {self.alpha!r}")
        if not 0.0 < self.beta < 0.5:
            raise ValueError(f"SPRT beta must be strictly between 0 and 0.5, got {self.beta!r}")
        if isinstance(self.min_sets, bool) or not isinstance(self.min_sets, int) or self.min_sets < 1:
            raise ValueError(f"SPRT min_sets must be a whole number of at least 1, got {self.min_sets!r}")

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted: ``ln(beta / (1 - alpha))``."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted: ``ln((1 - beta) / alpha)``."""
        return math.log((1.0 - self.beta) / self.alpha)

    @property
    def s0(self) -> float:
        """The expected score per set under H0."""
        return expected_score(self.elo0)

    @property
    def s1(self) -> float:
        """The expected score per set under H1."""
        return expected_score(self.elo1)


@dataclass(frozen=True)
class SprtState:
    """Where a sequential test stands after ``n`` sets.

    ``wins`` / ``draws`` / ``losses`` count the sets A scored above, at and below
    0.5. ``decision`` is ``"H1"`` (A is stronger by ``elo1``), ``"H0"`` (A is not
    better than ``elo0``) or ``None`` (play on).
    """

    llr: float
    lower: float
    upper: float
    n: int
    wins: int
    draws: int
    losses: int
    decision: Decision | None

    def describe(self) -> str:
        """One line for people, e.g. ``LLR 1.23 [-2.94, 2.94], 40 sets (W 20, D 12, L 8): continue``."""
        verdict = {None: "continue", "H1": "H1 accepted", "H0": "H0 accepted"}[self.decision]
        sets = "set" if self.n == 1 else "sets"
        return (
            f"LLR {self.llr:.2f} [{self.lower:.2f}, {self.upper:.2f}], {self.n} {sets} "
            f"(W {self.wins}, D {self.draws}, L {self.losses}): {verdict}"
        )


def _check_score(score: float) -> float:
    if isinstance(score, bool) or not isinstance(score, int | float) or not 0.0 <= score <= 1.0:
        raise ValueError(f"a set's score must be a number from 0 to 1, got {score!r}")
    return float(score)


class SprtAccumulator:
    """The GSPRT fed one set at a time: O(1) per :meth:`add`, for live matches and simulations.

    Keeps the count, mean and sum of squared deviations (Welford's update).
    """

    __slots__ = ("_bound_h0", "_bound_h1", "_draws", "_losses", "_m2", "_mean", "_min_sets", "_n",
                 "_s0", "_s1", "_wins", "settings")

    def __init__(self, settings: SprtSettings) -> None:
        self.settings = settings
        self._s0 = settings.s0
        self._s1 = settings.s1
        self._bound_h0 = settings.lower
        self._bound_h1 = settings.upper
        self._min_sets = settings.min_sets
        self._n = 0
        self._mean = 0.0
        self._m2 = 0.0
        self._wins = 0
        self._draws = 0
        self._losses = 0

    @property
    def n(self) -> int:
        """The number of sets added."""
        return self._n

    def add(self, score: float) -> None:
        """Take one set's score (0 to 1; 1 = A placed above B over the set, 0.5 = even)."""
        x = _check_score(score)
        self._n += 1
        delta = x - self._mean
        self._mean += delta / self._n
        self._m2 += delta * (x - self._mean)
        if x > 0.5:
            self._wins += 1
        elif x < 0.5:
            self._losses += 1
        else:
            self._draws += 1

    def llr(self) -> float:
        """``n / 2 * ln(var_0 / var_1)`` (see the module's docstring); 0 before any set.

        The variance is at least ``1 / (4 (n + 1))``: a run of
        equal scores (a bot that wins every set) has none, and would otherwise never be
        decided. Past a few sets of mixed outcomes the floor is far below the variance."""
        if self._n == 0:
            return 0.0
        var = max(self._m2 / self._n, 1.0 / (4.0 * (self._n + 1)))
        var_0 = var + (self._mean - self._s0) ** 2
        var_1 = var + (self._mean - self._s1) ** 2
        return 0.5 * self._n * math.log(var_0 / var_1)

    def decision(self) -> Decision | None:
        """``"H1"`` or ``"H0"`` once the LLR reaches a bound (and ``min_sets`` sets are in), else None."""
        if self._n < self._min_sets:
            return None
        llr = self.llr()
        if llr >= self._bound_h1:
            return "H1"
        if llr <= self._bound_h0:
            return "H0"
        return None

    def state(self) -> SprtState:
        """The test's state now."""
        return SprtState(
            llr=self.llr(), lower=self._bound_h0, upper=self._bound_h1, n=self._n,
            wins=self._wins, draws=self._draws, losses=self._losses, decision=self.decision(),
        )


def sprt(scores: Sequence[float], settings: SprtSettings) -> SprtState:
    """The test's state over all of ``scores`` (one per duplicate set, in order).

    The decision is read from the LLR of all the scores. A sequential test stops at
    the first crossing, which is what a caller checking after every set gets.
    """
    accumulator = SprtAccumulator(settings)
    for score in scores:
        accumulator.add(score)
    return accumulator.state()


# --- compare -------------------------------------------------------------------------------------


def wilson_interval(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``share`` observed over ``n`` trials; ``(0, 1)`` for none."""
    if n < 0 or not 0.0 <= share <= 1.0:
        raise ValueError(f"a Wilson interval needs n >= 0 and a share in [0, 1], got {n=!r}, {share=!r}")
    if n == 0:
        return 0.0, 1.0
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (share + z2 / (2.0 * n)) / denominator
    spread = z * math.sqrt(share * (1.0 - share) / n + z2 / (4.0 * n * n)) / denominator
    # the interval holds the share itself, to the last bit (at a share of 0 or 1 the rounding
    # of centre - spread can land a hair on the wrong side of it)
    return max(0.0, min(share, centre - spread)), min(1.0, max(share, centre + spread))


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """LOS, the chance A is the stronger: ``0.5 * (1 + erf((wins - losses) / sqrt(2 * (wins + losses))))``.

    Draws carry no information about which is stronger and do not enter; 0.5
    when there are no wins or losses at all.
    """
    if wins < 0 or losses < 0:
        raise ValueError(f"wins and losses cannot be negative, got {wins!r} and {losses!r}")
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


@dataclass(frozen=True)
class Comparison:
    """Bot A against bot B over the matches both played.

    ``wins``: matches in which A placed above B; ``losses``: below; ``ties``: same
    rank. ``share = (wins + ties / 2) / n`` (a tie counts half for each), with
    ``low``/``high`` its 95% Wilson score interval (``n`` trials); ``share`` is 0.5
    and the interval (0, 1) when there are no shared matches. ``los``: the
    likelihood of superiority from wins and losses (ties do not enter).
    """

    n: int
    wins: int
    losses: int
    ties: int
    share: float
    low: float
    high: float
    los: float

    def as_dict(self) -> dict[str, int | float]:
        """The fields as a plain dict, ready for ``json.dumps``."""
        return {
            "n": self.n, "wins": self.wins, "losses": self.losses, "ties": self.ties,
            "share": self.share, "low": self.low, "high": self.high, "los": self.los,
        }


def compare(pairs: Sequence[tuple[int, int]]) -> Comparison:
    """Compare A with B from ``(rank of A, rank of B)`` in each shared match (ranks: lower is
    better), each counted as every pair tally is (:func:`arena.rating.figures.outcome`)."""
    counts = [0, 0, 0]  # wins, losses, ties
    for rank_a, rank_b in pairs:
        counts[outcome(rank_a, rank_b)] += 1
    return tally(*counts)


def tally(wins: int, losses: int, ties: int) -> Comparison:
    """Compare A with B from the shared matches counted already: how many A placed above
    (``wins``), below (``losses``) and level with B (``ties``)."""
    n = wins + losses + ties
    share = (wins + ties / 2.0) / n if n else 0.5
    low, high = wilson_interval(share, n)
    return Comparison(
        n=n, wins=wins, losses=losses, ties=ties, share=share, low=low, high=high,
        los=likelihood_of_superiority(wins, losses),
    )
