"""The heuristic Knives bot beats random bots clearly (seats rotated, fixed seeds)."""

from __future__ import annotations

from bots.knives import KnivesBot
from bots.random_bot import RandomBot
from sdk.local import play_local
from tests import fuzz


def test_heuristic_beats_random() -> None:
    matches = fuzz.count(40)
    ranks = []
    for m in range(matches):
        seat = m % 5
        bots = [KnivesBot() if s == seat else RandomBot(seed=1000 + 5 * m + s) for s in range(5)]
        result = play_local("knives", bots, seed=m)
        ranks.append(result.ranks[seat])
    mean = sum(ranks) / matches
    firsts = sum(1 for r in ranks if r == 1) / matches
    assert mean < 2.2, mean          # random play averages 3 (ties aside)
    assert firsts > 0.4, firsts      # random play comes first about 20%
