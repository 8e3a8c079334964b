"""A heuristic bot for Face Card / Kill Card.

It weighs each draw: the chance of a face card (face cards not yet seen over
the stock size) against what it stands to lose (its whole total) and to gain
(the mean value of the number cards left). It keeps drawing while it trails
the best rival's visible total plus an average hole card, and stops once it
leads by a margin or the odds turn against it.

    python -m bots.face_card_kill_card [--margin N]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from arena.games.cards import Rank
from arena.games.face_card_kill_card import Draw, Observation, Stop, card_value
from sdk import Bot

MEAN_HOLE = 5.5  # 13 ranks: 2..10, ace 11, three faces at 0 -> (54 + 11) / 13, rounded down


class FaceCardBot(Bot):
    def __init__(self, margin: float = 3.0) -> None:
        self.margin = margin

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        obs: Observation = observation
        if Draw() not in legal_actions:
            return Stop()
        me = obs.seat
        ace = obs.ace_value
        my_total = obs.face_up_totals[me] + sum(card_value(c, ace) for c in obs.hole_cards)
        rivals = [s for s in range(obs.players)
                  if s != me and obs.in_game[s] and not obs.eliminated[s]]
        best_rival = max((obs.face_up_totals[s] + MEAN_HOLE * obs.hole_counts[s] for s in rivals),
                         default=0.0)
        risk = obs.face_cards_unseen / max(1, obs.stock_size)
        gain = self._mean_number_value(obs)
        if my_total < best_rival + self.margin:
            # Behind: a draw is the only way to win, unless it is nearly hopeless.
            return Draw() if risk < 0.6 else Stop()
        # Ahead: draw only when the expected gain outweighs the expected loss.
        return Draw() if (1 - risk) * gain > risk * my_total * 1.5 else Stop()

    @staticmethod
    def _mean_number_value(obs: Observation) -> float:
        seen = [c for pile in obs.face_up for c in pile] + list(obs.hole_cards)
        numbers_total = (sum(range(2, 11)) + obs.ace_value) * 4 * _decks(obs)
        numbers_left = 40 * _decks(obs)
        for card in seen:
            if not card.rank.is_face:
                numbers_total -= card_value(card, obs.ace_value)
                numbers_left -= 1
        return numbers_total / max(1, numbers_left)


def _decks(obs: Observation) -> int:
    seen_faces = sum(1 for pile in obs.face_up for c in pile if c.rank in
                     (Rank.JACK, Rank.QUEEN, Rank.KING))
    seen_faces += sum(1 for c in obs.hole_cards if c.rank.is_face)
    return (obs.face_cards_unseen + seen_faces) // 12


if __name__ == "__main__":
    from sdk.run import run

    parser = argparse.ArgumentParser()
    parser.add_argument("--margin", type=float, default=3.0)
    args, _ = parser.parse_known_args(sys.argv[1:])
    run(lambda: FaceCardBot(args.margin))
