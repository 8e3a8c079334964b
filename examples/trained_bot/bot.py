"""A bot that plays the policy ``train.py`` trained: it sees each observation as the
environment it learned in did (``sdk.rl``'s spaces, numpy only) and plays the legal action its
policy scores best.

    python bot.py         # as the arena runs it, in its folder beside policy.npz
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from policy import Policy

from arena.games import get_game
from sdk import Bot, MatchInfo
from sdk.rl.spaces import Spaces

WEIGHTS = Path(__file__).with_name("policy.npz")


class TrainedBot(Bot):
    def __init__(self, weights: Path = WEIGHTS) -> None:
        self.policy = Policy.load(weights)
        self.tables: dict[Any, Spaces] = {}  # by game, seats and options: built once each
        self.spaces: Spaces | None = None

    def on_start(self, match: MatchInfo) -> None:
        key = (match.game, match.players, tuple(sorted(match.options.items())))
        if key not in self.tables:
            self.tables[key] = Spaces.of(get_game(match.game), match.players, match.options)
        self.spaces = spaces = self.tables[key]
        inputs, _, actions = self.policy.shape
        if (spaces.encoder.size, len(spaces.catalogue)) != (inputs, actions):
            raise ValueError(f"the policy was trained for another table: {match.game} at "
                             f"{match.players} seats sees {spaces.encoder.size} numbers and has "
                             f"{len(spaces.catalogue)} actions, the policy {inputs} and {actions}")

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        assert self.spaces is not None
        index = self.policy.choose(self.spaces.encoder.encode(observation),
                                   self.spaces.mask(legal_actions))
        return self.spaces.catalogue.actions[index]


if __name__ == "__main__":
    from sdk.run import run

    run(TrainedBot)
