"""The order in which finished matches are rated (pure: no SQL, no clock).

Ratings move in schedule order within a tournament: a finished match is rated once every
match scheduled before it is finished or void, so a tournament gives the same ratings
whatever ``--parallel`` and however often it was interrupted. A match outside any
tournament is rated as soon as it finishes. Each rated match takes the next number of the
arena's rating order (its ``finish_seq``), which a rebuild replays.

The store gathers the plain facts (a tournament's finished matches not rated yet, and the
first place in its schedule still to play) and :func:`ready_to_rate` decides; the store
then numbers what it returned with :func:`numbered` and rates it in that order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Unrated:
    """A finished match not rated yet: its id and its place in its tournament's schedule
    (any number for a match outside a tournament)."""

    match_id: int
    index: int


def ready_to_rate(unrated: Iterable[Unrated], first_to_play: int | None) -> list[int]:
    """The ids of the unrated finished matches whose turn has come, in schedule order
    (ties of place by id): those scheduled before ``first_to_play``, the place of the first
    match still to play (pending or running) in their tournament; every one of them when
    nothing is left to play (None), as for a match outside any tournament."""
    return [m.match_id for m in sorted(unrated, key=lambda m: (m.index, m.match_id))
            if first_to_play is None or m.index < first_to_play]


def numbered(ready: Sequence[int], last_seq: int | None) -> list[tuple[int, int]]:
    """Each match of ``ready`` (in the order given) with its ``finish_seq``: the numbers
    after ``last_seq``, the last one given (None: none was), one each."""
    first = (last_seq or 0) + 1
    return [(match_id, first + offset) for offset, match_id in enumerate(ready)]


__all__ = ["Unrated", "numbered", "ready_to_rate"]
