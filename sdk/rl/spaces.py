"""A game's two spaces at a table: what a seat sees, as numbers (:class:`~sdk.rl.encoding.Encoder`),
and what it may do, as indices (:class:`~sdk.rl.actions.Catalogue`), both built over the same
deck. The environments, the dataset export (``arena dataset export``) and a trained bot see
through the very same pair::

    spaces = Spaces.of(get_game("king"), 4, options)
    numbers = spaces.encoder.encode(observation)
    mask = spaces.mask(legal_actions)
    action = spaces.catalogue.actions[index]

numpy only: a trained bot needs no PettingZoo.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.games.base import Game
from sdk.rl.actions import Catalogue, deck_of
from sdk.rl.encoding import Encoder


@dataclass(frozen=True)
class Spaces:
    """``game`` at a table of ``players``: its ``encoder`` and its action ``catalogue``."""

    game: Game[Any, Any, Any]
    players: int
    encoder: Encoder
    catalogue: Catalogue

    @classmethod
    def of(cls, game: Game[Any, Any, Any], players: int, options: Mapping[str, Any]) -> Spaces:
        """The spaces of ``game`` at ``players`` seats with these (parsed) options."""
        deck = deck_of(game, players, options)
        return cls(game, players, Encoder(game, players, deck), Catalogue(game, players, deck))

    def mask(self, legal_actions: Iterable[Any]) -> np.ndarray:
        """The legal actions as a mask over the action space (booleans)."""
        found = np.zeros(len(self.catalogue), np.bool_)
        found[[self.catalogue.index(action) for action in legal_actions]] = True
        return found


__all__ = ["Spaces"]
