"""A tournament's standings and crosstable, from its finished matches (pure: no SQL).

The standings rate the tournament's matches on their own, in schedule order, with
the same TrueSkill book as the arena's ratings (:class:`~arena.rating.book.RatingBook`),
so that a tournament reads the same whatever else its bots played. The crosstable
gives, for every two bots, the matches they shared and how often each placed above
the other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from arena.rating.book import Placed, RatingBook
from arena.rating.ratings import DEFAULT, conservative
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
    wins: int  # placed first (alone or tied)
    mean_rank: float
    faults: dict[str, int] = field(default_factory=dict)  # by fault name

    @property
    def rating(self) -> float:
        """The conservative estimate, mu - 3 sigma."""
        return conservative(self.mu, self.sigma)

    @property
    def win_share(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


def standings(played: Sequence[Played], game: str) -> list[Standing]:
    """Every bot that played, best conservative rating first; ratings from these matches
    alone, applied in schedule order."""
    book = RatingBook()
    ranks: dict[int, list[int]] = {}
    faults: dict[int, Counter[str]] = {}
    for number, match in enumerate(sorted(played, key=lambda m: m.index)):
        book.apply(game, match.match_id, number + 1,
                   [Placed(s.bot_id, s.rank, s.fault != "") for s in match.seats])
        for seat in match.seats:
            ranks.setdefault(seat.bot_id, []).append(seat.rank)
            counted = faults.setdefault(seat.bot_id, Counter())
            if seat.fault:
                counted[seat.fault] += 1
    rows = []
    for bot_id, bot_ranks in ranks.items():
        line = book.line(bot_id, game)  # None: it never met another bot
        mu, sigma = (line.mu, line.sigma) if line is not None else DEFAULT
        rows.append(Standing(bot_id, mu, sigma, len(bot_ranks),
                             sum(1 for r in bot_ranks if r == 1),
                             sum(bot_ranks) / len(bot_ranks), dict(faults[bot_id])))
    rows.sort(key=lambda r: (-r.rating, -r.mu, r.bot_id))
    return rows


def best_ranks(seats: Iterable[tuple[int, int]]) -> dict[int, int]:
    """Each bot's best rank among its seats of a match, from (bot id, rank) pairs."""
    ranks: dict[int, int] = {}
    for bot_id, rank in seats:
        ranks[bot_id] = min(rank, ranks.get(bot_id, rank))
    return ranks


def paired_ranks(played: Sequence[Played], a: int, b: int) -> list[tuple[int, int]]:
    """(A's rank, B's rank) in every match both played (a bot seated twice counts its
    better seat)."""
    pairs = []
    for match in played:
        ranks = best_ranks((s.bot_id, s.rank) for s in match.seats)
        if a in ranks and b in ranks:
            pairs.append((ranks[a], ranks[b]))
    return pairs


def crosstable(played: Sequence[Played], bot_ids: Sequence[int]) -> dict[tuple[int, int], Comparison]:
    """For every ordered pair of different bots that shared a match, the row bot against the
    column bot (:func:`arena.rating.stats.compare`), rows and columns in ``bot_ids`` order.

    One pass over the matches, counting every pair a match seats (a few thousand matches
    take milliseconds, not a pass per pair)."""
    wanted = set(bot_ids)
    counts: dict[tuple[int, int], list[int]] = {}  # (a, b): [wins, losses, ties] of a
    for match in played:
        ranks = best_ranks((s.bot_id, s.rank) for s in match.seats if s.bot_id in wanted)
        for a, rank_a in ranks.items():
            for b, rank_b in ranks.items():
                if a != b:
                    tally_ab = counts.setdefault((a, b), [0, 0, 0])
                    tally_ab[0 if rank_a < rank_b else 1 if rank_a > rank_b else 2] += 1
    return {(a, b): tally(*counts[a, b])
            for a in bot_ids for b in bot_ids if a != b and (a, b) in counts}
