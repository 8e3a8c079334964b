"""Ratings: TrueSkill for free-for-all matches and the pure per-bot accounting.

Pure and deterministic, no database: :func:`rate` moves the bots of one match,
:class:`RatingBook` keeps each bot's line per game (mu, sigma, matches, wins,
faults) and gathers the history points as matches are applied in order.
"""

from arena.rating.book import Key, Placed, RatingBook, RatingLine, RatingMove
from arena.rating.ratings import (
    DEFAULT,
    ENV,
    RatingPair,
    conservative,
    make_env,
    rate,
    rate_with_library,
)

__all__ = [
    "DEFAULT", "ENV", "Key", "Placed", "RatingBook", "RatingLine", "RatingMove", "RatingPair",
    "conservative", "make_env", "rate", "rate_with_library",
]
