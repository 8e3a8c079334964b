"""How much random play the suite's random-play tests do: a short run by default, a long one
on demand.

Every test that plays random games (the conformance suite, each game's invariants and
samplers, the environments' spaces, the heuristic bots against random ones) asks
:func:`count` how many to play. The suite's own run is short: it reaches every rule's code and
catches a broken invariant or a leak in seconds. The long run, a documented command
(docs/development.md), multiplies every count by ``ARENA_FUZZ``:

    ARENA_FUZZ=10 python -m pytest -n 2 tests/games tests/match tests/sdk/test_rl.py tests/bots

``ARENA_FUZZ=4`` plays about what the suite played before it was cut short (2,000 random
matches of Kings in the Corner, 300 random games of each game in the conformance suite...).
"""

from __future__ import annotations

import os

import pytest


def _scale() -> float:
    text = os.environ.get("ARENA_FUZZ", "1")
    try:
        scale = float(text)
    except ValueError:
        scale = 0.0
    if not scale > 0:
        raise pytest.UsageError(f"ARENA_FUZZ={text!r}: give a positive number (1 is the "
                                "suite's short run, 10 ten times as many random games)")
    return scale


SCALE = _scale()


def count(short: int) -> int:
    """How many random games to play where the suite's short run plays ``short``: ``short``
    times ``ARENA_FUZZ``, and at least one."""
    return max(1, round(short * SCALE))


def seeds(short: int, block: int = 0) -> range:
    """The seeds of block ``block`` (0, 1, ...) of a test whose blocks play :func:`count`
    (``short``) random games each: consecutive blocks never share a seed."""
    size = count(short)
    return range(block * size, (block + 1) * size)
