"""A bot's figures by condition: where it sat, whether it acted first, and its game's own
conditions (a King contract, a Knives role, whether it dealt), each with its count and a 95%
interval. Pure functions on plain records: no database, no clock.

- **By seat and by first to act** (every game): the bot's seats in finished matches, grouped
  by game and table size, then by seat number or by whether the seat took the match's first
  decision. For each: the seats, the share of them it won (ranked first without a fault, as
  :mod:`arena.rating.figures` counts a win) with Wilson's interval, and its mean rank (a
  faulted seat counts as the last place) with a normal interval.
- **By the game's conditions** (:meth:`arena.games.base.Game.situations`): the hands the bot
  played in each, and its mean points a hand, with a normal interval. Points are the game's
  own, so they compare within a game and condition, not across games.

An interval needs two observations: with one, it is ``None``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from arena.rating.stats import Z95, wilson_interval

SEAT = "seat"
FIRST = "first to act"


@dataclass(frozen=True, slots=True)
class SeatTally:
    """A bot's seats of one game and table size in one seat number, ``first`` whether that
    seat took the match's first decision (None: not recorded), summed: how many, how many
    it won (first place without a fault), and the sum and sum of squares of its ranks (a
    faulted seat ranking last)."""

    game: str
    players: int
    seat: int
    first: bool | None
    seats: int
    wins: int
    rank_sum: float
    rank_squares: float


@dataclass(frozen=True, slots=True)
class HandsTally:
    """A bot's hands in one condition of its game, summed: how many, and the sum and sum of
    squares of their points."""

    game: str
    condition: str
    value: str
    hands: int
    points: float
    points_squared: float


@dataclass(frozen=True, slots=True)
class PlaceFigure:
    """The bot's seats of one game and table size in one condition (``condition`` "seat",
    ``value`` "1" for the first seat; or "first to act", "yes" or "no")."""

    game: str
    players: int
    condition: str
    value: str
    seats: int
    wins: int
    win_interval: tuple[float, float]
    mean_rank: float
    rank_interval: tuple[float, float] | None

    @property
    def win_share(self) -> float:
        return self.wins / self.seats


@dataclass(frozen=True, slots=True)
class PointsFigure:
    """The bot's hands of one game in one of its conditions: the mean points a hand."""

    game: str
    condition: str
    value: str
    hands: int
    mean: float
    interval: tuple[float, float] | None


def mean_interval(n: int, total: float, squares: float) -> tuple[float, float] | None:
    """The normal 95% interval of a mean from ``n`` values' sum and sum of squares (None
    below two values)."""
    if n < 2:
        return None
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = Z95 * math.sqrt(variance / n)
    return mean - half, mean + half


def places(tallies: Iterable[SeatTally]) -> list[PlaceFigure]:
    """The figures by seat and by first to act, by game, table size, condition and value."""
    groups: dict[tuple[str, int, str, str], list[float]] = defaultdict(lambda: [0, 0, 0.0, 0.0])
    for tally in tallies:
        keys = [(tally.game, tally.players, SEAT, str(tally.seat + 1))]
        if tally.first is not None:
            keys.append((tally.game, tally.players, FIRST, "yes" if tally.first else "no"))
        for key in keys:
            sums = groups[key]
            sums[0] += tally.seats
            sums[1] += tally.wins
            sums[2] += tally.rank_sum
            sums[3] += tally.rank_squares
    order = {SEAT: 0, FIRST: 1}
    return [PlaceFigure(game, players, condition, value, int(n), int(wins),
                        wilson_interval(wins / n, int(n)), ranks / n,
                        mean_interval(int(n), ranks, squares))
            for (game, players, condition, value), (n, wins, ranks, squares)
            in sorted(groups.items(), key=lambda kv: (
                kv[0][0], kv[0][1], order[kv[0][2]],
                int(kv[0][3]) if kv[0][2] == SEAT else 0, kv[0][3]))
            if n]


def points(tallies: Iterable[HandsTally]) -> list[PointsFigure]:
    """The game's own conditions: the mean points a hand, by game, condition and value."""
    return [PointsFigure(t.game, t.condition, t.value, t.hands, t.points / t.hands,
                         mean_interval(t.hands, t.points, t.points_squared))
            for t in sorted(tallies, key=lambda t: (t.game, t.condition, t.value)) if t.hands]


__all__ = ["FIRST", "SEAT", "HandsTally", "PlaceFigure", "PointsFigure", "SeatTally",
           "mean_interval", "places", "points"]
