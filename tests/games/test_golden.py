"""King and Knives play the recorded matches move for move: the same legal actions,
observations, events for every seat, random stream and outcome as when :data:`GOLDEN` was
written (see :mod:`tests.games.golden`), for 60 seeds of each variant."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from tests.games.golden import CASES, GOLDEN, SEEDS, case_key, digests

CHUNK = 30  # seeds per test, so that xdist shares the work


@pytest.mark.parametrize("first", range(0, SEEDS, CHUNK))
@pytest.mark.parametrize(("game", "players", "options", "label"), CASES,
                         ids=[case_key(g, p, label) for g, p, _, label in CASES])
def test_random_matches_play_as_recorded(game: str, players: int, options: Mapping[str, Any],
                                         label: str, first: int) -> None:
    recorded = json.loads(GOLDEN.read_text())[case_key(game, players, label)]
    seeds = range(first, first + CHUNK)
    assert len(recorded) == SEEDS
    assert digests(game, players, options, seeds) == recorded[first:first + CHUNK]
