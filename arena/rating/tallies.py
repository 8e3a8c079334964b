"""The tallies kept as matches are rated: head-to-head counts per rating pool, and each
tournament's standings and crosstable (pure: no SQL).

Every pair tally of the arena is gathered here, one match at a time in rating order, and
counted as :mod:`arena.rating.figures` says (:func:`~arena.rating.figures.count_pairs`,
:func:`~arena.rating.figures.count_head_to_head`): the store's summary rows (moved as it
rates matches, and by a rebuild), the standings it reads for a tournament still under way,
and the benchmark that fills a database directly all go through :class:`Tallies`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.rating.figures import MatchReading, count_head_to_head, count_pairs
from arena.rating.standings import (
    Seat,
    Standing,
    StandingLine,
    StandingsBook,
    cross_cells,
    read_seats,
)
from arena.rating.stats import Comparison

PairCounts = dict[tuple[int, int], list[int]]
"""A crosstable's counts: (a, b) -> ``[wins, losses, ties]`` of a against b."""

HeadToHeadCounts = dict[tuple[int, str, int], list[int]]
"""Head-to-head counts: (a, pool, b) -> ``[wins, losses, ties, the sum of a's ranks]``."""


class TournamentTally:
    """One tournament's standings (a :class:`StandingsBook`) and crosstable counts, moved a
    match at a time in schedule order. ``lines`` and ``pairs`` are where it stood (taken as
    they are, updated in place)."""

    __slots__ = ("book", "pairs")

    def __init__(self, lines: Mapping[int, StandingLine] | None = None,
                 pairs: PairCounts | None = None) -> None:
        self.book = StandingsBook(lines)
        self.pairs: PairCounts = pairs if pairs is not None else {}

    def add(self, match_id: int, seats: Sequence[Seat]) -> MatchReading:
        """One more finished match of the tournament; returns how it was read. A rank below 1
        raises ``ValueError`` and leaves the tally as it was."""
        reading = self.book.apply(match_id, seats)
        count_pairs(self.pairs, reading)
        return reading

    def table(self) -> tuple[list[Standing], dict[tuple[int, int], Comparison]]:
        """The standings, best first, and the crosstable in their order."""
        rows = self.book.standings()
        return rows, cross_cells(self.pairs, [r.bot_id for r in rows])


class Tallies:
    """What some rated matches add to the tallies: per (bot, pool, opponent) the head-to-head
    counts, and per tournament a :class:`TournamentTally` (started from where the
    tournament stood with :meth:`start`, else from nothing)."""

    __slots__ = ("head_to_head", "tournaments")

    def __init__(self) -> None:
        self.head_to_head: HeadToHeadCounts = {}
        self.tournaments: dict[int, TournamentTally] = {}

    def start(self, tournament_id: int, lines: Mapping[int, StandingLine]) -> TournamentTally:
        """The tournament's tally, from its bots' standing lines so far."""
        tally = self.tournaments[tournament_id] = TournamentTally(lines)
        return tally

    def add(self, pool: str | None, tournament_id: int | None, match_id: int,
            seats: Sequence[Seat]) -> MatchReading:
        """One rated match (in rating order) of rating pool ``pool`` (None: of none, a
        scrimmage's: its tournament's tally only), in a tournament or not; a rank below 1 is a
        ``ValueError``."""
        if tournament_id is not None:
            tally = self.tournaments.get(tournament_id)
            if tally is None:
                tally = self.tournaments[tournament_id] = TournamentTally()
            reading = tally.add(match_id, seats)
        else:
            reading = read_seats(seats)
        if pool is not None:
            count_head_to_head(self.head_to_head, pool, reading)  # nothing unless two bots met
        return reading


__all__ = ["HeadToHeadCounts", "PairCounts", "Tallies", "TournamentTally"]
