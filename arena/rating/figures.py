"""What one finished match counts for each of its bots: the one definition of every figure.

Every table of the arena (the global leaderboard, a tournament's standings and crosstable,
head-to-head, ``arena compare``, the JSON documents and the web pages) counts a match
through :func:`read_match`, so that a figure means the same wherever it is shown. A bot may
fill several seats of one match (a round-robin with fewer bots than seats, a versus whose
field is smaller than the free seats); the match still counts once for it:

* **matches**: +1 for every bot of a match with at least two distinct bots (a match of one
  bot against itself counts nothing anywhere);
* **rank** (for the mean rank, head-to-head and the crosstable): the bot's best seat. A
  seat that faulted counts as the last place, the match's number of seats: it ranks behind
  every seat that did not fault, as the referee ranks it (its ranks after faults put the
  faulted seats level behind the others), and a match in which every seat faulted ranks
  everyone last, level, rather than level first. A versus's duplicate sets compare the
  ranks after faults, which order any two bots as these ranks do;
* **win**: the bot won the match if one of its seats ranked first without a fault (alone
  or tied); a bot seated twice that took first place twice won once. A seat that faulted
  is never a win, so a match in which every seat faulted has no winner;
* **faults**: +1 for a match in which one of its seats faulted (never more per match, so a
  bot has at most as many faults as matches), counted under the kind of its first seat that
  faulted (in seat order);
* **head-to-head and crosstable**: per pair of different bots, the one whose rank (above)
  is better placed above the other, equal ranks tie;
* **rating**: TrueSkill moves (every seat rated from its bot's prior, the bot taking the
  mean of its seats: :func:`arena.rating.ratings.rate`) only when the match is
  :attr:`MatchReading.rated`: at least two distinct bots and at least one seat that did not
  fault. A match in which every seat faulted tells nothing about who is stronger: it moves
  no rating, gives no win and no history point, though its matches and faults count. In
  the same way two seats that faulted are not a tie: a bot all of whose seats faulted is
  rated as losing to the seats that did not fault, never against another faulted seat.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BotInMatch:
    """What one match counts for one of its bots (see the module's docstring)."""

    bot_id: int
    seats: int  # how many seats it filled
    rank: int  # its best seat's, a faulted seat counting as the last place
    won: bool  # a seat of it ranked first without a fault
    fault: str  # the kind of its first seat that faulted, "" when none did


@dataclass(frozen=True, slots=True)
class MatchReading:
    """One finished match as every figure reads it: its bots in ascending id order."""

    bots: tuple[BotInMatch, ...]
    counted: bool  # at least two distinct bots: the match counts for them
    rated: bool  # counted, and a seat did not fault: the ratings move

    def pairs(self) -> Iterator[tuple[int, int, int, int]]:
        """Every ordered pair of different bots of a counted match: ``(a, b, a's rank, b's
        rank)``; nothing when the match is not counted."""
        if not self.counted:
            return
        for a in self.bots:
            for b in self.bots:
                if a.bot_id != b.bot_id:
                    yield a.bot_id, b.bot_id, a.rank, b.rank


def read_match(seats: Iterable[tuple[int, int, str]]) -> MatchReading:
    """Read one finished match from its seats in seat order, each ``(bot id, rank, fault)``:
    the stored rank (1 best; the ranks after faults) and the fault's name ("" for none).
    A rank below 1 is a ``ValueError``."""
    rows = list(seats)
    last = len(rows)
    seated: dict[int, int] = {}
    ranks: dict[int, int] = {}
    won: set[int] = set()
    faults: dict[int, str] = {}
    for bot_id, rank, fault in rows:
        if rank < 1:
            raise ValueError(f"rank of bot {bot_id} must be 1 or more, not {rank}")
        place = last if fault else rank
        seated[bot_id] = seated.get(bot_id, 0) + 1
        ranks[bot_id] = min(place, ranks.get(bot_id, place))
        if fault:
            faults.setdefault(bot_id, str(fault))
        elif rank == 1:
            won.add(bot_id)
    bots = tuple(BotInMatch(bot_id, seated[bot_id], ranks[bot_id], bot_id in won,
                            faults.get(bot_id, "")) for bot_id in sorted(seated))
    counted = len(bots) >= 2
    return MatchReading(bots, counted, counted and any(not fault for _, _, fault in rows))


def outcome(rank_a: int, rank_b: int) -> int:
    """Where a pair's match goes in its ``[wins, losses, ties]`` (of ``a``): 0, 1 or 2."""
    return 0 if rank_a < rank_b else 1 if rank_a > rank_b else 2


def count_pairs(counts: dict[tuple[int, int], list[int]], reading: MatchReading,
                wanted: Collection[int] | None = None) -> None:
    """Add one match to a crosstable's ``counts``: (a, b) -> ``[wins, losses, ties]`` of a
    against b (only the pairs of two ``wanted`` bots, when given)."""
    for a, b, rank_a, rank_b in reading.pairs():
        if wanted is not None and (a not in wanted or b not in wanted):
            continue
        cell = counts.get((a, b))
        if cell is None:
            cell = counts[a, b] = [0, 0, 0]
        cell[outcome(rank_a, rank_b)] += 1


def count_head_to_head(counts: dict[tuple[int, str, int], list[int]], pool: str,
                       reading: MatchReading) -> None:
    """Add one match of rating pool ``pool`` to the head-to-head ``counts``: (a, pool, b) ->
    ``[wins, losses, ties, the sum of a's ranks]`` of a against b."""
    for a, b, rank_a, rank_b in reading.pairs():
        cell = counts.get((a, pool, b))
        if cell is None:
            cell = counts[a, pool, b] = [0, 0, 0, 0]
        cell[outcome(rank_a, rank_b)] += 1
        cell[3] += rank_a


__all__ = ["BotInMatch", "MatchReading", "count_head_to_head", "count_pairs", "outcome",
           "read_match"]
