"""A heuristic bot for Kings in the Corner.

Every card left in hand at the end of a deal costs points (a King 10), and a
deal ends the moment someone empties their hand, so the bot sheds as much as it
can every turn and only then ends it. Each decision takes the best move by
these priorities:

1. a King from hand to an empty corner (sheds the 10-point cards);
2. a side pile with a King at the bottom to an empty corner (frees a side);
3. a card from hand onto a pile, or into an empty side (any card may start
   one; Kings first when no corner is free), preferring a card onto which
   another card of its hand fits next (chains), then higher ranks (low cards
   fit on more tops, so they are easier to shed later);
4. a whole side pile onto another pile, when that frees a side for a card in
   hand.

Every move shrinks the hand or the board's free structure (rules §11), so the
turn always ends.

    python -m bots.kings_corner
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.games.cards import Card, Rank
from arena.games.kings_corner import (
    EndTurn,
    FillSide,
    KingToCorner,
    MovePile,
    Observation,
    PileToCorner,
    Play,
    fits,
)
from sdk import Bot


class KingsCornerBot(Bot):
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        obs: Observation = observation
        best: Any = EndTurn()
        best_score = 0.0
        for action in legal_actions:
            score = self._score(obs, action)
            if score > best_score:
                best, best_score = action, score
        return best

    @staticmethod
    def _score(obs: Observation, action: Any) -> float:
        hand = obs.hand
        if isinstance(action, KingToCorner):
            return 100.0
        if isinstance(action, PileToCorner):
            return 90.0
        if isinstance(action, (Play, FillSide)):
            card: Card = action.card
            chains = any(fits(other, card) for other in hand if other != card)
            score = 50.0 + (10.0 if chains else 0.0) + int(card.rank) / 10
            if isinstance(action, FillSide):
                # A King on a side is 10 points shed; otherwise a side is better kept
                # for a card that fits nowhere, so plain plays go first.
                score += 30.0 if card.rank is Rank.KING else -5.0
            return score
        if isinstance(action, MovePile):
            return 40.0 if hand else 0.0
        return 0.0


if __name__ == "__main__":
    from sdk.run import run

    run(KingsCornerBot)
