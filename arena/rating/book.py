"""The rating book: every (bot, game) rating line in memory, moved match by match.

Pure bookkeeping on top of :func:`arena.rating.ratings.rate`: no database, no
clock, no I/O. The store loads the lines a match needs, lets the book apply the
matches in ``finish_seq`` order and writes back what changed and the history the
book gathered; a rebuild starts from an empty book and applies every finished
match. Both go through :meth:`RatingBook.apply`, which is why the incremental
ratings and a rebuild agree to the last bit.

Per match and distinct bot, as :mod:`arena.rating.figures` defines every figure:
``matches`` +1, ``wins`` +1 if one of its seats ranked 1 without a fault, ``faults``
+1 if one of its seats faulted. A match with fewer than two distinct bots rates
nothing and counts nothing; a match in which every seat faulted counts its matches
and faults but moves no rating and leaves no history point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypedDict

import trueskill

from arena.rating.figures import read_match
from arena.rating.ratings import ENV, rate

Key = tuple[int, str]
"""(bot id, game): what a rating line belongs to."""


class Placed(NamedTuple):
    """One seat of a finished match: its bot, its rank (1 best) and whether it faulted."""

    bot_id: int
    rank: int
    faulted: bool = False


@dataclass(slots=True)
class RatingLine:
    """One bot's standing in one game."""

    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0
    faults: int = 0


class RatingMove(TypedDict):
    """A bot's rating after one match: one history point.

    A plain dict at run time, keyed as the store's history columns, so a rebuild's
    hundreds of thousands of them go to a bulk insert as they are."""

    bot_id: int
    game: str
    match_id: int
    finish_seq: int
    mu: float
    sigma: float


class RatingBook:
    """Rating lines of some (bot, game) pairs, moved by :meth:`apply`.

    ``lines`` are the priors (the book takes the mapping's lines as they are and
    updates them in place); bots missing from it start at the environment's
    defaults. :attr:`changed` collects the keys whose line moved and
    :attr:`history` every :class:`RatingMove`, until the caller takes them.
    """

    __slots__ = ("changed", "env", "history", "lines")

    def __init__(
        self, lines: Mapping[Key, RatingLine] | None = None, env: trueskill.TrueSkill = ENV
    ) -> None:
        self.lines: dict[Key, RatingLine] = dict(lines or {})
        self.env = env
        self.changed: set[Key] = set()
        self.history: list[RatingMove] = []

    def apply(
        self, game: str, match_id: int, finish_seq: int, placed: Sequence[Placed]
    ) -> list[RatingMove]:
        """Count and rate one finished match; returns its history points (also kept in
        :attr:`history`), in bot id order, none when fewer than two distinct bots took part
        or every seat faulted (the match is not rated: :mod:`arena.rating.figures`).

        A rank below 1 raises ``ValueError`` (from :func:`~arena.rating.ratings.rate`)
        and leaves the book as it was.
        """
        reading = read_match((p.bot_id, p.rank, "fault" if p.faulted else "") for p in placed)
        if not reading.counted:
            return []
        lines = self.lines
        new: dict[int, tuple[float, float]] = {}
        if reading.rated:
            priors = {
                p.bot_id: (line.mu, line.sigma)
                for p in placed
                if (line := lines.get((p.bot_id, game))) is not None
            }
            new = rate(priors, [(p.bot_id, p.rank) for p in placed], self.env,  # in bot id order
                       tie_key=match_id, faulted=[i for i, p in enumerate(placed) if p.faulted])
        moves: list[RatingMove] = []
        for bot in reading.bots:
            key = (bot.bot_id, game)
            line = lines.get(key)
            if line is None:
                line = lines[key] = RatingLine(self.env.mu, self.env.sigma)
            if reading.rated:
                line.mu, line.sigma = new[bot.bot_id]
                moves.append({"bot_id": bot.bot_id, "game": game, "match_id": match_id,
                              "finish_seq": finish_seq, "mu": line.mu, "sigma": line.sigma})
            line.matches += 1
            line.wins += bot.won
            line.faults += bot.fault != ""
            self.changed.add(key)
        self.history.extend(moves)
        return moves

    def take_history(self) -> list[RatingMove]:
        """The history points gathered since the last call, oldest first (and forget them)."""
        history, self.history = self.history, []
        return history

    def take_changed(self) -> list[tuple[Key, RatingLine]]:
        """Every line that moved since the last call, in key order (and forget which)."""
        changed = sorted(self.changed)
        self.changed.clear()
        return [(key, self.lines[key]) for key in changed]

    def line(self, bot_id: int, game: str) -> RatingLine | None:
        return self.lines.get((bot_id, game))


__all__ = ["Key", "Placed", "RatingBook", "RatingLine", "RatingMove"]
