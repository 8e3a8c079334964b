"""A bot for any game: a uniformly random legal action.

    python -m bots.random_bot [--seed N]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sdk import Bot


class RandomBot(Bot):
    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return self.random.choice(list(legal_actions))


if __name__ == "__main__":
    from sdk.run import run

    run(RandomBot)
