"""The heuristic Kill bot: beats random bots clearly, and plays exactly as it did before its
speed-ups (the same decisions over seeded matches: the search bot's rollouts are this bot, and a
faster one must not be a different one)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from bots.kill import KillBot
from bots.random_bot import RandomBot
from sdk.bot import Bot
from sdk.local import play_local

MATCHES = 24
DECISIONS_DIGEST = "b6533046257e78814d29e41a301d85459a6f364481f841614e48ced0e178545f"
"""sha256 of every decision of the heuristic seats and every result, one per line, over the
matches below, as the bot played them before its speed-ups."""


class Recorded(KillBot):
    """The heuristic bot, writing down each of its decisions."""

    def __init__(self, decisions: list[str]) -> None:
        super().__init__()
        self.decisions = decisions

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        action = super().act(observation, legal_actions)
        self.decisions.append(repr(action))
        return action


def test_the_heuristic_beats_random_and_plays_as_it_did() -> None:
    lines: list[str] = []
    ranks: list[tuple[int, int]] = []  # (the heuristic seat's rank, a random seat's rank)
    for m in range(MATCHES):
        players = 3 if m % 3 == 0 else 4
        rookie = m % players  # a random bot's seat in every other match
        bots: list[Bot] = [RandomBot(seed=10 * m + s) if m % 2 == 0 and s == rookie
                           else Recorded(lines) for s in range(players)]
        result = play_local("kill", bots, seed=m, options={"target_score": "21"})
        lines.append(repr(result))
        if m % 2 == 0:
            ranks.append((result.ranks[(rookie + 1) % players], result.ranks[rookie]))
    assert hashlib.sha256("\n".join(lines).encode()).hexdigest() == DECISIONS_DIGEST
    assert sum(mine < theirs for mine, theirs in ranks) >= 0.75 * len(ranks), ranks
