"""A bot that plays the policy ``train.py`` trained: it sees each observation as the
environment it learned in did (``sdk.rl``'s encoder and action space, numpy only) and plays
the legal action its policy scores best.

    python bot.py         # as the arena runs it, in its folder beside policy.npz
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from policy import Policy

from arena.games import get_game
from sdk import Bot, MatchInfo
from sdk.rl.actions import Catalogue, deck_of
from sdk.rl.encoding import Encoder

WEIGHTS = Path(__file__).with_name("policy.npz")


class TrainedBot(Bot):
    def __init__(self, weights: Path = WEIGHTS) -> None:
        self.policy = Policy.load(weights)
        self.layouts: dict[Any, tuple[Encoder, Catalogue]] = {}
        self.encoder: Encoder | None = None
        self.catalogue: Catalogue | None = None

    def on_start(self, match: MatchInfo) -> None:
        key = (match.game, match.players, tuple(sorted(match.options.items())))
        if key not in self.layouts:
            game = get_game(match.game)
            deck = deck_of(game, match.players, match.options)
            self.layouts[key] = (Encoder(game, match.players, deck),
                                 Catalogue(game, match.players, deck))
        self.encoder, self.catalogue = self.layouts[key]
        inputs, _, actions = self.policy.shape
        if (self.encoder.size, len(self.catalogue)) != (inputs, actions):
            raise ValueError(f"the policy was trained for another table: {match.game} at "
                             f"{match.players} seats sees {self.encoder.size} numbers and has "
                             f"{len(self.catalogue)} actions, the policy {inputs} and {actions}")

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        assert self.encoder is not None and self.catalogue is not None
        mask = np.zeros(len(self.catalogue), np.bool_)
        mask[[self.catalogue.index(action) for action in legal_actions]] = True
        return self.catalogue.actions[self.policy.choose(self.encoder.encode(observation), mask)]


if __name__ == "__main__":
    from sdk.run import run

    run(TrainedBot)
