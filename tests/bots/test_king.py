"""The heuristic King bot beats random bots clearly (seats rotated, fixed seeds)."""

from __future__ import annotations

from bots.king import KingBot
from bots.random_bot import RandomBot
from sdk.local import play_local


def test_heuristic_beats_random() -> None:
    matches = 60
    ranks = []
    for m in range(matches):
        seat = m % 4
        bots = [KingBot() if s == seat else RandomBot(seed=1000 + 4 * m + s) for s in range(4)]
        result = play_local("king", bots, seed=m)
        ranks.append(result.ranks[seat])
    mean = sum(ranks) / matches
    firsts = sum(1 for r in ranks if r == 1) / matches
    assert mean < 1.6, mean          # random play averages 2.5
    assert firsts > 0.6, firsts      # random play wins 25%
