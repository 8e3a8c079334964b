"""The Serial Killer heuristic bot beats random bots (in-process, seats rotated)."""

from __future__ import annotations

from bots.random_bot import RandomBot
from bots.serial_killer import SerialKillerBot
from sdk.local import play_local


def test_heuristic_beats_random_at_four_players() -> None:
    players, matches = 4, 400
    ranks, wins = [], 0
    for m in range(matches):
        hero = m % players
        bots = [SerialKillerBot() if s == hero else RandomBot(seed=10 * m + s)
                for s in range(players)]
        result = play_local("serial-killer", bots, seed=m)
        ranks.append(result.ranks[hero])
        wins += result.ranks[hero] == 1
    # A random seat would average rank 2.5 and win a quarter of the matches.
    assert sum(ranks) / matches < 2.3
    assert wins / matches > 0.35
