"""The Kings in the Corner heuristic bot beats random bots (in-process, seats rotated)."""

from __future__ import annotations

from bots.kings_corner import KingsCornerBot
from bots.random_bot import RandomBot
from sdk.local import play_local
from tests import fuzz


def test_heuristic_beats_random_at_four_players() -> None:
    players, matches = 4, fuzz.count(60)
    ranks, wins = [], 0
    for m in range(matches):
        hero = m % players
        bots = [KingsCornerBot() if s == hero else RandomBot(seed=10 * m + s)
                for s in range(players)]
        result = play_local("kings-corner", bots, seed=m)
        ranks.append(result.ranks[hero])
        wins += result.ranks[hero] == 1
    # A random seat would average rank 2.5 and win a quarter of the matches.
    assert sum(ranks) / matches < 1.3
    assert wins / matches > 0.8
