"""Presence: how much one bot at the table changes another's place beyond what the ratings
predict. It is the figure that shows one bot feeding another (throwing points to it, or
taking the penalties it would have taken), which games of three seats or more make cheap.

Every counted match (:func:`arena.rating.figures.read_match`) gives each of its bots a
*surplus*: the place its rating predicted less the place it took, in places (positive: it
placed better than predicted). The predicted place is one plus, for every other seat, the
chance that seat's bot places above it, from the two TrueSkill ratings:
``Phi((mu_other - mu) / sqrt(2 beta^2 + sigma^2 + sigma_other^2))``. The ratings are one set
for all the matches (a tournament's own, say): a bot that is fed has a rating inflated by it,
and then falls short of it in every match its feeder is not in, which this reads too.

The presence of ``other`` on ``bot`` is the bot's mean surplus over the matches ``other``
shared with it, less its mean surplus over its matches without ``other``. Its ``z`` is that
difference over its standard error (Welch's, from the two samples' variances). A pair is
**flagged** when both samples have at least :data:`MIN_MATCHES` matches and ``|z|`` passes
the Bonferroni threshold for a two-sided test at :data:`ALPHA` over every pair with a ``z``:
among honest bots, a table of any size flags nothing in about 19 tables of 20.

A match in which a bot filled several seats is left out of that bot's own samples (its place
there is its best seat's, not one seat's), as is a match of one bot alone.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import NormalDist

from arena.rating.figures import MatchReading
from arena.rating.ratings import BETA, RatingPair

ALPHA = 0.05
"""The chance, among honest bots only, that a table flags any pair at all."""
MIN_MATCHES = 10
"""Matches with, and without, the other bot that a pair needs before it can be flagged."""


@dataclass(frozen=True, slots=True)
class Presence:
    """The presence of bot ``other`` on bot ``bot`` (module docstring): ``shared`` and
    ``apart`` are ``bot``'s matches with and without ``other``; ``effect`` the difference of
    its mean surplus between them, in places (positive: ``bot`` places better when ``other``
    is there); ``z`` that over its standard error (None: fewer than two matches on a side, or
    no spread at all)."""

    bot: int
    other: int
    shared: int
    apart: int
    effect: float
    z: float | None
    flagged: bool = False


def win_chance(winner: RatingPair, loser: RatingPair, beta: float = BETA) -> float:
    """The chance that a bot rated ``winner`` places above one rated ``loser``."""
    spread = math.sqrt(2 * beta * beta + winner[1] ** 2 + loser[1] ** 2)
    return 0.5 * math.erfc((loser[0] - winner[0]) / (spread * math.sqrt(2)))


def surpluses(reading: MatchReading, ratings: Mapping[int, RatingPair],
              default: RatingPair, beta: float = BETA) -> dict[int, float]:
    """Every bot of one counted match that filled one seat: the place its rating predicted
    less the place it took (nothing for a match that is not counted)."""
    return _surpluses(reading, _Chances(ratings, default, beta))


class _Chances(dict[tuple[int, int], float]):
    """:func:`win_chance` of two bots by id, each pair worked out once."""

    def __init__(self, ratings: Mapping[int, RatingPair], default: RatingPair,
                 beta: float) -> None:
        super().__init__()
        self.ratings, self.default, self.beta = ratings, default, beta

    def __missing__(self, pair: tuple[int, int]) -> float:
        chance = self[pair] = win_chance(self.ratings.get(pair[0], self.default),
                                         self.ratings.get(pair[1], self.default), self.beta)
        return chance


def _surpluses(reading: MatchReading, chances: _Chances) -> dict[int, float]:
    if not reading.counted:
        return {}
    return {bot.bot_id: 1.0 + sum(other.seats * chances[other.bot_id, bot.bot_id]
                                  for other in reading.bots if other is not bot) - bot.rank
            for bot in reading.bots if bot.seats == 1}


@dataclass(slots=True)
class _Sums:
    """How many surpluses, their sum and the sum of their squares."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    def minus(self, part: _Sums) -> _Sums:
        """These surpluses without ``part`` of them."""
        return _Sums(self.n - part.n, self.total - part.total, self.squares - part.squares)

    def mean(self) -> float:
        return self.total / self.n

    def variance(self) -> float:
        """The sample variance (n - 1), never below 0 for rounding."""
        return max(0.0, (self.squares - self.total * self.total / self.n) / (self.n - 1))


def presence(readings: Iterable[MatchReading], ratings: Mapping[int, RatingPair],
             default: RatingPair, *, beta: float = BETA, alpha: float = ALPHA,
             min_matches: int = MIN_MATCHES) -> list[Presence]:
    """Every ordered pair of bots that shared a match, strongest evidence first (by ``|z|``,
    the pairs without one last): see the module's docstring. ``default``: the rating of a bot
    missing from ``ratings``."""
    every: defaultdict[int, _Sums] = defaultdict(_Sums)  # a bot's surpluses in all its matches
    shared: defaultdict[tuple[int, int], _Sums] = defaultdict(_Sums)  # ... with the other there
    chances = _Chances(ratings, default, beta)
    for reading in readings:
        for bot_id, surplus in _surpluses(reading, chances).items():
            every[bot_id].add(surplus)
            for other in reading.bots:
                if other.bot_id != bot_id:
                    shared[bot_id, other.bot_id].add(surplus)
    pairs = [_pair(bot, other, with_other, every[bot].minus(with_other))
             for (bot, other), with_other in shared.items()]
    tested = [p for p in pairs if p.z is not None]
    if tested:
        threshold = NormalDist().inv_cdf(1 - alpha / (2 * len(tested)))
        pairs = [_flag(p, threshold, min_matches) for p in pairs]
    return sorted(pairs, key=lambda p: (p.z is None, -abs(p.z or 0.0), p.bot, p.other))


def _pair(bot: int, other: int, shared: _Sums, apart: _Sums) -> Presence:
    effect = shared.mean() - apart.mean() if apart.n else 0.0
    z = None
    if shared.n >= 2 and apart.n >= 2:
        error = math.sqrt(shared.variance() / shared.n + apart.variance() / apart.n)
        z = effect / error if error > 1e-12 else None
    return Presence(bot, other, shared.n, apart.n, effect, z)


def _flag(pair: Presence, threshold: float, min_matches: int) -> Presence:
    flagged = (pair.z is not None and abs(pair.z) >= threshold
               and min(pair.shared, pair.apart) >= min_matches)
    return Presence(pair.bot, pair.other, pair.shared, pair.apart, pair.effect, pair.z, flagged)


__all__ = ["ALPHA", "MIN_MATCHES", "Presence", "presence", "surpluses", "win_chance"]
