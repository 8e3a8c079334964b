"""The arena's TV: one featured live match at a time, the strongest table among those running,
and the others under it (the web's ``/tv``).

- **Featured**: the running match whose seats' bots have the highest summed rating (each
  bot's conservative rating, mu - 3 sigma, in the match's rating pool; a bot not rated
  there counts 0, as a new one stands), the older match first among equals.
- **It stays** until it ends, or until another running match is better by at least
  :data:`MARGIN` rating points summed: a spectator is not flipped from table to table by a
  rating's wobble (lichess TV's lesson).
- Every viewer sees the same pick: one :class:`Tv` per web app keeps it.

Only what every spectator may see is shown: the match's public live view, as its own page
shows it (:mod:`arena.app.visibility`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from arena.games import pool_of
from arena.storage.store import MatchInfo, Store

MARGIN = 5.0
"""How much better (summed conservative rating) a running match must be to take the screen
from the one featured."""
LIVE_LIMIT = 200
"""The running matches looked at (the oldest first)."""


@dataclass(frozen=True)
class Candidate:
    """A running match and its seats' summed rating."""

    match: MatchInfo
    rating: float


@dataclass(frozen=True)
class TvView:
    """What the TV shows: the ``featured`` match (None: nothing runs) and the ``others``,
    strongest first."""

    featured: Candidate | None
    others: tuple[Candidate, ...]
    margin: float = MARGIN


def pick(candidates: Sequence[Candidate], current: int | None,
         margin: float = MARGIN) -> Candidate | None:
    """The match to feature among ``candidates``, ``current`` being the one featured now
    (see the module)."""
    if not candidates:
        return None
    best = max(candidates, key=lambda c: (c.rating, -c.match.id))
    now = next((c for c in candidates if c.match.id == current), None)
    if now is None or best.rating >= now.rating + margin:
        return best
    return now


def candidates(store: Store) -> list[Candidate]:
    """The running matches, each with its seats' summed rating in its pool."""
    # the running tournaments' (a run that died is not one), each through its status index
    running = store.running_matches([t.id for t in store.running_tournaments()], LIVE_LIMIT)
    ratings: dict[int, dict[str, float]] = {}
    for bot_id in sorted({seat.bot_id for match in running for seat in match.seats}):
        ratings[bot_id] = {row.pool: row.conservative for row in store.bot_ratings(bot_id)}
    found = []
    for match in running:
        pool = pool_of(match.game, match.options)
        found.append(Candidate(match, sum(ratings.get(seat.bot_id, {}).get(pool, 0.0)
                                          for seat in match.seats)))
    return found


class Tv:
    """The TV of one web app: keeps the featured match between viewers' requests."""

    def __init__(self, margin: float = MARGIN) -> None:
        self.margin = margin
        self._current: int | None = None
        self._lock = threading.Lock()

    def view(self, store: Store) -> TvView:
        found = candidates(store)
        with self._lock:
            chosen = pick(found, self._current, self.margin)
            self._current = None if chosen is None else chosen.match.id
        others = sorted((c for c in found if chosen is None or c.match.id != chosen.match.id),
                        key=lambda c: (-c.rating, c.match.id))
        return TvView(chosen, tuple(others), self.margin)


__all__ = ["LIVE_LIMIT", "MARGIN", "Candidate", "Tv", "TvView", "candidates", "pick"]
