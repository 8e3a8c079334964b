"""Round-robin schedules: pure functions of the bots, the seats, the repetitions and a seed."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence

from arena.storage.store import ScheduledMatch
from arena.tournament.errors import TournamentError


def match_seed(tournament_seed: int, repetition: int, group: int) -> int:
    """The deal of one group in one repetition: shared by all its seat rotations."""
    data = f"{tournament_seed}:{repetition}:{group}".encode()
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big") >> 1


def groups(bot_ids: Sequence[int], players: int) -> list[tuple[int, ...]]:
    """Every group of ``players`` seats drawn from the bots.

    With at least as many bots as seats: every combination of distinct bots.
    With fewer: every bot plays, and the extra seats are filled by every
    multiset of the bots, so that no bot is favoured.
    """
    ids = sorted(set(bot_ids))
    if len(ids) < 1:
        raise TournamentError("a tournament needs at least one bot")
    if len(ids) >= players:
        return list(itertools.combinations(ids, players))
    return [tuple(sorted((*ids, *extra)))
            for extra in itertools.combinations_with_replacement(ids, players - len(ids))]


def rotations(group: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The distinct cyclic seatings of a group (each bot takes each seat in turn)."""
    seen: list[tuple[int, ...]] = []
    for shift in range(len(group)):
        seating = group[shift:] + group[:shift]
        if seating not in seen:
            seen.append(seating)
    return seen


def round_robin(bot_ids: Sequence[int], players: int, repetitions: int,
                seed: int) -> list[ScheduledMatch]:
    """The full schedule: every group, every seat rotation (same deal), every repetition."""
    if len(set(bot_ids)) < 2:
        raise TournamentError("a round-robin needs at least two different bots")
    if repetitions < 1:
        raise TournamentError("repetitions must be at least 1")
    schedule: list[ScheduledMatch] = []
    for repetition in range(repetitions):
        for number, group in enumerate(groups(bot_ids, players)):
            deal = match_seed(seed, repetition, number)
            for seating in rotations(group):
                schedule.append(ScheduledMatch(index=len(schedule), seed=deal,
                                               seat_bot_ids=seating))
    return schedule
