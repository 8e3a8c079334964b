"""A tournament's standings and crosstable, from its finished matches (pure: no SQL).

The standings rate the tournament's matches on their own, in schedule order, with
the same TrueSkill update as the arena's ratings (:func:`~arena.rating.ratings.rate`,
as :class:`~arena.rating.book.RatingBook` applies it), so that a tournament reads the
same whatever else its bots played. The crosstable gives, for every two bots, the
matches they shared and how often each placed above the other.

Both are kept match by match: :class:`StandingsBook` holds each bot's
:class:`StandingLine` and moves it with one more match, and
:func:`arena.rating.figures.count_pairs` adds one match to every pair's tally. The store
keeps them up to date as it rates a tournament's matches (and a rebuild replays them),
so a report reads its lines instead of rating the whole tournament again; :func:`standings`
and :func:`crosstable` are the same bookkeeping over a list of matches.

What a match counts for each bot (a match once however many seats the bot filled; a
faulted seat never a win; a match in which every seat faulted rated for no one) is
:mod:`arena.rating.figures`'s, as it is for the arena's ratings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from arena.rating.figures import MatchReading, count_pairs, read_match
from arena.rating.ratings import DEFAULT, conservative, rate
from arena.rating.stats import Comparison, tally


@dataclass(frozen=True)
class Seat:
    """One seat of a finished match: who, the rank (1 is best) and the fault ("" for none)."""

    bot_id: int
    rank: int
    fault: str = ""


@dataclass(frozen=True)
class Played:
    """A finished match of the tournament: its id and its place in the schedule."""

    match_id: int
    index: int
    seats: tuple[Seat, ...]


@dataclass(frozen=True)
class Standing:
    bot_id: int
    mu: float
    sigma: float
    matches: int
    wins: int  # matches it won (:mod:`arena.rating.figures`)
    mean_rank: float
    faults: dict[str, int] = field(default_factory=dict)  # by fault name

    @property
    def rating(self) -> float:
        """The conservative estimate, mu - 3 sigma."""
        return conservative(self.mu, self.sigma)

    @property
    def win_share(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


@dataclass(slots=True)
class StandingLine:
    """A bot's standing in one tournament so far: its rating from the tournament's matches alone
    (the defaults until it met another bot), and what its matches count
    (:mod:`arena.rating.figures`: a match once however many seats the bot filled): matches,
    wins, the sum of its ranks, and its faults by kind."""

    mu: float = DEFAULT[0]
    sigma: float = DEFAULT[1]
    matches: int = 0
    wins: int = 0
    rank_sum: int = 0
    faults: dict[str, int] = field(default_factory=dict)

    def standing(self, bot_id: int) -> Standing:
        return Standing(bot_id, self.mu, self.sigma, self.matches, self.wins,
                        self.rank_sum / self.matches if self.matches else 0.0, dict(self.faults))


def read_seats(seats: Iterable[Seat]) -> MatchReading:
    """:func:`arena.rating.figures.read_match` of a match's seats (in seat order)."""
    return read_match((s.bot_id, s.rank, s.fault) for s in seats)


class StandingsBook:
    """The lines of one tournament's bots (by bot id), moved a match at a time by :meth:`apply`,
    in schedule order. ``lines`` (taken as they are, updated in place) are where the
    tournament stood; :attr:`changed` collects the bots whose line moved."""

    __slots__ = ("changed", "lines")

    def __init__(self, lines: Mapping[int, StandingLine] | None = None) -> None:
        self.lines: dict[int, StandingLine] = dict(lines or {})
        self.changed: set[int] = set()

    def apply(self, match_id: int, seats: Sequence[Seat]) -> MatchReading:
        """One more finished match, counted and rated as :mod:`arena.rating.figures` says (a
        match in which every seat faulted moves no rating); returns how it was read. A rank
        below 1 raises ``ValueError`` and leaves the book as it was."""
        reading = read_seats(seats)
        if not reading.counted:
            return reading
        lines = self.lines
        new: dict[int, tuple[float, float]] = {}
        if reading.rated:
            priors = {s.bot_id: (line.mu, line.sigma) for s in seats
                      if (line := lines.get(s.bot_id)) is not None}
            new = rate(priors, [(s.bot_id, s.rank) for s in seats], tie_key=match_id,
                       faulted=[i for i, s in enumerate(seats) if s.fault])
        for bot in reading.bots:
            line = lines.get(bot.bot_id)
            if line is None:
                line = lines[bot.bot_id] = StandingLine()
            if reading.rated:
                line.mu, line.sigma = new[bot.bot_id]
            line.matches += 1
            line.wins += bot.won
            line.rank_sum += bot.rank
            if bot.fault:
                line.faults[bot.fault] = line.faults.get(bot.fault, 0) + 1
            self.changed.add(bot.bot_id)
        return reading

    def standings(self) -> list[Standing]:
        """Every bot that played, best conservative rating first."""
        rows = [line.standing(bot_id) for bot_id, line in self.lines.items() if line.matches]
        rows.sort(key=lambda r: (-r.rating, -r.mu, r.bot_id))
        return rows


def standings(played: Sequence[Played], game: str) -> list[Standing]:
    """Every bot that played, best conservative rating first; ratings from these matches
    alone, applied in schedule order. (``game`` names the tournament's game: every game is
    rated alike.)"""
    book = StandingsBook()
    for match in sorted(played, key=lambda m: m.index):
        book.apply(match.match_id, match.seats)
    return book.standings()


def best_ranks(seats: Iterable[tuple[int, int]]) -> dict[int, int]:
    """Each bot's best rank among its seats of a match, from (bot id, rank after faults)
    pairs: what a versus's duplicate sets compare. Any two bots compare the same way by these
    as by their :mod:`arena.rating.figures` ranks (the ranks after faults put every faulted
    seat behind every other seat, level with the other faulted ones)."""
    ranks: dict[int, int] = {}
    for bot_id, rank in seats:
        ranks[bot_id] = min(rank, ranks.get(bot_id, rank))
    return ranks


def paired_ranks(played: Sequence[Played], a: int, b: int) -> list[tuple[int, int]]:
    """(A's rank, B's rank) in every match both played, as :mod:`arena.rating.figures`
    ranks a bot (its better seat when it had two; a faulted seat last)."""
    pairs = []
    for match in played:
        ranks = {bot.bot_id: bot.rank for bot in read_seats(match.seats).bots}
        if a in ranks and b in ranks:
            pairs.append((ranks[a], ranks[b]))
    return pairs


def cross_cells(counts: Mapping[tuple[int, int], Sequence[int]],
                bot_ids: Sequence[int]) -> dict[tuple[int, int], Comparison]:
    """The crosstable of pair counts (``[wins, losses, ties]`` of the row bot), rows and columns
    in ``bot_ids`` order, a cell for every ordered pair that shared a match."""
    cells = {}
    for a in bot_ids:
        for b in bot_ids:
            found = counts.get((a, b)) if a != b else None
            if found is not None:
                cells[a, b] = tally(found[0], found[1], found[2])
    return cells


def crosstable(played: Sequence[Played], bot_ids: Sequence[int]) -> dict[tuple[int, int], Comparison]:
    """For every ordered pair of different bots that shared a match, the row bot against the
    column bot (:func:`arena.rating.stats.compare`), rows and columns in ``bot_ids`` order.

    One pass over the matches, counting every pair a match seats (a few thousand matches
    take milliseconds, not a pass per pair)."""
    wanted = set(bot_ids)
    counts: dict[tuple[int, int], list[int]] = {}  # (a, b): [wins, losses, ties] of a
    for match in played:
        count_pairs(counts, read_seats(match.seats), wanted)
    return cross_cells(counts, bot_ids)
