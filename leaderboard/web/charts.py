"""Charts drawn on the server as inline SVG: a sparkline per leaderboard row and a rating
history chart (mu with its band of ± 3 sigma) per pool on a bot's page.

The functions return plain numbers and coordinate strings; the templates write the SVG
elements (so nothing here is markup, and nothing needs escaping but numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.app.records import HistoryPoint, HistorySample


def _scale(value: float, low: float, high: float, size: float) -> float:
    """``value`` in [low, high] to [size, 0] (SVG's y grows downwards)."""
    if high <= low:
        return size / 2
    return size - (value - low) / (high - low) * size


@dataclass(frozen=True)
class Sparkline:
    points: str  # "x,y x,y ..." for a polyline
    width: int
    height: int
    first: float
    last: float

    @property
    def rising(self) -> bool:
        return self.last >= self.first


def sparkline(history: Sequence[HistoryPoint], width: int = 120, height: int = 24) -> Sparkline | None:
    """The conservative rating (mu - 3 sigma) over these points; None with fewer than two."""
    if len(history) < 2:
        return None
    values = [p.conservative for p in history]
    low, high = min(values), max(values)
    step = width / (len(values) - 1)
    points = " ".join(f"{i * step:.1f},{_scale(v, low, high, height - 2) + 1:.1f}"
                      for i, v in enumerate(values))
    return Sparkline(points, width, height, values[0], values[-1])


@dataclass(frozen=True)
class HistoryChart:
    pool: str
    total: int  # rated matches in the pool
    width: int
    height: int
    mu_line: str  # polyline points
    band: str  # polygon points: mu + 3 sigma forwards, mu - 3 sigma back
    low: float  # the y axis: lowest and highest value drawn
    high: float
    last_mu: float
    last_sigma: float
    y_ticks: tuple[tuple[float, float], ...]  # (value, y)


def history_chart(sample: HistorySample, width: int = 640, height: int = 200) -> HistoryChart | None:
    """Mu over the bot's rated matches in a pool (in the order the arena rated them), with the
    band mu ± 3 sigma; None when the bot has no history there."""
    if not sample.points:
        return None
    seqs = [p.finish_seq for p in sample.points]
    upper = [p.mu + 3 * p.sigma for p in sample.points]
    lower = [p.mu - 3 * p.sigma for p in sample.points]
    low, high = min(lower), max(upper)
    span_x = max(seqs[-1] - seqs[0], 1)

    def x(seq: int) -> float:
        return (seq - seqs[0]) / span_x * width

    def y(v: float) -> float:
        return _scale(v, low, high, height)

    mu_line = " ".join(f"{x(p.finish_seq):.1f},{y(p.mu):.1f}" for p in sample.points)
    band = " ".join([*(f"{x(q):.1f},{y(v):.1f}" for q, v in zip(seqs, upper, strict=True)),
                     *(f"{x(q):.1f},{y(v):.1f}" for q, v in
                       reversed(list(zip(seqs, lower, strict=True))))])
    ticks = tuple((v, y(v)) for v in (low + (high - low) * k / 4 for k in range(5)))
    last = sample.points[-1]
    return HistoryChart(sample.pool, sample.total, width, height, mu_line, band, low, high,
                        last.mu, last.sigma, ticks)


__all__ = ["HistoryChart", "Sparkline", "history_chart", "sparkline"]
