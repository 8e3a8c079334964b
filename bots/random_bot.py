"""A bot for any game: a uniformly random legal action.

    python -m bots.random_bot [--seed N]

Without ``--seed`` every match draws fresh randomness. With it, the draws of a
seat depend only on N, the match id and the seat, so a replayed match (say,
after the arena was interrupted) is played exactly as before.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any

from sdk import Bot, MatchInfo


class RandomBot(Bot):
    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.random = random.Random(seed)

    def on_start(self, match: MatchInfo) -> None:
        if self.seed is not None:
            self.random.seed(f"{self.seed}:{match.match_id}:{match.seat}")

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return self.random.choice(list(legal_actions))


if __name__ == "__main__":
    from sdk.run import run

    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--seed", type=int, default=None)
    seed = parser.parse_known_args()[0].seed
    run(lambda: RandomBot(seed))
